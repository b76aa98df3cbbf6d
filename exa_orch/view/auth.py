"""Who is looking: the view's guard, the rule of `serve --http`, and whose tasks the caller sees.

The caller's principal is resolved as `serve --http` resolves it (`runtime.BearerTokens` over
the same settings: EXA_ORCH_HTTP_TOKEN as `token:default`, EXA_ORCH_HTTP_TOKENS,
EXA_ORCH_HTTP_TOKENS_FILE; constant-time compares):

- With tokens configured, every request must show one: `Authorization: Bearer <token>`, or the
  sign-in cookie a browser gets by opening any page with `?token=<token>` (the token is then
  dropped from the address bar). The caller is `token:<name>` and sees only its own tasks.
  The cookie holds an expiry (COOKIE_TTL) and an HMAC over it and the token (never the token
  itself), keyed with the server's secret: EXA_ORCH_VIEW_SECRET, or a random one per start (a
  restart then signs everyone out). It is HttpOnly, SameSite=Strict, and Secure when the view is
  served over TLS (scheme https, e.g. behind a TLS proxy that says so).
  A `?token=` link signs in at once only when the person opened it themselves (typed, bookmarked,
  from another app, or from a page of the view: `Sec-Fetch-Site` none or same-origin) and is not
  signed in as someone else. Otherwise (a link or redirect from another site, whose navigation
  carries no SameSite=Strict cookie to tell who is signed in; or a different principal) it shows a
  page asking to confirm: its form POSTs to SIGNIN_PATH with a grant signed over a nonce held in a
  SameSite=Strict cookie set with the page, and that POST must come from the view's own origin.
  Another site can't post a grant of its own (its nonce is not the person's), nor read one.
- Without tokens, only loopback clients are answered, and only when they ask for a loopback host
  name (a web page on another site can't read the view through DNS rebinding). The caller is the
  local user (`user:<login>`), who sees its own tasks and the unowned ones.
- In operator mode (`exa-orch view --all-owners`) the same guard runs, but every caller sees
  every task.
- Only GET and HEAD exist (and, with tokens, the sign-in confirmation POST SIGNIN_PATH, which
  sets a cookie and nothing else): any other method is answered 405 before routing, so nothing
  the view serves can be asked to change anything.

The request's `data.Viewer` goes into its ASGI scope under VIEWER_SCOPE_KEY (`viewer_of`).
"""

from __future__ import annotations

import hashlib
import hmac
import html
import secrets
import time
from collections.abc import Callable
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import parse_qsl, quote, urlencode, urlsplit

from starlette.types import ASGIApp, Scope

from exa_orch.config import Settings
from exa_orch.net import host_name, is_loopback, respond_json
from exa_orch.runtime import BearerTokens, Principal, constant_time_match, local_principal
from exa_orch.view.data import Viewer

COOKIE = "exa_orch_view"
COOKIE_LABEL = b"exa-orch view cookie v1"
COOKIE_TTL = 12 * 3600  # seconds a sign-in lasts
CONFIRM_COOKIE = "exa_orch_view_confirm"  # the nonce a confirmation page's grant is signed over
CONFIRM_TTL = 600  # seconds a confirmation page's form stays good
SIGNIN_PATH = "/signin"
_MAX_FORM = 4096
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
        # (principal, a value proving its token): what each cookie's HMAC covers beside its expiry.
        self._proofs = [(name, value.encode()) for name, value in self._tokens.derived(COOKIE_LABEL)]
        configured = settings.view_key
        secret = configured.reveal().encode() if configured else secrets.token_bytes(32)
        self._key = hashlib.sha256(b"exa-orch view key v2\0" + secret).digest()
        self._local = local_principal(settings)
        self._all_owners = all_owners
        self.clock: Callable[[], float] = time.time  # tests move it to expire a cookie

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
        if self._tokens and scope["method"] == "POST" and scope.get("path") == SIGNIN_PATH:
            await self._confirm(scope, receive, send, headers)
            return
        if scope["method"] not in READ_METHODS:
            await _answer(send, 405, "the view is read-only: only GET and HEAD", [(b"allow", b"GET, HEAD")])
            return
        if not self._tokens:
            client = (scope.get("client") or ("", 0))[0]
            if not is_loopback(str(client)) or not is_loopback(host_name(headers.get(b"host", b""))):
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
            current = self._principal_of(headers)
            if given is not None:
                name = self._tokens.match(given.encode())
                if name is not None:
                    fetched_by = headers.get(b"sec-fetch-site", b"none").decode("latin-1").lower()
                    if fetched_by in ("none", "same-origin") and current in (None, name):
                        await self._login(scope, send, query, name)
                    else:
                        await self._ask_to_confirm(scope, send, query, name, current)
                    return
            name = current
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
        value = _cookie(headers, COOKIE)
        if value is None:
            return None
        expiry, _, mac = value.partition(".")
        if not expiry.isdigit() or int(expiry) <= self.clock():
            return None
        return constant_time_match(mac.encode(), self._cookie_macs(int(expiry)))

    def _cookie_macs(self, expiry: int) -> list[tuple[str, bytes]]:
        """(principal, the MAC its cookie carries for `expiry`) for every principal."""
        return [
            (name, self._mac(b"cookie", str(expiry).encode(), proof).encode()) for name, proof in self._proofs
        ]

    def _mac(self, *parts: bytes) -> str:
        return hmac.new(self._key, b"\0".join(parts), "sha256").hexdigest()

    def _sign_in_cookie(self, scope: Scope, name: str) -> bytes:
        expiry = int(self.clock()) + COOKIE_TTL
        proof = dict(self._proofs)[name]
        value = f"{expiry}.{self._mac(b'cookie', str(expiry).encode(), proof)}"
        return _set_cookie(scope, COOKIE, value, COOKIE_TTL)

    async def _login(self, scope: Scope, send: Any, query: dict[str, str], name: str) -> None:
        location = _next_location(scope, query)
        await _answer(
            send,
            303,
            "signed in",
            [(b"location", location.encode()), (b"set-cookie", self._sign_in_cookie(scope, name))],
        )

    def _grant(self, nonce: str, name: str, expiry: str, location: str) -> str:
        return self._mac(b"grant", nonce.encode(), name.encode(), expiry.encode(), location.encode())

    async def _ask_to_confirm(
        self, scope: Scope, send: Any, query: dict[str, str], name: str, current: str | None
    ) -> None:
        """The page that asks before a ?token= link signs in (see the module docstring)."""
        nonce = secrets.token_hex(16)
        location = _next_location(scope, query)
        expiry = str(int(self.clock()) + CONFIRM_TTL)
        fields = {
            "as": name,
            "exp": expiry,
            "next": location,
            "grant": self._grant(nonce, name, expiry, location),
        }
        hidden = "".join(
            f'<input type="hidden" name="{k}" value="{html.escape(v, quote=True)}">'
            for k, v in fields.items()
        )
        now = (
            f"<p>You are signed in as <b>{html.escape(current)}</b>.</p>"
            if current is not None
            else "<p>If you are signed in already, signing in replaces it.</p>"
        )
        page = (
            '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>exa-orch view: sign in?</title>'
            "</head><body><h1>Sign in to the exa-orch view?</h1>"
            f"<p>A link asks to sign this browser in as <b>{html.escape(name)}</b>.</p>{now}"
            "<p>Only go on if you opened this link yourself: a sign-in made for you by another site "
            "would show you someone else's tasks.</p>"
            f'<form method="post" action="{SIGNIN_PATH}">{hidden}'
            f'<button type="submit" id="confirm">Sign in as {html.escape(name)}</button></form>'
            f'<p><a id="cancel" href="{html.escape(location, quote=True)}">No, leave it as it is</a></p>'
            "</body></html>"
        ).encode()
        nonce_cookie = _set_cookie(scope, CONFIRM_COOKIE, nonce, CONFIRM_TTL, path=SIGNIN_PATH)
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [
                    (b"content-type", b"text/html; charset=utf-8"),
                    (b"content-length", str(len(page)).encode()),
                    (b"set-cookie", nonce_cookie),
                    # Its form's POST then carries the view's Origin (under no-referrer, "null").
                    *[(k, b"same-origin" if k == b"referrer-policy" else v) for k, v in SECURITY_HEADERS],
                ],
            }
        )
        await send({"type": "http.response.body", "body": page})

    async def _confirm(self, scope: Scope, receive: Any, send: Any, headers: dict[bytes, bytes]) -> None:
        """POST SIGNIN_PATH: the confirmation page's form; signs in only with a grant made for the
        nonce this browser holds, posted from the view's own origin, before its expiry."""
        fetched_by = headers.get(b"sec-fetch-site", b"same-origin").decode("latin-1").lower()
        origin = headers.get(b"origin")
        if fetched_by != "same-origin" or (origin is not None and not _same_origin(origin, headers)):
            await _answer(send, 403, "sign-in refused: the confirmation must be posted from the view itself")
            return
        body = await _read_body(receive, _MAX_FORM)
        form = dict(parse_qsl(body.decode("latin-1"))) if body is not None else {}
        nonce = _cookie(headers, CONFIRM_COOKIE)
        name, expiry, location = form.get("as", ""), form.get("exp", ""), form.get("next", "/")
        good = (
            nonce is not None
            and expiry.isdigit()
            and int(expiry) > self.clock()
            and name in dict(self._proofs)
            and location.startswith("/")
            and not location.startswith("//")
            and hmac.compare_digest(
                form.get("grant", "").encode(), self._grant(nonce, name, expiry, location).encode()
            )
        )
        if not good:
            await _answer(
                send,
                403,
                "sign-in refused: the confirmation is stale or was not made for this browser; "
                "open the ?token= link again",
            )
            return
        clear = _set_cookie(scope, CONFIRM_COOKIE, "", 0, path=SIGNIN_PATH)
        await _answer(
            send,
            303,
            "signed in",
            [
                (b"location", location.encode()),
                (b"set-cookie", self._sign_in_cookie(scope, name)),
                (b"set-cookie", clear),
            ],
        )


def _cookie(headers: dict[bytes, bytes], name: str) -> str | None:
    jar = SimpleCookie()
    try:
        jar.load(headers.get(b"cookie", b"").decode("latin-1"))
    except Exception:  # a malformed Cookie header is just no cookie
        return None
    morsel = jar.get(name)
    return None if morsel is None else morsel.value


def _set_cookie(scope: Scope, name: str, value: str, max_age: int, *, path: str = "/") -> bytes:
    """A Set-Cookie value: HttpOnly, SameSite=Strict, an expiry, Secure when served over TLS."""
    secure = "; Secure" if scope.get("scheme") == "https" else ""
    return f"{name}={value}; Path={path}; Max-Age={max_age}; HttpOnly; SameSite=Strict{secure}".encode()


def _next_location(scope: Scope, query: dict[str, str]) -> str:
    """Where a sign-in goes on to: the same page, its query without the token."""
    rest = urlencode({k: v for k, v in query.items() if k != "token"})
    # Quoted, and never starting with "//", which a browser would take for another host.
    path = "/" + quote(str(scope.get("path", "/"))).lstrip("/")
    return path + (f"?{rest}" if rest else "")


def _same_origin(origin: bytes, headers: dict[bytes, bytes]) -> bool:
    """Whether an Origin header names the host this request was sent to."""
    try:
        netloc = urlsplit(origin.decode("latin-1")).netloc.lower()
    except ValueError:
        return False
    return bool(netloc) and netloc == headers.get(b"host", b"").decode("latin-1").lower()


async def _read_body(receive: Any, limit: int) -> bytes | None:
    """The request body, or None past `limit` bytes."""
    body = b""
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return None
        chunk: bytes = message.get("body", b"")  # an ASGI http.request message
        body += chunk
        if len(body) > limit:
            return None
        if not message.get("more_body", False):
            return body


async def _answer(
    send: Any, status: int, message: str, extra: list[tuple[bytes, bytes]] | None = None
) -> None:
    """The view's refusals and its sign-in redirect: {"error": message}, with the security headers."""
    await respond_json(send, status, {"error": message}, [*(extra or []), *SECURITY_HEADERS])
