"""Task statuses, the TaskRecord read model, and the text formats the store writes.

Timestamps are ISO-8601 UTC with milliseconds and a Z, so SQLite compares them as text.
JSON columns hold compact JSON text; SQL NULL stands for "none".
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Any

from exa_orch.errors import InvalidParams


class TaskStatus(StrEnum):
    """A task's lifecycle state; the value is what the `tasks.status` column holds."""

    PENDING = "pending"  # created, waiting for a runner to lease it
    WORKING = "working"  # a runner is executing its workflow
    INPUT_REQUIRED = "input_required"  # a run stopped for its owner's input (meta.inputRequest);
    # no runner holds or claims it until the input arrives (then working, resumed from its checkpoints)
    COMPLETED = "completed"  # finished with a result (terminal)
    FAILED = "failed"  # finished with an error {step, message, recoverable} (terminal)
    CANCELLED = "cancelled"  # stopped on request (terminal)


TERMINAL_STATUSES: frozenset[TaskStatus] = frozenset(
    {TaskStatus.COMPLETED, TaskStatus.FAILED, TaskStatus.CANCELLED}
)
TERMINAL_SQL = "('completed', 'failed', 'cancelled')"
NOT_RUNNABLE_SQL = "('completed', 'failed', 'cancelled', 'input_required')"
"""Statuses a runner never claims: finished, or waiting for input."""
INPUT_REQUEST_META = "inputRequest"
"""The meta key of a waiting task's request: {kind, message, ...} (kind "apiKey": its owner's key)."""


def parse_status(status: str) -> TaskStatus:
    """`status` as a TaskStatus; InvalidParams naming the allowed values otherwise."""
    try:
        return TaskStatus(status)
    except ValueError:
        allowed = ", ".join(s.value for s in TaskStatus)
        raise InvalidParams(
            f"unknown task status {status!r}; use one of: {allowed}", fields=["status"]
        ) from None


@dataclass(frozen=True)
class TaskRecord:
    """One row of `tasks`, with its JSON columns decoded."""

    id: str
    type: str
    status: TaskStatus
    args: dict[str, Any]
    progress: dict[str, Any] | None
    partial: Any
    result: Any
    error: dict[str, Any] | None
    created_at: str
    updated_at: str
    expires_at: str | None
    ttl_ms: int
    lease_owner: str | None
    lease_expires_at: str | None
    meta: dict[str, Any]
    cancel_requested: bool = False
    principal: str | None = (
        None  # column `owner`: who created it ('user:<login>', 'token:<name>'); None before 0003
    )

    @property
    def terminal(self) -> bool:
        """True once the task is completed, failed or cancelled."""
        return self.status in TERMINAL_STATUSES

    @property
    def stopped_by(self) -> str | None:
        """How a finished task stopped short of its end: `budget` or `timeout` (completed with
        `partial: true`, its result's `stoppedBy`), `cancel` (cancelled); None for any other task."""
        if self.status is TaskStatus.CANCELLED:
            return "cancel"
        if self.status is TaskStatus.COMPLETED and isinstance(self.result, dict):
            value = self.result.get("stoppedBy")
            return str(value) if value else None
        return None


# A task as its readers see it: its wide `tasks` row joined to its narrow `task_heads` row
# (migration 0019: the counters a checkpoint or a ledger row updates), under the name `tasks`, with
# the columns the wide row had before (step_count, last_step_key, cost_usd, cost_billed_usd; rowid;
# updated_at the later of the two rows' times). Both databases fold it into the query that uses it.
# The narrow row comes first: on PostgreSQL a `FOR UPDATE` locks it before the wide one, the order
# every writer of both keeps (a checkpoint locks only the narrow one).
TASK_ROW = (
    "(SELECT t.id AS id, t.type AS type, t.status AS status, t.args AS args, t.progress AS progress, "
    "t.partial_result AS partial_result, t.result AS result, t.error AS error, t.created_at AS created_at, "
    "CASE WHEN h.stepped_at > t.updated_at THEN h.stepped_at ELSE t.updated_at END AS updated_at, "
    "t.expires_at AS expires_at, t.ttl_ms AS ttl_ms, t.lease_owner AS lease_owner, "
    "t.lease_expires_at AS lease_expires_at, t.meta AS meta, t.cancel_requested AS cancel_requested, "
    "t.owner AS owner, t.attempts AS attempts, t.rowid AS rowid, h.step_count AS step_count, "
    "h.last_step_key AS last_step_key, h.cost_usd AS cost_usd, h.cost_billed_usd AS cost_billed_usd "
    "FROM task_heads h JOIN tasks t ON t.id = h.task_id) AS tasks"
)

# The column order `record_from_row` expects; every query that builds records selects this.
TASK_COLUMNS = (
    "id, type, status, args, progress, partial_result, result, error, created_at, updated_at, "
    "expires_at, ttl_ms, lease_owner, lease_expires_at, meta, cancel_requested, owner"
)


def _load(text: str | None) -> Any:
    return None if text is None else json.loads(text)


def record_from_row(row: tuple[Any, ...] | sqlite3.Row) -> TaskRecord:
    """A TaskRecord from a row selected with TASK_COLUMNS."""
    return TaskRecord(
        id=row[0],
        type=row[1],
        status=TaskStatus(row[2]),
        args=json.loads(row[3]),
        progress=_load(row[4]),
        partial=_load(row[5]),
        result=_load(row[6]),
        error=_load(row[7]),
        created_at=row[8],
        updated_at=row[9],
        expires_at=row[10],
        ttl_ms=row[11],
        lease_owner=row[12],
        lease_expires_at=row[13],
        meta=json.loads(row[14]),
        cancel_requested=bool(row[15]),
        principal=row[16],
    )


# One encoder for every column: json.dumps with options builds a new one per call.
_ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, allow_nan=False)
# For text SQLite can't store as UTF-8 (lone surrogates, which json.loads accepts as "\ud800"):
# \u escapes keep it lossless.
_ASCII_ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=True, allow_nan=False)


def _c_encoder(encoder: json.JSONEncoder) -> Callable[[Any], str] | None:
    """`encoder.encode` without its per-call set-up: JSONEncoder.encode builds a new C encoder on
    every call, which costs more than encoding a checkpoint's few hundred bytes (bench/store.py).
    The same C encoder, made once, with no circular-reference markers (a shared markers dict would
    be left dirty by a failed encode): a cycle, or nesting deeper than the recursion limit, raises
    RecursionError, which `dumps` reports as it reports any value JSON can't hold. None where
    CPython's C accelerator is missing."""
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:
        return None
    escape = json.encoder.encode_basestring_ascii if encoder.ensure_ascii else json.encoder.encode_basestring
    chunks = make(
        None,
        encoder.default,
        escape,
        encoder.indent,
        encoder.key_separator,
        encoder.item_separator,
        encoder.sort_keys,
        encoder.skipkeys,
        encoder.allow_nan,
    )
    join = "".join

    def encode(value: Any) -> str:
        return join(chunks(value, 0))

    return encode


_encode: Callable[[Any], str] = _c_encoder(_ENCODER) or _ENCODER.encode


def dumps(value: Any, what: str, key: str | None = None) -> str:
    """Compact JSON for a column; InvalidParams (naming `what`, followed by `key` if given: the
    name is only formatted on failure) when `value` isn't JSON-able (an object JSON has no form
    for, NaN or infinity, a cycle, or nesting too deep to encode)."""
    try:
        text = _encode(value)
    except (TypeError, ValueError, RecursionError) as exc:
        if isinstance(exc, RecursionError):
            exc = ValueError("it refers to itself or is nested too deep")
        name = what if key is None else f"{what} {key!r}"
        raise InvalidParams(f"{name} must be JSON-serializable: {exc}", fields=[name]) from None
    if not text.isascii():  # O(1) in CPython; only non-ASCII text pays for the check below
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            return _ASCII_ENCODER.encode(value)
    return text


def dumps_or_none(value: Any, what: str) -> str | None:
    """Like `dumps`, but None stays SQL NULL."""
    return None if value is None else dumps(value, what)


_last_second: tuple[int, str] = (-1, "")
_last_ms: tuple[int, str] = (-1, "")


def iso(epoch_s: float) -> str:
    """Epoch seconds as '2026-11-21T21:30:27.123Z'."""
    global _last_second, _last_ms
    total_ms = int(epoch_s * 1000)
    last = _last_ms  # a busy store stamps many writes in one millisecond
    if last[0] == total_ms:
        return last[1]
    second, ms = divmod(total_ms, 1000)
    cached = _last_second  # formatting is the slow part and a busy writer stays in one second
    if cached[0] != second:
        cached = _last_second = (second, time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(second)))
    text = f"{cached[1]}.{ms:03d}Z"
    _last_ms = (total_ms, text)
    return text


def iso_after(timestamp: str, ms: int) -> str:
    """The ISO timestamp `ms` milliseconds after `timestamp` (same format)."""
    start = datetime.strptime(timestamp, "%Y-%m-%dT%H:%M:%S.%fZ")
    return (start + timedelta(milliseconds=ms)).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"
