"""Row locks between servers on one PostgreSQL database: two servers' group commits that lock two
tasks' rows in opposite orders deadlock, and the batch PostgreSQL ends is run again once, op by op
(store/writer.py), so no write is lost or made twice; many servers creating, claiming,
checkpointing and cancelling at once lose no write either."""

from __future__ import annotations

import asyncio
import os
import random
import subprocess
import sys
import threading
import uuid
from pathlib import Path
from typing import Any

import psycopg
import pytest

from exa_orch.errors import InvalidTransition, LeaseHeld, TaskTerminal
from exa_orch.store import Store, costs, postgres, tasks
from exa_orch.store.pgcluster import Cluster
from tests.pg import fresh_database
from tests.support import WAIT, until_sync

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def url(pg_cluster: Cluster, pg_template: str) -> str:
    """A fresh database whose sessions look for a deadlock after 50 ms of waiting on a lock, not
    PostgreSQL's 1 s: a deadlock is found, and the stress below runs, sooner."""
    url = fresh_database(pg_cluster, pg_template)
    with psycopg.connect(url, autocommit=True) as conn:
        name = url.rsplit("/", 1)[1]
        conn.execute(f"ALTER DATABASE \"{name}\" SET deadlock_timeout = '50ms'".encode())
    return url


async def test_two_batches_locking_two_tasks_in_opposite_orders_deadlock_once_and_both_commit(
    url: str,
) -> None:
    async with Store(url) as a, Store(url) as b:
        x = await a.create_task("t", {})
        y = await a.create_task("t", {})
        # Each server's next batch: lock one task (and wait until the other server has locked the
        # other one), then the other task. Both then wait for each other: a deadlock, whichever
        # PostgreSQL ends. Only the first run of an op waits at the barrier.
        both_hold_one = threading.Barrier(2, timeout=WAIT)
        runs: dict[str, int] = {}

        def lock(name: str, task_id: str, meet: bool) -> Any:
            def op(conn: Any) -> str:
                runs[name] = runs.get(name, 0) + 1
                tasks.fetch(conn, task_id)
                if meet and runs[name] == 1:
                    both_hold_one.wait()
                return name

            return op

        async def batch(store: Store, first: str, second: str, tag: str) -> list[str]:
            # The writer is held on a first op until both of these are queued: they share a batch.
            release = threading.Event()
            held = store._writer.queue(lambda conn: release.wait(WAIT))
            ops = [
                store._writer.queue(lock(f"{tag}1", first, meet=True)),
                store._writer.queue(lock(f"{tag}2", second, meet=False)),
            ]
            release.set()
            await held
            return list(await asyncio.gather(*ops))

        async with asyncio.timeout(WAIT):
            done = await asyncio.gather(batch(a, x.id, y.id, "a"), batch(b, y.id, x.id, "b"))
        assert done == [["a1", "a2"], ["b1", "b2"]]
        assert a._writer.stats.retried_batches + b._writer.stats.retried_batches == 1
        # The ended batch ran twice (its first run rolled back, then op by op), the other once.
        assert sorted(runs.values()) == [1, 1, 2, 2]
        assert a._writer.stats.failed_ops == b._writer.stats.failed_ops == 0


SERVERS = 3
ROUNDS = 5


async def _serve(
    store: Store, rounds: int, seed: int, made: list[str], failures: list[BaseException]
) -> None:
    """One server's busy life: create tasks, claim some (some on a lease that lapses at once), and
    for each report progress, pay, checkpoint and complete or release it, while cancelling tasks
    any server made."""
    rnd = random.Random(seed)
    owner = store.owner_id
    for r in range(rounds):
        new = await asyncio.gather(*(store.create_task("t", {"round": r, "i": i}) for i in range(6)))
        made.extend(t.id for t in new)
        claimed = await store.claim_runnable(owner, 0.01 if rnd.random() < 0.3 else 60, 8)

        async def run(task_id: str, r: int = r) -> None:
            await store.set_progress(task_id, {"step": "s", "completed": r}, owner=owner)
            await store.record_cost(
                costs.CostRow(key=uuid.uuid4().hex, operation="o", usd=0.01, billed=True, task_id=task_id),
                wait=False,
            )
            await store.save_step(task_id, f"s{r}", {"r": r}, owner=owner)
            if rnd.random() < 0.5:
                await store.complete(task_id, {"r": r}, owner=owner)
            else:
                await store.release_lease(task_id, owner)
            await store.renew_leases(owner, 60)

        cancels = [store.request_cancel(task_id) for task_id in rnd.sample(made, min(3, len(made)))]
        outcomes = await asyncio.gather(*(run(t.id) for t in claimed), *cancels, return_exceptions=True)
        # Another server taking a lapsed lease, or finishing a task first, is the task's business;
        # anything else (a database error) is a lost write.
        expected = (LeaseHeld, TaskTerminal, InvalidTransition)
        failures.extend(o for o in outcomes if isinstance(o, BaseException) and not isinstance(o, expected))


async def test_servers_creating_claiming_and_cancelling_at_once_lose_no_write(url: str) -> None:
    stores = [Store(url) for _ in range(SERVERS)]
    made: list[str] = []
    failures: list[BaseException] = []
    try:
        for store in stores:
            await store.open()
        async with asyncio.timeout(WAIT):
            await asyncio.gather(*(_serve(s, ROUNDS, seed, made, failures) for seed, s in enumerate(stores)))
    finally:
        for store in stores:
            await store.aclose()
    assert failures == []
    assert len(made) == len(set(made)) == SERVERS * ROUNDS * 6
    with psycopg.connect(url) as conn:
        rows = conn.execute(
            "SELECT t.id, h.task_id FROM tasks t LEFT JOIN task_heads h ON h.task_id = t.id"
        ).fetchall()
        events = conn.execute(
            "SELECT task_id, count(*) FROM task_events WHERE kind = 'created' GROUP BY task_id"
        ).fetchall()
    assert sorted(r[0] for r in rows) == sorted(made)  # every task made once, each with its narrow row
    assert all(r[1] is not None for r in rows)
    assert sorted(events) == sorted((task_id, 1) for task_id in made)


# A writer that stops itself in the middle of a pipeline: BEGIN and an UPDATE sent, no Sync. Its
# session waits for it inside the transaction, holding the row's lock, and PostgreSQL's
# idle_in_transaction_session_timeout never fires (it covers waits between whole statements).
_STOPS_MID_PIPELINE = """
import os, select, signal, sys
from exa_orch.store.postgres import _connect
conn = _connect(sys.argv[1], "exa-orch writer")
with conn.pipeline(), conn.cursor() as cur:
    cur.execute(b"BEGIN")
    cur.execute(b"UPDATE stall SET x = 2")
    while conn.pgconn.flush():  # a pipeline's socket is non-blocking: send every byte before stopping
        select.select([], [conn.pgconn.socket], [])
    os.kill(os.getpid(), signal.SIGSTOP)
"""


def test_a_writer_stopped_mid_pipeline_has_its_session_ended_and_its_row_locks_freed(
    pg_cluster: Cluster, pg_template: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = fresh_database(pg_cluster, pg_template)
    monkeypatch.setattr(postgres, "STALLED_CLIENT_S", 1.0)  # not 20 s: the test waits on it
    monkeypatch.setattr(postgres, "SWEEP_EVERY_S", 0.0)
    with psycopg.connect(url, autocommit=True) as probe:
        probe.execute(b"CREATE TABLE stall (x int)")
        probe.execute(b"INSERT INTO stall VALUES (1)")
        child = subprocess.Popen(
            [sys.executable, "-c", _STOPS_MID_PIPELINE, url], env={**os.environ, "PYTHONPATH": str(ROOT)}
        )
        try:

            def stalled_pid() -> int | None:
                # its UPDATE run (the table's lock held), its session waiting for the next message
                row = probe.execute(
                    b"SELECT a.pid FROM pg_stat_activity a JOIN pg_locks l ON l.pid = a.pid"
                    b" WHERE a.application_name = 'exa-orch writer' AND a.wait_event = 'ClientRead'"
                    b" AND l.relation = 'stall'::regclass AND l.mode = 'RowExclusiveLock' AND l.granted"
                ).fetchone()
                return None if row is None else int(row[0])

            pid = until_sync(stalled_pid, what="the stopped writer's session, waiting in its transaction")
            with pytest.raises(psycopg.errors.LockNotAvailable):
                probe.execute(b"SELECT x FROM stall FOR UPDATE NOWAIT")
            writer = postgres.PgConn(url)  # another server's writer, at its next transactions
            healthy = postgres.PgConn(url)  # an idle one is left alone

            def ended() -> bool:
                writer.execute("BEGIN")
                writer.execute("ROLLBACK")
                row = probe.execute(
                    b"SELECT count(*) FROM pg_stat_activity WHERE pid = %s", (pid,)
                ).fetchone()
                return row is not None and row[0] == 0

            until_sync(ended, what="the stalled session ended by the other writer")
            assert probe.execute(b"SELECT x FROM stall FOR UPDATE NOWAIT").fetchone() == (1,)  # rolled back
            healthy.execute("BEGIN")
            assert healthy.execute("SELECT 1").fetchall() == [(1,)]
            healthy.execute("ROLLBACK")
            writer.close()
            healthy.close()
        finally:
            child.kill()
            child.wait(timeout=WAIT)
