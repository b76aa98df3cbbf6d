"""Whose memory `exa-orch sql` shows: the viewer a query runs for (migration 0020).

`exa-orch sql` shows `v_entities` and `v_sightings` with the rows of one principal (and of tasks
with no owner), or every principal's for ALL_VIEWERS (`--all-owners`), and keeps the memory tables
themselves from showing another principal's rows:
- SQLite: views of the same names in the query's temp schema (`temp_views`), found before the main
  ones, filter the rows; its authorizer refuses a read of the main views, or of a memory table's
  columns, other than through those views (`may_read`);
- PostgreSQL: the setting VIEWER_SETTING, made for the query's transaction, which the views'
  filter and the tables' row-level security read (exa_orch_viewer(); '*' when unset).
It scopes a face: whoever holds the database file or its URL reads every row with other tools.
"""

from __future__ import annotations

ALL_VIEWERS = "*"
VIEWER_SETTING = "exa_orch.viewer"  # PostgreSQL: the setting exa_orch_viewer() reads
MEMORY_TABLES = frozenset({"memory_entities", "memory_keys", "memory_sightings"})
MEMORY_VIEWS = frozenset({"v_entities", "v_sightings"})


def may_read(table: str | None, column: str | None, db: str | None, through: str | None, viewer: str) -> bool:
    """Whether `exa-orch sql` for `viewer` may read `column` of `table` in schema `db` when the view
    `through` (None: the query itself) asks (SQLite's authorizer): the main memory views only
    through the temp ones, a memory table's columns only through a memory view; anything for
    ALL_VIEWERS. SQLite names no column ("") where a table's rows are only counted or joined (and
    no view then, even for a view's join): that read shows no value, and is let be."""
    if viewer == ALL_VIEWERS:
        return True
    if table in MEMORY_VIEWS and db == "main":
        return through in MEMORY_VIEWS
    return table not in MEMORY_TABLES or through in MEMORY_VIEWS or not column


def temp_views(viewer: str) -> list[str]:
    """SQLite: the statements making `viewer`'s views (temp, over the main ones) for one query."""
    who = "'" + viewer.replace("'", "''") + "'"
    return [
        f"CREATE TEMP VIEW {name} AS SELECT * FROM main.{name} WHERE principal IN ({who}, '')"
        for name in sorted(MEMORY_VIEWS)
    ]
