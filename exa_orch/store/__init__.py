"""The SQLite store: tasks, step checkpoints, leases, and the MAP-Elites archive.

`async with Store(path) as store` is the one owner of the database file in a process; the
schema is in `migrations/`, described in `data-design/`.
"""

from exa_orch.store.archive import Archetype, ArchiveEntry, Elite, RunRecord
from exa_orch.store.core import Store, ensure_parent_dir
from exa_orch.store.costs import CostRow
from exa_orch.store.postgres import redact_db
from exa_orch.store.records import TERMINAL_STATUSES, TaskRecord, TaskStatus
from exa_orch.store.writer import WriterStats

__all__ = [
    "Archetype",
    "ArchiveEntry",
    "CostRow",
    "Elite",
    "RunRecord",
    "Store",
    "TERMINAL_STATUSES",
    "TaskRecord",
    "TaskStatus",
    "WriterStats",
    "ensure_parent_dir",
    "redact_db",
]
