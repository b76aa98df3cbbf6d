"""A task type for the pool tests: `test.manyRuns` starts `count` agent runs at once and polls each
to its end (a research.* task asks for one at a time; this one queues many behind the pool)."""

from __future__ import annotations

import asyncio
from typing import Any

from pydantic import Field

from exa_orch.runtime import TaskContext
from exa_orch.runtime.spec import WorkflowSpec
from exa_orch.workflows import kit

TERMINAL = frozenset({"completed", "failed", "cancelled"})
# Between two reads of a run. A run lasts ~1.2 s at the pool tests' sim speed 10, so 0.2 s holds
# a slot at most a sixth longer; at 0.05 s, 200 runs made ~5,000 reads (most of a test's CPU).
POLL = 0.2


class ManyRunsArgs(kit.TaskArgs):
    count: int = Field(ge=1, le=500)
    label: str = "run"


async def many_runs(ctx: TaskContext, args: ManyRunsArgs) -> dict[str, Any]:
    async def one(i: int) -> str:
        # No key (research.start_research's create-or-find would list the runs before each of the 200
        # creates): a task that lost its lease and resumed would create again the runs its lost run
        # made and had not checkpointed. The tests assert none was (each query made once).
        async def create() -> Any:
            return await kit.call(
                ctx, "research.create", {"instructions": f"{args.label} {i}", "model": "exa-research-fast"}
            )

        run = await ctx.step(f"create:{i}", create)
        research_id = str(run["researchId"])
        while True:
            got = await kit.call(ctx, "research.get", {"researchId": research_id})
            if got.get("status") in TERMINAL:
                return research_id
            await ctx.sleep(POLL)

    ids = await asyncio.gather(*(one(i) for i in range(args.count)))
    return {"runs": list(ids)}


WORKFLOWS = [
    WorkflowSpec("test.manyRuns", ManyRunsArgs, many_runs, "count agent runs at once, each polled to its end")
]
