"""The pool's acceptance across processes: two `exa-orch serve --http` processes on one PostgreSQL
database, 5 tasks of 2 principals (bearer tokens) queueing 200 agent runs between them: at most 50
active at the simulator, no 429, nobody under half its fair share (tests/pool/test_pool.py has the
same in one process, on SQLite and on PostgreSQL)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx2
import psycopg
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from exa_orch.sim.context import SimConfig
from exa_orch.sim.testing import SimThread
from exa_orch.store.pgcluster import Cluster
from tests.pg import fresh_database
from tests.support import WAIT

from .test_pool import PLAN, check_outcome

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
TOKENS = {"user:alice": "alice-secret-0a1b2c3d", "user:bob": "bob-secret-4e5f6a7b"}
TERMINAL = ("completed", "failed", "cancelled")


@pytest.fixture
def sim_thread() -> Iterator[SimThread]:
    with SimThread(SimConfig(speed=10.0)) as handle:
        yield handle


class Server:
    """`python -m exa_orch serve --http --port 0` on the shared database, 3 tasks at a time."""

    def __init__(self, sim_url: str, db: str, errlog: Path) -> None:
        env = {k: v for k, v in os.environ.items() if k != "EXA_API_KEY"}
        env.update(
            {
                "EXA_ORCH_DB": db,
                "EXA_ORCH_EXA_URL": sim_url,
                "EXA_ORCH_SIMULATOR": "1",
                "EXA_ORCH_RPS": "1000",
                "EXA_ORCH_CONCURRENCY": "8",
                "EXA_ORCH_MAX_TASKS": "3",
                "EXA_ORCH_HTTP_TOKENS": ",".join(f"{p.split(':')[1]}={t}" for p, t in TOKENS.items()),
                "EXA_ORCH_EXTRA_WORKFLOWS": "tests.pool.pool_workflows:WORKFLOWS",
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
        line = self.proc.stdout.readline().strip()
        assert line.startswith("EXA_ORCH_MCP_URL="), (line, errlog.read_text()[-3000:])
        self.url = line.split("=", 1)[1]

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=WAIT)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.proc.stdout is not None:
            self.proc.stdout.close()


@asynccontextmanager
async def session(url: str, principal: str) -> AsyncIterator[Client]:
    headers = {"Authorization": f"Bearer {TOKENS[principal]}"}
    async with httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(30, read=300)) as http:
        async with Client(streamable_http_client(url, http_client=http), mode="legacy") as client:
            yield client


async def call(client: Client, operation: str, args: dict[str, Any]) -> Any:
    result = await client.call_tool("manage_websets", {"operation": operation, "args": args})
    body = json.loads(result.content[0].text)  # type: ignore[union-attr]
    assert not result.is_error, body
    return body


async def test_200_runs_of_2_principals_over_two_server_processes_on_postgresql(
    sim_thread: SimThread, pg_cluster: Cluster, pg_template: str, tmp_path: Path
) -> None:
    db = fresh_database(pg_cluster, pg_template)
    servers = [Server(sim_thread.url, db, tmp_path / f"server-{i}.log") for i in range(2)]
    try:
        created: list[tuple[str, str]] = []
        for k, (principal, count) in enumerate(PLAN):
            async with session(servers[k % 2].url, principal) as client:
                task = await call(
                    client, "tasks.create", {"type": "test.manyRuns", "count": count, "label": f"t{k}"}
                )
                created.append((principal, task["taskId"]))
        outcomes = []
        for principal, task_id in created:
            async with session(servers[0].url, principal) as client:
                for _ in range(10):  # tasks.result waits at most 60 s per call
                    out = await call(client, "tasks.result", {"taskId": task_id, "wait": 60})
                    if out["status"] in TERMINAL:
                        break
                outcomes.append(out["status"])
    finally:
        for server in servers:
            server.stop()
    assert outcomes == ["completed"] * 5
    with psycopg.connect(db) as conn:
        grants = conn.execute(
            "SELECT principal, enqueued_at, granted_at, grant_seq FROM run_slots WHERE pool = 'agent'"
        ).fetchall()
        # Every slot was granted: none taken without a grant (a run's stale news from the other
        # server once made one), no waiter dropped while its server lived.
        ungranted = conn.execute(
            "SELECT id, principal, state, run_id, owner, enqueued_at, granted_at, released_at FROM run_slots "
            "WHERE pool = 'agent' AND grant_seq IS NULL"
        ).fetchall()
        owners = conn.execute(
            "SELECT DISTINCT split_part(owner, ':', 2) FROM run_slots WHERE pool = 'agent'"
        ).fetchall()
        left = conn.execute("SELECT count(*) FROM run_slots WHERE state <> 'done'").fetchone()
        bound = [r for (r,) in conn.execute("SELECT run_id FROM run_slots WHERE pool = 'agent'").fetchall()]
    pids = {str(s.proc.pid) for s in servers}
    assert {o for (o,) in owners} == pids  # both processes took slots
    assert left == (0,)
    assert ungranted == [], ungranted
    check_outcome(sim_thread.handle, [(str(p), str(e), str(g), int(s)) for p, e, g, s in grants], bound, {})
