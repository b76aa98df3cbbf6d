"""A slow, checkpointed workflow for the clean-stop tests; a spawned server loads it through
EXA_ORCH_EXTRA_WORKFLOWS="tests.mcp.stop_workflows:WORKFLOWS"."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from exa_orch.runtime import TaskContext, WorkflowSpec


class TicksArgs(BaseModel):
    ticks: int = 20
    delay: float = 0.2
    # The delay once the task is resumed (None: `delay`): a test stops the first run mid-task (slow
    # ticks leave it time to), then needn't wait out the same slow ticks for the rest.
    resumed_delay: float | None = None


async def ticks_workflow(ctx: TaskContext, args: TicksArgs) -> dict[str, Any]:
    delay = args.delay if args.resumed_delay is None or not ctx.resumed else args.resumed_delay
    for i in range(args.ticks):
        await ctx.step(f"tick:{i}", lambda i=i: {"tick": i})
        await ctx.progress("tick", i + 1, args.ticks)
        await ctx.sleep(delay)
    return {"ticks": args.ticks}


WORKFLOWS = [
    WorkflowSpec("mcp_stop.ticks", TicksArgs, ticks_workflow, "ticks slowly, one checkpoint per tick")
]
