"""convergent.search: dedupe on a known small case, and the workflow on the whole app and the simulator."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from exa_orch.app import App
from exa_orch.errors import InvalidParams
from exa_orch.sim.testing import SimHandle
from exa_orch.store import Store, TaskStatus
from exa_orch.workflows.convergent import converge, group_entities
from tests.support import WAIT, until
from tests.workflows.conftest import OpenApp, has_step, run_task

MODULE = "exa_orch.workflows.convergent"
# Each finds at least 6 companies that pass every criterion Exa derives from it (AI, Europe): a
# webset keeps only those (data-design/exa-api-notes.md); their wordings rank them differently.
QUERIES = [
    "AI startups in Europe",
    "machine learning companies in Europe",
    "artificial intelligence startups in Europe",
]
BASE: dict[str, Any] = {"queries": QUERIES, "entity": {"type": "company"}, "count": 6, "timeout": 20_000}


def company(id: str, name: str | None, url: str | None = None) -> dict[str, Any]:
    props: dict[str, Any] = {"type": "company"}
    if url:
        props["url"] = url
    if name:
        props["company"] = {"name": name}
    return {"id": id, "properties": props}


def test_dedupe_on_a_known_small_case() -> None:
    a = [
        company("a1", "Acme Robotics", "https://acme.ai"),
        company("a2", "Nimbus Labs", "https://nimbus.io"),
        company("a3", "Solo One", "https://solo.one"),
    ]
    b = [
        company("b1", "Acme Robotics Inc.", "https://acme.ai/about"),  # legal form, same site
        company("b2", "Nimbus", "https://www.Nimbus.io/en/"),  # same registered domain, name extended
        company("b3", "Zephyr Grid", "https://zephyr.co"),
    ]
    c = [
        company("c1", "ACME Robotic", "https://acme-hq.ai"),  # near name, another domain: another entity
        company("c2", "Zephyr Grid", "https://zephyr.de"),  # regional site? no industry to corroborate
        company("c3", "Zephyr Grid GmbH", "https://zephyr.co/de"),  # same registered domain
    ]
    out = converge(["qa", "qb", "qc"], [a, b, c])
    assert out["totalUniqueEntities"] == 6
    found = {e["entity"]["name"]: (e["foundInQueries"], e["confidence"]) for e in out["intersection"]}
    assert found == {
        "Acme Robotics": (["qa", "qb"], 0.6667),
        "Nimbus Labs": (["qa", "qb"], 0.6667),
        "Zephyr Grid": (["qb", "qc"], 0.6667),
    }
    acme = out["intersection"][0]["entity"]
    assert acme["itemIds"] == ["a1", "b1"]
    assert acme["mergeReasons"] == [
        {"items": ["a1", "b1"], "reason": "same page acme.ai; same registered domain acme.ai (equal names)"}
    ]
    assert [(u["query"], [i["id"] for i in u["items"]]) for u in out["unique"]] == [
        ("qa", ["a3"]),
        ("qb", []),
        ("qc", ["c1", "c2"]),
    ]


def test_a_brand_on_two_country_domains_is_kept_apart_and_the_result_says_why() -> None:
    au = company("au", "Woolworths", "https://www.woolworths.com.au/")
    za = company("za", "Woolworths", "https://www.woolworths.co.za/")
    out = converge(["qa", "qb"], [[au], [za]])
    assert out["totalUniqueEntities"] == 2 and out["intersection"] == []
    assert out["keptApart"] == [
        {
            "items": ["au", "za"],
            "names": ["Woolworths", "Woolworths"],
            "reason": "not enough evidence (same brand on country domains woolworths.com.au / woolworths.co.za)",
        }
    ]


def test_dedupe_never_chains_through_one_link() -> None:
    # x1 ~ x2 (one site); y1 says it is also at alpha.com; y2 shares y1's name on another domain
    # with no evidence: it stays out even though it matches y1's name.
    x = [company("x1", "Alpha", "https://alpha.com"), company("x2", "Alpha Systems", "https://alpha.com/")]
    y1 = company("y1", "Alpha Systems Ltd", "https://alphasys.io")
    y1["properties"]["description"] = "Alpha Systems Ltd (also at alpha.com) builds robots."
    y = [y1, company("y2", "Alpha Systems", "https://alphasystems.net"), company("y3", None, None)]
    groups = group_entities([x, y])
    assert [[item["id"] for _, item in g] for g in groups] == [["x1", "x2", "y1"], ["y2"], ["y3"]]
    out = converge(["q0", "q1"], [x, y])
    assert out["overlapMatrix"] == [[1, 1], [1, 3]] and out["totalUniqueEntities"] == 3


async def start(app: App, args: dict[str, Any]) -> str:
    created = await app.run_operation("tasks.create", {"type": "convergent.search", **args})
    return str(created["taskId"])


def ground_truth(sim: SimHandle, item: dict[str, Any]) -> str:
    """The world's entity behind an item: a near-duplicate counts as the entity it duplicates."""
    world = sim.ctx.world
    entity = next(e for e in world.entities if e.url == item["properties"]["url"])
    return str(entity.attrs.get("duplicate_of") or entity.id)


async def test_convergent_search_triangulates_entities(research_app: OpenApp, sim: SimHandle) -> None:
    async with research_app(MODULE) as app:
        done = await run_task(app, "convergent.search", BASE)
        assert done.status == "completed", done.error
        result = done.result
        held = [
            (await app.run_operation("items.getAll", {"websetId": w, "fields": ["all"]}))["data"]
            for w in result["websetIds"]
        ]
        websets = [await app.run_operation("websets.get", {"id": w}) for w in result["websetIds"]]
    assert set(result) >= {
        "websetIds",
        "intersection",
        "unique",
        "overlapMatrix",
        "totalUniqueEntities",
        "duration",
    }
    assert [w["externalId"] for w in websets] == [f"{done.id}:create.{i}.webset" for i in range(3)]
    assert [w["searches"][0]["query"] for w in websets] == QUERIES
    assert result["itemCounts"] == [len(items) for items in held] == [6, 6, 6]
    # The world knows which items are the same company: the dedupe must agree with it.
    truth = [{ground_truth(sim, i) for i in items} for items in held]
    assert result["totalUniqueEntities"] == len(set().union(*truth))
    assert result["overlapMatrix"] == [[len(truth[a] & truth[b]) for b in range(3)] for a in range(3)]
    in_two = {e for e in set().union(*truth) if sum(e in t for t in truth) >= 2}
    assert len(result["intersection"]) == len(in_two) > 0
    for entry in result["intersection"]:
        assert len(entry["foundInQueries"]) >= 2
        assert entry["confidence"] == round(len(entry["foundInQueries"]) / 3, 4)
        ids = set(entry["entity"]["itemIds"])
        owners = [QUERIES[q] for q, items in enumerate(held) if ids & {i["id"] for i in items}]
        assert owners == entry["foundInQueries"]
    assert [u["query"] for u in result["unique"]] == QUERIES
    for q, u in enumerate(result["unique"]):
        assert {ground_truth(sim, i) for i in u["items"]} == {e for e in truth[q] if e not in in_two}
    assert result["timedOut"] is False and "partial" not in result
    assert result["duration"] >= sum(s["duration"] for s in result["steps"]) - len(result["steps"])


@pytest.mark.parametrize(
    ("args", "field"),
    [
        ({**BASE, "queries": ["only one"]}, "queries"),
        ({**BASE, "queries": [f"q{i}" for i in range(6)]}, "queries"),
        ({**BASE, "queries": ["AI startups", "ai startups "]}, "queries"),
        ({**BASE, "queries": ["AI startups", "  "]}, "queries"),
        ({"queries": QUERIES}, "entity"),
        ({**BASE, "entity": {"type": "companies"}}, "entity"),
        ({**BASE, "count": 0}, "count"),
        ({**BASE, "enrichments": []}, "enrichments"),
    ],
)
async def test_bad_args_are_refused_before_anything_is_written(
    research_app: OpenApp, sim: SimHandle, args: dict[str, Any], field: str
) -> None:
    async with research_app(MODULE) as app:
        with pytest.raises(InvalidParams) as caught:
            await app.run_operation("tasks.create", {"type": "convergent.search", **args})
        tasks, _ = await app.store.list_tasks()
    assert field in caught.value.fields, caught.value.fields
    assert tasks == [] and sim.stats()["total_requests"] == 0


async def test_resume_after_a_restart_creates_no_webset_twice(
    research_app: OpenApp, sim: SimHandle, tmp_path: Path
) -> None:
    sim.ctx.clock.set_speed(1.0)  # the searches take seconds: the restart comes mid-way
    async with research_app(MODULE) as app:
        task_id = await start(app, BASE)
        await until(lambda: has_step(app, task_id, "create.2.webset"))
        assert (await app.store.get_task(task_id)).status is TaskStatus.WORKING
    sim.ctx.clock.set_speed(100.0)
    # A crash right after webset 3 was created, before its checkpoint: drop that checkpoint.
    with sqlite3.connect(tmp_path / "workflows.db") as db:
        db.execute(
            "DELETE FROM task_steps WHERE task_id = ? AND step_key = 'create.2.webset'",
            (task_id,),
        )
    async with research_app(MODULE) as app:
        assert app.supervisor is not None
        done = await app.supervisor.tasks.wait(task_id, timeout=WAIT)
        assert done.status == "completed", done.error
        websets = await app.run_operation("websets.list", {"limit": 100})
    assert sorted(w["id"] for w in websets["data"]) == sorted(done.result["websetIds"])
    assert sim.stats()["creates_by_external_id"] == {f"{task_id}:create.{i}.webset": 1 for i in range(3)}
    assert done.result["itemCounts"] == [6, 6, 6]


async def test_cancel_cancels_every_webset(research_app: OpenApp, sim: SimHandle) -> None:
    sim.ctx.clock.set_speed(1.0)  # 20-item searches take half a minute: cancelled long before
    async with research_app(MODULE) as app:
        task_id = await start(app, {**BASE, "count": 20})
        await until(lambda: has_step(app, task_id, "create.2.webset"))
        await app.run_operation("tasks.cancel", {"taskId": task_id})
        assert app.supervisor is not None
        done = await app.supervisor.tasks.wait(task_id, timeout=WAIT)
        steps = await app.store.load_steps(task_id)
        websets = [
            await app.run_operation("websets.get", {"id": steps[f"create.{i}.webset"]["id"]})
            for i in range(3)
        ]
    assert done.status is TaskStatus.CANCELLED
    assert [w["searches"][0]["status"] for w in websets] == ["canceled"] * 3


async def test_a_cancel_asked_while_no_server_runs_it_cancels_the_websets_on_restart(
    research_app: OpenApp, sim: SimHandle, tmp_path: Path
) -> None:
    sim.ctx.clock.set_speed(1.0)  # 20-item searches take half a minute: still running at the restart
    async with research_app(MODULE) as app:
        task_id = await start(app, {**BASE, "count": 20})
        await until(lambda: has_step(app, task_id, "create.2.webset"))
        steps = await app.store.load_steps(task_id)
    async with Store(tmp_path / "workflows.db") as store:
        await store.request_cancel(task_id)  # asked while the server was down
    async with research_app(MODULE) as app:
        assert app.supervisor is not None
        done = await app.supervisor.tasks.wait(task_id, timeout=WAIT)
        websets = [
            await app.run_operation("websets.get", {"id": steps[f"create.{i}.webset"]["id"]})
            for i in range(3)
        ]
        listed = await app.run_operation("websets.list", {"limit": 100})
    # The restart replays the checkpoints to find every webset's cancel hook, and creates nothing new.
    assert done.status is TaskStatus.CANCELLED
    assert [w["searches"][0]["status"] for w in websets] == ["canceled"] * 3
    assert len(listed["data"]) == 3


async def test_timeout_returns_partial_results(research_app: OpenApp, sim: SimHandle) -> None:
    async with research_app(MODULE) as app:
        sim.ctx.clock.set_speed(1e-9)  # held: moved by hand to where every search has found 3 of 20
        created = await app.run_operation("tasks.create", {"type": "convergent.search", **BASE, "count": 20,
                                                            "timeout": 1500})  # fmt: skip
        task_id = created["taskId"]
        await until(lambda: has_step(app, task_id, "create.2.webset"))
        steps = await app.store.load_steps(task_id)
        store = sim.ctx.extras["websets"]
        found = [
            sorted(c.at for sid in store.websets[steps[f"create.{i}.webset"]["id"]].search_ids
                   for c in store.searches[sid].plan if c.accepted)
            for i in range(3)
        ]  # fmt: skip
        at = max(f[2] for f in found)
        assert at < min(f[-1] for f in found)  # then no search has found all 20
        sim.ctx.clock.advance(at - sim.ctx.clock.now() + 0.001)
        assert app.supervisor is not None
        done = await app.supervisor.tasks.wait(task_id, timeout=WAIT)
        steps = await app.store.load_steps(task_id)
    result = done.result
    assert done.status == "completed", done.error
    assert result["timedOut"] is True and result["partial"] is True
    assert result["timedOutQueries"] == QUERIES
    assert result["timedOutNote"].startswith("3 of 3 websets were still searching after 1500 ms")
    assert all(3 <= n < 20 for n in result["itemCounts"])
    assert result["totalUniqueEntities"] <= sum(result["itemCounts"])
    assert [s["status"] for s in result["steps"] if s["name"].startswith("wait.")] == ["timedOut"] * 3
    # The budget is shared: one deadline for the three waits (step wait.start), none of their own.
    assert "wait.start" in steps and not [k for k in steps if k.endswith(".idle.start")]
