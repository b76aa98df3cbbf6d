"""The runtime in one process: lifecycle, checkpoints and resume, cancel, capacity, listing."""

from __future__ import annotations

import asyncio
from collections import Counter
from pathlib import Path

import pytest

from exa_orch.errors import ErrorCode, InvalidParams, TaskNotFound, TaskTerminal
from exa_orch.runtime import TaskContext, TaskEvent
from exa_orch.runtime.deps import Deps
from exa_orch.store import Store, TaskStatus
from tests.runtime.conftest import bump, supervisor
from tests.runtime.workflows import StepsArgs, steps_workflow
from tests.support import WAIT, TaskEvents, bound, until


async def test_task_runs_to_completed_with_progress_and_events(store: Store, effects: Counter[str]) -> None:
    events: list[TaskEvent] = []

    async def listen(event: TaskEvent) -> None:
        events.append(event)

    async with supervisor(store, {"effect": bump(effects)}) as sup:
        sup.tasks.subscribe(listen)
        created = await sup.tasks.create("rt.steps", {"steps": 3}, meta={"progressToken": 7})
        assert created.status is TaskStatus.PENDING
        done = await sup.tasks.wait(created.id, timeout=WAIT)
    assert done.status is TaskStatus.COMPLETED
    assert done.result == {"squares": [0, 1, 4]}
    assert done.progress == {"step": "steps", "completed": 3, "total": 3}
    assert sorted(effects.values()) == [1, 1, 1]
    statuses = [e.task.status for e in events if e.kind == "status"]
    assert statuses == [TaskStatus.WORKING, TaskStatus.COMPLETED]
    progress = [e.progress["completed"] for e in events if e.kind == "progress" and e.progress]
    assert progress == [1, 2, 3]
    assert all(e.task.meta == {"progressToken": 7} for e in events)


async def test_bad_args_raise_invalid_params_and_write_no_row(store: Store) -> None:
    async with supervisor(store, {}) as sup:
        with pytest.raises(InvalidParams) as info:
            await sup.tasks.create("rt.steps", {"steps": "many"})
        assert info.value.code is ErrorCode.INVALID_PARAMS
        assert info.value.fields == ["steps"]
        with pytest.raises(InvalidParams) as unknown:
            await sup.tasks.create("rt.stepz", {})
        assert unknown.value.fields == ["type"]
        assert "rt.steps" in (unknown.value.hint or "")
    records, _ = await store.list_tasks()
    assert records == []


async def test_failure_records_step_message_and_recoverable(store: Store, effects: Counter[str]) -> None:
    async with supervisor(store, {"effect": bump(effects)}) as sup:
        task = await sup.tasks.create("rt.steps", {"steps": 4, "fail_at": 2})
        done = await sup.tasks.wait(task.id, timeout=WAIT)
    assert done.status is TaskStatus.FAILED
    assert done.error is not None
    assert done.error["step"] == "s2"
    assert "broke on purpose" in done.error["message"]
    assert done.error["recoverable"] is False
    assert done.progress is not None and done.progress["completed"] == 2


async def test_close_mid_task_then_reopen_resumes_without_rerunning_steps(
    db_path: Path, effects: Counter[str]
) -> None:
    gate = asyncio.Event()
    async with Store(db_path) as store, supervisor(store, {"effect": bump(effects), "gate": gate}) as sup:
        task = await sup.tasks.create("rt.steps", {"steps": 6, "block_at": 3})

        async def three_done() -> bool:
            return len(await store.load_steps(task.id)) == 3

        await until(three_done)
    # Graceful stop: non-terminal, lease released, three checkpoints kept.
    async with Store(db_path) as store:
        stopped = await store.get_task(task.id)
        assert stopped.status is TaskStatus.WORKING
        assert stopped.lease_owner is None
        gate.set()
        async with supervisor(store, {"effect": bump(effects), "gate": gate}) as sup:
            done = await sup.tasks.wait(task.id, timeout=WAIT)
    assert done.status is TaskStatus.COMPLETED
    assert done.result == {"squares": [0, 1, 4, 9, 16, 25]}
    assert len(effects) == 6
    assert set(effects.values()) == {1}, effects


async def test_cancel_of_a_working_task_ends_cancelled_and_stops_its_steps(
    store: Store, effects: Counter[str]
) -> None:
    gate = asyncio.Event()
    async with supervisor(store, {"effect": bump(effects), "gate": gate}) as sup:
        task = await sup.tasks.create("rt.steps", {"steps": 5, "block_at": 2})

        async def blocked() -> bool:
            return len(await store.load_steps(task.id)) == 2

        await until(blocked)
        cancelled = await sup.tasks.cancel(task.id)
        assert cancelled.status is TaskStatus.CANCELLED
        gate.set()
        with pytest.raises(TaskTerminal) as again:
            await sup.tasks.cancel(task.id)
        assert again.value.code is ErrorCode.TASK_TERMINAL
    assert len(effects) == 2
    assert (await store.get_task(task.id)).status is TaskStatus.CANCELLED


async def test_a_cancels_replay_of_the_steps_workflow_stops_before_its_gate(store: Store) -> None:
    """A cancel that came while a checkpoint was committed replays the workflow to its first live
    step or sleep; the test workflow's gate stands after such a safe point, so the replay stops
    there at once instead of holding on the gate (unset) for its whole hook timeout."""
    args = StepsArgs(steps=5, block_at=2)
    record = await store.create_task("rt.steps", args.model_dump())
    ctx = TaskContext(
        task_id=record.id, args=args, store=store, deps=Deps(extras={"gate": asyncio.Event()}),
        steps={"s0": 0, "s1": 1}, resumed=True, cancelling=True,
    )  # fmt: skip
    with pytest.raises(asyncio.CancelledError):
        async with asyncio.timeout(WAIT):
            await steps_workflow(ctx, args)


async def test_cancel_of_a_pending_task_never_runs_it(store: Store, effects: Counter[str]) -> None:
    gate = asyncio.Event()
    async with supervisor(store, {"effect": bump(effects), "gate": gate}, max_working=1) as sup:
        with TaskEvents(sup.tasks) as events:
            first = await sup.tasks.create("rt.steps", {"steps": 2, "block_at": 0})
            await events.status(first.id, "working")
            second = await sup.tasks.create("rt.steps", {"steps": 2})  # the only slot is taken
            cancelled = await sup.tasks.cancel(second.id)
            assert cancelled.status is TaskStatus.CANCELLED
            gate.set()
            assert (await sup.tasks.wait(first.id, timeout=WAIT)).status is TaskStatus.COMPLETED
            # A freed slot goes to the oldest runnable task: had `second` still been runnable, it
            # would have started before `third`, so `third` completing proves it was skipped.
            third = await sup.tasks.create("rt.steps", {"steps": 1})
            await events.status(third.id, "completed")  # events arrive in order: second's would be earlier
        # Its whole recorded history: straight from pending to cancelled, never working.
        assert events.statuses(second.id) == ["cancelled"]
    assert not any(key.startswith(second.id) for key in effects)


async def test_cancel_requested_by_another_process_stops_the_task_within_a_heartbeat(
    db_path: Path, effects: Counter[str]
) -> None:
    gate = asyncio.Event()
    async with Store(db_path) as store, supervisor(store, {"effect": bump(effects), "gate": gate}) as sup:
        task = await sup.tasks.create("rt.steps", {"steps": 3, "block_at": 1})

        async def blocked() -> bool:
            return len(await store.load_steps(task.id)) == 1

        await until(blocked)
        async with Store(db_path) as other:  # another process's view of the same file
            await other.request_cancel(task.id)
        done = await sup.tasks.wait(task.id, timeout=WAIT)
    assert done.status is TaskStatus.CANCELLED
    assert len(effects) == 1


async def test_two_supervisors_on_one_database_run_every_step_exactly_once(
    db_path: Path, effects: Counter[str]
) -> None:
    async with (
        Store(db_path) as a,
        Store(db_path) as b,
        supervisor(a, {"effect": bump(effects)}, max_working=10) as sup_a,
        supervisor(b, {"effect": bump(effects)}, max_working=10) as sup_b,
    ):
        ids = [
            (await (sup_a if i % 2 else sup_b).tasks.create("rt.steps", {"steps": 3, "sleep": 0.01})).id
            for i in range(50)
        ]
        done = [await sup_a.tasks.wait(task_id, timeout=WAIT) for task_id in ids]
        assert sup_a.started_total > 0 and sup_b.started_total > 0
    assert {d.status for d in done} == {TaskStatus.COMPLETED}
    assert len(effects) == 150
    assert set(effects.values()) == {1}


async def test_a_thousand_tasks_never_more_than_twenty_working_and_all_complete(store: Store) -> None:
    peak_in_store = 0
    async with supervisor(store, {}, max_working=20) as sup:
        ids = [
            r.id
            for r in await asyncio.gather(
                *(sup.tasks.create("rt.steps", {"steps": 1, "sleep": 0.002}) for _ in range(1000))
            )
        ]

        async def all_done() -> bool:
            nonlocal peak_in_store
            working, _ = await store.list_tasks(status="working", limit=200)
            peak_in_store = max(peak_in_store, len(working))
            rest, _ = await store.list_tasks(status=["pending", "working"], limit=1)
            return not rest

        await until(all_done, within=bound(100), every=0.01)
        assert sup.max_working_seen <= 20
        assert sup.started_total >= 1000
    assert 0 < peak_in_store <= 20
    completed, _ = await store.list_tasks(status="completed", limit=1000)
    assert {r.id for r in completed} == set(ids)


async def test_list_filters_by_every_status(store: Store, effects: Counter[str]) -> None:
    gate = asyncio.Event()
    async with supervisor(store, {"effect": bump(effects), "gate": gate}, max_working=1) as sup:
        completed = await sup.tasks.create("rt.steps", {"steps": 1})
        await sup.tasks.wait(completed.id, timeout=WAIT)
        failed = await sup.tasks.create("rt.steps", {"steps": 1, "fail_at": 0})
        await sup.tasks.wait(failed.id, timeout=WAIT)
        working = await sup.tasks.create("rt.steps", {"steps": 2, "block_at": 1})

        async def is_working() -> bool:
            return len(await store.load_steps(working.id)) == 1

        await until(is_working)
        pending = await sup.tasks.create("rt.steps", {"steps": 1})
        cancelled = await sup.tasks.create("rt.steps", {"steps": 1})
        await sup.tasks.cancel(cancelled.id)
        expected = {
            "completed": completed.id,
            "failed": failed.id,
            "working": working.id,
            "pending": pending.id,
            "cancelled": cancelled.id,
        }
        for status, task_id in expected.items():
            records, _ = await sup.tasks.list(status=status)
            assert [r.id for r in records] == [task_id], status
        records, _ = await sup.tasks.list(status=["failed", "cancelled"], type="rt.steps")
        assert {r.id for r in records} == {failed.id, cancelled.id}
        assert (await sup.tasks.list(type="rt.webset"))[0] == []
        gate.set()


async def test_expired_terminal_tasks_are_removed(store: Store) -> None:
    async with supervisor(store, {}) as sup:
        task = await sup.tasks.create("rt.steps", {"steps": 1}, ttl_ms=200)
        assert (await sup.tasks.wait(task.id, timeout=WAIT)).status is TaskStatus.COMPLETED

        async def gone() -> bool:
            try:
                await store.get_task(task.id)
            except TaskNotFound:
                return True
            return False

        await until(gone, within=WAIT)


async def test_heartbeat_renews_leases_so_a_long_task_is_never_taken_over(
    db_path: Path, effects: Counter[str]
) -> None:
    # Lease TTL 0.5 s, a 2 s task, a second supervisor claiming every 0.1 s on the same file.
    fast = {"lease_ttl": 0.5, "heartbeat": 0.1}
    async with (
        Store(db_path) as a,
        Store(db_path) as b,
        supervisor(a, {"effect": bump(effects)}, **fast) as sup_a,
    ):
        task = await sup_a.tasks.create("rt.steps", {"steps": 4, "sleep": 0.5})

        async def started() -> bool:
            return (await a.get_task(task.id)).status is TaskStatus.WORKING

        await until(started)
        async with supervisor(b, {"effect": bump(effects)}, **fast) as sup_b:
            done = await sup_a.tasks.wait(task.id, timeout=WAIT)
            assert sup_b.started_total == 0
        claims = [e["data"]["owner"] for e in await a.events(task.id) if e["kind"] == "claimed"]
    assert done.status is TaskStatus.COMPLETED
    assert claims == [a.owner_id]
    assert set(effects.values()) == {1} and len(effects) == 4
