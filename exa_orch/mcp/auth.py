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

An MCP session (Mcp-Session-Id) is bound to the principal that opened it, for as long as it lives:
BearerAuth hands the SDK's session manager the principal as the request's authenticated user, and
the manager keeps each session's owner beside the session itself, so the binding leaves only with
the session (DELETE, idle timeout, shutdown). Another token presenting that id is answered as for
an unknown session (404), so it can't read the session's stream (task status notifications)
either. The table of live sessions is bounded (EXA_ORCH_HTTP_MAX_SESSIONS), and so is each
principal's share of it (`sessions.SessionLimits`): a full table refuses a new session with 503
and never evicts a live one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser
from mcp.server.auth.provider import AccessToken
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_REQUEST
from starlette.types import ASGIApp, Scope

from exa_orch.config import Secret, Settings
from exa_orch.net import respond_json
from exa_orch.runtime import BearerTokens, Principal, local_principal

# Where BearerAuth leaves the authenticated principal's name in the ASGI scope of a request.
PRINCIPAL_SCOPE_KEY = "exa_orch.principal"


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
        # One user per principal, made once: what the session manager binds each session to.
        self._users = {
            name: AuthenticatedUser(AccessToken(token="", client_id=name, scopes=[])) for name in named
        }

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
        scope[PRINCIPAL_SCOPE_KEY] = principal
        # The SDK's session manager binds a new session to this user and refuses (404, as for an
        # unknown id) a request whose user is not the one its session was opened by.
        scope["user"] = self._users[principal]
        await self.app(scope, receive, send)
