"""Who is calling: bearer tokens on HTTP, the local user on stdio, as a runtime `Principal`.

- stdio: the local user, `user:<login>` (`Settings.principal`; EXA_ORCH_PRINCIPAL overrides it,
  for tests only).
- HTTP with tokens configured (EXA_ORCH_HTTP_TOKEN, EXA_ORCH_HTTP_TOKENS, EXA_ORCH_HTTP_TOKENS_FILE):
  every request must present one (`BearerAuth`, 401 otherwise); its principal is `token:<name>`
  (`token:default` for the unnamed EXA_ORCH_HTTP_TOKEN). Tokens are compared in constant time,
  each against every configured one.
- HTTP without tokens (allowed on loopback only, see transport.check_bind): the local user, as on
  stdio: anyone who can reach a loopback port on this host can also open the database file.

Only the local user sees tasks that predate ownership (their owner is NULL).

An MCP session (Mcp-Session-Id) is bound to the principal that opened it: another token
presenting that id is answered as for an unknown session (404), so it can't read the session's
stream (task status notifications) either.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_REQUEST
from starlette.types import ASGIApp, Scope

from exa_orch.config import Secret, Settings
from exa_orch.net import respond_json
from exa_orch.runtime import BearerTokens, Principal, local_principal

# Where BearerAuth leaves the authenticated principal's name in the ASGI scope of a request.
PRINCIPAL_SCOPE_KEY = "exa_orch.principal"
SESSION_HEADER = b"mcp-session-id"
MAX_SESSIONS = 10_000  # session -> principal entries kept (oldest dropped; a session id is unguessable)
# What the SDK answers for a session id it doesn't know; another principal's session gets the same.
_NO_SESSION = {"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "Session not found"}}


def request_principal(settings: Settings, request: Any) -> Principal:
    """The principal of one MCP request; `request` is the HTTP request (None on stdio).

    Fails closed: with tokens configured, a request BearerAuth did not authenticate is refused.
    """
    scope = getattr(request, "scope", None)
    if scope is None:
        return local_principal(settings)
    name = scope.get(PRINCIPAL_SCOPE_KEY)
    if isinstance(name, str) and name:
        return Principal(name)
    if settings.http_auth:
        raise MCPError(code=INVALID_REQUEST, message="unauthenticated request: send a bearer token")
    return local_principal(settings)


class BearerAuth:
    """ASGI wrapper: every HTTP request must carry `Authorization: Bearer <token>` of a known principal.

    `tokens` maps principal name -> token (a lone Secret is `token:default`). The request's
    principal goes into its scope under PRINCIPAL_SCOPE_KEY.
    """

    def __init__(self, app: ASGIApp, tokens: Secret | Mapping[str, Secret]) -> None:
        self.app = app
        named = {"token:default": tokens} if isinstance(tokens, Secret) else dict(tokens)
        if not named:
            raise ValueError("BearerAuth needs at least one token")
        self._tokens = BearerTokens(named)
        self._sessions: OrderedDict[bytes, str] = OrderedDict()  # Mcp-Session-Id -> who opened it

    def principal_of(self, header: bytes) -> str | None:
        """The principal whose token the Authorization header carries, or None."""
        return self._tokens.principal_of(header)

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        principal = self.principal_of(headers.get(b"authorization", b""))
        if principal is None:
            refusal = {
                "error": "unauthorized: send 'Authorization: Bearer <token>' with one of the "
                "server's tokens (EXA_ORCH_HTTP_TOKEN, EXA_ORCH_HTTP_TOKENS)"
            }
            await respond_json(send, 401, refusal, [(b"www-authenticate", b"Bearer")])
            return
        session = headers.get(SESSION_HEADER)
        if session is not None and self._sessions.get(session, principal) != principal:
            await respond_json(send, 404, _NO_SESSION)
            return
        scope[PRINCIPAL_SCOPE_KEY] = principal

        async def send_noting_session(message: Any) -> None:
            if message["type"] == "http.response.start":
                opened = dict(message.get("headers") or []).get(SESSION_HEADER)
                if opened is not None and opened not in self._sessions:
                    self._sessions[opened] = principal
                    while len(self._sessions) > MAX_SESSIONS:
                        self._sessions.popitem(last=False)
            await send(message)

        await self.app(scope, receive, send_noting_session)
