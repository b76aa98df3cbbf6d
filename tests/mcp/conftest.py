"""Fixtures for the MCP face: a simulator on a background thread and `exa-orch serve` subprocesses."""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

import mcp_types as types
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters, get_default_environment, stdio_client

from exa_orch.sim.context import SimConfig
from exa_orch.sim.testing import SimThread
from tests.support import WAIT

REPO = Path(__file__).resolve().parents[2]
T = TypeVar("T")


@pytest.fixture(scope="module")
def sim_url() -> Iterator[str]:
    """One simulator (speed 100) for every test of a module, on 127.0.0.1:<free port>."""
    with SimThread(SimConfig(speed=100.0)) as handle:
        yield handle.url


def initialize_request(rid: int | str = 1) -> dict[str, Any]:
    """A raw JSON-RPC initialize request, as a client sends it first."""
    return {
        "jsonrpc": "2.0",
        "id": rid,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": "t", "version": "0"},
        },
    }


def server_env(sim_url: str | None, db: Path, **extra: str) -> dict[str, str]:
    """The environment a client would give `exa-orch serve`: the sim's URL, a temp DB, no real key."""
    env = dict(get_default_environment())
    env.pop("EXA_API_KEY", None)
    env.update({"EXA_ORCH_DB": str(db), "EXA_ORCH_LOG_LEVEL": "INFO", "PYTHONPATH": str(REPO)})
    if sim_url is not None:
        env["EXA_ORCH_EXA_URL"] = sim_url
        env["EXA_ORCH_SIMULATOR"] = "1"
    env.update(extra)
    return env


def serve_params(sim_url: str | None, db: Path, *args: str, **env: str) -> StdioServerParameters:
    """`python -m exa_orch serve` as a stdio MCP server."""
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "exa_orch", "serve", *args],
        env=server_env(sim_url, db, **env),
        cwd=str(db.parent),
    )


@asynccontextmanager
async def stdio_session(
    sim_url: str, tmp_path: Path, *, mode: str = "legacy", **env: str
) -> AsyncIterator[Client]:
    """A connected mcp Client on a fresh `exa-orch serve` subprocess (its stderr in tmp_path)."""
    params = serve_params(sim_url, tmp_path / "workflows.db", **env)
    errlog = (tmp_path / "server-stderr.log").open("a")
    try:
        transport = stdio_client(params, errlog=errlog)
        async with Client(transport, mode=mode, read_timeout_seconds=WAIT) as client:  # type: ignore[arg-type]
            yield client
    finally:
        errlog.close()


@asynccontextmanager
async def held(session: AbstractAsyncContextManager[T]) -> AsyncIterator[T]:
    """`session` entered and left by a task of its own, open meanwhile.

    For a module-scoped session (one `exa-orch serve` start for a module's tests, ~1 s of CPU
    each): pytest-asyncio sets a fixture up and tears it down in different tasks, and the mcp
    client's task groups must be left by the task that entered them. The module's tests then run
    in the module's event loop (`pytest.mark.asyncio(loop_scope="module")`)."""
    entered: asyncio.Future[T] = asyncio.get_running_loop().create_future()
    leave = asyncio.Event()

    async def hold() -> None:
        try:
            async with session as value:
                entered.set_result(value)
                await leave.wait()
        except BaseException as exc:
            if not entered.done():
                entered.set_exception(exc)
            raise

    holder = asyncio.create_task(hold())
    try:
        yield await entered
    finally:
        leave.set()
        await holder


def result_json(result: types.CallToolResult) -> Any:
    """The JSON body of a tool result's first text block."""
    block = result.content[0]
    assert isinstance(block, types.TextContent), block
    return json.loads(block.text)


async def call(client: Client, operation: str, args: dict[str, Any] | None = None, **kw: Any) -> Any:
    """manage_websets {operation, args}; the JSON result, asserting it is not an error."""
    result = await client.call_tool("manage_websets", {"operation": operation, "args": args or {}}, **kw)
    body = result_json(result)
    assert not result.is_error, f"{operation} failed: {body}"
    return body


async def call_error(client: Client, operation: str, args: Any = None) -> dict[str, Any]:
    """manage_websets that must fail as a tool-level error; its JSON error body."""
    result = await client.call_tool("manage_websets", {"operation": operation, "args": args or {}})
    body = result_json(result)
    assert result.is_error, f"{operation} should have failed: {body}"
    return body


def tools_list_bytes(result: types.ListToolsResult) -> int:
    """Size of the tools/list result as it goes on the wire (compact JSON)."""
    wire = result.model_dump(by_alias=True, mode="json", exclude_none=True)
    return len(json.dumps(wire, separators=(",", ":")).encode())
