"""Workflows for the MCP Tasks tests; a spawned server loads them through
EXA_ORCH_EXTRA_WORKFLOWS="tests.mcp.tasks_workflows:WORKFLOWS".

- `mcp_test.steps`: `steps` checkpointed /search calls at the simulator, progress after each one.
- `mcp_test.webset_wait`: creates a webset (externalId = task id + step key), then waits on Exa until
  it is idle; a cancel runs a hook that cancels the webset at Exa, which the simulator's log shows.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from exa_orch.errors import InvalidParams
from exa_orch.runtime import TaskContext, WorkflowSpec


class StepsArgs(BaseModel):
    steps: int = 3
    delay: float = 0.0
    fail: bool = False
    crash: bool = False
    query: str = "open source vector databases"


def _http(ctx: TaskContext) -> Any:
    """The governed client on the simulator (the server's own gateway)."""
    assert ctx.deps.gateway is not None, "these workflows run in a server, which has a gateway"
    return ctx.deps.gateway.http


async def steps_workflow(ctx: TaskContext, args: StepsArgs) -> dict[str, Any]:
    http = _http(ctx)
    found: list[Any] = []
    for i in range(args.steps):

        async def search(i: int = i) -> dict[str, Any]:
            response = await http.post("/search", json={"query": f"{args.query} {i}", "numResults": 2})
            return {"i": i, "results": len(response.json().get("results", []))}

        found.append(await ctx.step(f"search:{i}", search))
        await ctx.progress("search", i + 1, args.steps, f"searched {i + 1} of {args.steps}")
        if args.delay:
            await ctx.sleep(args.delay)
    if args.fail:
        raise InvalidParams("mcp_test.steps was asked to fail", hint="call it with fail=false")
    if args.crash:
        raise RuntimeError("mcp_test.steps crashed on purpose")  # a bug, as far as the runtime knows
    return {"steps": args.steps, "found": found}


class WebsetWaitArgs(BaseModel):
    query: str = "AI infrastructure startups that raised a Series B"
    count: int = 50


async def webset_wait_workflow(ctx: TaskContext, args: WebsetWaitArgs) -> dict[str, Any]:
    http = _http(ctx)

    async def create() -> dict[str, Any]:
        body = {"search": {"query": args.query, "count": args.count}, "externalId": ctx.external_id("create")}
        response = await http.post("/websets/v0/websets", json=body)
        return {"id": response.json()["id"]}

    webset_id = (await ctx.step("create", create))["id"]

    async def cancel_at_exa() -> None:
        await http.post(f"/websets/v0/websets/{webset_id}/cancel")

    ctx.on_cancel(cancel_at_exa)
    polls = 0
    while True:
        webset = (await http.get(f"/websets/v0/websets/{webset_id}")).json()
        polls += 1
        await ctx.progress("wait", polls, None, f"webset {webset_id} is {webset.get('status')}")
        if webset.get("status") == "idle":
            return {"websetId": webset_id, "polls": polls}
        await ctx.sleep(0.05)


WORKFLOWS = [
    WorkflowSpec(
        "mcp_test.steps", StepsArgs, steps_workflow, "test: checkpointed /search calls with progress"
    ),
    WorkflowSpec(
        "mcp_test.webset_wait", WebsetWaitArgs, webset_wait_workflow, "test: create a webset, wait on Exa"
    ),
]
