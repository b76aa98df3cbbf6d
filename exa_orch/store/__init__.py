"""The store: tasks, step checkpoints, leases, and the MAP-Elites archive, in one database.

`async with Store(target) as store` is the one owner of the database in a process, on the
backend `target` names (store/backends.py: an SQLite file or a PostgreSQL URL); the schema is in
`migrations/`, described in `data-design/`.
"""

from exa_orch.store.archive import Archetype, ArchiveEntry, Elite, RunRecord
from exa_orch.store.backend import Backend
from exa_orch.store.backends import backend_for, ensure_parent_dir, redact_db
from exa_orch.store.core import Store
from exa_orch.store.costs import CostRow
from exa_orch.store.records import INPUT_REQUEST_META, TERMINAL_STATUSES, TaskRecord, TaskStatus
from exa_orch.store.writer import WriterStats

__all__ = [
    "Archetype",
    "ArchiveEntry",
    "Backend",
    "CostRow",
    "Elite",
    "INPUT_REQUEST_META",
    "RunRecord",
    "Store",
    "TERMINAL_STATUSES",
    "TaskRecord",
    "TaskStatus",
    "WriterStats",
    "backend_for",
    "ensure_parent_dir",
    "redact_db",
]
