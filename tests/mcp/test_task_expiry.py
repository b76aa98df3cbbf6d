"""An expired task over MCP, both eras: TASK_EXPIRED to its owner, not "no such task".

The store's clock is moved forward and the sweeper run by the test, so nothing sleeps out a TTL.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError

from exa_orch.mcp.server import build_server
from exa_orch.sim.testing import SimHandle
from tests.support import WAIT

from .conftest import result_json
from .tasks_support import TasksExtension, app_for, get_2026, inprocess_legacy, structured


async def rpc_error(call: Any) -> dict[str, Any]:
    with anyio.fail_after(WAIT), pytest.raises(MCPError) as caught:
        await call
    return {"code": caught.value.error.code, "data": caught.value.error.data}


async def test_an_expired_task_reads_task_expired_in_both_eras(
    sim: SimHandle, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with app_for(sim.url, tmp_path / "workflows.db") as app:
        async with inprocess_legacy(app) as legacy:
            args = {"operation": "tasks.create", "args": {"type": "mcp_test.steps", "steps": 1}}
            created = await legacy.call_task("manage_websets", args, ttl=1_000)
            task_id = created["task"]["taskId"]
            assert structured(await legacy.result(task_id))["steps"] == 1

            later = time.time() + 5  # past the 1 s TTL, counted from when the task finished
            monkeypatch.setattr(app.store, "_clock", lambda: later)
            assert await app.store.delete_expired() == 1  # the sweeper's pass

            for request in (legacy.get, legacy.result, legacy.cancel):
                error = await rpc_error(request(task_id))
                assert error["code"] == -32602 and error["data"]["code"] == "TASK_EXPIRED", request
            answer = await legacy.call("tasks.get", {"taskId": task_id})
            assert answer.is_error and result_json(answer)["code"] == "TASK_EXPIRED"

        async with Client(build_server(app), extensions=[TasksExtension()]) as modern:
            error = await rpc_error(get_2026(modern.session, task_id))
            assert error["code"] == -32602 and error["data"]["code"] == "TASK_EXPIRED"
