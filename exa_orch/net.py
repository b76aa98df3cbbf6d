"""Listening sockets for the faces that serve HTTP (`serve --http`, `view`): one rule for what
counts as loopback and one way to bind, so both refuse and report alike."""

from __future__ import annotations

import ipaddress
import socket

from exa_orch.config import Settings
from exa_orch.errors import ConfigError

__all__ = ["bind_listener", "is_loopback", "require_token_beyond_loopback"]


def is_loopback(host: str) -> bool:
    """True for 127.0.0.0/8, ::1 and localhost (any case)."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def bind_listener(host: str, port: int) -> socket.socket:
    """A bound socket on host:port (0 picks a free port); ConfigError naming the cause if it can't be."""
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
