"""Entity memory and `known` (issue 39) on the whole app and the simulator (real HTTP on loopback).

Two identical harvests, the second with known: "skip": it returns no entity the first returned,
pays for no item or enrichment cell the first paid for, and costs less; v_entities (through
`exa-orch sql`'s query, for the local principal) holds each entity once with its sightings.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from exa_orch.app import App
from exa_orch.gateway.prices import WEBSET_ANALYZED_PER_ITEM
from exa_orch.runtime import Principal
from exa_orch.sim.exchanges import EXCHANGE_HOOKS, Exchange
from exa_orch.sim.testing import SimHandle
from exa_orch.store.admin import run_query
from tests.support import WAIT
from tests.workflows.conftest import OpenApp, agent_runs, run_task

ARGS: dict[str, Any] = {
    "query": "startups in France",  # the simulator's world holds 46 French companies: 30, then 16 new ones
    "entity": {"type": "company"},
    "criteria": [{"description": "based in France"}],
    "count": 30,
    "enrichments": [{"description": "Number of employees", "format": "number"}],
    "timeout": 60_000,
}


def sim_webset(sim: SimHandle, webset_id: str) -> Any:
    return sim.ctx.extras["websets"].websets[webset_id]


async def entities_view(app: App, viewer: str) -> list[dict[str, Any]]:
    columns, rows = await run_query(
        app.settings.db_path, "select id, name, urls, sightings, tasks from v_entities", viewer=viewer
    )
    return [dict(zip(columns, r, strict=True)) for r in rows]


async def test_a_repeat_harvest_with_known_skip_pays_for_new_entities_only(
    research_app: OpenApp, sim: SimHandle, tmp_path: Path
) -> None:
    async with clock_per_read(sim, READ_MOVES_S), research_app() as app:
        first = await run_task(app, "lifecycle.harvest", ARGS)
        assert first.status == "completed", first.error
        second = await run_task(app, "lifecycle.harvest", {**ARGS, "known": "skip"})
        assert second.status == "completed", second.error
        ledger = await run_query(
            app.settings.db_path,
            "select task_id, operation, count(*), sum(usd) from costs"
            f" where task_id in ('{first.id}', '{second.id}') group by task_id, operation",
        )
        me = app.settings.principal
        view = await entities_view(app, me)
        sightings = await run_query(
            app.settings.db_path, "select entity_id, task_id, url, sources from v_sightings", viewer=me
        )
    one, two = first.result, second.result
    assert one["itemCount"] == 30 and all(i["known"] is False for i in one["items"])  # mark: the default
    # The second returns no entity the first returned...
    first_urls = {i["properties"]["url"] for i in one["items"]}
    # What is left of the 46 (an item the resolver finds to be a known company on another page is
    # left out too, though Exa, which excludes by page, found and billed it).
    assert 0 < two["itemCount"] <= len(sim_webset(sim, two["websetId"]).items) < 30
    assert not first_urls & {i["properties"]["url"] for i in two["items"]}
    # ... and paid for none at the simulator: its webset's items (each billed, each enriched) are all new.
    paid_first = {i.entity.id for i in sim_webset(sim, one["websetId"]).items}
    paid_second = sim_webset(sim, two["websetId"]).items
    assert paid_second and not paid_first & {i.entity.id for i in paid_second}
    assert all(i.enriched for i in paid_second)  # the enrichment cells it paid for are on new items only
    assert sim_webset(sim, two["websetId"]).search_ids  # one search, with the known ones excluded
    search = sim.ctx.extras["websets"].searches[sim_webset(sim, two["websetId"]).search_ids[0]]
    assert search.exclude and search.exclude[0]["source"] == "import"
    # Its ledger: fewer items and enrichment cells than the first, and only its new ones.
    paid = {(task, op): (n, usd) for task, op, n, usd in ledger[1]}
    for op in ("websets.item", "websets.enrichment"):
        assert paid[(second.id, op)][0] == len(paid_second) < paid[(first.id, op)][0] == 30
        assert paid[(second.id, op)][1] < paid[(first.id, op)][1]
    # ... and in all (known: skip held its search to what the first analyzed: gateway/prices.py).
    total = {task: sum(usd for t, _, _, usd in ledger[1] if t == task) for task in (first.id, second.id)}
    assert total[second.id] < total[first.id], (
        two.get("stopped"),
        two["searchProgress"],
        one["searchProgress"],
    )
    # v_entities: each entity once, with its sightings.
    assert len(view) == len(first_urls) + two["itemCount"]
    assert len({json.dumps(sorted(json.loads(e["urls"]))) for e in view}) == len(view)
    # Every item either run paid for is a sighting; an entity seen twice is one the second left out.
    assert sum(e["sightings"] for e in view) == 30 + len(paid_second)
    assert sum(e["tasks"] == 2 for e in view) == len(paid_second) - two["itemCount"]
    assert all(e["sightings"] == e["tasks"] for e in view)
    by_task: dict[str, int] = {}
    for _, task_id, _, sources in sightings[1]:
        by_task[task_id] = by_task.get(task_id, 0) + 1
        assert json.loads(sources)  # the pages its criteria and fields cite
    assert by_task == {first.id: 30, second.id: len(paid_second)}


async def test_mark_says_known_and_since_when_and_sightings_add_up(research_app: OpenApp) -> None:
    args = {**ARGS, "count": 5, "enrichments": None}
    async with research_app() as app:
        first = await run_task(app, "lifecycle.harvest", args)
        second = await run_task(app, "lifecycle.harvest", args)
        third = await run_task(app, "lifecycle.harvest", {**args, "known": "ignore"})
        view = await entities_view(app, app.settings.principal)
    assert [i["known"] for i in first.result["items"]] == [False] * 5
    known = {i["properties"]["url"]: i for i in second.result["items"]}
    assert set(known) == {i["properties"]["url"] for i in first.result["items"]}  # the same five
    assert all(i["known"] is True and i["knownSince"] for i in known.values())
    assert "known" not in third.result["items"][0]  # ignore: no mark
    assert len(view) == 5 and all(e["sightings"] == 3 and e["tasks"] == 3 for e in view)


async def test_agent_engine_skip_sends_the_known_as_input_exclusion(
    research_app: OpenApp, sim: SimHandle
) -> None:
    args = {**ARGS, "count": 5, "enrichments": None, "engine": "agent"}
    async with research_app() as app:
        first = await run_task(app, "lifecycle.harvest", args)
        second = await run_task(app, "lifecycle.harvest", {**args, "known": "skip"})
    assert first.status == second.status == "completed", (first.error, second.error)
    names = {i["properties"]["company"]["name"] for i in first.result["items"]}
    asked = agent_runs(sim).runs[second.result["runIds"][0]].request
    excluded = asked["input"]["exclusion"]
    assert {r["name"] for r in excluded} == names
    assert second.result["itemCount"] > 0
    assert not names & {i["properties"]["company"]["name"] for i in second.result["items"]}


async def test_memory_is_per_principal_in_tasks_and_sql(research_app: OpenApp) -> None:
    args = {**ARGS, "count": 5, "enrichments": None}
    bob = Principal("token:bob")
    async with research_app() as app:
        assert app.tasks is not None
        mine = await run_task(app, "lifecycle.harvest", args)
        created = await app.run_operation(
            "tasks.create", {"type": "lifecycle.harvest", **args}, principal=bob
        )
        theirs = await app.tasks.wait(created["taskId"], timeout=WAIT)
        me = app.settings.principal
        view_me, view_bob = await entities_view(app, me), await entities_view(app, bob.name)
        view_all = await entities_view(app, "*")
        raw = await _refused(app, "select name from memory_entities", me)
    # Bob's harvest of the same five knows none of mine: memory is his own.
    assert all(i["known"] is False for i in theirs.result["items"])
    assert all(i["known"] is False for i in mine.result["items"])
    assert len(view_me) == len(view_bob) == 5 and len(view_all) == 10
    assert not {e["id"] for e in view_me} & {e["id"] for e in view_bob}
    assert "memory_entities" in raw


async def _refused(app: App, query: str, viewer: str) -> str:
    from exa_orch.errors import InvalidParams

    try:
        await run_query(app.settings.db_path, query, viewer=viewer)
    except InvalidParams as exc:
        return exc.message
    raise AssertionError(f"{query!r} was not refused")


async def test_every_collection_workflow_remembers_and_convergent_marks_and_verified_skips(
    research_app: OpenApp, sim: SimHandle
) -> None:
    base = {
        "entity": {"type": "company"},
        "criteria": [{"description": "based in France"}],
        "timeout": 60_000,
    }
    async with research_app() as app:
        harvest = await run_task(
            app, "lifecycle.harvest", {**base, "query": "startups in France", "count": 5}
        )
        convergent = await run_task(
            app,
            "convergent.search",
            {**base, "queries": ["startups in France", "French companies"], "count": 5},
        )
        verified = await run_task(
            app, "research.verifiedCollection",
            {**base, "query": "startups in France", "count": 5, "known": "skip", "engine": "agent",
             "researchPrompt": "Who founded {{name}}?", "researchLimit": 1},
        )  # fmt: skip
        winnow = await run_task(
            app,
            "qd.winnow",
            {
                **base,
                "query": "startups in France",
                "count": 4,
                "maxRounds": 1,
                "enrichments": [{"description": "CEO name"}],
            },
        )
        _, rows = await run_query(
            app.settings.db_path, "select task_type, count(*) from v_sightings group by task_type",
            viewer=app.settings.principal,
        )  # fmt: skip
    for done in (harvest, convergent, verified, winnow):
        assert done.status == "completed", (done.type, done.error)
    seen = dict(rows)
    assert seen["lifecycle.harvest"] == 5 and seen["qd.winnow"] == len(winnow.result["finalElites"]) > 0
    assert seen["convergent.search"] == sum(convergent.result["itemCounts"])
    assert seen["research.verifiedCollection"] == verified.result["totalItems"] > 0
    # convergent marks what the harvest found; verified (skip) returned none of those.
    harvested = {i["properties"]["url"] for i in harvest.result["items"]}
    marked = [i for u in convergent.result["unique"] for i in u["items"]]
    assert any(i["known"] for i in marked) or convergent.result["intersection"]
    assert all(i["known"] == (i["properties"]["url"] in harvested) for i in marked)
    assert not harvested & {m["item"]["properties"]["url"] for m in verified.result["items"]}
    asked = agent_runs(sim).runs[verified.result["runIds"][0]].request
    assert len(asked["input"]["exclusion"]) >= 5  # the harvest's five and the convergent search's


SPARSE = ARGS  # 46 French companies: the repeat finds at most 16 new ones
# Simulated seconds each read (GET) of the simulator moves its clock by in the held-search test, so
# what a search has analyzed at each read never depends on how busy the machine is.
READ_MOVES_S = 5.0


@asynccontextmanager
async def clock_per_read(sim: SimHandle, seconds: float) -> AsyncIterator[None]:
    """Hold the simulator's clock (nearly still) and move it `seconds` after each GET it answers."""
    speed = sim.ctx.clock.speed

    def tick(exchange: Exchange) -> None:
        if exchange.method == "GET":
            sim.ctx.clock.advance(seconds)

    sim.ctx.clock.set_speed(1e-6)
    EXCHANGE_HOOKS.append(tick)
    try:
        yield
    finally:
        EXCHANGE_HOOKS.remove(tick)
        sim.ctx.clock.set_speed(speed)


RICH = {
    **ARGS,
    "query": "startups in the United States",
    "criteria": [{"description": "based in the United States"}],
}


@pytest.mark.parametrize("args", [SPARSE, RICH], ids=["sparse", "rich"])
async def test_a_repeat_with_known_skip_spends_no_more_on_searching_and_less_in_all(
    research_app: OpenApp, sim: SimHandle, args: dict[str, Any]
) -> None:
    async with clock_per_read(sim, READ_MOVES_S):  # simulated time moves by reads, not by wall time
        async with research_app() as app:
            first = await run_task(app, "lifecycle.harvest", args)
            second = await run_task(app, "lifecycle.harvest", {**args, "known": "skip"})
            _, rows = await run_query(
                app.settings.db_path,
                "select task_id, operation, count(*), sum(usd) from costs"
                f" where task_id in ('{first.id}', '{second.id}') group by task_id, operation",
            )
    assert first.status == second.status == "completed", (first.error, second.error)
    paid = {(task, op): (n, usd) for task, op, n, usd in rows}
    total = {
        task: sum(usd for (t, _), (_, usd) in paid.items() if t == task) for task in (first.id, second.id)
    }
    analyzed = {task: paid.get((task, "websets.analyzed"), (0, 0.0))[0] for task in (first.id, second.id)}
    one, two = first.result, second.result
    assert one["itemCount"] == 30 and "stoppedBy" not in one
    assert analyzed[first.id] == one["searchProgress"]["analyzed"] > 0
    # Searching: never more than the run it repeats; in all: less.
    assert 0 < analyzed[second.id] <= analyzed[first.id], analyzed
    assert total[second.id] < total[first.id], total
    search = sim.ctx.extras["websets"].searches[sim_webset(sim, two["websetId"]).search_ids[0]]
    if two.get("stopped"):  # cancelled through Exa's own search cancel...
        assert search.canceled_at is not None and two["stopped"]["allowance"] == analyzed[first.id]
        assert "allowance" in two["stopped"]["note"]
    else:  # ... or it found its count within the allowance
        assert "stoppedBy" not in two, two.get("stoppedBy")
        assert search.canceled_at is None and two["itemCount"] == 30
    # The ledger counted what the simulator's search analyzed, to its end (no candidate after a cancel).
    view = await_search_view(sim, two["websetId"])
    assert view["progress"]["analyzed"] == analyzed[second.id] == two["searchProgress"]["analyzed"]


def await_search_view(sim: SimHandle, webset_id: str) -> dict[str, Any]:
    """The simulator's answer for the webset's search now (its clock moves on: a cancelled search's
    `analyzed` must not)."""
    from exa_orch.sim.websets import views

    st = sim.ctx.extras["websets"]
    search = st.searches[sim_webset(sim, webset_id).search_ids[0]]
    return views.search(st, search, sim.ctx.clock.now() + 3600)


async def test_with_no_earlier_run_of_the_search_the_allowance_is_the_previews(research_app: OpenApp) -> None:
    args = {**ARGS, "count": 5, "enrichments": None}
    async with research_app() as app:
        await run_task(app, "lifecycle.harvest", args)  # memory holds five, of another search
        other = {**args, "criteria": [{"description": "based in Europe"}], "known": "skip"}
        second = await run_task(app, "lifecycle.harvest", other)
        third = await run_task(app, "lifecycle.harvest", {**args, "known": "skip", "count": 10})
        steps = {t.id: await app.store.load_steps(t.id) for t in (second, third)}
    assert steps[second.id]["wait.search.allowance"] == WEBSET_ANALYZED_PER_ITEM * 5
    # The same search's plain run analyzed so many for 5: for 10, twice that.
    first_analyzed = steps[third.id]["wait.search.allowance"] / 2
    assert first_analyzed == int(first_analyzed) > 0
