"""MCP Tasks against a spawned `exa-orch serve` over stdio, in both protocol eras.

The server loads the test workflows from EXA_ORCH_EXTRA_WORKFLOWS and talks to a simulator
running in a background thread (module-scoped `sim_url` from conftest).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from mcp import Client
from mcp.client.stdio import stdio_client
from mcp.shared.exceptions import MCPError

from exa_orch.sim.context import SimConfig
from exa_orch.sim.testing import SimThread
from tests.support import WAIT

from .conftest import held, serve_params
from .tasks_support import (
    RELATED,
    WORKFLOWS_ENV,
    CreateTaskResult2026,
    LegacyTasksClient,
    TasksExtension,
    get_2026,
    legacy_client,
    structured,
)

# The tests that share the module's server (`client`) run in the module's event loop.
SHARED = pytest.mark.asyncio(loop_scope="module")


def _params(sim_url: str, tmp_path: Path) -> Any:
    return serve_params(sim_url, tmp_path / "workflows.db", EXA_ORCH_EXTRA_WORKFLOWS=WORKFLOWS_ENV)


@asynccontextmanager
async def spawned_2025(sim_url: str, tmp_path: Path) -> AsyncIterator[LegacyTasksClient]:
    with (tmp_path / "server-stderr.log").open("a") as errlog:
        async with stdio_client(_params(sim_url, tmp_path), errlog=errlog) as (read, write):
            async with legacy_client(read, write) as client:
                yield client


@pytest.fixture(scope="module")
def slow_sim() -> Any:
    """Speed 1: a webset search takes minutes, so a workflow is still waiting on Exa at the cancel.
    (A /search answers at once at any speed.)"""
    with SimThread(SimConfig(speed=1.0)) as handle:
        yield handle


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def client(slow_sim: Any, tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[LegacyTasksClient]:
    """One 2025-11-25 client and its server for the module's tests that only make, wait on and
    cancel tasks of their own (one start-up, ~1 s of CPU, not one a test); the others start their own."""
    async with held(spawned_2025(slow_sim.url, tmp_path_factory.mktemp("tasks-stdio"))) as session:
        yield session


@SHARED
async def test_2025_client_over_stdio_gets_create_task_result_and_blocks_on_tasks_result(
    client: LegacyTasksClient,
) -> None:
    assert client.init is not None and client.init.capabilities.tasks is not None
    args = {"operation": "tasks.create", "args": {"type": "mcp_test.steps", "steps": 3, "delay": 0.05}}
    created = await client.call_task("manage_websets", args, ttl=120_000, token="stdio-tok")
    task_id = created["task"]["taskId"]
    assert created["task"]["status"] == "working" and created["task"]["ttl"] == 120_000

    result = await client.result(task_id)
    assert structured(result)["steps"] == 3
    assert result.meta is not None and result.meta[RELATED] == {"taskId": task_id}

    await client.until(lambda: any(s.task_id == task_id and s.status == "completed" for s in client.statuses))
    mine = [p for p in client.progress if p.progress_token == "stdio-tok"]
    assert len(mine) == 3 and all(p.meta and p.meta[RELATED]["taskId"] == task_id for p in mine)

    # Seen the other way: tasks.list (the operation) lists it; tasks.create's task is MCP-cancellable.
    listed = structured(await client.call("tasks.list", {"status": "completed"}))
    assert task_id in [t["taskId"] for t in listed["tasks"]]
    made = structured(
        await client.call("tasks.create", {"type": "mcp_test.steps", "steps": 100, "delay": 0.2})
    )
    assert made["taskId"] in {t.task_id for t in (await client.list()).tasks}
    assert (await client.cancel(made["taskId"])).status == "cancelled"
    assert structured(await client.call("tasks.get", {"taskId": made["taskId"]}))["status"] == "cancelled"


async def test_2026_client_with_the_tasks_extension_over_stdio_gets_the_final_result(
    sim_url: str, tmp_path: Path
) -> None:
    with (tmp_path / "server-stderr.log").open("a") as errlog:
        transport = stdio_client(_params(sim_url, tmp_path), errlog=errlog)
        async with Client(transport, extensions=[TasksExtension()], read_timeout_seconds=WAIT) as client:  # type: ignore[arg-type]
            assert client.protocol_version == "2026-07-28"
            args = {"operation": "tasks.create", "args": {"type": "mcp_test.steps", "steps": 2}}
            final = await client.call_tool("manage_websets", args)
            assert structured(final)["steps"] == 2

            search = {"operation": "exa.search", "args": {"query": "rust web frameworks", "numResults": 2}}
            inline = await client.session.call_tool("manage_websets", search, allow_claimed=True)
            assert not isinstance(inline, CreateTaskResult2026)  # a quick operation answers inline
            assert structured(inline)["results"]

            handle = await client.session.call_tool(
                "manage_websets", {**args, "args": {**args["args"], "steps": 1}}, allow_claimed=True
            )
            assert isinstance(handle, CreateTaskResult2026)
            listed = await client.call_tool(
                "manage_websets", {"operation": "tasks.get", "args": {"taskId": handle.task_id}}
            )
            assert structured(listed)["taskId"] == handle.task_id
            assert (await get_2026(client.session, handle.task_id)).task_id == handle.task_id


@SHARED
async def test_mcp_cancel_while_the_workflow_awaits_exa_leaves_cancelled_and_cancels_at_exa(
    slow_sim: Any, client: LegacyTasksClient
) -> None:
    args = {"operation": "tasks.create", "args": {"type": "mcp_test.webset_wait"}}
    task_id = (await client.call_task("manage_websets", args))["task"]["taskId"]

    def waiting_on_exa() -> bool:
        gets = [
            e for e in slow_sim.log() if e["method"] == "GET" and e["path"].startswith("/websets/v0/websets/")
        ]
        return len(gets) >= 2

    await client.until(waiting_on_exa)  # re-checked every 0.2 s, bounded
    cancelled = await client.cancel(task_id)
    assert cancelled.status == "cancelled"
    await client.until(lambda: any(s.task_id == task_id and s.status == "cancelled" for s in client.statuses))
    log = slow_sim.log()
    creates = [e for e in log if e["method"] == "POST" and e["path"] == "/websets/v0/websets"]
    cancels = [e for e in log if e["method"] == "POST" and e["path"].endswith("/cancel")]
    assert len(creates) == 1 and len(cancels) == 1
    with pytest.raises(MCPError) as again:
        await client.cancel(task_id)
    assert again.value.error.code == -32602


async def test_a_task_made_over_mcp_survives_a_server_restart(tmp_path: Path) -> None:
    with SimThread(SimConfig(speed=100.0)) as sim:
        args = {"operation": "tasks.create", "args": {"type": "mcp_test.steps", "steps": 20, "delay": 0.1}}
        async with spawned_2025(sim.url, tmp_path) as first:
            task_id = (await first.call_task("manage_websets", args, token="restart"))["task"]["taskId"]
            await first.until(lambda: len(first.progress) >= 3)
        # The first server stopped when its stdin closed; the task is unfinished and resumable.
        async with spawned_2025(sim.url, tmp_path) as second:
            assert (await second.get(task_id)).status == "working"
            result = await second.result(task_id)
            body = structured(result)
            assert [f["i"] for f in body["found"]] == list(range(20))
        searches = sim.stats()["requests_by_endpoint"].get("POST /search", 0)
        assert 20 <= searches <= 21  # checkpointed steps never repeat; only an interrupted one may
