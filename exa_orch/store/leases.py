"""Leases: which process runs a task. Several processes may share one database file.

A lease is (lease_owner, lease_expires_at) on the task row. An owner is "<host>:<pid>:<random>".
A lease can be taken when it is free, expired, already ours, or held by a process on this host
that no longer exists or is a zombie (a crashed server doesn't make its tasks wait out the TTL).
Every take is a check-and-set inside the writer's `BEGIN IMMEDIATE` transaction, so among
processes racing for the same lease exactly one wins. The holder renews its leases by heartbeat;
a finished task drops its lease.

A task whose runs were lost in a row without progress (each holder died or stalled before saving a
new checkpoint) is failed with TASK_ABANDONED by the claim that would start it once more: a task
that crashes every server running it must not take servers down forever. How many lost runs that
takes depends on whether the deaths point at the task (`_verdict`): MAX_LOST_RUNS when they do (a
holder that lived through the lapse named this task the suspect: its code held the event loop; or
every server that died meanwhile, on the whole database, was running this task), MAX_RECOVERIES
(DBOS's default of recovery attempts) when servers not running it died too: then servers are being
killed from outside (a host's OOM killer, a deploy, chaos), which is no evidence against the task,
and each further start waits a backoff after the previous one (`recovery_backoff`). A run that
saved a checkpoint before it was lost made progress: a long task on a busy host whose servers keep
getting killed goes on.

A run whose holder lived on (its event loop stalled, or the whole process was stopped or starved
past the TTL, and it woke to find the lease taken) is not the task's fault: the holder notes the
lapse on the claim that took the lease (`note_lapse`), naming whether this task was the suspect
(its own code held the holder's event loop; runtime/stallwatch.py). A lapse noted without suspicion ends the count of runs lost in
a row, as progress does: a stall strikes only the task that caused it, never every task its
process held. A holder that never notes (it died) leaves its runs counted as lost.

A run that ended on a transient Exa error hands its lease to a placeholder (`BACKOFF_OWNER`) that
expires at its retry time; the claim after it counts that run as lost, in the same streak, and
store/backoff.py gives the task up once the streak is long enough.
"""

from __future__ import annotations

import json
import os
import secrets
import socket
import sqlite3
import sys

from exa_orch.errors import ErrorCode, InvalidParams
from exa_orch.store.records import (
    NOT_RUNNABLE_SQL,
    TASK_ROW,
    TERMINAL_SQL,
    TERMINAL_STATUSES,
    TaskRecord,
    TaskStatus,
    iso,
    iso_after,
)
from exa_orch.store.tasks import Clock, OnFinish, add_event, fetch, placeholders, transition

HOST = socket.gethostname()
# Runs lost in a row when the deaths point at the task. Eight, not fewer: a task queued behind
# others in the gateway can lose a few runs in a row before its first call answers.
MAX_LOST_RUNS = 8
# Runs lost in a row when servers not running the task died too (killed from outside): DBOS's
# default max_recovery_attempts, each start after the eighth spaced by `recovery_backoff`.
MAX_RECOVERIES = 100
BACKOFF_CAP_S = 30.0
# The lease holder of a task waiting out its backoff after a transient Exa error (store/backoff.py),
# followed by the owner whose run ended so: no process holds leases under it, so none renews it, and
# no claim takes it before it expires. It names no host, so it is never taken for a dead process.
BACKOFF_OWNER = "backoff:"


def recovery_backoff(lost: int) -> float:
    """Seconds a task that lost `lost` runs in a row, not blamed for them, waits after its last
    start before the next: none up to MAX_LOST_RUNS, then 0.5 s doubling to BACKOFF_CAP_S."""
    if lost < MAX_LOST_RUNS:
        return 0.0
    return min(BACKOFF_CAP_S, 0.5 * 2.0 ** (lost - MAX_LOST_RUNS))


# Every owner id this process uses. A holder with this host and this pid that is not among them
# belonged to an earlier process that had the same pid: a restarted container's server is pid 1
# again, and must not wait out the lease TTL of its dead predecessor.
_OWNED_HERE: set[str] = set()


def new_owner_id() -> str:
    """A lease owner id for this process: '<host>:<pid>:<random>'."""
    return use_owner_id(f"{HOST}:{os.getpid()}:{secrets.token_hex(4)}")


def use_owner_id(owner: str) -> str:
    """Note that this process holds leases as `owner` (so it never counts as dead here); return it."""
    _OWNED_HERE.add(owner)
    return owner


def owner_is_dead(owner: str) -> bool:
    """True if `owner` names a process on this host that no longer exists."""
    host, _, rest = owner.partition(":")
    pid_text = rest.partition(":")[0]
    if host != HOST or not pid_text.isdigit():
        return False
    pid = int(pid_text)
    if pid == os.getpid():
        return owner not in _OWNED_HERE
    if sys.platform == "win32":
        # On Windows os.kill(pid, 0) would terminate the process; rely on expiry there.
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except OSError:  # EPERM: it exists, owned by someone else
        pass
    # It exists, but a SIGKILLed server that its parent hasn't reaped yet exists as a zombie.
    return _exited(pid)


def _exited(pid: int) -> bool:
    """True if `pid` is a zombie: it has exited, but its parent hasn't reaped it yet (Linux /proc)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            line = stat.read()
    except OSError:  # no /proc (macOS), or the process went away meanwhile (then expiry frees it)
        return False
    # "pid (comm) state ...": comm may itself hold ") ", so the state follows the last ")".
    end = line.rfind(b")")
    return line[end + 2 : end + 3] in (b"Z", b"X")


def _check_ttl(ttl_s: float) -> None:
    if not ttl_s > 0:
        raise InvalidParams(f"a lease TTL must be positive, got {ttl_s}", fields=["ttl_s"])


def _takeable(owner: str, holder: str | None, expires_at: str | None, now: str) -> bool:
    if holder is None or holder == owner or holder.startswith(BACKOFF_OWNER):
        return True  # a backoff's wait is no run: a cancel (acquire) may take it at once
    if expires_at is None or expires_at <= now:
        return True
    return owner_is_dead(holder)


def _take(
    conn: sqlite3.Connection,
    task_id: str,
    owner: str,
    previous: str | None,
    status: str,
    now: str,
    until: str,
) -> None:
    if previous == owner:
        conn.execute("UPDATE tasks SET lease_expires_at = ? WHERE id = ?", (until, task_id))
        return
    if previous is not None and previous.startswith(BACKOFF_OWNER):
        _end_wait(conn, task_id)
    conn.execute(
        "UPDATE tasks SET lease_owner = ?, lease_expires_at = ?, attempts = attempts + 1, updated_at = ? "
        "WHERE id = ?",
        (owner, until, now, task_id),
    )
    add_event(conn, task_id, now, "claimed", status, None, json.dumps({"owner": owner, "previous": previous}))


def _end_wait(conn: sqlite3.Connection, task_id: str) -> None:
    """The backoff is over: the task's progress stops announcing the retry (store/backoff.py)."""
    row = conn.execute("SELECT progress FROM tasks WHERE id = ?", (task_id,)).fetchone()
    progress = json.loads(row[0]) if row and row[0] else None
    if isinstance(progress, dict) and "retryAt" in progress:
        progress.pop("retryAt")
        progress["message"] = "retrying now: " + str(progress.get("message", "")).split("; retrying at")[0]
        conn.execute("UPDATE tasks SET progress = ? WHERE id = ?", (json.dumps(progress), task_id))


def acquire(conn: sqlite3.Connection, clock: Clock, task_id: str, owner: str, ttl_s: float) -> bool:
    """Take or extend the lease; False if another live owner holds it or the task is finished."""
    _check_ttl(ttl_s)
    task = fetch(conn, task_id)
    if task.status in TERMINAL_STATUSES:
        return False
    t = clock()
    now = iso(t)
    if not _takeable(owner, task.lease_owner, task.lease_expires_at, now):
        return False
    _take(conn, task_id, owner, task.lease_owner, task.status, now, iso(t + ttl_s))
    return True


def renew(
    conn: sqlite3.Connection, clock: Clock, owner: str, ttl_s: float, task_ids: list[str] | None = None
) -> int:
    """Push back the expiry of every unfinished task `owner` holds (of `task_ids` if given); return how many."""
    _check_ttl(ttl_s)
    # The narrow rows first, in id order (PostgreSQL), as every writer of both rows locks them
    # (records.TASK_ROW): the wide rows alone, in a batch with a checkpoint of one of them (its
    # narrow row) could deadlock with another server's cancel of it (narrow row, then wide).
    held = f"SELECT id FROM tasks WHERE lease_owner = ? AND status NOT IN {TERMINAL_SQL}"
    params: tuple[object, ...] = (owner,)
    if task_ids is not None:
        held += f" AND id IN {placeholders(len(task_ids))}"
        params += tuple(task_ids)
    sql = (
        f"UPDATE tasks SET lease_expires_at = ? WHERE lease_owner = ? AND status NOT IN {TERMINAL_SQL} AND id IN "
        f"(SELECT task_id FROM task_heads WHERE task_id IN ({held}) ORDER BY task_id /*pg:FOR UPDATE*/)"
    )
    params = (iso(clock() + ttl_s), owner, *params)
    return conn.execute(sql, params).rowcount


def release(conn: sqlite3.Connection, task_id: str, owner: str) -> None:
    """Drop the lease if `owner` holds it (otherwise nothing changes)."""
    # The narrow row first (PostgreSQL), as every writer of both rows does (records.TASK_ROW).
    conn.execute("SELECT 1 FROM task_heads WHERE task_id = ? /*pg:FOR UPDATE*/", (task_id,))
    conn.execute(
        "UPDATE tasks SET lease_owner = NULL, lease_expires_at = NULL WHERE id = ? AND lease_owner = ?",
        (task_id, owner),
    )


def claim_runnable(
    conn: sqlite3.Connection,
    clock: Clock,
    owner: str,
    ttl_s: float,
    limit: int,
    types: list[str] | None = None,
    on_finish: OnFinish | None = None,
) -> list[TaskRecord]:
    """Lease up to `limit` unfinished tasks nobody live holds (of `types` if given), oldest first;
    a task waiting for input (input_required) is not runnable.

    A task given up on (its runs kept dying) fails here, with `on_finish` as for any transition."""
    _check_ttl(ttl_s)
    if limit < 1:
        return []
    t = clock()
    now = iso(t)
    until = iso(t + ttl_s)
    # Candidates: free or expired leases, plus any held from this host (liveness checked below).
    sql = (
        f"SELECT id, status, lease_owner, lease_expires_at FROM {TASK_ROW} WHERE status NOT IN {NOT_RUNNABLE_SQL} "
        "AND (lease_owner IS NULL OR lease_expires_at IS NULL OR lease_expires_at <= ? "
        "OR (substr(lease_owner, 1, ?) = ? AND lease_owner <> ?))"
    )
    params: tuple[object, ...] = (now, len(HOST) + 1, HOST + ":", owner)
    if types is not None:
        sql += f" AND type IN {placeholders(len(types))}"
        params += tuple(types)
    # On PostgreSQL, rows another server is deciding on (or checkpointing) right now are skipped, not
    # waited for; the narrow row is locked first, as by every writer of both (records.TASK_ROW).
    rows = conn.execute(sql + " ORDER BY created_at, rowid /*pg:FOR UPDATE SKIP LOCKED*/", params).fetchall()
    claimed: list[TaskRecord] = []
    for task_id, status, holder, expires_at in rows:
        if len(claimed) >= limit:
            break
        # Our own lease shows up here only once expired: its actor died (or never started), so
        # it is taken again like any orphan; a runner still alive here is not started twice.
        if not _takeable(owner, holder, expires_at, now):
            continue
        # Our own lapsed lease is no lost run: the run is still ours (this process stalled and woke).
        # A run that ended in a backoff was judged then (store/backoff.py): its wait is over.
        if holder not in (None, owner) and not holder.startswith(BACKOFF_OWNER):
            verdict = _verdict(conn, task_id, now)
            if verdict == "wait":
                continue  # its recovery backoff: a later claim takes it
            if verdict is not None:
                _give_up(conn, clock, task_id, on_finish, *verdict)
                continue
        _take(conn, task_id, owner, holder, status, now, until)
        claimed.append(fetch(conn, task_id))
    return claimed


def _verdict(conn: sqlite3.Connection, task_id: str, now: str) -> tuple[int, bool] | str | None:
    """What a claim taking the task from a holder that had not let go does: None (take it), "wait"
    (its recovery backoff is not over), or (lost runs, blamed) to give it up."""
    streak = _lost_streak(conn, task_id, now)
    lost = len(streak.holders)
    if lost < MAX_LOST_RUNS:
        return None
    blamed = streak.suspect or not _died_elsewhere(conn, task_id, streak)
    if blamed or lost >= MAX_RECOVERIES:
        return (lost, blamed)
    if now < iso_after(streak.last_start, round(recovery_backoff(lost) * 1000)):
        return "wait"
    return None


class _Streak:
    """The task's latest runs lost in a row: each one's holder, when the first began, when the
    last began, and whether a holder that lived through its lapse named the task the suspect."""

    def __init__(self) -> None:
        self.holders: list[str] = []
        self.first_start = ""
        self.last_start = ""
        self.suspect = False


def _died_elsewhere(conn: sqlite3.Connection, task_id: str, streak: _Streak) -> bool:
    """Whether, since the streak began, a server that never held this task in it died holding
    another task (a claim took that task from it, and it did not say it lived through a lapse):
    servers are dying whatever this task does. Read only once a streak is MAX_LOST_RUNS long."""
    mine = set(streak.holders)
    for data in conn.execute(
        "SELECT data FROM task_events WHERE kind = 'claimed' AND at >= ? AND task_id <> ?",
        (streak.first_start, task_id),
    ).fetchall():
        claim = json.loads(data[0])
        previous, lapse = claim.get("previous"), claim.get("lapse")
        if previous is None or previous in mine or isinstance(lapse, dict):
            continue
        if not previous.startswith(BACKOFF_OWNER):  # a backoff's wait ending is no server death
            return True
    return False


def _lost_streak(conn: sqlite3.Connection, task_id: str, now: str) -> _Streak:
    """How many of the task's latest runs, in a row, were lost (taken over from a holder that had not
    let go: it died or stalled) without saving a checkpoint; the run being taken over now counts.

    A run lasts from its claim to the next claim (or `now`); it was lost when that next claim took
    the lease from it, and made progress when a checkpoint was saved in between, or a progress
    report no earlier run had made (a long wait on Exa reports what it finds, but saves nothing
    until it ends; a run that dies at the same point each time repeats the same reports).

    A lost run its holder noted as a lapse it lived through, with this task not the suspect, ends
    the count too (`note_lapse`)."""
    # Whether a claim took the lease from a holder is read in Python: the same SQL runs on both backends.
    claims: list[tuple[str, bool, bool]] = []
    holders: list[str | None] = []  # whom each claim took the lease from
    suspects: list[bool] = []  # whether that holder lived through the lapse and named this task
    for at, data in conn.execute(
        "SELECT at, data FROM task_events WHERE task_id = ? AND kind = 'claimed' ORDER BY id", (task_id,)
    ).fetchall():
        claim = json.loads(data)
        # taken: the claim took the lease from a holder; innocent: that holder lived on and says
        # the lapse was its process's, not this task's (note_lapse).
        lapse = claim.get("lapse")
        innocent = isinstance(lapse, dict) and lapse.get("suspect") is False
        claims.append((at, claim.get("previous") is not None, innocent))
        holders.append(claim.get("owner"))
        suspects.append(isinstance(lapse, dict) and lapse.get("suspect") is True)
    saves = [row[0] for row in conn.execute("SELECT saved_at FROM task_steps WHERE task_id = ?", (task_id,))]
    reports = conn.execute(
        "SELECT at, data FROM task_events WHERE task_id = ? AND kind = 'progress' ORDER BY id", (task_id,)
    ).fetchall()
    streak = _Streak()
    if not claims:  # held, yet never claimed (a row restored without its events): nothing to count
        return streak
    ends = [(at, taken and not innocent) for at, taken, innocent in claims[1:]] + [(now, True)]
    # The run that ends at claim i+1 was held by claim i's owner; the note on claim i+1 is its word.
    words = [*suspects[1:], False]
    runs = list(zip(claims, ends, holders, words, strict=True))
    for (start, _, _), (end, taken), holder, suspect in reversed(runs):
        if not taken or any(start < saved <= end for saved in saves):
            break
        before = {data for at, data in reports if at <= start}
        if any(start < at <= end and data not in before for at, data in reports):
            break
        streak.holders.append(holder or "")
        streak.first_start = start
        streak.last_start = streak.last_start or start
        streak.suspect = streak.suspect or suspect
    return streak


def note_lapse(
    conn: sqlite3.Connection, clock: Clock, task_id: str, owner: str, taken_by: str, suspect: bool
) -> bool:
    """Record that `owner` lived through losing its lease on `task_id` to `taken_by`: its run was
    lost to a stall of the whole process, not to the task, unless `suspect` (the task's own code
    held the event loop). The note is the holder's word on the claim that took the lease from it
    (the latest claim by `taken_by` from `owner`). False if there is no such claim (the task is gone)."""
    rows = conn.execute(
        "SELECT id, data FROM task_events WHERE task_id = ? AND kind = 'claimed' ORDER BY id DESC", (task_id,)
    ).fetchall()
    for event_id, data in rows:
        claim = json.loads(data)
        if claim.get("previous") == owner and claim.get("owner") == taken_by:
            if "lapse" not in claim:
                claim["lapse"] = {"at": iso(clock()), "suspect": suspect}
                conn.execute("UPDATE task_events SET data = ? WHERE id = ?", (json.dumps(claim), event_id))
            return True
    return False


def _give_up(
    conn: sqlite3.Connection, clock: Clock, task_id: str, on_finish: OnFinish | None, lost: int, blamed: bool
) -> None:
    row = conn.execute("SELECT last_step_key FROM task_heads WHERE task_id = ?", (task_id,)).fetchone()
    step = row[0] if row and row[0] else None
    why = (
        "it may be what brings them down (no server died meanwhile that was not running it, or one "
        "that lived through its stall named it)"
        if blamed
        else "servers not running it died too, but none of these runs got further"
    )
    message = (
        f"{lost} server processes died or stalled in a row while running this task, none of "
        f"them saving a new checkpoint (the last step saved: {step or '(none)'}), so it is not started "
        f"again: {why}. Check the server logs around that step; create the task again to retry."
    )
    error = {
        "step": step or "workflow",
        "message": message,
        "recoverable": False,
        "code": ErrorCode.TASK_ABANDONED.value,
    }
    transition(
        conn,
        clock,
        task_id,
        TaskStatus.FAILED,
        "abandoned: its runs kept dying",
        None,
        error=json.dumps(error),
        on_finish=on_finish,
    )
