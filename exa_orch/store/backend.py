"""What a database must provide to hold an exa-orch store: the `Backend` protocol.

A backend is one module (SQLite's in `store/sqlite.py`, PostgreSQL's in `store/pgbackend.py`) and
one line in `store/backends.py`'s registry. `Store` (the server's owner of the database), the
read-only faces (`exa-orch view`, `exa-orch tasks`, `exa-orch sql`) and the admin tools hold one
backend and never ask which it is: everything they need that differs between databases is here.

- the writer's connection (a DB-API connection that takes SQLite's `?` / `?N` placeholders, driven
  by the group-commit writer on its thread), the migrations it applies, the errors after which a
  batch is run again, and what runs after each commit;
- the reader (async, for the store's own lookups), and the listener that hears other processes'
  changes (None where the database can't tell: a waiter then polls);
- the clock the store stamps and fences with (None: this machine's);
- a read-only connection for the faces, `exa-orch sql`'s guarded query, and the few SQL texts
  the backends can't share (`Dialect`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from exa_orch.errors import InvalidParams
from exa_orch.store.migrations import Migration

Columns = list[str]
Rows = list[tuple[Any, ...]]


@dataclass(frozen=True)
class Dialect:
    """The SQL the backends can't share; every other statement of the store and the views is
    written once (SQLite's spelling, translated by a backend that needs it)."""

    name: str
    save_step: str  # the checkpoint upsert (see tasks.save_step): parameters task, key, result, now, owner
    record_cost: str  # the cost ledger's insert (see costs.Pending): parameters as costs.params
    task_columns: str  # the names of the tasks table's columns, as `name`
    partial_summary: str  # (key, type, shown) of a task's partial result, see ViewDB.partial_summary


class Reader(Protocol):
    """The store's async read connection: each read sees the latest commit."""

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Any]: ...

    async def close(self) -> None: ...


class Listener(Protocol):
    """Hears the changes other processes commit and hands each task id (None: anything may have
    changed) to the callback it was made with."""

    async def start(self) -> None: ...

    async def stop(self) -> None: ...


class ReadOnly(Protocol):
    """A read-only connection for the faces: every transaction read-only, never migrated or
    written. `rows` answers with dicts; a query the database can't answer is a StoreError."""

    name: str  # the database's name, for page headers

    async def rows(self, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]: ...

    async def close(self) -> None: ...


class Backend(Protocol):
    """One database holding one exa-orch store. Made by `store.backends.backend_for(target)`."""

    name: str  # "sqlite", "postgresql", ...
    where: str  # where it is, fit for a message or a log line (a URL's password left out)
    dialect: Dialect

    def prepare(self) -> None:
        """Before a Store opens it: make what must exist first (a file's directory); ConfigError if
        it can't."""
        ...

    def default_clock(self) -> Callable[[], float] | None:
        """The clock a Store uses when none is given (None: this machine's `time.time`)."""
        ...

    # --- the writer thread ------------------------------------------------------------------

    def connect_writer(self, busy_timeout_ms: int) -> Any:
        """The write connection (called on the writer thread; autocommit: the writer BEGINs)."""
        ...

    def migrate(self, conn: Any, migrations_dir: Path | None) -> list[Migration]:
        """Apply pending migrations on the writer's connection; return those applied."""
        ...

    def retryable(self, exc: BaseException) -> bool:
        """True if a batch that failed with `exc` may succeed when run again (a deadlock)."""
        ...

    def on_commit(self) -> None:
        """Called on the writer thread after each committed batch."""
        ...

    # --- the event loop ---------------------------------------------------------------------

    async def start(self, busy_timeout_ms: int) -> None:
        """Once the migrations are applied: start what runs beside the writer (SQLite's WAL
        checkpoints)."""
        ...

    async def stop(self) -> None:
        """Stop what `start` started; idempotent."""
        ...

    async def open_reader(self, busy_timeout_ms: int) -> Reader: ...

    def listener(self, on_change: Callable[[str | None], None]) -> Listener | None:
        """A listener for other processes' changes, or None if this database can't tell them."""
        ...

    # --- the read-only faces ----------------------------------------------------------------

    async def open_readonly(self, application: str) -> ReadOnly:
        """A read-only connection to an existing, migrated exa-orch database (StoreError,
        ForeignDatabase otherwise): `application` names it to the server."""
        ...

    async def run_query(self, query: str, timeout_s: float, viewer: str = "*") -> tuple[Columns, Rows]:
        """`exa-orch sql`: one statement, guarded by the database so that it can only read
        exa-orch's tables and views, stopped after `timeout_s`, showing `viewer`'s entity memory
        (store/viewer.py). InvalidParams if it was refused, failed or ran too long; StoreError if
        the database could not be reached or was lost."""
        ...


# --- the errors `run_query` gives, on any backend ----------------------------------------------

# What one `exa-orch sql` query may hand back, so a query that makes a huge string (or a huge
# result) ends with an error instead of taking the process's memory: the most one value may hold
# (SQLite's SQLITE_LIMIT_LENGTH) and the most the rows may hold together (text by its length, plus
# ROW_OVERHEAD per value for Python's objects).
SQL_MAX_VALUE_BYTES = 32 * 1024 * 1024
SQL_MAX_RESULT_BYTES = 32 * 1024 * 1024
ROW_OVERHEAD = 64


def too_big(what: str, limit: int) -> InvalidParams:
    """A query stopped at one of SQL_MAX_VALUE_BYTES / SQL_MAX_RESULT_BYTES."""
    return InvalidParams(
        f"the query was stopped: {what} went past exa-orch sql's limit of {limit // (1024 * 1024)} MB",
        hint="Ask for less: a LIMIT, fewer columns, or substr()/length() of a big value instead of the value.",
        fields=["query"],
    )


def value_bytes(value: object) -> int:
    """What one value of a result counts against SQL_MAX_RESULT_BYTES."""
    if isinstance(value, str | bytes | bytearray | memoryview):
        return len(value) + ROW_OVERHEAD
    return ROW_OVERHEAD


def not_utf8() -> InvalidParams:
    """A query that can't be sent: bytes that are not UTF-8."""
    return InvalidParams(
        "the query is not valid text (it has bytes that are not UTF-8)",
        hint="Retype it in UTF-8, e.g. `select * from v_tasks`.",
        fields=["query"],
    )


def read_only(what: str) -> InvalidParams:
    """A query refused because it would write: `what` it tried ('DELETE tasks', 'a write')."""
    return InvalidParams(
        f"exa-orch sql is read-only; refused {what}",
        hint="Ask with SELECT (e.g. `select * from v_tasks`); tasks change through the MCP tools.",
        fields=["query"],
    )


def one_statement(said: str) -> InvalidParams:
    """A query of several statements."""
    return InvalidParams(
        f"exa-orch sql runs exactly one statement: {said}",
        hint="Run each statement on its own, or join them into one SELECT.",
        fields=["query"],
    )


def too_long(timeout_s: float, hint: str) -> InvalidParams:
    """A query stopped at its time limit."""
    return InvalidParams(
        f"the query ran longer than exa-orch sql's time limit ({timeout_s:g} s) and was stopped",
        hint=f"Narrow it (a WHERE, a LIMIT), or {hint}.",
        fields=["query"],
    )


def query_failed(said: str, tables: Sequence[str]) -> InvalidParams:
    """A query the database could not run (a typo, a missing table), with the tables there are."""
    return InvalidParams(
        f"the query failed: {said}",
        hint="Tables and views: " + ", ".join(tables)
        if tables
        else "This database has no tables yet: create them with `exa-orch db migrate`.",
        fields=["query"],
    )
