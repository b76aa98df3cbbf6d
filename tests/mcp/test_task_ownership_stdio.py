"""Task ownership across two stdio servers on one database, run as two local principals.

On stdio the principal is the local user (`user:<login>`); the test sets EXA_ORCH_PRINCIPAL, the
override that exists for tests only, to play two users on one machine.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import anyio
import pytest
from mcp.client.stdio import stdio_client
from mcp.shared.exceptions import MCPError

from tests.support import WAIT

from .conftest import result_json, serve_params
from .tasks_support import WORKFLOWS_ENV, LegacyTasksClient, legacy_client

pytestmark = pytest.mark.slow

SLOW = {"type": "mcp_test.steps", "steps": 200, "delay": 0.2}


@asynccontextmanager
async def spawned(sim_url: str, tmp_path: Path, principal: str) -> AsyncIterator[LegacyTasksClient]:
    params = serve_params(
        sim_url,
        tmp_path / "workflows.db",
        EXA_ORCH_EXTRA_WORKFLOWS=WORKFLOWS_ENV,
        EXA_ORCH_PRINCIPAL=principal,
    )
    with (tmp_path / f"stderr-{principal}.log").open("a") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write), legacy_client(read, write) as client:
            yield client


async def test_two_local_principals_on_one_database_do_not_see_each_others_tasks(
    sim_url: str, tmp_path: Path
) -> None:
    async with (
        spawned(sim_url, tmp_path, "user:alice") as alice,
        spawned(sim_url, tmp_path, "user:bob") as bob,
    ):
        created = await alice.call_task("manage_websets", {"operation": "tasks.create", "args": SLOW})
        task_id = created["task"]["taskId"]
        for request in (bob.get, bob.result, bob.cancel):
            with anyio.fail_after(WAIT), pytest.raises(MCPError) as caught:
                await request(task_id)
            assert caught.value.error.data["code"] == "TASK_NOT_FOUND"
        for operation in ("tasks.get", "tasks.cancel"):
            answer = await bob.call(operation, {"taskId": task_id})
            assert answer.is_error and result_json(answer)["code"] == "TASK_NOT_FOUND"
        assert task_id not in {t.task_id for t in (await bob.list()).tasks}
        assert task_id not in {t["taskId"] for t in result_json(await bob.call("tasks.list"))["tasks"]}
        # Alice, through the other server process, still sees it running, and ends it.
        assert (await alice.get(task_id)).status == "working"
        assert task_id in {t.task_id for t in (await alice.list()).tasks}
        assert (await alice.cancel(task_id)).status == "cancelled"
