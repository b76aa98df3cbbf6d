"""Webhook delivery: signed POSTs to loopback URLs, recorded as attempts.

Contract:
- `record(store, hook, event)` is called for each event a webhook subscribes to. A loopback URL
  (127.0.0.1, ::1, localhost) is queued for delivery; any other URL is recorded at once as an
  attempt that was not sent (the simulator never reaches outside the machine).
- `endpoint(handler)` wraps a route so that, when deliveries are queued, they run as the response's
  Starlette background task: after the response is sent, owned by the server's request cycle,
  never fire-and-forget.
- A delivery POSTs the event JSON with `Exa-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of
  "{t}.{body}" keyed by the webhook secret>`, as Exa signs them, and records the status, headers
  and body of the answer (`successful` for 2xx).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any
from urllib.parse import urlparse

import httpx
from starlette.background import BackgroundTask
from starlette.requests import Request
from starlette.responses import Response

from exa_orch.sim.websets import views

if TYPE_CHECKING:
    from exa_orch.sim.websets.store import EventRec, WebhookRec, WebsetsStore

LOOPBACK = frozenset({"127.0.0.1", "::1", "localhost"})
TIMEOUT = 5.0  # seconds a receiver gets to answer
BODY_LIMIT = 2000  # characters of the receiver's answer kept in the attempt


def is_loopback(url: str) -> bool:
    return (urlparse(url).hostname or "") in LOOPBACK


def record(store: WebsetsStore, hook: WebhookRec, event: EventRec) -> None:
    """Queue a delivery (loopback) or record an unsent attempt (anything else)."""
    if is_loopback(hook.url):
        store.outbox.append((hook, event))
    else:
        store.attempts.append(views.attempt(store, hook, event))


def signature(secret: str, timestamp: int, body: bytes) -> str:
    """The Exa-Signature header value for `body` sent at `timestamp`."""
    digest = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()
    return f"t={timestamp},v1={digest}"


async def deliver(store: WebsetsStore) -> None:
    """Send every queued event to its webhook and record each attempt."""
    batch, store.outbox[:] = list(store.outbox), []
    async with httpx.AsyncClient(timeout=TIMEOUT) as client:
        for hook, event in batch:
            body = json.dumps(views.event(store, event), separators=(",", ":")).encode()
            stamp = int(time.time())
            headers = {
                "content-type": "application/json",
                "Exa-Signature": signature(hook.secret, stamp, body),
            }
            attempt = views.attempt(store, hook, event)
            try:
                answer = await client.post(hook.url, content=body, headers=headers)
            except httpx.HTTPError as exc:
                attempt["responseBody"] = f"delivery failed: {type(exc).__name__}"
            else:
                attempt.update(
                    successful=200 <= answer.status_code < 300,
                    responseStatusCode=answer.status_code,
                    responseHeaders=dict(answer.headers),
                    responseBody=answer.text[:BODY_LIMIT],
                )
            store.attempts.append(attempt)


Handler = Callable[[Request], Awaitable[Response]]


def endpoint(handler: Handler) -> Handler:
    """`handler`, with queued webhook deliveries sent after its response."""

    async def run(request: Request) -> Response:
        response = await handler(request)
        store: Any = request.app.state.sim.extras["websets"]
        if store.outbox and response.background is None:
            response.background = BackgroundTask(deliver, store)
        return response

    run.__name__ = handler.__name__
    run.__doc__ = handler.__doc__
    return run
