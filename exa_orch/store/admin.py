"""`exa-orch db migrate` and `exa-orch sql`: database maintenance and read-only inspection.

These are CLI commands, so they print to stdout. `sql` opens the database as `store.readonly`
does for every reader (SQLite: a `mode=ro` URI and `PRAGMA query_only`; PostgreSQL: a session
whose every transaction is read-only) and has the database itself guard the query, whatever its
text: on SQLite an authorizer that allows only reading and calling functions that only compute
(it also names the refused action in the error message), and a progress handler that stops the
query at its time limit; on PostgreSQL the query runs as the role `exa_orch_sql`, which may only
read exa-orch's tables and views, through a SECURITY DEFINER function it owns (see
`postgres._ensure_sql_guard`), in a READ ONLY transaction with a statement timeout, rolled back.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import decimal
import json
import re
import sqlite3
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import aiosqlite

from exa_orch.errors import InvalidParams, OrchError, StoreError
from exa_orch.store import migrations, postgres, readonly
from exa_orch.store.core import Store, ensure_parent_dir

MAX_CELL = 72
QUERY_TIMEOUT_S = 30.0  # the longest one query may run, on either backend

# Authorizer action codes, by name (the module's SQLITE_* constants mix them with result codes).
_ACTIONS = {
    getattr(sqlite3, name): name.removeprefix("SQLITE_").replace("_", " ")
    for name in (
        "SQLITE_CREATE_INDEX SQLITE_CREATE_TABLE SQLITE_CREATE_TEMP_INDEX SQLITE_CREATE_TEMP_TABLE "
        "SQLITE_CREATE_TEMP_TRIGGER SQLITE_CREATE_TEMP_VIEW SQLITE_CREATE_TRIGGER SQLITE_CREATE_VIEW "
        "SQLITE_DELETE SQLITE_DROP_INDEX SQLITE_DROP_TABLE SQLITE_DROP_TEMP_INDEX SQLITE_DROP_TEMP_TABLE "
        "SQLITE_DROP_TEMP_TRIGGER SQLITE_DROP_TEMP_VIEW SQLITE_DROP_TRIGGER SQLITE_DROP_VIEW SQLITE_INSERT "
        "SQLITE_PRAGMA SQLITE_READ SQLITE_SELECT SQLITE_TRANSACTION SQLITE_UPDATE SQLITE_ATTACH "
        "SQLITE_DETACH SQLITE_ALTER_TABLE SQLITE_REINDEX SQLITE_ANALYZE SQLITE_CREATE_VTABLE "
        "SQLITE_DROP_VTABLE SQLITE_FUNCTION SQLITE_SAVEPOINT SQLITE_RECURSIVE"
    ).split()
}
_READ_ACTIONS = {sqlite3.SQLITE_SELECT, sqlite3.SQLITE_READ, sqlite3.SQLITE_RECURSIVE}
# The functions a query may call: SQLite's own that only compute (not fts3_tokenizer, which prints
# a pointer and registers tokenizers, nor load_extension, readfile, writefile, edit...).
_SAFE_FUNCTIONS = frozenset(
    """abs changes char coalesce concat concat_ws format glob hex ifnull iif instr last_insert_rowid
    length like likelihood likely lower ltrim max min nullif octet_length printf quote random
    randomblob replace round rtrim sign soundex sqlite_version sqlite_source_id substr substring
    total_changes trim typeof unhex unicode unlikely upper zeroblob sqlite_compileoption_get
    sqlite_compileoption_used date time datetime julianday strftime unixepoch timediff
    current_date current_time current_timestamp avg count group_concat string_agg sum total
    row_number rank dense_rank percent_rank cume_dist ntile lag lead first_value last_value nth_value
    json json_array json_array_length json_error_position json_extract json_insert json_object
    json_patch json_pretty json_remove json_replace json_set json_type json_valid json_quote
    json_group_array json_group_object json_each json_tree jsonb jsonb_array jsonb_extract
    jsonb_insert jsonb_object jsonb_patch jsonb_remove jsonb_replace jsonb_set
    jsonb_group_array jsonb_group_object acos acosh asin asinh atan atan2 atanh ceil ceiling cos
    cosh degrees exp floor ln log log10 log2 mod pi pow power radians sin sinh sqrt tan tanh trunc
    median percentile percentile_cont percentile_disc""".split()
)
_SCHEMA_TABLES = {"sqlite_master", "sqlite_schema", "sqlite_temp_master", "sqlite_temp_schema"}
# Pragmas that only report, whatever their argument.
_REPORTING_PRAGMAS = {
    "table_info", "table_xinfo", "table_list", "index_list", "index_info", "index_xinfo",
    "foreign_key_list", "foreign_key_check", "integrity_check", "quick_check", "database_list",
    "collation_list", "function_list", "module_list", "pragma_list", "compile_options",
}  # fmt: skip
# Pragmas that report when called without a value and change a setting with one.
_SETTING_PRAGMAS = {
    "journal_mode", "user_version", "page_count", "page_size", "freelist_count", "schema_version",
    "application_id", "synchronous", "foreign_keys", "busy_timeout", "encoding", "data_version",
    "auto_vacuum", "cache_size", "wal_autocheckpoint",
}  # fmt: skip


async def migrate_command(db: Path | str) -> int:
    """Create the database if missing and apply pending migrations; print what was done."""
    ensure_parent_dir(db)
    async with Store(db) as store:
        applied = store.applied_migrations
    total = len(migrations.load_migrations())
    db = postgres.redact_db(db)
    if applied:
        print(f"{db}: applied {', '.join(applied)} ({total} migrations in all)")
    else:
        print(f"{db}: up to date ({total} migrations applied earlier; nothing to do)")
    return 0


class _Guard:
    """An authorizer that allows reads and records the first refused action."""

    def __init__(self) -> None:
        self.refused: str | None = None

    def __call__(
        self, action: int, arg1: str | None, arg2: str | None, db: str | None, src: str | None
    ) -> int:
        if action in _READ_ACTIONS:
            return sqlite3.SQLITE_OK
        if action == sqlite3.SQLITE_FUNCTION and arg2 is not None and arg2.lower() in _SAFE_FUNCTIONS:
            return sqlite3.SQLITE_OK
        if action == sqlite3.SQLITE_UPDATE and arg1 in _SCHEMA_TABLES and arg2 is not None and src is None:
            # SQLite asks this while it sets up table-valued pragmas (pragma_table_info(...));
            # a real write to the schema still fails on the read-only connection below.
            return sqlite3.SQLITE_OK
        if action == sqlite3.SQLITE_PRAGMA and arg1 is not None:
            name = arg1.lower()
            if name in _REPORTING_PRAGMAS or (name in _SETTING_PRAGMAS and arg2 is None):
                return sqlite3.SQLITE_OK
        if self.refused is None:
            what = _ACTIONS.get(action, f"action {action}")
            if arg1 in _SCHEMA_TABLES:
                self.refused = "a schema change (CREATE, DROP or ALTER)"
            elif action == sqlite3.SQLITE_FUNCTION:
                self.refused = f"the function {arg2}()"
            elif arg1 and action != sqlite3.SQLITE_TRANSACTION:
                self.refused = f"{what} {arg1}"
            else:
                self.refused = what
        return sqlite3.SQLITE_DENY


async def run_query(
    db: Path | str, query: str, *, timeout_s: float = QUERY_TIMEOUT_S
) -> tuple[list[str], list[tuple[Any, ...]]]:
    """Column names and rows of one read-only statement; InvalidParams if it writes, does anything
    but read, runs past `timeout_s` or fails."""
    if postgres.is_url(db):
        return await _run_pg(str(db), query, timeout_s)
    db = Path(db)
    conn = await readonly.open_sqlite(db)
    try:
        return await _run_guarded(conn, query, _Guard(), timeout_s)
    except UnicodeEncodeError:
        raise _not_utf8() from None
    except sqlite3.Error as exc:  # reading the file itself failed after the probe (damaged, say)
        raise readonly.unreadable(db, exc) from None
    finally:
        await conn.close()


async def _run_guarded(
    conn: aiosqlite.Connection, query: str, guard: _Guard, timeout_s: float
) -> tuple[list[str], list[tuple[Any, ...]]]:
    await conn.set_authorizer(guard)
    deadline = time.monotonic() + timeout_s
    late = False

    def too_long() -> int:  # called every few thousand VM steps: non-zero interrupts the query
        nonlocal late
        late = time.monotonic() > deadline
        return int(late)

    await conn.set_progress_handler(too_long, 10_000)
    try:
        async with conn.execute(query) as cursor:
            rows = [tuple(row) for row in await cursor.fetchall()]
            columns = [d[0] for d in cursor.description or ()]
    except sqlite3.ProgrammingError as exc:
        raise InvalidParams(
            f"exa-orch sql runs exactly one statement: {exc}",
            hint="Run each statement on its own, or join them into one SELECT.",
            fields=["query"],
        ) from None
    except sqlite3.Error as exc:
        if late:
            raise InvalidParams(
                f"the query ran longer than exa-orch sql's time limit ({timeout_s:g} s) and was stopped",
                hint="Narrow it (a WHERE, a LIMIT), or open the file with sqlite3 yourself.",
                fields=["query"],
            ) from None
        if guard.refused is not None or "readonly" in str(exc) or "query_only" in str(exc):
            raise InvalidParams(
                f"exa-orch sql is read-only; refused {guard.refused or 'a write'}",
                hint="Ask with SELECT (e.g. `select * from v_tasks`); tasks change through the MCP tools.",
                fields=["query"],
            ) from None
        await conn.set_authorizer(None)
        await conn.set_progress_handler(lambda: 0, 0)
        names = await conn.execute_fetchall(
            "SELECT name FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%' "
            "ORDER BY name"
        )
        raise InvalidParams(
            f"the query failed: {exc}",
            hint="Tables and views: " + ", ".join(str(n[0]) for n in names)
            if names
            else "This database has no tables yet: create them with `exa-orch db migrate`.",
            fields=["query"],
        ) from None
    if not columns:
        raise InvalidParams(
            "the query has no statement to run (it is empty or only a comment)",
            hint="Give one statement, e.g. `select * from v_tasks`.",
            fields=["query"],
        )
    return columns, rows


async def sql_command(db: Path | str, query: str, *, as_json: bool) -> int:
    """Run one read-only statement and print its rows as an aligned table or JSON."""
    columns, rows = await run_query(db, query)
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


async def _run_pg(url: str, query: str, timeout_s: float) -> tuple[list[str], list[tuple[Any, ...]]]:
    """One statement run by the database as the role SQL_ROLE, which may only read exa-orch's
    tables and views (see `postgres._ensure_sql_guard`), in a READ ONLY transaction with a
    statement time limit, rolled back."""
    _only_a_query(query)  # the plain cases named; the database guards the rest
    try:
        data = query.encode()
    except UnicodeEncodeError:
        raise _not_utf8() from None
    if b"\x00" in data:
        raise InvalidParams(
            "the query holds a NUL character, which PostgreSQL refuses", hint="Remove it.", fields=["query"]
        )
    return await asyncio.to_thread(_run_pg_sync, url, query, timeout_s)


def _run_pg_sync(url: str, query: str, timeout_s: float) -> tuple[list[str], list[tuple[Any, ...]]]:
    import psycopg
    import psycopg.errors

    conn = readonly.connect_postgres_sync(url, application="exa-orch sql")
    with conn:
        try:
            conn.execute(b"BEGIN READ ONLY")
            conn.execute(f"SET LOCAL statement_timeout = {max(1, int(timeout_s * 1000))}".encode())
            _require_guard(conn, url)
            # Parse and describe only, with the extended protocol: one statement, nothing run yet.
            described = conn.pgconn.prepare(b"", query.encode())
            if described.status == psycopg.pq.ExecStatus.FATAL_ERROR:
                raise psycopg.errors.error_from_result(described, encoding="utf-8")
            described = conn.pgconn.describe_prepared(b"")
            if described.status == psycopg.pq.ExecStatus.FATAL_ERROR:
                raise psycopg.errors.error_from_result(described, encoding="utf-8")
            fields = range(described.nfields)
            columns = [(described.fname(i) or b"?").decode() for i in fields]
            if not columns:
                raise InvalidParams(
                    "exa-orch sql runs queries only; refused a statement that returns no rows "
                    "(COPY, DO, LOAD, SET and the like), or an empty one",
                    hint="Ask with SELECT, WITH, VALUES, TABLE, SHOW or EXPLAIN (e.g. `select * from v_tasks`); "
                    "tasks change through the MCP tools.",
                    fields=["query"],
                )
            types = conn.execute(
                b"SELECT format_type(t, nullif(m, -1)) FROM unnest(%s::oid[], %s::int[]) WITH ORDINALITY"
                b" AS u(t, m, n) ORDER BY n",
                ([described.ftype(i) for i in fields], [described.fmod(i) for i in fields]),
            ).fetchall()
            shape = ", ".join(f"c{i} {t}" for i, (t,) in enumerate(types))
            cursor = conn.execute(
                f"SELECT * FROM {postgres.SQL_FUNCTION.split('(')[0]}(%s) AS q({shape})".encode(), (query,)
            )
            rows = [tuple(row) for row in cursor.fetchall()]
        except psycopg.Error as exc:
            raise _pg_refusal(conn, url, query, exc, timeout_s) from None
        finally:
            if not conn.closed and not conn.broken:
                with contextlib.suppress(psycopg.Error):
                    conn.execute(b"ROLLBACK")
    return columns, rows


def _require_guard(conn: Any, url: str) -> None:
    """StoreError unless this database has the function `exa-orch sql` runs queries through and
    this role may call it."""
    row = conn.execute(
        f"SELECT p IS NOT NULL, p IS NOT NULL AND has_function_privilege(p, 'EXECUTE')"
        f" FROM to_regprocedure('{postgres.SQL_FUNCTION}') AS p".encode()
    ).fetchone()
    exists, allowed = row if row is not None else (False, False)
    where = postgres.redact(url)
    if not exists:
        raise StoreError(
            f"exa-orch sql cannot run on {where}: its read-only role {postgres.SQL_ROLE} and function "
            f"{postgres.SQL_FUNCTION} are missing",
            hint=f"Run `exa-orch db migrate --db {where}` once as a role that may create roles "
            "(CREATEROLE, or a superuser): queries run as that role, which may only read exa-orch's tables.",
        )
    if not allowed:
        raise StoreError(
            f"this database role may not run exa-orch sql's queries on {where}",
            hint=f"Use the role that migrated the database, or `GRANT EXECUTE ON FUNCTION "
            f"{postgres.SQL_FUNCTION} TO <role>` as it.",
        )


def _pg_refusal(conn: Any, url: str, query: str, exc: Exception, timeout_s: float) -> Exception:
    """The typed error for a query PostgreSQL refused or could not finish."""
    import psycopg

    if isinstance(exc, OrchError):
        return exc
    assert isinstance(exc, psycopg.Error)
    text = str(exc).strip()
    message = text.splitlines()[0] if text else type(exc).__name__
    if conn.closed or conn.broken:
        return StoreError(
            f"the connection to the database was lost while the query ran: {message}",
            hint="Check that the PostgreSQL server runs (it may have restarted, or ended the session), "
            "then run the query again.",
        )
    state = exc.sqlstate
    if state == "57014":  # query_canceled: the statement time limit
        return InvalidParams(
            f"the query ran longer than exa-orch sql's time limit ({timeout_s:g} s) and was stopped",
            hint="Narrow it (a WHERE, a LIMIT), or run it with psql as a role of your own.",
            fields=["query"],
        )
    if state == "25006":  # read_only_sql_transaction
        return InvalidParams(
            f"exa-orch sql is read-only; refused {_refused(query)}",
            hint="Ask with SELECT (e.g. `select * from v_tasks`); tasks change through the MCP tools.",
            fields=["query"],
        )
    if state == "42501":  # insufficient_privilege: the reading role may not do it
        return InvalidParams(
            f"exa-orch sql may only read exa-orch's tables and views; refused: {message}",
            hint="Ask with SELECT over exa-orch's tables and views (e.g. `select * from v_tasks`).",
            fields=["query"],
        )
    if state == "42601" and "multiple commands" in message:
        return InvalidParams(
            f"exa-orch sql runs exactly one statement: {message}",
            hint="Run each statement on its own, or join them into one SELECT.",
            fields=["query"],
        )
    names: list[str] = []
    with contextlib.suppress(psycopg.Error):
        conn.execute(b"ROLLBACK")
        cursor = conn.execute(
            b"SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() "
            b"ORDER BY table_name"
        )
        names = [str(r[0]) for r in cursor.fetchall()]
    return InvalidParams(
        f"the query failed: {message}",
        hint="Tables and views: " + ", ".join(names)
        if names
        else "This database has no tables yet: create them with `exa-orch db migrate`.",
        fields=["query"],
    )


def _not_utf8() -> InvalidParams:
    """The error for a query that can't be sent: bytes that are not UTF-8 (either backend)."""
    return InvalidParams(
        "the query is not valid text (it has bytes that are not UTF-8)",
        hint="Retype it in UTF-8, e.g. `select * from v_tasks`.",
        fields=["query"],
    )


_WRITE = re.compile(
    r"^\s*(insert\s+into|delete\s+from|update|truncate(?:\s+table)?|drop\s+\w+|create\s+\w+|alter\s+\w+)"
    r"\s+([\w.\"]+)",
    re.IGNORECASE,
)


def _refused(query: str) -> str:
    """What a refused statement tried, named as SQLite's authorizer names it: 'DELETE tasks'."""
    match = _WRITE.match(query)
    if match is None:
        return "a write"
    verb = match[1].split()[0].upper()
    target = match[2]
    return (
        f"{verb} {target}"
        if verb in ("INSERT", "DELETE", "UPDATE", "TRUNCATE")
        else "a schema change (CREATE, DROP or ALTER)"
    )


# What a query may start with on PostgreSQL. A READ ONLY transaction refuses writes to tables but
# not every statement with a side effect: COPY ... TO PROGRAM runs a shell command on the database
# server (and COPY ... TO a file writes one) for a privileged role, DO and CALL run code, LOAD
# loads a library, SET and LISTEN change the session. None of them is a question, so only the
# statements that are go to the server.
_QUERY_STARTS = ("select", "with", "values", "table", "show", "explain", "(")
_LEADING_NOISE = re.compile(r"(?:\s+|--[^\n]*(?:\n|$)|/\*.*?\*/)*", re.DOTALL)


def _only_a_query(query: str) -> None:
    """InvalidParams unless the statement (after leading blanks and comments) is a query."""
    head = _LEADING_NOISE.sub("", query, count=1)
    if not head:
        return  # nothing to run: the caller's "no statement" answer says so
    word = re.match(r"\(|\w+", head)
    first = word[0].lower() if word else head[:1]
    if first in _QUERY_STARTS:
        return
    if _WRITE.match(head):
        raise InvalidParams(
            f"exa-orch sql is read-only; refused {_refused(head)}",
            hint="Ask with SELECT (e.g. `select * from v_tasks`); tasks change through the MCP tools.",
            fields=["query"],
        )
    raise InvalidParams(
        f"exa-orch sql runs queries only; refused {first.upper()}",
        hint="Ask with SELECT, WITH, VALUES, TABLE, SHOW or EXPLAIN (e.g. `select * from v_tasks`); "
        "tasks change through the MCP tools.",
        fields=["query"],
    )
