"""The group-commit writer: concurrent writes share commits, one failure spoils nothing else."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from exa_orch.errors import StoreError, TaskNotFound
from exa_orch.store import Store
from exa_orch.store.writer import GroupCommitWriter, SqlOp
from tests.support import WAIT

from .conftest import connect


async def test_hundred_concurrent_checkpointers_all_land_in_shared_commits(store: Store) -> None:
    tasks = [await store.create_task("t", {"n": i}) for i in range(100)]
    before = store.writer_stats.batches
    steps = 5

    async def checkpoint(task_id: str) -> None:
        for k in range(steps):
            await store.save_step(task_id, f"s{k}", {"task": task_id, "k": k})

    async with asyncio.timeout(WAIT):
        await asyncio.gather(*(checkpoint(t.id) for t in tasks))
    commits = store.writer_stats.batches - before
    assert commits < 100 * steps / 4, f"{commits} commits for {100 * steps} writes: no grouping"
    assert store.writer_stats.max_batch >= 50
    with connect(store) as conn:
        assert conn.execute("SELECT count(*) FROM task_steps").fetchone()[0] == 100 * steps
        assert (
            conn.execute("SELECT count(*) FROM task_heads WHERE step_count = ?", (steps,)).fetchone()[0]
            == 100
        )
    for task in tasks[:3]:
        assert await store.load_step(task.id, "s4") == (True, {"task": task.id, "k": 4})


async def test_one_failing_write_in_a_group_loses_nothing_else(store: Store) -> None:
    tasks = [await store.create_task("t", {}) for _ in range(20)]
    calls = [store.save_step(t.id, "x", {"i": i}) for i, t in enumerate(tasks)]
    calls.insert(7, store.save_step("task_missing", "x", 1))
    calls.insert(15, store.transition(tasks[3].id, "nonsense-status"))  # refused before queueing
    results = await asyncio.gather(*calls, return_exceptions=True)
    assert isinstance(results[7], TaskNotFound)
    assert isinstance(results[15], Exception)
    assert sum(r is None for r in results) == 20
    assert store.writer_stats.failed_ops >= 1
    for i, task in enumerate(tasks):
        assert await store.load_step(task.id, "x") == (True, {"i": i})


async def test_a_failed_op_is_rolled_back_to_its_savepoint(tmp_path: Path) -> None:
    writer = GroupCommitWriter()

    def connect() -> sqlite3.Connection:
        conn = sqlite3.connect(tmp_path / "w.db", isolation_level=None)
        conn.execute("CREATE TABLE t (k TEXT PRIMARY KEY)")
        return conn

    def half_then_fail(conn: sqlite3.Connection) -> None:
        conn.execute("INSERT INTO t VALUES ('half')")
        raise RuntimeError("fails after writing")

    await writer.start(connect)
    try:
        ops = [SqlOp("INSERT INTO t VALUES (?)", (f"k{i}",)) for i in range(10)]
        calls = [writer.submit(op) for op in ops[:5]]
        calls.append(writer.submit(half_then_fail))
        calls.append(writer.submit(SqlOp("INSERT INTO t VALUES (?)", ("k0",))))  # duplicate key
        calls.extend(writer.submit(op) for op in ops[5:])
        results = await asyncio.gather(*calls, return_exceptions=True)
        assert isinstance(results[5], StoreError) and isinstance(results[5].__cause__, RuntimeError)
        assert isinstance(results[6], StoreError) and isinstance(results[6].__cause__, sqlite3.IntegrityError)
        assert results[:5] == [None] * 5 and results[7:] == [None] * 5
        assert writer.stats.savepoint_reruns >= 1
        keys = await writer.call(lambda c: sorted(r[0] for r in c.execute("SELECT k FROM t")))
        assert keys == sorted(f"k{i}" for i in range(10))
    finally:
        await writer.aclose()


async def test_writes_after_close_are_refused_and_queued_ones_commit(db: str) -> None:
    store = Store(db)
    async with store:
        task = await store.create_task("t", {})
        pending = [asyncio.ensure_future(store.save_step(task.id, f"s{i}", i)) for i in range(10)]
        await asyncio.sleep(0)  # let them queue
    async with asyncio.timeout(WAIT):
        await asyncio.gather(*pending)
    with pytest.raises(StoreError):
        await store.save_step(task.id, "late", 1)
    async with Store(db) as again:
        assert len(await again.load_steps(task.id)) == 10


class _Boom(BaseException):
    """Not an Exception: escapes the per-op handling, like a bug in the writer would."""


async def test_a_crashed_writer_fails_waiters_instead_of_hanging(tmp_path: Path) -> None:
    writer = GroupCommitWriter()
    await writer.start(lambda: sqlite3.connect(tmp_path / "w.db", isolation_level=None))

    def explode(conn: sqlite3.Connection) -> None:
        raise _Boom

    try:
        async with asyncio.timeout(WAIT):
            with pytest.raises(StoreError):
                await writer.submit(explode)
        with pytest.raises(StoreError):
            await writer.submit(SqlOp("SELECT 1", ()))
    finally:
        async with asyncio.timeout(WAIT):
            await writer.aclose()


class _Transient(Exception):
    """Stands for a deadlock between servers: the whole transaction is lost, and may succeed again."""


async def test_an_op_that_loses_a_deadlock_again_alone_runs_again_and_then_fails_as_its_own(
    tmp_path: Path,
) -> None:
    # an op locking many tasks' rows (deleting the expired ones) may lose a deadlock even alone
    writer = GroupCommitWriter(retryable=lambda exc: isinstance(exc, _Transient))
    await writer.start(lambda: sqlite3.connect(tmp_path / "w.db", isolation_level=None))
    await writer.call(lambda conn: conn.execute("CREATE TABLE t (k TEXT PRIMARY KEY)"))
    failures = {"left": 2}

    def reap(conn: sqlite3.Connection) -> str:
        conn.execute("INSERT INTO t VALUES ('reaped')")
        if failures["left"]:
            failures["left"] -= 1
            raise _Transient("deadlock detected")
        return "reaped"

    def always(conn: sqlite3.Connection) -> None:
        raise _Transient("deadlock detected")

    try:
        async with asyncio.timeout(WAIT):
            assert await writer.submit(reap) == "reaped"  # lost in its batch, then once alone
            with pytest.raises(StoreError, match="deadlock detected"):
                await writer.submit(always)  # bounded: the last failure is the op's own
        rows = await writer.call(lambda conn: conn.execute("SELECT k FROM t").fetchall())
        assert rows == [("reaped",)]
    finally:
        async with asyncio.timeout(WAIT):
            await writer.aclose()


async def test_a_batch_lost_to_a_transient_error_runs_again_op_by_op(tmp_path: Path) -> None:
    writer = GroupCommitWriter(retryable=lambda exc: isinstance(exc, _Transient))
    await writer.start(lambda: sqlite3.connect(tmp_path / "w.db", isolation_level=None))
    await writer.call(lambda conn: conn.execute("CREATE TABLE t (k TEXT PRIMARY KEY)"))
    failures = {"left": 1}

    def insert(key: str, flaky: bool = False) -> Callable[[sqlite3.Connection], str]:
        def op(conn: sqlite3.Connection) -> str:
            conn.execute("INSERT INTO t VALUES (?)", (key,))
            if flaky and failures["left"]:
                failures["left"] -= 1
                raise _Transient("deadlock detected")
            return key

        return op

    try:
        async with asyncio.timeout(WAIT):
            done = await asyncio.gather(
                writer.submit(insert("a")), writer.submit(insert("b", flaky=True)), writer.submit(insert("c"))
            )
        assert done == ["a", "b", "c"]
        assert writer.stats.retried_batches == 1
        rows = await writer.call(lambda conn: conn.execute("SELECT k FROM t ORDER BY k").fetchall())
        assert rows == [("a",), ("b",), ("c",)]  # each once: the lost attempt left nothing behind
    finally:
        async with asyncio.timeout(WAIT):
            await writer.aclose()
