"""Tools that embed MCP Tasks with their own `execution.taskSupport` (the conformance fixtures):
"required" tools refuse plain calls in both eras, and every failure kind has its SEP-2663 shape."""

from __future__ import annotations

from pathlib import Path

import pytest
from mcp import Client
from mcp.client._memory import InMemoryTransport
from mcp.shared.exceptions import MCPError

from exa_orch.sim.testing import SimHandle
from tests.support import WAIT

from .tasks_conformance import fixture_server
from .tasks_support import CreateTaskResult2026, TasksExtension, app_for, get_2026, legacy_client


async def test_a_required_task_tool_refuses_plain_calls_in_both_eras(sim: SimHandle, tmp_path: Path) -> None:
    async with app_for(sim.url, tmp_path / "w.db") as app:
        server = fixture_server(app)
        async with InMemoryTransport(server) as (read, write), legacy_client(read, write) as legacy:
            tools = {
                t.name: t.execution.task_support if t.execution else None
                for t in (await legacy.session.list_tools()).tools
            }
            assert tools == {
                "greet": None,
                "slow_compute": "optional",
                "failing_job": "required",
                "protocol_error_job": "optional",
            }
            with pytest.raises(MCPError) as plain_2025:
                await legacy.session.call_tool("failing_job", {})
            assert plain_2025.value.error.code == -32601
            created = await legacy.call_task("failing_job", {})
            failed = await legacy.result(created["task"]["taskId"])
            assert failed.is_error is True
            assert (await legacy.get(created["task"]["taskId"])).status == "failed"  # 2025: isError -> failed

        async with Client(server) as plain_2026:
            with pytest.raises(MCPError) as refused:
                await plain_2026.call_tool("failing_job", {})
            assert refused.value.error.code == -32021
        async with Client(server, extensions=[TasksExtension()]) as modern:
            handle = await modern.session.call_tool("failing_job", {}, allow_claimed=True)
            assert isinstance(handle, CreateTaskResult2026)
            await app.tasks.wait(handle.task_id, timeout=WAIT)
            task = await get_2026(modern.session, handle.task_id)
            assert task.status == "completed" and task.result is not None and task.result["isError"] is True
            greeting = await modern.call_tool("greet", {"name": "tasks"})  # not task-capable: inline
            assert greeting.content[0].text == "Hello, tasks!"  # type: ignore[union-attr]
