"""Whose memory `exa-orch sql` shows: the viewer a query runs for (migration 0020).

`exa-orch sql` shows `v_entities`, `v_sightings` and `v_tasks` with the rows of one principal (and
of tasks with no owner), or every principal's for ALL_VIEWERS (`--all-owners`), and keeps the
memory tables themselves from showing another principal's rows (or their count):
- SQLite: views of the same names in the query's temp schema (`temp_views`), found before the main
  ones, filter the rows; its authorizer refuses a read of the main views, or of a memory table,
  other than through those views (`may_read`);
- PostgreSQL: the setting VIEWER_SETTING, made for the query's transaction, which the views'
  filter and the tables' row-level security read (exa_orch_viewer(); '*' when unset).
It scopes a face: whoever holds the database file or its URL reads every row with other tools.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from exa_orch.errors import StoreError

ALL_VIEWERS = "*"
VIEWER_SETTING = "exa_orch.viewer"  # PostgreSQL: the setting exa_orch_viewer() reads
MEMORY_TABLES = frozenset({"memory_entities", "memory_keys", "memory_sightings", "memory_searches"})
MEMORY_VIEWS = frozenset({"v_entities", "v_sightings"})
SCOPED_VIEWS = MEMORY_VIEWS | {"v_tasks"}
# SQLite: the temp views that filter a memory table to the viewer's rows; the viewer's v_entities
# and v_sightings are the main ones' SQL over these (the only way to a memory table's rows).
FILTERS = {"memory_entities": "xo_viewer_entities", "memory_sightings": "xo_viewer_sightings"}
_BASE = re.compile(r"\b(FROM|JOIN)(\s+)(" + "|".join(FILTERS) + r")\b", re.IGNORECASE)


def may_read(table: str | None, column: str | None, db: str | None, through: str | None, viewer: str) -> bool:
    """Whether `exa-orch sql` for `viewer` may read `column` of `table` in schema `db` when the view
    `through` (None: the query itself) asks (SQLite's authorizer): the main scoped views (v_entities,
    v_sightings, v_tasks) only through the temp ones of the same names, a memory table only through
    its filter view (FILTERS: never memory_keys or memory_searches, never as a bare count(*), which
    SQLite reports with no column and no view); anything for ALL_VIEWERS."""
    if viewer == ALL_VIEWERS:
        return True
    if table in SCOPED_VIEWS and db == "main":
        return through in SCOPED_VIEWS
    return table not in MEMORY_TABLES or through in FILTERS.values()


def temp_views(viewer: str, main_sql: Mapping[str, str]) -> list[str]:
    """SQLite: the statements making `viewer`'s views (temp, found before the main ones) for one
    query, from `main_sql` (the main memory views' CREATE statements, by name): the filter views,
    v_entities and v_sightings as the main ones over them, and v_tasks over the main one."""
    who = "'" + viewer.replace("'", "''") + "'"
    out = [
        f"CREATE TEMP VIEW {view} AS SELECT * FROM main.{table} WHERE principal IN ({who}, '')"
        for table, view in FILTERS.items()
    ]
    for name in sorted(MEMORY_VIEWS):
        sql = main_sql.get(name)
        if sql is None:  # a file not migrated yet: its query fails on what is missing
            continue
        made = re.sub(r"^\s*CREATE\s+VIEW\b", "CREATE TEMP VIEW", sql, count=1, flags=re.IGNORECASE)
        made = _BASE.sub(lambda m: f"{m[1]}{m[2]}{FILTERS[m[3].lower()]}", made)
        if made == sql or any(re.search(rf"\b{t}\b", made) for t in MEMORY_TABLES):
            raise StoreError(
                f"cannot scope the view {name} to one principal: its SQL reads what this does not know"
            )
        out.append(made)
    out.append(f"CREATE TEMP VIEW v_tasks AS SELECT * FROM main.v_tasks WHERE owner = {who} OR owner IS NULL")
    return out
