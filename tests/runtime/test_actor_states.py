"""TaskActor as a state machine: the transition table, refused moves, and the path each outcome takes.

The actors here run on a real SQLite store, leased as the supervisor would lease them; a subclass
only records the states the real `_enter` moves through.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from exa_orch.errors import ApiError, ErrorCode, OrchError
from exa_orch.runtime import Deps, TaskContext, WorkflowSpec
from exa_orch.runtime.actor import TRANSITIONS, ActorState, Message, TaskActor
from exa_orch.runtime.events import TaskEvent
from exa_orch.store import Store, TaskRecord, TaskStatus
from tests.support import WAIT

S = ActorState


class NoArgs(BaseModel):
    pass


class Count(BaseModel):
    n: int


async def two_steps(ctx: TaskContext, args: NoArgs) -> Any:
    await ctx.step("a", lambda: 1)
    return await ctx.step("b", lambda: 2)


async def not_json(ctx: TaskContext, args: NoArgs) -> Any:
    return {"ids": {1, 2}}


async def blocks(ctx: TaskContext, args: NoArgs) -> Any:
    await ctx.step("a", lambda: 1)
    reached = ctx.deps.extras.get("reached")
    if reached is not None:
        reached.set()
    await asyncio.get_running_loop().create_future()  # never resolves: only a stop ends it


async def raises(ctx: TaskContext, args: NoArgs) -> Any:
    raise ValueError("boom")


class Traced(TaskActor):
    """A TaskActor that records each state the real `_enter` accepted."""

    path: list[ActorState]

    def _enter(self, state: ActorState) -> None:
        super()._enter(state)
        self.path.append(state)


async def _leased(store: Store, args: dict[str, Any] | None = None, type: str = "t") -> TaskRecord:
    await store.create_task(type, args or {})
    (record,) = await store.claim_runnable(store.owner_id, 30.0, 1)
    return record


def _actor(
    store: Store,
    record: TaskRecord,
    spec: WorkflowSpec | None,
    events: list[TaskEvent],
    extras: dict[str, Any] | None = None,
) -> Traced:
    actor = Traced(
        record,
        store=store,
        spec=spec,
        deps=Deps(extras=extras or {}),
        owner=store.owner_id,
        emit=events.append,
        on_exit=lambda a: None,
        hook_timeout=2.0,
    )
    actor.path = []
    return actor


def test_transition_table_is_the_documented_machine() -> None:
    assert set(TRANSITIONS) == set(ActorState)
    assert TRANSITIONS == {
        S.CREATED: {S.STARTING},
        S.STARTING: {S.RUNNING, S.FAILING, S.STOPPING, S.DONE},
        S.RUNNING: {S.COMPLETING, S.FAILING, S.PARKING, S.BACKING_OFF, S.STOPPING, S.DONE},
        S.PARKING: {S.DONE},
        S.BACKING_OFF: {S.DONE},
        S.COMPLETING: {S.FAILING, S.DONE},
        S.FAILING: {S.DONE},
        S.STOPPING: {S.DONE},
        S.DONE: set(),
    }
    # Every state but CREATED can end the actor; nothing leaves DONE or returns to CREATED.
    assert all(S.DONE in TRANSITIONS[s] for s in ActorState if s not in (S.CREATED, S.DONE))
    assert not any(S.CREATED in nxt for nxt in TRANSITIONS.values())


@pytest.mark.parametrize("current", list(ActorState))
async def test_enter_allows_exactly_the_table_and_refuses_the_rest(
    current: ActorState, tmp_path: Path
) -> None:
    async with Store(tmp_path / "t.db") as store:
        record = await _leased(store)
        for target in ActorState:
            actor = _actor(store, record, None, [])
            actor.state = current
            if target in TRANSITIONS[current]:
                actor._enter(target)
                assert actor.state is target
            else:
                with pytest.raises(OrchError) as info:
                    actor._enter(target)
                assert info.value.code is ErrorCode.INTERNAL_ERROR  # an illegal move is a bug
                assert f"from {current.value} to {target.value}" in info.value.message
                assert actor.state is current  # refused: nothing moved


async def test_completed_path(tmp_path: Path) -> None:
    async with Store(tmp_path / "t.db") as store:
        events: list[TaskEvent] = []
        actor = _actor(store, await _leased(store), WorkflowSpec("t", NoArgs, two_steps), events)
        await actor.run()
        assert actor.path == [S.STARTING, S.RUNNING, S.COMPLETING, S.DONE]
        task = await store.get_task(actor.task_id)
        assert task.status is TaskStatus.COMPLETED and task.result == 2
        assert [str(e.task.status) for e in events] == ["working", "completed"]


@pytest.mark.parametrize(
    ("spec", "args", "message"),
    [
        (None, {}, "unknown task type 't'"),
        (WorkflowSpec("t", Count, two_steps), {"n": "x"}, "n"),
    ],
)
async def test_start_failures_never_run(
    spec: WorkflowSpec | None, args: dict[str, Any], message: str, tmp_path: Path
) -> None:
    async with Store(tmp_path / "t.db") as store:
        actor = _actor(store, await _leased(store, args), spec, [])
        await actor.run()
        assert actor.path == [S.STARTING, S.FAILING, S.DONE]
        task = await store.get_task(actor.task_id)
        assert task.status is TaskStatus.FAILED
        assert task.error is not None and task.error["step"] == "start" and message in task.error["message"]


async def test_workflow_error_and_unstorable_result_fail(tmp_path: Path) -> None:
    async with Store(tmp_path / "t.db") as store:
        raising = _actor(store, await _leased(store), WorkflowSpec("t", NoArgs, raises), [])
        await raising.run()
        assert raising.path == [S.STARTING, S.RUNNING, S.FAILING, S.DONE]
        bad = _actor(store, await _leased(store), WorkflowSpec("t", NoArgs, not_json), [])
        await bad.run()
        assert bad.path == [S.STARTING, S.RUNNING, S.COMPLETING, S.FAILING, S.DONE]
        task = await store.get_task(bad.task_id)
        assert task.status is TaskStatus.FAILED and task.error is not None and task.error["step"] == "result"


async def wrapped_503(ctx: TaskContext, args: NoArgs) -> Any:
    await ctx.step("one", lambda: 1)
    try:
        raise ApiError("Exa failed (GET /websets/v0/websets/w1): HTTP 503: busy", status=503)
    except ApiError as exc:
        raise RuntimeError("the poll gave up") from exc  # a workflow's own wrapper: still transient


async def test_a_transient_error_backs_off_and_leaves_the_task_working(tmp_path: Path) -> None:
    async with Store(tmp_path / "t.db") as store:
        events: list[TaskEvent] = []
        actor = _actor(store, await _leased(store), WorkflowSpec("t", NoArgs, wrapped_503), events)
        await actor.run()
        assert actor.path == [S.STARTING, S.RUNNING, S.BACKING_OFF, S.DONE]
        task = await store.get_task(actor.task_id)
        assert task.status is TaskStatus.WORKING and task.error is None
        assert task.progress is not None and task.progress["message"].startswith("Exa answered 503; retrying")
        assert [e.kind for e in events][-1] == "progress"


async def test_cancel_requested_before_start_stops_without_running(tmp_path: Path) -> None:
    async with Store(tmp_path / "t.db") as store:
        created = await store.create_task("t", {})
        await store.request_cancel(created.id)
        (record,) = await store.claim_runnable(store.owner_id, 30.0, 1)
        actor = _actor(store, record, WorkflowSpec("t", NoArgs, blocks), [])
        await actor.run()
        assert actor.path == [S.STARTING, S.STOPPING, S.DONE]
        assert (await store.get_task(actor.task_id)).status is TaskStatus.CANCELLED
        assert await store.load_steps(actor.task_id) == {}  # the workflow never ran


@pytest.mark.parametrize(
    ("message", "status"), [(Message.CANCEL, TaskStatus.CANCELLED), (Message.SHUTDOWN, TaskStatus.WORKING)]
)
async def test_stop_while_running(message: Message, status: TaskStatus, tmp_path: Path) -> None:
    async with Store(tmp_path / "t.db") as store:
        reached = asyncio.Event()
        spec = WorkflowSpec("t", NoArgs, blocks)
        actor = _actor(store, await _leased(store), spec, [], {"reached": reached})
        run = asyncio.create_task(actor.run())
        async with asyncio.timeout(WAIT):
            assert await actor.wait_state(S.RUNNING) is S.RUNNING
            await reached.wait()  # the workflow checkpointed "a" and blocks
            actor.post(message)
            assert await actor.wait_state(S.DONE) is S.DONE
            await run
        assert not run.cancelled()  # our interrupt was undone: the actor ended normally
        assert actor.path == [S.STARTING, S.RUNNING, S.STOPPING, S.DONE]
        task = await store.get_task(actor.task_id)
        assert task.status is status
        if message is Message.SHUTDOWN:
            assert task.lease_owner is None  # released: the next start resumes it at once


async def cancelled_as_it_returns(ctx: TaskContext, args: NoArgs) -> Any:
    made = await ctx.step("create", lambda: {"id": "thing-1"})
    ctx.on_cancel(lambda: ctx.deps.extras["undo"](made["id"]))
    await ctx.deps.extras["cancel"]()  # the cancel lands after the workflow's last step...
    return {"done": made["id"]}  # ...and the workflow returns all the same


@pytest.mark.parametrize("where", ["here", "elsewhere"])
async def test_a_cancel_that_lands_as_the_workflow_returns_wins_over_its_result(
    where: str, tmp_path: Path
) -> None:
    # Mutation check: let the result win over the cancel and this fails. Drop the actor's `_stop`
    # check after the workflow returns, or its `_take_pending_interrupt` (the undelivered interrupt
    # then kills the actor mid-write on Python < 3.13): "here" fails; store the result without
    # `cancel_wins`: "elsewhere" fails.
    async with Store(tmp_path / "t.db") as store, Store(tmp_path / "t.db") as other:
        undone: list[str] = []

        async def undo(thing: str) -> None:
            undone.append(thing)

        events: list[TaskEvent] = []
        extras: dict[str, Any] = {"undo": undo}
        record = await _leased(store)
        actor = _actor(store, record, WorkflowSpec("t", NoArgs, cancelled_as_it_returns), events, extras)

        async def cancel() -> None:
            if where == "here":
                actor.post(Message.CANCEL)  # TaskService.cancel tells a local actor first, no await
            else:
                await other.request_cancel(record.id)  # another process, durably; no message here

        extras["cancel"] = cancel
        run = asyncio.create_task(actor.run())
        async with asyncio.timeout(WAIT):
            await run
        assert not run.cancelled()  # the actor's own interrupt, if any, was undone: it ended normally
        task = await store.get_task(actor.task_id)
        assert task.status is TaskStatus.CANCELLED and task.result is None
        assert [str(e.task.status) for e in events] == ["working", "cancelled"]
        if where == "here":
            assert actor.path == [S.STARTING, S.RUNNING, S.STOPPING, S.DONE]
            assert undone == ["thing-1"]  # the Exa work the run started is cancelled too


async def test_wait_state_returns_done_when_the_state_is_never_reached(tmp_path: Path) -> None:
    async with Store(tmp_path / "t.db") as store:
        actor = _actor(store, await _leased(store), None, [])
        # gather starts the waiter's task first, so it is registered before the run begins.
        async with asyncio.timeout(WAIT):
            reached, _ = await asyncio.gather(actor.wait_state(S.COMPLETING), actor.run())
        assert reached is S.DONE
        assert await actor.wait_state(S.RUNNING) is S.DONE  # after the end: at once
