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
  (`changed: false`) and notifies nobody; one that did notifies the watch's webhook and its owner's
  MCP sessions (watch_notify.py). A failed or cancelled run keeps the previous snapshot.
- `clock` (epoch seconds) decides when runs are due: the wall clock, or a test's held one.
  `wake()` makes the loop look now (a test that moved its clock; a child task that ended here).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from types import TracebackType
from typing import Any, Self

from croniter import croniter

from exa_orch.errors import OrchError, TaskNotFound
from exa_orch.runtime import Supervisor
from exa_orch.runtime.events import TaskEvent
from exa_orch.store import TaskRecord, TaskStatus
from exa_orch.store.watches import Claim, Finish, Watches, WatchRecord

from . import watch_diff
from .watch_notify import Notifier

log = logging.getLogger(__name__)

POLL_S = 1.0  # the longest the loop sleeps: a run started or ended by another server is seen by then


def next_due(watch: WatchRecord, now: float) -> float:
    """When the run after one started at `now` is due: one period on, or the cron's next time."""
    if watch.cron:
        return float(croniter(watch.cron, now).get_next(float))
    assert watch.every_s is not None
    return now + watch.every_s


class WatchScheduler:
    """Runs in every server with a runtime (`async with`); see the module docstring."""

    def __init__(self, supervisor: Supervisor, *, clock: Callable[[], float], poll_s: float = POLL_S) -> None:
        self.supervisor = supervisor
        self.watches = Watches(supervisor.store)
        self.notifier = Notifier()
        self.clock = clock
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
                await self.tick()
            except Exception:  # a bad row or a store hiccup: log it, try again at the next poll
                log.exception("watches: a scheduler round failed")
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(await self._sleep_for()):
                    await self._wake.wait()

    async def _sleep_for(self) -> float:
        due = await self.watches.next_due()
        if due is None:
            return self.poll_s
        return max(0.0, min(self.poll_s, due - self.clock()))

    async def tick(self) -> None:
        """One round: record the runs whose child task ended, then start the due ones."""
        for watch in await self.watches.in_flight():
            await self._check(watch)
        now = self.clock()
        for watch in await self.watches.due(now):
            await self._start(watch, now)

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
        if not await self.watches.finish(finish):
            return  # another server recorded it
        if finish.changed and finish.diff is not None and not finish.diff.get("baseline"):
            run = await self.watches.run_of_task(task_id)
            payload = {
                "type": "watch.changed", "watchId": watch.id, "run": run.n if run else None,
                "taskId": task_id, "diff": finish.diff, "costUsd": cost,
            }  # fmt: skip
            secret = await self.watches.secret(watch.id)
            reached = await self.notifier.send(watch.owner, secret, watch.notify, payload)
            await self.watches.set_notified(watch.id, task_id, reached)

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
        return Finish(watch.id, task_id, "completed", now, changed, found, cost, snap)
