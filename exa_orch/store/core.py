"""The Store: a process's one async owner of the database (tasks, checkpoints, leases, archive).

`async with Store(path) as store` opens the SQLite file (creating it), applies pending
migrations, and starts the group-commit writer. Writes go through that writer (one thread,
`BEGIN IMMEDIATE`, futures resolved after COMMIT); reads use a separate read-only aiosqlite
connection, which WAL lets run beside the writer. Several processes may open the same file;
leases decide which one runs a task.

`Store("postgresql://...")` is the same store on a PostgreSQL server (postgres.py), which
servers on several machines can share: the same operations run through the same writer on a
psycopg connection, reads use an async psycopg connection, and `watch` hears other servers'
changes through LISTEN/NOTIFY. Nothing above the store needs to know which backend runs.
"""

from __future__ import annotations

import asyncio
import enum
import json
import sqlite3
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any, Self

import aiosqlite

from exa_orch.errors import ConfigError, InvalidParams, StoreError, TaskNotFound
from exa_orch.store import archive, costs, leases, migrations, postgres, tasks
from exa_orch.store.changes import Changes
from exa_orch.store.checkpoint import BACKSTOP_PAGES, Checkpointer
from exa_orch.store.records import (
    TaskRecord,
    TaskStatus,
    dumps,
    dumps_or_none,
    iso,
    parse_status,
    record_from_row,
)
from exa_orch.store.writer import GroupCommitWriter, WriterStats

DEFAULT_BUSY_TIMEOUT_MS = 30_000
# Well under SQLite's and PostgreSQL's limits on the parameters of one statement.
_IDS_PER_READ = 500


class _State(enum.Enum):
    UNOPENED = 1  # constructed, not entered yet
    OPEN = 2  # connections open, writer running
    CLOSED = 3  # closed for good; a Store is not reopened


def ensure_parent_dir(path: Path | str) -> None:
    """Create the directory that will hold the database file; ConfigError naming the path if it can't.
    (Nothing to do for a PostgreSQL URL.)"""
    if postgres.is_url(path):
        return
    try:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ConfigError(
            f"cannot create the directory of the database {path}: {exc.strerror or exc}",
            hint="Choose a file in a writable directory with EXA_ORCH_DB or --db.",
        ) from None


def connect_writer(path: Path, busy_timeout_ms: int) -> sqlite3.Connection:
    """A write connection with the store's pragmas (autocommit mode: we issue BEGIN ourselves)."""
    try:
        conn = sqlite3.connect(path, isolation_level=None, timeout=busy_timeout_ms / 1000)
        conn.execute("PRAGMA schema_version").fetchone()  # opening is lazy; make it fail here
    except sqlite3.Error as exc:
        not_sqlite = "not a database" in str(exc)
        raise StoreError(
            f"cannot open the database {path}: {exc}",
            hint="It is not an SQLite database: choose another file with EXA_ORCH_DB or --db (a new "
            "file is created where none exists)."
            if not_sqlite
            else "Check that the file and its directory exist and are readable and writable, or "
            "choose another file with EXA_ORCH_DB or --db.",
        ) from exc
    try:
        migrations.refuse_foreign(conn, path)
    except BaseException:
        conn.close()
        raise
    # A generous busy timeout rides out another process's write transaction instead of failing.
    conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
    conn.execute("PRAGMA journal_mode = WAL")
    # NORMAL in WAL mode survives process crashes (kill -9); only power loss can drop the last commits.
    conn.execute("PRAGMA synchronous = NORMAL")
    conn.execute("PRAGMA foreign_keys = ON")
    # Most checkpoint work runs on its own thread (checkpoint.py); see BACKSTOP_PAGES there.
    conn.execute(f"PRAGMA wal_autocheckpoint = {BACKSTOP_PAGES}")
    return conn


def connect_checkpointer(path: Path) -> sqlite3.Connection:
    """A connection for the checkpoint thread."""
    conn = sqlite3.connect(path, isolation_level=None, timeout=1.0)
    conn.execute("PRAGMA synchronous = NORMAL")
    return conn


class Store:
    """Tasks, step checkpoints, leases and the archive in one SQLite file or PostgreSQL database.

    `path` is a file path, or a `postgresql://` URL. `clock` (epoch seconds) defaults to the local
    clock for SQLite and to the database server's clock for PostgreSQL. See data-design/.
    """

    def __init__(
        self,
        path: str | Path,
        *,
        migrations_dir: Path | None = None,
        busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS,
        clock: Callable[[], float] | None = None,
        owner_id: str | None = None,
    ) -> None:
        self.url: str | None = str(path) if postgres.is_url(path) else None
        self.path = Path(path) if self.url is None else Path()
        self.owner_id: str = leases.use_owner_id(owner_id) if owner_id else leases.new_owner_id()
        self.applied_migrations: list[str] = []
        self._migrations_dir = migrations_dir
        self._busy_timeout_ms = busy_timeout_ms
        self._db_clock = postgres.DbClock() if self.url is not None and clock is None else None
        self._clock: Callable[[], float] = clock or self._db_clock or time.time
        self._checkpointer = Checkpointer(lambda: connect_checkpointer(self.path))
        self._writer = GroupCommitWriter(
            on_commit=self._checkpointer.poke if self.url is None else None,
            retryable=postgres.retryable if self.url is not None else None,
        )
        self._reader: aiosqlite.Connection | None = None
        self._pg_reader: postgres.Reader | None = None
        self._listener: postgres.Listener | None = None
        self._changes = Changes()
        self._state = _State.UNOPENED
        self._archivers: dict[str, archive.Extractor] = {}

    # --- lifecycle ------------------------------------------------------------------------

    async def __aenter__(self) -> Self:
        await self.open()
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.aclose()

    async def open(self) -> None:
        """Open the file, apply pending migrations, start the writer. MigrationError on a bad schema."""
        if self._state is not _State.UNOPENED:
            raise StoreError("a Store can be opened only once", hint="Create a new Store(path).")
        self._state = _State.OPEN
        if self.url is not None:
            try:
                await self._open_postgres(self.url)
            except BaseException:
                await self.aclose()
                raise
            return
        try:
            found = migrations.load_migrations(self._migrations_dir)
            path, busy = self.path, self._busy_timeout_ms
            await self._writer.start(lambda: connect_writer(path, busy))
            done = await self._writer.call(lambda conn: migrations.apply(conn, found))
            self.applied_migrations = [m.label for m in done]
            self._checkpointer.start()
            self._reader = await aiosqlite.connect(self.path, isolation_level=None)
            await self._reader.execute(f"PRAGMA busy_timeout = {int(busy)}")
            # The reader never writes; make that a guarantee rather than a convention.
            await self._reader.execute("PRAGMA query_only = ON")
        except BaseException:
            await self.aclose()
            raise

    async def _open_postgres(self, url: str) -> None:
        postgres.require_driver()
        base = self._migrations_dir or migrations.default_migrations_dir()
        found = migrations.load_migrations(postgres.migrations_dir(base))
        db_clock = self._db_clock
        await self._writer.start(lambda: postgres.PgConn(url, db_clock))
        done = await self._writer.call(lambda conn: postgres.apply_migrations(conn, found))
        self.applied_migrations = [m.label for m in done]
        self._pg_reader = postgres.Reader(url)
        await self._pg_reader.open()
        self._listener = postgres.Listener(url, self._changes.notified)
        await self._listener.start()

    async def aclose(self) -> None:
        """Commit queued writes and close both connections; idempotent."""
        self._state = _State.CLOSED
        try:
            await self._writer.aclose()
        finally:
            self._checkpointer.stop()
            reader, self._reader = self._reader, None
            if reader is not None:
                await reader.close()
            pg_reader, self._pg_reader = self._pg_reader, None
            if pg_reader is not None:
                await pg_reader.close()
            listener, self._listener = self._listener, None
            if listener is not None:
                await listener.stop()

    # --- change notifications -------------------------------------------------------------

    @property
    def notifies(self) -> bool:
        """True if `watch` hears changes committed by other processes (PostgreSQL's LISTEN/NOTIFY);
        on SQLite a waiter has to poll for those."""
        return self._listener is not None

    def watch(self, task_id: str) -> asyncio.Event:
        """An event set when the task's status or cancel flag changes, or its lease is taken over
        (in any process, on PostgreSQL). Take it before reading the task, and `unwatch` it when done."""
        return self._changes.watch(task_id)

    def unwatch(self, task_id: str, event: asyncio.Event) -> None:
        """Forget an event `watch` returned."""
        self._changes.unwatch(task_id, event)

    def on_runnable(self, callback: Callable[[], None]) -> Callable[[], None]:
        """Call `callback` when any process creates a task or lets an unfinished one go
        (PostgreSQL's NOTIFY; never on SQLite), so an idle server claims it at once rather than
        at its next poll. Returns the function that unregisters it."""
        return self._changes.on_runnable(callback)

    def on_change(self, callback: Callable[[str | None], None]) -> Callable[[], None]:
        """Call `callback(task_id)` when any process changes a task's status or cancel flag, or
        takes its lease over from another holder (PostgreSQL's NOTIFY; never on SQLite), and
        `callback(None)` when notifications may have been missed (the listener reconnected), so
        anything may have changed. It runs on the event loop and must not block. Returns the
        function that unregisters it."""
        return self._changes.on_change(callback)

    @property
    def writer_stats(self) -> WriterStats:
        """Group-commit counters (ops, batches, largest batch)."""
        return self._writer.stats

    async def _read(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        if self._pg_reader is not None:
            if any(isinstance(p, str) and "\x00" in p for p in params):
                # PostgreSQL's text can't hold NUL, so no row has one: a lookup by one finds nothing
                # (as it does in SQLite) rather than failing in the driver.
                return []
            return await self._pg_reader.fetchall(sql, params)
        if self._reader is None:
            raise StoreError("the store is not open", hint="Use `async with Store(path) as store`.")
        return list(await self._reader.execute_fetchall(sql, params))

    # --- tasks ----------------------------------------------------------------------------

    async def create_task(
        self,
        type: str,
        args: dict[str, Any],
        *,
        ttl_ms: int = 3_600_000,
        meta: dict[str, Any] | None = None,
        principal: str | None = None,
    ) -> TaskRecord:
        """Insert a new pending task with id 'task_<uuid4>', owned by `principal`, and return it."""
        if not isinstance(type, str) or not type:
            raise InvalidParams("a task needs a non-empty type", fields=["type"])
        if not isinstance(args, dict):
            raise InvalidParams("task args must be an object", fields=["args"])
        if not isinstance(ttl_ms, int) or ttl_ms < 0:
            raise InvalidParams(f"ttl_ms must be a whole number >= 0, got {ttl_ms!r}", fields=["ttl_ms"])
        args_json, meta_json = dumps(args, "args"), dumps(meta or {}, "meta")
        clock = self._clock
        if principal is not None and (not isinstance(principal, str) or not principal):
            raise InvalidParams("a task's principal is a non-empty name", fields=["principal"])
        return await self._writer.submit(
            lambda c: tasks.create(c, clock, type, args_json, ttl_ms, meta_json, principal)
        )

    async def get_task(self, task_id: str) -> TaskRecord:
        """The task; TaskNotFound if there is none (or it expired and was deleted)."""
        rows = await self._read(tasks.SELECT_TASK, (task_id,))
        if not rows:
            raise TaskNotFound(task_id)
        return record_from_row(rows[0])

    async def get_tasks(self, task_ids: Sequence[str]) -> list[TaskRecord]:
        """The rows of those of `task_ids` that exist, in no particular order (one query per 500 ids)."""
        records: list[TaskRecord] = []
        task_ids = [i for i in task_ids if "\x00" not in i]  # one such id would empty its whole chunk
        for start in range(0, len(task_ids), _IDS_PER_READ):
            chunk = task_ids[start : start + _IDS_PER_READ]
            rows = await self._read(tasks.SELECT_TASK_IN + tasks.placeholders(len(chunk)), chunk)
            records.extend(record_from_row(row) for row in rows)
        return records

    async def list_tasks(
        self,
        *,
        status: str | Sequence[str] | None = None,
        type: str | None = None,
        limit: int = 50,
        cursor: str | None = None,
        principal: str | None = None,
        include_unowned: bool = False,
    ) -> tuple[list[TaskRecord], str | None]:
        """One page of tasks, oldest first, and the cursor of the next page (None at the end).

        With `principal`, only the tasks it owns (plus, with `include_unowned`, those with no owner).
        """
        sql, params = tasks.list_query(status, type, limit, cursor, principal, include_unowned)
        records = [record_from_row(row) for row in await self._read(sql, params)]
        if len(records) > limit:
            records = records[:limit]
            return records, tasks.encode_cursor(records[-1])
        return records, None

    async def transition(
        self, task_id: str, status: str, *, message: str | None = None, owner: str | None = None
    ) -> TaskRecord:
        """Change the task's status if allowed and return it.

        The same status is a no-op; a finished task can't change (InvalidTransition); with
        `owner`, only the lease holder may change it (LeaseHeld). A finished task gets
        expires_at = finish time + ttl_ms and loses its lease.
        """
        target = parse_status(status)
        clock = self._clock
        return await self._writer.submit(
            lambda c: tasks.transition(c, clock, task_id, target, message, owner, on_finish=self._file_run)
        )

    async def set_progress(self, task_id: str, progress: dict[str, Any], *, owner: str | None = None) -> None:
        """Record progress {step, completed, total, message}; TaskTerminal once finished.

        With `owner`, only the lease holder may write it (LeaseHeld otherwise), as for every
        write a runner makes into its task: a runner that lost its lease writes nothing more.
        """
        if not isinstance(progress, dict):
            raise InvalidParams(
                "progress must be an object {step, completed, total, message}", fields=["progress"]
            )
        text, clock = dumps(progress, "progress"), self._clock
        await self._writer.submit(lambda c: tasks.set_progress(c, clock, task_id, text, owner))

    async def set_partial(self, task_id: str, partial: Any, *, owner: str | None = None) -> None:
        """Replace the task's partial result; TaskTerminal once finished; with `owner`, LeaseHeld
        unless it holds the lease."""
        text, clock = dumps_or_none(partial, "partial"), self._clock
        await self._writer.submit(lambda c: tasks.set_partial(c, clock, task_id, text, owner))

    async def complete(
        self, task_id: str, result: Any, *, owner: str | None = None, cancel_wins: bool = False
    ) -> TaskRecord:
        """Finish the task with `result`; InvalidTransition if it already finished.

        With `cancel_wins`, a task whose cancel was requested ends `cancelled` instead (the result
        is dropped): check the returned record's status.
        """
        text, clock = dumps(result, "result"), self._clock
        return await self._writer.submit(
            lambda c: tasks.transition(
                c,
                clock,
                task_id,
                TaskStatus.COMPLETED,
                None,
                owner,
                result=text,
                strict_same=True,
                cancel_wins=cancel_wins,
                on_finish=self._file_run,
            )
        )

    async def fail(self, task_id: str, error: dict[str, Any], *, owner: str | None = None) -> TaskRecord:
        """Finish the task with `error` {step, message, recoverable}; InvalidTransition if finished."""
        if not isinstance(error, dict) or not isinstance(error.get("message"), str):
            raise InvalidParams("error must be an object with a 'message' string", fields=["error"])
        text, clock = dumps(error, "error"), self._clock
        message = error["message"]
        return await self._writer.submit(
            lambda c: tasks.transition(
                c,
                clock,
                task_id,
                TaskStatus.FAILED,
                message,
                owner,
                error=text,
                strict_same=True,
                on_finish=self._file_run,
            )
        )

    async def request_cancel(self, task_id: str) -> TaskRecord:
        """Ask whoever runs the task to cancel it (sets cancel_requested); TaskTerminal if finished."""
        clock = self._clock
        return await self._writer.submit(lambda c: tasks.request_cancel(c, clock, task_id))

    async def delete_expired(self) -> int:
        """Delete finished tasks past their expiry, with their steps and events; return how many.

        Each leaves a tombstone (see `get_tombstone`), so its owner learns it expired."""
        clock = self._clock
        return await self._writer.submit(lambda c: tasks.delete_expired(c, clock))

    async def get_tombstone(self, task_id: str) -> dict[str, Any] | None:
        """What is left of a task removed after its TTL: {id, owner, type, status, expired_at}, or None.

        Tombstones are kept for a week (`tasks.TOMBSTONE_KEEP_MS`), then forgotten.
        """
        rows = await self._read(tasks.SELECT_TOMBSTONE, (task_id,))
        if not rows:
            return None
        return dict(zip(("id", "owner", "type", "status", "expired_at"), rows[0], strict=True))

    async def events(self, task_id: str) -> list[dict[str, Any]]:
        """The task's events, oldest first: {id, task_id, at, kind, status, message, data}."""
        rows = await self._read(tasks.SELECT_EVENTS, (task_id,))
        if not rows:
            await self._require_task(task_id)
        return [tasks.event_from_row(row) for row in rows]

    async def _require_task(self, task_id: str) -> None:
        if not await self._read(tasks.SELECT_EXISTS, (task_id,)):
            raise TaskNotFound(task_id)

    # --- step checkpoints -----------------------------------------------------------------

    async def save_step(self, task_id: str, step_key: str, result: Any, *, owner: str | None = None) -> None:
        """Checkpoint a step's JSON result; durable (committed) once this returns.

        With `owner`, only the lease holder may save (LeaseHeld otherwise).
        """
        text = dumps(result, f"result of step {step_key!r}")
        op = tasks.save_step(
            task_id, step_key, text, iso(self._clock()), owner, postgres=self.url is not None
        )
        await self._writer.submit(op)

    async def load_step(self, task_id: str, step_key: str) -> tuple[bool, Any]:
        """(True, result) if the step was checkpointed, else (False, None); TaskNotFound if no task."""
        rows = await self._read(tasks.SELECT_STEP, (task_id, step_key))
        if not rows:
            await self._require_task(task_id)
            return False, None
        return True, json.loads(rows[0][0])

    async def load_steps(self, task_id: str) -> dict[str, Any]:
        """Every checkpointed step of the task, in the order they were saved."""
        rows = await self._read(tasks.SELECT_STEPS, (task_id,))
        if not rows:
            await self._require_task(task_id)
        return {key: json.loads(text) for key, text in rows}

    # --- the cost ledger --------------------------------------------------------------------

    async def record_cost(self, row: costs.CostRow) -> None:
        """Write one paid answer to the ledger (nothing if its key is there already); durable
        (committed) once this returns. See data-design/prices.md."""
        await self._writer.submit(costs.insert(row, iso(self._clock()), postgres=self.url is not None))

    async def task_costs(self, task_ids: Sequence[str]) -> dict[str, dict[str, float]]:
        """`{usd, billed, estimated}` of each of `task_ids` (a task that paid nothing: zeros)."""
        out = {task_id: dict(costs.ZERO) for task_id in task_ids}
        ids = [i for i in task_ids if "\x00" not in i]
        for start in range(0, len(ids), _IDS_PER_READ):
            chunk = ids[start : start + _IDS_PER_READ]
            rows = await self._read(
                costs.TOTALS_IN + tasks.placeholders(len(chunk)) + " GROUP BY task_id", chunk
            )
            out.update(costs.totals_from_rows(rows))
        return out

    async def spent_since(self, principal: str, since: str) -> float:
        """Dollars the ledger holds for `principal` from `since` (an ISO timestamp) on."""
        rows = await self._read(costs.SPENT_SINCE, (principal, since))
        return float(rows[0][0] or 0) if rows else 0.0

    async def daily_costs(self, principal: str | None = None) -> list[tuple[str, float, int]]:
        """(day, dollars, requests) per UTC day, newest first; only `principal`'s if given."""
        rows = await self._read(costs.DAILY, (principal, principal))
        return [(str(day), float(usd or 0), int(n)) for day, usd, n in rows]

    # --- leases ---------------------------------------------------------------------------

    async def acquire_lease(self, task_id: str, owner: str, ttl_s: float) -> bool:
        """Take the task's lease for ttl_s if it is free, expired, ours, or its holder died."""
        clock = self._clock
        return await self._writer.submit(lambda c: leases.acquire(c, clock, task_id, owner, ttl_s))

    async def renew_leases(self, owner: str, ttl_s: float, task_ids: Sequence[str] | None = None) -> int:
        """Extend every lease `owner` holds on unfinished tasks (only `task_ids`, if given); return how many."""
        clock = self._clock
        ids = None if task_ids is None else list(task_ids)
        return await self._writer.submit(lambda c: leases.renew(c, clock, owner, ttl_s, ids))

    async def release_lease(self, task_id: str, owner: str) -> None:
        """Give the lease back if `owner` holds it."""
        await self._writer.submit(lambda c: leases.release(c, task_id, owner))

    async def claim_runnable(
        self, owner: str, ttl_s: float, limit: int, types: Sequence[str] | None = None
    ) -> list[TaskRecord]:
        """Atomically lease up to `limit` unfinished tasks nobody live holds (oldest first).

        With `types`, only tasks of those types: a server doesn't take a task it cannot run.
        """
        clock = self._clock
        wanted = None if types is None else list(types)
        return await self._writer.submit(
            lambda c: leases.claim_runnable(c, clock, owner, ttl_s, limit, wanted, self._file_run)
        )

    # --- archive --------------------------------------------------------------------------

    def archive_runs(self, extractors: Mapping[str, archive.Extractor]) -> None:
        """From now on, a task of one of these types that ends files its run (`extractors[type]`
        makes its metrics and elites) in the same transaction as its terminal transition."""
        self._archivers.update(extractors)

    def _file_run(self, conn: sqlite3.Connection, task: TaskRecord) -> None:
        extract = self._archivers.get(task.type)
        if extract is not None:
            archive.file_run(conn, self._clock, task, extract)

    async def sync_archetypes(self, archetypes: Mapping[str, archive.Archetype]) -> int:
        """Write each task type's archetype row and steps (see `archive.sync_archetypes`) in one
        transaction; return how many workflows changed."""
        return await self._writer.submit(lambda c: archive.sync_archetypes(c, archetypes))

    async def record_run(self, run: archive.RunRecord) -> int:
        """File a finished run (metrics and elites) in the MAP-Elites archive; return its id."""
        clock = self._clock
        return await self._writer.submit(lambda c: archive.record_run(c, clock, run))
