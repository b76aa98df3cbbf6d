"""Whose memory `exa-orch sql` shows: the viewer a query runs for (migration 0020).

The views `v_entities` and `v_sightings` show the rows of the principal `exa_orch_viewer()` names
(and rows of tasks with no owner), every principal's for ALL_VIEWERS (`--all-owners`). Each backend
makes that function answer the viewer of the query it runs, and keeps the memory tables themselves
from showing another principal's rows there (SQLite: its authorizer lets them be read only through
the views; PostgreSQL: row-level security on the tables for the sql role). It scopes a face: whoever
holds the database file or its URL reads every row with other tools.
"""

from __future__ import annotations

ALL_VIEWERS = "*"
VIEWER_FUNCTION = "exa_orch_viewer"
VIEWER_SETTING = "exa_orch.viewer"  # PostgreSQL: the setting exa_orch_viewer() reads
MEMORY_TABLES = frozenset({"memory_entities", "memory_keys", "memory_sightings"})
MEMORY_VIEWS = frozenset({"v_entities", "v_sightings"})


def may_read(table: str | None, column: str | None, through: str | None, viewer: str) -> bool:
    """Whether `exa-orch sql` for `viewer` may read `column` of `table` when the view `through`
    (None: the query itself) asks: a memory table's columns only through a memory view, unless
    every viewer's. SQLite names no column ("") where a table's rows are only counted or joined
    (and names no view then, even for a view's join): that read shows no value, and is let be."""
    return viewer == ALL_VIEWERS or table not in MEMORY_TABLES or through in MEMORY_VIEWS or not column
