"""Open an exa-orch database read-only: the one way `exa-orch sql`, `exa-orch view` and
`exa-orch tasks` do it, on either backend.

- SQLite: the file must exist (it is never created); it is opened with a `mode=ro` URI, probed
  once (its header read, and another application's database refused with FOREIGN_DATABASE, the
  file left byte-identical), then connected with aiosqlite and `PRAGMA query_only`.
- PostgreSQL: a session whose every transaction is read-only (`default_transaction_read_only`),
  with a statement timeout, its times in UTC.

The third guard is the caller's: it runs nothing but reads (`exa-orch sql` adds an authorizer on
SQLite and an explicit `BEGIN READ ONLY` on PostgreSQL; the views only have SELECTs to run).
"""

from __future__ import annotations

import sqlite3
import sys
from pathlib import Path
from typing import Any

import aiosqlite

from exa_orch.errors import StoreError
from exa_orch.store import migrations, postgres

BUSY_TIMEOUT_MS = 5_000
STATEMENT_TIMEOUT_MS = 30_000
PG_OPTIONS = (
    f"-c default_transaction_read_only=on -c statement_timeout={STATEMENT_TIMEOUT_MS} -c TimeZone=UTC"
)


def sqlite_uri(path: Path) -> str:
    """A `file:` URI that opens `path` read-only; StoreError when there is no such file."""
    if not path.exists():
        raise StoreError(
            f"no database at {path}", hint=f"Create it with `exa-orch db migrate --db {path}`, or pass --db."
        )
    return path.resolve().as_uri() + "?mode=ro"


def unreadable(path: Path, exc: BaseException) -> StoreError:
    """The one error for an SQLite file that could not be opened or read."""
    return StoreError(
        f"cannot read the database {path}: {exc}",
        hint="Point --db (or EXA_ORCH_DB) at a readable exa-orch database file "
        "(`exa-orch db migrate` creates one).",
    )


def probe_sqlite(path: Path) -> str:
    """The read-only URI of `path`, once the file was opened and found to be SQLite and not
    another application's (StoreError, ForeignDatabase). Opened without aiosqlite: when
    aiosqlite's connect fails, its worker thread outlives the event loop and prints a traceback
    of its own after ours."""
    uri = sqlite_uri(path)
    try:
        conn = sqlite3.connect(uri, uri=True)
        try:
            conn.execute("PRAGMA schema_version")  # opening is lazy; this reads the header
            migrations.refuse_foreign(conn, path)
        finally:
            conn.close()
    except sqlite3.Error as exc:  # a directory, a socket, unreadable, not SQLite
        raise unreadable(path, exc) from None
    return uri


async def open_sqlite(path: Path) -> aiosqlite.Connection:
    """A read-only aiosqlite connection to `path` in autocommit, after `probe_sqlite`."""
    uri = probe_sqlite(path)
    try:
        conn = await aiosqlite.connect(uri, uri=True, isolation_level=None)
    except sqlite3.Error as exc:
        raise unreadable(path, exc) from None
    try:
        await conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        await conn.execute("PRAGMA query_only = ON")
    except BaseException:
        await conn.close()
        raise
    return conn


async def open_postgres(
    url: str, *, autocommit: bool = False, application: str = "exa-orch read-only"
) -> Any:
    """A psycopg AsyncConnection to `url` on which every transaction is read-only (ConfigError
    without the driver, StoreError if it can't connect). `autocommit`: each statement its own
    read-only transaction, so each read sees the latest commit."""
    postgres.require_driver()
    import psycopg

    try:
        return await psycopg.AsyncConnection.connect(
            url, autocommit=autocommit, application_name=application, options=PG_OPTIONS
        )
    except psycopg.Error as exc:
        raise postgres.connect_error(url, exc) from None


def connect_postgres_sync(url: str, *, application: str) -> Any:
    """A synchronous psycopg connection in autocommit, every transaction read-only (as
    `open_postgres`), for a caller that drives the protocol itself (`exa-orch sql`)."""
    postgres.require_driver()
    import psycopg

    try:
        return psycopg.connect(url, autocommit=True, application_name=application, options=PG_OPTIONS)
    except psycopg.Error as exc:
        raise postgres.connect_error(url, exc) from None


def pg_errors() -> tuple[type[Exception], ...]:
    """psycopg's base error as a tuple to catch (empty when it isn't loaded: nothing raised it)."""
    psycopg = sys.modules.get("psycopg")
    return () if psycopg is None else (psycopg.Error,)
