"""The PostgreSQL backend: one database on a server that several machines' servers share.

The driver-level pieces (the writer's connection, the reader, the listener, the migrations, the
database's clock) are in postgres.py; this module puts them behind the `Backend` protocol, with
the read-only connection of the faces and `exa-orch sql`'s guarded query.

Read-only faces: a session whose every transaction is read-only (`default_transaction_read_only`),
with a statement timeout, its times in UTC, in autocommit (each query sees the latest commit); a
connection the server closed (a restart, a terminated session) is made again, once per query.

`exa-orch sql`: the query is parsed and described alone with the extended protocol (one statement,
nothing run), then run as the role `exa_orch_sql`, which may only read exa-orch's tables and
views, through the SECURITY DEFINER function it owns (see `postgres._ensure_sql_guard`), in a READ
ONLY transaction with a statement timeout, rolled back.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from exa_orch.errors import InvalidParams, OrchError, StoreError
from exa_orch.store import costs, migrations, postgres, tasks
from exa_orch.store.backend import (
    ROW_OVERHEAD,
    SQL_MAX_RESULT_BYTES,
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
from exa_orch.store.migrations import Migration
from exa_orch.store.viewer import ALL_VIEWERS, VIEWER_SETTING

STATEMENT_TIMEOUT_MS = 30_000
READONLY_OPTIONS = (
    f"-c default_transaction_read_only=on -c statement_timeout={STATEMENT_TIMEOUT_MS} -c TimeZone=UTC"
)

DIALECT = Dialect(
    name="postgresql",
    save_step=tasks.SAVE_STEP_PG,
    record_cost=costs.INSERT_PG,
    task_columns="SELECT column_name AS name FROM information_schema.columns"
    " WHERE table_schema = current_schema() AND table_name = 'tasks'",
    # The column is valid JSON by its CHECK; json_each of NULL (not an object) yields no rows.
    partial_summary="SELECT j.key, json_typeof(j.value) AS type, CASE json_typeof(j.value)"
    " WHEN 'array' THEN json_array_length(j.value)::text"
    " WHEN 'object' THEN (SELECT count(*) FROM json_object_keys(j.value))::text"
    " ELSE substr(j.value #>> '{}', 1, 200) END AS shown FROM tasks t, json_each(CASE"
    " WHEN json_typeof(t.partial_result::json) = 'object' THEN t.partial_result::json END) j"
    " WHERE t.id = ? LIMIT 30",
)


class PostgresBackend:
    """A `postgresql://` (or `postgres://`) URL; the database must exist, exa-orch makes its tables."""

    name = "postgresql"
    dialect = DIALECT

    def __init__(self, url: str) -> None:
        self.url = url
        self.where = postgres.redact(url)
        self.db_clock = postgres.DbClock()

    @classmethod
    def accepts(cls, target: object) -> bool:
        return postgres.is_url(target)

    def prepare(self) -> None:
        postgres.require_driver()

    def default_clock(self) -> Callable[[], float] | None:
        return self.db_clock  # the server's: machines with skewed clocks agree on lease expiry

    def connect_writer(self, busy_timeout_ms: int) -> postgres.PgConn:
        return postgres.PgConn(self.url, self.db_clock)

    def migrate(self, conn: postgres.PgConn, migrations_dir: Path | None) -> list[Migration]:
        base = migrations_dir or migrations.default_migrations_dir()
        return postgres.apply_migrations(conn, migrations.load_migrations(postgres.migrations_dir(base)))

    def retryable(self, exc: BaseException) -> bool:
        return postgres.retryable(exc)

    def on_commit(self) -> None:
        pass

    async def start(self, busy_timeout_ms: int) -> None:
        pass

    async def stop(self) -> None:
        pass

    async def open_reader(self, busy_timeout_ms: int) -> postgres.Reader:
        reader = postgres.Reader(self.url)
        await reader.open()
        return reader

    def listener(self, on_change: Callable[[str | None], None]) -> postgres.Listener:
        return postgres.Listener(self.url, on_change)

    async def open_readonly(self, application: str) -> ReadOnly:
        readonly = ReadOnly(self.url, application)
        await readonly.open()
        return readonly

    async def run_query(
        self, query: str, timeout_s: float, viewer: str = ALL_VIEWERS
    ) -> tuple[Columns, Rows]:
        """One statement run by the database as the role SQL_ROLE, which may only read exa-orch's
        tables and views, in a READ ONLY transaction with a statement time limit, rolled back."""
        _only_a_query(query)  # the plain cases named; the database guards the rest
        try:
            data = query.encode()
        except UnicodeEncodeError:
            raise not_utf8() from None
        if b"\x00" in data:
            raise InvalidParams(
                "the query holds a NUL character, which PostgreSQL refuses",
                hint="Remove it.",
                fields=["query"],
            )
        postgres.require_driver()
        return await asyncio.to_thread(_run_query, self.url, query, timeout_s, viewer)


# --- read-only: the faces ------------------------------------------------------------------------


class ReadOnly:
    """An async psycopg connection on which every transaction is read-only, in autocommit."""

    def __init__(self, url: str, application: str) -> None:
        self._url = url
        self._application = application
        self._conn: Any = None
        self._lock = asyncio.Lock()
        self.name = ""
        self.where = postgres.redact(url)

    async def open(self) -> None:
        self._conn = await self._connect()
        self.name = str(self._conn.info.dbname)

    async def _connect(self) -> Any:
        postgres.require_driver()
        import psycopg

        try:
            return await psycopg.AsyncConnection.connect(
                self._url, autocommit=True, application_name=self._application, options=READONLY_OPTIONS
            )
        except psycopg.Error as exc:
            raise postgres.connect_error(self._url, exc) from None

    async def rows(self, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
        import psycopg
        from psycopg.rows import dict_row

        text, order = postgres.translate(sql)
        assert order is None, "the faces' SQL uses plain ? placeholders"
        async with self._lock:
            for attempt in (1, 2):
                try:
                    if self._conn.closed or self._conn.broken:  # the server restarted or ended the session
                        await self._conn.close()
                        self._conn = await self._connect()
                    async with self._conn.cursor(row_factory=dict_row) as cur:
                        await cur.execute(text.encode(), params)
                        return list(await cur.fetchall())
                except psycopg.OperationalError as exc:
                    # A read is safe to repeat once, on a new connection, if the old one was lost.
                    if attempt == 2 or not self._conn.broken:
                        raise _could_not_answer(exc, self.where) from None
                except psycopg.Error as exc:
                    raise _could_not_answer(exc, self.where) from None
        raise AssertionError("unreachable")

    async def close(self) -> None:
        if self._conn is not None:
            conn, self._conn = self._conn, None
            await conn.close()


def _could_not_answer(exc: BaseException, where: str) -> StoreError:
    text = str(exc).strip()
    first = text.splitlines()[0] if text else type(exc).__name__
    return StoreError(
        f"the database could not answer: {first}",
        hint=f"Bring it up to date with `exa-orch db migrate --db {where}` (or start the server once on it).",
    )


# --- `exa-orch sql` ------------------------------------------------------------------------------


def _connect_sync(url: str, application: str) -> Any:
    import psycopg

    try:
        return psycopg.connect(url, autocommit=True, application_name=application, options=READONLY_OPTIONS)
    except psycopg.Error as exc:
        raise postgres.connect_error(url, exc) from None


def _run_query(url: str, query: str, timeout_s: float, viewer: str) -> tuple[Columns, Rows]:
    import psycopg
    import psycopg.errors

    conn = _connect_sync(url, "exa-orch sql")
    with conn:
        try:
            conn.execute(b"BEGIN READ ONLY")
            conn.execute(f"SET LOCAL statement_timeout = {max(1, int(timeout_s * 1000))}".encode())
            conn.execute(b"SELECT set_config(%s, %s, true)", (VIEWER_SETTING, viewer))  # store/viewer.py
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
                f"SELECT * FROM {postgres.SQL_FUNCTION.split('(')[0]}(%s, %s, %s) AS q({shape})".encode(),
                (query, SQL_MAX_RESULT_BYTES, ROW_OVERHEAD * len(columns)),
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
        f"SELECT p IS NOT NULL, p IS NOT NULL AND has_function_privilege(p, 'EXECUTE'),"
        " r.rolname = %s AND NOT (r.rolsuper OR r.rolbypassrls)"
        f" FROM to_regprocedure('{postgres.SQL_FUNCTION}') AS p"
        " LEFT JOIN pg_proc f ON f.oid = p LEFT JOIN pg_roles r ON r.oid = f.proowner".encode(),
        (postgres.SQL_ROLE,),
    ).fetchone()
    exists, allowed, reads_only = row if row is not None else (False, False, False)
    where = postgres.redact(url)
    if not exists:
        raise StoreError(
            f"exa-orch sql cannot run on {where}: its read-only role {postgres.SQL_ROLE} and function "
            f"{postgres.SQL_FUNCTION} are missing",
            hint=f"Run `exa-orch db migrate --db {where}` once as a role that may create roles "
            "(CREATEROLE, or a superuser): queries run as that role, which may only read exa-orch's tables.",
        )
    if not reads_only:  # someone gave the function away, or the role powers it must not have
        raise StoreError(
            f"exa-orch sql refuses to run on {where}: {postgres.SQL_FUNCTION} does not belong to a role "
            f"that may only read ({postgres.SQL_ROLE}, not a superuser)",
            hint=f"Run `exa-orch db migrate --db {where}` as a superuser to set the role right, or "
            f"`DROP FUNCTION {postgres.SQL_FUNCTION}` and migrate again.",
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
    if state == postgres.TOO_BIG:
        return too_big("its result", SQL_MAX_RESULT_BYTES)
    if state == postgres.ADVISORY_LOCK:
        return advisory_lock()
    if state == "57014":  # query_canceled: the statement time limit
        return too_long(timeout_s, "run it with psql as a role of your own")
    if state == "25006":  # read_only_sql_transaction
        return read_only(_refused(query))
    if state == "42501":  # insufficient_privilege: the reading role may not do it
        return InvalidParams(
            f"exa-orch sql may only read exa-orch's tables and views; refused: {message}",
            hint="Ask with SELECT over exa-orch's tables and views (e.g. `select * from v_tasks`).",
            fields=["query"],
        )
    if state == "42601" and "multiple commands" in message:
        return one_statement(message)
    names: list[str] = []
    with contextlib.suppress(psycopg.Error):
        conn.execute(b"ROLLBACK")
        cursor = conn.execute(
            b"SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() "
            b"ORDER BY table_name"
        )
        names = [str(r[0]) for r in cursor.fetchall()]
    return query_failed(message, names)


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
_ADVISORY = re.compile(r"advisory_(?:xact_)?(?:un)?lock|try_advisory", re.IGNORECASE)
_LEADING_NOISE = re.compile(r"(?:\s+|--[^\n]*(?:\n|$)|/\*.*?\*/)*", re.DOTALL)


def advisory_lock() -> InvalidParams:
    """A query that takes (or names) an advisory lock: held by the sql session, it would stall
    `exa-orch db migrate` and the servers' migrations until the session ends."""
    return InvalidParams(
        "exa-orch sql refuses advisory locks (pg_advisory_lock, pg_try_advisory_*...): one held by "
        "its session would stall `exa-orch db migrate` and starting servers",
        hint="Leave the lock functions out; to see the locks there are, `select * from pg_locks where locktype = 'advisory'`.",
        fields=["query"],
    )


def _only_a_query(query: str) -> None:
    """InvalidParams unless the statement (after leading blanks and comments) is a query, and one
    that names no advisory lock function (the reading function refuses any it took anyway)."""
    if _ADVISORY.search(query):
        raise advisory_lock()
    head = _LEADING_NOISE.sub("", query, count=1)
    if not head:
        return  # nothing to run: the caller's "no statement" answer says so
    word = re.match(r"\(|\w+", head)
    first = word[0].lower() if word else head[:1]
    if first in _QUERY_STARTS:
        return
    if _WRITE.match(head):
        raise read_only(_refused(head))
    raise InvalidParams(
        f"exa-orch sql runs queries only; refused {first.upper()}",
        hint="Ask with SELECT, WITH, VALUES, TABLE, SHOW or EXPLAIN (e.g. `select * from v_tasks`); "
        "tasks change through the MCP tools.",
        fields=["query"],
    )
