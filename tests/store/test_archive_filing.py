"""Live filing: a task of an archived type files exactly one run, in its terminal transition's transaction."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from exa_orch.errors import InvalidTransition, LeaseHeld, TaskNotFound
from exa_orch.store import ArchiveEntry, Elite, Store, TaskRecord
from exa_orch.store.leases import MAX_LOST_RUNS
from exa_orch.store.records import iso

from .conftest import FakeClock, connect, dict_rows

TYPE = "qd.winnow"  # a task type the archive has a workflow for


def extract(task: TaskRecord) -> ArchiveEntry:
    data = task.result if isinstance(task.result, dict) else {}
    elite = Elite("1,0", 0.75, [True, False], {"id": "item_1", "name": "Acme"})
    return ArchiveEntry(
        {"fitness": data.get("fitness"), "converged": True, "rounds": 2, "note": "x"},
        [elite] if data else [],
    )


def runs(store: Store) -> list[dict[str, Any]]:
    return dict_rows(store, "SELECT * FROM workflow_runs ORDER BY id")


def elites(store: Store) -> list[tuple[Any, ...]]:
    with connect(store) as conn:
        return conn.execute(
            "SELECT run_id, niche, fitness, criteria_vector, item_id FROM qd_elites"
        ).fetchall()


async def started(store: Store, type: str = TYPE) -> TaskRecord:
    """A task leased by the store's owner and working."""
    task = await store.create_task(type, {"query": "q"})
    assert await store.acquire_lease(task.id, store.owner_id, 60)
    return await store.transition(task.id, "working", owner=store.owner_id)


async def test_completion_files_one_run_with_its_metrics_elites_and_times(
    store: Store, clock: FakeClock
) -> None:
    store.archive_runs({TYPE: extract})
    task = await started(store)
    clock.advance(2.5)
    done = await store.complete(task.id, {"fitness": 0.9}, owner=store.owner_id)
    [run] = runs(store)
    assert run["task_id"] == task.id and run["task_type"] == TYPE and run["status"] == "completed"
    assert run["workflow_id"] == "workflow-webset-qd-winnow"
    assert run["started_at"] == task.updated_at and run["finished_at"] == done.updated_at
    assert run["duration_ms"] == 2500
    assert (run["fitness"], run["converged"], run["rounds"], run["coverage"]) == (0.9, 1, 2, None)
    assert json.loads(run["metrics"]) == {"note": "x"}
    assert elites(store) == [(run["id"], "1,0", 0.75, "[true, false]", "item_1")]
    with pytest.raises(InvalidTransition):  # finished once: no second write, no second run
        await store.complete(task.id, {"fitness": 0.1}, owner=store.owner_id)
    with pytest.raises(InvalidTransition):
        await store.fail(task.id, {"message": "late"}, owner=store.owner_id)
    assert len(runs(store)) == 1


async def test_failed_and_cancelled_tasks_file_runs_with_their_status(store: Store) -> None:
    store.archive_runs({TYPE: extract})
    failing, cancelled_working = await started(store), await started(store)
    pending = await store.create_task(TYPE, {})
    await store.fail(failing.id, {"message": "boom", "step": "s"}, owner=store.owner_id)
    await store.transition(cancelled_working.id, "cancelled", owner=store.owner_id)
    await store.transition(pending.id, "cancelled")  # never started: no start time
    rows = runs(store)
    assert [(r["task_id"], r["status"]) for r in rows] == [
        (failing.id, "failed"),
        (cancelled_working.id, "cancelled"),
        (pending.id, "cancelled"),
    ]
    assert rows[2]["started_at"] is None and rows[2]["duration_ms"] is None
    assert rows[0]["fitness"] is None and elites(store) == []


async def test_a_cancel_that_wins_over_the_result_files_a_cancelled_run(store: Store) -> None:
    store.archive_runs({TYPE: extract})
    task = await started(store)
    await store.request_cancel(task.id)
    done = await store.complete(task.id, {"fitness": 0.9}, owner=store.owner_id, cancel_wins=True)
    assert done.status == "cancelled"
    [run] = runs(store)
    assert run["status"] == "cancelled" and run["fitness"] is None  # the dropped result isn't filed


async def test_refused_terminal_writes_file_nothing(store: Store) -> None:
    store.archive_runs({TYPE: extract})
    task = await started(store)
    with pytest.raises(LeaseHeld):
        await store.complete(task.id, {"fitness": 0.9}, owner="someone:1:else")
    with pytest.raises(TaskNotFound):
        await store.fail("task_missing", {"message": "x"})
    assert runs(store) == []


async def test_the_run_commits_with_the_transition_even_when_its_batch_is_rerun(store: Store) -> None:
    # A failing op in the same group commit rolls the batch back and reruns it op by op: the run
    # must be filed once, with its transition, not once per attempt.
    store.archive_runs({TYPE: extract})
    tasks = [await started(store) for _ in range(3)]
    reruns = store.writer_stats.savepoint_reruns
    outcomes = await asyncio.gather(
        *(store.complete(t.id, {"fitness": 0.5}, owner=store.owner_id) for t in tasks),
        store.save_step("task_missing", "k", 1),
        return_exceptions=True,
    )
    assert isinstance(outcomes[-1], TaskNotFound)
    assert store.writer_stats.savepoint_reruns == reruns + 1  # they shared one batch
    assert sorted(r["task_id"] for r in runs(store)) == sorted(t.id for t in tasks)


async def test_types_without_an_extractor_file_nothing(store: Store) -> None:
    store.archive_runs({TYPE: extract})
    task = await started(store, "operation")
    await store.complete(task.id, {"fitness": 1.0}, owner=store.owner_id)
    assert runs(store) == []


async def test_a_broken_extractor_or_run_never_keeps_the_task_from_finishing(store: Store) -> None:
    def broken(task: TaskRecord) -> ArchiveEntry:
        raise KeyError("finalElites")

    def unfileable(task: TaskRecord) -> ArchiveEntry:
        return ArchiveEntry({"fitness": 0.5})

    # "no.such.type" has no workflow in the archive: its run is refused and rolled back alone.
    store.archive_runs({TYPE: broken, "no.such.type": unfileable})
    a, b = await started(store), await started(store, "no.such.type")
    assert (await store.complete(a.id, {}, owner=store.owner_id)).status == "completed"
    assert (await store.complete(b.id, {}, owner=store.owner_id)).status == "completed"
    [run] = runs(store)
    assert run["task_id"] == a.id and json.loads(run["metrics"]) == {
        "archiveError": "KeyError: 'finalElites'"
    }


async def test_a_task_given_up_on_files_a_failed_run(store: Store, clock: FakeClock) -> None:
    store.archive_runs({TYPE: extract})
    task = await store.create_task(TYPE, {})
    for n in range(MAX_LOST_RUNS):  # each run dies holding the lease
        assert [t.id for t in await store.claim_runnable(f"elsewhere:{n + 2}:b", 5, 1)] == [task.id]
        clock.advance(6)
    assert await store.claim_runnable("elsewhere:99:c", 5, 1) == []
    [run] = runs(store)
    assert run["status"] == "failed" and run["finished_at"] == iso(clock())


async def test_an_extractor_returning_the_wrong_shape_never_keeps_the_task_from_finishing(
    store: Store,
) -> None:
    # A user-supplied extractor may return anything: the terminal transition must still commit.
    def returns_none(task: TaskRecord) -> ArchiveEntry:
        return None  # type: ignore[return-value]

    def bad_metrics(task: TaskRecord) -> ArchiveEntry:
        return ArchiveEntry(["not", "a", "dict"])  # type: ignore[arg-type]

    def bad_elite(task: TaskRecord) -> ArchiveEntry:
        return ArchiveEntry({"fitness": 0.5}, [Elite("1", 1.0, [True], "not a dict")])  # type: ignore[arg-type]

    store.archive_runs({TYPE: returns_none, "research.deep": bad_metrics, "lifecycle.harvest": bad_elite})
    tasks = [
        await started(store),
        await started(store, "research.deep"),
        await started(store, "lifecycle.harvest"),
    ]
    for task in tasks:
        assert (await store.complete(task.id, {}, owner=store.owner_id)).status == "completed"
    filed = {r["task_id"]: json.loads(r["metrics"]) for r in runs(store)}
    assert "archiveError" in filed[tasks[0].id]  # the run is still filed, saying what went wrong
    assert elites(store) == []
