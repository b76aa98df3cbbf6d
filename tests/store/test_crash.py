"""Crash safety: a checkpointing process killed with SIGKILL at random moments, many times.

After every kill the database is reopened: every acknowledged checkpoint is there, no partial
one is (a step row and its task's counter are written by one statement and must agree), and
`PRAGMA integrity_check` says ok (on SQLite; the test runs on PostgreSQL too, where the kill
ends the client's session mid-transaction). The children are forked by crash_child.py, a fork server, so
that 60 kills don't cost 60 interpreter start-ups. (LANES > 1 runs several such writers on the
same file at once; SQLite's busy handler is not fair, so that mostly measures lock waits.)
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import sqlite3
import sys
from pathlib import Path
from typing import Any

import pytest

from exa_orch.store import Store
from tests.support import WAIT, bound

from .conftest import PgSync

CHILD = Path(__file__).with_name("crash_child.py")
LANES = 1
KILLS_PER_LANE = 60


class Lane:
    """One fork server (crash_child.py) and the task its children checkpoint."""

    def __init__(self, server: asyncio.subprocess.Process, task_id: str) -> None:
        self.server = server
        self.task_id = task_id

    async def line(self) -> str:
        assert self.server.stdout is not None and self.server.stderr is not None
        async with asyncio.timeout(WAIT):
            raw = await self.server.stdout.readline()
        if not raw:
            raise AssertionError(f"the fork server died: {(await self.server.stderr.read())!r}")
        return raw.decode().rstrip("\n")

    async def run_and_kill(self, delay: float, start: int) -> list[str]:
        """Fork a checkpointer, let it acknowledge for `delay` s after its first ack, SIGKILL it."""
        assert self.server.stdin is not None
        self.server.stdin.write(f"run {self.task_id} {start}\n".encode())
        await self.server.stdin.drain()
        pid = int((await self.line()).removeprefix("pid "))
        acks: list[str] = []
        try:
            first = await self.line()
            assert first.startswith("ack "), f"the child ended before its first checkpoint: {first}"
            acks.append(first[4:])
            try:
                async with asyncio.timeout(delay):  # the kill moment: `delay` after the first ack
                    while (line := await self.line()).startswith("ack "):
                        acks.append(line[4:])
                raise AssertionError(f"the child ended on its own: {line}")
            except TimeoutError:
                pass
        finally:
            os.kill(pid, signal.SIGKILL)
        while (line := await self.line()).startswith("ack "):  # acks already in the pipe when it died
            acks.append(line[4:])
        status = int(line.removeprefix("exit "))
        assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL, line
        return acks


def _connect(db: str) -> Any:
    if db.startswith("postgresql://"):
        conn = PgSync(db)
        # A commit the child sent just before it died may still land: end the dead child's
        # sessions and let the server wait (bounded, 20 s) until each is gone, then read.
        orphans = "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name LIKE 'exa-orch%' AND pid <> pg_backend_pid()"
        for (pid,) in conn.execute(orphans).fetchall():
            conn.execute("SELECT pg_terminate_backend(?, 20000)", (pid,))
        assert not conn.execute(orphans).fetchall(), "the killed child's sessions never ended"
        return conn
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    return conn


def check(db: str, task_id: str, acked: set[str], verified: int) -> int:
    """Assert the lane's invariants on a fresh connection; return the number of steps.

    Rows up to `verified` were checked after earlier kills; only newer ones are read again.
    """
    conn = _connect(db)
    try:
        count, last = conn.execute(
            "SELECT step_count, last_step_key FROM task_heads WHERE task_id = ?", (task_id,)
        ).fetchone()
        total = conn.execute("SELECT count(*) FROM task_steps WHERE task_id = ?", (task_id,)).fetchone()[0]
        rows = conn.execute(
            "SELECT step_key, seq, result FROM task_steps WHERE task_id = ? AND seq > ? ORDER BY seq",
            (task_id, verified),
        ).fetchall()
        saved = {
            key for (key,) in conn.execute("SELECT step_key FROM task_steps WHERE task_id = ?", (task_id,))
        }
        present = saved & acked
    finally:
        conn.close()
    assert present == acked, f"lost acknowledged checkpoints: {sorted(acked - present)[:5]}"
    # Steps are saved one after another, so what is there is exactly a prefix s0..s(n-1).
    assert [key for key, _, _ in rows] == [f"s{i:06d}" for i in range(verified, total)]
    assert [seq for _, seq, _ in rows] == list(range(verified + 1, total + 1))
    # The step rows and the task's counter were written together: never one without the other.
    assert count == total and last == (f"s{total - 1:06d}" if total else None)
    for key, _, result in rows:
        assert json.loads(result)["key"] == key
    return total


@pytest.mark.timeout(bound(600))  # the kills' own bound (bound(240)) decides, not pytest's 300 s
async def test_sigkilled_checkpointer_loses_no_acknowledged_step(db: str) -> None:
    async with Store(db) as store:
        task_ids = [(await store.create_task("crash.test", {"lane": lane})).id for lane in range(LANES)]
    rng = random.Random(20261121)
    acked: dict[str, set[str]] = {task_id: set() for task_id in task_ids}
    kills = 0
    servers: list[asyncio.subprocess.Process] = []

    async def lane(task_id: str, delays: list[float]) -> None:
        nonlocal kills
        verified = 0
        server = await asyncio.create_subprocess_exec(
            sys.executable,
            str(CHILD),
            db,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        servers.append(server)
        runner = Lane(server, task_id)
        for delay in delays:
            acks = await runner.run_and_kill(delay, start=verified)
            assert acks, "every round acknowledges at least one checkpoint"
            acked[task_id].update(acks)
            # Every ack ever given must still be there, not just this round's.
            verified = check(db, task_id, acked[task_id], verified)
            kills += 1

    plans = {task_id: [rng.uniform(0.02, 0.15) for _ in range(KILLS_PER_LANE)] for task_id in task_ids}
    try:
        # about 60 s idle; over 110 s on a busy 2-core machine
        async with asyncio.timeout(bound(240)):
            await asyncio.gather(*(lane(task_id, plans[task_id]) for task_id in task_ids))
    finally:
        for server in servers:
            assert server.stdin is not None
            server.stdin.close()
            async with asyncio.timeout(WAIT):
                await server.wait()
    assert kills == LANES * KILLS_PER_LANE >= 60
    async with Store(db) as store:  # and the store itself opens and reads it fine afterwards
        loaded = {task_id: await store.load_steps(task_id) for task_id in task_ids}
    for task_id, steps in loaded.items():
        assert set(steps) >= acked[task_id]
        assert len(steps) == check(db, task_id, acked[task_id], 0)
