"""A small workflow built only from the kit, registered by tests/workflows/test_kit.py."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from exa_orch.exa.port import webset_params
from exa_orch.runtime import TaskContext
from exa_orch.workflows import WorkflowSpec, entities, kit


class HarvestArgs(BaseModel):
    query: str
    count: int = 5


async def harvest(ctx: TaskContext, args: HarvestArgs) -> dict[str, Any]:
    timeline = kit.Timeline(ctx)
    body = {"search": {"query": args.query, "count": args.count, "entity": {"type": "company"}}}
    webset = await timeline.run("create", lambda: kit.create_webset(ctx, "create.webset", body))
    again = await kit.create_webset(ctx, "create.again", body)  # another key: another webset
    waited = await kit.wait_webset(ctx, "wait", webset["id"], timeout_s=30, poll_s=0.1)
    items = await timeline.run("collect", lambda: kit.collect_items(ctx, "collect.items", webset["id"]))
    return {
        "websetId": webset["id"],
        "otherId": again["id"],
        "timedOut": waited.timed_out,
        "items": items,
        "keys": [entities.entity_key(i) for i in items],
        "steps": timeline.steps,
        "duration": timeline.duration,
    }


async def typed(ctx: TaskContext, args: HarvestArgs) -> dict[str, Any]:
    """The same on the Exa port, typed: exa-py's Webset and WebsetItem models, checkpointed as JSON."""
    body = {"search": {"query": args.query, "count": args.count, "entity": {"type": "company"}}}
    webset = await kit.new_webset(ctx, "create.webset", await webset_params(body))
    idle = await kit.wait_webset(ctx, "wait", webset.id, timeout_s=30, poll_s=0.1)
    items = await kit.items_of(ctx, "collect.items", webset.id)
    return {
        "websetId": webset.id,
        "externalId": webset.external_id,
        "status": idle.webset.status,
        "timedOut": idle.timed_out,
        "itemWebsets": sorted({item.webset_id for item in items}),
        "items": len(items),
    }


WORKFLOWS = [
    WorkflowSpec("test.kitHarvest", HarvestArgs, harvest, "kit smoke test"),
    WorkflowSpec("test.kitTyped", HarvestArgs, typed, "kit on the Exa port, typed"),
]
