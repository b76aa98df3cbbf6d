"""Who may look: the view's guard, the same rule as `serve --http` (EXA_ORCH_HTTP_TOKEN).

- With a token configured, every request must show it: `Authorization: Bearer <token>`, or the
  cookie a browser gets by opening any page once with `?token=<token>` (the cookie holds an HMAC
  of the token, never the token itself; the token is then dropped from the address bar).
- Without one, only loopback clients are answered, and only when they ask for a loopback host name
  (a web page on another site can't read the view through DNS rebinding).
- Only GET and HEAD exist: any other method is answered 405 before routing, so nothing the view
  serves can be asked to change anything.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import json
from collections.abc import Awaitable, Callable, MutableMapping
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import parse_qsl, quote, urlencode

from exa_orch.config import Secret

Scope = MutableMapping[str, Any]
ASGIApp = Callable[[Scope, Callable[[], Awaitable[Any]], Callable[[Any], Awaitable[None]]], Awaitable[None]]
COOKIE = "exa_orch_view"
READ_METHODS = ("GET", "HEAD")
# Headers on every answer: no framing, no sniffing, no referrer leaking task ids, and scripts and
# styles only from the view itself, so even markup that slipped past escaping could not run.
SECURITY_HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (
        b"content-security-policy",
        b"default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
        b"connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    ),
    (b"cache-control", b"no-store"),
]


def is_loopback(host: str) -> bool:
    """True for 127.0.0.0/8, ::1 and localhost."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _host_name(header: bytes) -> str:
    text = header.decode("latin-1").strip()
    if text.startswith("["):
        return text[1 : text.find("]")] if "]" in text else text
    return text.rsplit(":", 1)[0] if text.count(":") == 1 else text


def cookie_value(token: Secret) -> str:
    """What the browser keeps: an HMAC of the token, so a stolen cookie does not reveal it."""
    return hmac.new(token.reveal().encode(), b"exa-orch view cookie v1", hashlib.sha256).hexdigest()


class ViewGuard:
    """ASGI wrapper: read-only methods, the token rule above, and the security headers."""

    def __init__(self, app: ASGIApp, token: Secret | None) -> None:
        self.app = app
        self._token = token.reveal().encode() if token else None
        self._cookie = cookie_value(token) if token else None

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] == "websocket":  # the view has none; refuse before anything unguarded runs
            await send({"type": "websocket.close", "code": 1008})
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        if scope["method"] not in READ_METHODS:
            await _answer(send, 405, "the view is read-only: only GET and HEAD", [(b"allow", b"GET, HEAD")])
            return
        if self._token is None:
            client = (scope.get("client") or ("", 0))[0]
            if not is_loopback(str(client)) or not is_loopback(_host_name(headers.get(b"host", b""))):
                await _answer(
                    send,
                    403,
                    "this view answers loopback only; set EXA_ORCH_HTTP_TOKEN to serve it further",
                )
                return
        else:
            query = dict(parse_qsl(scope.get("query_string", b"").decode("latin-1")))
            given = query.get("token")
            if given is not None and hmac.compare_digest(given.encode(), self._token):
                await self._login(scope, send, query)
                return
            if not self._authorized(headers):
                await _answer(
                    send,
                    401,
                    "unauthorized: send 'Authorization: Bearer <EXA_ORCH_HTTP_TOKEN>', "
                    "or open the page once with ?token=<EXA_ORCH_HTTP_TOKEN>",
                    [(b"www-authenticate", b"Bearer")],
                )
                return

        async def secured(message: Any) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
            await send(message)

        await self.app(scope, receive, secured)

    def _authorized(self, headers: dict[bytes, bytes]) -> bool:
        assert self._token is not None and self._cookie is not None
        # The auth scheme is case-insensitive (RFC 9110 section 11.1): "bearer x" is "Bearer x".
        scheme, _, given = headers.get(b"authorization", b"").strip().partition(b" ")
        if scheme.lower() == b"bearer" and hmac.compare_digest(given.strip(), self._token):
            return True
        jar = SimpleCookie()
        try:
            jar.load(headers.get(b"cookie", b"").decode("latin-1"))
        except Exception:  # a malformed Cookie header is just no cookie
            return False
        morsel = jar.get(COOKIE)
        return morsel is not None and hmac.compare_digest(morsel.value.encode(), self._cookie.encode())

    async def _login(self, scope: Scope, send: Any, query: dict[str, str]) -> None:
        assert self._cookie is not None
        rest = urlencode({k: v for k, v in query.items() if k != "token"})
        # Quoted, and never starting with "//", which a browser would take for another host.
        path = "/" + quote(str(scope.get("path", "/"))).lstrip("/")
        location = path + (f"?{rest}" if rest else "")
        cookie = f"{COOKIE}={self._cookie}; Path=/; HttpOnly; SameSite=Strict"
        await _answer(
            send, 303, "signed in", [(b"location", location.encode()), (b"set-cookie", cookie.encode())]
        )


async def _answer(
    send: Any, status: int, message: str, extra: list[tuple[bytes, bytes]] | None = None
) -> None:
    body = json.dumps({"error": message}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                *(extra or []),
                *SECURITY_HEADERS,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
