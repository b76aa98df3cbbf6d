"""The PostgreSQL backend: the store's SQL, run through psycopg 3 on a shared server.

The store's write operations (tasks.py, leases.py, archive.py) are written once, against a
DB-API connection with SQLite's `?` / `?N` placeholders. `PgConn` lets them run unchanged on
PostgreSQL: it translates each statement once (placeholders, `BEGIN IMMEDIATE`, and the
`/*pg:...*/` comments that SQLite ignores and PostgreSQL needs, such as the row locks
`FOR UPDATE` and `FOR UPDATE SKIP LOCKED`) and caches the result. The group-commit writer
drives a PgConn exactly as it drives sqlite3: one transaction per batch, savepoints on failure,
`executemany` (pipelined by psycopg) for runs of checkpoints.

What differs from SQLite, and why:
- Several servers write at once, so every read-check-write locks the task row it checks
  (`fetch` is `SELECT ... FOR UPDATE`); a claim skips rows another server is deciding on.
- Time is the database's: `DbClock` follows the server's `clock_timestamp()` (re-read at every
  BEGIN, so it costs no round trip), so machines with skewed clocks agree on lease expiry.
- A task's status change NOTIFYs `exa_orch_task` with its id (a trigger); `Listener` turns
  those into wake-ups for waiters in this process.
- A session stuck in a transaction (a SIGSTOPped server) is ended by the server after
  IDLE_IN_TRANSACTION_MS, releasing its row locks; on waking it reconnects and finds its leases
  taken, so its fenced writes fail. PostgreSQL's timer covers a session waiting between whole
  statements only: one stopped in the middle of a pipeline (its Sync never sent) waits for its
  client for ever, "active" or "idle in transaction", holding its locks, and claims skip those
  tasks for as long (a task never finished). So every writer, at most once per
  SWEEP_EVERY_S, ends the exa-orch writers' sessions that have waited on their client
  inside a transaction for STALLED_CLIENT_S (`PgConn._end_stalled_sessions`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import operator
import re
import sys
import time
import urllib.parse
from collections.abc import Callable, Iterator, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from exa_orch.errors import ConfigError, StoreError
from exa_orch.store.migrations import Migration, check_applied, failed

log = logging.getLogger(__name__)


@lru_cache(maxsize=1)
def _psycopg() -> Any:
    """psycopg, imported on first use: an optional extra (exa-orch[postgres]), and a tenth of a
    second or more to import, which a server on SQLite never needs (bench/startup.py)."""
    import psycopg
    import psycopg.errors

    return psycopg


CHANNEL = "exa_orch_task"
RUNNABLE = "runnable"  # the payload for "a task was created or let go"; others are task ids
IDLE_IN_TRANSACTION_MS = 10_000
# A writer's session waiting this long on its client inside a transaction has a stopped client: a
# live one sends its next message within milliseconds, and twice PostgreSQL's own bound leaves it
# the sessions that timer ends.
STALLED_CLIENT_S = 2 * IDLE_IN_TRANSACTION_MS / 1000
SWEEP_EVERY_S = IDLE_IN_TRANSACTION_MS / 1000  # how often a writer looks for them
_WRITER = "exa-orch writer"
_END_STALLED = (
    "SELECT pid, pg_terminate_backend(pid) FROM pg_stat_activity"
    " WHERE datname = current_database() AND pid <> pg_backend_pid() AND application_name = %s"
    " AND xact_start IS NOT NULL AND wait_event = 'ClientRead'"
    " AND state_change < now() - make_interval(secs => %s)"
)
LISTEN_RETRY_MAX_S = 2.0  # the longest pause between attempts to LISTEN again
# Errors after which running the same transaction again can succeed.
_RETRYABLE = ("40001", "40P01", "55P03")  # serialization failure, deadlock, lock not available
_MIGRATION_LOCK = 7_345_219_001  # pg_advisory_xact_lock key: one migrator at a time


def is_url(target: object) -> bool:
    """True if `target` names a PostgreSQL database (`postgresql://...` or `postgres://...`)."""
    return isinstance(target, str) and target.startswith(("postgresql://", "postgres://"))


def require_driver() -> None:
    """ConfigError unless psycopg is installed."""
    try:
        _psycopg()
    except ImportError:
        raise ConfigError(
            "EXA_ORCH_DB names a PostgreSQL database, but the PostgreSQL driver is not installed",
            hint="Install it with `pip install 'exa-orch[postgres]'`, or point EXA_ORCH_DB at an SQLite file.",
        ) from None


def redact(url: str) -> str:
    """The URL without its password, for messages and logs: the user-info's and a `password=`
    query parameter's (libpq takes either)."""
    url = re.sub(r"(//[^:/@]*):[^@]*@", r"\1:***@", url)
    return re.sub(r"([?&]password=)[^&#\s\"']*", r"\1***", url, flags=re.IGNORECASE)


def _secrets(url: str) -> list[str]:
    """The password(s) written in `url`, raw and percent-decoded, longest first (to mask them
    wherever a driver's message repeats them, e.g. quoting a URL it could not parse)."""
    found = re.findall(r"//[^:/@]*:([^@]*)@", url) + re.findall(
        r"[?&]password=([^&#]*)", url, flags=re.IGNORECASE
    )
    out = {s for f in found if f for s in (f, urllib.parse.unquote(f))}
    return sorted(out, key=len, reverse=True)


@lru_cache(maxsize=512)
def translate(sql: str) -> tuple[str, tuple[int, ...] | None]:
    """(PostgreSQL SQL, parameter order) for one statement written for SQLite.

    `?` takes the next parameter and `?N` parameter N, so the order is a tuple of indexes (None
    when it is simply 0, 1, 2...); `%` is escaped for psycopg; `/*pg:X*/` becomes X.
    """
    if sql.startswith("BEGIN IMMEDIATE"):
        return "BEGIN", None
    out: list[str] = []
    order: list[int] = []
    numbered = False
    i, n = 0, len(sql)
    while i < n:
        ch = sql[i]
        if ch in "'\"":  # a quoted literal or identifier: copied as is ('' escapes itself)
            end = sql.index(ch, i + 1) if ch in sql[i + 1 :] else n - 1
            out.append(sql[i : end + 1].replace("%", "%%"))
            i = end + 1
        elif sql.startswith("/*pg:", i):
            end = sql.index("*/", i)
            out.append(sql[i + 5 : end])
            i = end + 2
        elif ch == "?":
            j = i + 1
            while j < n and sql[j].isdigit():
                j += 1
            if j > i + 1:
                numbered = True
                order.append(int(sql[i + 1 : j]) - 1)
            else:
                order.append(len(order))
            out.append("%s")
            i = j
        elif ch == "%":
            out.append("%%")
            i += 1
        else:
            out.append(ch)
            i += 1
    return "".join(out), tuple(order) if numbered else None


def _params(order: tuple[int, ...] | None, params: Sequence[Any]) -> Sequence[Any]:
    return params if order is None else [params[k] for k in order]


@lru_cache(maxsize=512)
def _picker(order: tuple[int, ...] | None) -> Callable[[Sequence[Any]], Sequence[Any]] | None:
    """`_params(order, ...)` as one C call (operator.itemgetter), for executemany's many rows."""
    if order is None:
        return None
    if len(order) == 1:
        (k,) = order
        return lambda params: (params[k],)
    return operator.itemgetter(*order)


def _rows(order: tuple[int, ...] | None, seq: Sequence[Sequence[Any]]) -> Sequence[Sequence[Any]]:
    pick = _picker(order)
    return seq if pick is None else list(map(pick, seq))


class DbClock:
    """Epoch seconds on the database server's clock: local time plus the offset last measured."""

    def __init__(self) -> None:
        self.offset = 0.0

    def __call__(self) -> float:
        return time.time() + self.offset

    def measure(self, db_epoch: float, sent: float, received: float) -> None:
        """Note the server's time `db_epoch`, read by a query sent at `sent`, answered at `received`."""
        self.offset = db_epoch - (sent + received) / 2


class _Result:
    """What `PgConn.execute` returns: the rows fetched, rowcount and (never) lastrowid."""

    __slots__ = ("_rows", "rowcount")

    def __init__(self, rows: list[tuple[Any, ...]], rowcount: int) -> None:
        self._rows = rows
        self.rowcount = rowcount

    def fetchone(self) -> tuple[Any, ...] | None:
        return self._rows[0] if self._rows else None

    def fetchall(self) -> list[tuple[Any, ...]]:
        return self._rows

    def __iter__(self) -> Iterator[tuple[Any, ...]]:  # as a sqlite3 cursor is
        return iter(self._rows)


def _connect(url: str, application: str) -> Any:
    require_driver()
    try:
        return _psycopg().connect(
            url,
            autocommit=True,
            application_name=application,
            options=f"-c idle_in_transaction_session_timeout={IDLE_IN_TRANSACTION_MS} -c TimeZone=UTC",
        )
    except _psycopg().Error as exc:
        raise connect_error(url, exc) from None


def connect_error(url: str, exc: Exception) -> StoreError:
    """The one error for a PostgreSQL connection that could not be made (the URL's password redacted)."""
    said = redact(str(exc).strip())
    for secret in _secrets(url):  # the driver may quote the URL, or a part of it, back
        said = said.replace(secret, "***")
    return StoreError(
        f"cannot connect to the PostgreSQL database {redact(url)}: {said}",
        hint="Check that the server runs and the URL in --db or EXA_ORCH_DB (host, port, user, database) "
        "is right; create the database first (createdb), exa-orch creates its tables.",
    )


class PgConn:
    """A synchronous psycopg connection shaped like the sqlite3 one the store's ops expect.

    Only the writer thread uses it. A connection the server closed (it ended a stalled session,
    or restarted) is replaced at the next BEGIN; the batch that hit the loss fails.
    """

    def __init__(self, url: str, clock: DbClock | None = None) -> None:
        self._url = url
        self._clock = clock
        self._conn = _connect(url, _WRITER)
        self._next_sweep = 0.0  # time.monotonic() of the next _end_stalled_sessions
        self._sweep_refused = False

    @property
    def in_transaction(self) -> bool:
        status = self._conn.info.transaction_status
        return bool(status != _psycopg().pq.TransactionStatus.IDLE)

    def execute(self, sql: str, params: Sequence[Any] = ()) -> _Result:
        if sql.startswith("BEGIN"):
            return self._begin()
        text, order = translate(sql)
        with self._conn.cursor() as cur:
            cur.execute(text.encode(), _params(order, params))
            rows = cur.fetchall() if cur.description is not None else []
            return _Result(rows, cur.rowcount)

    def executemany(self, sql: str, seq: Sequence[Sequence[Any]]) -> None:
        text, order = translate(sql)
        with self._conn.cursor() as cur:
            cur.executemany(text.encode(), _rows(order, seq))

    def _begin(self) -> _Result:
        self._reconnect_if_lost()
        self._end_stalled_sessions()
        sent = time.time()
        # One round trip: open the transaction and read the server's clock.
        with self._conn.cursor() as cur:
            cur.execute(b"BEGIN; SELECT extract(epoch FROM clock_timestamp())::float8")
            cur.nextset()
            row = cur.fetchone()
        if self._clock is not None and row is not None:
            self._clock.measure(float(row[0]), sent, time.time())
        return _Result([], -1)

    def run_pipelined(self, groups: Sequence[tuple[str, Sequence[Sequence[Any]]]]) -> None:
        """BEGIN, each statement with each of its parameter rows, and COMMIT, sent in one round
        trip (psycopg's pipeline mode); returns once COMMIT succeeded. On any failure the
        transaction is rolled back and the error raised."""
        self._reconnect_if_lost()
        self._end_stalled_sessions()
        sent = time.time()
        conn = self._conn
        try:
            with conn.cursor() as clock:
                with conn.pipeline(), conn.cursor() as cur:
                    cur.execute(b"BEGIN")
                    clock.execute(b"SELECT extract(epoch FROM clock_timestamp())::float8")
                    for sql, rows in groups:
                        text, order = translate(sql)
                        cur.executemany(text.encode(), _rows(order, rows))
                    cur.execute(b"COMMIT")
                row = clock.fetchone()
        except BaseException:
            if not conn.closed and self.in_transaction:
                with contextlib.suppress(Exception):
                    conn.execute(b"ROLLBACK")
            raise
        if self._clock is not None and row is not None:
            self._clock.measure(float(row[0]), sent, time.time())

    def _reconnect_if_lost(self) -> None:
        if self._conn.closed or self._conn.broken:
            log.warning("store writer: the PostgreSQL connection was lost; reconnecting")
            self._conn = _connect(self._url, _WRITER)

    def _end_stalled_sessions(self) -> None:
        """End other writers' sessions whose client stalled inside a transaction (module
        docstring), at most once per SWEEP_EVERY_S; outside a transaction only. Their
        row locks go with them, so the tasks they held can be claimed once their leases lapse;
        their servers, if they wake, reconnect and find those leases taken. A role that may not
        end them (another role's sessions) is said once and the sweep goes on."""
        now = time.monotonic()
        if now < self._next_sweep:
            return
        self._next_sweep = now + SWEEP_EVERY_S
        try:
            rows = self._conn.execute(_END_STALLED.encode(), (_WRITER, STALLED_CLIENT_S)).fetchall()
        except _psycopg().Error as exc:
            if not self._sweep_refused:
                self._sweep_refused = True
                log.warning("store writer: could not look for stalled sessions: %s", str(exc).strip())
            return
        for pid, ended in rows:
            if ended:
                log.warning(
                    "store writer: ended PostgreSQL session %s: its client stalled for over %.0f s inside a "
                    "transaction (a stopped server?), holding row locks",
                    pid,
                    STALLED_CLIENT_S,
                )

    def run_script(self, sql: str) -> None:
        """Run several statements (a migration file) as they are, no parameters."""
        self._conn.execute(sql.encode())

    def close(self) -> None:
        self._conn.close()


def retryable(exc: BaseException) -> bool:
    """True for a deadlock or serialization failure: the same transaction may succeed when rerun."""
    psycopg = sys.modules.get("psycopg")  # not loaded: the error can't be one of its
    return psycopg is not None and isinstance(exc, psycopg.Error) and exc.sqlstate in _RETRYABLE


# --- migrations --------------------------------------------------------------------------------

_CREATE_TABLE = """
CREATE TABLE IF NOT EXISTS schema_migrations (
    version    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    checksum   TEXT NOT NULL,
    applied_at TEXT NOT NULL DEFAULT (to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
)
"""


def migrations_dir(base: Path) -> Path:
    """Where the PostgreSQL sequence of `base` (the SQLite migrations directory) lives."""
    return base / "postgres"


def apply_migrations(conn: PgConn, found: list[Migration]) -> list[Migration]:
    """Apply the pending migrations, each in its own transaction with its row; return those applied.

    Each transaction first takes an advisory lock, so servers starting together take turns; each
    then sees what the others applied. The last pending migration's transaction also sets up the
    `exa-orch sql` role. MigrationError if an applied file was edited or is unknown, or if one
    failed: it names those applied and kept before it.
    """
    done: list[Migration] = []
    while True:
        pending: list[Migration] = []
        conn.execute("BEGIN")
        try:
            pending = _pending_under_lock(conn, found)
            if pending:
                _run_migration(conn, pending[0], done)
            if len(pending) <= 1:  # the last one, or none: the sql role in the same transaction
                _ensure_sql_guard(conn, force=bool(pending))
            conn.execute("COMMIT")
        except BaseException as exc:
            with contextlib.suppress(Exception):
                conn.execute("ROLLBACK")
            if pending and isinstance(exc, _psycopg().Error):  # the guard's or COMMIT's failure
                raise failed(pending[0], str(exc).strip(), done) from exc
            raise
        done.extend(pending[:1])
        if len(pending) <= 1:
            return done


def _pending_under_lock(conn: PgConn, found: list[Migration]) -> list[Migration]:
    """In the open transaction: take the migration lock, create schema_migrations if missing,
    and return what is pending."""
    conn.execute("SELECT pg_advisory_xact_lock(?)", (_MIGRATION_LOCK,))
    try:
        conn.execute(_CREATE_TABLE)
    except _psycopg().Error as exc:
        if exc.sqlstate != "42501":  # insufficient_privilege: a role that may only read
            raise
        raise StoreError(
            f"this database role may not create exa-orch's tables: {str(exc).strip().splitlines()[0]}",
            hint="Run servers and `exa-orch db migrate` as a role that may create tables in the database: "
            "its owner (`createdb -O <role>`), or after `GRANT CREATE ON SCHEMA public TO <role>`. "
            "`exa-orch sql`, `view` and `tasks` need only SELECT.",
        ) from None
    rows = conn.execute("SELECT version, name, checksum FROM schema_migrations").fetchall()
    return check_applied({v: (name, checksum) for v, name, checksum in rows}, found)


def _run_migration(conn: PgConn, migration: Migration, done: list[Migration]) -> None:
    """In the open transaction: one migration's statements and its row."""
    try:
        conn.run_script(migration.sql)
    except _psycopg().Error as exc:
        raise failed(migration, str(exc).strip(), done) from exc
    conn.execute(
        "INSERT INTO schema_migrations (version, name, checksum) VALUES (?, ?, ?)",
        (migration.version, migration.name, migration.checksum),
    )


# --- the role `exa-orch sql` queries run as -------------------------------------------------------

SQL_ROLE = "exa_orch_sql"
SQL_FUNCTION = (
    "exa_orch_sql_capped(text, bigint, integer)"  # (query, most bytes, bytes a row costs beside its text)
)
TOO_BIG = "XO001"  # the SQLSTATEs it raises: the result went past its bytes
ADVISORY_LOCK = "XO002"  # the query took an advisory lock (refused: it would stall `db migrate`)
# Run as its owner, SQL_ROLE, which may only read: inside a SECURITY DEFINER function PostgreSQL
# refuses to change `role` or `session_authorization` (set_config included), so no query text can
# take the caller's privileges back, as it could after SET ROLE or SET SESSION AUTHORIZATION. It
# counts each row's size as it is made (its datum's, then its text's, which is what the client
# reads) and stops past the cap, so a huge value never reaches the client's memory; and it
# refuses a query that left this session holding an advisory lock, however it was spelled.
_CREATE_SQL_FUNCTION = f"""
CREATE FUNCTION {SQL_FUNCTION} RETURNS SETOF record LANGUAGE plpgsql SECURITY DEFINER
SET search_path FROM CURRENT AS $fn$
DECLARE r record; size bigint; held bigint := 0;
BEGIN
    FOR r IN EXECUTE $1 LOOP
        size := pg_catalog.pg_column_size(r);
        IF held + size <= $2 THEN
            size := pg_catalog.octet_length(r::text);
        END IF;
        held := held + $3 + coalesce(size, 0);
        IF held > $2 THEN
            RAISE EXCEPTION USING ERRCODE = '{TOO_BIG}', MESSAGE = 'the result went past ' || $2 || ' bytes';
        END IF;
        RETURN NEXT r;
    END LOOP;
    IF EXISTS (SELECT FROM pg_catalog.pg_locks WHERE locktype = 'advisory' AND pid = pg_catalog.pg_backend_pid()) THEN
        PERFORM pg_catalog.pg_advisory_unlock_all();
        RAISE EXCEPTION USING ERRCODE = '{ADVISORY_LOCK}', MESSAGE = 'the query took an advisory lock';
    END IF;
END $fn$
"""
_CREATE_SQL_ROLE = f"""
DO $do$ BEGIN
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '{SQL_ROLE}') THEN
        CREATE ROLE {SQL_ROLE} NOLOGIN NOINHERIT;
    END IF;
EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;  -- made meanwhile for another database
END $do$
"""
# SELECT on the tables and views the migrating role owns in this schema: exa-orch's own.
_GRANT_SQL_ROLE = f"""
DO $do$ DECLARE r record; BEGIN
    FOR r IN SELECT c.oid::regclass AS name FROM pg_class c
        WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'v', 'm', 'p')
        AND c.relowner = (SELECT oid FROM pg_roles WHERE rolname = current_user)
    LOOP
        EXECUTE format('GRANT SELECT ON %s TO {SQL_ROLE}', r.name);
    END LOOP;
END $do$
"""


def _ensure_sql_guard(conn: PgConn, *, force: bool) -> None:
    """Create (once per cluster) the NOLOGIN role SQL_ROLE and, in this database, the function
    `exa-orch sql` runs its queries through, owned by that role; grant it SELECT on exa-orch's
    tables and views. Done when migrations were applied or the function is missing. A migrating
    role that may not create roles leaves it undone with a warning: the store works, and
    `exa-orch sql` says what is missing."""
    (exists,) = conn.execute(f"SELECT to_regprocedure('{SQL_FUNCTION}') IS NOT NULL").fetchone() or (False,)
    if exists and not force:
        return
    conn.execute("SAVEPOINT sql_guard")
    try:
        (superuser,) = conn.execute(
            "SELECT rolsuper FROM pg_roles WHERE rolname = current_user"
        ).fetchone() or (False,)
        conn.execute(_CREATE_SQL_ROLE)
        # The role is cluster-wide: migrations of other databases touch it too, so it is altered
        # or granted only when it has to be (two concurrent updates of one role row can fail).
        (powers, member) = conn.execute(
            f"SELECT rolsuper OR rolcanlogin OR rolcreatedb OR rolcreaterole OR rolreplication OR rolbypassrls,"
            f" pg_has_role(current_user, oid, 'MEMBER') FROM pg_roles WHERE rolname = '{SQL_ROLE}'"
        ).fetchone() or (False, True)
        if superuser and powers:  # whoever made the role first, it only ever reads
            conn.execute(
                f"ALTER ROLE {SQL_ROLE} NOLOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS"
            )
        if not superuser and not member:  # to hand it the function, it must be able to SET ROLE to it
            conn.execute(f"GRANT {SQL_ROLE} TO CURRENT_USER")
        conn.execute(f"GRANT USAGE ON SCHEMA {_schema(conn)} TO {SQL_ROLE}")
        if not exists:
            schema = _schema(conn)
            conn.execute(_CREATE_SQL_FUNCTION)
            conn.execute(f"REVOKE ALL ON FUNCTION {SQL_FUNCTION} FROM PUBLIC")
            conn.execute(f"GRANT EXECUTE ON FUNCTION {SQL_FUNCTION} TO CURRENT_USER")
            # A new owner needs CREATE on the function's schema, at that moment only.
            conn.execute(f"GRANT CREATE ON SCHEMA {schema} TO {SQL_ROLE}")
            conn.execute(f"ALTER FUNCTION {SQL_FUNCTION} OWNER TO {SQL_ROLE}")
            conn.execute(f"REVOKE CREATE ON SCHEMA {schema} FROM {SQL_ROLE}")
        conn.execute(_GRANT_SQL_ROLE)
    except _psycopg().Error as exc:
        conn.execute("ROLLBACK TO SAVEPOINT sql_guard")
        if exc.sqlstate != "42501":  # insufficient_privilege: this role may not create roles
            raise
        log.warning(
            "this database role may not create the role %s that `exa-orch sql` queries run as (%s): "
            "`exa-orch sql` refuses to run on this database until `exa-orch db migrate` runs once as a "
            "role with CREATEROLE",
            SQL_ROLE,
            str(exc).strip().splitlines()[0],
        )
    conn.execute("RELEASE sql_guard")


def _schema(conn: PgConn) -> str:
    (name,) = conn.execute("SELECT quote_ident(current_schema())").fetchone() or ("public",)
    return str(name)


# --- reads and notifications ---------------------------------------------------------------------


class Reader:
    """The read connection: an async psycopg connection in autocommit (each read sees the latest commit)."""

    def __init__(self, url: str) -> None:
        self._url = url
        self._conn: Any = None
        self._lock = asyncio.Lock()

    async def open(self) -> None:
        require_driver()
        self._conn = await self._connect()

    async def _connect(self) -> Any:
        try:
            return await _psycopg().AsyncConnection.connect(
                self._url, autocommit=True, application_name="exa-orch reader", options="-c TimeZone=UTC"
            )
        except _psycopg().Error as exc:
            raise connect_error(self._url, exc) from None

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        if any(isinstance(p, str) and "\x00" in p for p in params):
            # PostgreSQL's text can't hold NUL, so no row has one: a lookup by one finds nothing
            # (as it does in SQLite) rather than failing in the driver.
            return []
        text, order = translate(sql)
        args = _params(order, params)
        async with self._lock:
            for attempt in (1, 2):
                if self._conn.closed or self._conn.broken:
                    self._conn = await self._connect()
                try:
                    cur = await self._conn.execute(text.encode(), args)
                    return list(await cur.fetchall())
                except _psycopg().OperationalError as exc:
                    # A read is safe to repeat: once on a new connection if the old one was lost
                    # (the server restarted, or ended the session).
                    if attempt == 2 or not self._conn.broken:
                        raise StoreError(f"database read failed: {str(exc).strip()}") from exc
        raise AssertionError("unreachable")

    async def close(self) -> None:
        if self._conn is not None:
            await self._conn.close()


class Listener:
    """LISTENs on `exa_orch_task` and wakes `on_change(task_id)` for every NOTIFY, on its own task.

    A lost connection is re-established after a short pause; `on_change(None)` then tells waiters
    to re-read everything (a NOTIFY may have been missed meanwhile).
    """

    def __init__(self, url: str, on_change: Callable[[str | None], None]) -> None:
        self._url = url
        self._on_change = on_change
        self._task: asyncio.Task[None] | None = None
        self._ready = asyncio.Event()
        self._stopping = False

    async def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="exa-orch pg listener")
        async with asyncio.timeout(30):
            await self._ready.wait()

    async def _run(self) -> None:
        failures = 0
        while not self._stopping:
            try:
                async with await _psycopg().AsyncConnection.connect(
                    self._url, autocommit=True, application_name="exa-orch listener"
                ) as conn:
                    await conn.execute(f"LISTEN {CHANNEL}".encode())
                    if failures:
                        log.info("store listener: listening again after %d failed attempt(s)", failures)
                    failures = 0
                    self._ready.set()
                    self._on_change(None)
                    async for note in conn.notifies():
                        self._on_change(note.payload)
            except _psycopg().Error as exc:
                failures += 1
                # Soon after a blip, then every LISTEN_RETRY_MAX_S while the database stays away;
                # one warning per outage, not one per attempt.
                pause = min(LISTEN_RETRY_MAX_S, 0.1 * 2 ** (failures - 1))
                level = logging.WARNING if failures == 1 else logging.DEBUG
                log.log(level, "store listener: %s; listening again in %.1f s", str(exc).strip(), pause)
                self._ready.set()  # open() must not hang on it: waits fall back to their poll bound
                await asyncio.sleep(pause)

    async def stop(self) -> None:
        self._stopping = True
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
