"""A watch's notifications: a signed webhook POST, and the listeners a face adds (MCP sessions).

Contract:
- `sign(secret, t, body)` is the `Exa-Signature` header value Exa's own webhooks carry:
  `t=<unix seconds>,v1=<hex HMAC-SHA256 of "{t}.{body}">` (data-design/exa-websets-spec.yaml,
  Webhook.secret), so a receiver written for Exa's webhooks verifies exa-orch's as well.
- `Notifier.post(url, secret, payload)` makes one signed POST and answers None when the receiver
  took it (2xx), else what went wrong (never raises); `Notifier.tell(owner, payload)` hands it to
  every listener added for its owner (this server's MCP sessions) and says whether one heard it.
  Retries, and who sends what once, are the sender's (watch_sender.py).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

import httpx

log = logging.getLogger(__name__)

Listener = Callable[[str | None, dict[str, Any]], Awaitable[bool]]
"""async (owner, payload) -> whether it reached anyone (a face's sessions of that owner)."""

WEBHOOK_TIMEOUT_S = 10.0


def sign(secret: str, timestamp: int, body: bytes) -> str:
    """The `Exa-Signature` header value for `body` sent at `timestamp` (module docstring)."""
    digest = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()
    return f"t={timestamp},v1={digest}"


class Notifier:
    """Delivers watch runs' payloads to webhooks and to the listeners faces add."""

    def __init__(self) -> None:
        self.listeners: list[Listener] = []

    def listen(self, listener: Listener) -> Callable[[], None]:
        """Add `listener` (e.g. the MCP face's sessions); returns the function that removes it."""
        self.listeners.append(listener)
        return lambda: self.listeners.remove(listener)

    async def tell(self, owner: str | None, payload: dict[str, Any]) -> bool:
        """Give `payload` to every listener; True if one of them reached a session of `owner`."""
        heard = False
        for listener in list(self.listeners):
            try:
                heard = await listener(owner, payload) or heard
            except Exception:  # one face's failure must not stop the others' notifications
                log.exception("watch %s: an MCP notification failed", payload.get("watchId"))
        return heard

    async def post(self, url: str, secret: str, payload: dict[str, Any]) -> str | None:
        """One signed POST of `payload`: None when delivered, else the error (module docstring)."""
        body = json.dumps(payload, separators=(",", ":")).encode()
        headers = {"Content-Type": "application/json", "Exa-Signature": sign(secret, int(time.time()), body)}
        try:
            async with httpx.AsyncClient(timeout=WEBHOOK_TIMEOUT_S) as http:
                answer = await http.post(url, content=body, headers=headers)
        except httpx.HTTPError as exc:
            return f"{type(exc).__name__}: {exc}"[:300]
        if answer.status_code >= 300:
            return f"HTTP {answer.status_code}"
        return None
