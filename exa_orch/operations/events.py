"""events.*: list, get, getAll."""

from __future__ import annotations

from typing import Any

from exa_orch.operations import projections as pj

from ._http import WEBSETS, rest_op
from ._paging import GetAll, collect, project_all
from .context import OpContext
from .models import Args, Id, Page
from .registry import Operation
from .shapes import EventType


class EventFilter(Args):
    types: list[EventType] | None = None
    created_before: str | None = None
    """ISO-8601 time with timezone, e.g. 2026-01-31T00:00:00Z"""
    created_after: str | None = None


class ListEvents(Page, EventFilter):
    pass


class EventId(Args):
    id: Id


class GetAllEvents(GetAll, EventFilter):
    pass


async def get_all(args: GetAllEvents, ctx: OpContext) -> dict[str, Any]:
    query = {k: v for k, v in args.wire().items() if k in ("types", "createdBefore", "createdAfter")}
    return await collect(ctx, f"{WEBSETS}/events", args, query)


P = f"{WEBSETS}/events"
OPERATIONS: list[Operation] = [
    rest_op("events.list", ListEvents, "GET", P, "List events, one page (types, createdBefore/After filter).",
            project=pj.paged(pj.event)),
    rest_op("events.get", EventId, "GET", P + "/{id}", "Get one event.", project=pj.one(pj.event)),
    Operation("events.getAll", GetAllEvents, get_all, "Every event matching the filter, following cursors up to "
              "maxItems (says truncated).", project=project_all(pj.event), read_only=True),
]  # fmt: skip
