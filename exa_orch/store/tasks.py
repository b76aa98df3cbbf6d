"""Task rows, their checkpointed steps and their events: the write operations and read queries.

Write operations are synchronous functions `op(conn, ...)` that the group-commit writer runs
inside its transaction, so a read-check-write (a checked transition, say) is atomic. Every
status and progress change appends a `task_events` row in the same transaction.
"""

from __future__ import annotations

import base64
import binascii
import json
import sqlite3
import sys
import uuid
from collections.abc import Callable, Sequence
from typing import Any

from exa_orch.errors import InvalidParams, InvalidTransition, LeaseHeld, TaskNotFound, TaskTerminal
from exa_orch.store.records import (
    INPUT_REQUEST_META,
    TASK_COLUMNS,
    TASK_ROW,
    TERMINAL_SQL,
    TERMINAL_STATUSES,
    TaskRecord,
    TaskStatus,
    iso,
    iso_after,
    parse_status,
    record_from_row,
)
from exa_orch.store.writer import SqlOp


def _is_integrity_error(exc: BaseException) -> bool:
    """SQLite's or PostgreSQL's IntegrityError. psycopg (an optional extra, and slow to import) is
    looked at only when loaded: a PostgreSQL store has loaded it, a SQLite one never raises its errors."""
    if isinstance(exc, sqlite3.IntegrityError):
        return True
    psycopg = sys.modules.get("psycopg")
    return psycopg is not None and isinstance(exc, psycopg.IntegrityError)


Clock = Callable[[], float]
# Called with the finished task inside the terminal transition's transaction (the archive's filing).
OnFinish = Callable[[sqlite3.Connection, TaskRecord], object]

SELECT_TASK = f"SELECT {TASK_COLUMNS} FROM {TASK_ROW} WHERE id = ?"
SELECT_WAITING = (
    f"SELECT {TASK_COLUMNS} FROM {TASK_ROW} WHERE status = 'input_required' AND owner = ? ORDER BY created_at"
)
SELECT_TASK_IN = f"SELECT {TASK_COLUMNS} FROM {TASK_ROW} WHERE id IN "  # + placeholders(n)
# Inside a write: on PostgreSQL the row stays locked until COMMIT, so what is checked (status,
# lease owner) can't change before the write that depends on it. SQLite's writer is alone anyway.
_SELECT_TASK_LOCKED = SELECT_TASK + " /*pg:FOR UPDATE*/"


def fetch(conn: sqlite3.Connection, task_id: str) -> TaskRecord:
    """The task's row, read (and on PostgreSQL locked) inside the current transaction;
    TaskNotFound if there is none."""
    row = conn.execute(_SELECT_TASK_LOCKED, (task_id,)).fetchone()
    if row is None:
        raise TaskNotFound(task_id)
    return record_from_row(row)


def add_event(
    conn: sqlite3.Connection,
    task_id: str,
    at: str,
    kind: str,
    status: str,
    message: str | None = None,
    data: str | None = None,
) -> None:
    """Append one task_events row (data is JSON text or None)."""
    if message is not None and not message.isascii():
        # A lone surrogate (from JSON text) can't be stored as UTF-8; the event's copy may lose it.
        message = message.encode("utf-8", "replace").decode("utf-8")
    conn.execute(
        "INSERT INTO task_events (task_id, at, kind, status, message, data) VALUES (?, ?, ?, ?, ?, ?)",
        (task_id, at, kind, status, message, data),
    )


def create(
    conn: sqlite3.Connection,
    clock: Clock,
    type: str,
    args: str,
    ttl_ms: int,
    meta: str,
    principal: str | None = None,
) -> TaskRecord:
    """Insert a pending task with a fresh `task_<uuid4>` id, owned by `principal`, and its 'created' event."""
    task_id = f"task_{uuid.uuid4()}"
    now = iso(clock())
    conn.execute(
        "INSERT INTO tasks (id, type, status, args, created_at, updated_at, ttl_ms, meta, owner) "
        "VALUES (?, ?, 'pending', ?, ?, ?, ?, ?, ?)",
        (task_id, type, args, now, now, ttl_ms, meta, principal),
    )
    add_event(conn, task_id, now, "created", "pending")
    return fetch(conn, task_id)


def _check_owner(task: TaskRecord, owner: str | None) -> None:
    if owner is not None and task.lease_owner != owner:
        raise LeaseHeld(
            task.id,
            task.lease_owner or "nobody: the lease was released or never taken",
            holder=task.lease_owner,
        )


def transition(
    conn: sqlite3.Connection,
    clock: Clock,
    task_id: str,
    status: TaskStatus,
    message: str | None,
    owner: str | None,
    *,
    result: str | None = None,
    error: str | None = None,
    strict_same: bool = False,
    cancel_wins: bool = False,
    on_finish: OnFinish | None = None,
) -> TaskRecord:
    """Move the task to `status` if the state machine allows it; see Store.transition.

    Entering a terminal status calls `on_finish(conn, task)` in the same transaction.
    """
    task = fetch(conn, task_id)
    if task.status == status and not strict_same:
        return task
    if task.status in TERMINAL_STATUSES:
        raise InvalidTransition(task_id, task.status, status)
    _check_owner(task, owner)
    if cancel_wins and status is TaskStatus.COMPLETED and task.cancel_requested:
        # A cancel was requested (by any process) before the result was written: it wins, and
        # what the task found stays its answer (the partial result tasks.result gives).
        found = _stopped_by_cancel(result)
        if found is not None:
            conn.execute("UPDATE tasks SET partial_result = ? WHERE id = ?", (found, task_id))
        status, message, result = TaskStatus.CANCELLED, "cancelled", None
    now = iso(clock())
    if status in TERMINAL_STATUSES:
        # A finished task needs no lease, and is kept for its TTL after it finished.
        conn.execute(
            "UPDATE tasks SET status = ?, updated_at = ?, expires_at = ?, result = coalesce(?, result), "
            "error = coalesce(?, error), lease_owner = NULL, lease_expires_at = NULL WHERE id = ?",
            (status, now, iso_after(now, task.ttl_ms), result, error, task_id),
        )
    else:
        conn.execute("UPDATE tasks SET status = ?, updated_at = ? WHERE id = ?", (status, now, task_id))
    add_event(conn, task_id, now, "status", status, message, json.dumps({"from": task.status}))
    finished = fetch(conn, task_id)
    if on_finish is not None and status in TERMINAL_STATUSES:
        on_finish(conn, finished)
    return finished


def _stopped_by_cancel(result: str | None) -> str | None:
    """A result (JSON text) as a cancelled task's partial result: {..., partial, stoppedBy: cancel}."""
    if result is None:
        return None
    value = json.loads(result)
    found = value if isinstance(value, dict) else {"result": value}
    return json.dumps({**found, "partial": True, "stoppedBy": "cancel"})


def park(
    conn: sqlite3.Connection, clock: Clock, task_id: str, request: str, message: str, owner: str
) -> TaskRecord:
    """Move a task `owner` runs to input_required with `request` (JSON) in its meta, and release
    the lease, in one transaction; LeaseHeld unless `owner` holds it, TaskTerminal once finished.
    A task whose cancel was requested only loses its lease (the next claim cancels it)."""
    task = _live(conn, task_id)
    _check_owner(task, owner)
    now = iso(clock())
    if task.cancel_requested:  # a cancel wins: left to the next claim, which cancels it
        conn.execute("UPDATE tasks SET lease_owner = NULL, lease_expires_at = NULL WHERE id = ?", (task_id,))
        return fetch(conn, task_id)
    conn.execute(
        "UPDATE tasks SET status = ?, updated_at = ?, lease_owner = NULL, lease_expires_at = NULL, "
        "meta = ? WHERE id = ?",
        (TaskStatus.INPUT_REQUIRED, now, _with_request(task.meta, json.loads(request)), task_id),
    )
    add_event(
        conn, task_id, now, "status", TaskStatus.INPUT_REQUIRED, message, json.dumps({"from": task.status})
    )
    return fetch(conn, task_id)


def unpark(
    conn: sqlite3.Connection,
    clock: Clock,
    task_ids: list[str],
    message: str,
    args: dict[str, str] | None = None,
) -> list[TaskRecord]:
    """Every one of `task_ids` still input_required back to working, its request dropped (a runner
    claims it and resumes it from its checkpoints); the others are left alone. Returns those moved.
    `args`: task id -> its new args (JSON), for a task whose input is part of them."""
    moved: list[TaskRecord] = []
    now = iso(clock())
    for task_id in task_ids:
        row = conn.execute("SELECT status FROM tasks WHERE id = ?", (task_id,)).fetchone()
        if row is None or row[0] != TaskStatus.INPUT_REQUIRED:
            continue
        task = fetch(conn, task_id)
        conn.execute(
            "UPDATE tasks SET status = ?, updated_at = ?, meta = ?, args = coalesce(?, args) WHERE id = ?",
            (TaskStatus.WORKING, now, _with_request(task.meta, None), (args or {}).get(task_id), task_id),
        )
        add_event(
            conn, task_id, now, "status", TaskStatus.WORKING, message, json.dumps({"from": task.status})
        )
        moved.append(fetch(conn, task_id))
    return moved


def _with_request(meta: dict[str, Any], request: Any) -> str:
    out = {k: v for k, v in meta.items() if k != INPUT_REQUEST_META}
    if request is not None:
        out[INPUT_REQUEST_META] = request
    return json.dumps(out, separators=(",", ":"))


def set_progress(
    conn: sqlite3.Connection, clock: Clock, task_id: str, progress: str, owner: str | None = None
) -> None:
    """Record the task's progress (JSON) and its 'progress' event (only by `owner`, if given)."""
    task = _live(conn, task_id)
    _check_owner(task, owner)
    now = iso(clock())
    conn.execute("UPDATE tasks SET progress = ?, updated_at = ? WHERE id = ?", (progress, now, task_id))
    message = json.loads(progress).get("message") if progress.startswith("{") else None
    add_event(
        conn, task_id, now, "progress", task.status, message if isinstance(message, str) else None, progress
    )


def set_partial(
    conn: sqlite3.Connection, clock: Clock, task_id: str, partial: str | None, owner: str | None = None
) -> None:
    """Replace the task's partial result (JSON), only by `owner` if given."""
    _check_owner(_live(conn, task_id), owner)
    conn.execute(
        "UPDATE tasks SET partial_result = ?, updated_at = ? WHERE id = ?", (partial, iso(clock()), task_id)
    )


def request_cancel(conn: sqlite3.Connection, clock: Clock, task_id: str) -> TaskRecord:
    """Set cancel_requested=1 (the runner holding the lease sees it); TaskTerminal if finished."""
    task = _live(conn, task_id)
    if not task.cancel_requested:
        now = iso(clock())
        conn.execute("UPDATE tasks SET cancel_requested = 1, updated_at = ? WHERE id = ?", (now, task_id))
        add_event(conn, task_id, now, "cancel_requested", task.status)
    return fetch(conn, task_id)


def _live(conn: sqlite3.Connection, task_id: str) -> TaskRecord:
    task = fetch(conn, task_id)
    if task.status in TERMINAL_STATUSES:
        raise TaskTerminal(task_id, task.status)
    return task


# SQLite: the seq comes from the task's counter on its narrow row (migration 0019), fenced by that
# row's copy of the lease owner, and two triggers bump the counter.
SAVE_STEP = (
    "INSERT INTO task_steps (task_id, step_key, seq, result, saved_at) "
    "VALUES (?1, ?2, (SELECT step_count + 1 FROM task_heads WHERE task_id = ?1 "
    "AND (CAST(?5 AS TEXT) IS NULL OR fence = ?5)), ?3, ?4) "
    "ON CONFLICT (task_id, step_key) DO UPDATE SET seq = excluded.seq, result = excluded.result, "
    "saved_at = excluded.saved_at"
)
# PostgreSQL: the statement bumps the counter itself, in a data-modifying CTE whose UPDATE also
# locks the task's narrow row and checks the lease's copy there (re-checked if a claim or a release
# changed it meanwhile), so a checkpoint costs one narrow row update (migrations 0007, 0019). The
# same effects as SQLite's statement.
SAVE_STEP_PG = (
    "WITH counted AS (UPDATE task_heads SET step_count = step_count + 1, last_step_key = ?2, stepped_at = ?4 "
    "WHERE task_id = ?1 AND (CAST(?5 AS TEXT) IS NULL OR fence = ?5) RETURNING step_count) "
    "INSERT INTO task_steps (task_id, step_key, seq, result, saved_at) "
    "VALUES (?1, ?2, (SELECT step_count FROM counted), ?3, ?4) "
    "ON CONFLICT (task_id, step_key) DO UPDATE SET seq = excluded.seq, result = excluded.result, "
    "saved_at = excluded.saved_at"
)


def save_step(
    task_id: str, step_key: str, result: str, now: str, owner: str | None = None, *, sql: str = SAVE_STEP
) -> SqlOp:
    """Upsert the step's result and bump the task's step counter, in one statement.

    The write is one SQL statement so that a group commit can run many of them as one
    executemany (`sql`: the backend's form of it, SAVE_STEP or SAVE_STEP_PG). With no such task, or (given
    `owner`) when `owner` doesn't hold the task's lease, seq is NULL and the NOT NULL constraint
    says so; `explain` tells which it was.
    """
    return SqlOp(sql, (task_id, step_key, result, now, owner), None, _explain_step)


def _explain_step(conn: sqlite3.Connection, exc: Exception, params: tuple[Any, ...]) -> BaseException:
    """Why a save_step op failed: TaskNotFound, LeaseHeld, or `exc` itself."""
    if not _is_integrity_error(exc):
        return exc
    task_id, owner = params[0], params[4]
    row = conn.execute("SELECT lease_owner FROM tasks WHERE id = ?", (task_id,)).fetchone()
    if row is None:
        return TaskNotFound(task_id)
    if owner is not None and row[0] != owner:
        return LeaseHeld(task_id, row[0] or "nobody: the lease was released or has expired", holder=row[0])
    return exc


# How long an expired task's tombstone answers TASK_EXPIRED before its id reads TASK_NOT_FOUND.
TOMBSTONE_KEEP_MS = 7 * 86_400_000


def delete_expired(conn: sqlite3.Connection, clock: Clock, keep_ms: int = TOMBSTONE_KEEP_MS) -> int:
    """Delete terminal tasks past their expiry (steps and events go with them); return how many.

    Each leaves a tombstone (id, owner, type, status) for `keep_ms`, so its owner reads
    TASK_EXPIRED; tombstones older than that are dropped here too.
    """
    now = iso(clock())
    expired = f"SELECT id FROM tasks WHERE status IN {TERMINAL_SQL} AND expires_at <= ?"
    # PostgreSQL: the narrow rows first, as every writer of both locks them (records.TASK_ROW); the
    # DELETE locks the wide rows, then deletes the narrow ones by the foreign key.
    conn.execute(
        f"SELECT 1 FROM task_heads WHERE task_id IN ({expired}) ORDER BY task_id /*pg:FOR UPDATE*/", (now,)
    )
    conn.execute("DELETE FROM task_tombstones WHERE forget_at <= ?", (now,))
    conn.execute(
        "INSERT INTO task_tombstones (id, owner, type, status, expired_at, forget_at) "
        f"SELECT id, owner, type, status, ?, ? FROM tasks WHERE status IN {TERMINAL_SQL} AND expires_at <= ? "
        "ON CONFLICT (id) DO UPDATE SET owner = excluded.owner, type = excluded.type, "
        "status = excluded.status, expired_at = excluded.expired_at, forget_at = excluded.forget_at",
        (now, iso_after(now, keep_ms), now),
    )
    cursor = conn.execute(f"DELETE FROM tasks WHERE status IN {TERMINAL_SQL} AND expires_at <= ?", (now,))
    return cursor.rowcount


# --- reads (run on the reader connection) ---------------------------------------------------

SELECT_STEP = "SELECT result FROM task_steps WHERE task_id = ? AND step_key = ?"
SELECT_STEPS = "SELECT step_key, result FROM task_steps WHERE task_id = ? ORDER BY seq"
SELECT_EVENTS = (
    "SELECT id, task_id, at, kind, status, message, data FROM task_events WHERE task_id = ? ORDER BY id"
)
SELECT_EXISTS = "SELECT 1 FROM tasks WHERE id = ?"
SELECT_TOMBSTONE = "SELECT id, owner, type, status, expired_at FROM task_tombstones WHERE id = ?"


def event_from_row(row: Sequence[Any]) -> dict[str, Any]:
    """A task_events row as a dict with `data` decoded."""
    return {
        "id": row[0],
        "task_id": row[1],
        "at": row[2],
        "kind": row[3],
        "status": row[4],
        "message": row[5],
        "data": None if row[6] is None else json.loads(row[6]),
    }


def list_query(
    status: str | Sequence[str] | None,
    type: str | None,
    limit: int,
    cursor: str | None,
    principal: str | None = None,
    include_unowned: bool = False,
) -> tuple[str, list[Any]]:
    """SQL and parameters for one page of tasks, oldest first, fetching limit+1 rows.

    With `principal`, only that principal's tasks (and, with `include_unowned`, the tasks that
    predate ownership, whose owner is NULL).
    """
    if not 1 <= limit <= 1000:
        raise InvalidParams(f"limit must be between 1 and 1000, got {limit}", fields=["limit"])
    where: list[str] = []
    params: list[Any] = []
    if status is not None:
        wanted = [status] if isinstance(status, str) else list(status)
        values = [parse_status(s).value for s in wanted]
        where.append(f"status IN {placeholders(len(values))}")
        params.extend(values)
    if type is not None:
        where.append("type = ?")
        params.append(type)
    if principal is not None:
        where.append("(owner = ? OR (? = 1 AND owner IS NULL))")
        params.extend([principal, int(include_unowned)])
    if cursor is not None:
        created_at, task_id = decode_cursor(cursor)
        # rowid is insertion order, so tasks made in the same millisecond keep their creation order.
        # A cursor whose task was deleted since resumes after every task of that millisecond's first.
        where.append("(created_at, rowid) > (?, COALESCE((SELECT rowid FROM tasks WHERE id = ?), 0))")
        params.extend([created_at, task_id])
    sql = f"SELECT {TASK_COLUMNS} FROM {TASK_ROW}"
    if where:
        sql += " WHERE " + " AND ".join(where)
    sql += " ORDER BY created_at, rowid LIMIT ?"
    params.append(limit + 1)
    return sql, params


def encode_cursor(task: TaskRecord) -> str:
    """An opaque cursor that resumes listing after `task`."""
    return base64.urlsafe_b64encode(f"{task.created_at}|{task.id}".encode()).decode()


def decode_cursor(cursor: str) -> tuple[str, str]:
    """(created_at, id) from a cursor; InvalidParams if it wasn't made by encode_cursor."""
    try:
        created_at, task_id = base64.urlsafe_b64decode(cursor.encode()).decode().split("|", 1)
    except (ValueError, binascii.Error, UnicodeDecodeError):
        raise InvalidParams(
            f"invalid cursor {cursor!r}",
            hint="Pass back the nextCursor of a previous list call.",
            fields=["cursor"],
        ) from None
    return created_at, task_id


def placeholders(count: int) -> str:
    """'(?, ?, ?)' for an IN list of `count` values; '(NULL)', which matches nothing, for none."""
    return f"({', '.join('?' * count)})" if count else "(NULL)"
