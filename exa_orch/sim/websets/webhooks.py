"""Routes: webhooks create, list, get, update (PATCH), delete, and list attempts.

Contract: `secret` is returned only by create (null afterwards, as Exa does); events are 1..19
known event types; the url must be http(s). Every event sent while a webhook is active and
subscribed to its type records one attempt (listed newest first, filters eventType and
successful). The simulator records attempts without sending them over the network.
"""

from __future__ import annotations

import secrets
from typing import Any
from urllib.parse import urlparse

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from exa_orch.sim.websets import http, views
from exa_orch.sim.websets.store import EVENT_TYPES, WebhookRec, WebsetsStore, paginate

P = "/websets/v0/webhooks"


def _events(obj: dict[str, Any]) -> list[str]:
    events = obj.get("events")
    if not isinstance(events, list) or not 1 <= len(events) <= len(EVENT_TYPES):
        raise http.bad(f"events must be a list of 1 to {len(EVENT_TYPES)} event types")
    for n, e in enumerate(events):
        if e not in EVENT_TYPES:
            raise http.bad(f"events[{n}] must be one of {', '.join(EVENT_TYPES)}; got {e!r}")
    return list(dict.fromkeys(events))


def _url(obj: dict[str, Any]) -> str:
    url = obj.get("url")
    parsed = urlparse(url) if isinstance(url, str) else None
    if parsed is None or parsed.scheme not in ("http", "https") or not parsed.netloc:
        raise http.bad(f"url must be an http(s) URL; got {url!r}")
    return str(url)


def _hook(st: WebsetsStore, key: str) -> WebhookRec:
    rec: WebhookRec = st.resolve("webhook", key)
    return rec


async def create(request: Request) -> JSONResponse:
    st, now = http.begin(request)
    body = await http.body(request)
    http.refuse_external_id(body, "webhook")
    events, url, meta = _events(body), _url(body), http.metadata(body) or {}
    external_id = None
    hook = WebhookRec(id=st.new_id("webhook"), url=url, events=events, metadata=meta,
                      secret=f"whsec_{secrets.token_hex(24)}", created_at=now, external_id=external_id,
                      updated_at=now)  # fmt: skip
    st.webhooks[hook.id] = hook
    st.register("webhook", hook.id, external_id)
    http.created(request, "webhook", hook)
    return http.json(views.webhook(st, hook, with_secret=True))


async def list_(request: Request) -> JSONResponse:
    st, _ = http.begin(request)
    rows = list(reversed(st.webhooks.values()))
    page, more, cursor = paginate(rows, dict(request.query_params), default=25, maximum=200)
    return http.json({"data": [views.webhook(st, h) for h in page], "hasMore": more, "nextCursor": cursor})


async def get(request: Request) -> JSONResponse:
    st, _ = http.begin(request)
    return http.json(views.webhook(st, _hook(st, request.path_params["id"])))


async def update(request: Request) -> JSONResponse:
    st, now = http.begin(request)
    hook = _hook(st, request.path_params["id"])
    body = await http.body(request)
    if "events" in body:
        hook.events = _events(body)
    if "url" in body:
        hook.url = _url(body)
    if "metadata" in body:
        hook.metadata = http.metadata(body) or {}
    if "status" in body:
        if body["status"] not in ("active", "inactive"):
            raise http.bad("status must be 'active' or 'inactive'")
        hook.status = body["status"]
    hook.updated_at = now
    return http.json(views.webhook(st, hook))


async def delete(request: Request) -> JSONResponse:
    st, now = http.begin(request)
    hook = _hook(st, request.path_params["id"])
    del st.webhooks[hook.id]
    st.release("webhook", hook.external_id)
    hook.status, hook.updated_at = "inactive", now
    return http.json(views.webhook(st, hook))


async def attempts(request: Request) -> JSONResponse:
    st, _ = http.begin(request)
    hook = _hook(st, request.path_params["id"])
    rows = [a for a in reversed(st.attempts) if a["webhookId"] == hook.id]
    event_type = request.query_params.get("eventType")
    if event_type is not None:
        if event_type not in EVENT_TYPES:
            raise http.bad(f"eventType must be one of {', '.join(EVENT_TYPES)}")
        rows = [a for a in rows if a["eventType"] == event_type]
    successful = request.query_params.get("successful")
    if successful is not None:
        if successful not in ("true", "false"):
            raise http.bad("successful must be true or false")
        rows = [a for a in rows if a["successful"] == (successful == "true")]
    page, more, cursor = paginate(rows, dict(request.query_params), default=25, maximum=200,
                                  key=lambda a: a["id"])  # fmt: skip
    return http.json({"data": page, "hasMore": more, "nextCursor": cursor})


def routes() -> list[Route]:
    return [
        Route(P, create, methods=["POST"]),
        Route(P, list_, methods=["GET"]),
        Route(f"{P}/{{id}}", get, methods=["GET"]),
        Route(f"{P}/{{id}}", update, methods=["PATCH"]),
        Route(f"{P}/{{id}}", delete, methods=["DELETE"]),
        Route(f"{P}/{{id}}/attempts", attempts, methods=["GET"]),
    ]
