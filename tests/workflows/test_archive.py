"""The live archive on the whole app: every research task that ends files exactly one run."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from exa_orch.app import App
from exa_orch.sim.testing import SimHandle
from exa_orch.workflows import archive as extractors
from tests.support import WAIT
from tests.workflows.conftest import OpenApp, run_task, run_tasks
from tests.workflows.test_winnow import ARGS, _searching

MODULE = "exa_orch.workflows.winnow"


def rows(db: Path, sql: str, *params: Any) -> list[dict[str, Any]]:
    with sqlite3.connect(db) as conn:
        conn.row_factory = sqlite3.Row
        return [dict(row) for row in conn.execute(sql, params)]


def runs_of(db: Path, task_id: str) -> list[dict[str, Any]]:
    return rows(db, "SELECT * FROM workflow_runs WHERE task_id = ?", task_id)


async def _wait(app: App, task_id: str) -> Any:
    assert app.supervisor is not None
    return await app.supervisor.tasks.wait(task_id, timeout=WAIT)


async def test_a_winnow_task_files_one_run_with_its_metrics_and_elites(
    research_app: OpenApp, tmp_path: Path
) -> None:
    db = tmp_path / "workflows.db"
    async with research_app(MODULE) as app:
        done = await run_task(app, "qd.winnow", {**ARGS, "maxRounds": 3, "explore": False})
    assert done.status == "completed", done.error
    result, quality = done.result, done.result["qualityMetrics"]
    [run] = runs_of(db, done.id)
    assert run["workflow_id"] == "workflow-webset-qd-winnow" and run["status"] == "completed"
    assert run["finished_at"] == done.updated_at and run["started_at"] <= run["finished_at"]
    assert run["duration_ms"] is not None and run["duration_ms"] >= 0
    assert (run["engine"], run["exa_runs"]) == ("websets", 2)  # 0014: one webset per round
    assert {k: run[k] for k in ("rounds", "item_count", "niches", "possible_niches", "elite_count")} == {
        "rounds": 2,
        "item_count": 12,  # six items in each round
        "niches": round(quality["coverage"] * 8),
        "possible_niches": 8,  # three criteria
        "elite_count": len(result["finalElites"]),
    }
    assert (run["fitness"], run["coverage"], run["diversity"], run["stringency"], run["converged"]) == (
        quality["avgFitness"],
        quality["coverage"],
        quality["diversity"],
        quality["stringency"],
        1,
    )
    metrics = json.loads(run["metrics"])
    stats = metrics.pop("roundStats")
    assert metrics == {
        "eliteChange": [1.0, 0.0],
        "timedOut": False,
        "totalDuration": result["totalDuration"],
        "criteria": [c["description"] for c in ARGS["criteria"]],  # the run page's grid axes
    }
    assert [(s["itemCount"], s["elites"], s["nicheDistribution"]) for s in stats] == [
        (r["itemCount"], len(r["elites"]), r["nicheDistribution"]) for r in result["rounds"]
    ]
    filed = rows(db, "SELECT * FROM qd_elites WHERE run_id = ? ORDER BY id", run["id"])
    assert [(e["niche"], e["fitness"], json.loads(e["criteria_vector"]), e["item_id"]) for e in filed] == [
        (e["niche"], e["fitnessScore"], e["criteriaVector"], e["item"]["id"]) for e in result["finalElites"]
    ]
    assert all(e["round"] is None for e in filed)
    assert json.loads(filed[0]["item"]) == result["finalElites"][0]["item"]
    [cell] = rows(db, "SELECT * FROM v_archive WHERE task_type = 'qd.winnow'")
    assert (cell["runs"], cell["best_run_id"], cell["task_id"]) == (1, run["id"], done.id)


async def test_failed_and_cancelled_tasks_file_a_run_with_their_status(
    research_app: OpenApp, sim: SimHandle, tmp_path: Path
) -> None:
    db = tmp_path / "workflows.db"
    sim.ctx.clock.set_speed(10)  # slow enough to act mid-search
    async with research_app(MODULE) as app:
        failing = await app.run_operation("tasks.create", {"type": "qd.winnow", **ARGS})
        mid = await _searching(app, failing["taskId"], sim)
        await app.run_operation("websets.delete", {"id": mid.partial["websetId"]})  # gone at Exa
        failed = await _wait(app, failing["taskId"])
        cancelling = await app.run_operation("tasks.create", {"type": "qd.winnow", **ARGS})
        await _searching(app, cancelling["taskId"], sim)
        await app.run_operation("tasks.cancel", {"taskId": cancelling["taskId"]})
        cancelled = await _wait(app, cancelling["taskId"])
    assert (failed.status, cancelled.status) == ("failed", "cancelled")
    [fail_run], [cancel_run] = runs_of(db, failed.id), runs_of(db, cancelled.id)
    assert fail_run["status"] == "failed" and cancel_run["status"] == "cancelled"
    fail_metrics = json.loads(fail_run["metrics"])
    assert fail_metrics["errorCode"] == "RESOURCE_NOT_FOUND" and fail_metrics["fromPartial"] is True
    assert cancel_run["finished_at"] == cancelled.updated_at and cancel_run["fitness"] is None
    # Neither is the best run of the cell: v_archive ranks completed runs only.
    [cell] = rows(db, "SELECT * FROM v_archive WHERE task_type = 'qd.winnow'")
    assert cell["runs"] == 2 and cell["best_run_id"] is None


async def test_a_restart_in_the_middle_files_exactly_one_run(
    research_app: OpenApp, sim: SimHandle, tmp_path: Path
) -> None:
    db = tmp_path / "workflows.db"
    sim.ctx.clock.set_speed(10)
    async with research_app(MODULE) as app:
        created = await app.run_operation("tasks.create", {"type": "qd.winnow", **ARGS})
        await _searching(app, created["taskId"], sim)
    assert runs_of(db, created["taskId"]) == []  # stopped mid-run: not finished, nothing filed
    sim.ctx.clock.set_speed(100)
    async with research_app(MODULE) as app:
        done = await _wait(app, created["taskId"])
    assert done.status == "completed", done.error
    [run] = runs_of(db, done.id)
    assert run["status"] == "completed" and run["rounds"] == len(done.result["rounds"])
    async with research_app(MODULE) as app:  # a third start finds nothing left to file
        assert (await app.store.get_task(done.id)).status == "completed"
    assert len(runs_of(db, done.id)) == 1


async def test_an_operation_task_files_no_run(research_app: OpenApp, tmp_path: Path) -> None:
    async with research_app() as app:
        done = await run_task(app, "operation", {"operation": "websets.list", "args": {}})
    assert done.status == "completed", done.error
    assert rows(tmp_path / "workflows.db", "SELECT * FROM workflow_runs") == []


def test_every_research_workflow_files_its_runs() -> None:
    from exa_orch.workflows import BUILTIN_WORKFLOWS

    assert all(spec.archive is not None for spec in BUILTIN_WORKFLOWS)
    assert extractors.winnow_run in [spec.archive for spec in BUILTIN_WORKFLOWS]


# --- the other five workflows: their metrics, as their results give them -------------------------

DEEP = {"instructions": "AI startups in Europe"}
SYNTHESIZE = {
    "thesis": "European AI startups are well funded",
    "thesisQuery": "well funded AI startups in Europe",
    "antithesisQuery": "AI startups in Europe that struggled to raise funding",
    "entity": {"type": "company"},
    "count": 3,
    "synthesize": True,
}
HARVEST = {"query": "AI startups in Europe", "entity": {"type": "company"}, "count": 4}
CONVERGENT = {
    "queries": ["AI startups in Europe", "European machine learning companies"],
    "entity": {"type": "company"},
    "count": 6,
}
VERIFIED = {
    "query": "AI startups in Europe",
    "entity": {"type": "company"},
    "count": 4,
    "researchPrompt": "Who founded {{name}}?",
    "researchLimit": 2,
}


def _expected(type: str, r: dict[str, Any]) -> dict[str, Any]:
    """The run's columns and metrics JSON for a completed task's result `r`."""
    if type == "lifecycle.harvest":
        found, analyzed = r["searchProgress"]["found"], r["searchProgress"]["analyzed"]
        return {
            "item_count": r["itemCount"],
            "stringency": round(found / analyzed, 6),
            "metrics": {
                "found": found,
                "analyzed": analyzed,
                "enrichmentCount": 0,
                "uniqueEntities": r["uniqueEntities"],
                "timedOut": False,
            },
        }
    if type == "convergent.search":
        conf = [e["confidence"] for e in r["intersection"]]
        return {
            "item_count": sum(r["itemCounts"]),
            "fitness": round(sum(conf) / len(conf), 6),
            "coverage": round(len(conf) / r["totalUniqueEntities"], 6),
            "metrics": {
                "queries": 2,
                "uniqueEntities": r["totalUniqueEntities"],
                "intersectionCount": len(conf),
                "timedOut": False,
            },
        }
    if type == "adversarial.verify":
        s = r["synthesis"]
        return {
            "item_count": r["thesis"]["itemCount"] + r["antithesis"]["itemCount"],
            "fitness": s["confidence"],
            "metrics": {
                "thesisCount": r["thesis"]["itemCount"],
                "antithesisCount": r["antithesis"]["itemCount"],
                "verdict": s["verdict"],
            },
        }
    if type == "research.deep":
        return {
            "item_count": len(r["citations"]),
            "metrics": {
                "researchStatus": "completed",
                "model": r["model"],
                "researchDuration": r["duration"],
                "timedOut": False,
            },
        }
    researched = [m for m in r["items"] if "research" in m]
    return {
        "item_count": r["totalItems"],
        "coverage": round(r["researchedCount"] / len(researched), 6),
        "metrics": {
            "researchedCount": r["researchedCount"],
            "researchAttempted": 2,
            "uniqueEntities": r["uniqueEntities"],
            "timedOut": False,
        },
    }


async def test_each_research_workflow_files_its_metrics(research_app: OpenApp, tmp_path: Path) -> None:
    cases = {
        "lifecycle.harvest": HARVEST,
        "convergent.search": CONVERGENT,
        "adversarial.verify": SYNTHESIZE,
        "research.deep": DEEP,
        "research.verifiedCollection": VERIFIED,
    }
    async with research_app() as app:
        # Side by side: each makes its own websets and runs (one after another took ~9 s).
        done = dict(zip(cases, await run_tasks(app, *cases.items()), strict=True))
    for type, task in done.items():
        assert task.status == "completed", (type, task.error)
        [run] = runs_of(tmp_path / "workflows.db", task.id)
        want = _expected(type, task.result)
        columns = {k: run[k] for k in ("item_count", "fitness", "coverage", "stringency")}
        assert columns == {k: want.get(k) for k in columns}, type
        assert json.loads(run["metrics"]) == want["metrics"], type
        assert run["item_count"] > 0 and run["rounds"] is None and run["elite_count"] is None
    cells = {row["task_type"]: row for row in rows(tmp_path / "workflows.db", "SELECT * FROM v_archive")}
    assert all(cells[type]["task_id"] == task.id for type, task in done.items())
