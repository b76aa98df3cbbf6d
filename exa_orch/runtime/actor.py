"""TaskActor: one asyncio task per running task, the only writer of its task's row.

Lifecycle (the store's TaskStatus, written only here once the task is leased):
  pending   -> working     the actor starts the workflow (first run)
  working   -> working     a resumed run (the previous process died or stopped): steps replay
  working   -> completed   the workflow returned; its result is stored
  working   -> failed      the workflow raised; error = {step, message, recoverable, code}
  working   -> input_required  the workflow raised an error that asks for its owner's input
                           (`input_kind`, e.g. the API key): the request goes in meta.inputRequest,
                           the lease is released and nothing runs it until the input is given
                           (TaskService.resume_waiting: working again, resumed from its checkpoints)
  any       -> cancelled   a cancel message, or cancel_requested set by another process. If an
                           earlier run began the task and this run hasn't replayed its checkpoints
                           yet, the workflow is replayed up to its first live step or sleep first, so
                           the hooks it registers (ctx.on_cancel) cancel the Exa work that run started.
Shutdown is not a task status: the actor stops at a safe point, releases the lease and leaves the
task non-terminal, so the next claim (here or in another process) resumes it at once.

The actor itself is a state machine (ActorState; TRANSITIONS lists every allowed move):
  CREATED -> STARTING -> RUNNING -> COMPLETING -> DONE        the usual path
  STARTING -> FAILING (unknown type, bad args); RUNNING -> FAILING (the workflow raised);
  RUNNING -> PARKING -> DONE (the workflow needs its owner's input);
  RUNNING -> BACKING_OFF -> DONE (a transient Exa error: the task resumes after a backoff, or is
  given up after too many such runs without progress; store/backoff.py);
  COMPLETING -> FAILING (the result isn't JSON); FAILING -> DONE
  STARTING | RUNNING -> STOPPING -> DONE                       cancel or shutdown, at a safe point
  any but CREATED -> DONE                                      lease lost, task gone, database error
`run` calls one method per state; each returns the next state and `_enter` refuses any other move.

Mailbox: `post(message)` is the actor's one inbox: CANCEL (the user's, or one another process
asked for, which the supervisor's row check posts), SHUTDOWN (this process stops, or the lease was
lost to another process: the supervisor posts it) and WAKE. A message is acted on as it arrives,
not queued, since a busy actor is awaiting Exa and can't poll a queue: cancel and shutdown set the
stop reason (`_stop`, the only state a message leaves behind; CANCEL wins over SHUTDOWN) and
interrupt the in-flight await with an asyncio cancel of the actor's task, so a workflow waiting on
Exa stops promptly; the actor then un-cancels itself and writes the outcome at that safe point.
Wake ends a ctx.sleep early and leaves nothing behind.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from collections.abc import Callable
from typing import Any

from exa_orch.errors import (
    InvalidParams,
    InvalidTransition,
    LeaseHeld,
    LeaseLapsed,
    OrchError,
    StoreError,
    TaskNotFound,
)
from exa_orch.gateway.context import enter_request_scope, set_request
from exa_orch.gateway.fence import LeaseFence
from exa_orch.gateway.purse import BudgetReached, Purse
from exa_orch.runtime.actor_state import TRANSITIONS as TRANSITIONS  # re-exported
from exa_orch.runtime.actor_state import ActorState as ActorState  # re-exported
from exa_orch.runtime.actor_state import Message as Message  # re-exported
from exa_orch.runtime.context import TaskContext
from exa_orch.runtime.deps import Deps
from exa_orch.runtime.events import TaskEvent
from exa_orch.runtime.outcomes import error_dict, input_request, transient
from exa_orch.runtime.principal import concerning
from exa_orch.runtime.purses import open_purse
from exa_orch.runtime.spec import WorkflowSpec
from exa_orch.runtime.stopping import replay_for_hooks, stop_progress, stopped_answer
from exa_orch.store import Store, TaskRecord, TaskStatus

logger = logging.getLogger(__name__)


class TaskActor:
    """Runs one leased task to an outcome. Create it, then `tg.create_task(actor.run())`.

    `run` moves through ActorState (TRANSITIONS lists every allowed move); each state is one method
    that does its work and returns the next state."""

    __slots__ = (
        "record",
        "_store",
        "_spec",
        "_deps",
        "_owner",
        "_emit",
        "_on_exit",
        "_hook_timeout",
        "state",
        "lost_to",
        "lapse_noted",
        "_stop",
        "_task",
        "_interrupted",
        "_ctx",
        "_args",
        "_outcome",
        "_watchers",
        "fence",
        "purse",
    )

    def __init__(
        self,
        record: TaskRecord,
        *,
        store: Store,
        spec: WorkflowSpec | None,
        deps: Deps,
        owner: str,
        emit: Callable[[TaskEvent], None],
        on_exit: Callable[[TaskActor], None],
        hook_timeout: float = 10.0,
        fence: LeaseFence | None = None,
    ) -> None:
        self.record = record
        self._store = store
        self._spec = spec
        self._deps = deps
        self._owner = owner
        self._emit = emit
        self._on_exit = on_exit
        self._hook_timeout = hook_timeout
        self.state = ActorState.CREATED
        # (state, future) pairs of `wait_state` callers, created on the first one.
        self._watchers: list[tuple[ActorState, asyncio.Future[ActorState]]] | None = None
        self._stop: Message | None = None
        self._task: asyncio.Task[Any] | None = None
        self._interrupted = False  # our own asyncio cancel is pending on self._task (undo with _uncancel)
        self._ctx: TaskContext | None = None
        self._args: Any = None  # the validated args, STARTING -> RUNNING
        self._outcome: Any = None  # the result (RUNNING -> COMPLETING) or error dict (-> FAILING)
        # The lease's validity on a monotonic clock, renewed by the supervisor; every request to
        # Exa made for this task checks it first (gateway/fence.py). None: never fenced (tests).
        self.fence = fence
        self.lost_to: str | None = None  # the process that took this task's lease from this run, if one did
        self.lapse_noted = False  # the supervisor noted this run's lost lease (runtime/supervisor.py)
        # What the task may still spend, and whether a 402 or its budget stopped it (gateway/purse.py).
        self.purse: Purse | None = None

    @property
    def task_id(self) -> str:
        return self.record.id

    async def wait_done(self) -> None:
        """Return once the actor has stopped (whatever the outcome)."""
        await self.wait_state(ActorState.DONE)

    async def wait_state(self, state: ActorState) -> ActorState:
        """Return once the actor enters `state` (at once if it is there), or DONE if it ends first.

        A hook for tests and tools that wait on the actor's progress instead of polling it."""
        if self.state is state or self.state is ActorState.DONE:
            return self.state
        if self._watchers is None:
            self._watchers = []
        future: asyncio.Future[ActorState] = asyncio.get_running_loop().create_future()
        self._watchers.append((state, future))
        return await asyncio.shield(future)

    def post(self, message: Message) -> None:
        """Deliver a message; cancel and shutdown interrupt the workflow's in-flight await at once."""
        if message is Message.WAKE:
            if self._ctx is not None:
                self._ctx._wake_up()
            return
        if self._stop is not Message.CANCEL:
            self._stop = message
        # One interrupt is enough (more would cancel the cleanup), and only while the workflow runs.
        if self.state is ActorState.RUNNING and not self._interrupted and self._task is not None:
            self._interrupted = True
            self._task.cancel()

    def _interrupt_for_purse(self) -> None:
        """The purse stopped between requests (Websets estimates crossed the budget): interrupt the
        workflow's await now, so its websets are cancelled without waiting for its next request."""
        if self.state is ActorState.RUNNING and not self._interrupted and self._task is not None:
            self._interrupted = True
            self._task.cancel()

    def kill(self) -> None:
        """Cancel the actor's task outright (a stop that overran its deadline); its lease will expire."""
        if self._task is not None and self.state is not ActorState.DONE:
            self._task.cancel()

    def _enter(self, state: ActorState) -> None:
        """Move to `state`; a move TRANSITIONS does not list is a bug (OrchError, INTERNAL_ERROR)."""
        if state not in TRANSITIONS[self.state]:
            raise OrchError(f"task {self.task_id}: actor cannot go from {self.state.value} to {state.value}")
        self.state = state
        if self._watchers:
            keep = []
            for wanted, future in self._watchers:
                if wanted is state or state is ActorState.DONE:
                    if not future.done():
                        future.set_result(state)
                else:
                    keep.append((wanted, future))
            self._watchers = keep or None

    async def run(self) -> None:
        """Drive the task to completed/failed/cancelled, or stop leaving it resumable."""
        self._task = asyncio.current_task()
        # What this run sends to Exa and logs is for the task's owner and this task alone, fenced by
        # its lease (this asyncio task's own context, inherited by its children).
        enter_request_scope(principal=self.record.principal, task_id=self.task_id, fence=self.fence)
        try:
            self._enter(ActorState.STARTING)
            while self.state is not ActorState.DONE:
                if self.state is ActorState.STARTING:
                    following = self._starting()
                elif self.state is ActorState.RUNNING:
                    following = await self._running()
                elif self.state is ActorState.COMPLETING:
                    following = await self._completing()
                elif self.state is ActorState.FAILING:
                    following = await self._failing()
                elif self.state is ActorState.PARKING:
                    following = await self._parking()
                elif self.state is ActorState.BACKING_OFF:
                    following = await self._backing_off()
                else:  # STOPPING: run() leaves CREATED first and the loop ends at DONE
                    following = await self._stopping()
                self._enter(following)
        except (LeaseHeld, TaskNotFound, InvalidTransition) as exc:
            # Another process took the task (our lease expired), it was deleted, or it finished
            # already: not ours to write.
            logger.warning("task %s: stopped without writing: %s", self.task_id, exc)
            if isinstance(exc, LeaseHeld):
                self.lost_to = exc.holder  # another process took the lease: the supervisor notes it
            if isinstance(exc, LeaseLapsed):
                # Our lease may still be on the row (nobody took it yet): give it back, so the
                # next claim resumes the task at once instead of after another renewal's TTL.
                with contextlib.suppress(Exception):
                    await self._store.release_lease(self.task_id, self._owner)
        except StoreError as exc:
            logger.error(
                "task %s: stopped on a database error (%s); it resumes once its lease expires",
                self.task_id,
                exc.message,
            )
        except Exception:
            logger.exception(
                "task %s: actor failed; the lease will expire and another run resumes it", self.task_id
            )
        finally:
            self._args = self._outcome = None
            if self.state is not ActorState.DONE:
                self._enter(ActorState.DONE)  # ended by an error or an outside cancel
            self._on_exit(self)

    def _starting(self) -> ActorState:
        """A cancel asked for already stops at once; an unknown type or bad args fail the task."""
        record = self.record
        if record.cancel_requested:
            self._stop = Message.CANCEL
        if self._stop is not None:
            return ActorState.STOPPING
        spec = self._spec
        if spec is None:
            self._outcome = {
                "step": "start",
                "message": f"unknown task type {record.type!r} in this server",
                "recoverable": False,
            }
            return ActorState.FAILING
        try:
            self._args = spec.validate(record.args)
        except OrchError as exc:
            self._outcome = error_dict(exc, None, step="start")
            return ActorState.FAILING
        return ActorState.RUNNING

    async def _running(self) -> ActorState:
        """Run (or resume) the workflow; a cancel or shutdown interrupts it and goes to STOPPING."""
        spec = self._spec
        assert spec is not None  # STARTING fails a task of an unknown type
        args, self._args = self._args, None
        try:
            ctx = await self._open_context(args)
            result = await spec.fn(ctx, args)
        except asyncio.CancelledError as exc:
            return await self._on_cancelled(exc)
        except (LeaseHeld, TaskNotFound, StoreError):
            # Not the workflow's failure: the task was taken or deleted, or the database refused
            # a write (locked past the busy timeout, say); a later run resumes from the checkpoints.
            raise
        except (KeyboardInterrupt, SystemExit):
            raise
        except BaseException as exc:  # any other BaseException (Exception too) is the workflow's failure
            return await self._on_raised(exc)
        return await self._on_returned(result)

    async def _open_context(self, args: Any) -> TaskContext:
        """The run's TaskContext over the task's checkpoints (a first run sets the task working),
        with the task's purse opened and the gateway's notices routed to it."""
        steps = await self._store.load_steps(self.task_id)
        resumed = self.record.status is not TaskStatus.PENDING  # still the claim's row here
        if not resumed:
            await self._set_status(TaskStatus.WORKING)
        self.purse = await open_purse(self._store, self.record, steps, self._interrupt_for_purse)
        ctx = self._ctx = TaskContext(
            task_id=self.task_id,
            args=args,
            store=self._store,
            deps=self._deps,
            steps=steps,
            resumed=resumed,
            on_progress=self._progress_event,
            owner=self._owner,
            last_progress=self.record.progress if isinstance(self.record.progress, dict) else None,
        )
        set_request(notice=ctx.note)  # the gateway's word on a wait (an agent-run slot) is the task's
        return ctx

    async def _on_cancelled(self, exc: asyncio.CancelledError) -> ActorState:
        """The workflow's await was cancelled: our interrupt for a stop (-> STOPPING) or for the
        purse; from outside (re-raised); or nobody's (the workflow's own bug: -> FAILING)."""
        ctx = self._ctx
        if self._stop is None and self._interrupted and self.purse is not None and self.purse.stopped:
            self._uncancel()  # our own interrupt: the purse stopped (Websets estimates crossed the budget)
            return await self._stopped_by_purse(self.purse.stopped, None, ctx)
        if self._stop is None:
            if self._task is not None and self._task.cancelling():
                raise exc  # cancelled from outside (the task group is torn down): never swallow that
            # Nobody cancelled this task: the workflow raised CancelledError itself (it awaited
            # a future someone else cancelled). A bug in that task, not a stop: fail it.
            self._outcome = error_dict(exc, ctx)
            return ActorState.FAILING
        self._uncancel()
        return ActorState.STOPPING

    async def _on_raised(self, exc: BaseException) -> ActorState:
        """The workflow raised: a stop or the purse's refusal surfacing as another error, a wait
        for its owner's input (-> PARKING), or its failure (-> FAILING)."""
        ctx = self._ctx
        self._raise_if_fenced()  # a refused request surfaced as (or wrapped in) another error
        if self._stop is not None:
            # The interrupt surfaced as another error (a client wrapping CancelledError): still a stop.
            self._uncancel()
            return ActorState.STOPPING
        if self.purse is not None and self.purse.stopped is not None:
            self._uncancel()  # if the purse's interrupt surfaced as another error
            return await self._stopped_by_purse(self.purse.stopped, None, ctx)
        request = input_request(exc, self.record, ctx)
        if request is not None:
            self._outcome = request
            return ActorState.PARKING
        passing = transient(exc)
        self._outcome = error_dict(exc, ctx) if passing is None else (error_dict(exc, ctx), passing[1])
        return ActorState.FAILING if passing is None else ActorState.BACKING_OFF

    async def _on_returned(self, result: Any) -> ActorState:
        """The workflow returned `result`: COMPLETING, unless the run was stopped meanwhile."""
        self._raise_if_fenced()  # the workflow caught a refused request and went on: not its result
        if self._stop is not None:
            # The cancel arrived after the workflow's last await: the result is discarded.
            await self._take_pending_interrupt()
            self._uncancel()
            return ActorState.STOPPING
        if self.purse is not None and self.purse.stopped is not None:
            # The workflow caught the refusal and went on: the task still stopped there.
            await self._take_pending_interrupt()
            self._uncancel()
            return await self._stopped_by_purse(self.purse.stopped, result, self._ctx)
        self._outcome = result
        return ActorState.COMPLETING

    async def _stopped_by_purse(self, why: OrchError, result: Any, ctx: TaskContext | None) -> ActorState:
        """A 402 fails the task with CREDITS_EXHAUSTED (its partial result stays); a reached budget
        cancels the Exa work it started and completes it with what it found, marked partial."""
        if not isinstance(why, BudgetReached):
            self._outcome = error_dict(why, ctx)
            return ActorState.FAILING
        found = await self._found(ctx, "budget", result)
        self._outcome = {**found, "budget": {"usd": why.budget, "spentUsd": round(why.spent, 6)}}
        return ActorState.COMPLETING

    async def _found(self, ctx: TaskContext | None, stopped_by: str, result: Any = None) -> dict[str, Any]:
        """A stopped task's answer (`stopped_answer`)."""
        return await stopped_answer(
            self._store, self.task_id, ctx, stopped_by, result, hook_timeout=self._hook_timeout
        )

    async def _completing(self) -> ActorState:
        """Store the result; a result that isn't JSON fails the task instead (nothing was written)."""
        result, self._outcome = self._outcome, None
        stopped = result.get("stoppedBy") if isinstance(result, dict) else None
        if stopped:
            await self._note_stop(str(stopped))
        try:
            # A cancel another process requested before this write wins, as a local one does.
            self.record = await self._store.complete(
                self.task_id, result, owner=self._owner, cancel_wins=True
            )
        except InvalidParams as exc:
            self._outcome = error_dict(exc, None, step="result")
            return ActorState.FAILING
        self._emit(TaskEvent("status", self.record))
        return ActorState.DONE

    async def _note_stop(self, stopped_by: str) -> None:
        """Say in the task's progress how it stopped short (`stop_progress`)."""
        last = self.record.progress if isinstance(self.record.progress, dict) else {}
        progress = stop_progress(last, stopped_by)
        await self._store.set_progress(self.task_id, progress, owner=self._owner)
        self._progress_event(progress)

    async def _failing(self) -> ActorState:
        error, self._outcome = self._outcome, None
        await self._fail(error)
        return ActorState.DONE

    async def _parking(self) -> ActorState:
        """Wait for the owner's input: input_required with the request, the lease given back. A
        cancel asked for meanwhile (by another process) leaves the task working and unleased instead,
        so the next claim cancels it."""
        request, self._outcome = self._outcome, None
        self.record = await self._store.park(self.task_id, request, owner=self._owner)
        if self.record.status is TaskStatus.INPUT_REQUIRED:
            logger.info(
                "task %s: waiting for its owner's input (%s)",
                self.task_id,
                request.get("kind"),
                extra=concerning(self.record.principal),
            )
            self._emit(TaskEvent("status", self.record))
        return ActorState.DONE

    async def _backing_off(self) -> ActorState:
        """End the run on a transient Exa error: the task waits its backoff, or is given up."""
        (error, why), self._outcome = self._outcome, None
        self.record = record = await self._store.back_off(self.task_id, error, why, owner=self._owner)
        logger.warning("task %s: %s: %s", self.task_id, why, "given up" if record.terminal else "backing off")
        self._emit(
            TaskEvent("status", record) if record.terminal else TaskEvent("progress", record, record.progress)
        )
        return ActorState.DONE

    async def _stopping(self) -> ActorState:
        await self._stop_at_safe_point(self._ctx)
        return ActorState.DONE

    async def _stop_at_safe_point(self, ctx: TaskContext | None) -> None:
        if self._stop is Message.CANCEL:
            # The claim's row says working, yet no replay ran to its end: an earlier run began the
            # task (and perhaps Exa work) and its cancel hooks are not all known here yet. Or the
            # interrupt came while a checkpoint was committed: the hook after that step is missing.
            if (
                (ctx is None and self.record.status in (TaskStatus.WORKING, TaskStatus.INPUT_REQUIRED))
                or (ctx is not None and ctx.resumed and ctx._replay_left)
                or (ctx is not None and ctx.interrupted_saving)
            ):
                # Replay to the workflow's first live step or sleep, so it registers its hooks again.
                ctx = await replay_for_hooks(
                    self._spec,
                    self.record,
                    store=self._store,
                    deps=self._deps,
                    owner=self._owner,
                    hook_timeout=self._hook_timeout,
                    task=self._task,
                )
            if ctx is not None or self.record.status is not TaskStatus.PENDING:
                # What it found stays its answer (tasks.result of a cancelled task).
                found = await self._found(ctx, "cancel")
                await self._store.set_partial(self.task_id, found, owner=self._owner)
            await self._set_status(TaskStatus.CANCELLED, message="cancelled")
        else:
            await self._store.release_lease(self.task_id, self._owner)
            logger.info("task %s: stopped for shutdown; it resumes on the next start", self.task_id)

    async def _set_status(self, status: TaskStatus, *, message: str | None = None) -> None:
        self.record = await self._store.transition(self.task_id, status, message=message, owner=self._owner)
        self._emit(TaskEvent("status", self.record))

    async def _fail(self, error: dict[str, Any]) -> None:
        self.record = await self._store.fail(self.task_id, error, owner=self._owner)
        self._emit(TaskEvent("status", self.record))

    def _progress_event(self, progress: dict[str, Any]) -> None:
        self.record = dataclasses.replace(self.record, progress=progress)
        self._emit(TaskEvent("progress", self.record, progress))

    def _raise_if_fenced(self) -> None:
        """Raise the LeaseLapsed of a request the fence refused during this run, if any: the
        workflow may have wrapped or caught it, but the task is not ours to end any more."""
        if self.fence is not None and self.fence.tripped is not None:
            raise self.fence.tripped

    async def _take_pending_interrupt(self) -> None:
        """Take our interrupt here if the workflow returned before it was delivered (posted after
        its last await): Task.uncancel() leaves an undelivered cancel pending before Python 3.13,
        and it would otherwise strike the actor's next write (the `cancelled` status)."""
        if not self._interrupted or self._task is None:
            return
        try:
            await asyncio.sleep(0)  # a pending cancel is delivered at this await
        except asyncio.CancelledError:
            if self._task.cancelling() > 1:
                raise  # cancelled from outside as well: never swallow that

    def _uncancel(self) -> None:
        # Undo exactly our own interrupt; a cancel from outside stays pending and ends the actor.
        if self._interrupted and self._task is not None:
            self._interrupted = False
            self._task.uncancel()
