"""A watch run's notifications in the store (migration 0023): the outbox.

Contract:
- `enqueue(conn, notices)` writes one row per channel of a run that found a change, on the
  connection of the transaction that records the run (store/watches.py `_finish`): the run and
  whom it must tell are committed together or not at all, so a server that dies in between loses
  nothing.
- 'webhook' rows: `claim(...)` takes a due row (pending, `next_at` passed, no live lease) by
  compare-and-set, counting the attempt, so two servers on one database send each once; a sender
  that dies mid-send leaves a lease that lapses at `lease_until`, and the row is sent again.
  `settle(...)` records the outcome (fenced by the claimant): 'delivered', or pending again at
  `next_at` with `last_error`, or 'failed' when the sender gives up. A delivery adds "webhook" to
  the run's `notified`.
- 'mcp' rows are never claimed: every server reads those past its cursor (`pending(floor)`) and
  tells its own sessions; `told(...)` marks the row delivered and adds "mcp" to the run's `notified`.
- Times are epoch seconds on the caller's wall clock.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from typing import Any

from exa_orch.store.core import Store


@dataclass(frozen=True)
class Notices:
    """Whom a recorded run must tell: its channels ("webhook", "mcp"), its owner and payload
    (`run` is filled in from the run's row), the recording server and its wall time."""

    channels: tuple[str, ...]
    owner: str | None
    payload: dict[str, Any]
    recorded_by: str
    wall: float


@dataclass(frozen=True)
class Notice:
    """One outbox row as a sender reads it."""

    id: int
    watch_id: str
    run: int
    owner: str | None
    channel: str
    payload: dict[str, Any]
    status: str
    attempts: int
    next_at: float
    lease_until: float | None
    created_at: float


@dataclass(frozen=True)
class Delivery:
    """What a run's webhook delivery came to, for watches.get."""

    run: int
    status: str
    attempts: int
    last_error: str | None
    delivered_at: float | None


_COLUMNS = "id, watch_id, run_n, owner, channel, payload, status, attempts, next_at, lease_until, created_at"


def _notice(row: Any) -> Notice:
    nid, wid, n, owner, channel, payload, status, attempts, next_at, lease, created = row
    return Notice(
        id=int(nid), watch_id=str(wid), run=int(n), owner=owner, channel=str(channel),
        payload=json.loads(payload), status=str(status), attempts=int(attempts), next_at=float(next_at),
        lease_until=None if lease is None else float(lease), created_at=float(created),
    )  # fmt: skip


def enqueue(conn: sqlite3.Connection, watch_id: str, n: int, notices: Notices) -> None:
    """Write the run's notices (module docstring); inside the caller's transaction."""
    body = json.dumps({**notices.payload, "run": n})
    for channel in notices.channels:
        conn.execute(
            "INSERT INTO watch_outbox (watch_id, run_n, owner, channel, payload, next_at, recorded_by, "
            "created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (watch_id, n, notices.owner, channel, body, notices.wall, notices.recorded_by, notices.wall),
        )


def _add_notified(conn: sqlite3.Connection, watch_id: str, n: int, channel: str) -> None:
    # Lock the run's row first: on PostgreSQL (read committed) a second server adding its channel
    # waits here, then reads what the first committed, instead of both writing from the same read.
    conn.execute("UPDATE watch_runs SET notified = notified WHERE watch_id = ? AND n = ?", (watch_id, n))
    row = conn.execute(
        "SELECT notified FROM watch_runs WHERE watch_id = ? AND n = ?", (watch_id, n)
    ).fetchone()
    if row is None:
        return  # the watch was deleted meanwhile
    reached: list[str] = json.loads(row[0]) if row[0] else []
    if channel not in reached:
        conn.execute(
            "UPDATE watch_runs SET notified = ? WHERE watch_id = ? AND n = ?",
            (json.dumps([*reached, channel]), watch_id, n),
        )


@dataclass(frozen=True)
class Outcome:
    """A claimed webhook row's end: delivered, or retried at `next_at`, or given up (`failed`)."""

    notice: Notice
    owner_id: str
    wall: float
    error: str | None
    failed: bool = False
    next_at: float | None = None


def _settle(conn: sqlite3.Connection, o: Outcome) -> bool:
    status = "delivered" if o.error is None else ("failed" if o.failed else "pending")
    done = conn.execute(
        "UPDATE watch_outbox SET status = ?, next_at = COALESCE(?, next_at), claimed_by = NULL, "
        "lease_until = NULL, last_error = ?, delivered_at = ? WHERE id = ? AND claimed_by = ?",
        (status, o.next_at, o.error, o.wall if o.error is None else None, o.notice.id, o.owner_id),
    ).rowcount
    if done == 1 and o.error is None:
        _add_notified(conn, o.notice.watch_id, o.notice.run, "webhook")
    return done == 1


def _told(conn: sqlite3.Connection, notice: Notice, wall: float) -> None:
    conn.execute(
        "UPDATE watch_outbox SET status = 'delivered', delivered_at = COALESCE(delivered_at, ?) WHERE id = ?",
        (wall, notice.id),
    )
    _add_notified(conn, notice.watch_id, notice.run, "mcp")


class Outbox:
    """The async face of the outbox on the store's writer and reader (module docstring)."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def _submit(self, fn: Any) -> Any:
        return self._store._writer.submit(fn)

    async def last_id(self) -> int:
        """The newest row's id (0 when none): where a server that starts now begins its cursor."""
        rows = await self._store._read("SELECT max(id) FROM watch_outbox")
        return int(rows[0][0]) if rows and rows[0][0] is not None else 0

    async def pending(self, floor: int) -> list[Notice]:
        """Pending webhook rows, and every MCP row past `floor` (one read), oldest first."""
        rows = await self._store._read(
            f"SELECT {_COLUMNS} FROM watch_outbox WHERE (channel = 'webhook' AND status = 'pending') "
            "OR (channel = 'mcp' AND id > ?) ORDER BY id",
            (floor,),
        )
        return [_notice(r) for r in rows]

    async def claim(self, notice: Notice, owner_id: str, wall: float, lease_s: float) -> bool:
        """Take a due webhook row for one attempt (module docstring); False if another has it."""
        taken: int = await self._submit(
            lambda c: (
                c.execute(
                    "UPDATE watch_outbox SET claimed_by = ?, lease_until = ?, attempts = attempts + 1 "
                    "WHERE id = ? AND status = 'pending' AND next_at <= ? "
                    "AND (lease_until IS NULL OR lease_until < ?)",
                    (owner_id, wall + lease_s, notice.id, wall, wall),
                ).rowcount
            )
        )
        return taken == 1

    async def settle(self, outcome: Outcome) -> bool:
        """Record a claimed row's outcome; False when the claim had lapsed to another sender."""
        done: bool = await self._submit(lambda c: _settle(c, outcome))
        return done

    async def told(self, notice: Notice, wall: float) -> None:
        """An MCP row reached a session here (module docstring)."""
        await self._submit(lambda c: _told(c, notice, wall))

    async def deliveries(self, watch_id: str) -> dict[int, Delivery]:
        """Each run's webhook delivery, by run number."""
        rows = await self._store._read(
            "SELECT run_n, status, attempts, last_error, delivered_at FROM watch_outbox "
            "WHERE watch_id = ? AND channel = 'webhook'",
            (watch_id,),
        )
        return {
            int(n): Delivery(int(n), str(s), int(a), err, None if at is None else float(at))
            for n, s, a, err, at in rows
        }
