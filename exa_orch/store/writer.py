"""The group-commit writer: one thread, one connection, one transaction per batch of writes.

Callers submit synchronous operations `op(conn) -> T`. A single asyncio task drains the queue
and hands the whole batch to the writer thread in one hop, which runs

    BEGIN IMMEDIATE; (SAVEPOINT op; op(conn); RELEASE op) x N; COMMIT

so 100 coroutines checkpointing at once share one commit instead of queueing behind 100. A
failing op is rolled back to its savepoint and gets its own exception; the others still commit.
Every future is resolved only after COMMIT returned, so a result means "durable".

Why not aiosqlite here: it runs one statement per thread hop and its public API can't run a
batch of statements as one unit; the writer needs exactly that, so it owns a plain sqlite3
connection on one dedicated thread (readers still use aiosqlite).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

from exa_orch.errors import OrchError, StoreError

T = TypeVar("T")
Op = Callable[[sqlite3.Connection], Any]

log = logging.getLogger(__name__)

MAX_BATCH = 512


@dataclass
class WriterStats:
    """Counters a test or benchmark can read: ops committed, batches, largest batch."""

    ops: int = 0
    batches: int = 0
    max_batch: int = 0
    failed_ops: int = 0
    batch_sizes: list[int] = field(default_factory=list, repr=False)


class _Failure:
    __slots__ = ("exc",)

    def __init__(self, exc: BaseException) -> None:
        self.exc = exc


class GroupCommitWriter:
    """Owns the write connection and the task that commits queued operations in groups.

    Use `await start(connect)` (connect runs on the writer thread and returns the connection),
    `await submit(op)`, and `await aclose()`; `call(fn)` runs `fn(conn)` on the writer thread
    outside any batch (migrations, set-up).
    """

    def __init__(self, name: str = "exa-orch-store-writer") -> None:
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix=name)
        self._queue: asyncio.Queue[tuple[Op, asyncio.Future[Any]] | None] = asyncio.Queue()
        self._conn: sqlite3.Connection | None = None
        self._task: asyncio.Task[None] | None = None
        self._closing = False
        self.stats = WriterStats()

    async def start(self, connect: Callable[[], sqlite3.Connection]) -> None:
        """Open the connection on the writer thread and start the commit loop."""
        self._conn = await self.call_raw(connect)
        self._task = asyncio.create_task(self._run(), name="exa-orch-store-writer")

    async def call_raw(self, fn: Callable[[], T]) -> T:
        """Run `fn()` on the writer thread (no batching, no transaction)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, fn)

    async def call(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run `fn(conn)` on the writer thread outside any batch."""
        conn = self._require_conn()
        return await self.call_raw(lambda: fn(conn))

    def _require_conn(self) -> sqlite3.Connection:
        if self._conn is None:
            raise StoreError("the store is not open", hint="Use `async with Store(path) as store`.")
        return self._conn

    async def submit(self, op: Callable[[sqlite3.Connection], T]) -> T:
        """Queue `op` for the next group commit; return its result once the group is committed."""
        if self._closing or self._task is None or self._task.done():
            raise StoreError("the store is closed", hint="Open it again with `async with Store(path)`.")
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait((op, future))
        return await future

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        conn = self._require_conn()
        stop = False
        while not stop:
            item = await self._queue.get()
            batch: list[tuple[Op, asyncio.Future[Any]]] = []
            while True:
                if item is None:
                    stop = True
                # A caller that gave up (cancelled) doesn't need its op run.
                elif not item[1].done():
                    batch.append(item)
                if len(batch) >= MAX_BATCH or self._queue.empty():
                    break
                item = self._queue.get_nowait()
            if not batch:
                continue
            ops = [op for op, _ in batch]
            try:
                outcomes = await loop.run_in_executor(self._executor, _commit_batch, conn, ops)
            except asyncio.CancelledError:
                for _, future in batch:
                    future.cancel()
                raise
            except BaseException as exc:  # every waiter must hear about it
                error = _as_store_error(exc)
                for _, future in batch:
                    if not future.done():
                        future.set_exception(error)
                continue
            self._record(len(batch), outcomes)
            for (_, future), outcome in zip(batch, outcomes, strict=True):
                if future.done():
                    continue
                if isinstance(outcome, _Failure):
                    future.set_exception(outcome.exc)
                else:
                    future.set_result(outcome)

    def _record(self, size: int, outcomes: list[Any]) -> None:
        stats = self.stats
        stats.ops += size
        stats.batches += 1
        stats.max_batch = max(stats.max_batch, size)
        stats.failed_ops += sum(isinstance(o, _Failure) for o in outcomes)
        if len(stats.batch_sizes) < 10_000:
            stats.batch_sizes.append(size)

    async def aclose(self) -> None:
        """Commit what is queued, stop the loop, close the connection; idempotent."""
        if self._closing:
            return
        self._closing = True
        if self._task is not None:
            self._queue.put_nowait(None)
            try:
                await self._task
            finally:
                self._task = None
        conn, self._conn = self._conn, None
        if conn is not None:
            await asyncio.get_running_loop().run_in_executor(self._executor, conn.close)
        # The thread is idle now; joining it doesn't block the loop for long.
        self._executor.shutdown(wait=True)


def _commit_batch(conn: sqlite3.Connection, ops: list[Op]) -> list[Any]:
    """Run `ops` in one transaction (each in its own savepoint when there are several)."""
    conn.execute("BEGIN IMMEDIATE")
    outcomes: list[Any] = []
    try:
        if len(ops) == 1:
            # Alone in its batch an op needs no savepoint: its failure rolls back the transaction.
            try:
                outcomes.append(ops[0](conn))
            except Exception as exc:
                conn.execute("ROLLBACK")
                return [_Failure(_translate(exc))]
        else:
            for op in ops:
                conn.execute("SAVEPOINT op")
                try:
                    outcomes.append(op(conn))
                except Exception as exc:
                    conn.execute("ROLLBACK TO op")
                    outcomes.append(_Failure(_translate(exc)))
                conn.execute("RELEASE op")
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
        raise
    return outcomes


def _translate(exc: Exception) -> BaseException:
    """Typed errors pass through; SQLite's become StoreError with the cause attached."""
    if isinstance(exc, OrchError):
        return exc
    return _as_store_error(exc)


def _as_store_error(exc: BaseException) -> BaseException:
    if isinstance(exc, OrchError | asyncio.CancelledError):
        return exc
    error = StoreError(f"database write failed: {exc}")
    error.__cause__ = exc
    return error
