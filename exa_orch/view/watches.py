"""The web view's part of watches (issue 39): a task that a watch started shows its run's diff and
cost, and the watch's latest runs beside it (data from migration 0021's `watch_runs`).

`watch_of_task(db, task_id)` is asked only after `ViewDB.task` answered for the viewer: a watch's
child tasks are owned by the watch's owner, so whoever may see the task may see its watch's runs.
"""

from __future__ import annotations

import json
from typing import Any

from exa_orch.view.data import ViewDB

RUNS_SHOWN = 20


def _run(row: dict[str, Any]) -> dict[str, Any]:
    diff = json.loads(row["diff"]) if row.get("diff") else None
    counts = None if diff is None else {k: len(diff.get(k) or []) for k in ("added", "gone", "changed")}
    return {**row, "diff": diff, "counts": counts, "baseline": bool(diff and diff.get("baseline"))}


async def watch_of_task(db: ViewDB, task_id: str) -> dict[str, Any] | None:
    """{watch_id, run: this task's run, runs: the watch's latest runs, newest first}, or None when
    no watch started the task."""
    # ViewDB's read connection, as its own methods use it (view/data.py is being split: this module
    # stays apart from it).
    found = await db._rows("SELECT watch_id, n FROM watch_runs WHERE task_id = ?", (task_id,))
    if not found:
        return None
    watch_id, n = found[0]["watch_id"], found[0]["n"]
    rows = await db._rows(
        "SELECT n, task_id, status, changed, diff, cost_usd, notified FROM watch_runs "
        "WHERE watch_id = ? ORDER BY n DESC LIMIT ?",
        (watch_id, RUNS_SHOWN),
    )
    runs = [_run(r) for r in rows]
    this = next((r for r in runs if r["n"] == n), None)
    return {"watch_id": watch_id, "n": n, "run": this, "runs": runs}
