"""MCP Tasks, 2026-07-28 era (SEP-2663 extension `io.modelcontextprotocol/tasks`), in-process."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError

from exa_orch.app import App
from exa_orch.mcp.server import build_server
from exa_orch.sim.testing import SimHandle
from tests.support import WAIT

from .tasks_support import (
    TASKS_EXT,
    CreateTaskResult2026,
    TasksExtension,
    app_for,
    cancel_2026,
    get_2026,
    structured,
)


@asynccontextmanager
async def modern(
    sim: SimHandle, tmp_path: Path, *, extension: bool = True
) -> AsyncIterator[tuple[App, Client]]:
    async with app_for(sim.url, tmp_path / "workflows.db") as app:
        extensions = [TasksExtension()] if extension else None
        async with Client(build_server(app), extensions=extensions) as client:
            assert client.protocol_version == "2026-07-28"
            yield app, client


def create(task_type: str = "mcp_test.steps", **args: Any) -> dict[str, Any]:
    return {"operation": "tasks.create", "args": {"type": task_type, **args}}


async def test_discover_advertises_the_tasks_extension(sim: SimHandle, tmp_path: Path) -> None:
    async with modern(sim, tmp_path) as (_app, client):
        extensions = client.server_capabilities.extensions or {}
        assert TASKS_EXT in extensions
        assert client.server_capabilities.tasks is None  # the 2025 capability is handshake-only


async def test_a_declaring_client_gets_the_final_result_of_tasks_create(
    sim: SimHandle, tmp_path: Path
) -> None:
    async with modern(sim, tmp_path) as (app, client):
        # The claim resolver polls tasks/get until the task is terminal and returns its result.
        final = await client.call_tool("manage_websets", create(steps=2))
        assert final.is_error is False
        body = structured(final)
        assert body["steps"] == 2 and len(body["found"]) == 2
        records, _ = await app.tasks.list(type="mcp_test.steps")
        assert [r.status for r in records] == ["completed"]
        assert records[0].meta["era"] == "2026-07-28"


async def test_handle_poll_and_cancel_through_the_extension_methods(sim: SimHandle, tmp_path: Path) -> None:
    async with modern(sim, tmp_path) as (app, client):
        handle = await client.session.call_tool(
            "manage_websets", create(steps=100, delay=0.2), allow_claimed=True
        )
        assert isinstance(handle, CreateTaskResult2026)
        assert handle.status == "working" and handle.ttl_ms and handle.poll_interval_ms
        detailed = await get_2026(client.session, handle.task_id)
        assert detailed.status == "working" and detailed.result is None
        await cancel_2026(client.session, handle.task_id)
        assert (await get_2026(client.session, handle.task_id)).status == "cancelled"
        assert str((await app.tasks.get(handle.task_id)).status) == "cancelled"
        await cancel_2026(client.session, handle.task_id)  # idempotent acknowledgement

        failing = await client.session.call_tool(
            "manage_websets", create(steps=1, fail=True), allow_claimed=True
        )
        assert isinstance(failing, CreateTaskResult2026)
        assert str((await app.tasks.wait(failing.task_id, timeout=WAIT)).status) == "failed"
        # SEP-2663: a tool execution error is `completed` with an isError result (`failed` is for
        # protocol errors), and the claim resolver hands the agent that result like any tool error.
        failed = await get_2026(client.session, failing.task_id)
        assert failed.status == "completed" and failed.error is None and failed.result is not None
        assert failed.result["isError"] is True
        assert failed.result["structuredContent"]["code"] == "INVALID_PARAMS"
        resolved = await client.call_tool("manage_websets", create(steps=1, fail=True))
        assert resolved.is_error is True and structured(resolved)["code"] == "INVALID_PARAMS"


async def test_quick_operations_answer_inline_and_long_ones_become_tasks(
    sim: SimHandle, tmp_path: Path
) -> None:
    async with modern(sim, tmp_path) as (app, client):
        listed = await client.session.call_tool(
            "manage_websets", {"operation": "tasks.list", "args": {}}, allow_claimed=True
        )
        assert not isinstance(listed, CreateTaskResult2026)
        assert structured(listed)["tasks"] == []
        # A task made with tasks.create elsewhere is visible to tasks/get here.
        record = await app.tasks.create("mcp_test.steps", {"steps": 1})
        await app.tasks.wait(record.id, timeout=WAIT)
        detailed = await get_2026(client.session, record.id)
        assert detailed.status == "completed" and detailed.result is not None
        assert detailed.result["structuredContent"]["steps"] == 1


async def test_without_the_extension_calls_are_plain_and_tasks_methods_refused(
    sim: SimHandle, tmp_path: Path
) -> None:
    async with modern(sim, tmp_path, extension=False) as (app, client):
        result = await client.call_tool("manage_websets", create(steps=1))
        started = structured(result)  # tasks.create's own answer: the task id, at once
        assert started["type"] == "mcp_test.steps" and started["taskId"].startswith("task_")
        with pytest.raises(MCPError) as refused:
            await get_2026(client.session, started["taskId"])
        assert refused.value.error.code == -32021
        await app.tasks.wait(started["taskId"], timeout=WAIT)


async def test_a_call_that_cannot_become_a_task_gets_the_plain_error_result(
    sim: SimHandle, tmp_path: Path
) -> None:
    async with modern(sim, tmp_path) as (app, client):
        bad_type = await client.call_tool("manage_websets", create("no.such.type"))
        assert bad_type.is_error is True and structured(bad_type)["code"] == "INVALID_PARAMS"
        bad_args = await client.call_tool("manage_websets", create(steps="many"))
        assert bad_args.is_error is True and "steps" in structured(bad_args)["message"]
        assert (await app.tasks.list())[0] == []


async def test_a_long_running_operation_runs_as_a_task_for_a_declaring_client(
    sim: SimHandle, tmp_path: Path
) -> None:
    async with modern(sim, tmp_path) as (app, client):
        made = await client.call_tool(
            "manage_websets",
            {"operation": "websets.create", "args": {"search": {"query": "robotics startups", "count": 5}}},
        )
        webset_id = structured(made)["id"]
        wait = {"operation": "websets.waitUntilIdle", "args": {"id": webset_id, "pollInterval": 0.1}}
        handle = await client.session.call_tool("manage_websets", wait, allow_claimed=True)
        assert isinstance(handle, CreateTaskResult2026)
        record = await app.tasks.get(handle.task_id)
        assert record.type == "operation" and record.args["operation"] == "websets.waitUntilIdle"
        final = await client.call_tool("manage_websets", wait)  # resolved through the claim
        body = structured(final)
        assert body["webset"]["status"] == "idle" and body["timedOut"] is False
        records, _ = await app.tasks.list(type="operation")
        assert len(records) == 2


async def test_an_internal_failure_is_failed_with_an_inlined_json_rpc_error(
    sim: SimHandle, tmp_path: Path
) -> None:
    async with modern(sim, tmp_path) as (app, client):
        handle = await client.session.call_tool(
            "manage_websets", create(steps=1, crash=True), allow_claimed=True
        )
        assert isinstance(handle, CreateTaskResult2026)
        await app.tasks.wait(handle.task_id, timeout=WAIT)
        crashed = await get_2026(client.session, handle.task_id)
        assert crashed.status == "failed" and crashed.result is None and crashed.error is not None
        assert crashed.error["code"] == -32603 and "crashed on purpose" in crashed.error["message"]
        with pytest.raises(MCPError) as raised:  # the claim resolver turns it into the call's error
            await client.call_tool("manage_websets", create(steps=1, crash=True))
        assert raised.value.error.code == -32603
