"""The SQLite backend: one file on this machine, shared by the processes that open it.

The writer's connection runs in WAL mode (`synchronous = NORMAL`: a process crash loses nothing,
only power loss can drop the last commits), with its checkpoints on a thread of their own
(checkpoint.py); the reader is a separate aiosqlite connection that WAL lets run beside the
writer, `query_only`. Time is this machine's. Nothing tells one process another's commits: a
waiter polls.

The read-only faces open the file read-only: it must exist (it is never created), it is opened
with a `mode=ro` URI, probed once (its header read, and another application's database refused
with FOREIGN_DATABASE, the file left byte-identical), then connected with `PRAGMA query_only`.
`exa-orch sql` adds an authorizer that allows only reading and functions that only compute, and
a progress handler that stops a query at its time limit.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Coroutine, Sequence
from pathlib import Path
from typing import Any, cast

import aiosqlite

from exa_orch.config import data_dir
from exa_orch.errors import ConfigError, InvalidParams, StoreError
from exa_orch.store import costs, migrations, tasks
from exa_orch.store.backend import (
    SQL_MAX_VALUE_BYTES,
    Columns,
    Dialect,
    Rows,
    not_utf8,
    one_statement,
    query_failed,
    read_only,
    too_big,
    too_long,
)
from exa_orch.store.checkpoint import BACKSTOP_PAGES, Checkpointer
from exa_orch.store.migrations import Migration
from exa_orch.store.sqlite_bounds import SqlConnection, bounded_rows, stopped_at_limit
from exa_orch.store.viewer import ALL_VIEWERS, SCOPED_VIEWS, may_read, temp_views

READONLY_BUSY_TIMEOUT_MS = 5_000

DIALECT = Dialect(
    name="sqlite",
    save_step=tasks.SAVE_STEP,
    record_cost=costs.INSERT_SQLITE,
    task_columns="SELECT name FROM pragma_table_info('tasks')",
    partial_summary="SELECT j.key, j.type, CASE j.type WHEN 'array' THEN json_array_length(j.value)"
    " WHEN 'object' THEN (SELECT count(*) FROM json_each(j.value)) ELSE substr(j.value, 1, 200) END AS shown"
    " FROM tasks t, json_each(t.partial_result) j WHERE t.id = ?"
    " AND json_valid(t.partial_result) AND json_type(t.partial_result) = 'object' LIMIT 30",
)


def set_up_writer(conn: sqlite3.Connection, busy_timeout_ms: int, *, wal: bool = True) -> None:
    """The store's pragmas on a write connection."""
    # A generous busy timeout rides out another process's write transaction instead of failing.
    conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
    if wal:
        conn.execute("PRAGMA journal_mode = WAL")
        # Most checkpoint work runs on its own thread (checkpoint.py); see BACKSTOP_PAGES there.
        conn.execute(f"PRAGMA wal_autocheckpoint = {BACKSTOP_PAGES}")
    # NORMAL in WAL mode survives process crashes (kill -9); only power loss can drop the last commits.
    conn.execute("PRAGMA synchronous = NORMAL")
    conn.execute("PRAGMA foreign_keys = ON")


class Reader:
    """The store's read connection: aiosqlite, `query_only`."""

    fetchall: Callable[..., Coroutine[Any, Any, list[Any]]]

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn
        # The store's hot read path: aiosqlite's own method, no wrapper (it answers with a list).
        self.fetchall = cast(Callable[..., Coroutine[Any, Any, list[Any]]], conn.execute_fetchall)

    @classmethod
    async def open(cls, target: str, busy_timeout_ms: int, *, uri: bool = False) -> Reader:
        conn = await aiosqlite.connect(target, uri=uri, isolation_level=None)
        try:
            await conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
            # The reader never writes; make that a guarantee rather than a convention.
            await conn.execute("PRAGMA query_only = ON")
        except BaseException:
            await conn.close()
            raise
        return cls(conn)

    async def close(self) -> None:
        await self._conn.close()


# --- read-only: the faces ------------------------------------------------------------------------


def unreadable(where: str, exc: BaseException) -> StoreError:
    """The one error for an SQLite file that could not be opened or read."""
    return StoreError(
        f"cannot read the database {where}: {exc}",
        hint="Point --db (or EXA_ORCH_DB) at a readable exa-orch database file "
        "(`exa-orch db migrate` creates one).",
    )


def probe(where: str, uri: str) -> None:
    """Open `uri` once and check it is SQLite and not another application's (StoreError,
    ForeignDatabase). Opened without aiosqlite: when aiosqlite's connect fails, its worker thread
    outlives the event loop and prints a traceback of its own after ours."""
    try:
        conn = sqlite3.connect(uri, uri=True)
        try:
            conn.execute("PRAGMA schema_version")  # opening is lazy; this reads the header
            migrations.refuse_foreign(conn, where)
        finally:
            conn.close()
    except sqlite3.Error as exc:  # a directory, a socket, unreadable, not SQLite
        raise unreadable(where, exc) from None


class ReadOnly:
    """A read-only aiosqlite connection in autocommit, for the faces."""

    def __init__(self, conn: aiosqlite.Connection, name: str, where: str) -> None:
        self._conn = conn
        self.name = name
        self.where = where

    @classmethod
    async def open(
        cls, where: str, uri: str, name: str, factory: type[sqlite3.Connection] = sqlite3.Connection
    ) -> ReadOnly:
        probe(where, uri)
        try:
            conn = await aiosqlite.connect(uri, uri=True, isolation_level=None, factory=factory)
        except sqlite3.Error as exc:
            raise unreadable(where, exc) from None
        try:
            await conn.execute(f"PRAGMA busy_timeout = {READONLY_BUSY_TIMEOUT_MS}")
            await conn.execute("PRAGMA query_only = ON")
        except BaseException:
            await conn.close()
            raise
        return cls(conn, name, where)

    async def rows(self, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
        try:
            async with self._conn.execute(sql, params) as cursor:
                names = [d[0] for d in cursor.description or ()]
                return [dict(zip(names, row, strict=True)) for row in await cursor.fetchall()]
        except sqlite3.Error as exc:
            raise could_not_answer(exc, self.where) from None

    async def run_query(
        self, query: str, timeout_s: float, viewer: str = ALL_VIEWERS
    ) -> tuple[Columns, Rows]:
        """One statement under the authorizer and the time limit (see the module's docstring), for
        `viewer` (store/viewer.py)."""
        guard = _Guard(viewer)
        conn = self._conn
        if viewer != ALL_VIEWERS:  # the viewer's scoped views, in this connection's temp schema
            main_sql = await conn.execute_fetchall(
                "SELECT name, sql FROM sqlite_master WHERE type = 'view' AND name IN ('v_entities', 'v_sightings')"
            )
            await conn.execute("PRAGMA query_only = OFF")
            for statement in temp_views(viewer, {str(name): str(sql) for name, sql in main_sql}):
                await conn.execute(statement)
            await conn.execute("PRAGMA query_only = ON")
        await conn.set_authorizer(guard)
        deadline = time.monotonic() + timeout_s
        late = False

        def stop_if_late() -> int:  # called every few thousand VM steps: non-zero interrupts the query
            nonlocal late
            late = time.monotonic() > deadline
            return int(late)

        await conn.set_progress_handler(stop_if_late, 10_000)
        try:
            async with conn.execute(query) as cursor:
                rows = await bounded_rows(cursor)
                columns = [d[0] for d in cursor.description or ()]
        except UnicodeEncodeError:
            raise not_utf8() from None
        except sqlite3.ProgrammingError as exc:
            raise one_statement(str(exc)) from None
        except sqlite3.Error as exc:
            if late:
                raise too_long(timeout_s, "open the file with sqlite3 yourself") from None
            if stopped_at_limit(exc):
                raise too_big("a value it made", SQL_MAX_VALUE_BYTES) from None
            if guard.refused is not None or "readonly" in str(exc) or "query_only" in str(exc):
                raise read_only(guard.refused or "a write") from None
            await conn.set_authorizer(None)
            await conn.set_progress_handler(lambda: 0, 0)
            try:
                names = await conn.execute_fetchall(
                    "SELECT name FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%' "
                    "ORDER BY name"
                )
            except sqlite3.Error:  # reading the file itself failed (damaged, say)
                raise unreadable(self.where, exc) from None
            raise query_failed(str(exc), [str(n[0]) for n in names]) from None
        if not columns:
            raise InvalidParams(
                "the query has no statement to run (it is empty or only a comment)",
                hint="Give one statement, e.g. `select * from v_tasks`.",
                fields=["query"],
            )
        return columns, rows

    async def close(self) -> None:
        await self._conn.close()


def could_not_answer(exc: BaseException, where: str) -> StoreError:
    """A query of a face the database could not answer: an older or foreign schema (no v_archive,
    say), or a locked file."""
    text = str(exc).strip()
    first = text.splitlines()[0] if text else type(exc).__name__
    return StoreError(
        f"the database could not answer: {first}",
        hint=f"Bring it up to date with `exa-orch db migrate --db {where}` (or start the server once on it).",
    )


# --- `exa-orch sql`'s authorizer -----------------------------------------------------------------

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


class _Guard:
    """An authorizer that allows reads and records the first refused action."""

    def __init__(self, viewer: str = ALL_VIEWERS) -> None:
        self.refused: str | None = None
        self.viewer = viewer

    def __call__(
        self, action: int, arg1: str | None, arg2: str | None, db: str | None, src: str | None
    ) -> int:
        if action == sqlite3.SQLITE_READ and not may_read(arg1, arg2, db, src, self.viewer):
            if self.refused is None:
                # a memory table read through a main view's name: the main view was read itself
                shown = (
                    f"main.{src}" if src in SCOPED_VIEWS else f"main.{arg1}" if arg1 in SCOPED_VIEWS else arg1
                )
                self.refused = (
                    f"reading {shown} (yours: v_entities, v_sightings, v_tasks; --all-owners: every owner's)"
                )
            return sqlite3.SQLITE_DENY
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


# --- the backend ---------------------------------------------------------------------------------


class SqliteBackend:
    """An SQLite file (created when a Store opens it, in an existing directory; the per-user data
    directory is made when missing)."""

    name = "sqlite"
    dialect = DIALECT
    wal = True  # WAL journal, with its checkpoints on a thread of their own

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self.where = str(path)
        self._checkpointer = Checkpointer(lambda: self.connect(1.0, synchronous="NORMAL"))

    @classmethod
    def accepts(cls, target: object) -> bool:
        """Any path is an SQLite file (the registry asks the other backends first)."""
        return isinstance(target, str | Path)

    def uri(self, *, readonly: bool = False) -> str:
        """The `file:` URI of the database (`mode=ro`: it can't be written, nor created)."""
        return self.path.resolve().as_uri() + ("?mode=ro" if readonly else "")

    def exists(self) -> bool:
        return self.path.exists()

    def connect(self, timeout_s: float, *, synchronous: str | None = None) -> sqlite3.Connection:
        """A plain connection in autocommit (the writer and the checkpoint thread start from one)."""
        conn = sqlite3.connect(self.uri(), uri=True, isolation_level=None, timeout=timeout_s)
        if synchronous is not None:
            conn.execute(f"PRAGMA synchronous = {synchronous}")
        return conn

    def prepare(self) -> None:
        """The per-user data directory (the default database's) is made when missing; any other
        directory must exist: a mistyped --db would otherwise leave a new folder and an empty
        database behind, silently."""
        parent = self.path.parent
        if parent.is_dir():
            return
        if parent != data_dir():
            raise ConfigError(
                f"the directory of the database {self.path} does not exist",
                hint=f"Check the path, or create the directory first (`mkdir -p {parent}`); a new "
                "database file is made in an existing directory. Leave out --db (and EXA_ORCH_DB) "
                "for the default in the per-user data directory.",
            )
        try:
            parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ConfigError(
                f"cannot create the directory of the database {self.path}: {exc.strerror or exc}",
                hint="Choose a file in a writable directory with EXA_ORCH_DB or --db.",
            ) from None

    def default_clock(self) -> Callable[[], float] | None:
        return None

    def connect_writer(self, busy_timeout_ms: int) -> sqlite3.Connection:
        """A write connection with the store's pragmas (autocommit mode: the writer issues BEGIN)."""
        try:
            conn = self.connect(busy_timeout_ms / 1000)
            conn.execute("PRAGMA schema_version").fetchone()  # opening is lazy; make it fail here
        except sqlite3.Error as exc:
            not_sqlite = "not a database" in str(exc)
            raise StoreError(
                f"cannot open the database {self.where}: {exc}",
                hint="It is not an SQLite database: choose another file with EXA_ORCH_DB or --db (a new "
                "file is created where none exists)."
                if not_sqlite
                else "Check that the file and its directory exist and are readable and writable, or "
                "choose another file with EXA_ORCH_DB or --db.",
            ) from exc
        try:
            migrations.refuse_foreign(conn, self.where)
        except BaseException:
            conn.close()
            raise
        set_up_writer(conn, busy_timeout_ms, wal=self.wal)
        return conn

    def migrate(self, conn: sqlite3.Connection, migrations_dir: Path | None) -> list[Migration]:
        return migrations.apply(conn, migrations.load_migrations(migrations_dir))

    def retryable(self, exc: BaseException) -> bool:
        return False

    def on_commit(self) -> None:
        if self.wal:
            self._checkpointer.poke()

    async def start(self, busy_timeout_ms: int) -> None:
        if self.wal:
            self._checkpointer.start()

    async def stop(self) -> None:
        self._checkpointer.stop()

    async def open_reader(self, busy_timeout_ms: int) -> Reader:
        return await Reader.open(self.uri(), busy_timeout_ms, uri=True)

    def listener(self, on_change: Callable[[str | None], None]) -> None:
        return None

    async def open_readonly(self, application: str) -> ReadOnly:
        if not self.exists():
            raise StoreError(
                f"no database at {self.where}",
                hint=f"Create it with `exa-orch db migrate --db {self.where}`, or pass --db.",
            )
        return await ReadOnly.open(self.where, self.uri(readonly=True), self.path.name)

    async def run_query(
        self, query: str, timeout_s: float, viewer: str = ALL_VIEWERS
    ) -> tuple[Columns, Rows]:
        if not self.exists():
            await self.open_readonly("exa-orch sql")  # the one error for a missing file
        conn = await ReadOnly.open(self.where, self.uri(readonly=True), self.path.name, SqlConnection)
        try:
            return await conn.run_query(query, timeout_s, viewer)
        finally:
            await conn.close()
