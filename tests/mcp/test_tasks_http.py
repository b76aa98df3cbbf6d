"""MCP Tasks over streamable HTTP (`exa-orch serve --http`), both eras.

On HTTP the 2026 tasks/* requests carry an `Mcp-Name` header that must equal params.taskId; the SDK
client sends it, and the server checks it. 2025 status notifications ride the standalone stream.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

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


def _raw_get(task_id: str) -> dict[str, Any]:
    meta = {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {"extensions": {TASKS_EXT: {}}},
    }
    return {"jsonrpc": "2.0", "id": 7, "method": "tasks/get", "params": {"taskId": task_id, "_meta": meta}}


def _headers(mcp_name: str) -> dict[str, str]:
    return {
        "accept": "application/json, text/event-stream",
        "content-type": "application/json",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tasks/get",
        "mcp-name": mcp_name,
    }


async def test_2026_tasks_over_streamable_http(sim_url: str, tmp_path: Path) -> None:
    with http_server(sim_url, tmp_path, EXA_ORCH_EXTRA_WORKFLOWS=WORKFLOWS_ENV) as (_proc, url):
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
        async with httpx.AsyncClient(timeout=30) as http:
            for name, code in ((handle.task_id, None), ("task_someone_else", -32020)):
                answer = await http.post(url, json=_raw_get(handle.task_id), headers=_headers(name))
                body = answer.json()
                if code is None:
                    assert body["result"]["status"] == "cancelled", body
                else:
                    assert body["error"]["code"] == code, body


async def test_2025_tasks_over_streamable_http(sim_url: str, tmp_path: Path) -> None:
    with http_server(sim_url, tmp_path, EXA_ORCH_EXTRA_WORKFLOWS=WORKFLOWS_ENV) as (_proc, url):
        async with streamable_http_client(url) as (read, write), legacy_client(read, write) as client:
            assert client.init is not None and client.init.capabilities.tasks is not None
            args = {"operation": "tasks.create", "args": {"type": "mcp_test.steps", "steps": 2}}
            created = await client.call_task("manage_websets", args, token="http-tok")
            task_id = created["task"]["taskId"]
            result = await client.result(task_id)
            assert structured(result)["steps"] == 2
            assert result.meta is not None and result.meta[RELATED] == {"taskId": task_id}
            assert task_id in {t.task_id for t in (await client.list()).tasks}
