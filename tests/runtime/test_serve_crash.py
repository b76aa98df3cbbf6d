"""The issue's forms of crash safety with real servers: `exa-orch serve` over stdio SIGKILLed in the
middle of a task, and two servers sharing one database."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from exa_orch.sim.context import SimConfig
from exa_orch.sim.testing import SimThread
from tests.support import WAIT, bound, until_sync

ROOT = Path(__file__).resolve().parents[2]
WORKFLOWS_ENV = "tests.runtime.workflows:WORKFLOWS"

pytestmark = pytest.mark.slow


@pytest.fixture
def sim_thread() -> Iterator[SimThread]:
    with SimThread(SimConfig(speed=100.0)) as handle:
        yield handle


class Server:
    """`python -m exa_orch serve` on stdio, spoken to with raw JSON-RPC lines."""

    def __init__(self, sim_url: str, db: Path, errlog: Path, **extra_env: str) -> None:
        env = {k: v for k, v in os.environ.items() if k != "EXA_API_KEY"}
        env.update(
            {
                "EXA_ORCH_DB": str(db),
                "EXA_ORCH_EXA_URL": sim_url,
                "EXA_ORCH_SIMULATOR": "1",
                "EXA_ORCH_EXTRA_WORKFLOWS": WORKFLOWS_ENV,
                "PYTHONPATH": str(ROOT),
                **extra_env,
            }
        )
        with errlog.open("ab") as err:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "exa_orch", "serve"],
                env=env,
                cwd=ROOT,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=err,
            )
        self._id = 0
        self._send(
            {
                "jsonrpc": "2.0",
                "id": self._next(),
                "method": "initialize",
                "params": {
                    "protocolVersion": "2025-11-25",
                    "capabilities": {},
                    "clientInfo": {"name": "t", "version": "0"},
                },
            }
        )
        self._reply(self._id)
        self._send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def _next(self) -> int:
        self._id += 1
        return self._id

    def _send(self, message: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(message).encode() + b"\n")
        self.proc.stdin.flush()

    def _reply(self, rid: int) -> Any:
        assert self.proc.stdout is not None
        while True:
            line = self.proc.stdout.readline()
            assert line, "the server closed stdout"
            message = json.loads(line)
            if message.get("id") == rid:
                return message

    def call(self, operation: str, args: dict[str, Any]) -> Any:
        rid = self._next()
        self._send(
            {
                "jsonrpc": "2.0",
                "id": rid,
                "method": "tools/call",
                "params": {"name": "manage_websets", "arguments": {"operation": operation, "args": args}},
            }
        )
        result = self._reply(rid)["result"]
        body = json.loads(result["content"][0]["text"])
        assert not result.get("isError"), body
        return body

    def result(self, task_id: str) -> Any:
        deadline = time.monotonic() + bound(90)
        while True:
            out = self.call("tasks.result", {"taskId": task_id, "wait": 30})
            if out["status"] in ("completed", "failed", "cancelled") or time.monotonic() > deadline:
                return out

    def close(self) -> int:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.close()  # stdin closed: a graceful stop
        code = self.proc.wait(timeout=WAIT)
        self.proc.stdout.close()
        return code

    def kill(self) -> int:
        """SIGKILL: no cleanup at all, the lease stays with a dead process."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.kill()
        code = self.proc.wait(timeout=WAIT)
        self.proc.stdin.close()
        self.proc.stdout.close()
        return code


def _steps_saved(db: Path, task_id: str) -> int:
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        return int(
            conn.execute("select count(*) from task_steps where task_id = ?", (task_id,)).fetchone()[0]
        )


def test_server_killed_mid_task_then_a_new_server_finishes_it_once(
    sim_thread: SimThread, tmp_path: Path
) -> None:
    db, errlog = tmp_path / "workflows.db", tmp_path / "stderr.log"
    first = Server(sim_thread.url, db, errlog)
    try:
        task_id = first.call("tasks.create", {"type": "rt.websets", "count": 4, "pause": 0.3})["taskId"]
        # No event crosses the process boundary: its saved steps are the event.
        until_sync(lambda: _steps_saved(db, task_id) >= 2, every=0.01, what="the task's progress")
    finally:
        assert first.kill() == -signal.SIGKILL
    assert 2 <= _steps_saved(db, task_id) < 5
    second = Server(sim_thread.url, db, errlog)
    try:
        resumed = second.result(task_id)
        reference = second.result(second.call("tasks.create", {"type": "rt.websets", "count": 4})["taskId"])
    finally:
        assert second.close() == 0
    assert resumed["status"] == "completed", resumed
    assert reference["status"] == "completed", reference
    strip = {"websets"}  # Exa ids differ between runs; everything else must be equal
    assert {k: v for k, v in resumed["result"].items() if k not in strip} == {
        k: v for k, v in reference["result"].items() if k not in strip
    }
    assert len(set(resumed["result"]["websets"])) == 4
    creates = sim_thread.stats()["creates_by_external_id"]
    assert {k: v for k, v in creates.items() if k.startswith(f"{task_id}:")} == {
        f"{task_id}:create:{i}": 1 for i in range(4)
    }


def test_two_servers_on_one_database_run_every_step_exactly_once(
    sim_thread: SimThread, tmp_path: Path
) -> None:
    db, errlog = tmp_path / "workflows.db", tmp_path / "stderr.log"
    # A generous rate limit keeps the test quick; pacing has its own tests in tests/gateway. A slot
    # for each of the 100 websets too: none is ever read again, so with the default 50 the second
    # half waits for the pool's stale check (30 s) to free a slot; tests/pool tests the sharing.
    limits = {"EXA_ORCH_RPS": "200", "EXA_ORCH_MAX_TASKS": "10", "EXA_ORCH_MAX_RUNNING_WEBSETS": "100"}
    servers = [Server(sim_thread.url, db, errlog, **limits) for _ in range(2)]
    try:
        # Tasks are created through both servers; either server may run any of them.
        ids = [
            servers[i % 2].call("tasks.create", {"type": "rt.websets", "count": 2})["taskId"]
            for i in range(50)
        ]
        done = [servers[i % 2].result(task_id) for i, task_id in enumerate(ids)]
    finally:
        codes = [server.close() for server in servers]
    assert codes == [0, 0]
    assert {d["status"] for d in done} == {"completed"}, [d for d in done if d["status"] != "completed"]
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        owners = {
            row[0]
            for row in conn.execute(
                "select distinct json_extract(data, '$.owner') from task_events where kind = 'claimed'"
            )
        }
        steps = conn.execute(
            "select count(*), count(distinct task_id || step_key) from task_steps"
        ).fetchone()
    assert len(owners) == 2  # both servers did part of the work
    assert steps == (100, 100)
    stats = sim_thread.stats()
    assert sorted(stats["creates_by_external_id"]) == sorted(f"{t}:create:{i}" for t in ids for i in range(2))
    assert set(stats["creates_by_external_id"].values()) == {1}
    assert not stats.get("conflicts_by_external_id")
