"""Durable tasks across a SIGKILLed `exa-orch serve`, as an MCP client sees them.

The first server is a raw subprocess (so the test decides when it is reaped); the restarted one is
driven by the SDK's stdio client with a 2025-11-25 tasks client. The workflow is
tests/mcp/stop_workflows.py's `mcp_stop.ticks` (one checkpoint and one progress report per tick).
"""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.client.stdio import stdio_client

from .conftest import REPO, serve_params, server_env
from .tasks_support import legacy_client, structured

pytestmark = pytest.mark.slow

STOP_WORKFLOWS = "tests.mcp.stop_workflows:WORKFLOWS"
LEASE_TTL_S = 15.0  # the supervisor's lease TTL: a resume that waited it out took this long


def _rows(db: Path, sql: str, *args: Any) -> list[Any]:
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        return conn.execute(sql, args).fetchall()


def _raw_server(sim_url: str, db: Path) -> subprocess.Popen[bytes]:
    env = server_env(sim_url, db, EXA_ORCH_EXTRA_WORKFLOWS=STOP_WORKFLOWS)
    with (db.parent / "server-stderr.log").open("ab") as err:
        return subprocess.Popen(
            [sys.executable, "-m", "exa_orch", "serve"],
            env=env,
            cwd=REPO,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=err,
        )


def _rpc(proc: subprocess.Popen[bytes], rid: int, method: str, params: dict[str, Any]) -> Any:
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(json.dumps({"jsonrpc": "2.0", "id": rid, "method": method, "params": params}).encode())
    proc.stdin.write(b"\n")
    proc.stdin.flush()
    while True:
        line = proc.stdout.readline()
        assert line, "the server closed stdout"
        message = json.loads(line)
        if message.get("id") == rid:
            assert "result" in message, message
            return message["result"]


async def test_a_sigkilled_servers_task_resumes_at_once_in_the_next_one_even_before_it_is_reaped(
    sim_url: str, tmp_path: Path
) -> None:
    db = tmp_path / "workflows.db"
    first = _raw_server(sim_url, db)
    try:
        _rpc(
            first,
            1,
            "initialize",
            {
                "protocolVersion": "2025-11-25",
                "capabilities": {},
                "clientInfo": {"name": "t", "version": "0"},
            },
        )
        args = {"operation": "tasks.create", "args": {"type": "mcp_stop.ticks", "ticks": 10, "delay": 0.2}}
        created = _rpc(first, 2, "tools/call", {"name": "manage_websets", "arguments": args, "task": {}})
        task_id = created["task"]["taskId"]
        deadline = time.monotonic() + 30
        # No event crosses the process boundary: poll the database with a deadline.
        while _rows(db, "select step_count from tasks where id = ?", task_id)[0][0] < 3:
            assert time.monotonic() < deadline, "the task made no progress"
            await anyio.sleep(0.02)
        # SIGKILL, not reaped yet: until its parent waits, the dead server is a zombie that still
        # answers signal 0, as an MCP client that kills and respawns its server leaves it for a moment.
        first.send_signal(signal.SIGKILL)
        killed_at = time.monotonic()
        params = serve_params(sim_url, db, EXA_ORCH_EXTRA_WORKFLOWS=STOP_WORKFLOWS)
        with (tmp_path / "server-stderr.log").open("a") as errlog:
            async with (
                stdio_client(params, errlog=errlog) as (read, write),
                legacy_client(read, write) as client,
            ):
                assert (await client.get(task_id)).status == "working"
                with anyio.fail_after(LEASE_TTL_S - 3):  # a resume that waited out the lease fails here
                    result = await client.result(task_id)
                resumed_in = time.monotonic() - killed_at
                assert structured(result) == {"ticks": 10}
                assert (await client.get(task_id)).status == "completed"
                view = structured(await client.call("tasks.get", {"taskId": task_id}))
                assert view["status"] == "completed" and view["progress"]["completed"] == 10
    finally:
        first.kill()
        first.wait(timeout=30)
        for stream in (first.stdin, first.stdout):
            if stream is not None:
                stream.close()
    assert resumed_in < LEASE_TTL_S - 3
    # Every tick checkpointed once, in order; the history shows one hand-over and no rewind.
    steps = _rows(db, "select step_key from task_steps where task_id = ? order by seq", task_id)
    assert [s[0] for s in steps] == [f"tick:{i}" for i in range(10)]
    events = _rows(db, "select kind, status, data from task_events where task_id = ? order by id", task_id)
    kinds = [k for k, _s, _d in events if k != "progress"]
    assert kinds == ["created", "claimed", "status", "claimed", "status"], kinds
    owners = [json.loads(d) for k, _s, d in events if k == "claimed"]
    assert owners[1]["previous"] == owners[0]["owner"] != owners[1]["owner"]
    progress = [json.loads(d)["completed"] for k, _s, d in events if k == "progress"]
    assert progress == sorted(progress) and progress[-1] == 10, progress
    assert _rows(db, "select status, steps from v_tasks where id = ?", task_id) == [("completed", 10)]
