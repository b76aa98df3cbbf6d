"""The watch outbox's sender: every server runs one, inside its watch scheduler's loop.

Contract:
- `round()` reads the outbox once (store/watch_outbox.py) and:
  - sends each due webhook row it can claim (a lease of `lease_s`; a claim taken by another
    server is theirs), each POST in a task of its own, so a slow receiver holds up neither the
    scheduler's round nor the other webhooks; `settled()` is called after each: a delivery is recorded `delivered`; a failure is retried after
    `backoff_s * 2**(attempts-1)` seconds (at most `BACKOFF_CAP_S`), and after `attempts` tries the
    row ends `failed` with the last error (watches.get shows it under the run's `webhook`). A row
    is delivered at least once; its `eventId` (`<watchId>/<run>`) lets a receiver drop a repeat
    (a server killed after the receiver took it but before recording so sends it again).
  - tells this server's sessions of each MCP row's owner (the notifier's listeners) every row
    recorded since this server started, by any server, once each: its cursor is in memory
    (`floor`, and the ids seen past it). A row another server's transaction allocated before a
    row read here but committed after it is still read: the floor only passes rows older than
    `GRACE_S`.
  - answers the wall time by which it wants to run again (a retry's or a lapsed lease's time),
    or None.
- `wall` is the wall clock (epoch seconds); retries run on it, not on the watches' clock.
- `close()` cancels the POSTs in flight (their claims lapse; the next server sends them again).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

from exa_orch.store.core import Store
from exa_orch.store.watch_outbox import Notice, Outbox, Outcome
from exa_orch.store.watches import Watches

from .watch_notify import WEBHOOK_TIMEOUT_S, Notifier

log = logging.getLogger(__name__)

ATTEMPTS = 8  # tries of one webhook delivery before it is recorded failed (~4 min with the backoff)
BACKOFF_S = 2.0  # the first retry's delay; each next one doubles
BACKOFF_CAP_S = 120.0
LEASE_S = WEBHOOK_TIMEOUT_S + 5.0  # a claim outlives the POST's own timeout
GRACE_S = 10.0  # a transaction commits within this long of writing its outbox rows


class Sender:
    """Drains the outbox for one server (module docstring)."""

    def __init__(
        self,
        store: Store,
        watches: Watches,
        notifier: Notifier,
        wall: Callable[[], float],
        settled: Callable[[], None],
    ) -> None:
        self.store = store
        self.settled = settled
        self._sending: dict[int, asyncio.Task[None]] = {}  # outbox id -> its POST in flight here
        self.outbox = Outbox(store)
        self.watches = watches
        self.notifier = notifier
        self.wall = wall
        self.attempts = ATTEMPTS
        self.backoff_s = BACKOFF_S
        self.lease_s = LEASE_S
        self.floor: int | None = None  # None until the first round reads where the outbox ends
        self._seen: dict[int, float] = {}  # MCP rows past the floor told here: id -> created_at

    async def round(self) -> float | None:
        """One pass over the outbox (module docstring); when to come back (wall time), or None."""
        if self.floor is None:
            self.floor = await self.outbox.last_id()
        wake: float | None = None
        for notice in await self.outbox.pending(self.floor):
            if notice.channel == "mcp":
                await self._tell(notice)
                continue
            at = await self._webhook(notice)
            if at is not None:
                wake = at if wake is None else min(wake, at)
        self._advance()
        return wake

    async def _tell(self, notice: Notice) -> None:
        if notice.id in self._seen:
            return
        self._seen[notice.id] = notice.created_at
        if await self.notifier.tell(notice.owner, notice.payload):
            await self.outbox.told(notice, self.wall())

    def _advance(self) -> None:
        settled = [i for i, created in self._seen.items() if created < self.wall() - GRACE_S]
        if settled:
            assert self.floor is not None
            self.floor = max(self.floor, *settled)
            self._seen = {i: c for i, c in self._seen.items() if i > self.floor}

    async def close(self) -> None:
        """Cancel the POSTs in flight (module docstring)."""
        for task in list(self._sending.values()):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _webhook(self, notice: Notice) -> float | None:
        """Start sending a due row if this server claims it; the wall time to look at it again, or
        None (a POST in flight here calls `settled` when it ends)."""
        now = self.wall()
        if notice.id in self._sending:
            return None
        if notice.next_at > now:
            return notice.next_at
        if notice.lease_until is not None and notice.lease_until >= now:
            return notice.lease_until  # another sender has it; if it dies, its lease lapses then
        if await self.outbox.claim(notice, self.store.owner_id, now, self.lease_s):
            task = asyncio.create_task(self._deliver(notice), name=f"exa-orch-webhook-{notice.id}")
            self._sending[notice.id] = task
            task.add_done_callback(lambda _t: self._sending.pop(notice.id, None))
        return None

    async def _deliver(self, notice: Notice) -> None:
        try:
            await self._try(notice)
        except Exception:  # a store hiccup: the claim lapses and the row is tried again
            log.exception("watch %s run %d: a webhook try failed to settle", notice.watch_id, notice.run)
        self.settled()

    async def _try(self, notice: Notice) -> None:
        error = await self._post(notice)
        tries = notice.attempts + 1
        failed = error is not None and tries >= self.attempts
        retry = (
            None
            if error is None or failed
            else self.wall() + min(BACKOFF_CAP_S, self.backoff_s * 2 ** (tries - 1))
        )
        await self.outbox.settle(Outcome(notice, self.store.owner_id, self.wall(), error, failed, retry))
        if error is not None:
            state = "failed for good" if failed else "will be retried"
            log.warning(
                "watch %s run %d: webhook try %d %s: %s", notice.watch_id, notice.run, tries, state, error
            )

    async def _post(self, notice: Notice) -> str | None:
        watch = await self.watches.get(notice.watch_id)
        url = None if watch is None else watch.notify.get("webhook")
        secret = await self.watches.secret(notice.watch_id)
        if not isinstance(url, str) or secret is None:
            return "the watch or its webhook is gone"
        payload: dict[str, Any] = {**notice.payload, "eventId": f"{notice.watch_id}/{notice.run}"}
        return await self.notifier.post(url, secret, payload)
