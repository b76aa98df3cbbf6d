"""What the faces that serve HTTP (`serve --http`, `view`) share: one rule for what counts as
loopback, one way to bind, and one way to answer a request in JSON before the app sees it (a
refusal of their auth wrappers), so both refuse and report alike."""

from __future__ import annotations

import ipaddress
import json
import socket
from collections.abc import Sequence
from typing import Any
from urllib.parse import urlsplit

from exa_orch.config import Settings
from exa_orch.errors import ConfigError

__all__ = [
    "LoopbackHosts",
    "bind_listener",
    "host_name",
    "is_loopback",
    "require_token_beyond_loopback",
    "respond_json",
]


def is_loopback(host: str) -> bool:
    """True for 127.0.0.0/8, ::1 and localhost (any case)."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def host_name(header: bytes) -> str:
    """The host name of a Host header (`name`, `name:port`, `[v6]:port`), without port or brackets."""
    text = header.decode("latin-1").strip()
    if text.startswith("["):
        return text[1 : text.find("]")] if "]" in text else text
    return text.rsplit(":", 1)[0] if text.count(":") == 1 else text


class LoopbackHosts:
    """ASGI guard for a face bound to loopback (no DNS rebinding): a request whose Host names
    anything but loopback (421), or whose Origin, when it sends one, is not an http(s) loopback
    origin (403; `null` included), is refused before the app sees it. Loopback is `is_loopback`'s
    word, so every spelling a bind accepts (127.0.0.2, LOCALHOST, [::1]) is guarded alike."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            headers = dict(scope.get("headers") or [])
            if not is_loopback(host_name(headers.get(b"host", b""))):
                await respond_json(
                    send, 421, {"error": "this server answers only requests for a loopback host name"}
                )
                return
            origin = headers.get(b"origin")
            if origin is not None and not _loopback_origin(origin.decode("latin-1")):
                await respond_json(
                    send, 403, {"error": "this server answers only pages of a loopback origin"}
                )
                return
        await self.app(scope, receive, send)


def _loopback_origin(origin: str) -> bool:
    try:
        parts = urlsplit(origin.strip())
        _ = parts.port  # ValueError for a port that is not a number
    except ValueError:
        return False
    return parts.scheme in ("http", "https") and is_loopback(parts.hostname or "")


def bind_listener(host: str, port: int) -> socket.socket:
    """A bound, listening socket on host:port (0 picks a free port); ConfigError naming the cause
    if it can't be."""
    family = socket.AF_INET6 if ":" in host.strip("[]") else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host.strip("[]"), port))
    except OSError as exc:
        sock.close()
        raise ConfigError(
            f"cannot listen on {host}:{port}: {exc.strerror or exc}",
            hint="Pick another --port (0 picks a free one).",
        ) from None
    # Listening already, so a client that reads the URL printed next and connects at once waits
    # in the backlog until the server's loop accepts, instead of being refused (uvicorn listens
    # again when it starts, which is harmless).
    sock.listen(2048)
    return sock


def require_token_beyond_loopback(settings: Settings, host: str, what: str) -> None:
    """Refuse to serve `what` beyond loopback unless bearer tokens are configured (then every
    request needs one)."""
    if not is_loopback(host) and not settings.http_auth:
        raise ConfigError(
            f"refusing to serve {what} on {host}: binding beyond loopback needs a bearer token",
            hint="Set EXA_ORCH_HTTP_TOKEN to a long random secret, or name several with "
            "EXA_ORCH_HTTP_TOKENS=alice=<secret>,bob=<secret> (clients then send "
            "'Authorization: Bearer <token>'), or keep the default --host 127.0.0.1.",
        )


async def respond_json(
    send: Any, status: int, document: Any, headers: Sequence[tuple[bytes, bytes]] = ()
) -> None:
    """Answer an ASGI HTTP request with `document` as JSON and `status`: content-type and
    content-length first, then `headers` as given (a face's own: www-authenticate, its security
    headers)."""
    body = json.dumps(document).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                *headers,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
