"""MCP Tasks over streamable HTTP (`exa-orch serve --http`), both eras.

On HTTP the 2026 tasks/* requests carry an `Mcp-Name` header that must equal params.taskId; the SDK
client sends it, and the server checks it. 2025 status notifications ride the standalone stream.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from tests.support import WAIT

from .tasks_support import (
    RELATED,
    TASKS_EXT,
    WORKFLOWS_ENV,
    CreateTaskResult2026,
    TasksExtension,
    cancel_2026,
    get_2026,
    legacy_client,
    structured,
)
from .test_serve_http import http_server

pytestmark = pytest.mark.slow


META_2026 = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "0"},
    "io.modelcontextprotocol/clientCapabilities": {"extensions": {TASKS_EXT: {}}},
}


@pytest.fixture(scope="module")
def url(sim_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One `serve --http` with the test workflows for the module's tests (each makes its own tasks,
    none restarts or reconfigures it): one start-up of ~1 s of CPU, not one a test."""
    where = tmp_path_factory.mktemp("serve-http")
    with http_server(sim_url, where, EXA_ORCH_EXTRA_WORKFLOWS=WORKFLOWS_ENV) as (_proc, served):
        yield served


def _raw(method: str, params: dict[str, Any]) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": 7, "method": method, "params": {**params, "_meta": META_2026}}


def _raw_get(task_id: str) -> dict[str, Any]:
    return _raw("tasks/get", {"taskId": task_id})


def _headers(mcp_name: str, method: str = "tasks/get") -> dict[str, str]:
    return {
        "accept": "application/json, text/event-stream",
        "content-type": "application/json",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": method,
        "mcp-name": mcp_name,
    }


async def test_2026_wire_shapes_are_flat_with_millisecond_fields(url: str) -> None:
    async with httpx.AsyncClient(timeout=WAIT) as http:
        call = {
            "name": "manage_websets",
            "arguments": {"operation": "tasks.create", "args": {"type": "mcp_test.steps", "steps": 1}},
        }
        created = (
            await http.post(
                url, json=_raw("tools/call", call), headers=_headers("manage_websets", "tools/call")
            )
        ).json()
        task = created["result"]
        assert task["resultType"] == "task" and "task" not in task  # flat, no 2025 wrapper
        assert isinstance(task["ttlMs"], int) and isinstance(task["pollIntervalMs"], int)
        assert "ttl" not in task and "pollInterval" not in task
        assert task["_meta"]["io.modelcontextprotocol/serverInfo"]["name"] == "exa-orch"
        task_id = task["taskId"]
        got = (await http.post(url, json=_raw_get(task_id), headers=_headers(task_id))).json()["result"]
        assert got["taskId"] == task_id and got["resultType"] == "complete"  # resolves at once
        ack = (
            await http.post(
                url,
                json=_raw("tasks/cancel", {"taskId": task_id}),
                headers=_headers(task_id, "tasks/cancel"),
            )
        ).json()["result"]
        assert ack["resultType"] == "complete" and set(ack) <= {"resultType", "_meta"}
        for removed in ("tasks/result", "tasks/list"):
            params = {"taskId": task_id} if removed == "tasks/result" else {}
            refused = (
                await http.post(url, json=_raw(removed, params), headers=_headers(task_id, removed))
            ).json()
            assert refused["error"]["code"] == -32601


async def test_2026_tasks_over_streamable_http(url: str) -> None:
    async with Client(streamable_http_client(url), extensions=[TasksExtension()]) as client:
        assert client.protocol_version == "2026-07-28"
        args = {"operation": "tasks.create", "args": {"type": "mcp_test.steps", "steps": 2}}
        final = await client.call_tool("manage_websets", args)
        assert structured(final)["steps"] == 2
        slow = {
            "operation": "tasks.create",
            "args": {"type": "mcp_test.steps", "steps": 100, "delay": 0.2},
        }
        handle = await client.session.call_tool("manage_websets", slow, allow_claimed=True)
        assert isinstance(handle, CreateTaskResult2026)
        await cancel_2026(client.session, handle.task_id)
        assert (await get_2026(client.session, handle.task_id)).status == "cancelled"

    # SEP-2663: on HTTP, a tasks/* request whose Mcp-Name header is not its taskId is refused.
    async with httpx.AsyncClient(timeout=WAIT) as http:
        for name, code in ((handle.task_id, None), ("task_someone_else", -32020)):
            answer = await http.post(url, json=_raw_get(handle.task_id), headers=_headers(name))
            body = answer.json()
            if code is None:
                assert body["result"]["status"] == "cancelled", body
            else:
                assert body["error"]["code"] == code, body


async def test_2025_tasks_over_streamable_http(url: str) -> None:
    async with streamable_http_client(url) as (read, write), legacy_client(read, write) as client:
        assert client.init is not None and client.init.capabilities.tasks is not None
        args = {"operation": "tasks.create", "args": {"type": "mcp_test.steps", "steps": 2}}
        created = await client.call_task("manage_websets", args, token="http-tok")
        task_id = created["task"]["taskId"]
        result = await client.result(task_id)
        assert structured(result)["steps"] == 2
        assert result.meta is not None and result.meta[RELATED] == {"taskId": task_id}
        assert task_id in {t.task_id for t in (await client.list()).tasks}
        # Notifications for a task outlive its tools/call: they ride the standalone GET stream.
        await client.until(
            lambda: any(s.task_id == task_id and s.status == "completed" for s in client.statuses)
        )
        values = [p.progress for p in client.progress if p.progress_token == "http-tok"]
        assert values and values[-1] == 2.0 and values == sorted(set(values))
