"""Who is looking: the view's guard, the rule of `serve --http`, and whose tasks the caller sees.

The caller's principal is resolved as `serve --http` resolves it (`runtime.BearerTokens` over
the same settings: EXA_ORCH_HTTP_TOKEN as `token:default`, EXA_ORCH_HTTP_TOKENS,
EXA_ORCH_HTTP_TOKENS_FILE; constant-time compares):

- With tokens configured, every request must show one: `Authorization: Bearer <token>`, or the
  cookie a browser gets by opening any page once with `?token=<token>` (the cookie holds an HMAC
  of the token, never the token itself; the token is then dropped from the address bar). The
  caller is `token:<name>` and sees only its own tasks.
- Without tokens, only loopback clients are answered, and only when they ask for a loopback host
  name (a web page on another site can't read the view through DNS rebinding). The caller is the
  local user (`user:<login>`), who sees its own tasks and the unowned ones.
- In operator mode (`exa-orch view --all-owners`) the same guard runs, but every caller sees
  every task.
- Only GET and HEAD exist: any other method is answered 405 before routing, so nothing the view
  serves can be asked to change anything.

The request's `data.Viewer` goes into its ASGI scope under VIEWER_SCOPE_KEY (`viewer_of`).
"""

from __future__ import annotations

from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import parse_qsl, quote, urlencode

from starlette.types import ASGIApp, Scope

from exa_orch.config import Settings
from exa_orch.net import is_loopback, respond_json
from exa_orch.runtime import BearerTokens, Principal, constant_time_match, local_principal
from exa_orch.view.data import Viewer

COOKIE = "exa_orch_view"
COOKIE_LABEL = b"exa-orch view cookie v1"
VIEWER_SCOPE_KEY = "exa_orch.view.viewer"
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


def _host_name(header: bytes) -> str:
    text = header.decode("latin-1").strip()
    if text.startswith("["):
        return text[1 : text.find("]")] if "]" in text else text
    return text.rsplit(":", 1)[0] if text.count(":") == 1 else text


def viewer_of(scope: Scope) -> Viewer:
    """The viewer ViewGuard resolved for this request; fails closed (KeyError) if it did not run."""
    viewer = scope[VIEWER_SCOPE_KEY]
    assert isinstance(viewer, Viewer)
    return viewer


class ViewGuard:
    """ASGI wrapper: read-only methods, the principal rule above, and the security headers.

    `all_owners`: operator mode, every authenticated caller sees every task.
    """

    def __init__(self, app: ASGIApp, settings: Settings, *, all_owners: bool = False) -> None:
        self.app = app
        self._tokens = BearerTokens.from_settings(settings)
        self._cookies = self._tokens.derived(COOKIE_LABEL)  # (principal, cookie value)
        self._cookie_values = [(principal, value.encode()) for principal, value in self._cookies]
        self._local = local_principal(settings)
        self._all_owners = all_owners

    def _viewer(self, principal: Principal) -> Viewer:
        return Viewer.all_owners() if self._all_owners else Viewer(principal)

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
        if not self._tokens:
            client = (scope.get("client") or ("", 0))[0]
            if not is_loopback(str(client)) or not is_loopback(_host_name(headers.get(b"host", b""))):
                await _answer(
                    send,
                    403,
                    "this view answers loopback only; configure EXA_ORCH_HTTP_TOKENS (or "
                    "EXA_ORCH_HTTP_TOKEN) to serve it further",
                )
                return
            scope[VIEWER_SCOPE_KEY] = self._viewer(self._local)
        else:
            query = dict(parse_qsl(scope.get("query_string", b"").decode("latin-1")))
            given = query.get("token")
            if given is not None:
                name = self._tokens.match(given.encode())
                if name is not None:
                    await self._login(scope, send, query, name)
                    return
            name = self._principal_of(headers)
            if name is None:
                await _answer(
                    send,
                    401,
                    "unauthorized: send 'Authorization: Bearer <token>' with one of the server's tokens "
                    "(EXA_ORCH_HTTP_TOKEN, EXA_ORCH_HTTP_TOKENS), or open the page once with ?token=<token>",
                    [(b"www-authenticate", b"Bearer")],
                )
                return
            scope[VIEWER_SCOPE_KEY] = self._viewer(Principal(name))

        async def secured(message: Any) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
            await send(message)

        await self.app(scope, receive, secured)

    def _principal_of(self, headers: dict[bytes, bytes]) -> str | None:
        name = self._tokens.principal_of(headers.get(b"authorization", b""))
        if name is not None:
            return name
        jar = SimpleCookie()
        try:
            jar.load(headers.get(b"cookie", b"").decode("latin-1"))
        except Exception:  # a malformed Cookie header is just no cookie
            return None
        morsel = jar.get(COOKIE)
        if morsel is None:
            return None
        return constant_time_match(morsel.value.encode(), self._cookie_values)

    async def _login(self, scope: Scope, send: Any, query: dict[str, str], name: str) -> None:
        cookie_value = dict(self._cookies)[name]
        rest = urlencode({k: v for k, v in query.items() if k != "token"})
        # Quoted, and never starting with "//", which a browser would take for another host.
        path = "/" + quote(str(scope.get("path", "/"))).lstrip("/")
        location = path + (f"?{rest}" if rest else "")
        cookie = f"{COOKIE}={cookie_value}; Path=/; HttpOnly; SameSite=Strict"
        await _answer(
            send, 303, "signed in", [(b"location", location.encode()), (b"set-cookie", cookie.encode())]
        )


async def _answer(
    send: Any, status: int, message: str, extra: list[tuple[bytes, bytes]] | None = None
) -> None:
    """The view's refusals and its sign-in redirect: {"error": message}, with the security headers."""
    await respond_json(send, status, {"error": message}, [*(extra or []), *SECURITY_HEADERS])
