"""`exa-orch db migrate` and `exa-orch sql`: database maintenance and read-only inspection.

These are CLI commands, so they print to stdout. Both hold the backend their `--db` names
(store/backends.py); `sql` hands it the query, which the database itself guards, whatever its
text (SQLite: an authorizer and a progress handler, store/sqlite.py; PostgreSQL: a role that
may only read exa-orch's tables, store/pgbackend.py), and prints the rows.
"""

from __future__ import annotations

import datetime
import decimal
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from exa_orch.store import migrations
from exa_orch.store.backend import Backend
from exa_orch.store.backends import backend_for
from exa_orch.store.core import Store
from exa_orch.store.viewer import ALL_VIEWERS

MAX_CELL = 72
QUERY_TIMEOUT_S = 30.0  # the longest one query may run, on any backend


async def migrate_command(db: Path | str) -> int:
    """Create the database if missing and apply pending migrations; print what was done."""
    backend = backend_for(db)
    backend.prepare()
    async with Store(backend) as store:
        applied = store.applied_migrations
    total = len(migrations.load_migrations())
    if applied:
        print(f"{backend.where}: applied {', '.join(applied)} ({total} migrations in all)")
    else:
        print(f"{backend.where}: up to date ({total} migrations applied earlier; nothing to do)")
    return 0


async def run_query(
    db: Path | str | Backend, query: str, *, timeout_s: float = QUERY_TIMEOUT_S, viewer: str = ALL_VIEWERS
) -> tuple[list[str], list[tuple[Any, ...]]]:
    """Column names and rows of one statement, which the database lets only read exa-orch's tables
    and views, their entity memory `viewer`'s (a principal's name; ALL_VIEWERS: everyone's) and that
    of tasks with no owner (store/viewer.py); InvalidParams if it was refused, failed or ran past `timeout_s`."""
    return await backend_for(db).run_query(query, timeout_s, viewer)


async def sql_command(db: Path | str, query: str, *, as_json: bool, viewer: str = ALL_VIEWERS) -> int:
    """Run one read-only statement for `viewer` and print its rows as an aligned table or JSON."""
    columns, rows = await run_query(db, query, viewer=viewer)
    if as_json:
        print(
            json.dumps(
                [dict(zip(columns, row, strict=True)) for row in rows], indent=2, default=_json_default
            )
        )
    else:
        print(format_table(columns, rows))
    return 0


def _json_default(value: Any) -> Any:
    """A value JSON has no type for, as JSON: PostgreSQL hands back numerics, timestamps, intervals,
    uuids and the like as Python objects (SQLite only ever bytes)."""
    if isinstance(value, bytes | bytearray | memoryview):
        return bytes(value).hex()
    if isinstance(value, decimal.Decimal):
        if not value.is_finite():
            return str(value)
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, datetime.timedelta):
        return value.total_seconds()
    return str(value)  # uuid, ranges, network addresses, geometry...: their text form


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bytes):
        value = value.hex()
    elif isinstance(value, dict | list):  # json, jsonb and arrays: shown as JSON, not Python's repr
        value = json.dumps(value, default=_json_default)
    text = " ".join(str(value).split())
    return text if len(text) <= MAX_CELL else text[: MAX_CELL - 3] + "..."


def format_table(columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """An aligned text table (numbers right-aligned, NULL blank, long cells cut) and a row count."""
    cells = [[_cell(v) for v in row] for row in rows]
    widths = [max([len(c), *(len(r[i]) for r in cells)]) for i, c in enumerate(columns)]
    numeric = [
        bool(rows) and all(isinstance(r[i], int | float) or r[i] is None for r in rows)
        for i in range(len(columns))
    ]

    def line(values: Sequence[str]) -> str:
        parts = (v.rjust(w) if num else v.ljust(w) for v, w, num in zip(values, widths, numeric, strict=True))
        return "  ".join(parts).rstrip()

    out = [line(columns), "  ".join("-" * w for w in widths)]
    out.extend(line(r) for r in cells)
    out.append(f"({len(rows)} row{'s' if len(rows) != 1 else ''})")
    return "\n".join(out)
