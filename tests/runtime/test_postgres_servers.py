"""Issue 15's acceptance: three `exa-orch serve --http` processes share one PostgreSQL database;
60 research tasks (the built-in workflows, in turn) are created through all three; midway one
server is SIGKILLed and one SIGSTOPped. Every task ends once, every step is saved once, the
simulator's create log holds no Exa object of any kind made twice, and the stopped server, woken
after the others took its tasks over, writes nothing."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from bench.chaos import MIX, duplicates
from exa_orch.gateway.marks import CREATE_MARK
from exa_orch.sim.context import SimConfig
from exa_orch.sim.testing import SimThread
from exa_orch.store.pgcluster import Cluster
from tests.pg import fresh_database
from tests.support import WAIT, bound, until

ROOT = Path(__file__).resolve().parents[2]
TASKS = 60
# The built-in research workflows with bench/chaos.py's small arguments (a few items each), so a
# task finishes in seconds at the simulator's speed; one-operation tasks need a webset made first.
RESEARCH = [args for args in MIX if args["type"] != "operation"]
TERMINAL = ("completed", "failed", "cancelled")

# The waits below are bounded by bound(600) and tasks.result's; on a busy 2-core machine the whole
# test has taken 285 s (about 150 s idle), near pytest's default 300 s, which must not decide it.
pytestmark = [pytest.mark.slow, pytest.mark.timeout(bound(900))]


@pytest.fixture
def sim_thread() -> Iterator[SimThread]:
    with SimThread(SimConfig(speed=100.0)) as handle:
        yield handle


class HttpServer:
    """`python -m exa_orch serve --http --port 0` on the shared database."""

    def __init__(self, sim_url: str, db: str, errlog: Path) -> None:
        env = {k: v for k, v in os.environ.items() if k != "EXA_API_KEY"}
        env.update(
            {
                "EXA_ORCH_DB": db,
                "EXA_ORCH_EXA_URL": sim_url,
                "EXA_ORCH_SIMULATOR": "1",
                "EXA_ORCH_RPS": "200",
                "EXA_ORCH_MAX_TASKS": "8",
                # The shortest lease: the stopped server's tasks are taken over 6 s after its last
                # renewal rather than 15 (a serial wait of this test).
                "EXA_ORCH_LEASE_TTL": "6",
                "PYTHONPATH": str(ROOT),
            }
        )
        with errlog.open("ab") as err:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "exa_orch", "serve", "--http", "--port", "0"],
                env=env,
                cwd=ROOT,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=err,
                text=True,
            )
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline().strip()  # blocks until the server prints its URL (or exits)
        assert line.startswith("EXA_ORCH_MCP_URL="), (line, errlog.read_text()[-3000:])
        self.url = line.split("=", 1)[1]

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGCONT)
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=WAIT)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.proc.stdout is not None:
            self.proc.stdout.close()
        return self.proc.returncode


@contextlib.asynccontextmanager
async def session(server: HttpServer) -> AsyncIterator[Client]:
    async with Client(streamable_http_client(server.url), mode="legacy") as client:
        yield client


async def call(client: Client, operation: str, args: dict[str, Any]) -> Any:
    result = await client.call_tool("manage_websets", {"operation": operation, "args": args})
    body = json.loads(result.content[0].text)  # type: ignore[union-attr]
    assert not result.is_error, body
    return body


async def result(client: Client, task_id: str) -> dict[str, Any]:
    for _ in range(10):  # tasks.result waits at most 60 s per call
        out: dict[str, Any] = await call(client, "tasks.result", {"taskId": task_id, "wait": 60})
        if out["status"] in TERMINAL:
            return out
    raise AssertionError(f"{task_id} did not finish: {out}")


def leased_by(url: str, server: HttpServer) -> set[str]:
    """The unfinished tasks `server` holds the lease of."""
    with psycopg.connect(url) as conn:
        rows = conn.execute(
            "SELECT id FROM tasks WHERE lease_owner LIKE %s AND status <> ALL(%s)",
            (f"%:{server.proc.pid}:%", list(TERMINAL)),
        ).fetchall()
    return {row[0] for row in rows}


def finished(url: str) -> int:
    """How many tasks have ended."""
    with psycopg.connect(url) as conn:
        row = conn.execute("SELECT count(*) FROM tasks WHERE status = ANY(%s)", (list(TERMINAL),)).fetchone()
    assert row is not None
    return int(row[0])


def snapshot(url: str) -> tuple[list[Any], list[Any], list[Any]]:
    """Everything a server can write: task rows, steps, events."""
    with psycopg.connect(url) as conn:
        tasks = conn.execute("SELECT * FROM tasks ORDER BY id").fetchall()
        steps = conn.execute("SELECT * FROM task_steps ORDER BY task_id, step_key").fetchall()
        events = conn.execute("SELECT * FROM task_events ORDER BY id").fetchall()
    return tasks, steps, events


async def test_three_servers_one_killed_one_stopped_run_every_task_and_step_once(
    sim_thread: SimThread, pg_cluster: Cluster, pg_template: str, tmp_path: Path
) -> None:
    db = fresh_database(pg_cluster, pg_template)
    errlog = tmp_path / "stderr.log"
    servers = [HttpServer(sim_thread.url, db, errlog) for _ in range(3)]
    killed, stopped, survivor = servers
    try:
        ids: list[str] = []
        async with session(killed) as a, session(stopped) as b, session(survivor) as c:
            clients = [a, b, c]
            for i in range(TASKS):
                created = await call(clients[i % 3], "tasks.create", RESEARCH[i % len(RESEARCH)])
                ids.append(created["taskId"])

        # Midway: a dozen tasks have finished, the others are running or waiting, and the
        # server about to be stopped holds some. Its leases are read once it is stopped (it
        # can't finish one between the read and the stop); holding none, it is woken and the
        # wait goes on.
        def stop_while_holding() -> set[str]:
            if finished(db) < 12 or not leased_by(db, stopped):
                return set()
            stopped.proc.send_signal(signal.SIGSTOP)
            if held := leased_by(db, stopped):
                return held
            stopped.proc.send_signal(signal.SIGCONT)
            return set()

        # A dozen research tasks to end first: on a busy machine that alone may take minutes.
        held = await until(
            stop_while_holding, within=bound(600), every=0.05, what="the stopped server to hold a task"
        )
        killed.proc.send_signal(signal.SIGKILL)
        killed.proc.wait(timeout=WAIT)
        # The survivor takes the dead server's tasks at once and the stopped one's when its
        # leases lapse, and finishes all of them.
        async with session(survivor) as c:
            done = [await result(c, task_id) for task_id in ids]
        before = snapshot(db)
        exa_log = sim_thread.log()  # every Exa request until the stopped server wakes
        stopped.proc.send_signal(signal.SIGCONT)
        async with session(stopped) as b:  # it is awake and serving again
            for task_id in sorted(held)[:3]:
                assert (await call(b, "tasks.get", {"taskId": task_id}))["status"] in TERMINAL
        codes = [server.stop() for server in (stopped, survivor)]
        after = snapshot(db)
    finally:
        for server in servers:
            server.stop()
    log = errlog.read_text()
    assert codes == [0, 0], log[-3000:]
    assert held, "the stopped server held no running task: the test stopped it too late"
    assert {d["status"] for d in done} == {"completed"}, [d for d in done if d["status"] != "completed"]
    # Every task ended once, every step was saved once.
    tasks, steps, events = after
    assert len(tasks) == TASKS
    by_id = {task[0]: task[1] for task in tasks}
    assert [by_id[t] for t in ids] == [RESEARCH[i % len(RESEARCH)]["type"] for i in range(TASKS)]
    terminal_events = [e for e in events if e[3] == "status" and e[4] in TERMINAL]
    assert sorted(e[1] for e in terminal_events) == sorted(ids)
    keys = [(s[0], s[1]) for s in steps]
    assert len(keys) == len(set(keys))
    for task in tasks:
        own = [s for s in steps if s[0] == task[0]]
        assert own, f"{task[0]} ({task[1]}) saved no step"
        assert sorted(s[2] for s in own) == list(range(1, len(own) + 1))  # no step saved twice
    # No Exa object of any kind was made twice: every create in the simulator's log has its own key
    # (externalId, else the exaOrchKey metadata mark), agent runs included.
    stats = sim_thread.stats()
    assert {"webset", "agent_run"} <= set(stats["creates_by_kind"]), stats["creates_by_kind"]
    made_twice = {kind: n for kind, n in duplicates(exa_log).items() if n}
    assert made_twice == {}, (made_twice, stats["creates_by_kind"])
    # The stopped server, woken, wrote nothing: the database is as the others left it.
    assert after == before
    # Nor did it make an Exa object at all: woken between a create's find-first and its send, its
    # lease long lapsed, the gateway's lease fence (gateway/fence.py) refuses the send, so the
    # object the survivor made (an agent run or enrichment, found by its metadata mark) is not
    # made again. Before the fence, it was, for research.create, research.create:i and enrich.i.
    late = [e["created"] for e in sim_thread.log()[len(exa_log) :] if e.get("created")]
    marks = [(c["kind"], c.get("externalId") or c["metadata"].get(CREATE_MARK)) for c in late]
    woken = {kind: n for kind, n in duplicates(sim_thread.log()).items() if n}
    assert woken == {}, marks
    assert marks == []


async def test_a_wait_returns_when_another_server_finishes_the_task_not_at_a_poll(
    pg_cluster: Cluster, pg_template: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import asyncio

    from exa_orch.runtime import service
    from exa_orch.store import Store
    from tests.runtime.conftest import supervisor
    from tests.support import until

    monkeypatch.setattr(service, "_POLL_MAX", 600.0)  # only a notification can end the wait in time
    db = fresh_database(pg_cluster, pg_template)
    async with Store(db) as here, Store(db) as there:
        task = await here.create_task("rt.steps", {})
        sup = supervisor(here, {})
        waiter = asyncio.ensure_future(sup.tasks.wait(task.id, timeout=bound(600)))

        async def waiting() -> bool:  # it has read the task (pending) and waits on its events
            event = sup._changed.get(task.id)
            return event is not None and bool(getattr(event, "_waiters", None))

        await until(waiting, within=WAIT)
        await there.complete(task.id, {"by": "another server"})
        async with asyncio.timeout(WAIT):
            record = await waiter
    assert record.status == "completed" and record.result == {"by": "another server"}


async def test_an_idle_server_claims_a_task_another_server_created_at_once_not_at_its_poll(
    pg_cluster: Cluster, pg_template: str
) -> None:
    import asyncio

    from exa_orch.store import Store
    from tests.runtime.conftest import supervisor

    db = fresh_database(pg_cluster, pg_template)
    async with Store(db) as here, Store(db) as there:
        # Its claim loop polls every 10 minutes: only the NOTIFY of the new task can start it in time.
        async with supervisor(here, {}, claim_interval=600.0) as sup:
            await sup.tasks.list()  # the server is up, and has claimed (nothing) at start-up
            task = await there.create_task("rt.steps", {"steps": 2})
            async with asyncio.timeout(WAIT):
                done = await sup.tasks.wait(task.id)
    assert done.status == "completed" and done.result == {"squares": [0, 1]}
    assert done.lease_owner is None
