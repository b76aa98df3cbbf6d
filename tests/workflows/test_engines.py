"""lifecycle.harvest and convergent.search on both engines (issue 25): one simulator world, the same
result shape, and mostly the same entities (overlap measured by entity resolution, printed)."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from exa_orch.app import open_app
from exa_orch.config import Settings
from exa_orch.gateway import prices
from exa_orch.sim.context import SimConfig
from exa_orch.sim.testing import SimHandle, running_sim
from exa_orch.workflows import entities, rows
from tests.conftest import TEST_SPEED
from tests.support import WAIT, until
from tests.workflows.conftest import OpenApp, agent_runs, run_task, run_tasks

HARVEST: dict[str, Any] = {
    "query": "AI startups in Europe",
    "entity": {"type": "company"},
    "count": 20,
    "criteria": [{"description": "based in Europe"}],
    "enrichments": [
        {"description": "Number of employees", "format": "number"},
        {"description": "Is it profitable", "format": "boolean"},
    ],
    "timeout": 60_000,
    "verifyCitations": False,  # what each engine costs, nothing else (tests/workflows/test_citations.py)
}
CONVERGENT: dict[str, Any] = {
    "queries": ["AI startups in Europe", "European machine learning companies", "fintech startups in Europe"],
    "entity": {"type": "company"},
    "criteria": [{"description": "based in Europe"}],
    "count": 12,
    "timeout": 60_000,
}


def overlap(a: list[dict[str, Any]], b: list[dict[str, Any]]) -> tuple[int, int, int]:
    """(entities of a, entities of b, entities both hold), by entity resolution over a + b."""
    resolution = entities.resolve([*a, *b])
    sides = [({i < len(a) for i in group}) for group in resolution.groups]
    in_a = sum(1 for s in sides if True in s)
    in_b = sum(1 for s in sides if False in s)
    return in_a, in_b, sum(1 for s in sides if s == {True, False})


def shape(value: Any) -> Any:
    """A result's shape: its keys, recursively (a list by its first element), without values."""
    if isinstance(value, dict):
        return {k: shape(v) for k, v in value.items()}
    if isinstance(value, list):
        return [shape(value[0])] if value else []
    return None


def same_shape(websets: dict[str, Any], agent: dict[str, Any], ids: str) -> None:
    """The agent result has the Websets result's keys, plus runIds; ids (websetId(s)) null there."""
    assert set(agent) - {"runIds"} == set(websets), set(agent) ^ set(websets)
    assert websets["engine"] == "websets" and agent["engine"] == "agent"
    assert agent[ids] is None and agent["runIds"] and "runIds" not in websets


def filed(tmp_path: Path) -> dict[str, tuple[str, int]]:
    """task id -> (engine, exa_runs) as the archive filed them (workflow_runs)."""
    with sqlite3.connect(tmp_path / "workflows.db") as conn:
        rows = conn.execute("SELECT task_id, engine, exa_runs FROM workflow_runs").fetchall()
    return {t: (e, n) for t, e, n in rows}


async def test_harvest_on_both_engines_returns_the_same_shape_and_entities(
    research_app: OpenApp, sim: SimHandle, tmp_path: Path
) -> None:
    async with research_app() as app:
        on_websets, on_agent = await run_tasks(
            app, ("lifecycle.harvest", HARVEST), ("lifecycle.harvest", {**HARVEST, "engine": "agent"})
        )
    assert on_websets.status == on_agent.status == "completed", (on_websets.error, on_agent.error)
    w, a = on_websets.result, on_agent.result
    same_shape(w, a, "websetId")
    assert shape(a["items"][0])["properties"].keys() >= {"type", "url", "description", "company"}
    assert set(shape(a["items"][0])) >= {"id", "properties", "evaluations", "enrichments"}
    assert a["enrichmentCount"] == w["enrichmentCount"] == 2
    # every kept row passed the criterion; its fields are the enrichments, in order
    for item in a["items"]:
        assert [e["satisfied"] for e in item["evaluations"]] == ["yes"]
        assert [e["enrichmentId"] for e in item["enrichments"]] == a["enrichmentIds"]
        # fields and verdicts carry the run's citations for them (grounding rows[k].field0 ...)
        assert all(e["references"] for e in item["enrichments"]) and item["evaluations"][0]["references"]
    n_w, n_a, both = overlap(w["items"], a["items"])
    share = both / max(n_w, n_a)
    print(f"lifecycle.harvest websets {n_w} entities, agent {n_a}, both {both}: overlap {share:.2f}")
    assert share >= 0.8 and a["itemCount"] == w["itemCount"] == HARVEST["count"]
    runs = agent_runs(sim)
    assert [runs.get(r).request.get("previousRunId") for r in a["runIds"]][1:] == a["runIds"][:-1]
    assert filed(tmp_path) == {on_websets.id: ("websets", 1), on_agent.id: ("agent", len(a["runIds"]))}
    with sqlite3.connect(tmp_path / "workflows.db") as conn:  # what each engine cost, beside its items
        cost = dict(conn.execute("SELECT engine, cost_usd FROM workflow_runs").fetchall())
    runs_cost = sum(runs.get(r).extra["outcome"].cost["total"] for r in a["runIds"])
    assert cost["agent"] == pytest.approx(runs_cost) and cost["websets"] > 0
    print(f"lifecycle.harvest cost: websets ${cost['websets']:.3f}, agent ${cost['agent']:.3f}")


async def test_convergent_on_both_engines_returns_the_same_shape_and_entities(
    research_app: OpenApp, tmp_path: Path
) -> None:
    async with research_app() as app:
        on_websets, on_agent = await run_tasks(
            app, ("convergent.search", CONVERGENT), ("convergent.search", {**CONVERGENT, "engine": "agent"})
        )
    assert on_websets.status == on_agent.status == "completed", (on_websets.error, on_agent.error)
    w, a = on_websets.result, on_agent.result
    same_shape(w, a, "websetIds")
    assert len(a["overlapMatrix"]) == len(w["overlapMatrix"]) == 3

    def items(result: dict[str, Any]) -> list[dict[str, Any]]:
        held = [e["entity"] for e in result["intersection"]]
        # an intersection entry names its items; unique lists one item per entity
        return [
            *({"id": e["itemIds"][0], "properties": {"type": e.get("type"), "url": e["url"],
              "company": {"name": e["name"]}}} for e in held),
            *(i for u in result["unique"] for i in u["items"]),
        ]  # fmt: skip

    n_w, n_a, both = overlap(items(w), items(a))
    share = both / max(n_w, n_a)
    print(
        f"convergent.search websets {n_w} entities ({len(w['intersection'])} in 2+ queries), agent {n_a} "
        f"({len(a['intersection'])}), both {both}: overlap {share:.2f}"
    )
    assert n_w == w["totalUniqueEntities"] and n_a == a["totalUniqueEntities"]
    assert share >= 0.8
    assert filed(tmp_path) == {on_websets.id: ("websets", 3), on_agent.id: ("agent", len(a["runIds"]))}


async def test_a_harvest_on_the_agent_engine_resumed_mid_run_starts_no_run_twice(tmp_path: Path) -> None:
    async with running_sim(SimConfig(speed=TEST_SPEED)) as sim:
        settings = Settings(
            exa_url=sim.url, simulator=True, db_path=tmp_path / "w.db", rps=1000.0, concurrency=8
        )
        args = {**HARVEST, "count": 60, "engine": "agent"}  # three chunks of 25 rows at most
        async with open_app(settings, tmp_path / "w.db") as app:
            created = await app.run_operation("tasks.create", {"type": "lifecycle.harvest", **args})
            task_id = created["taskId"]

            async def second_chunk_started() -> bool:
                if any(k.startswith("create.run.c1") for k in await app.store.load_steps(task_id)):
                    sim.ctx.clock.set_speed(1e-9)  # the second run stays running while the app stops
                    return True
                return False

            await until(second_chunk_started)
            mid = await app.store.get_task(task_id)
            before = list(agent_runs(sim).runs)
        assert mid.status == "working"
        sim.ctx.clock.set_speed(TEST_SPEED)
        async with open_app(settings, tmp_path / "w.db") as app:
            assert app.supervisor is not None
            done = await app.supervisor.tasks.wait(task_id, timeout=WAIT)
        made = list(agent_runs(sim).runs)
    assert done.status == "completed", done.error
    assert len(before) == 2 and made[:2] == before
    assert made == done.result["runIds"]  # each chunk's run started once across the restart
    assert (
        done.result["itemCount"] == 60 and len({i["properties"]["url"] for i in done.result["items"]}) == 60
    )


async def test_previews_price_the_agent_engine_and_a_run_stays_within_its_range(
    research_app: OpenApp, sim: SimHandle
) -> None:
    winnow = {
        "query": "AI startups", "entity": {"type": "company"}, "criteria": [{"description": "based in Europe"}],
        "enrichments": [], "maxRounds": 3, "engine": "agent",
    }  # fmt: skip
    async with research_app(engine="agent") as app:  # EXA_ORCH_ENGINE=agent: args naming none get it

        async def preview(kind: str, args: dict[str, Any]) -> dict[str, Any]:
            got = await app.run_operation(
                "tasks.create", {"type": kind, **args, "verifyCitations": False, "preview": True}
            )
            cost: dict[str, Any] = got["cost"]
            return cost

        harvest = await preview("lifecycle.harvest", HARVEST)
        convergent = await preview("convergent.search", CONVERGENT)
        explore = await preview("qd.winnow", winnow)
        repeat = await preview("qd.winnow", {**winnow, "explore": False})
        on_websets = await preview("lifecycle.harvest", {**HARVEST, "engine": "websets"})
        assert sim.log() == []  # a preview sends nothing
        created = await app.run_operation("tasks.create", {"type": "lifecycle.harvest", **HARVEST})
        assert app.supervisor is not None
        done = await app.supervisor.tasks.wait(created["taskId"], timeout=WAIT)
        spent = await app.run_operation("tasks.get", {"task_id": created["taskId"]})
    # count 20: one chunk of 20 rows (certain: it is sent) and one more run for a shortfall, each at
    # the fixed price of the effort research.create sends (medium)
    each = prices.AGENT_FIXED[rows.RUN_EFFORT]
    assert (harvest["lowUsd"], harvest["highUsd"]) == pytest.approx((each, rows.runs(20) * each))
    assert (convergent["lowUsd"], convergent["highUsd"]) == pytest.approx(
        (3 * each, 3 * rows.runs(12) * each)
    )
    assert (explore["lowUsd"], explore["highUsd"]) == pytest.approx((each, (1 + 2 * 2) * each))  # 2 niches
    assert repeat["highUsd"] == pytest.approx(3 * each)
    assert "webset" in on_websets["parts"][0]["what"]
    assert done.status == "completed" and done.result["engine"] == "agent"
    assert 0 < spent["cost"]["usd"] <= harvest["highUsd"]


async def test_a_cancel_on_the_agent_engine_cancels_every_running_run(
    research_app: OpenApp, sim: SimHandle
) -> None:
    async with research_app() as app:
        sim.ctx.clock.set_speed(1e-9)  # held: every query's first run is still running at the cancel
        created = await app.run_operation(
            "tasks.create", {"type": "convergent.search", **CONVERGENT, "engine": "agent"}
        )
        task_id = created["taskId"]

        async def all_started() -> bool:
            return "create.2.run" in await app.store.load_steps(task_id)

        await until(all_started)
        await app.run_operation("tasks.cancel", {"taskId": task_id})
        assert app.supervisor is not None
        done = await app.supervisor.tasks.wait(task_id, timeout=WAIT)
        steps = await app.store.load_steps(task_id)
    assert done.status == "cancelled"
    made = [steps[f"create.{i}.run"]["researchId"] for i in range(3)]
    runs = agent_runs(sim)
    now = sim.ctx.clock.now()
    assert [runs.get(r).status(now) for r in made] == ["cancelled"] * 3
    assert len(runs.runs) == 3  # and no follow-up was started


async def test_a_failed_run_fails_the_task_with_its_typed_error_naming_the_runs(
    research_app: OpenApp,
) -> None:
    queries = [CONVERGENT["queries"][0], f"{CONVERGENT['queries'][1]} [sim:fail]"]  # the simulator fails it
    async with research_app() as app:
        harvest, convergent = await run_tasks(
            app,
            ("lifecycle.harvest", {**HARVEST, "query": "AI startups [sim:fail]", "engine": "agent"}),
            ("convergent.search", {**CONVERGENT, "queries": queries, "engine": "agent"}),
        )
        h_steps = await app.store.load_steps(harvest.id)
        c_steps = await app.store.load_steps(convergent.id)
    assert harvest.status == convergent.status == "failed"
    assert harvest.error is not None and convergent.error is not None
    assert harvest.error["code"] == convergent.error["code"] == "API_ERROR"
    assert h_steps["create.run"]["researchId"] in harvest.error["message"]
    for i in range(2):  # both queries' runs are named: they outlive the task at Exa
        assert c_steps[f"create.{i}.run"]["researchId"] in convergent.error["message"]
    assert "research.get" in convergent.error["message"]


async def test_a_timeout_on_the_agent_engine_returns_what_was_found_and_leaves_the_run_running(
    research_app: OpenApp, sim: SimHandle
) -> None:
    async with research_app() as app:
        sim.ctx.clock.set_speed(1e-9)  # held: the run is still running when the 0.5 s timeout ends
        done = await run_task(app, "lifecycle.harvest", {**HARVEST, "timeout": 500, "engine": "agent"})
    assert done.status == "completed", done.error
    result = done.result
    assert result["timedOut"] is True and result["partial"] is True and result["itemCount"] == 0
    [rid] = result["runIds"]
    assert rid in result["timedOutNote"] and "research.get" in result["timedOutNote"]
    assert agent_runs(sim).get(rid).status(sim.ctx.clock.now()) in ("queued", "running")  # not cancelled
    assert [s["status"] for s in result["steps"] if s["name"] == "search"] == ["timedOut"]


async def test_the_agent_engine_tells_its_runs_what_one_row_is(research_app: OpenApp, sim: SimHandle) -> None:
    people = {**HARVEST, "query": "working in Europe", "entity": {"type": "person"}, "criteria": None,
              "enrichments": None, "count": 5, "engine": "agent"}  # fmt: skip
    custom = {"type": "custom", "description": "open-source machine learning projects"}
    async with research_app() as app:
        done, other = await run_tasks(
            app,
            ("lifecycle.harvest", people),
            ("convergent.search", {**CONVERGENT, "entity": custom, "count": 3, "engine": "agent"}),
        )
    assert done.status == other.status == "completed", (done.error, other.error)
    runs = agent_runs(sim)
    [rid] = done.result["runIds"]
    assert runs.get(rid).request["systemPrompt"] == rows.ENTITY_PROMPTS["person"]
    world = sim.ctx.world
    assert [world.by_url(i["properties"]["url"]).kind for i in done.result["items"]] == ["person"] * 5  # type: ignore[union-attr]
    assert all(i["properties"]["type"] == "person" for i in done.result["items"])
    prompts = {runs.get(r).request["systemPrompt"] for r in other.result["runIds"]}
    assert prompts == {"Each row is one of: open-source machine learning projects; its url is its own page."}


async def test_a_task_resumed_under_another_exa_orch_engine_keeps_its_engine(tmp_path: Path) -> None:
    async with running_sim(SimConfig(speed=TEST_SPEED)) as sim:

        def settings(engine: str) -> Settings:
            return Settings(
                exa_url=sim.url,
                simulator=True,
                db_path=tmp_path / "w.db",
                rps=1000.0,
                concurrency=8,
                engine=engine,
            )

        async with open_app(settings("websets"), tmp_path / "w.db") as app:
            sim.ctx.clock.set_speed(1e-9)  # the webset is still searching when the server stops
            created = await app.run_operation("tasks.create", {"type": "lifecycle.harvest", **HARVEST})
            task_id = created["taskId"]

            async def webset_made() -> bool:
                return "create.webset" in await app.store.load_steps(task_id)

            await until(webset_made)
        sim.ctx.clock.set_speed(TEST_SPEED)
        async with open_app(settings("agent"), tmp_path / "w.db") as app:  # EXA_ORCH_ENGINE=agent now
            assert app.supervisor is not None
            done = await app.supervisor.tasks.wait(task_id, timeout=WAIT)
    assert done.status == "completed", done.error
    assert done.result["engine"] == "websets" and done.result["websetId"] and not agent_runs(sim).runs
