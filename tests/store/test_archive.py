"""The MAP-Elites archive: seeded archetypes, recorded runs and elites, the best run per cell."""

from __future__ import annotations

import json

import pytest

from exa_orch.errors import InvalidParams
from exa_orch.store import Elite, RunRecord, Store

from .conftest import FakeClock, connect, dict_rows


def archive(store: Store) -> dict[str, dict[str, object]]:
    return {row["cell"]: row for row in dict_rows(store, "SELECT * FROM v_archive")}


async def test_seeded_archetypes_and_their_steps(store: Store) -> None:
    with connect(store) as conn:
        steps = dict(
            conn.execute("SELECT workflow_id, count(*) FROM workflow_steps GROUP BY workflow_id").fetchall()
        )
        deep = conn.execute(
            "SELECT name, archetype, task_type FROM workflows WHERE id = 'workflow-research-deep'"
        ).fetchone()
    assert steps == {
        "workflow-webset-lifecycle": 5,
        "workflow-webset-convergent": 5,
        "workflow-webset-adversarial": 5,
        "workflow-webset-verified": 4,
        "workflow-webset-qd-winnow": 6,
        "workflow-research-deep": 3,
    }
    assert deep == ("Deep Research", "exploratory", "research.deep")
    cells = archive(store)
    assert len(cells) == 6 and all(row["best_run_id"] is None for row in cells.values())


async def test_v_archive_shows_the_best_completed_run_of_each_cell(store: Store, clock: FakeClock) -> None:
    elite = Elite(
        niche="1,0", fitness=0.9, criteria_vector=[True, False], item={"id": "item_1", "name": "Acme"}
    )
    weak = await store.record_run(
        RunRecord("task_a", "qd.winnow", "completed", {"fitness": 0.4, "coverage": 0.5, "niches": 2})
    )
    clock.advance(1)
    best = await store.record_run(
        RunRecord(
            "task_b",
            "qd.winnow",
            "completed",
            {"fitness": 0.8, "coverage": 0.25, "diversity": 1.2, "converged": True, "roundsDetail": [1]},
            elites=[elite],
        )
    )
    await store.record_run(
        RunRecord("task_c", "qd.winnow", "failed", {"fitness": 0.99})
    )  # failed: not ranked
    await store.record_run(RunRecord("task_d", "research.deep", "completed", {}))
    cells = archive(store)
    winnow = cells["3,2,4,2,5"]
    assert winnow["workflow_id"] == "workflow-webset-qd-winnow"
    assert (winnow["best_run_id"], winnow["task_id"], winnow["fitness"], winnow["runs"]) == (
        best,
        "task_b",
        0.8,
        3,
    )
    assert weak != best
    assert cells["4,3,3,3,3"]["task_id"] == "task_d"  # a run without fitness still beats no run
    assert cells["2,2,4,2,5"]["best_run_id"] is None
    with connect(store) as conn:
        run = conn.execute("SELECT converged, metrics FROM workflow_runs WHERE id = ?", (best,)).fetchone()
        stored = conn.execute(
            "SELECT niche, fitness, criteria_vector, item_id, item FROM qd_elites"
        ).fetchall()
    assert run[0] == 1 and json.loads(run[1]) == {"roundsDetail": [1]}
    assert stored == [("1,0", 0.9, "[true, false]", "item_1", '{"id":"item_1","name":"Acme"}')]


async def test_a_run_without_coverage_ranks_after_one_with_it_on_either_backend(
    store: Store, clock: FakeClock
) -> None:
    # Equal fitness, so coverage decides: a NULL must rank last (SQLite's order; PostgreSQL's
    # DESC puts NULL first unless told NULLS LAST). The run without coverage is the newer one, so
    # the finished_at tie-break would pick it too if coverage were skipped.
    covered = await store.record_run(
        RunRecord("task_a", "qd.winnow", "completed", {"fitness": 0.7, "coverage": 0.3})
    )
    clock.advance(1)
    await store.record_run(RunRecord("task_b", "qd.winnow", "completed", {"fitness": 0.7}))
    winnow = archive(store)["3,2,4,2,5"]
    assert (winnow["best_run_id"], winnow["task_id"], winnow["coverage"]) == (covered, "task_a", 0.3)


async def test_runs_outlive_their_tasks(store: Store, clock: FakeClock) -> None:
    task = await store.create_task("qd.winnow", {}, ttl_ms=1)
    await store.complete(task.id, {})
    await store.record_run(RunRecord(task.id, "qd.winnow", "completed", {"fitness": 0.5}))
    clock.advance(1)
    assert await store.delete_expired() == 1
    assert archive(store)["3,2,4,2,5"]["task_id"] == task.id


async def test_unknown_task_type_is_refused(store: Store) -> None:
    with pytest.raises(InvalidParams):
        await store.record_run(RunRecord("task_x", "no.such.type", "completed"))
