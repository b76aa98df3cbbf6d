"""The watch scheduler: starts each due run of every watch as a child task, and records its diff.

Contract:
- Every server on a database runs one; the store's compare-and-set writes (store/watches.py) make
  each due run start once and be recorded once, whichever servers are up. A run due while no
  server was up starts once when one starts: the next run is due one period after that start
  (`next_due`), never once per missed slot.
- A run is a normal task (the watch's type and args, its budget, its owner: its cost counts against
  the owner's daily cap like any task), created pending and run by whichever server leases it. The
  task's meta carries `watchId` and `watchRun`.
- When its child task ends, a run is recorded with its cost and, when it completed, its diff
  against the previous completed run's snapshot (watch_diff.py). The first run is the baseline
  (`baseline: true`): nothing to compare with, nobody notified. A run that found no change says so
  (`changed: false`) and notifies nobody; one that did writes its notices (the watch's webhook, its
  owner's MCP sessions) into the outbox in the same transaction, and the sender (watch_sender.py)
  delivers them, from whichever server, after a crash too. A failed or cancelled run keeps the
  previous snapshot.
- `clock` (epoch seconds) decides when runs are due: the wall clock, or a test's held one.
- Each round is two reads (the active watches, the outbox). Between rounds the loop sleeps until
  the next run is due or the sender's next retry, at most `poll_s`, and wakes at once on what this
  process sees: `wake()` (watches.create, resume and delete call it; a test that moved its clock)
  and its own child tasks' ends. What another server does (a run it started or a watch it
  created, an MCP notice it recorded) is seen within `poll_s`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from types import TracebackType
from typing import Any, Self

from croniter import croniter

from exa_orch.errors import OrchError, TaskNotFound
from exa_orch.runtime import Supervisor
from exa_orch.runtime.events import TaskEvent
from exa_orch.store import TaskRecord, TaskStatus
from exa_orch.store.watch_outbox import Notices
from exa_orch.store.watches import Claim, Finish, Watches, WatchRecord

from . import watch_diff
from .watch_notify import Notifier
from .watch_sender import Sender

log = logging.getLogger(__name__)

POLL_S = 10.0  # the longest the loop sleeps: what another server did is seen by then


def next_due(watch: WatchRecord, now: float) -> float:
    """When the run after one started at `now` is due: one period on, or the cron's next time."""
    if watch.cron:
        return float(croniter(watch.cron, now).get_next(float))
    assert watch.every_s is not None
    return now + watch.every_s


class WatchScheduler:
    """Runs in every server with a runtime (`async with`); see the module docstring."""

    def __init__(
        self,
        supervisor: Supervisor,
        *,
        clock: Callable[[], float],
        poll_s: float = POLL_S,
        wall: Callable[[], float] = time.time,
    ) -> None:
        self.supervisor = supervisor
        self.watches = Watches(supervisor.store)
        self.notifier = Notifier()
        self.sender = Sender(supervisor.store, self.watches, self.notifier, wall, settled=self.wake)
        self.clock = clock
        self.wall = wall
        self.poll_s = poll_s
        self._wake = asyncio.Event()
        self._main: asyncio.Task[None] | None = None
        self._unsubscribe: Callable[[], None] | None = None

    async def __aenter__(self) -> Self:
        self._unsubscribe = self.supervisor.subscribe(self._on_event)
        self._main = asyncio.create_task(self._loop(), name="exa-orch-watches")
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
        if self._main is not None:
            self._main.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._main
        await self.sender.close()

    def wake(self) -> None:
        """Look for due runs and ended child tasks now."""
        self._wake.set()

    async def _on_event(self, event: TaskEvent) -> None:
        if event.kind == "status" and event.task.terminal and "watchId" in event.task.meta:
            self.wake()

    async def _loop(self) -> None:
        while True:
            self._wake.clear()
            try:
                sleep = await self.tick()
            except Exception:  # a bad row or a store hiccup: log it, try again at the next poll
                log.exception("watches: a scheduler round failed")
                sleep = self.poll_s
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(sleep):
                    await self._wake.wait()

    async def tick(self) -> float:
        """One round: record the runs whose child task ended, start the due ones, drain the
        outbox; answers how long the loop may sleep (module docstring)."""
        now, soonest = self.clock(), self.poll_s
        runnable = self.supervisor.workflows.types()
        for watch in await self.watches.active():
            if watch.running_task:
                await self._check(watch)
            elif watch.type not in runnable:
                continue  # a type this server can't run (another version's, or extra workflows')
            elif watch.next_due <= now:
                await self._start(watch, now)
            else:
                soonest = min(soonest, watch.next_due - now)
        retry = await self.sender.round()
        if retry is not None:
            soonest = min(soonest, retry - self.wall())
        return max(0.0, soonest)

    async def _start(self, watch: WatchRecord, now: float) -> None:
        spec = self.supervisor.workflows.get(watch.type)
        try:
            args = spec.dump(spec.validate(watch.args))
        except OrchError as exc:  # a task type whose args changed under a stored watch
            log.warning("watch %s: paused, its args no longer validate: %s", watch.id, exc)
            await self.watches.set_paused(watch.id, True)
            return
        meta: dict[str, Any] = {"watchId": watch.id, "watchRun": watch.runs + 1}
        if watch.budget_usd is not None:
            meta["budgetUsd"] = watch.budget_usd
        claim = Claim(watch, next_due(watch, now), now, args, meta, self.supervisor.tasks.ttl.grant(None))
        started = await self.watches.claim(claim)
        if started is not None:
            log.info("watch %s: run %d started as %s", watch.id, started[1], started[0].id)
            self.supervisor.wake()

    async def _check(self, watch: WatchRecord) -> None:
        task_id = watch.running_task
        assert task_id is not None
        try:
            record: TaskRecord | None = await self.supervisor.store.get_task(task_id)
        except TaskNotFound:
            record = None  # expired or deleted before anyone recorded it
        if record is not None and not record.terminal:
            return
        cost = (await self.supervisor.store.task_costs([task_id]))[task_id]["usd"]
        finish = self._finish(watch, task_id, record, cost)
        if await self.watches.finish(finish) and finish.notices is not None:
            self.wake()  # its notices are in the outbox: send them in the next round, now
        # else another server recorded it first, or there is no one to tell

    def _finish(self, watch: WatchRecord, task_id: str, record: TaskRecord | None, cost: float) -> Finish:
        now = self.clock()
        if record is None or record.status is not TaskStatus.COMPLETED:
            status = "expired" if record is None else str(record.status)
            return Finish(watch.id, task_id, status, now, None, None, cost)
        snap = watch_diff.snapshot(record.result)
        if watch.snapshot is None:
            found = {"baseline": True, **watch_diff.diff({}, snap)}
            return Finish(watch.id, task_id, "completed", now, False, found, cost, snap)
        found = watch_diff.diff(watch.snapshot, snap)
        changed = not watch_diff.is_empty(found)
        notices = self._notices(watch, task_id, found, cost) if changed else None
        return Finish(watch.id, task_id, "completed", now, changed, found, cost, snap, notices)

    def _notices(self, watch: WatchRecord, task_id: str, found: dict[str, Any], cost: float) -> Notices:
        channels = (("webhook",) if watch.notify.get("webhook") and watch.signed else ()) + (
            ("mcp",) if watch.notify.get("mcp", True) else ()
        )
        payload = {
            "type": "watch.changed",
            "watchId": watch.id,
            "taskId": task_id,
            "diff": found,
            "costUsd": cost,
        }
        return Notices(channels, watch.owner, payload, self.supervisor.store.owner_id, self.wall())
