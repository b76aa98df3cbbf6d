"""`exa-orch serve` over stdio, spawned as a subprocess and driven by the mcp client."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import anyio
import jsonschema
import pytest
import pytest_asyncio
from mcp import Client

from exa_orch.mcp.server import LONG_RUNNING_HINTS
from exa_orch.sim.context import SimConfig
from exa_orch.sim.testing import SimThread
from tests.mcp.conftest import call, held, result_json, server_env, stdio_session, tools_list_bytes
from tests.support import WAIT

pytestmark = pytest.mark.slow
# The tests that share the module's server (`client`) run in the module's event loop.
SHARED = pytest.mark.asyncio(loop_scope="module")

TOOLS_LIST_BUDGET = 4096


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def client(sim_url: str, tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Client]:
    """One server of the default profile for the module's tests that only read it and call it
    (one start-up, ~1 s of CPU, not one a test); the others start their own."""
    async with held(stdio_session(sim_url, tmp_path_factory.mktemp("serve"))) as session:
        yield session


@SHARED
async def test_initialize_and_tools_list_under_4kb(client: Client) -> None:
    assert client.server_info is not None and client.server_info.name == "exa-orch"
    assert client.instructions and "list_operations" in client.instructions
    listed = await client.list_tools()
    assert [t.name for t in listed.tools] == ["manage_websets"]
    size = tools_list_bytes(listed)
    assert size <= TOOLS_LIST_BUDGET, f"tools/list is {size} bytes"
    schema = listed.tools[0].input_schema
    ops = schema["properties"]["operation"]["enum"]
    assert "list_operations" in ops and "websets.create" in ops
    assert schema["required"] == ["operation"]
    await client.session.send_ping()


@SHARED
async def test_list_operations_lists_every_operation_with_a_valid_schema(client: Client) -> None:
    listed = await client.list_tools()
    enum = set(listed.tools[0].input_schema["properties"]["operation"]["enum"])
    body = await call(client, "list_operations", {"schemas": True})
    names = {op["name"] for op in body["operations"]}
    assert names == enum, f"tool enum and list_operations differ: {names ^ enum}"
    assert body["count"] == len(body["operations"]) >= 40
    for op in body["operations"]:
        assert op["summary"], op["name"]
        jsonschema.Draft202012Validator.check_schema(op["argsSchema"])
        assert op["argsSchema"].get("type") == "object", op["name"]


@SHARED
async def test_unknown_operation_suggests_close_names(client: Client) -> None:
    result = await client.call_tool("manage_websets", {"operation": "websets.craete", "args": {}})
    assert result.is_error
    body = result_json(result)
    assert body["code"] == "UNKNOWN_OPERATION"
    assert body["operation"] == "websets.craete"
    assert "websets.create" in body["hint"]


@SHARED
async def test_bad_args_name_the_field(client: Client) -> None:
    result = await client.call_tool("manage_websets", {"operation": "websets.get", "args": {}})
    assert result.is_error
    body = result_json(result)
    assert body["code"] == "INVALID_PARAMS"
    assert body["operation"] == "websets.get"
    assert body["fields"] and body["fields"][0] in body["message"]


@SHARED
async def test_unknown_tool_is_a_protocol_error(client: Client) -> None:
    from mcp.shared.exceptions import MCPError

    with pytest.raises(MCPError) as info:
        await client.call_tool("create_webset", {})
    assert info.value.error.code == -32602
    assert "manage_websets" in info.value.error.message
    await client.session.send_ping()


async def test_modern_era_and_a_url_not_said_to_be_a_simulator_is_never_sent_a_made_up_key(
    tmp_path: Path,
) -> None:
    """Issue 29: any EXA_ORCH_EXA_URL (a company's proxy to Exa) without EXA_ORCH_SIMULATOR=1 and
    without a key: the call answers CONFIG_ERROR and nothing at all reaches that URL. The client
    takes the newest era (mode auto), where tools/list stays under 4 KB too (the 2025-11-25 era:
    the module's server above; its CONFIG_ERROR for real Exa: the raw keyless server below)."""
    with SimThread(SimConfig(speed=100.0)) as sim:
        async with stdio_session(sim.url, tmp_path, mode="auto", EXA_ORCH_SIMULATOR="0") as client:
            assert client.protocol_version == "2026-07-28"
            listed = await client.list_tools()
            assert tools_list_bytes(listed) <= TOOLS_LIST_BUDGET
            assert not (await client.call_tool("manage_websets", {"operation": "list_operations"})).is_error
            args = {"operation": "exa.search", "args": {"query": "battery startups"}}
            result = await client.call_tool("manage_websets", args)
        sent = [e for e in sim.log() if e["family"] != "admin"]
    assert result.is_error and result_json(result)["code"] == "CONFIG_ERROR", result_json(result)
    assert "EXA_API_KEY" in result_json(result)["message"]
    assert sent == []


def _spawn(sim_url: str | None, tmp_path: Path, **env: str) -> subprocess.Popen[bytes]:
    """`exa-orch serve` on pipes; with no `sim_url`, for real Exa (and no key)."""
    settings = server_env(sim_url, tmp_path / "workflows.db", **env)
    if sim_url is None:
        settings.pop("EXA_ORCH_EXA_URL", None)
    with (tmp_path / "stderr.log").open("wb") as errlog:  # the child keeps its own descriptor
        return subprocess.Popen(
            [sys.executable, "-m", "exa_orch", "serve"],
            env=settings,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=errlog,
        )


def _initialize(proc: subprocess.Popen[bytes]) -> None:
    assert proc.stdin is not None and proc.stdout is not None
    init = (
        '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25",'
        '"capabilities":{},"clientInfo":{"name":"t","version":"0"}}}\n'
    )
    proc.stdin.write(init.encode())
    proc.stdin.flush()
    line = proc.stdout.readline()
    assert b'"serverInfo"' in line, line


def _answer(proc: subprocess.Popen[bytes], rid: int, operation: str, args: dict[str, Any]) -> Any:
    """One manage_websets call over raw JSON-RPC; its result (every stdout line must be JSON-RPC)."""
    assert proc.stdin is not None and proc.stdout is not None
    request = {
        "jsonrpc": "2.0",
        "id": rid,
        "method": "tools/call",
        "params": {"name": "manage_websets", "arguments": {"operation": operation, "args": args}},
    }
    proc.stdin.write(json.dumps(request).encode() + b"\n")
    proc.stdin.flush()
    while True:
        message = json.loads(proc.stdout.readline())
        if message.get("id") == rid:
            return message["result"]


def _rpc(proc: subprocess.Popen[bytes], rid: int, operation: str, args: dict[str, Any]) -> Any:
    """One manage_websets call over raw JSON-RPC that must succeed; the parsed tool result body."""
    result = _answer(proc, rid, operation, args)
    assert not result.get("isError"), result
    return json.loads(result["content"][0]["text"])


def test_without_a_key_for_real_exa_serve_starts_answers_on_the_wire_and_stops_at_stdin_eof(
    tmp_path: Path,
) -> None:
    # Real Exa and no key: serve starts anyway and says so on stderr, never on stdout, which
    # carries the answers and nothing else. A client without elicitation (this one) gets each call
    # to Exa as a CONFIG_ERROR tool result (one that can be asked: tests/mcp/test_elicitation.py);
    # nothing is sent (no network needed).
    with _spawn(None, tmp_path) as proc:
        _initialize(proc)
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
        proc.stdin.write(b'{"jsonrpc":"2.0","id":2,"method":"tools/list"}\n')
        proc.stdin.flush()
        line = proc.stdout.readline()  # the complete JSON-RPC response, as the client receives it
        assert b'"manage_websets"' in line and b'"id":2' in line
        assert len(line) <= TOOLS_LIST_BUDGET, f"tools/list response is {len(line)} bytes"
        # On the wire (the SDK's client model would drop them), the long-running tool's annotations
        # hold seed 000 section 8.2's three hints beside the MCP ones (the toolhost profile's:
        # tests/mcp/test_toolhost_shapes.py).
        (tool,) = json.loads(line)["result"]["tools"]
        assert tool["annotations"]["openWorldHint"] is True  # the MCP hints stay
        hints = {k: v for k, v in tool["annotations"].items() if k.startswith("io.modelcontextprotocol/")}
        assert hints == LONG_RUNNING_HINTS and tool["_meta"] == LONG_RUNNING_HINTS

        refused = _answer(proc, 3, "websets.list", {})
        body = json.loads(refused["content"][0]["text"])
        assert refused["isError"] and body["code"] == "CONFIG_ERROR" and "EXA_API_KEY" in body["message"]
        assert _rpc(proc, 4, "list_operations", {})["count"] >= 40
        proc.stdin.close()
        assert proc.wait(timeout=WAIT) == 0
        assert proc.stdout.read() == b""
    stderr = (tmp_path / "stderr.log").read_text()
    assert "EXA_API_KEY is not set" in stderr and "exa-orch stopped" in stderr


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_signal_stops_cleanly_with_stdin_open(sim_url: str, tmp_path: Path, sig: int) -> None:
    with _spawn(sim_url, tmp_path) as proc:
        _initialize(proc)
        os.kill(proc.pid, sig)  # stdin stays open: the stop must not wait for EOF
        assert proc.wait(timeout=WAIT) == 0
    assert "exa-orch stopped" in (tmp_path / "stderr.log").read_text()


def test_sigterm_with_a_working_task_releases_it_and_the_next_start_resumes(
    sim_url: str, tmp_path: Path
) -> None:
    env = {"EXA_ORCH_EXTRA_WORKFLOWS": "tests.mcp.stop_workflows:WORKFLOWS"}
    with _spawn(sim_url, tmp_path, **env) as proc:
        _initialize(proc)
        assert proc.stdin is not None
        proc.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
        created = _rpc(
            proc,
            2,
            "tasks.create",
            {"type": "mcp_stop.ticks", "ticks": 150, "delay": 0.05, "resumed_delay": 0},
        )
        task_id = created["taskId"]
        deadline = time.monotonic() + WAIT
        rid = 3
        while True:  # no event to wait on from outside the process: poll with a deadline
            view = _rpc(proc, rid, "tasks.get", {"taskId": task_id})
            if view["status"] == "working" and (view["progress"] or {}).get("completed", 0) >= 2:
                break
            assert time.monotonic() < deadline, view
            rid += 1
        os.kill(proc.pid, signal.SIGTERM)
        assert proc.wait(timeout=WAIT) == 0
    with sqlite3.connect(tmp_path / "workflows.db") as db:
        status, owner = db.execute(
            "select status, lease_owner from tasks where id = ?", (task_id,)
        ).fetchone()
        steps = db.execute("select count(*) from task_steps where task_id = ?", (task_id,)).fetchone()[0]
    assert status in ("working", "pending") and owner is None, (status, owner)
    assert 2 <= steps < 150

    async def resume() -> None:
        async with stdio_session(sim_url, tmp_path, **env) as client:
            done = await call(client, "tasks.result", {"taskId": task_id, "wait": 60})
            assert done["status"] == "completed" and done["result"] == {"ticks": 150}

    anyio.run(resume)
