"""Bounds on the MCP sessions of `serve --http`, in front of the SDK's session manager.

- The table: at most EXA_ORCH_HTTP_MAX_SESSIONS sessions live at once (the SDK's manager keeps that
  bound: a full table refuses a new session, it never evicts a live one).
- Each principal's share: with bearer tokens, one principal holds at most
  EXA_ORCH_HTTP_MAX_SESSIONS_PER_PRINCIPAL of them (the sessions it is opening count too), so one
  token can't fill the table and lock every other principal out.

Either refusal is HTTP 503 with `Retry-After` and a JSON-RPC error whose number is exa-orch's own
for this meaning (`SESSIONS_FULL`, -32020; docs/reliability.md "Error codes"), never -32603, which
exa-orch keeps for its own bugs: `data` carries the code and a hint saying what to do. Only a request
that would open a session (a POST without `Mcp-Session-Id`, in a handshake-era protocol version)
is ever refused here; a stateless 2026-07-28 request never is.
"""

from __future__ import annotations

import json
import logging
from collections import Counter
from collections.abc import Mapping
from typing import Any

from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser, authorization_context
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from exa_orch.errors import ErrorCode

log = logging.getLogger(__name__)

SESSION_HEADER = b"mcp-session-id"
RETRY_AFTER_S = 30
HINT = (
    "End the MCP sessions you no longer use (HTTP DELETE with their Mcp-Session-Id; an idle one ends "
    "after 30 minutes), then initialize again; the operator can raise {variable}."
)


def refusal_body(message: str, variable: str) -> bytes:
    """The JSON-RPC error (id null) a refused session request is answered with."""
    code = ErrorCode.SESSIONS_FULL
    error = {
        "code": code.rpc_code,
        "message": message,
        "data": {"code": str(code), "hint": HINT.format(variable=variable)},
    }
    return json.dumps({"jsonrpc": "2.0", "id": None, "error": error}).encode()


async def _refuse(send: Send, body: bytes) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": 503,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"retry-after", str(RETRY_AFTER_S).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


def opens_a_session(scope: Scope) -> bool:
    """Whether the SDK's manager would open a session for this POST: no `Mcp-Session-Id`, and a
    handshake-era protocol version or none (a 2026-07-28 request is stateless: it opens none)."""
    headers = {name.lower(): value for name, value in scope.get("headers") or []}
    if SESSION_HEADER in headers:
        return False
    version = headers.get(b"mcp-protocol-version")
    return version is None or version.decode("latin-1") in HANDSHAKE_PROTOCOL_VERSIONS


def _owners(manager: StreamableHTTPSessionManager) -> Mapping[str, Any]:
    """Session id -> the authorization context that opened it, as the SDK's manager keeps it."""
    owners = getattr(manager, "_session_owners", None)
    if not isinstance(owners, Mapping):  # pragma: no cover - caught by tests/mcp/test_session_binding.py
        raise RuntimeError(
            "the mcp SDK's session manager no longer keeps _session_owners: update sessions.py"
        )
    return owners


class SessionLimits:
    """ASGI wrapper (inside BearerAuth, which sets the request's user) applying the module's bounds."""

    def __init__(
        self, app: ASGIApp, manager: StreamableHTTPSessionManager, *, max_sessions: int, per_principal: int
    ) -> None:
        self.app = app
        self.manager = manager
        self.max_sessions = max_sessions
        self.per_principal = per_principal
        self._opening: Counter[str] = Counter()  # principal -> its opening requests in flight
        _owners(manager)  # fail at start, not at the first session, if the SDK changed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method") != "POST":
            await self.app(scope, receive, send)
            return
        if not opens_a_session(scope):
            await self.app(scope, receive, send)
            return
        user = scope.get("user")
        who = authorization_context(user) if isinstance(user, AuthenticatedUser) else None
        name = who["client_id"] if who is not None else ""  # BearerAuth's user: the principal's name
        if who is not None:
            held = sum(1 for owner in _owners(self.manager).values() if owner == who) + self._opening[name]
            if held >= self.per_principal:
                log.warning(
                    "refused a new MCP session for %s: it holds %d, its share (EXA_ORCH_HTTP_MAX_SESSIONS_PER_PRINCIPAL)",
                    name,
                    self.per_principal,
                )
                message = (
                    f"Too many open sessions for {name}: it holds {self.per_principal}, the most one "
                    "principal may hold at once"
                )
                await _refuse(send, refusal_body(message, "EXA_ORCH_HTTP_MAX_SESSIONS_PER_PRINCIPAL"))
                return
            self._opening[name] += 1
        try:
            await self.app(scope, receive, self._table_full_as_ours(send))
        finally:
            if who is not None:
                self._opening[name] -= 1
                if self._opening[name] <= 0:
                    del self._opening[name]

    def _table_full_as_ours(self, send: Send) -> Send:
        """`send`, with the SDK's answer to a full table (503, -32603) replaced by this module's."""
        replaced = False

        async def sending(message: Message) -> None:
            nonlocal replaced
            if message["type"] == "http.response.start" and message["status"] == 503:
                replaced = True
                return
            if replaced:
                if message["type"] == "http.response.body" and not message.get("more_body"):
                    text = (
                        f"Too many open sessions: this server holds {self.max_sessions}, the most it may "
                        "hold at once; no live session is ever ended to make room"
                    )
                    await _refuse(send, refusal_body(text, "EXA_ORCH_HTTP_MAX_SESSIONS"))
                return
            await send(message)

        return sending
