"""A run that ended on a transient Exa error: the task waits a backoff, then a claim resumes it.

A transient error (a 5xx, a 429, a timeout or a dropped connection that outlasted the gateway's own
retries) is no verdict on the task: the run ends, and the task, still `working`, goes back to be
claimed once its backoff is over, resumed from its checkpoints. The wait is the lease itself: the
run hands its lease to a placeholder holder, `BACKOFF_OWNER` + the run's owner, that expires at the
retry time. No claim takes an unexpired lease, so nothing runs the task before then; none renews
it (no process holds leases under that name); a cancel takes it at once (leases.acquire), so a
cancel asked for during the wait ends the task without waiting it out.

The run so ended counts as a run lost without progress, the same streak leases.py keeps for runs
whose servers died (`_lost_streak`: a new checkpoint, or a progress report no earlier run made,
ends it). After MAX_TRANSIENT_RUNS runs in a row end that way with no progress between them, the
task fails with the last error (its code, recoverable: true) and says it was given up: a dead Exa
does not keep a task spinning. A run that made progress starts the count again, so a long task on
a flaky network goes on as long as each run gets somewhere.

The backoff after the n-th such run in a row is BACKOFF_BASE_S * 2**(n-1), at most BACKOFF_MAX_S:
2, 4, 8, 16, 32, 60, 60 s, about three minutes in all before the eighth run gives up.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from exa_orch.errors import LeaseHeld
from exa_orch.store.leases import BACKOFF_OWNER, _lost_streak
from exa_orch.store.records import TERMINAL_STATUSES, TaskRecord, TaskStatus, iso
from exa_orch.store.tasks import Clock, OnFinish, fetch, transition

MAX_TRANSIENT_RUNS = 8
BACKOFF_BASE_S = 2.0
BACKOFF_MAX_S = 60.0


def transient_backoff(runs: int) -> float:
    """Seconds to wait after the `runs`-th run in a row (1-based) that ended on a transient error."""
    return min(BACKOFF_MAX_S, BACKOFF_BASE_S * 2.0 ** (max(1, runs) - 1))


def back_off(
    conn: sqlite3.Connection,
    clock: Clock,
    task_id: str,
    owner: str,
    error: dict[str, Any],
    why: str,
    on_finish: OnFinish | None = None,
) -> TaskRecord:
    """End `owner`'s run of the task on a transient error: the task waits its backoff (its lease
    held by the placeholder until then, its progress saying `why` and when it retries), or, the
    MAX_TRANSIENT_RUNS-th such run in a row with no progress, fails with `error` given up. A task
    whose cancel was requested only loses its lease (the next claim cancels it). LeaseHeld unless
    `owner` holds the lease; the record as it is now."""
    task = fetch(conn, task_id)
    if task.status in TERMINAL_STATUSES:
        return task
    if task.lease_owner != owner:
        raise LeaseHeld(task_id, task.lease_owner or "nobody", holder=task.lease_owner)
    t = clock()
    # The narrow row first (PostgreSQL), as every writer of both rows does (records.TASK_ROW).
    conn.execute("SELECT 1 FROM task_heads WHERE task_id = ? /*pg:FOR UPDATE*/", (task_id,))
    if task.cancel_requested:
        conn.execute("UPDATE tasks SET lease_owner = NULL, lease_expires_at = NULL WHERE id = ?", (task_id,))
        return fetch(conn, task_id)
    runs = max(1, len(_lost_streak(conn, task_id, iso(t)).holders))
    if runs >= MAX_TRANSIENT_RUNS:
        return _give_up(conn, clock, task_id, error, why, runs, on_finish)
    retry_at = iso(t + transient_backoff(runs))
    last = task.progress if isinstance(task.progress, dict) else {}
    progress = {
        **last,
        "message": f"{why}; retrying at {retry_at} (attempt {runs + 1} of {MAX_TRANSIENT_RUNS})",
        "retryAt": retry_at,
    }
    conn.execute(
        "UPDATE tasks SET lease_owner = ?, lease_expires_at = ?, progress = ?, updated_at = ? WHERE id = ?",
        (BACKOFF_OWNER + owner, retry_at, json.dumps(progress), iso(t), task_id),
    )
    return fetch(conn, task_id)


def _give_up(
    conn: sqlite3.Connection,
    clock: Clock,
    task_id: str,
    error: dict[str, Any],
    why: str,
    runs: int,
    on_finish: OnFinish | None,
) -> TaskRecord:
    message = (
        f"Given up after {runs} attempts in a row that each ended on a transient error from Exa with "
        f"no progress between them (backoff {BACKOFF_BASE_S:g} s doubling to {BACKOFF_MAX_S:g} s). "
        f"The last: {why}: {error.get('message')}"
    )
    failed = {**error, "message": message, "recoverable": True, "attempts": runs}
    return transition(
        conn,
        clock,
        task_id,
        TaskStatus.FAILED,
        message,
        None,
        error=json.dumps(failed),
        strict_same=True,
        on_finish=on_finish,
    )
