"""A watch's notifications: a signed webhook POST, and the listeners a face adds (MCP sessions).

Contract:
- `sign(secret, t, body)` is the `Exa-Signature` header value Exa's own webhooks carry:
  `t=<unix seconds>,v1=<hex HMAC-SHA256 of "{t}.{body}">` (data-design/exa-websets-spec.yaml,
  Webhook.secret), so a receiver written for Exa's webhooks verifies exa-orch's as well.
- `Notifier.send(owner, secret, notify, payload)` delivers one run's payload to the watch's
  webhook (one POST; a failure is logged and reported as not delivered, never raised) and to every
  listener added for its owner; returns what it reached (`"webhook"`, `"mcp"`).
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

    async def send(
        self, owner: str | None, secret: str | None, notify: dict[str, Any], payload: dict[str, Any]
    ) -> list[str]:
        """Deliver `payload`; what it reached (module docstring)."""
        reached: list[str] = []
        url = notify.get("webhook")
        if isinstance(url, str) and secret is not None and await self._post(url, secret, payload):
            reached.append("webhook")
        if notify.get("mcp", True):
            for listener in list(self.listeners):
                try:
                    if await listener(owner, payload) and "mcp" not in reached:
                        reached.append("mcp")
                except Exception:  # one face's failure must not stop the others' notifications
                    log.exception("watch %s: an MCP notification failed", payload.get("watchId"))
        return reached

    async def _post(self, url: str, secret: str, payload: dict[str, Any]) -> bool:
        body = json.dumps(payload, separators=(",", ":")).encode()
        headers = {"Content-Type": "application/json", "Exa-Signature": sign(secret, int(time.time()), body)}
        try:
            async with httpx.AsyncClient(timeout=WEBHOOK_TIMEOUT_S) as http:
                answer = await http.post(url, content=body, headers=headers)
        except httpx.HTTPError as exc:
            log.warning("watch %s: webhook not delivered: %s", payload.get("watchId"), type(exc).__name__)
            return False
        if answer.status_code >= 300:
            log.warning("watch %s: webhook answered HTTP %d", payload.get("watchId"), answer.status_code)
            return False
        return True
