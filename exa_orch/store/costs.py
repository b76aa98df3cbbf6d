"""The cost ledger's rows (data-design/prices.md): one write per paid Exa answer, and the reads.

Rows queued before the writer's next group commit are written together by one op (`Pending`),
one executemany beside the batch's checkpoints. `key` is unique for the rows that can be written
twice (migration 0013's partial index): an agent run (read many times once it has finished) and
an estimate (a webset read again); a second write of one changes nothing. A search, contents or
answer row is written once, when its answer arrives.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

log = logging.getLogger("exa_orch.store")

_INSERT = (
    "INSERT INTO costs (key, task_id, step_key, principal, operation, usd, billed, resend, attempt, at) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?10, ?8, ?9) ON CONFLICT DO NOTHING"
)
# Both backends take the same statement (a trigger adds each inserted row to its task's totals,
# migrations 0015, 0019); `resend` is the gateway's word (gateway/purse.py `paid_steps`).
INSERT_SQLITE = _INSERT
INSERT_PG = _INSERT

TOTALS_IN = (
    "SELECT task_id, cost_usd, cost_billed_usd, cost_usd - cost_billed_usd FROM task_heads WHERE task_id IN "
)
# + placeholders(n): each task's totals, kept on its narrow row (migrations 0015, 0019)
# A task's own rows, for a resumed run: found through costs_by_principal from its creation on.
TASK_ROWS = "SELECT key, step_key, billed FROM costs WHERE principal = ? AND at >= ? AND task_id = ?"
TASK_ROWS_NO_PRINCIPAL = (
    "SELECT key, step_key, billed FROM costs WHERE principal IS NULL AND at >= ? AND task_id = ?"
)
SPENT_SINCE = "SELECT coalesce(sum(usd), 0) FROM costs WHERE principal = ? AND at >= ?"
# The rows a later read may report again (costs_once's: agent runs, estimates): a daily cap seeded
# from the ledger must not add them a second time.
ONCE_KEYS_SINCE = (
    "SELECT key FROM costs WHERE principal = ? AND at >= ? AND (operation = 'agent.run' OR billed = 0)"
)
DAILY = (
    "SELECT substr(at, 1, 10) AS day, sum(usd), count(*) FROM costs "
    "WHERE (CAST(? AS TEXT) IS NULL OR principal = ?) GROUP BY substr(at, 1, 10) ORDER BY day DESC"
)


class CostRow(NamedTuple):
    """One paid answer (see the `costs` table). A named tuple, not a frozen dataclass: one is made
    per paid request on the event loop, and a frozen dataclass's __init__ costs twice as much
    (1.9 us against 1.0, by keyword; bench/ledger.py)."""

    key: str
    operation: str
    usd: float
    billed: bool
    task_id: str | None = None
    step_key: str | None = None
    principal: str | None = None
    attempt: str | None = None
    resend: bool = False  # an earlier run of the task had already paid within this step


def params(row: CostRow, at: str) -> tuple[Any, ...]:
    """The INSERT's parameters for one row (the backend's dialect has the INSERT: `record_cost`,
    INSERT_SQLITE or INSERT_PG)."""
    key, operation, usd, billed, task_id, step_key, principal, attempt, resend = row
    return (key, task_id, step_key, principal, operation, float(usd), int(billed), attempt, at, int(resend))


class Pending:
    """Ledger rows waiting for the writer, written first in the writer's next group commit (its
    `prelude`), in the same transaction as the writes queued after them: a step's checkpoint never
    commits before the rows of the requests it made, and a row costs no commit of its own. A row
    with no write after it is flushed by an empty op queued soon after (at once for `wait`)."""

    FLUSH_AFTER_S = 0.005

    def __init__(self, queue: Callable[[Callable[[Any], None]], asyncio.Future[None]], *, sql: str) -> None:
        self._lock = threading.Lock()
        self._rows: list[tuple[Any, ...]] = []
        self._future: asyncio.Future[None] | None = None
        self._flush_queued = False
        self._queue = queue
        self._sql = sql  # the backend dialect's record_cost

    def add(self, row: tuple[Any, ...], *, wait: bool) -> asyncio.Future[None]:
        """Queue `row` (on the event loop); the future resolves once it is committed."""
        loop = asyncio.get_running_loop()
        with self._lock:
            self._rows.append(row)
            future = self._future
            if future is None:
                future = self._future = loop.create_future()
                future.add_done_callback(_log_failure)
            flush = not self._flush_queued
            self._flush_queued = True
        if flush:
            if wait:
                self._flush()
            else:
                loop.call_later(self.FLUSH_AFTER_S, self._flush)
        return future

    def _flush(self) -> None:
        with self._lock:
            self._flush_queued = False
            if not self._rows:
                return  # a write since took them
        try:
            self._queue(_nothing).add_done_callback(_ignore)
        except Exception as exc:  # the store closed meanwhile: its last commit took what was queued
            log.debug("cost ledger flush after close: %s", exc)

    def take(self) -> tuple[Callable[[Any], None], asyncio.Future[None]] | None:
        """On the writer thread: the op writing every queued row, and their future (None if none)."""
        with self._lock:
            rows, future = self._rows, self._future
            if not rows or future is None:
                return None
            self._rows, self._future = [], None
        sql = self._sql
        # In task order (stable: a task's rows keep theirs): each row's trigger locks its task's
        # narrow row (PostgreSQL), and two servers' ledger writes lock them in the same order.
        rows.sort(key=_task_of)

        def write(conn: Any) -> None:
            conn.executemany(sql, rows)

        return write, future


def _task_of(row: tuple[Any, ...]) -> str:
    return row[1] or ""


def _nothing(conn: Any) -> None:
    """The flush op: the writer's prelude writes the rows."""


def _ignore(future: asyncio.Future[None]) -> None:
    if not future.cancelled():
        future.exception()


def _log_failure(future: asyncio.Future[None]) -> None:
    if not future.cancelled() and future.exception() is not None:
        log.warning("cost ledger rows were not written: %s", future.exception())


def cost_dict(total: float, billed: float, estimated: float) -> dict[str, float]:
    """`{usd, billed, estimated}` as tasks.get shows it, in dollars rounded to a millionth."""
    return {"usd": round(total, 6), "billed": round(billed, 6), "estimated": round(estimated, 6)}


ZERO: dict[str, float] = cost_dict(0.0, 0.0, 0.0)


def totals_from_rows(rows: Sequence[Sequence[object]]) -> dict[str, dict[str, float]]:
    out: dict[str, dict[str, float]] = {}
    for task_id, total, billed, estimated in rows:
        out[str(task_id)] = cost_dict(float(total or 0), float(billed or 0), float(estimated or 0))  # type: ignore[arg-type]
    return out
