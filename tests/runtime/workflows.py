"""Workflows for the runtime tests; a spawned server loads them through
EXA_ORCH_EXTRA_WORKFLOWS="tests.runtime.workflows:WORKFLOWS".

- `rt.steps`: `steps` local steps; each calls `ctx.deps.extras["effect"](external_id)` (an in-process
  side-effect counter) and may block before step `block_at` on extras["gate"] (an asyncio.Event).
- `rt.webset`: creates a webset at the simulator (externalId = task id + step key, through
  create_or_get), waits on Exa until it is idle (a cancel hook cancels the webset at Exa), lists
  its items. Every Exa side effect is counted by the simulator's creates_by_external_id.
- `rt.websets`: `count` websets created one per step, then a final step; for the crash tests,
  where a step's side effect must happen once even when the process dies mid-task.
- `rt.stall`: sleeps `wait` s, then runs one step whose code blocks the event loop for `hold` s
  (time.sleep): a task that stalls every server running it.
- `rt.keyed`: a step, then a step that raises MissingApiKey until extras["keys"] holds something
  (the task then waits input_required for its owner's key).
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx
from pydantic import BaseModel, Field

from exa_orch.gateway.errors import MissingApiKey, error_from_response
from exa_orch.runtime import TaskContext, WorkflowSpec, create_or_get


class StepsArgs(BaseModel):
    steps: int = Field(default=3, ge=1, le=1000)
    block_at: int | None = None
    fail_at: int | None = None
    sleep: float = 0.0


async def steps_workflow(ctx: TaskContext, args: StepsArgs) -> dict[str, Any]:
    extras = ctx.deps.extras
    effect = extras.get("effect")
    out = []
    for i in range(args.steps):
        if args.block_at == i and "gate" in extras:
            # A safe point first, as a real workflow's wait is (a step or ctx.sleep): a cancel that
            # came while a checkpoint was committed replays to it and stops there, where a wait on
            # the gate alone would hold the replay until its hook timeout, as long as cancel waits
            await ctx.sleep(0)
            await extras["gate"].wait()
        key = f"s{i}"

        async def run(key: str = key, i: int = i) -> int:
            if effect is not None:
                effect(ctx.external_id(key))
            if args.fail_at == i:
                raise RuntimeError(f"step {i} broke on purpose")
            if args.sleep:
                await ctx.sleep(args.sleep)
            return i * i

        out.append(await ctx.step(key, run))
        await ctx.progress("steps", i + 1, args.steps)
    return {"squares": out}


def _http(ctx: TaskContext) -> httpx.AsyncClient:
    client = ctx.deps.extras.get("http")  # a plain client a test hands in, else the governed one
    if client is None:
        assert ctx.deps.gateway is not None, "rt.webset needs extras['http'] or a gateway"
        client = ctx.deps.gateway.http
    return client  # type: ignore[no-any-return]


async def _call(ctx: TaskContext, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
    response = await _http(ctx).request(method, path, json=body)
    if response.status_code >= 400:
        # A plain client (tests hand one in): map the status as the governed transport does.
        raise error_from_response(
            response.status_code, response.headers, response.content, method=method, path=path
        )
    return response.json()


class WebsetArgs(BaseModel):
    query: str = "AI infrastructure startups"
    count: int = Field(default=5, ge=1, le=100)
    poll: float = 0.05


async def _create_webset(ctx: TaskContext, key: str, args: WebsetArgs) -> dict[str, Any]:
    body = {"search": {"query": args.query, "count": args.count}}

    async def create(external_id: str) -> Any:
        return await _call(ctx, "POST", "/websets/v0/websets", {**body, "externalId": external_id})

    async def find(external_id: str) -> Any:
        return await _call(ctx, "GET", f"/websets/v0/websets/{external_id}")

    return await create_or_get(ctx, key, create, find)


async def _wait_idle(ctx: TaskContext, key: str, webset_id: str, poll: float, count: int) -> dict[str, Any]:
    async def cancel_at_exa() -> None:
        await _call(ctx, "POST", f"/websets/v0/websets/{webset_id}/cancel")

    # Registered before any other await: a cancel landing at the progress write still cancels it.
    remove = ctx.on_cancel(cancel_at_exa)
    await ctx.progress("searching", 0, count, "webset created")

    async def wait() -> dict[str, Any]:
        while True:
            webset = await _call(ctx, "GET", f"/websets/v0/websets/{webset_id}")
            if webset["status"] == "idle":
                return {"status": webset["status"]}
            await ctx.sleep(poll)

    out = await ctx.step(key, wait)
    remove()
    return out


async def webset_workflow(ctx: TaskContext, args: WebsetArgs) -> dict[str, Any]:
    webset = await _create_webset(ctx, "create", args)
    await _wait_idle(ctx, "wait", webset["id"], args.poll, args.count)

    async def items() -> dict[str, Any]:
        page = await _call(ctx, "GET", f"/websets/v0/websets/{webset['id']}/items?limit=100")
        return {"count": len(page["data"]), "ids": sorted(item["id"] for item in page["data"])}

    listed = await ctx.step("items", items)
    return {"websetId": webset["id"], "externalId": webset.get("externalId"), "items": listed["count"]}


class ManyArgs(BaseModel):
    count: int = Field(default=3, ge=1, le=50)
    pause: float = 0.0


async def websets_workflow(ctx: TaskContext, args: ManyArgs) -> dict[str, Any]:
    ids, keys = [], []
    for i in range(args.count):
        webset = await _create_webset(ctx, f"create:{i}", WebsetArgs(query=f"topic {i}", count=1))
        ids.append(webset["id"])
        keys.append(webset["externalId"].removeprefix(f"{ctx.task_id}:"))
        await ctx.progress("creating", i + 1, args.count)
        if args.pause:
            await asyncio.sleep(args.pause)
    return {"websets": ids, "keys": keys, "queries": [f"topic {i}" for i in range(args.count)]}


class GatedArgs(BaseModel):
    pass


async def gated_workflow(ctx: TaskContext, args: GatedArgs) -> dict[str, Any]:
    """A checkpoint, the cancel hook for its work right after it (as workflows must), then a wait."""
    made = await ctx.step("create", lambda: {"id": "thing-1"})
    ctx.on_cancel(lambda: ctx.deps.extras["undo"](made["id"]))
    await ctx.sleep(3600)
    return made


class KeyedArgs(BaseModel):
    label: str = "x"


async def keyed_workflow(ctx: TaskContext, args: KeyedArgs) -> dict[str, Any]:
    """A step, then one that needs its owner's key (extras["keys"]: the principals holding one;
    none held: MissingApiKey, as the gateway raises it), then one more."""
    extras = ctx.deps.extras
    effect = extras.get("effect")

    async def before() -> str:
        if effect is not None:
            effect(ctx.external_id("before"))
        return "before"

    async def keyed() -> str:
        if not extras.get("keys"):
            raise MissingApiKey("user:test")
        return "keyed"

    done = [await ctx.step("before", before), await ctx.step("keyed", keyed)]
    return {"done": done, "label": args.label}


class StallArgs(BaseModel):
    hold: float = Field(default=1.0, ge=0)
    wait: float = Field(default=0.0, ge=0)  # first sleep this long (the server takes up its other work)


async def stall_workflow(ctx: TaskContext, args: StallArgs) -> dict[str, Any]:
    await ctx.sleep(args.wait)

    def block() -> float:
        time.sleep(args.hold)  # on purpose: the loop is held, no lease is renewed meanwhile
        return args.hold

    return {"held": await ctx.step("block", block)}


WORKFLOWS = [
    WorkflowSpec("rt.steps", StepsArgs, steps_workflow, "local steps with an in-process side effect"),
    WorkflowSpec("rt.webset", WebsetArgs, webset_workflow, "create a webset, wait, list items"),
    WorkflowSpec("rt.websets", ManyArgs, websets_workflow, "create `count` websets, one per step"),
    WorkflowSpec("rt.gated", GatedArgs, gated_workflow, "a checkpoint, its cancel hook, a long sleep"),
    WorkflowSpec("rt.stall", StallArgs, stall_workflow, "a step that blocks the event loop for `hold` s"),
    WorkflowSpec("rt.keyed", KeyedArgs, keyed_workflow, "a step, then one that needs its owner's API key"),
]
