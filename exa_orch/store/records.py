"""Task statuses, the TaskRecord read model, and the text formats the store writes.

Timestamps are ISO-8601 UTC with milliseconds and a Z, so SQLite compares them as text.
JSON columns hold compact JSON text; SQL NULL stands for "none".
"""

from __future__ import annotations

import json
import sqlite3
import time
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


def dumps(value: Any, what: str) -> str:
    """Compact JSON for a column; InvalidParams (naming `what`) when `value` isn't JSON-able."""
    try:
        text = _ENCODER.encode(value)
    except (TypeError, ValueError) as exc:
        raise InvalidParams(f"{what} must be JSON-serializable: {exc}", fields=[what]) from None
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


def iso(epoch_s: float) -> str:
    """Epoch seconds as '2026-11-21T21:30:27.123Z'."""
    global _last_second
    second, ms = divmod(int(epoch_s * 1000), 1000)
    cached = _last_second  # formatting is the slow part and a busy writer stays in one second
    if cached[0] != second:
        cached = _last_second = (second, time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(second)))
    return f"{cached[1]}.{ms:03d}Z"


def iso_after(timestamp: str, ms: int) -> str:
    """The ISO timestamp `ms` milliseconds after `timestamp` (same format)."""
    start = datetime.strptime(timestamp, "%Y-%m-%dT%H:%M:%S.%fZ")
    return (start + timedelta(milliseconds=ms)).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"
