"""The group-commit writer: one thread, one connection, one transaction per batch of writes.

Callers submit synchronous operations `op(conn) -> T`. The writer thread takes everything
queued (up to MAX_BATCH) and runs it as ONE transaction:

    BEGIN IMMEDIATE; op1(conn); op2(conn); ...; COMMIT

so 100 coroutines checkpointing at once share one commit instead of queueing behind 100. If an
op raises, the batch is rolled back and run again with each op in its own SAVEPOINT: the
failing op is rolled back to its savepoint and gets its own exception, the others still commit.
(Failures are rare, so the common batch pays for no savepoints.) Every caller's future is
resolved only after COMMIT returned, with one loop wake-up per batch: a result means durable.

Why not aiosqlite here: it runs one statement per thread hop and its public API can't run a
batch of statements as one unit; the writer needs exactly that, so it owns a plain sqlite3
connection on one dedicated thread (readers still use aiosqlite). Ops run on that thread only.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from queue import SimpleQueue
from typing import Any, TypeVar, cast

from exa_orch.errors import OrchError, StoreError

T = TypeVar("T")
Op = Callable[[sqlite3.Connection], Any]

log = logging.getLogger(__name__)

MAX_BATCH = 1024


@dataclass
class WriterStats:
    """Counters a test or benchmark can read: ops committed, batches, largest batch, retries."""

    ops: int = 0
    batches: int = 0
    max_batch: int = 0
    failed_ops: int = 0
    savepoint_reruns: int = 0
    retried_batches: int = 0
    batch_sizes: list[int] = field(default_factory=list, repr=False)


class SqlOp:
    """A write that is one SQL statement. Consecutive SqlOps with the same SQL in a batch run
    as one `executemany` (no Python between rows); `on_error` turns a failure into a typed error,
    and `explain(conn, exc, params)` does too with the connection at hand (to look up why, after
    the op was undone). A plain slotted class, not a dataclass: one is made per checkpoint, and a
    frozen dataclass's __init__ costs twice as much (bench/store.py). Treat it as immutable."""

    __slots__ = ("sql", "params", "on_error", "explain")

    def __init__(
        self,
        sql: str,
        params: tuple[Any, ...],
        on_error: Callable[[Exception], BaseException] | None = None,
        explain: Callable[[sqlite3.Connection, Exception, tuple[Any, ...]], BaseException] | None = None,
    ) -> None:
        self.sql = sql
        self.params = params
        self.on_error = on_error
        self.explain = explain

    def __call__(self, conn: sqlite3.Connection) -> None:
        conn.execute(self.sql, self.params)

    def __repr__(self) -> str:
        return f"SqlOp({self.sql!r}, {self.params!r})"


class _Failure:
    __slots__ = ("exc",)

    def __init__(self, exc: BaseException) -> None:
        self.exc = exc


# A queued item: (op, future, in_transaction). None stops the thread.
_Item = tuple[Callable[..., Any], "asyncio.Future[Any]", bool]


class GroupCommitWriter:
    """Owns the write connection and the thread that commits queued operations in groups.

    `await start(connect)` runs connect() on the writer thread; `await submit(op)` queues a
    write; `await call(fn)` runs fn(conn) alone, outside any transaction (migrations);
    `await aclose()` commits what is queued, closes the connection and joins the thread.
    """

    def __init__(
        self,
        name: str = "exa-orch-store-writer",
        on_commit: Callable[[], None] | None = None,
        retryable: Callable[[BaseException], bool] | None = None,
    ) -> None:
        self._on_commit = on_commit
        # A batch that failed this way (a deadlock between servers, say) is run again, op by op.
        self._retryable = retryable or (lambda exc: False)
        self._queue: SimpleQueue[_Item | None] = SimpleQueue()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._conn: Any = None  # a sqlite3.Connection, or postgres.PgConn shaped like one
        self._open = False
        self._stopped: asyncio.Future[None] | None = None
        self.stats = WriterStats()

    async def start(self, connect: Callable[[], Any]) -> None:
        """Start the thread and open the connection on it."""
        loop = asyncio.get_running_loop()
        self._loop = loop
        self._stopped = loop.create_future()
        self._thread.start()
        self._open = True

        def open_connection(_: None) -> None:
            self._conn = connect()

        await self._enqueue(open_connection, raw=True)

    async def call(self, fn: Callable[[Any], T]) -> T:
        """Run `fn(conn)` on the writer thread by itself, outside any batch or transaction."""
        return await self._enqueue(fn, raw=True)

    async def submit(self, op: Callable[[sqlite3.Connection], T]) -> T:
        """Queue `op` for the next group commit; return its result once the group is committed."""
        return await self._enqueue(op, raw=False)

    # Called on the writer thread at each group commit: an op (and its future) to run first in the
    # batch's transaction, or None. The cost ledger's rows ride along this way (store/costs.py).
    prelude: Callable[[], tuple[Callable[[Any], Any], asyncio.Future[Any]] | None] | None = None

    def queue(self, op: Callable[[sqlite3.Connection], T]) -> asyncio.Future[T]:
        """Queue `op` for the next group commit without waiting: the future resolves once committed.
        Ops commit in queue order, so any write queued after it and awaited commits it too."""
        return self._enqueue(op, raw=False)

    def _enqueue(self, op: Callable[[Any], T], *, raw: bool) -> asyncio.Future[T]:
        if not self._open or self._loop is None:
            raise StoreError("the store is closed", hint="Open it with `async with Store(path) as store`.")
        future: asyncio.Future[T] = self._loop.create_future()
        self._queue.put((op, future, raw))
        return future

    async def aclose(self) -> None:
        """Commit what is queued, close the connection, stop the thread; idempotent."""
        if not self._open:
            return
        self._open = False
        self._queue.put(None)
        assert self._stopped is not None
        await asyncio.shield(self._stopped)
        self._thread.join()

    # --- the writer thread ----------------------------------------------------------------

    def _run(self) -> None:
        inflight: list[_Item] = []
        try:
            self._serve(inflight)
        except BaseException as exc:  # a bug here must not leave callers waiting forever
            log.exception("store writer thread crashed")
            self._open = False
            error = StoreError(f"the store's writer stopped: {exc!r}", hint="Reopen the store.")
            while not self._queue.empty():
                item = self._queue.get()
                if item is not None:
                    inflight.append(item)
            self._post(_resolve, [(future, _Failure(error)) for _, future, _ in inflight])
        finally:
            if self._conn is not None:
                with contextlib.suppress(Exception):  # sqlite3's or the PostgreSQL driver's
                    self._conn.close()
                self._conn = None
            self._post(_finish, self._stopped)

    def _serve(self, inflight: list[_Item]) -> None:
        queue = self._queue
        stop = False
        while not stop:
            item = queue.get()
            items = inflight
            items.clear()
            raw = False
            while True:
                if item is None:
                    stop = True
                    break
                items.append(item)
                raw = raw or item[2]
                if len(items) >= MAX_BATCH or queue.empty():
                    break
                item = queue.get()
            if not raw:  # the common case: every item is a write of this group commit
                done = self._commit(items)
            else:
                done = []
                batch: list[_Item] = []
                for entry in items:
                    if entry[2]:  # raw: runs alone, after the writes queued before it
                        done.extend(self._commit(batch))
                        batch = []
                        done.append((entry[1], self._call_raw(entry[0])))
                    else:
                        batch.append(entry)
                done.extend(self._commit(batch))
            items.clear()
            self._deliver(done)

    def _call_raw(self, fn: Callable[[Any], Any]) -> Any:
        try:
            return fn(self._conn)
        except Exception as exc:
            return _Failure(_translate(exc))

    def _commit(self, batch: list[_Item]) -> list[tuple[asyncio.Future[Any], Any]]:
        # The prelude is asked even for an empty batch: the last one, at close, commits its rows too.
        if self.prelude is not None and (extra := self.prelude()) is not None:
            batch = [(extra[0], extra[1], False), *batch]  # first, so nothing after it commits before it
        if not batch:
            return []
        conn = self._conn
        ops = [entry[0] for entry in batch]
        try:
            if conn is None:
                raise StoreError("the write connection is not open")
            outcomes, failed = self._run_with_retries(conn, ops)
        except Exception as exc:  # BEGIN or COMMIT failed: every op of the batch hears it
            error = _translate(exc)
            outcomes, failed = [_Failure(error)] * len(batch), len(batch)
        if self._on_commit is not None:
            self._on_commit()
        stats = self.stats
        stats.ops += len(batch)
        stats.batches += 1
        stats.max_batch = max(stats.max_batch, len(batch))
        stats.failed_ops += failed
        if len(stats.batch_sizes) < 100_000:
            stats.batch_sizes.append(len(batch))
        return list(zip([entry[1] for entry in batch], outcomes, strict=True))

    def _run_with_retries(self, conn: Any, ops: list[Op]) -> tuple[list[Any], int]:
        """(each op's outcome, how many of them are failures).

        A batch the database ended as a whole and says may be retried (PostgreSQL's deadlock or
        serialization failure, SQLSTATE 40P01 / 40001: two servers' batches locked two tasks' rows
        in opposite orders) runs again once, here and only here, each op in a transaction of its
        own. An op locks one task's rows, in the order every writer keeps (its task_heads row, then
        its tasks row: records.TASK_ROW), so alone it cannot be part of a deadlock again."""
        try:
            try:
                return _run_batch(conn, ops, savepoints=False, retryable=self._retryable)
            except _OpFailed as lost:
                if lost.__cause__ is not None and self._retryable(lost.__cause__):
                    raise lost.__cause__ from None
                self.stats.savepoint_reruns += 1
                return _run_batch(conn, ops, savepoints=True, retryable=self._retryable)
        except Exception as exc:
            if not self._retryable(exc):
                raise
            self.stats.retried_batches += 1
            log.info("store writer: batch of %d ops hit %s; running each op again alone", len(ops), exc)
        outcomes: list[Any] = []
        failed = 0
        for op in ops:
            outcome, n = self._run_alone(conn, op)
            outcomes.extend(outcome)
            failed += n
        return outcomes, failed

    def _run_alone(self, conn: Any, op: Op) -> tuple[list[Any], int]:
        """Run `op` in a transaction of its own. An op that locks many tasks' rows (deleting the
        expired ones, in task_id order) can still lose a deadlock to another server's batch: the
        winner commits, so it runs again, at most `_ALONE_TRIES` times; the last failure is the op's."""
        for _ in range(_ALONE_TRIES - 1):
            try:
                return _run_batch(conn, [op], savepoints=False, retryable=self._retryable)
            except Exception as exc:
                cause = exc.__cause__ if isinstance(exc, _OpFailed) else exc
                if cause is None or not self._retryable(cause):
                    raise
                self.stats.retried_batches += 1
                log.info("store writer: an op alone hit %s; running it again", cause)
        return _run_batch(conn, [op], savepoints=False, retryable=_never)

    def _deliver(self, done: list[tuple[asyncio.Future[Any], Any]]) -> None:
        if done:
            self._post(_resolve, done)

    def _post(self, callback: Callable[[Any], None], arg: Any) -> None:
        assert self._loop is not None
        try:
            self._loop.call_soon_threadsafe(callback, arg)
        except RuntimeError:  # the loop is closed: nobody is waiting any more
            log.debug("store writer: event loop closed before results were delivered")


class _OpFailed(Exception):
    """An op failed in a batch run without savepoints; the batch was rolled back."""


def _run_batch(
    conn: Any, ops: list[Op], *, savepoints: bool, retryable: Callable[[BaseException], bool]
) -> tuple[list[Any], int]:
    """Run `ops` as one transaction: (each op's outcome, how many are failures)."""
    pipelined = getattr(conn, "run_pipelined", None)
    if pipelined is not None and not savepoints:
        runs = _runs(ops)
        if all(isinstance(run, tuple) for run in runs):
            # Nothing in the batch reads a result: BEGIN, the statements and COMMIT go to the server
            # in one round trip (PostgreSQL's pipeline mode); a failure rolls it all back.
            try:
                pipelined(cast("list[tuple[str, list[tuple[Any, ...]]]]", runs))
                return [None] * len(ops), 0
            except Exception as exc:
                if len(ops) == 1 and not retryable(exc):
                    return [_Failure(_fail(ops[0], exc, conn))], 1
                raise _OpFailed from exc
    conn.execute("BEGIN IMMEDIATE")
    outcomes: list[Any] = []
    failed = 0
    try:
        if not savepoints:
            try:
                _run_plain(conn, ops, outcomes)
            except Exception as exc:
                if len(ops) == 1 and not retryable(exc):
                    # Alone in its batch: rolling back the transaction is rolling back the op.
                    conn.execute("ROLLBACK")
                    return [_Failure(_fail(ops[0], exc, conn))], 1
                raise _OpFailed from exc
        else:
            for op in ops:
                conn.execute("SAVEPOINT op")
                try:
                    outcomes.append(op(conn))
                except Exception as exc:
                    if retryable(exc):  # the transaction is lost, not just this op: rerun it all
                        raise
                    conn.execute("ROLLBACK TO op")
                    outcomes.append(_Failure(_fail(op, exc, conn)))
                    failed += 1
                conn.execute("RELEASE op")
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            with contextlib.suppress(Exception):
                conn.execute("ROLLBACK")
        raise
    return outcomes, failed


_ALONE_TRIES = 3  # runs of one op alone after its batch deadlocked (Writer._run_alone)


def _never(exc: BaseException) -> bool:
    return False


def _runs(ops: list[Any]) -> list[Op | tuple[str, list[tuple[Any, ...]]]]:
    """The ops in order, each run of SqlOps sharing one statement gathered as (sql, [params, ...])."""
    runs: list[Op | tuple[str, list[tuple[Any, ...]]]] = []
    last_sql: str | None = None
    params: list[tuple[Any, ...]] = []
    for op in ops:
        if op.__class__ is not SqlOp:
            runs.append(op)
            last_sql = None
        elif op.sql is last_sql or op.sql == last_sql:
            params.append(op.params)
        else:
            last_sql = op.sql
            params = [op.params]
            runs.append((last_sql, params))
    return runs


def _run_plain(conn: sqlite3.Connection, ops: list[Op], outcomes: list[Any]) -> None:
    """Run ops in order; runs of SqlOps sharing one statement go through executemany."""
    for run in _runs(ops):
        if not isinstance(run, tuple):
            outcomes.append(run(conn))
        elif len(run[1]) > 1:
            conn.executemany(run[0], run[1])
            outcomes.extend([None] * len(run[1]))
        else:
            conn.execute(run[0], run[1][0])
            outcomes.append(None)


def _fail(op: Op, exc: Exception, conn: sqlite3.Connection) -> BaseException:
    if isinstance(op, SqlOp):
        if op.explain is not None:
            try:
                return _translate(op.explain(conn, exc, op.params))
            except Exception:  # explaining failed too: report the op's own error
                log.debug("store writer: explaining a failed op failed", exc_info=True)
        if op.on_error is not None:
            return _translate(op.on_error(exc))
    return _translate(exc)


def _resolve(done: list[tuple[asyncio.Future[Any], Any]]) -> None:
    for future, outcome in done:
        if future.done():  # the caller was cancelled; the write happened anyway
            continue
        if outcome.__class__ is _Failure:
            future.set_exception(outcome.exc)
        else:
            future.set_result(outcome)


def _finish(future: asyncio.Future[None] | None) -> None:
    if future is not None and not future.done():
        future.set_result(None)


def _translate(exc: BaseException) -> BaseException:
    """Typed errors pass through; SQLite's (and any other) become StoreError with the cause."""
    if isinstance(exc, OrchError):
        return exc
    error = StoreError(f"database write failed: {exc}")
    error.__cause__ = exc
    return error
