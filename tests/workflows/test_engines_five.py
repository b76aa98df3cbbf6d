"""Issue 25's acceptance: on one simulator world, each of the five collection workflows completes on
both engines with the same result shape (the same keys; on the agent engine websetId(s) null and the
runs listed in runIds), files its engine and Exa objects in the archive, and costs no more than its
preview said. (Harvest and convergent's entity overlap: test_engines.py.)"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from exa_orch.sim.testing import SimHandle
from tests.conftest import TEST_SPEED
from tests.support import WAIT, bound, until_steps
from tests.workflows.conftest import OpenApp, agent_runs, run_tasks
from tests.workflows.test_engines import CONVERGENT, HARVEST, filed, overlap, same_shape

COMPANY = {"type": "company"}
ADVERSARIAL: dict[str, Any] = {
    "thesis": "European AI startups are well funded", "thesisQuery": "well funded AI startups in Europe",
    "antithesisQuery": "AI startups in Europe that struggled to raise funding", "entity": COMPANY,
    "count": 5, "enrichments": [{"description": "total funding raised in USD", "format": "number"}],
    "synthesize": True, "timeout": 60_000,
}  # fmt: skip
VERIFIED: dict[str, Any] = {
    "query": "AI startups in Europe", "entity": COMPANY, "count": 5,
    "criteria": [{"description": "based in Europe"}],
    "enrichments": [{"description": "CEO name", "format": "text"}],
    "researchPrompt": "Who founded {{name}} ({{url}})?", "researchLimit": 4, "timeout": 120_000,
}  # fmt: skip
WINNOW: dict[str, Any] = {
    "query": "AI startups", "entity": COMPANY, "count": 6, "maxRounds": 2, "convergenceThreshold": 0.0,
    "criteria": [{"description": "based in Europe"}, {"description": "founded after 2015"}],
    "enrichments": [{"description": "Number of employees", "format": "number"}],
}  # fmt: skip
FIVE: dict[str, dict[str, Any]] = {
    "lifecycle.harvest": {**HARVEST, "count": 6},
    "convergent.search": {**CONVERGENT, "count": 5},
    "adversarial.verify": ADVERSARIAL,
    "research.verifiedCollection": VERIFIED,
    "qd.winnow": WINNOW,
}


def objects(kind: str, result: dict[str, Any]) -> int:
    """The websets and agent runs a result names: what the archive's exa_runs should count."""
    if kind == "adversarial.verify":
        sides = [result[s] for s in ("thesis", "antithesis")]
        return sum(1 if s["websetId"] else len(s["runIds"]) for s in sides) + ("synthesis" in result)
    if kind == "research.verifiedCollection":
        research = {m["research"]["researchId"] for m in result["items"] if "research" in m}
        return (1 if result["websetId"] else len(result["runIds"])) + len(research)
    if kind == "qd.winnow":
        return sum(len(r["websetIds"] or r["runIds"]) for r in result["rounds"])
    if kind == "convergent.search":
        return len(result["websetIds"] or result["runIds"])
    return 1 if result["websetId"] else len(result["runIds"])


async def test_the_five_collection_workflows_complete_on_both_engines_with_the_same_shape(
    research_app: OpenApp, sim: SimHandle, tmp_path: Path
) -> None:
    done: dict[tuple[str, str], Any] = {}
    previews: dict[tuple[str, str], dict[str, Any]] = {}
    spent: dict[tuple[str, str], float] = {}
    async with research_app() as app:
        keys = [(kind, engine) for kind in FIVE for engine in ("websets", "agent")]
        for kind, engine in keys:
            asked = {"type": kind, **FIVE[kind], "engine": engine, "preview": True}
            previews[kind, engine] = (await app.run_operation("tasks.create", asked))["cost"]
        # The ten run side by side (one after another, the test waited out each one's simulated time).
        tasks = [(kind, {**FIVE[kind], "engine": engine}) for kind, engine in keys]
        done.update(zip(keys, await run_tasks(app, *tasks, within=bound(120)), strict=True))
        for key, record in done.items():
            got = await app.run_operation("tasks.get", {"task_id": record.id})
            spent[key] = got["cost"]["usd"]
    for (kind, engine), task in done.items():
        assert task.status == "completed", (kind, engine, task.error)
    archive = filed(tmp_path)
    with sqlite3.connect(tmp_path / "workflows.db") as conn:
        filed_cost = dict(conn.execute("SELECT task_id, cost_usd FROM workflow_runs").fetchall())
    for kind in FIVE:
        w, a = done[kind, "websets"].result, done[kind, "agent"].result
        print(f"{kind}: websets {sorted(w)} / agent {sorted(a)}")
        if kind == "adversarial.verify":
            assert set(a) == set(w) and (w["engine"], a["engine"]) == ("websets", "agent")
            for side in ("thesis", "antithesis"):
                same_shape({**w[side], "engine": "websets"}, {**a[side], "engine": "agent"}, "websetId")
                assert a[side]["itemCount"] == ADVERSARIAL["count"]
            assert set(a["synthesis"]) == set(w["synthesis"]) and "error" not in a["synthesis"]
        elif kind == "qd.winnow":
            assert set(a) == set(w) and (w["engine"], a["engine"]) == ("websets", "agent")
            for ra, rw in zip(a["rounds"], w["rounds"], strict=False):
                same_shape({**rw, "engine": "websets"}, {**ra, "engine": "agent"}, "websetId")
                assert ra["websetIds"] is None
        else:
            same_shape(w, a, "websetIds" if kind == "convergent.search" else "websetId")
        if kind in ("adversarial.verify", "research.verifiedCollection"):
            lists = (
                [(s, w[s]["items"], a[s]["items"]) for s in ("thesis", "antithesis")]
                if kind == "adversarial.verify"
                else [("items", [m["item"] for m in w["items"]], [m["item"] for m in a["items"]])]
            )
            for name, on_w, on_a in lists:
                n_w, n_a, both = overlap(on_w, on_a)
                print(f"{kind} {name}: websets {n_w} entities, agent {n_a}, both {both}")
                assert both >= 0.8 * max(n_w, n_a), (kind, name, n_w, n_a, both)
        if kind == "research.verifiedCollection":
            assert set(a["items"][0]) == set(w["items"][0]) and set(a["items"][0]["research"]) == set(
                w["items"][0]["research"]
            )
            assert a["researchedCount"] == w["researchedCount"] == VERIFIED["researchLimit"]
        for engine, result in (("websets", w), ("agent", a)):
            task = done[kind, engine]
            assert archive[task.id] == (engine, objects(kind, result)), (kind, engine)
            assert filed_cost[task.id] == pytest.approx(spent[kind, engine]), (kind, engine)  # cost filed
            cost = previews[kind, engine]
            print(
                f"{kind} on {engine}: spent ${spent[kind, engine]:.4f}, preview ${cost['lowUsd']:.4f}-"
                f"${cost['highUsd']:.4f}, {objects(kind, result)} Exa objects"
            )
            assert spent[kind, engine] <= cost["highUsd"] + 1e-9, (kind, engine, spent[kind, engine], cost)
            if engine == "agent":
                assert cost["lowUsd"] <= spent[kind, engine], (kind, spent[kind, engine], cost)
    # Every agent run any of them made carries its task's key: nothing was started twice.
    marks = [str(r.request.get("metadata") or {}) for r in agent_runs(sim).runs.values()]
    assert len(marks) == len(set(marks))


async def test_a_resumed_task_keeps_the_engine_of_its_first_checkpoint(
    research_app: OpenApp, sim: SimHandle, tmp_path: Path
) -> None:
    sim.ctx.clock.set_speed(0.001)  # held: no run can finish before the app stops
    tasks = {
        "adversarial.verify": ("thesis.run", ADVERSARIAL),
        "research.verifiedCollection": ("rows.create", VERIFIED),
    }
    ids: dict[str, str] = {}
    async with research_app() as app:
        for kind, (key, args) in tasks.items():
            created = await app.run_operation("tasks.create", {"type": kind, **args, "engine": "agent"})
            ids[kind] = created["taskId"]
            await until_steps(app.store, ids[kind], "engine", key)
        for kind in tasks:
            assert (await app.store.get_task(ids[kind])).status == "working"
    # Whatever the stored args say by the time a task resumes, its checkpoint decides.
    with sqlite3.connect(tmp_path / "workflows.db") as conn:
        conn.execute("UPDATE tasks SET args = json_set(args, '$.engine', 'websets')")
    sim.ctx.clock.set_speed(TEST_SPEED)
    async with research_app() as app:
        assert app.supervisor is not None
        done = {kind: await app.supervisor.tasks.wait(i, timeout=WAIT) for kind, i in ids.items()}
    for kind, task in done.items():
        assert task.status == "completed", (kind, task.error)
        assert task.args["engine"] == "websets" and task.result["engine"] == "agent"
    assert not sim.ctx.extras["websets"].websets  # no webset was made
