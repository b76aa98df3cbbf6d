"""The MAP-Elites archive: one `workflow_runs` row per finished task run, with its elites.

A run is filed under the workflow whose `task_type` matches the task's type; `v_archive` then
shows the best completed run of each cell (the five coordinates).

Archetypes: each task type's `workflows` row and `workflow_steps` come from its WorkflowSpec
(`Archetype`); `sync_archetypes` writes them at start-up (insert a new one, update a changed one),
so a new workflow needs no migration. Rows no spec names are left alone (runs may point at them).
The SQL is plain (`?` placeholders, no SQLite-only syntax) so that a backend which runs these
functions on another DB-API connection can run it unchanged.

Live filing: the Store is given an extractor per task type (`Store.archive_runs`); when a task of
such a type ends (completed, failed or cancelled), `file_run` inserts its run in the same
transaction as the terminal transition, so a crash loses neither nor files a run twice.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from exa_orch.errors import ConfigError, InvalidParams
from exa_orch.store.records import TaskRecord, dumps, iso
from exa_orch.store.tasks import Clock

logger = logging.getLogger(__name__)

# Metrics with their own column; anything else in `metrics` is kept in the JSON column.
METRIC_COLUMNS = (
    "rounds",
    "item_count",
    "niches",
    "possible_niches",
    "elite_count",
    "fitness",
    "coverage",
    "diversity",
    "stringency",
    "converged",
    "engine",  # 0014: websets | agent
    "exa_runs",  # 0014: the websets or agent runs the task made
)


@dataclass(frozen=True)
class Elite:
    """The best item of one niche: niche key ('1,0,1'), fitness, criteria vector, the item."""

    niche: str
    fitness: float
    criteria_vector: list[bool]
    item: dict[str, Any]
    round: int | None = None


@dataclass(frozen=True)
class RunRecord:
    """What a finished task run contributes to the archive."""

    task_id: str
    task_type: str
    status: str
    metrics: dict[str, Any] = field(default_factory=dict)
    elites: list[Elite] = field(default_factory=list)
    started_at: str | None = None
    duration_ms: int | None = None
    workflow_id: str | None = None  # default: the workflow whose task_type matches
    finished_at: str | None = None  # default: now


@dataclass(frozen=True)
class ArchiveEntry:
    """What a task type's extractor makes of a finished task: metrics and elites for its run."""

    metrics: dict[str, Any] = field(default_factory=dict)
    elites: list[Elite] = field(default_factory=list)


@dataclass(frozen=True)
class Archetype:
    """A task type's place in the MAP-Elites archive: its `workflows` row and `workflow_steps`.

    `cell` is the five coordinates, each 1-5: (scope, domain structure, evidence type, time
    horizon, fidelity). `steps` are what the workflow does, in order (positions 1, 2, ...)."""

    id: str
    name: str
    description: str
    cell: tuple[int, int, int, int, int]
    archetype: str
    notes: str | None = None
    steps: tuple[str, ...] = ()
    status: str = "seed"


_ROW_COLUMNS = (
    "name",
    "description",
    "status",
    "coord_scope",
    "coord_domain_structure",
    "coord_evidence_type",
    "coord_time_horizon",
    "coord_fidelity",
    "archetype",
    "notes",
    "task_type",
)


def _row(task_type: str, a: Archetype) -> tuple[Any, ...]:
    return (a.name, a.description, a.status, *a.cell, a.archetype, a.notes, task_type)


def sync_archetypes(conn: sqlite3.Connection, archetypes: Mapping[str, Archetype]) -> int:
    """Make the `workflows` rows and steps of `archetypes` (task type -> Archetype) match them.

    Inserts a missing row, updates a changed one (keeping its created_at) and rewrites its steps
    when they differ; returns how many workflows changed (0 when all match). ConfigError when an
    archetype's cell is out of range or another workflow row already has its task type."""
    changed = 0
    for task_type, a in archetypes.items():
        if len(a.cell) != 5 or not all(isinstance(c, int) and 1 <= c <= 5 for c in a.cell):
            raise ConfigError(
                f"workflow {task_type!r}: archetype cell {a.cell!r} must be five integers from 1 to 5",
                hint="Fix the Archetype's cell in the workflow's WorkflowSpec.",
            )
        other = conn.execute(
            "SELECT id FROM workflows WHERE task_type = ? AND id != ?", (task_type, a.id)
        ).fetchone()
        if other is not None:
            raise ConfigError(
                f"workflow {task_type!r}: the archive row {other[0]!r} already has this task type, "
                f"so archetype {a.id!r} can't take it",
                hint="Give the WorkflowSpec's Archetype the id of the existing row, or another task type.",
            )
        row = _row(task_type, a)
        found = conn.execute(
            f"SELECT {', '.join(_ROW_COLUMNS)} FROM workflows WHERE id = ?", (a.id,)
        ).fetchone()
        steps = [
            r[0]
            for r in conn.execute(
                "SELECT description FROM workflow_steps WHERE workflow_id = ? ORDER BY position", (a.id,)
            ).fetchall()
        ]
        if found is not None and tuple(found) == row and steps == list(a.steps):
            continue
        if found is None:
            conn.execute(
                f"INSERT INTO workflows (id, {', '.join(_ROW_COLUMNS)}) "
                f"VALUES (?, {', '.join('?' * len(_ROW_COLUMNS))})",
                (a.id, *row),
            )
        elif tuple(found) != row:
            conn.execute(
                f"UPDATE workflows SET {', '.join(f'{c} = ?' for c in _ROW_COLUMNS)} WHERE id = ?",
                (*row, a.id),
            )
        if steps != list(a.steps):
            conn.execute("DELETE FROM workflow_steps WHERE workflow_id = ?", (a.id,))
            conn.executemany(
                "INSERT INTO workflow_steps (workflow_id, position, description) VALUES (?, ?, ?)",
                [(a.id, i, step) for i, step in enumerate(a.steps, start=1)],
            )
        changed += 1
    return changed


# A task type's extractor: the finished task (status, args, result or partial, error) -> its entry.
# It runs inside the write transaction: it must be quick and touch nothing but the record.
Extractor = Callable[[TaskRecord], ArchiveEntry]


def record_run(conn: sqlite3.Connection, clock: Clock, run: RunRecord) -> int:
    """Insert the run and its elites; return the run id. InvalidParams if no workflow fits."""
    workflow_id = run.workflow_id
    if workflow_id is None:
        row = conn.execute("SELECT id FROM workflows WHERE task_type = ?", (run.task_type,)).fetchone()
        if row is None:
            raise InvalidParams(
                f"no workflow in the archive has task type {run.task_type!r}", fields=["task_type"]
            )
        workflow_id = row[0]
    columns = {name: run.metrics.get(name) for name in METRIC_COLUMNS}
    if isinstance(columns["converged"], bool):
        columns["converged"] = int(columns["converged"])
    extra = {k: v for k, v in run.metrics.items() if k not in METRIC_COLUMNS}
    cursor = conn.execute(
        "INSERT INTO workflow_runs (workflow_id, task_id, task_type, status, started_at, finished_at, "
        f"duration_ms, {', '.join(METRIC_COLUMNS)}, metrics, cost_usd) "
        f"VALUES (?, ?, ?, ?, ?, ?, ?, {', '.join('?' * len(METRIC_COLUMNS))}, ?, "
        # What the run's requests to Exa cost (the ledger's total on the task's row, migration 0015;
        # its rows commit no later than this).
        "(SELECT h.cost_usd FROM task_heads h WHERE h.task_id = ?)) RETURNING id",
        (
            workflow_id,
            run.task_id,
            run.task_type,
            run.status,
            run.started_at,
            run.finished_at or iso(clock()),
            run.duration_ms,
            *columns.values(),
            dumps(extra, "metrics"),
            run.task_id,
        ),
    )
    row = cursor.fetchone()
    assert row is not None
    run_id = int(row[0])
    conn.executemany(
        "INSERT INTO qd_elites (run_id, round, niche, fitness, criteria_vector, item_id, item) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
        [
            (
                run_id,
                elite.round,
                elite.niche,
                elite.fitness,
                json.dumps(elite.criteria_vector),
                elite.item.get("id"),
                dumps(elite.item, "elite item"),
            )
            for elite in run.elites
        ],
    )
    return run_id


def file_run(conn: sqlite3.Connection, clock: Clock, task: TaskRecord, extract: Extractor) -> int | None:
    """File the finished `task`'s run inside the caller's transaction; return its id.

    Never raises, so that the archive can't block a task from finishing: an extractor that raises
    files the run with `archiveError` in its metrics; a run the database refuses (no workflow has
    this task type, say) is rolled back to a savepoint, logged, and None is returned.
    """
    try:
        entry = extract(task)
        if not isinstance(entry, ArchiveEntry):
            raise TypeError(f"the extractor returned {type(entry).__name__}, not an ArchiveEntry")
    except Exception as exc:  # a bug in the extractor must not keep the task from finishing
        logger.exception("task %s: the archive extractor of %r failed", task.id, task.type)
        entry = ArchiveEntry({"archiveError": f"{type(exc).__name__}: {exc}"})
    started = conn.execute(
        "SELECT min(at) FROM task_events WHERE task_id = ? AND kind = 'status' AND status = 'working'",
        (task.id,),
    ).fetchone()[0]
    run = RunRecord(
        task_id=task.id,
        task_type=task.type,
        status=str(task.status),
        metrics=entry.metrics,
        elites=entry.elites,
        started_at=started,
        duration_ms=_ms_between(started, task.updated_at) if started else None,
        finished_at=task.updated_at,
    )
    conn.execute("SAVEPOINT archive_run")
    try:
        run_id = record_run(conn, clock, run)
    except Exception as exc:  # any shape the extractor returned: never block the transition
        conn.execute("ROLLBACK TO archive_run")
        logger.error("task %s: its run was not filed in the archive: %s", task.id, exc)
        run_id = None
    conn.execute("RELEASE archive_run")
    return run_id


def _ms_between(start: str, end: str) -> int:
    return max(0, round((datetime.fromisoformat(end) - datetime.fromisoformat(start)).total_seconds() * 1000))
