"""A failed task names the step its error came out of, even when other steps ran beside it."""

from __future__ import annotations

import asyncio
from typing import Any

from pydantic import BaseModel

from exa_orch.errors import ApiError
from exa_orch.runtime import Supervisor, TaskContext, WorkflowRegistry, WorkflowSpec
from exa_orch.store import Store, TaskStatus
from tests.runtime.conftest import FAST
from tests.support import WAIT


class NoArgs(BaseModel):
    pass


async def side_by_side(ctx: TaskContext, args: NoArgs) -> Any:
    # Like verifiedCollection's research jobs: job 0 is polling in its step while job 1's create
    # fails; the shared current_step used to name job 0's step ("research.poll:0").
    polling = asyncio.Event()

    async def poll() -> Any:
        polling.set()
        await asyncio.Event().wait()  # cancelled when the other job fails

    async def create() -> Any:
        await polling.wait()
        raise ApiError("Exa refused the run", status=400)

    async def job0() -> None:
        await ctx.step("research.poll:0", poll)

    async def job1() -> None:
        await ctx.step("research.create:1", create)

    # job 1 enters its step first, then job 0 enters its own: the last step entered is job 0's.
    failing = asyncio.ensure_future(job1())
    polling_job = asyncio.ensure_future(job0())
    try:
        await failing
    finally:
        polling_job.cancel()


async def test_the_error_names_the_step_that_failed_not_the_one_running_beside_it(store: Store) -> None:
    registry = WorkflowRegistry([WorkflowSpec("f.sidebyside", NoArgs, side_by_side)])
    async with Supervisor(store, registry, **FAST) as sup:
        task = await sup.tasks.create("f.sidebyside", {})
        done = await sup.tasks.wait(task.id, timeout=WAIT)
    assert done.status is TaskStatus.FAILED and done.error is not None
    assert done.error["code"] == "API_ERROR" and done.error["step"] == "research.create:1", done.error
