"""Watches in the store (migration 0021): a watch's row, its runs' history, and the two
compare-and-set writes that make each due run run once across servers and restarts.

Contract:
- Times (`next_due`, `due_at`, `started_at`, `finished_at`) are epoch seconds on the caller's clock
  (the watch scheduler's); the store compares them, never reads a clock of its own for them.
- `claim(...)` starts one due run: in ONE transaction it moves the watch's `next_due` on (from the
  value the caller read, so a second server that read the same value claims nothing), inserts the
  child task (a normal pending task row, run by whichever server leases it) and the run's history
  row. A watch with a run in flight (`running_task`) or paused is never claimed.
- `finish(...)` records a run's end (its diff, cost, the new snapshot) and frees the watch, again
  by compare-and-set on `running_task`: exactly one caller records each run, and in the same
  transaction it writes whom the run must tell into the outbox (store/watch_outbox.py).
- The webhook secret is kept to sign deliveries; it is never returned after `create`.

`Watches(store)` is the async face of these, on the store's writer and reader.
"""

from __future__ import annotations

import json
import sqlite3
import uuid
from dataclasses import dataclass
from typing import Any

from exa_orch.store import tasks
from exa_orch.store.core import Store
from exa_orch.store.records import TaskRecord, iso
from exa_orch.store.watch_outbox import Notices, enqueue

_WATCH_COLUMNS = (
    "id, owner, type, args, every_s, cron, budget_usd, notify, secret IS NOT NULL, paused, next_due, "
    "running_task, runs, snapshot, created_at"
)
_RUN_COLUMNS = (
    "watch_id, n, task_id, due_at, started_at, finished_at, status, changed, diff, cost_usd, notified"
)


@dataclass(frozen=True)
class WatchPlan:
    """What a watch runs, when, for whom, and whom it tells (args and notify: JSON-able)."""

    owner: str | None
    type: str
    args: dict[str, Any]
    every_s: float | None
    cron: str | None
    budget_usd: float | None
    notify: dict[str, Any]


@dataclass(frozen=True)
class WatchRecord(WatchPlan):
    """One watch as stored (its secret stays in the store: `signed` says whether it has one)."""

    id: str
    signed: bool
    paused: bool
    next_due: float
    running_task: str | None
    runs: int
    snapshot: Any
    created_at: str


@dataclass(frozen=True)
class WatchRun:
    """One run of a watch: its child task, when it was due and ran, and what it found changed."""

    watch_id: str
    n: int
    task_id: str
    due_at: float
    started_at: float
    finished_at: float | None
    status: str
    changed: bool | None
    diff: dict[str, Any] | None
    cost_usd: float | None
    notified: list[str] | None


def _loads(text: Any) -> Any:
    return None if text is None else json.loads(text)


def _watch(row: Any) -> WatchRecord:
    (wid, owner, type_, args, every, cron, budget, notify, signed, paused, due, running, runs, snap,
     created) = row  # fmt: skip
    return WatchRecord(
        id=str(wid), owner=owner, type=str(type_), args=json.loads(args),
        every_s=None if every is None else float(every), cron=cron,
        budget_usd=None if budget is None else float(budget), notify=json.loads(notify),
        signed=bool(signed), paused=bool(paused), next_due=float(due), running_task=running,
        runs=int(runs), snapshot=_loads(snap), created_at=str(created),
    )  # fmt: skip


def _run(row: Any) -> WatchRun:
    wid, n, task_id, due, started, finished, status, changed, diff, cost, notified = row
    return WatchRun(
        watch_id=str(wid), n=int(n), task_id=str(task_id), due_at=float(due), started_at=float(started),
        finished_at=None if finished is None else float(finished), status=str(status),
        changed=None if changed is None else bool(changed), diff=_loads(diff),
        cost_usd=None if cost is None else float(cost), notified=_loads(notified),
    )  # fmt: skip


@dataclass(frozen=True)
class NewWatch(WatchPlan):
    """What `Watches.create` writes: the plan, its webhook secret, and its first run's time."""

    secret: str | None
    next_due: float


def _insert(conn: sqlite3.Connection, wid: str, new: NewWatch, created: str) -> None:
    conn.execute(
        "INSERT INTO watches (id, owner, type, args, every_s, cron, budget_usd, notify, secret, next_due, "
        "created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (wid, new.owner, new.type, json.dumps(new.args), new.every_s, new.cron, new.budget_usd,
         json.dumps(new.notify), new.secret, new.next_due, created),
    )  # fmt: skip


@dataclass(frozen=True)
class Claim:
    """A due run to start: the watch as read, its next due time, and the child task's row."""

    watch: WatchRecord
    next_due: float
    now: float
    args: dict[str, Any]
    meta: dict[str, Any]
    ttl_ms: int


def _claim(conn: sqlite3.Connection, clock: Any, c: Claim) -> tuple[TaskRecord, int] | None:
    w = c.watch
    moved = conn.execute(
        "UPDATE watches SET next_due = ?, running_task = '', runs = runs + 1 "
        "WHERE id = ? AND next_due = ? AND running_task IS NULL AND paused = 0",
        (c.next_due, w.id, w.next_due),
    ).rowcount
    if moved != 1:
        return None  # another server claimed it, or it was paused or deleted meanwhile
    n = int(conn.execute("SELECT runs FROM watches WHERE id = ?", (w.id,)).fetchone()[0])
    record = tasks.create(conn, clock, w.type, json.dumps(c.args), c.ttl_ms, json.dumps(c.meta), w.owner)
    conn.execute("UPDATE watches SET running_task = ? WHERE id = ?", (record.id, w.id))
    conn.execute(
        "INSERT INTO watch_runs (watch_id, n, task_id, due_at, started_at, status) "
        "VALUES (?, ?, ?, ?, ?, 'running')",
        (w.id, n, record.id, w.next_due, c.now),
    )
    return record, n


@dataclass(frozen=True)
class Finish:
    """A run's end: its status, the diff and cost, and the snapshot the next run compares with
    (None: keep the previous one, as for a failed run)."""

    watch_id: str
    task_id: str
    status: str
    finished_at: float
    changed: bool | None
    diff: dict[str, Any] | None
    cost_usd: float
    snapshot: Any = None
    notices: Notices | None = None


def _finish(conn: sqlite3.Connection, f: Finish) -> bool:
    snap = None if f.snapshot is None else json.dumps(f.snapshot)
    freed = conn.execute(
        "UPDATE watches SET running_task = NULL, snapshot = COALESCE(?, snapshot) "
        "WHERE id = ? AND running_task = ?",
        (snap, f.watch_id, f.task_id),
    ).rowcount
    if freed != 1:
        return False  # another server recorded it first (or the watch was deleted)
    changed = None if f.changed is None else int(f.changed)
    conn.execute(
        "UPDATE watch_runs SET finished_at = ?, status = ?, changed = ?, diff = ?, cost_usd = ? "
        "WHERE watch_id = ? AND task_id = ?",
        (f.finished_at, f.status, changed, None if f.diff is None else json.dumps(f.diff), f.cost_usd,
         f.watch_id, f.task_id),
    )  # fmt: skip
    if f.notices is not None and f.notices.channels:
        row = conn.execute(
            "SELECT n FROM watch_runs WHERE watch_id = ? AND task_id = ?", (f.watch_id, f.task_id)
        )
        enqueue(conn, f.watch_id, int(row.fetchone()[0]), f.notices)
    return True


class Watches:
    """The watches of one store: create, read, pause/resume, delete, claim and finish runs."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def _submit(self, fn: Any) -> Any:
        # The store's group-commit writer: one transaction per batch, like every other write.
        return self._store._writer.submit(fn)

    async def _rows(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        return await self._store._read(sql, params)

    async def create(self, new: NewWatch) -> WatchRecord:
        """Write a new watch ('watch_<uuid4>'); its first run is due at `new.next_due`."""
        wid, created = f"watch_{uuid.uuid4()}", iso(self._store._clock())
        await self._submit(lambda c: _insert(c, wid, new, created))
        found = await self.get(wid)
        assert found is not None
        return found

    async def get(self, watch_id: str) -> WatchRecord | None:
        """The watch, or None."""
        rows = await self._rows(f"SELECT {_WATCH_COLUMNS} FROM watches WHERE id = ?", (watch_id,))
        return _watch(rows[0]) if rows else None

    async def owned(self, owner: str | None, include_unowned: bool) -> list[WatchRecord]:
        """`owner`'s watches (with `include_unowned`, those with no owner too), oldest first;
        owner None: every watch (the scheduler's unscoped read)."""
        if owner is None:
            rows = await self._rows(f"SELECT {_WATCH_COLUMNS} FROM watches ORDER BY created_at, id")
        else:
            rows = await self._rows(
                f"SELECT {_WATCH_COLUMNS} FROM watches WHERE owner = ? OR (? = 1 AND owner IS NULL) "
                "ORDER BY created_at, id",
                (owner, int(include_unowned)),
            )
        return [_watch(r) for r in rows]

    async def due(self, now: float) -> list[WatchRecord]:
        """Watches due by `now` with no run in flight, not paused."""
        rows = await self._rows(
            f"SELECT {_WATCH_COLUMNS} FROM watches WHERE paused = 0 AND next_due <= ? "
            "AND running_task IS NULL ORDER BY next_due",
            (now,),
        )
        return [_watch(r) for r in rows]

    async def active(self) -> list[WatchRecord]:
        """In one read, the watches the scheduler looks at: those with a run in flight (a child task
        not yet recorded as finished) and the unpaused ones waiting for their next run, soonest first."""
        rows = await self._rows(
            f"SELECT {_WATCH_COLUMNS} FROM watches WHERE (running_task IS NOT NULL AND running_task <> '') "
            "OR (paused = 0 AND running_task IS NULL) ORDER BY next_due"
        )
        return [_watch(r) for r in rows]

    async def secret(self, watch_id: str) -> str | None:
        """The webhook signing secret (for signing a delivery only)."""
        rows = await self._rows("SELECT secret FROM watches WHERE id = ?", (watch_id,))
        return None if not rows or rows[0][0] is None else str(rows[0][0])

    async def set_paused(self, watch_id: str, paused: bool, next_due: float | None = None) -> None:
        """Pause or resume; a resume may move the next run to `next_due`."""
        await self._submit(
            lambda c: c.execute(
                "UPDATE watches SET paused = ?, next_due = COALESCE(?, next_due) WHERE id = ?",
                (int(paused), next_due, watch_id),
            )
        )

    async def delete(self, watch_id: str) -> None:
        """Forget the watch and its history (a run in flight keeps running as a plain task)."""

        def drop(c: sqlite3.Connection) -> None:
            c.execute("DELETE FROM watch_outbox WHERE watch_id = ?", (watch_id,))
            c.execute("DELETE FROM watch_runs WHERE watch_id = ?", (watch_id,))
            c.execute("DELETE FROM watches WHERE id = ?", (watch_id,))

        await self._submit(drop)

    async def claim(self, claim: Claim) -> tuple[TaskRecord, int] | None:
        """Start the due run of `claim.watch` (module docstring): (its child task, its number), or
        None when another server claimed it first."""
        clock = self._store._clock
        result: tuple[TaskRecord, int] | None = await self._submit(lambda c: _claim(c, clock, claim))
        return result

    async def finish(self, finish: Finish) -> bool:
        """Record a run's end; False when another server recorded it first."""
        done: bool = await self._submit(lambda c: _finish(c, finish))
        return done

    async def runs(self, watch_id: str, limit: int = 50) -> list[WatchRun]:
        """The watch's latest runs, newest first."""
        rows = await self._rows(
            f"SELECT {_RUN_COLUMNS} FROM watch_runs WHERE watch_id = ? ORDER BY n DESC LIMIT ?",
            (watch_id, limit),
        )
        return [_run(r) for r in rows]

    async def run_of_task(self, task_id: str) -> WatchRun | None:
        """The watch run whose child task is `task_id`, or None."""
        rows = await self._rows(f"SELECT {_RUN_COLUMNS} FROM watch_runs WHERE task_id = ?", (task_id,))
        return _run(rows[0]) if rows else None
