"""The run pool's book: who holds or waits for one of the team's agent-run (or webset) slots.

One table, `run_slots` (migration 0010), shared by every server on the database. Everything a
process does to it is one `round` (one transaction, on the writer; on PostgreSQL under an advisory
lock, so servers take turns): it applies the process's pending changes (new waiters, runs bound to
their slots, releases, runs seen), renews the rows it owns, reclaims the rows of owners that died
or stopped renewing, grants free slots fairly, and reports back where its waiters stand.

Fair: a free slot goes to the waiting principal holding the fewest slots (active ones, and those
granted before it in the same round), ties to the one waiting longest; within a principal, its
oldest waiter first. So principals that are waiting share the pool equally, and a principal with
one task is not stuck behind another's hundred runs. The same order, computed again after the
grants, gives each waiter its place in line.

Reclaiming: a row is its owner's while the owner renews it (each round does, for all of its rows)
and its owner lives (a dead process on this host is seen at once, as for task leases,
store/leases.py). A lapsed waiting row is dropped (its task will ask again when it resumes); a
lapsed active row without a run (a create that may or may not have reached Exa) is released; a
lapsed active row with a run is adopted by the process running the round: the run may still be
going at Exa, so it keeps its slot, and its new owner watches it until it ends.
"""

from __future__ import annotations

import heapq
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from exa_orch.store.leases import owner_is_dead
from exa_orch.store.records import iso
from exa_orch.store.tasks import Clock

_LOCK = 7_345_219_002  # pg_advisory_xact_lock key: one round at a time across servers
KEEP_DONE_S = 3600.0  # released rows are kept this long (the grant order), then pruned


@dataclass
class SlotChanges:
    """What one process asks of a round (each list may be empty)."""

    enqueue: list[tuple[str, str | None]] = field(default_factory=list)
    """new waiters: (principal, task id); their row ids come back in `SlotRound.new_ids`, in order"""
    bind: list[tuple[int, str]] = field(default_factory=list)
    """(row id, run id): the create a granted slot was for answered with this run"""
    release: list[int] = field(default_factory=list)
    """rows to release (a cancelled wait, a create Exa refused)"""
    release_runs: list[str] = field(default_factory=list)
    """runs seen finished (or gone): their slots are released, whoever holds them"""
    seen: list[tuple[str, str, str | None]] = field(default_factory=list)
    """(run id, principal, task id) seen still going: its slot is touched, adopted if its owner
    lapsed, or made (an active run nobody counted: created before the pool, or by a lost create)"""

    def __bool__(self) -> bool:
        return bool(self.enqueue or self.bind or self.release or self.release_runs or self.seen)


@dataclass
class SlotRound:
    """What a round tells the process that ran it."""

    new_ids: list[int]
    states: dict[int, str]
    """every row this process asked about (its waiters and holders): 'waiting', 'active' or 'done'"""
    places: dict[int, int]
    """this process's waiting rows: their place in line (1 = next), across every server"""
    active: int
    waiting: int
    watch: list[tuple[int, str, str]]
    """this process's active rows with a run not seen for `stale_s`: (row id, run id, principal)"""


def fair_order(held: dict[str, int], waiting: Iterable[tuple[int, str]]) -> list[int]:
    """The order in which waiters get slots: `held` is each principal's active slots, `waiting`
    (row id, principal) oldest first. See the module doc."""
    queues: dict[str, list[int]] = {}
    for row_id, principal in waiting:
        queues.setdefault(principal, []).append(row_id)
    heap = [(held.get(p, 0), ids[0], p) for p, ids in queues.items()]
    heapq.heapify(heap)
    order: list[int] = []
    taken = dict.fromkeys(queues, 0)
    while heap:
        count, _, principal = heapq.heappop(heap)
        ids = queues[principal]
        order.append(ids[taken[principal]])
        taken[principal] += 1
        if taken[principal] < len(ids):
            heapq.heappush(heap, (count + 1, ids[taken[principal]], principal))
    return order


def _lapsed(owner: str, me: str, expires_at: str, now: str) -> bool:
    return owner != me and (expires_at <= now or owner_is_dead(owner))


def run_round(
    conn: Any,
    clock: Clock,
    *,
    pool: str,
    owner: str,
    ttl_s: float,
    limit: int,
    rate: float,
    changes: SlotChanges,
    asking: Sequence[int],
    stale_s: float,
) -> SlotRound | None:
    """One round (see the module doc) on the writer's connection, inside its transaction; None
    when another server's round holds the pool (PostgreSQL): nothing was done, ask again soon.
    (Not waited for: the writer's whole batch would wait, and a stopped server's transaction
    holds the lock until the database ends it.)

    Its steps, in order: this process's news is written (`_write_changes`), the live rows are
    read and lapsed holders' rows ended or adopted (`_read_live`), free slots are granted in fair
    order (`_grant`), and the rows asked about are answered (`_states_of`)."""
    got = conn.execute(f"/*pg:SELECT pg_try_advisory_xact_lock({_LOCK})*/").fetchone()
    if got is not None and not got[0]:
        return None
    t = clock()
    now, until = iso(t), iso(t + ttl_s)
    new_ids = _write_changes(conn, changes, pool=pool, owner=owner, now=now, until=until)
    conn.execute(
        "UPDATE run_slots SET expires_at = ? WHERE pool = ? AND owner = ? AND state <> 'done'",
        (until, pool, owner),
    )
    held, waiting, mine_active = _read_live(conn, pool=pool, owner=owner, now=now, until=until)
    active = sum(held.values())
    free = limit - active
    if free > 0 and waiting:
        recent = conn.execute(
            "SELECT count(*) FROM run_slots WHERE pool = ? AND granted_at > ?", (pool, iso(t - 1.0))
        ).fetchone()[0]
        free = min(free, max(1, int(rate)) - int(recent))
    if free > 0 and waiting:
        granted = _grant(conn, pool, now, fair_order(held, waiting)[:free], held, dict(waiting))
        waiting = [w for w in waiting if w[0] not in granted]
        active += len(granted)
    line = fair_order(held, waiting)
    mine = set(new_ids) | set(asking)
    places = {row_id: place for place, row_id in enumerate(line, 1) if row_id in mine}
    states = _states_of(conn, sorted(mine))
    stale = iso(t - stale_s)
    watch = [(r, run, p) for r, run, p, seen in mine_active if seen is None or seen <= stale]
    conn.execute(
        "DELETE FROM run_slots WHERE pool = ? AND state = 'done' AND released_at < ?",
        (pool, iso(t - KEEP_DONE_S)),
    )
    return SlotRound(new_ids, states, places, active, len(waiting), watch)


def _write_changes(
    conn: Any, changes: SlotChanges, *, pool: str, owner: str, now: str, until: str
) -> list[int]:
    """Write this process's news since its last round: rows asked for (their new ids returned),
    runs bound to their rows, rows released, runs seen going (taken in or renewed) and runs
    seen finished (after `seen`: a run's end is the later news)."""
    new_ids: list[int] = []
    for principal, task_id in changes.enqueue:
        row = conn.execute(
            "INSERT INTO run_slots (pool, principal, task_id, owner, expires_at, state, enqueued_at) "
            "VALUES (?, ?, ?, ?, ?, 'waiting', ?) RETURNING id",
            (pool, principal, task_id, owner, until, now),
        ).fetchone()
        new_ids.append(int(row[0]))
    for row_id, run_id in changes.bind:
        conn.execute(
            "UPDATE run_slots SET run_id = ?, seen_at = ? WHERE id = ? AND state = 'active'",
            (run_id, now, row_id),
        )
    for row_id in changes.release:
        conn.execute(
            "UPDATE run_slots SET state = 'done', released_at = ? WHERE id = ? AND state <> 'done'",
            (now, row_id),
        )
    finished = set(changes.release_runs)
    for run_id, principal, task_id in changes.seen:
        if run_id in finished:  # seen going, then seen finished: only the later news counts
            continue
        _seen_going(conn, pool, owner, run_id, principal, task_id, now=now, until=until)
    for run_id in changes.release_runs:  # after `seen`: a run's end is the later news
        conn.execute(
            "UPDATE run_slots SET state = 'done', released_at = ? "
            "WHERE pool = ? AND run_id = ? AND state = 'active'",
            (now, pool, run_id),
        )
    return new_ids


def _seen_going(
    conn: Any,
    pool: str,
    owner: str,
    run_id: str,
    principal: str,
    task_id: str | None,
    *,
    now: str,
    until: str,
) -> None:
    """A run this process saw still going: its active rows renewed (adopted when their holder is
    this process or has lapsed), or a row taken in for it if it has none."""
    rows = conn.execute(
        "SELECT id, owner, expires_at, state FROM run_slots WHERE pool = ? AND run_id = ?",
        (pool, run_id),
    ).fetchall()
    found = [(row_id, holder, expires_at) for row_id, holder, expires_at, state in rows if state == "active"]
    # A run with no row at all is taken in (made before the pool, or by a process that lost its
    # row); one whose row is done was seen finished already (by another process, or by a later
    # answer of this one): news of it going is older than that, and takes no slot again.
    if not rows:
        conn.execute(
            "INSERT INTO run_slots (pool, principal, task_id, owner, expires_at, state, run_id, "
            "enqueued_at, granted_at, seen_at) VALUES (?, ?, ?, ?, ?, 'active', ?, ?, ?, ?)",
            (pool, principal, task_id, owner, until, run_id, now, now, now),
        )
    for row_id, holder, expires_at in found:
        adopt = holder == owner or _lapsed(holder, owner, expires_at, now)
        conn.execute(
            "UPDATE run_slots SET seen_at = ?, owner = ?, expires_at = ? WHERE id = ?",
            (now, owner if adopt else holder, until if adopt else expires_at, row_id),
        )


def _read_live(
    conn: Any, *, pool: str, owner: str, now: str, until: str
) -> tuple[dict[str, int], list[tuple[int, str]], list[tuple[int, str, str, str | None]]]:
    """The pool's live rows as (slots held per principal, waiting (row, principal) in order, this
    process's active rows with a run (row, run, principal, seen_at)). A lapsed holder's waiting
    row (or active row with no run yet) ends; its active row with a run is adopted by this
    process and watched from here on."""
    live = conn.execute(
        "SELECT id, principal, owner, expires_at, state, run_id, seen_at FROM run_slots "
        "WHERE pool = ? AND state <> 'done' ORDER BY id",
        (pool,),
    ).fetchall()
    held: dict[str, int] = {}
    waiting: list[tuple[int, str]] = []
    mine_active: list[tuple[int, str, str, str | None]] = []
    for row_id, principal, holder, expires_at, state, run_id, seen_at in live:
        if _lapsed(holder, owner, expires_at, now):
            if state == "waiting" or run_id is None:
                conn.execute(
                    "UPDATE run_slots SET state = 'done', released_at = ? WHERE id = ?", (now, row_id)
                )
                continue
            conn.execute(  # a run still counted: adopted, and watched from here on
                "UPDATE run_slots SET owner = ?, expires_at = ?, seen_at = NULL WHERE id = ?",
                (owner, until, row_id),
            )
            holder, seen_at = owner, None
        if state == "waiting":
            waiting.append((row_id, principal))
            continue
        held[principal] = held.get(principal, 0) + 1
        if holder == owner and run_id is not None:
            mine_active.append((row_id, run_id, principal, seen_at))
    return held, waiting, mine_active


def _grant(
    conn: Any, pool: str, now: str, order: list[int], held: dict[str, int], principal_of: dict[int, str]
) -> set[int]:
    """Grant the waiting rows `order` (in that order, numbered on from the pool's last grant);
    `held` counts them for their principals. Returns the rows granted."""
    seq = conn.execute(
        "SELECT coalesce(max(grant_seq), 0) FROM run_slots WHERE pool = ?", (pool,)
    ).fetchone()[0]
    for row_id in order:
        seq += 1
        conn.execute(
            "UPDATE run_slots SET state = 'active', granted_at = ?, grant_seq = ? WHERE id = ?",
            (now, seq, row_id),
        )
        held[principal_of[row_id]] = held.get(principal_of[row_id], 0) + 1
    return set(order)


def _states_of(conn: Any, ids: list[int]) -> dict[int, str]:
    """The state of each row of `ids` (asked in chunks of 500: SQLite's bound on parameters)."""
    states: dict[int, str] = {}
    for start in range(0, len(ids), 500):
        chunk = ids[start : start + 500]
        marks = ", ".join("?" * len(chunk))
        for row_id, state in conn.execute(
            f"SELECT id, state FROM run_slots WHERE id IN ({marks})", tuple(chunk)
        ).fetchall():
            states[int(row_id)] = str(state)
    return states


def memory_connection(migrations_dir: Path) -> sqlite3.Connection:
    """An in-memory SQLite database with the `run_slots` table: the book of a gateway that has no
    store (one process's pool; tests, benchmarks, an embedding program)."""
    conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
    found = sorted(migrations_dir.glob("*_run_slots.sql"))
    if not found:
        raise FileNotFoundError(f"no *_run_slots.sql migration in {migrations_dir}")
    conn.executescript(found[0].read_text())
    return conn
