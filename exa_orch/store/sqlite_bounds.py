"""What one `exa-orch sql` query may take on SQLite: bounded values, a bounded result.

- `SqlConnection`, the connection the query runs on, sets SQLITE_LIMIT_LENGTH to
  SQL_MAX_VALUE_BYTES (SQLite's default is 1 GB, which `printf('%.*c', 999999999, 'x')` or
  `zeroblob()` reach in one call), and puts its own `printf()` / `format()` in front of SQLite's:
  SQLite (3.40 here) repeats a `%c` one character at a time, 27 s of CPU for a billion, however low
  the limit, and answers NULL rather than an error past it. Ours refuses any width or precision
  past the limit at once (the error names it) and hands the rest to SQLite's own printf, on a
  private in-memory connection with the same limit.
- `bounded_rows` reads the result a batch at a time and stops past SQL_MAX_RESULT_BYTES.
"""

from __future__ import annotations

import re
import sqlite3
from typing import Any

import aiosqlite

from exa_orch.store.backend import SQL_MAX_RESULT_BYTES, SQL_MAX_VALUE_BYTES, Rows, too_big, value_bytes

# One printf conversion: flags, width, precision (a number or `*`, which takes an argument), type.
_CONVERSION = re.compile(r"%[-+ 0#!,]*(\*|\d+)?(?:\.(\*|\d+))?([a-zA-Z%])")


def _sizes(fmt: str, args: tuple[Any, ...]) -> list[int]:
    """Every width and precision `fmt` asks for, with `*` read from `args` as SQLite reads them."""
    sizes: list[int] = []
    taken = 0
    for match in _CONVERSION.finditer(fmt):
        for spec in match.group(1, 2):
            if spec == "*":
                value = args[taken] if taken < len(args) else 0
                taken += 1
                try:
                    sizes.append(abs(int(value)))
                except (TypeError, ValueError):
                    sizes.append(0)
            elif spec:
                sizes.append(int(spec))
        if match[3] != "%":
            taken += 1
    return sizes


class SqlConnection(sqlite3.Connection):
    """The connection `exa-orch sql` runs a query on (see the module docstring). Its printf and
    format are its only user functions, and they raise only past the limit: `stopped_at_limit`
    tells that error from SQLite's, which reports only that a user function raised."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, SQL_MAX_VALUE_BYTES)
        self._side = sqlite3.connect(":memory:", check_same_thread=False)
        self._side.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, SQL_MAX_VALUE_BYTES)
        for name in ("printf", "format"):
            self.create_function(name, -1, self._printf, deterministic=True)

    def _printf(self, *args: Any) -> Any:
        if (
            args
            and isinstance(args[0], str)
            and any(size > SQL_MAX_VALUE_BYTES for size in _sizes(args[0], args[1:]))
        ):
            raise ValueError("a printf width or precision past SQL_MAX_VALUE_BYTES")
        marks = ", ".join("?" * len(args))
        return self._side.execute(f"SELECT printf({marks})", args).fetchone()[0]  # too big: raises

    def close(self) -> None:
        self._side.close()
        super().close()


def stopped_at_limit(exc: sqlite3.Error) -> bool:
    """Whether SQLite stopped the query at SQL_MAX_VALUE_BYTES: its own "string or blob too big",
    or our printf's refusal (on SqlConnection, the only user function that raises)."""
    said = str(exc)
    return "too big" in said or "user-defined function raised exception" in said


async def bounded_rows(cursor: aiosqlite.Cursor) -> Rows:
    """The rows, read a batch at a time; InvalidParams once they hold more than SQL_MAX_RESULT_BYTES."""
    rows: list[tuple[Any, ...]] = []
    held = 0
    while batch := await cursor.fetchmany(256):
        for row in batch:
            held += sum(value_bytes(v) for v in row)
            rows.append(tuple(row))
        if held > SQL_MAX_RESULT_BYTES:
            raise too_big("its result", SQL_MAX_RESULT_BYTES)
    return rows
