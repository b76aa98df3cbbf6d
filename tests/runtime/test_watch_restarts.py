"""Watches across restarts and servers (issue 39): a run due while no server was up runs once when
one starts, never once per missed slot; several servers on one database run each due run once."""

from __future__ import annotations

import asyncio
import signal
import sqlite3
import time
from collections.abc import AsyncIterator, Callable
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from exa_orch.app import App, open_app
from exa_orch.config import Settings
from exa_orch.sim.context import SimConfig
from exa_orch.sim.testing import SimHandle, SimThread, running_sim
from exa_orch.store.pgcluster import Cluster
from tests.pg import fresh_database
from tests.runtime.test_serve_crash import Server
from tests.support import until, until_sync

SEARCH = {
    "type": "operation",
    "operation": "exa.search",
    "args": {"query": "robotics startups", "numResults": 5},
}


def _runs(db: Path) -> list[tuple[int, float, float, float | None]]:
    """(n, due_at, started_at, finished_at) of every run, in order."""
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        return conn.execute("SELECT n, due_at, started_at, finished_at FROM watch_runs ORDER BY n").fetchall()


def _wait_recorded(db: Path, n: int) -> None:
    # Another process records it: its row is the event.
    until_sync(lambda: sum(1 for r in _runs(db) if r[3] is not None) >= n, what=f"run {n} recorded")


@pytest.mark.slow
def test_a_server_killed_between_two_due_runs_runs_the_missed_ones_once_on_restart(tmp_path: Path) -> None:
    db, errlog = tmp_path / "workflows.db", tmp_path / "stderr.log"
    with SimThread(SimConfig(speed=100.0)) as sim:
        first = Server(sim.url, db, errlog)
        try:
            made = first.call("watches.create", {**SEARCH, "every": "5s"})
            _wait_recorded(db, 1)
        finally:
            assert first.kill() == -signal.SIGKILL
        # The server stays down across four due times: moving the watch's schedule back by 20 s is
        # what 20 s of downtime would do to it, without waiting them out.
        with sqlite3.connect(db) as conn:
            conn.execute("UPDATE watches SET next_due = next_due - 20 WHERE id = ?", (made["watchId"],))
        restarted = time.time()
        second = Server(sim.url, db, errlog)
        try:
            _wait_recorded(db, 2)
            shown = second.call("watches.get", {"watchId": made["watchId"]})
        finally:
            assert second.close() == 0
    runs = _runs(db)
    missed = [r for r in runs if r[1] <= restarted]  # runs for slots that fell due while it was down
    assert [r[0] for r in missed] == [1, 2], runs  # run 1 before the kill, ONE run for the four slots
    run2 = runs[1]
    # The next run is one period after the catch-up run started, not at the next missed slot.
    assert shown["runs"][-1]["run"] == 1 and shown["runs"][0]["status"] == "completed"
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        (next_due,) = conn.execute("SELECT next_due FROM watches").fetchone()
        children = conn.execute("SELECT count(*) FROM tasks WHERE meta LIKE '%watchId%'").fetchone()[0]
    after = runs[2][1] if len(runs) > 2 else next_due  # the slot after run 2 (run 3's, if it began)
    assert after == pytest.approx(run2[2] + 5)
    assert children == len(runs)


class HeldClock:
    """The watches' clock, moved only by the test (epoch seconds)."""

    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


@asynccontextmanager
async def servers(
    target: str, sim: SimHandle, clock: Callable[[], float], n: int
) -> AsyncIterator[list[App]]:
    """`n` apps (store, runtime, watch scheduler each) on one database, as `n` servers would be."""
    async with AsyncExitStack() as stack:
        apps = []
        for _ in range(n):
            settings = Settings(exa_url=sim.url, simulator=True, rps=1000.0, concurrency=8)
            apps.append(await stack.enter_async_context(open_app(settings, target, watch_clock=clock)))
        yield apps


async def _recorded(app: App, watch_id: str, n: int) -> list[dict[str, Any]]:
    async def runs() -> list[dict[str, Any]] | None:
        got = (await app.run_operation("watches.get", {"watchId": watch_id}))["runs"]
        return got if sum(1 for r in got if r["finishedAt"]) >= n else None

    found: list[dict[str, Any]] = await until(runs, what=f"run {n} recorded")
    return found


async def test_two_servers_on_one_postgres_database_run_each_due_run_once(pg_cluster: Cluster) -> None:
    url = fresh_database(pg_cluster)
    clock = HeldClock()
    async with running_sim(SimConfig(speed=100.0)) as sim, servers(url, sim, clock, 2) as (one, two):
        made = await one.run_operation("watches.create", {**SEARCH, "every": "15s"})
        wid = made["watchId"]
        for n in (1, 2, 3):
            if n > 1:
                clock.now += 15
            for app in (one, two):  # both look at once: each due run is there for both to claim
                assert app.watches is not None
                app.watches.wake()
            runs = await _recorded(two, wid, n)
        # Both servers had their chance at every slot; give them one more round to misbehave.
        await asyncio.gather(*(app.watches.tick() for app in (one, two) if app.watches is not None))
        runs = (await one.run_operation("watches.get", {"watchId": wid}))["runs"]
        assert sorted(r["run"] for r in runs) == [1, 2, 3]
        assert len({r["taskId"] for r in runs}) == 3
        listed, _ = await one.store.list_tasks(limit=100)
        assert sum(1 for t in listed if t.meta.get("watchId") == wid) == 3
