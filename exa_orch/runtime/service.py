"""TaskService: the face's handle on the runtime (operations/tasks.py and mcp/tasks.py use it).

Every method works for any task in the store, whichever process runs it: a task created here may
run in another server on the same database, and vice versa.

Ownership: each method takes the caller's `principal`. A task is created owned by it, and a task
another principal owns is answered exactly as a task that does not exist (TaskNotFound), so its
existence does not leak; one that expired answers TaskExpired, to its owner only. `principal=None`
is the runtime's own unscoped access: faces always pass one.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from exa_orch.errors import TaskExpired, TaskNotFound, TaskTerminal
from exa_orch.gateway.prices import Part
from exa_orch.runtime.actor import Message, TaskActor
from exa_orch.runtime.events import TaskEvent, TaskListener
from exa_orch.runtime.principal import Principal, TtlPolicy
from exa_orch.runtime.spec import WorkflowRegistry, WorkflowSpec
from exa_orch.store import INPUT_REQUEST_META, Store, TaskRecord, TaskStatus

# Polling bounds for waits on tasks run by other processes (local ones wake waiters at once).
_POLL_MIN = 0.05
_POLL_MAX = 1.0


async def _either(first: asyncio.Event, second: asyncio.Event) -> None:
    """Return once either event is set."""
    if first.is_set() or second.is_set():
        return
    waiters = [asyncio.ensure_future(first.wait()), asyncio.ensure_future(second.wait())]
    try:
        await asyncio.wait(waiters, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for waiter in waiters:
            waiter.cancel()
        # Let the cancelled waits leave their events' waiter lists (Supervisor.forget checks them).
        await asyncio.gather(*waiters, return_exceptions=True)


def input_kind(record: TaskRecord) -> str | None:
    """What a task waiting for input waits for (its meta.inputRequest's kind), else None."""
    if record.status is not TaskStatus.INPUT_REQUIRED:
        return None
    request = record.meta.get(INPUT_REQUEST_META)
    return str(request.get("kind")) if isinstance(request, dict) and request.get("kind") else None


class TaskRunner(Protocol):
    """What TaskService needs of the process that runs tasks (the Supervisor provides it).

    Declared here so the service depends on this narrow surface, not on the Supervisor module:
    the supervisor imports the service, never the other way round."""

    store: Store
    workflows: WorkflowRegistry
    owner: str  # this process's lease owner id
    lease_ttl: float  # seconds a lease taken here lasts

    def wake(self) -> None:
        """Something may be runnable: claim now."""

    def actor(self, task_id: str) -> TaskActor | None:
        """The actor running `task_id` in this process, if any."""

    def monotonic(self) -> float:
        """The clock of the actors' lease fences (read before taking a lease outside a claim)."""

    def start_leased(self, record: TaskRecord, leased_at: float | None = None) -> TaskActor:
        """Run a task this process has just leased outside a claim, at `leased_at` on `monotonic`."""

    def changed(self, task_id: str) -> asyncio.Event:
        """An event set at the next status change of `task_id` made in this process."""

    def forget(self, task_id: str, event: asyncio.Event) -> None:
        """Drop `changed(task_id)`'s event if nobody waits on it any more."""

    def emit(self, event: TaskEvent) -> None:
        """Publish a TaskEvent to local waiters and listeners."""

    def subscribe(self, listener: TaskListener) -> Callable[[], None]:
        """Call `listener(event)` for each TaskEvent of this process; returns the unsubscribe function."""


class TaskService:
    """Create, read, wait for, list and cancel tasks; subscribe to this process's TaskEvents."""

    def __init__(
        self, runner: TaskRunner, *, cancel_wait: float = 10.0, ttl: TtlPolicy | None = None
    ) -> None:
        self._sup = runner
        self._store = runner.store
        self.cancel_wait = cancel_wait
        self.ttl = ttl or TtlPolicy()

    async def create(
        self,
        type: str,
        args: dict[str, Any] | None,
        *,
        meta: dict[str, Any] | None = None,
        ttl_ms: int | None = None,
        principal: Principal | None = None,
    ) -> TaskRecord:
        """Validate `args` with the task type's model, then write a `pending` row and wake the supervisor.

        Raises InvalidParams (unknown type, or naming each bad field) before any row is written.
        `ttl_ms`: how long the finished task is kept, clamped by the TTL policy (default 1 h, at
        most 24 h); the record's `ttl_ms` is what was granted. The task belongs to `principal`.
        """
        spec = self._sup.workflows.get(type)
        model = spec.validate(args)
        record = await self._store.create_task(
            type,
            spec.dump(model),
            meta=meta,
            ttl_ms=self.ttl.grant(ttl_ms),
            principal=None if principal is None else principal.name,
        )
        self._sup.wake()
        return record

    def estimate(self, type: str, args: dict[str, Any] | None) -> list[Part] | None:
        """The paid work a task of `type` with `args` may do (its WorkflowSpec's `estimate`; None if
        the type has none). Validates like `create` (InvalidParams), writes nothing."""
        spec = self._sup.workflows.get(type)
        model = spec.validate(args)
        return None if spec.estimate is None else spec.estimate(model)

    async def costs(self, task_ids: list[str]) -> dict[str, dict[str, float]]:
        """What each task's requests to Exa cost so far: `{usd, billed, estimated}` (the ledger)."""
        return await self._store.task_costs(task_ids)

    def task_types(self) -> list[WorkflowSpec]:
        """The task types this runtime runs (what `create` accepts), sorted by type."""
        return [self._sup.workflows.get(t) for t in self._sup.workflows.types()]

    def with_engine(self, task_type: str, args: dict[str, Any], default: str) -> dict[str, Any]:
        """`args` of a `task_type` task with its engine settled: an omitted or null `engine` of a
        type that takes one is `default` (EXA_ORCH_ENGINE), stored with the task so that a resumed
        task never switches ("websets" is the args' own default and needs no storing). The one
        rule for tasks.create, its preview and a task-augmented call."""
        if args.get("engine") is not None:
            return args
        out = {k: v for k, v in args.items() if k != "engine"}
        if default != "websets":
            spec = next((s for s in self.task_types() if s.type == task_type), None)
            if spec is not None and "engine" in spec.args_model.model_fields:
                out["engine"] = default
        return out

    async def get(self, task_id: str, *, principal: Principal | None = None) -> TaskRecord:
        """The task's row. Raises TaskNotFound (also for another principal's task) or TaskExpired."""
        try:
            record = await self._store.get_task(task_id)
        except TaskNotFound:
            tomb = await self._store.get_tombstone(task_id)
            if tomb is not None and (principal is None or principal.may_see(tomb["owner"])):
                raise TaskExpired(task_id, tomb["status"], tomb["expired_at"]) from None
            raise
        if principal is not None and not principal.may_see(record.principal):
            raise TaskNotFound(task_id)
        return record

    async def wait(
        self,
        task_id: str,
        timeout: float | None = None,  # noqa: ASYNC109 (agreed API)
        *,
        principal: Principal | None = None,
        until_input: bool = False,
    ) -> TaskRecord:
        """The task once terminal, or as it is when `timeout` s pass (None: no bound); with
        `until_input`, also once it waits for its owner's input (input_required).

        Raises TaskNotFound (also for another principal's task) or TaskExpired."""
        deadline = None if timeout is None else time.monotonic() + timeout
        poll = _POLL_MIN
        while True:
            # Both taken before the read, so no change slips between.
            changed = self._sup.changed(task_id)
            remote = self._store.watch(task_id)
            try:
                record = await self.get(task_id, principal=principal)
                if record.terminal or (until_input and record.status is TaskStatus.INPUT_REQUIRED):
                    return record
                remaining = None if deadline is None else deadline - time.monotonic()
                if remaining is not None and remaining <= 0:
                    return record
                # A task run here sets `changed`; one run elsewhere sets `remote` when the store
                # hears other processes' commits (PostgreSQL), else it is polled with a growing interval.
                local = self._sup.actor(task_id) is not None
                bound = _POLL_MAX if local or self._store.notifies else poll
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(bound if remaining is None else min(bound, remaining)):
                        await _either(changed, remote)
            finally:
                # No map entry outlives its waiters (a remote task's, or a wait that was cancelled).
                self._sup.forget(task_id, changed)
                self._store.unwatch(task_id, remote)
            poll = min(poll * 2, _POLL_MAX)

    async def list(
        self,
        *,
        status: str | Sequence[str] | None = None,
        type: str | None = None,
        cursor: str | None = None,
        limit: int = 50,
        principal: Principal | None = None,
    ) -> tuple[list[TaskRecord], str | None]:
        """A page of `principal`'s tasks, oldest first as the store orders them, filtered by status(es)
        and type."""
        return await self._store.list_tasks(
            status=status,
            type=type,
            limit=limit,
            cursor=cursor,
            principal=None if principal is None else principal.name,
            include_unowned=principal is not None and principal.sees_unowned,
        )

    async def cancel(
        self, task_id: str, *, principal: Principal | None = None, settle: float = 0.0
    ) -> TaskRecord:
        """Cancel the task and return it, `cancelled` once its runner has stopped (bounded wait).

        The request is durable (`cancel_requested`), so a runner in another process stops within a
        heartbeat and one that crashed cancels on resume. Raises TaskTerminal if it already finished,
        TaskNotFound if there is no such task (or `principal` does not own it), TaskExpired.
        `settle`: if the task is still not terminal after `cancel_wait`, wait up to this many more
        seconds for its runner to record the outcome (a face whose protocol promises a cancelled task).
        """
        record = await self._cancel(task_id, principal)
        if settle > 0 and not record.terminal:
            record = await self.wait(task_id, timeout=settle, principal=principal)
        return record

    async def _cancel(self, task_id: str, principal: Principal | None) -> TaskRecord:
        actor = self._sup.actor(task_id)
        if principal is not None:
            # Checked before anything is told: nobody cancels another principal's task.
            if actor is None:
                await self.get(task_id, principal=principal)
                actor = self._sup.actor(task_id)  # it may have started here meanwhile
            elif not principal.may_see(actor.record.principal):  # no await: see below
                raise TaskNotFound(task_id)
        if actor is not None:
            # Told first, before any await, so the workflow can't complete after this call began.
            actor.post(Message.CANCEL)
        try:
            record = await self._store.request_cancel(task_id)
        except TaskTerminal:
            if actor is None:
                raise
            record = await self._store.get_task(task_id)
            if record.status is not TaskStatus.CANCELLED:
                raise
            return record
        if actor is not None:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self.cancel_wait):
                    await actor.wait_done()
            return await self._store.get_task(task_id)
        leased_at = self._sup.monotonic()
        if await self._store.acquire_lease(task_id, self._sup.owner, self._sup.lease_ttl):
            # Nobody runs it: a server that stopped or died left it, or it is still pending.
            leased = await self._store.get_task(task_id)
            if self._sup.actor(task_id) is None:
                running = (TaskStatus.WORKING, TaskStatus.INPUT_REQUIRED)
                if leased.status in running and leased.type in self._sup.workflows:
                    # An earlier run began it and may have started Exa work: a run that replays
                    # its checkpoints finds the workflow's cancel hooks, runs them and ends it.
                    actor = self._sup.start_leased(leased, leased_at)
                    with contextlib.suppress(TimeoutError):
                        async with asyncio.timeout(self.cancel_wait):
                            await actor.wait_done()
                    return await self._store.get_task(task_id)
                # Pending (nothing started yet), or a type this server can't run: end it here.
                record = await self._store.transition(
                    task_id, TaskStatus.CANCELLED, message="cancelled", owner=self._sup.owner
                )
                self._sup.emit(TaskEvent("status", record))
                return record
        return await self.wait(task_id, timeout=self.cancel_wait)

    async def waiting(self, principal: Principal, kind: str | None = None) -> Sequence[TaskRecord]:
        """`principal`'s tasks waiting for its input (input_required), oldest first; of `kind`
        (their meta.inputRequest's, e.g. "apiKey") if given."""
        records = await self._store.waiting_tasks(principal.name)
        return [r for r in records if kind is None or input_kind(r) == kind]

    async def resume_waiting(self, principal: Principal, kind: str) -> Sequence[TaskRecord]:
        """The input of `kind` was given for `principal`: each of its tasks waiting for it goes back
        to working, and a runner resumes it from its checkpoints (here, or in any process sharing
        the store). Returns those resumed."""
        moved = await self._store.unpark(
            [r.id for r in await self.waiting(principal, kind)], message=f"{kind} given; resuming"
        )
        for record in moved:
            self._sup.emit(TaskEvent("status", record))
        if moved:
            self._sup.wake()
        return moved

    async def resume_with_args(self, record: TaskRecord, args: dict[str, Any]) -> TaskRecord | None:
        """A waiting task whose input is part of its args (a local file's text in place of its
        path) resumes with `args`, re-validated by its task type first (InvalidParams). None when it
        was no longer waiting."""
        spec = self._sup.workflows.get(record.type)
        checked = spec.dump(spec.validate(args))
        moved = await self._store.unpark(
            [record.id], message="input given; resuming", args={record.id: checked}
        )
        for resumed in moved:
            self._sup.emit(TaskEvent("status", resumed))
        if moved:
            self._sup.wake()
        return moved[0] if moved else None

    def subscribe(self, listener: TaskListener) -> Callable[[], None]:
        """Call `listener(TaskEvent)` for status and progress events of tasks run in THIS process.

        Status events come for pending->working, ->completed, ->failed and ->cancelled (also a
        cancel of a pending task done here). Returns a function that unsubscribes.
        """
        return self._sup.subscribe(listener)

    async def wake(self, task_id: str) -> None:
        """End a `ctx.sleep` of a task running here early (no-op otherwise)."""
        actor = self._sup.actor(task_id)
        if actor is not None:
            actor.post(Message.WAKE)
