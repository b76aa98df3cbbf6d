"""The team's capacity at Exa, as pools of slots: active agent runs, and websets being worked on.

Exa lets a team have so many agent runs active at once (50) and so many websets running; a create
past that is refused. The gateway owns one `RunPool` per kind, shared by every task of this
process and, through the store (`store/slots.py`, one table), by every server on the database:

- the transport takes a slot before it sends a create (`POST /agent/runs`, `POST /websets/v0/websets`);
  a create that waits says so in its task's status (`waiting for an agent-run slot: 12th in line`,
  through the `notice` the runtime sets in each task's request context, gateway/context.py);
- the created run (webset) is bound to its slot; the slot is released when an answer shows the
  run finished (a `GET`, a cancel, a run event, a 404), or when Exa refused the create;
- slots are granted fairly across principals (store/slots.py) and no faster than the pool's create
  rate; a slot whose process died is reclaimed (its run, if it may still be going, is adopted and
  watched by a live process until it ends).

The pool's work is done in rounds by one loop per pool and process: each round is one transaction
that carries what changed since the last, so 200 waiting creates cost a few rounds, not 200.
Without a store the book is an in-memory SQLite table (`memory_book`): the same rules, one process.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from exa_orch.exa.statuses import RUN_TERMINAL as AGENT_TERMINAL
from exa_orch.exa.statuses import WEBSET_SETTLED
from exa_orch.gateway.context import Notice, current_request
from exa_orch.store.slots import SlotChanges, SlotRound, memory_connection, run_round

logger = logging.getLogger("exa_orch.gateway.pool")


NAMES = {"agent": "an agent-run", "webset": "a webset"}


class SlotBook(Protocol):
    """Where a pool's rounds run: the store's table, shared by every server on it."""

    owner: str  # this process's owner id (the store's lease owner)

    async def __call__(
        self,
        pool: str,
        *,
        limit: int,
        rate: float,
        ttl_s: float,
        changes: SlotChanges,
        asking: list[int],
        stale_s: float,
    ) -> SlotRound | None: ...


class _MemoryBook:
    """One process's book, on an in-memory SQLite table (store/slots.py's rules)."""

    def __init__(self, migrations_dir: Path) -> None:
        self.owner = f"memory:{id(self):x}"
        self._conn = memory_connection(migrations_dir)

    async def __call__(
        self,
        pool: str,
        *,
        limit: int,
        rate: float,
        ttl_s: float,
        changes: SlotChanges,
        asking: list[int],
        stale_s: float,
    ) -> SlotRound | None:
        self._conn.execute("BEGIN")
        try:
            out = run_round(
                self._conn,
                time.time,
                pool=pool,
                owner=self.owner,
                ttl_s=ttl_s,
                limit=limit,
                rate=rate,
                changes=changes,
                asking=asking,
                stale_s=stale_s,
            )
        except BaseException:
            self._conn.execute("ROLLBACK")
            raise
        self._conn.execute("COMMIT")
        return out


def memory_book() -> SlotBook:
    """A book for a gateway without a store (one process's pools)."""
    from exa_orch.store.migrations import default_migrations_dir

    return _MemoryBook(default_migrations_dir())


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 12th, 21st ..."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


@dataclass(eq=False)
class _Waiter:
    principal: str
    task_id: str | None
    notice: Notice | None
    future: asyncio.Future[int]
    row_id: int | None = None
    cancelled: bool = False


@dataclass
class PoolStats:
    """What a pool did in this process (tests and `Gateway.stats()` read it)."""

    granted: int = 0
    waited: int = 0  # acquisitions that had to wait for a slot
    rounds: int = 0
    released: int = 0
    checks: int = 0  # runs looked up because nobody had seen them for a while
    last_active: int = 0  # active slots (every server's) at the last round
    max_active: int = 0  # the most active slots (every server's) any round of this process saw
    last_waiting: int = 0
    notices: list[str] = field(default_factory=list)  # the last few status messages sent


class RunPool:
    """One kind of slot (see the module doc). `limit` may change (Websets' team concurrency)."""

    def __init__(
        self,
        kind: str,
        limit: int,
        rate: float,
        *,
        book: SlotBook | None = None,
        poll_s: float = 0.25,
        ttl_s: float = 30.0,
        stale_s: float = 30.0,
    ) -> None:
        self.kind = kind
        self.limit = limit
        self.rate = rate
        self.poll_s = poll_s
        self.ttl_s = ttl_s
        self.stale_s = stale_s
        self.stats = PoolStats()
        self.check: Callable[[str, str], Awaitable[None]] | None = None  # look a run up (the gateway's GET)
        # Run once, before the first round with a new waiter while a slot is active (Websets' team
        # concurrency, which matters only once several are at work).
        self.ready: Callable[[], Awaitable[None]] | None = None
        self._book = book
        self._pending = SlotChanges()
        self._new: list[_Waiter] = []
        self._waiters: dict[int, _Waiter] = {}
        self._held: dict[int, str | None] = {}  # this process's granted rows -> their run, once bound
        self._seen: dict[str, float] = {}  # run id -> when this process last told the book it was seen
        self._checking: set[str] = set()
        self._told: dict[str, str] = {}  # task id -> the last place-in-line message sent
        self._kick = asyncio.Event()
        self._loop_task: asyncio.Task[None] | None = None
        self._closed = False

    def __repr__(self) -> str:
        return f"<RunPool {self.kind} limit={self.limit} waiting={len(self._waiters) + len(self._new)}>"

    def use_book(self, book: SlotBook) -> None:
        """Keep the pool in `book` (the store's, shared by every server on it); before first use."""
        self._book = book

    # -- what the transport calls ----------------------------------------------------------------

    async def acquire(self, principal: str | None, task_id: str | None) -> int:
        """Wait for a slot (fair across principals); its row id. Cancelling the wait gives it up."""
        self._start()
        waiter = _Waiter(
            principal or "", task_id, current_request().notice, asyncio.get_running_loop().create_future()
        )
        self._new.append(waiter)
        self._kick.set()
        try:
            return await asyncio.shield(waiter.future)
        except asyncio.CancelledError:
            self._give_up(waiter)
            raise

    def bind(self, row_id: int, run_id: str) -> None:
        """The create a slot was taken for made `run_id`."""
        self._held[row_id] = run_id
        self._seen[run_id] = time.monotonic()
        self._pending.bind.append((row_id, run_id))
        self._kick.set()

    def release(self, row_id: int) -> None:
        """Give a slot back (the create was refused, or made nothing)."""
        self._held.pop(row_id, None)
        if row_id not in self._pending.release:
            self._pending.release.append(row_id)
            self.stats.released += 1
            self._kick.set()

    def observe(self, run_id: str, status: str | None, principal: str | None, task_id: str | None) -> None:
        """An answer from Exa showed `run_id` in `status` (None: gone, a 404)."""
        if self._closed:
            return
        self._start()  # a process that made no create may still hold (or adopt) a run's slot
        settled = AGENT_TERMINAL if self.kind == "agent" else WEBSET_SETTLED
        if status is None or status in settled:
            self._seen.pop(run_id, None)
            for row_id, held in list(self._held.items()):
                if held == run_id:
                    del self._held[row_id]
            self._pending.release_runs.append(run_id)
            self.stats.released += 1
            self._kick.set()
            return
        now = time.monotonic()
        if now - self._seen.get(run_id, -1e9) >= self.stale_s / 2:
            self._seen[run_id] = now
            self._pending.seen.append((run_id, principal or "", task_id))

    async def aclose(self) -> None:
        """Stop the loop; this process's waiting rows are given back (its runs keep their slots,
        adopted by whichever process sees them next)."""
        if self._closed:
            return
        self._closed = True
        task, self._loop_task = self._loop_task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        leftover, self._pending = self._pending, SlotChanges()  # what changed since the last round
        leftover.release += [w.row_id for w in self._waiters.values() if w.row_id is not None]
        for waiter in [*self._waiters.values(), *self._new]:
            if not waiter.future.done():
                waiter.future.cancel()
        if leftover and self._book is not None:
            with contextlib.suppress(Exception):
                await self._round(leftover, [])

    # -- the loop ----------------------------------------------------------------------------

    def _start(self) -> None:
        if self._closed:
            raise RuntimeError("the gateway's pools are closed")
        if self._loop_task is None:
            if self._book is None:
                self._book = memory_book()
            # In a context of its own: not the first waiter's task's (its lease fence, purse, scope).
            self._loop_task = asyncio.get_running_loop().create_task(
                self._loop(), name=f"pool-{self.kind}", context=contextvars.Context()
            )

    def _give_up(self, waiter: _Waiter) -> None:
        waiter.cancelled = True
        if waiter.future.done() and not waiter.future.cancelled():
            self.release(waiter.future.result())  # granted as the wait was cancelled
        elif waiter.row_id is not None:
            self._waiters.pop(waiter.row_id, None)
            self._pending.release.append(waiter.row_id)
            self._kick.set()
        # not in the book yet: the round that enqueues it releases it (it is marked cancelled)

    async def _round(self, changes: SlotChanges, asking: list[int]) -> SlotRound | None:
        assert self._book is not None
        return await self._book(
            self.kind,
            limit=self.limit,
            rate=self.rate,
            ttl_s=self.ttl_s,
            changes=changes,
            asking=asking,
            stale_s=self.stale_s,
        )

    async def _loop(self) -> None:
        while not self._closed:
            waiting = bool(self._waiters or self._new)
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self.poll_s if waiting else self.ttl_s / 3):
                    await self._kick.wait()
            self._kick.clear()
            changes, self._pending = self._pending, SlotChanges()
            new, self._new = self._new, []
            if new and self.ready is not None and self.stats.last_active >= 1:
                # Exa's own limit matters once a create finds others at work: asked once, then.
                ready, self.ready = self.ready, None
                try:
                    await ready()
                except Exception as exc:  # the configured limit holds
                    logger.debug("%s pool: could not read the team's limit: %s", self.kind, exc)
            changes.enqueue = [(w.principal, w.task_id) for w in new]
            try:
                result = await self._round(changes, list(self._waiters))
            except Exception as exc:  # the database is away: keep the changes for the next round
                logger.warning("%s pool: a round failed (%s); trying again", self.kind, exc)
                result = None
            if result is None:  # failed, or another server's round held the pool: again soon
                self._requeue(changes, new)
                await asyncio.sleep(self.poll_s / 5)
                continue
            self.stats.rounds += 1
            await self._settle(result, new)

    def _requeue(self, changes: SlotChanges, new: list[_Waiter]) -> None:
        self._new[:0] = new
        pending = self._pending
        pending.bind[:0] = changes.bind
        pending.release[:0] = changes.release
        pending.release_runs[:0] = changes.release_runs
        pending.seen[:0] = changes.seen

    async def _settle(self, result: SlotRound, new: list[_Waiter]) -> None:
        """Act on a round's result: new waiters' rows, slots granted, places in line, runs to check."""
        self.stats.last_active, self.stats.last_waiting = result.active, result.waiting
        self.stats.max_active = max(self.stats.max_active, result.active)
        self._enqueued(result, new)
        lines: dict[str, tuple[int, _Waiter]] = {}
        for row_id, waiter in list(self._waiters.items()):
            state = result.states.get(row_id, "done")
            if state == "active":
                self._granted(row_id, waiter, waiter in new)
            elif state == "done":  # reclaimed while this process could not renew it: ask again
                del self._waiters[row_id]
                waiter.row_id = None
                self._new.append(waiter)
                self._kick.set()
            elif waiter.task_id is not None and waiter.notice is not None:
                place = result.places.get(row_id)
                best = lines.get(waiter.task_id)
                if place is not None and (best is None or place < best[0]):
                    lines[waiter.task_id] = (place, waiter)
        await self._tell(lines)
        for task_id in [t for t in self._told if t not in lines]:  # no longer waiting: forget
            del self._told[task_id]
        self._tidy(result)

    def _enqueued(self, result: SlotRound, new: list[_Waiter]) -> None:
        """The rows the round made for new waiters (one cancelled meanwhile gives its row back)."""
        for waiter, row_id in zip(new, result.new_ids, strict=True):
            waiter.row_id = row_id
            if waiter.cancelled:
                self._pending.release.append(row_id)
                self._kick.set()
                continue
            self._waiters[row_id] = waiter

    def _granted(self, row_id: int, waiter: _Waiter, at_once: bool) -> None:
        """A slot the round granted: the waiter's, or given back if it stopped waiting."""
        del self._waiters[row_id]
        self._held[row_id] = None
        self.stats.granted += 1
        if not at_once:
            self.stats.waited += 1
        if not waiter.future.done():
            waiter.future.set_result(row_id)
        else:  # cancelled meanwhile
            self.release(row_id)

    def _tidy(self, result: SlotRound) -> None:
        """Forget runs long unseen, and look up the runs the round says nobody has seen for a while."""
        if len(self._seen) > 1000:  # runs seen once and never again (a GET of someone's run)
            cutoff = time.monotonic() - self.stale_s
            self._seen = {run: at for run, at in self._seen.items() if at >= cutoff}
        for _, run_id, principal in result.watch:
            if run_id not in self._checking and self.check is not None and len(self._checking) < 8:
                self._checking.add(run_id)
                asyncio.get_running_loop().create_task(self._check(run_id, principal))

    async def _tell(self, lines: dict[str, tuple[int, _Waiter]]) -> None:
        """Tell each waiting task its place in line (only when it changed)."""
        sends: list[Awaitable[None]] = []
        for task_id, (place, waiter) in lines.items():
            message = f"waiting for {NAMES.get(self.kind, self.kind)} slot: {ordinal(place)} in line"
            if self._told.get(task_id) == message or waiter.notice is None:
                continue
            self._told[task_id] = message
            self.stats.notices = [*self.stats.notices[-19:], message]
            sends.append(waiter.notice(message))
        if sends:
            for outcome in await asyncio.gather(*sends, return_exceptions=True):
                if isinstance(outcome, Exception):
                    logger.debug("%s pool: a status message was not written: %s", self.kind, outcome)

    async def _check(self, run_id: str, principal: str) -> None:
        """Look up a run nobody has seen for a while (the transport's hooks then observe it)."""
        try:
            self.stats.checks += 1
            assert self.check is not None
            await self.check(run_id, principal)
        except Exception as exc:
            logger.debug("%s pool: could not look %s up: %s", self.kind, run_id, exc)
        finally:
            self._checking.discard(run_id)


def read_team_limit(body: Any) -> int | None:
    """The concurrency a `GET /websets/v0/teams/me` answer states, if any (its shape is not in
    Exa's specs: the first positive integer under a key that names concurrency)."""
    if isinstance(body, dict):
        for key, value in body.items():
            if (
                "concurren" in key.lower()
                and isinstance(value, int)
                and not isinstance(value, bool)
                and value > 0
            ):
                return value
        for value in body.values():
            found = read_team_limit(value)
            if found is not None:
                return found
    return None


_RUN_PATH = re.compile(r"^/agent/runs/([^/]+)(?:/(cancel|stop))?/?$")
_WEBSET_PATH = re.compile(r"^/websets/v0/websets/([^/]+)(?:/(cancel))?/?$")


def pooled(method: str, path: str) -> tuple[str, str, str | None] | None:
    """(pool kind, what the request does to a pooled object, the id in its path) for a request the
    pools care about, else None. What it does: 'create', 'read' (its answer shows the object's
    status: a get, a cancel, a stop) or 'delete'."""
    path = path.rstrip("/") or "/"
    if path in ("/agent/runs", "/websets/v0/websets"):
        return (
            ("agent" if path.startswith("/agent") else "webset", "create", None) if method == "POST" else None
        )
    for kind, pattern in (("agent", _RUN_PATH), ("webset", _WEBSET_PATH)):
        found = pattern.match(path)
        if found is None:
            continue
        action = found.group(2)
        if method == "DELETE" and action is None:
            return kind, "delete", found.group(1)
        if (method == "GET" and action is None) or (method == "POST" and action is not None):
            return kind, "read", found.group(1)
    return None
