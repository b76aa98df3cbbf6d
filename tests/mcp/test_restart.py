"""Durable tasks across a SIGKILLed `exa-orch serve`, as an MCP client sees them.

The first server is a raw subprocess (so the test decides when it is reaped); the restarted one is
driven by the SDK's stdio client with a 2025-11-25 tasks client. The workflow is
tests/mcp/stop_workflows.py's `mcp_stop.ticks` (one checkpoint and one progress report per tick)
and tests/mcp/tasks_workflows.py's `mcp_test.webset_wait` (a webset, then a wait on Exa with a
cancel hook).
"""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.client.stdio import stdio_client

from exa_orch.sim.context import SimConfig
from exa_orch.sim.testing import SimHandle, SimThread
from tests.support import WAIT, until

from .conftest import REPO, serve_params, server_env
from .tasks_support import legacy_client, structured

pytestmark = pytest.mark.slow

STOP_WORKFLOWS = "tests.mcp.stop_workflows:WORKFLOWS"
TASKS_WORKFLOWS = "tests.mcp.tasks_workflows:WORKFLOWS"


def _rows(db: Path, sql: str, *args: Any) -> list[Any]:
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        return conn.execute(sql, args).fetchall()


def _raw_server(sim_url: str, db: Path, workflows: str = STOP_WORKFLOWS) -> subprocess.Popen[bytes]:
    env = server_env(sim_url, db, EXA_ORCH_EXTRA_WORKFLOWS=workflows)
    with (db.parent / "server-stderr.log").open("ab") as err:
        return subprocess.Popen(
            [sys.executable, "-m", "exa_orch", "serve"],
            env=env,
            cwd=REPO,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=err,
        )


def _initialize(proc: subprocess.Popen[bytes]) -> None:
    hello = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}
    _rpc(proc, 1, "initialize", hello)


def _reap(proc: subprocess.Popen[bytes]) -> None:
    proc.kill()
    proc.wait(timeout=WAIT)
    for stream in (proc.stdin, proc.stdout):
        if stream is not None:
            stream.close()


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
        args = {
            "operation": "tasks.create",
            "args": {"type": "mcp_stop.ticks", "ticks": 10, "delay": 0.2, "resumed_delay": 0.01},
        }
        created = _rpc(first, 2, "tools/call", {"name": "manage_websets", "arguments": args, "task": {}})
        task_id = created["task"]["taskId"]
        # No event crosses the process boundary: re-check the database with a deadline.
        await until(
            lambda: _rows(db, "select step_count from task_heads where task_id = ?", task_id)[0][0] >= 3,
            within=WAIT,
            what="the task's third step",
        )
        # SIGKILL, not reaped yet: until its parent waits, the dead server is a zombie that still
        # answers signal 0, as an MCP client that kills and respawns its server leaves it for a moment.
        # The lease as the dead server last renewed it: a resume that waited it out claims later.
        ((lease_expires_at,),) = _rows(db, "select lease_expires_at from tasks where id = ?", task_id)
        first.send_signal(signal.SIGKILL)
        params = serve_params(sim_url, db, EXA_ORCH_EXTRA_WORKFLOWS=STOP_WORKFLOWS)
        with (tmp_path / "server-stderr.log").open("a") as errlog:
            async with (
                stdio_client(params, errlog=errlog) as (read, write),
                legacy_client(read, write) as client,
            ):
                # resumed at once, its seven 10 ms ticks may be done before this first look on a
                # loaded machine: working or already completed, never failed or lost
                assert (await client.get(task_id)).status in ("working", "completed")
                with anyio.fail_after(WAIT):
                    result = await client.result(task_id)
                assert structured(result) == {"ticks": 10}
                assert (await client.get(task_id)).status == "completed"
                view = structured(await client.call("tasks.get", {"taskId": task_id}))
                assert view["status"] == "completed" and view["progress"]["completed"] == 10
    finally:
        _reap(first)
    # Taken over at once (its owner's process is dead), not once the lease ran out: on the
    # database's clock, so a slow start of the new server can't fake or hide it.
    claims = [
        at
        for at, k in _rows(db, "select at, kind from task_events where task_id = ? order by id", task_id)
        if k == "claimed"
    ]
    assert len(claims) == 2 and claims[1] < lease_expires_at, (claims, lease_expires_at)
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


@pytest.fixture(scope="module")
def slow_sim() -> Iterator[SimHandle]:
    """Speed 1: a webset search takes minutes, so the task is still waiting on Exa when its server dies."""
    with SimThread(SimConfig(speed=1.0)) as handle:
        yield handle


async def test_cancel_through_a_busy_server_while_the_runner_is_dead_cancels_the_exa_work_too(
    slow_sim: SimHandle, tmp_path: Path
) -> None:
    db = tmp_path / "workflows.db"
    # The second server has one slot, taken by a long task of its own: it never adopts the dead
    # server's task, so the cancel below finds a working task that nobody runs.
    params = serve_params(slow_sim.url, db, EXA_ORCH_EXTRA_WORKFLOWS=TASKS_WORKFLOWS, EXA_ORCH_MAX_TASKS="1")
    with (tmp_path / "server-stderr.log").open("a") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write), legacy_client(read, write) as client:
            busy = {
                "operation": "tasks.create",
                "args": {"type": "mcp_test.steps", "steps": 1000, "delay": 0.2},
            }
            await client.call_task("manage_websets", busy)
            first = _raw_server(slow_sim.url, db, TASKS_WORKFLOWS)
            try:
                _initialize(first)
                args = {"operation": "tasks.create", "args": {"type": "mcp_test.webset_wait"}}
                created = _rpc(
                    first, 2, "tools/call", {"name": "manage_websets", "arguments": args, "task": {}}
                )
                task_id = created["task"]["taskId"]
                # the webset exists; the task waits on it at Exa
                await until(lambda: len(_webset_gets(slow_sim)) >= 2, within=WAIT, what="a wait on Exa")
            finally:
                _reap(first)  # SIGKILL: no cancel hook ran, the lease names a dead process
            assert (await client.cancel(task_id)).status == "cancelled"
            view = structured(await client.call("tasks.get", {"taskId": task_id}))
            assert view["status"] == "cancelled"
    log = slow_sim.log()
    creates = [e for e in log if e["method"] == "POST" and e["path"] == "/websets/v0/websets"]
    cancels = [e for e in log if e["method"] == "POST" and e["path"].endswith("/cancel")]
    assert len(creates) == 1 and len(cancels) == 1, (creates, cancels)
    assert [s[0] for s in _rows(db, "select step_key from task_steps where task_id = ?", task_id)] == [
        "create"
    ]


def _webset_gets(sim: SimHandle) -> list[dict[str, Any]]:
    return [e for e in sim.log() if e["method"] == "GET" and "/websets/v0/websets/" in e["path"]]
