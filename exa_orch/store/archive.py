"""The MAP-Elites archive: one `workflow_runs` row per finished task run, with its elites.

A run is filed under the workflow whose `task_type` matches the task's type; `v_archive` then
shows the best completed run of each cell (the five coordinates).
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field
from typing import Any

from exa_orch.errors import InvalidParams
from exa_orch.store.records import dumps, iso
from exa_orch.store.tasks import Clock

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
        f"duration_ms, {', '.join(METRIC_COLUMNS)}, metrics) "
        f"VALUES (?, ?, ?, ?, ?, ?, ?, {', '.join('?' * len(METRIC_COLUMNS))}, ?)",
        (
            workflow_id,
            run.task_id,
            run.task_type,
            run.status,
            run.started_at,
            iso(clock()),
            run.duration_ms,
            *columns.values(),
            dumps(extra, "metrics"),
        ),
    )
    run_id = cursor.lastrowid
    assert run_id is not None
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
