"""A workflow for the resumed-purse test (test_resume_holds.py); a spawned server loads it through
EXA_ORCH_EXTRA_WORKFLOWS="tests.money.resume_workflows:WORKFLOWS".

`money.websetThenSearches`: a webset search (its estimate held while it runs), then, once it has
found an item, paid searches one step each until the task's budget stops it."""

from __future__ import annotations

from functools import partial
from typing import Any

from pydantic import BaseModel

from exa_orch.runtime import TaskContext, WorkflowSpec
from exa_orch.workflows import kit


class Args(BaseModel):
    count: int = 5
    searches: int = 40


async def webset_then_searches(ctx: TaskContext, args: Args) -> dict[str, Any]:
    body = {"search": {"query": "AI startups in Europe", "entity": {"type": "company"}, "count": args.count}}
    webset = await kit.create_webset(ctx, "create.webset", body)
    ctx.on_cancel(partial(kit.call, ctx, "websets.cancel", {"id": webset["id"]}))
    while True:  # until the search has found an item (reads: not checkpointed)
        got = await kit.call(ctx, "websets.get", {"id": webset["id"], "raw": True})
        if any((s.get("progress") or {}).get("found", 0) >= 1 for s in got.get("searches") or []):
            break
        await ctx.sleep(0.05)
    for i in range(args.searches):
        await ctx.step(f"search.{i}", partial(kit.call, ctx, "exa.search", {"query": f"AI startup {i}"}))
    return {"searches": args.searches}


WORKFLOWS = [
    WorkflowSpec(
        "money.websetThenSearches", Args, webset_then_searches, "a webset, then searches until the budget"
    )
]
