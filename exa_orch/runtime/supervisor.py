"""Supervisor: owns every TaskActor of this process inside one asyncio.TaskGroup.

- Capacity: at most `max_working` actors at once. Waiting tasks stay `pending` rows in the store
  (oldest first) and cost no asyncio task or memory here: a slot that frees claims the next one.
- Claims: `store.claim_runnable` at start-up, whenever a task is created or an actor ends, and every
  `claim_interval` s. It leases pending tasks and orphans (lease expired, or owner process dead on
  this host), so a crashed or stopped run resumes at once and other processes' leftovers are adopted.
- Heartbeat: every `heartbeat` s, leases are renewed and the running tasks' rows are read (one
  query): a cancel requested by another process (`store.request_cancel`) or a lease lost to another
  process stops the task (`_check_rows`). A lease lost while this process lived on (it stalled) is
  noted in the store as no fault of the task, unless the StallWatch saw the task's own code hold
  the event loop (runtime/stallwatch.py): a stall strikes only the task that caused it.
- Notifications: on a store that hears other processes' commits (PostgreSQL's NOTIFY,
  `store.on_change`), a change to a task running here is checked the same way at once, so a cancel
  or a takeover by another server arrives in milliseconds; the heartbeat stays the fallback for a
  notification missed while the listener reconnected (which then has every running task checked).
- Cleanup: expired terminal tasks are deleted every `cleanup_interval` s.
- Graceful stop (`aclose`, the end of `async with`): every actor gets SHUTDOWN, stops at a safe
  point and releases its lease; tasks stay non-terminal so the next start resumes them at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine
from types import TracebackType
from typing import Any, Self

from exa_orch.gateway.fence import LeaseFence, margin_for
from exa_orch.runtime.actor import Message, TaskActor
from exa_orch.runtime.deps import Deps
from exa_orch.runtime.events import TaskEvent, TaskListener
from exa_orch.runtime.principal import TtlPolicy, concerning
from exa_orch.runtime.service import TaskService
from exa_orch.runtime.spec import WorkflowRegistry
from exa_orch.runtime.stallwatch import StallWatch
from exa_orch.store import Store, TaskRecord

logger = logging.getLogger(__name__)


class Supervisor:
    """`async with Supervisor(store, workflows, deps) as sup:` runs tasks; `sup.tasks` is the TaskService.

    `deps` is handed to every workflow as `ctx.deps` (runtime/deps.py; the default runs no operations).
    """

    def __init__(
        self,
        store: Store,
        workflows: WorkflowRegistry,
        deps: Deps | None = None,
        *,
        max_working: int = 20,
        lease_ttl: float = 15.0,
        heartbeat: float = 2.0,
        claim_interval: float = 1.0,
        cleanup_interval: float = 60.0,
        hook_timeout: float = 10.0,
        stop_timeout: float = 20.0,
        ttl: TtlPolicy | None = None,
        monotonic: Callable[[], float] = time.monotonic,
        stall_after: float | None = None,
    ) -> None:
        if max_working < 1:
            raise ValueError("max_working must be at least 1")
        self.store = store
        self.workflows = workflows
        # Runs of these types are filed in the archive with their terminal transition, by any path.
        store.archive_runs(workflows.archivers())
        self.deps = deps if deps is not None else Deps()
        self.owner = store.owner_id
        self.max_working = max_working
        self.lease_ttl = lease_ttl
        self.heartbeat = heartbeat
        self.claim_interval = claim_interval
        self.cleanup_interval = cleanup_interval
        self.hook_timeout = hook_timeout
        self.stop_timeout = stop_timeout
        # The clock of each actor's lease fence (gateway/fence.py); a test may pass its own.
        self.monotonic = monotonic
        # A task whose code holds the event loop this long is the suspect if leases then lapse:
        # a third of the TTL, so it is seen well before the leases it endangers run out.
        self.stall_watch = StallWatch(stall_after if stall_after is not None else lease_ttl / 3)
        self.tasks = TaskService(self, ttl=ttl)  # `ttl`: finished tasks' default and maximum TTL
        self.max_working_seen = 0  # gauge for tests and stats: the most actors ever alive at once
        self.started_total = 0
        self._actors: dict[str, TaskActor] = {}
        self._listeners: list[TaskListener] = []
        self._changed: dict[str, asyncio.Event] = {}
        self._events: asyncio.Queue[TaskEvent] = asyncio.Queue()
        self._wakeup = asyncio.Event()
        self._stop = asyncio.Event()
        self._ready = asyncio.Event()
        self._tg: asyncio.TaskGroup | None = None
        self._main: asyncio.Task[None] | None = None
        self._unregister: list[Callable[[], None]] = []
        # Tasks running here whose row a notification says changed, checked by `_notified_loop`:
        # a set, so a burst of notifications for one task costs one read.
        self._to_check: set[str] = set()
        self._check_now = asyncio.Event()
        self._state = "unopened"  # unopened -> running -> closed (reopening is an error)

    async def __aenter__(self) -> Self:
        if self._state != "unopened":
            raise RuntimeError("a Supervisor can be opened once")
        self._state = "running"
        # Work created or let go by another server (on a database that says so) is claimed at once.
        self._unregister = [self.store.on_runnable(self.wake), self.store.on_change(self._row_changed)]
        self._main = asyncio.create_task(self._run(), name="exa-orch-supervisor")
        ready = asyncio.create_task(self._ready.wait())
        await asyncio.wait({self._main, ready}, return_when=asyncio.FIRST_COMPLETED)
        ready.cancel()
        if self._main.done():
            self._main.result()  # start-up failed: raise it here
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """Stop every actor at a safe point, release leases, stop the loops. Idempotent."""
        if self._state == "closed" or self._main is None:
            self._state = "closed"
            return
        self._state = "closed"
        for unregister in self._unregister:
            unregister()
        self._stop.set()
        with contextlib.suppress(asyncio.CancelledError):
            await self._main

    # -- API for TaskService and the actors -------------------------------------------------

    def wake(self) -> None:
        """Something may be runnable (a task was created, a slot freed): claim now."""
        self._wakeup.set()

    def actor(self, task_id: str) -> TaskActor | None:
        """The actor running `task_id` in this process, if any."""
        return self._actors.get(task_id)

    def subscribe(self, listener: TaskListener) -> Callable[[], None]:
        """Call `listener(event)` for each TaskEvent of this process; returns the unsubscribe function."""
        self._listeners.append(listener)

        def unsubscribe() -> None:
            if listener in self._listeners:
                self._listeners.remove(listener)

        return unsubscribe

    def changed(self, task_id: str) -> asyncio.Event:
        """An event set at the next status change of `task_id` made in this process."""
        event = self._changed.get(task_id)
        if event is None:
            event = self._changed[task_id] = asyncio.Event()
        return event

    def forget(self, task_id: str, event: asyncio.Event) -> None:
        """Drop `changed(task_id)`'s event if it is still `event` and nobody else waits on it."""
        if (
            self._changed.get(task_id) is event
            and not event.is_set()
            and not getattr(event, "_waiters", None)
        ):
            del self._changed[task_id]

    def emit(self, event: TaskEvent) -> None:
        """Publish a TaskEvent: wakes local waiters now, listeners in order from the dispatch loop."""
        if event.kind == "status":
            waiter = self._changed.pop(event.task.id, None)
            if waiter is not None:
                waiter.set()
        if self._listeners:
            self._events.put_nowait(event)

    def stats(self) -> dict[str, Any]:
        """Gauges: working now, the most ever working at once, actors started."""
        return {
            "working": len(self._actors),
            "max_working": self.max_working,
            "max_working_seen": self.max_working_seen,
            "started": self.started_total,
        }

    # -- loops --------------------------------------------------------------------------------

    async def _run(self) -> None:
        self.stall_watch.start()
        try:
            await self._run_loops()
        finally:
            self.stall_watch.stop()

    async def _run_loops(self) -> None:
        async with asyncio.TaskGroup() as tg:
            self._tg = tg
            loops = [
                tg.create_task(self._loop(self._claim_once, None, "claim")),
                tg.create_task(self._loop(self._heartbeat_once, self.heartbeat, "heartbeat")),
                tg.create_task(self._loop(self._cleanup_once, self.cleanup_interval, "cleanup")),
                tg.create_task(self._notified_loop()),
                tg.create_task(self._dispatch_loop()),
            ]
            self._ready.set()
            await self._stop.wait()
            await self._shutdown_actors()
            for loop in loops:
                loop.cancel()

    async def _loop(self, once: Callable[[], Awaitable[None]], every: float | None, name: str) -> None:
        # Top-level loop: one failed round (a busy database, say) is logged and retried next round.
        while True:
            if every is None:
                self._wakeup.clear()  # cleared before claiming, so a wake during the claim isn't lost
            try:
                await once()
            except Exception:
                logger.exception("supervisor %s round failed; retrying", name)
            if every is None:
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(self.claim_interval):
                        await self._wakeup.wait()
            else:
                await asyncio.sleep(every)

    async def _claim_once(self) -> None:
        free = self.max_working - len(self._actors)
        if free <= 0 or self._stop.is_set():
            return
        # Only the types this server can run: another server on the same file (with other extra
        # workflows, or another version) keeps its tasks instead of seeing them failed as unknown here.
        # Taken before the claim: the leases' expiry is stamped after it, so they last at least
        # until this + TTL, on a clock that keeps running while the process is stopped.
        leased_at = self.monotonic()
        records = await self.store.claim_runnable(self.owner, self.lease_ttl, free, self.workflows.types())
        for record in records:
            if str(record.status) == "working":  # an operator wants to see a restart pick work up
                logger.info(
                    "task %s (%s): resuming from its last checkpoint",
                    record.id,
                    record.type,
                    extra=concerning(record.principal),
                )
            self._start(record, leased_at)

    def start_leased(self, record: TaskRecord, leased_at: float | None = None) -> TaskActor:
        """Run a task this process has just leased outside a claim (TaskService.cancel's replay).

        `leased_at` is `self.monotonic()` read before the lease was taken (now if not given).
        It may run beyond `max_working` for a moment: it only replays to its cancel hooks and ends."""
        self._start(record, self.monotonic() if leased_at is None else leased_at)
        return self._actors[record.id]

    def _start(self, record: TaskRecord, leased_at: float) -> None:
        assert self._tg is not None
        if record.id in self._actors:
            return  # already ours (a renewed claim of a task this process runs)
        spec = self.workflows.get(record.type) if record.type in self.workflows else None
        fence = LeaseFence(
            record.id,
            leased_at + self.lease_ttl,
            margin=margin_for(self.lease_ttl),
            clock=self.monotonic,
        )
        actor = TaskActor(
            record,
            store=self.store,
            spec=spec,
            deps=self.deps,
            owner=self.owner,
            emit=self.emit,
            on_exit=self._on_exit,
            hook_timeout=self.hook_timeout,
            fence=fence,
        )
        self.stall_watch.forget(record.id)
        if self._stop.is_set():
            # A claim that landed after the stop began: give the lease back instead of starting work.
            actor.post(Message.SHUTDOWN)
        self._actors[record.id] = actor
        self.started_total += 1
        self.max_working_seen = max(self.max_working_seen, len(self._actors))
        self._tg.create_task(actor.run())  # unnamed: a name string per task is memory an idle actor keeps

    def _on_exit(self, actor: TaskActor) -> None:
        if self._actors.get(actor.task_id) is actor:
            del self._actors[actor.task_id]
            if actor.lost_to is not None and self._tg is not None:
                # It found its lease taken at a write, before a row check did: note it all the same.
                self._tg.create_task(self._note_lapse(actor, actor.lost_to))
            self.stall_watch.forget(actor.task_id)
        waiter = self._changed.pop(actor.task_id, None)
        if waiter is not None:
            waiter.set()
        self._wakeup.set()

    async def _heartbeat_once(self) -> None:
        if not self._actors:
            return
        # Only the tasks an actor runs here: an actor that died leaves its lease to expire.
        task_ids = list(self._actors)
        renewed_at: float | None = self.monotonic()
        try:
            await self.store.renew_leases(self.owner, self.lease_ttl, task_ids)
        except Exception:
            renewed_at = None
            # Still check the rows below: if renewals keep failing, another process may take a
            # lease, and the actor must then stop rather than run the task a second time.
            logger.exception("supervisor heartbeat: renewing leases failed; checking ownership anyway")
        await self._check_rows(task_ids, renewed_at)

    def _row_changed(self, task_id: str | None) -> None:
        # Called on the event loop for every notification, so it only takes note; a task not run
        # here is none of this supervisor's business. None: notifications may have been missed.
        if task_id is None:
            self._to_check.update(self._actors)
        elif task_id in self._actors:
            self._to_check.add(task_id)
        if self._to_check:
            self._check_now.set()

    async def _notified_loop(self) -> None:
        while True:
            await self._check_now.wait()
            self._check_now.clear()  # before taking the set: a note made during the read is kept
            task_ids, self._to_check = list(self._to_check), set()
            try:
                await self._check_rows(task_ids)
            except Exception:  # a failed read: the heartbeat checks these rows again soon
                logger.exception("supervisor: checking %d notified task(s) failed", len(task_ids))

    async def _check_rows(self, task_ids: list[str], renewed_at: float | None = None) -> None:
        """Read these tasks' rows (one query) and act on what another process changed: a cancel
        requested -> CANCEL; the lease now held by another process -> SHUTDOWN. `renewed_at`: the
        heartbeat renewed their leases from that moment on `monotonic`, so a task still ours has
        its actor's fence extended to it + TTL (None: nothing was renewed, no fence moves)."""
        for record in await self.store.get_tasks(task_ids):
            actor = self._actors.get(record.id)
            if actor is None:
                continue  # finished meanwhile
            if record.cancel_requested:
                actor.post(Message.CANCEL)
            elif record.lease_owner != self.owner and not record.terminal:
                logger.warning(
                    "task %s: lease lost to %s; stopping here",
                    record.id,
                    record.lease_owner,
                    extra=concerning(record.principal),
                )
                actor.post(Message.SHUTDOWN)
                await self._note_lapse(actor, record.lease_owner)
            elif renewed_at is not None and record.lease_owner == self.owner and actor.fence is not None:
                # Still ours after the renewal: it lasts until at least the renewal's start + TTL.
                actor.fence.extend(renewed_at + self.lease_ttl)

    def _note_lapse(self, actor: TaskActor, taken_by: str | None) -> Coroutine[Any, Any, None]:
        """This process lived on while the task's lease lapsed and `taken_by` took it (it stalled, or
        was stopped): say so in the store, once per run, so the lost run is no strike against the
        task, unless its own code held the event loop (then it is the suspect). Decided at the call
        (the watch's record of the run is read before the actor's exit forgets it); written by the
        returned awaitable."""
        if actor.lapse_noted or taken_by is None:
            return asyncio.sleep(0)
        actor.lapse_noted = True
        task_id, suspect = actor.task_id, self.stall_watch.held(actor.task_id) > 0

        async def note() -> None:
            try:
                await self.store.note_lapse(task_id, self.owner, taken_by, suspect=suspect)
            except Exception:  # the run is then counted as lost: the safe side
                logger.exception("task %s: noting its lapsed lease failed", task_id)

        return note()

    async def _cleanup_once(self) -> None:
        removed = await self.store.delete_expired()
        if removed:
            logger.info("removed %d expired tasks", removed)

    async def _dispatch_loop(self) -> None:
        while True:
            event = await self._events.get()
            for listener in list(self._listeners):
                try:
                    await listener(event)
                except Exception:
                    logger.exception("task event listener failed")

    async def _shutdown_actors(self) -> None:
        actors = list(self._actors.values())
        for actor in actors:
            actor.post(Message.SHUTDOWN)
        if not actors:
            return
        done = asyncio.gather(*(a.wait_done() for a in actors))
        try:
            async with asyncio.timeout(self.stop_timeout):
                await done
        except TimeoutError:
            logger.warning(
                "%d task(s) did not stop in %.0f s; cancelling them", len(self._actors), self.stop_timeout
            )
            for actor in list(self._actors.values()):
                actor.kill()
        # Flush the events the last transitions produced before the dispatch loop is cancelled.
        while not self._events.empty() and self._listeners:
            event = self._events.get_nowait()
            for listener in list(self._listeners):
                with contextlib.suppress(Exception):
                    await listener(event)
