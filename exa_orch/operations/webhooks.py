"""webhooks.*: create, get, list, update, delete, list_attempts, getAll, getAllAttempts.

The signing secret is in the create answer only; it is handed back then and never kept or logged.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from exa_orch.operations import projections as pj

from ._creates import create_op, find_in_list
from ._http import WEBSETS, rest_op, segment
from ._paging import GetAll, collect, project_all
from .context import OpContext
from .models import Args, Id, Page
from .registry import Operation
from .shapes import EventType, Metadata
from .urls import WebhookUrl


class CreateWebhook(Args):
    url: WebhookUrl = Field(min_length=1)
    """where Exa POSTs the events: a public http(s) URL (no loopback, link-local or private host)"""
    events: list[EventType] = Field(min_length=1, max_length=19)
    metadata: Metadata | None = None


class WebhookId(Args):
    id: Id
    """webhook id"""


class UpdateWebhook(WebhookId):
    url: WebhookUrl | None = None
    events: list[EventType] | None = Field(default=None, min_length=1, max_length=19)
    metadata: Metadata | None = None


class ListAttempts(Page):
    id: Id
    """webhook id"""
    event_type: EventType | None = None
    successful: bool | None = None


class GetAllAttempts(GetAll):
    id: Id
    """webhook id"""
    event_type: EventType | None = None
    successful: bool | None = None


async def get_all(args: GetAll, ctx: OpContext) -> dict[str, Any]:
    return await collect(ctx, f"{WEBSETS}/webhooks", args)


async def get_all_attempts(args: GetAllAttempts, ctx: OpContext) -> dict[str, Any]:
    query = {"eventType": args.event_type, "successful": args.successful}
    return await collect(ctx, f"{WEBSETS}/webhooks/{segment(args.id)}/attempts", args, query)


class GetAllWebhooks(GetAll):
    pass


P = f"{WEBSETS}/webhooks"
OPERATIONS: list[Operation] = [
    create_op("webhooks.create", CreateWebhook, P, "Create a webhook; its signing secret is returned "
              "now only (store it).", project=pj.one(pj.webhook_created), secret_result=True,
              find=lambda ctx, args, key: find_in_list(ctx, P, key)),
    rest_op("webhooks.get", WebhookId, "GET", P + "/{id}", "Get a webhook.", project=pj.one(pj.webhook)),
    rest_op("webhooks.list", Page, "GET", P, "List webhooks, one page.", project=pj.paged(pj.webhook)),
    rest_op("webhooks.update", UpdateWebhook, "PATCH", P + "/{id}", "Change a webhook's url, events or metadata.",
            project=pj.one(pj.webhook)),
    rest_op("webhooks.delete", WebhookId, "DELETE", P + "/{id}", "Delete a webhook.", project=pj.one(pj.webhook)),
    rest_op("webhooks.list_attempts", ListAttempts, "GET", P + "/{id}/attempts", "List a webhook's delivery "
            "attempts, one page (eventType, successful filter).", project=pj.paged(pj.webhook_attempt)),
    Operation("webhooks.getAll", GetAllWebhooks, get_all, "Every webhook, following cursors up to maxItems "
              "(says truncated).", project=project_all(pj.webhook), read_only=True),
    Operation("webhooks.getAllAttempts", GetAllAttempts, get_all_attempts, "Every delivery attempt of a webhook, "
              "following cursors up to maxItems (says truncated).", project=project_all(pj.webhook_attempt), read_only=True),
]  # fmt: skip
