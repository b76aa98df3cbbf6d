"""The runtime under faults: workflows that misbehave, a store that fails, a lease lost, a racing stop.

Each test bounds its waits; a regression shows as a task stuck `working` (TimeoutError) or a
supervisor that cannot stop.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from exa_orch.errors import StoreError
from exa_orch.runtime import Deps, Supervisor, TaskContext, WorkflowRegistry, WorkflowSpec
from exa_orch.store import Store, TaskRecord, TaskStatus
from tests.runtime.conftest import FAST, registry
from tests.runtime.workflows import WORKFLOWS
from tests.support import WAIT, until


class NoArgs(BaseModel):
    pass


class Escape(BaseException):
    """A BaseException that is neither a cancel nor an interpreter exit (pytest's Failed is one)."""


async def returns_a_set(ctx: TaskContext, args: NoArgs) -> Any:
    await ctx.step("one", lambda: 1)
    return {"ids": {1, 2}}  # not JSON


async def raises_base_exception(ctx: TaskContext, args: NoArgs) -> Any:
    await ctx.step("one", lambda: 1)
    raise Escape("workflow bug")


async def awaits_a_cancelled_future(ctx: TaskContext, args: NoArgs) -> Any:
    fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    fut.cancel()
    await fut  # raises CancelledError although nobody cancelled this task
    return "unreachable"


async def quick(ctx: TaskContext, args: NoArgs) -> Any:
    return await ctx.step("one", lambda: "ok")


FAULTY = [
    WorkflowSpec("f.set", NoArgs, returns_a_set),
    WorkflowSpec("f.base", NoArgs, raises_base_exception),
    WorkflowSpec("f.selfcancel", NoArgs, awaits_a_cancelled_future),
    WorkflowSpec("f.quick", NoArgs, quick),
]


def faulty_supervisor(store: Store, extras: dict[str, Any] | None = None, **kw: Any) -> Supervisor:
    registry = WorkflowRegistry([*WORKFLOWS, *FAULTY])
    return Supervisor(store, registry, Deps(extras=extras or {}), **{**FAST, **kw})


async def test_a_result_that_is_not_json_fails_the_task_instead_of_leaving_it_working(store: Store) -> None:
    async with faulty_supervisor(store) as sup:
        task = await sup.tasks.create("f.set", {})
        done = await sup.tasks.wait(task.id, timeout=WAIT)
    assert done.status is TaskStatus.FAILED, done
    assert done.error is not None
    assert done.error["step"] == "result"
    assert done.error["code"] == "INVALID_PARAMS"
    assert "JSON" in done.error["message"]


async def test_a_base_exception_in_a_workflow_fails_that_task_and_spares_the_supervisor(store: Store) -> None:
    async with faulty_supervisor(store) as sup:
        bad = await sup.tasks.create("f.base", {})
        done = await sup.tasks.wait(bad.id, timeout=WAIT)
        assert done.status is TaskStatus.FAILED, done
        assert done.error is not None and "Escape" in done.error["message"]
        # The other tasks and the loops are still running.
        good = await sup.tasks.create("f.quick", {})
        assert (await sup.tasks.wait(good.id, timeout=WAIT)).status is TaskStatus.COMPLETED


async def test_a_cancelled_error_the_workflow_raises_itself_fails_the_task(store: Store) -> None:
    async with faulty_supervisor(store) as sup:
        task = await sup.tasks.create("f.selfcancel", {})
        done = await sup.tasks.wait(task.id, timeout=WAIT)
        assert done.status is TaskStatus.FAILED, done
        assert done.error is not None and "CancelledError" in done.error["message"]
        good = await sup.tasks.create("f.quick", {})
        assert (await sup.tasks.wait(good.id, timeout=WAIT)).status is TaskStatus.COMPLETED


async def test_an_actor_that_dies_on_a_store_error_is_resumed_after_its_lease_expires(store: Store) -> None:
    # Another actor keeps running meanwhile, so the supervisor keeps heartbeating: the dead
    # actor's lease must not be renewed with the live ones, or the task stays `working` forever.
    gate = asyncio.Event()
    real_complete = store.complete
    failures: list[str] = []

    async def complete_once_broken(task_id: str, result: Any, **kwargs: Any) -> TaskRecord:
        if not failures:
            failures.append(task_id)
            raise StoreError("database write failed: disk I/O error")
        return await real_complete(task_id, result, **kwargs)

    store.complete = complete_once_broken  # type: ignore[method-assign]
    try:
        async with faulty_supervisor(store, {"gate": gate}, lease_ttl=0.5) as sup:
            blocker = await sup.tasks.create("rt.steps", {"steps": 2, "block_at": 0})

            async def blocking() -> bool:
                return sup.actor(blocker.id) is not None

            await until(blocking, within=WAIT)
            task = await sup.tasks.create("f.quick", {})
            done = await sup.tasks.wait(task.id, timeout=WAIT)
            assert failures == [task.id]
            assert done.status is TaskStatus.COMPLETED, done
            assert done.result == "ok"
            gate.set()
    finally:
        gate.set()


async def test_a_lease_lost_while_renewals_fail_still_stops_the_actor(db_path: Path) -> None:
    gate = asyncio.Event()
    async with Store(db_path) as a, Store(db_path) as b:

        async def locked(*args: Any, **kwargs: Any) -> Any:
            raise StoreError("database write failed: database is locked")

        sup = Supervisor(
            a, registry(), Deps(extras={"gate": gate}), **{**FAST, "lease_ttl": 0.3, "heartbeat": 0.05}
        )
        try:
            async with sup:
                task = await sup.tasks.create("rt.steps", {"steps": 2, "block_at": 0})

                async def running() -> bool:
                    return sup.actor(task.id) is not None

                await until(running, within=WAIT)
                # A's lease writes fail from now on (another process holds the write lock, say).
                a.renew_leases = locked  # type: ignore[method-assign]
                a.claim_runnable = locked  # type: ignore[method-assign]

                async def taken_by_b() -> bool:
                    return await b.acquire_lease(task.id, b.owner_id, 60)

                await until(taken_by_b, within=WAIT)  # once A's lease expired, another process takes it

                async def a_stopped() -> bool:
                    return sup.actor(task.id) is None

                await until(a_stopped, within=WAIT)
                assert (await b.get_task(task.id)).lease_owner == b.owner_id
        finally:
            gate.set()


async def test_a_claim_that_lands_during_shutdown_does_not_start_work(store: Store) -> None:
    gate = asyncio.Event()
    armed = False
    claim_entered = asyncio.Event()
    claim_go = asyncio.Event()
    claim_done = asyncio.Event()
    real_claim: Callable[..., Awaitable[list[TaskRecord]]] = store.claim_runnable
    real_release = store.release_lease

    async def gated_claim(*args: Any) -> list[TaskRecord]:
        if not armed:
            return await real_claim(*args)
        claim_entered.set()
        await claim_go.wait()
        claimed = await real_claim(*args)
        claim_done.set()
        return claimed

    async def release_after_claim(task_id: str, owner: str) -> None:
        # The first actor's shutdown: let the pending claim land now, after the stop began.
        claim_go.set()
        await claim_done.wait()
        await asyncio.sleep(0)
        await real_release(task_id, owner)

    sup = Supervisor(store, registry(), Deps(extras={"gate": gate}), **{**FAST, "max_working": 2})
    try:
        await sup.__aenter__()
        first = await sup.tasks.create("rt.steps", {"steps": 2, "block_at": 0})

        async def first_running() -> bool:
            return sup.actor(first.id) is not None

        await until(first_running, within=WAIT)
        store.claim_runnable = gated_claim  # type: ignore[method-assign]
        store.release_lease = release_after_claim  # type: ignore[method-assign]
        armed = True
        sup.wake()
        async with asyncio.timeout(WAIT):
            await claim_entered.wait()
        second = await store.create_task("rt.steps", {"steps": 2, "block_at": 0})
        async with asyncio.timeout(WAIT):
            await sup.aclose()  # must not wait for the late task's (blocked) workflow
        late = await store.get_task(second.id)
        assert late.status is TaskStatus.PENDING
        assert late.lease_owner is None
    finally:
        gate.set()
        await sup.aclose()


async def test_a_cancelled_wait_on_a_task_run_elsewhere_leaves_no_event_behind(db_path: Path) -> None:
    # tasks/result callers that disconnect cancel their wait; each must not leave an entry behind.
    async with Store(db_path) as a, Store(db_path) as b:
        task = await b.create_task("rt.steps", {"steps": 1})
        assert await b.acquire_lease(task.id, b.owner_id, 60)  # "another process" holds it
        async with Supervisor(a, registry(), **FAST) as sup:
            for _ in range(3):
                waiter = asyncio.create_task(sup.tasks.wait(task.id))

                async def waiting() -> bool:
                    return task.id in sup._changed

                await until(waiting, within=WAIT)
                assert not waiter.done()
                waiter.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await waiter
            assert sup._changed == {}


async def test_a_runner_whose_lease_was_taken_writes_no_more_checkpoints(db_path: Path) -> None:
    # A's heartbeat is too slow to notice (a paused process, say): its lease expires, B takes the
    # task, then A's workflow goes on. A's next checkpoint must be refused, and A must stop.
    gate = asyncio.Event()
    effects: list[str] = []
    async with Store(db_path) as a, Store(db_path) as b:
        sup = Supervisor(
            a,
            registry(),
            Deps(extras={"gate": gate, "effect": effects.append}),
            **{**FAST, "lease_ttl": 0.3, "heartbeat": 60},
        )
        try:
            async with sup:
                task = await sup.tasks.create("rt.steps", {"steps": 3, "block_at": 1})

                async def blocked() -> bool:
                    return len(await a.load_steps(task.id)) == 1

                await until(blocked, within=WAIT)

                async def no_claims(*args: Any, **kwargs: Any) -> list[TaskRecord]:
                    return []

                a.claim_runnable = no_claims  # type: ignore[method-assign]

                async def taken_by_b() -> bool:
                    return await b.acquire_lease(task.id, b.owner_id, 60)

                await until(taken_by_b, within=WAIT)
                gate.set()  # A's workflow runs step s1 now, without its lease

                async def a_stopped() -> bool:
                    return sup.actor(task.id) is None

                await until(a_stopped, within=WAIT)
                record = await b.get_task(task.id)
                assert record.status is TaskStatus.WORKING and record.lease_owner == b.owner_id
                assert list(await b.load_steps(task.id)) == ["s0"]  # s1 was not checkpointed by A
                assert record.progress == {"step": "steps", "completed": 1, "total": 3}
        finally:
            gate.set()


async def test_a_server_leaves_alone_the_tasks_of_types_it_does_not_know(db_path: Path) -> None:
    # Two servers on one file, only A loaded an extra workflow (EXA_ORCH_EXTRA_WORKFLOWS): B must
    # not claim A's tasks of that type and fail them as unknown; they wait for A.
    only_a = WorkflowSpec("x.only_a", NoArgs, quick)
    async with Store(db_path) as a, Store(db_path) as b:
        rounds = 0
        claim_rounds = asyncio.Event()
        real_claim = b.claim_runnable

        async def counting_claim(*args: Any, **kwargs: Any) -> list[TaskRecord]:
            nonlocal rounds
            claimed = await real_claim(*args, **kwargs)
            rounds += 1
            if rounds >= 3:
                claim_rounds.set()
            return claimed

        async with Supervisor(b, registry(), **FAST) as sup_b:
            task = await b.create_task("x.only_a", {})
            b.claim_runnable = counting_claim  # type: ignore[method-assign]
            sup_b.wake()
            async with asyncio.timeout(WAIT):
                await claim_rounds.wait()  # B has had claim rounds since the task exists
            record = await b.get_task(task.id)
            assert record.status is TaskStatus.PENDING, record
            assert sup_b.started_total == 0
            async with Supervisor(a, WorkflowRegistry([*WORKFLOWS, only_a]), **FAST) as sup_a:
                done = await sup_a.tasks.wait(task.id, timeout=WAIT)
    assert done.status is TaskStatus.COMPLETED and done.result == "ok"


async def test_a_database_error_on_a_checkpoint_leaves_the_task_to_resume_instead_of_failing_it(
    store: Store,
) -> None:
    # SQLITE_BUSY past the busy timeout (another process held the write lock), a full disk for a
    # moment: the runtime's own write failed, not the workflow. The run stops; a later run resumes.
    real_save = store.save_step
    failures: list[str] = []

    async def save_once_locked(task_id: str, step_key: str, result: Any, *, owner: str | None = None) -> None:
        if not failures:
            failures.append(step_key)
            raise StoreError("database write failed: database is locked")
        await real_save(task_id, step_key, result, owner=owner)

    store.save_step = save_once_locked  # type: ignore[method-assign]
    async with faulty_supervisor(store, lease_ttl=0.5) as sup:
        task = await sup.tasks.create("rt.steps", {"steps": 2})
        done = await sup.tasks.wait(task.id, timeout=WAIT)
    assert failures == ["s0"]
    assert done.status is TaskStatus.COMPLETED, done
    assert done.result == {"squares": [0, 1]}


async def test_cancel_of_a_working_task_nobody_runs_ends_it_cancelled_at_once(store: Store) -> None:
    # A task left `working` by a server that stopped (lease released), while this server has no
    # free slot to resume it: tasks.cancel must still end it, not answer `working` after 10 s.
    gate = asyncio.Event()
    try:
        async with faulty_supervisor(store, {"gate": gate}, max_working=1) as sup:
            blocker = await sup.tasks.create("rt.steps", {"steps": 2, "block_at": 0})

            async def blocking() -> bool:
                return sup.actor(blocker.id) is not None

            await until(blocking, within=WAIT)
            left = await store.create_task("rt.steps", {"steps": 2})
            assert await store.acquire_lease(left.id, "otherhost:1:gone", 60)
            await store.transition(left.id, "working", owner="otherhost:1:gone")
            await store.release_lease(left.id, "otherhost:1:gone")
            # A cancel that waited for the task's run would take cancel_wait: twice the bound.
            sup.tasks.cancel_wait = 2 * WAIT
            async with asyncio.timeout(WAIT):
                cancelled = await sup.tasks.cancel(left.id)
            assert cancelled.status is TaskStatus.CANCELLED, cancelled
    finally:
        gate.set()


class CancelFromElsewhere(BaseModel):
    pass


async def cancelled_elsewhere_before_the_end(ctx: TaskContext, args: CancelFromElsewhere) -> Any:
    await ctx.step("one", lambda: 1)
    await ctx.deps.extras["cancel_elsewhere"](ctx.task_id)  # another process asks to cancel, now
    return "done anyway"


async def test_a_cancel_requested_elsewhere_before_the_result_is_written_wins(db_path: Path) -> None:
    # In one process a cancel after the workflow's last await discards the result; a cancel made
    # by another process, durably, before the result is written must do the same (the heartbeat
    # that would have noticed it simply hadn't come yet).
    spec = WorkflowSpec("f.cancel_elsewhere", CancelFromElsewhere, cancelled_elsewhere_before_the_end)
    async with Store(db_path) as a, Store(db_path) as b:

        async def cancel_elsewhere(task_id: str) -> None:
            await b.request_cancel(task_id)

        deps = Deps(extras={"cancel_elsewhere": cancel_elsewhere})
        async with Supervisor(a, WorkflowRegistry([spec]), deps, **{**FAST, "heartbeat": 60}) as sup:
            task = await sup.tasks.create("f.cancel_elsewhere", {})
            done = await sup.tasks.wait(task.id, timeout=WAIT)
    assert done.status is TaskStatus.CANCELLED, done
    assert done.result is None
