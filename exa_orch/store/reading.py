"""One task read from a database without opening a Store: for the commands that only read
(`exa-orch export`), which must neither create, migrate nor write the database they are pointed at."""

from __future__ import annotations

import re
from pathlib import Path

from exa_orch.errors import InvalidParams, TaskNotFound
from exa_orch.store.backend import Backend
from exa_orch.store.backends import backend_for
from exa_orch.store.records import TASK_COLUMNS, TaskRecord, record_from_row
from exa_orch.store.tasks import SELECT_TASK

# What tasks.create gives (store/tasks.py: task_<uuid4>); the view checks ids the same way.
TASK_ID = re.compile(r"task_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
_COLUMNS = tuple(c.strip() for c in TASK_COLUMNS.split(","))


async def read_task(target: Path | str | Backend, task_id: str, application: str) -> TaskRecord:
    """The task `task_id` of the exa-orch database `target`, read on a read-only connection named
    `application`. TaskNotFound if there is none; StoreError / ForeignDatabase if `target` is not an
    existing exa-orch database (it is never created); InvalidParams for what is no task id."""
    if not TASK_ID.fullmatch(task_id):
        raise InvalidParams(
            f"{task_id[:60]!r} is not a task id: task ids look like task_<uuid4>",
            hint="`exa-orch tasks` lists your tasks with their ids.",
            fields=["task_id"],
        )
    db = await backend_for(target).open_readonly(application)
    try:
        rows = await db.rows(SELECT_TASK, (task_id,))
    finally:
        await db.close()
    if not rows:
        raise TaskNotFound(task_id)
    return record_from_row(tuple(rows[0][c] for c in _COLUMNS))
