"""The key page: where a person pastes their Exa API key, out of band (MCP URL-mode elicitation).

The MCP specification forbids asking for a secret by a form (the client, and the model, would see
it); a server sends a link instead, and the person gives the secret to the server directly. This is
that link's page: a tiny HTTP listener on 127.0.0.1 (port 0), started on first use, on stdio and
HTTP alike, serving one form per link.

A link (`open_link(principal)`) is `http://127.0.0.1:<port>/key/<token>`:
- the token is 256 random bits, for one principal, valid for `LINK_TTL_S` and for one key only;
- GET shows the form (naming the principal the key will serve); only a POST to the same URL, with
  the same token in its body, from this page's own origin (Origin / Sec-Fetch-Site, when the
  browser sends them), a form body under 4 KB and the page's own Host (no DNS rebinding), gives
  the key; the key goes to that principal alone (`Gateway.give_api_key`), in memory only, and is
  never echoed, logged or stored;
- no cookies, no caching, no referrer (the token never leaves in a Referer), no framing.

The link carries no credential of the MCP session: whoever opens it can only *give* a key, and only
to the principal named on the page. The person must also be that principal (MCP 2025-11-25,
elicitation, "Phishing": the server verifies who opens the link before accepting anything): for a
bearer-token principal (`token:<name>`, `tokens`), the form also takes that principal's own
exa-orch token, the one its MCP client sends, so a link forwarded to someone else (Bob's link, sent
to Alice to have her key sign Bob's calls) takes no key from them; `MAX_PROOF_TRIES` wrong tokens
close the link. The local user's link (stdio, or HTTP without tokens) needs no more: the page is on
loopback, where whoever reaches it is taken for the local user, as by the rest of exa-orch.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import hmac
import html
import logging
import secrets
import socket
import time
import uuid
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs

import uvicorn

from exa_orch.errors import InvalidParams
from exa_orch.net import bind_listener
from exa_orch.runtime import BearerTokens, concerning

log = logging.getLogger(__name__)

LINK_TTL_S = 600.0  # as long as a form elicitation may wait for its person (peer.ELICIT_TIMEOUT_S)
MAX_BODY = 4096
MAX_PROOF_TRIES = 5  # wrong exa-orch tokens on one link before it closes
HOST = "127.0.0.1"
PATH_PREFIX = "/key/"
SECURITY_HEADERS: list[tuple[bytes, bytes]] = [
    (b"cache-control", b"no-store"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (
        b"content-security-policy",
        b"default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; "
        b"base-uri 'none'",
    ),
]


@dataclass
class KeyLink:
    """One link: the URL sent in the elicitation, whose key it asks for, and when it was answered."""

    principal: str
    token: str
    elicitation_id: str
    url: str
    expires: float
    given: asyncio.Event = field(default_factory=asyncio.Event)
    ended: asyncio.Event = field(default_factory=asyncio.Event)  # given, or closed by wrong tokens
    wrong_proofs: int = 0

    async def wait(self) -> bool:
        """Until the key is given (True), or the link expires or is closed unanswered (False)."""
        remaining = self.expires - time.monotonic()
        if remaining <= 0:
            return self.given.is_set()
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(remaining):
                await self.ended.wait()
        return self.given.is_set()


class _Server(uvicorn.Server):
    """uvicorn without its own signal handling: the MCP server's handlers stay in charge."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield


class KeyPage:
    """The page's links and its listener (see the module doc). `give(principal, key)` takes a key
    (InvalidParams if it can't be one); `has_key(principal)` says whether one is held already;
    `tokens` are the HTTP bearer tokens: a link for a principal one of them names takes a key only
    with that token beside it."""

    def __init__(
        self,
        give: Callable[[str, str], None],
        has_key: Callable[[str], bool],
        *,
        tokens: BearerTokens | None = None,
        ttl: float = LINK_TTL_S,
    ) -> None:
        self._give = give
        self.has_key = has_key
        self._tokens = tokens if tokens else None
        self._ttl = ttl
        self._links: dict[str, KeyLink] = {}
        self._asking: dict[str, asyncio.Lock] = {}
        self._server: _Server | None = None
        self._task: asyncio.Task[None] | None = None
        self._sock: socket.socket | None = None
        self._origin: str | None = None
        self._start_lock = asyncio.Lock()

    @property
    def origin(self) -> str | None:
        """`http://127.0.0.1:<port>` once started, else None."""
        return self._origin

    @asynccontextmanager
    async def asking(self, principal: str) -> AsyncIterator[None]:
        """One ask per principal at a time: a second call waits, then finds the key given."""
        lock = self._asking.setdefault(principal, asyncio.Lock())
        async with lock:
            yield

    async def open_link(self, principal: str) -> KeyLink:
        """A new one-time link for `principal` (the listener starts on first use)."""
        origin = await self._start()
        now = time.monotonic()
        for token in [t for t, link in self._links.items() if link.expires <= now]:
            del self._links[token]
        token = secrets.token_urlsafe(32)
        link = KeyLink(
            principal=principal,
            token=token,
            elicitation_id=str(uuid.uuid4()),
            url=f"{origin}{PATH_PREFIX}{token}",
            expires=now + self._ttl,
        )
        self._links[token] = link
        return link

    def close_link(self, link: KeyLink) -> None:
        """The link no longer works (its key was given, its elicitation declined or given up)."""
        self._links.pop(link.token, None)

    async def _start(self) -> str:
        async with self._start_lock:
            if self._origin is not None:
                return self._origin
            sock = self._sock = bind_listener(HOST, 0)
            sock.listen(16)  # connections queue from now on, before uvicorn accepts them
            port = sock.getsockname()[1]
            config = uvicorn.Config(
                self._asgi,
                log_level="warning",
                access_log=False,  # the path holds the token
                interface="asgi3",
                lifespan="off",
                log_config=None,
                proxy_headers=False,
                server_header=False,
                timeout_graceful_shutdown=1,
            )
            self._server = _Server(config)
            # In a context of its own: not the request scope of the call that happened to start it
            # (whose principal the log bridge would credit with every later page's log lines).
            self._task = asyncio.create_task(
                self._server.serve(sockets=[sock]), name="exa-orch key page", context=contextvars.Context()
            )
            self._origin = f"http://{HOST}:{port}"
            log.info("key page listening on %s (loopback only)", self._origin)
            return self._origin

    async def aclose(self) -> None:
        """Stop the listener (if it started); every open link stops working."""
        self._links.clear()
        if self._server is not None and self._task is not None:
            self._server.should_exit = True
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._task, 10)
        if self._sock is not None:
            self._sock.close()
        self._server = self._task = self._sock = None
        self._origin = None

    # ------------------------------------------------------------------ the page

    def needs_proof(self, principal: str) -> bool:
        """Whether `principal`'s link asks for its exa-orch token too (a bearer-token principal)."""
        return self._tokens is not None and principal in self._tokens.names()

    def _proves(self, link: KeyLink, given: str) -> bool:
        """Whether `given` is the exa-orch token of the link's principal (always, when none is asked)."""
        if self._tokens is None or not self.needs_proof(link.principal):
            return True
        return self._tokens.match(given.encode()) == link.principal

    def _live(self, token: str) -> KeyLink | None:
        link = self._links.get(token)
        if link is None or link.expires <= time.monotonic():
            return None
        return link

    async def _asgi(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        """The page's one route, `GET|POST /key/<token>`: the form (GET) or the key sent (POST).
        Another host, path or method, and a link used, declined or expired, are refused."""
        if scope["type"] != "http":
            return
        headers = {k.lower(): v for k, v in scope.get("headers") or []}
        origin = self._origin or ""
        if headers.get(b"host", b"").decode("latin-1") != origin.removeprefix("http://"):
            await _answer(send, 421, "Wrong host", "Open the link exactly as exa-orch gave it.")
            return
        path: str = scope["path"]
        if not path.startswith(PATH_PREFIX):
            await _answer(send, 404, "Not found", "This server only takes Exa API keys by its links.")
            return
        token = path[len(PATH_PREFIX) :]
        method = scope["method"]
        if method not in ("GET", "POST"):
            await _answer(send, 405, "Method not allowed", "", [(b"allow", b"GET, POST")])
            return
        link = self._live(token)
        if link is None:
            await _answer(
                send,
                404,
                "This link is no longer valid",
                "It was used already, declined or expired. Call the tool again to get a new one.",
            )
            return
        if method == "GET":
            await _answer(
                send, 200, "Exa API key", _form(link, token, None, self.needs_proof(link.principal))
            )
            return
        await self._post(link, token, headers, receive, send)

    async def _post(
        self, link: KeyLink, token: str, headers: dict[bytes, bytes], receive: Any, send: Any
    ) -> None:
        """The form sent back: refused from another site, in another encoding, far too large, for
        another link, or without the principal's proof; else its key is given (`_take_key`)."""
        refusal = _cross_site(headers, self._origin or "")
        if refusal is not None:
            await _answer(send, 403, "Refused", refusal)
            return
        if headers.get(b"content-type", b"").split(b";")[0].strip() != b"application/x-www-form-urlencoded":
            await _answer(send, 415, "Refused", "Send the form on this page.")
            return
        body = await _read_body(receive, MAX_BODY)
        if body is None:
            await _answer(send, 413, "Refused", "The form is far larger than a key.")
            return
        fields = parse_qs(body.decode("utf-8", "replace"), keep_blank_values=True)
        sent_token = (fields.get("token") or [""])[0]
        if not hmac.compare_digest(sent_token.encode(), token.encode()):
            await _answer(send, 403, "Refused", "The form does not belong to this link.")
            return
        if not self._proves(link, (fields.get("principalToken") or [""])[0]):
            await self._wrong_proof(link, token, send)
            return
        await self._take_key(link, token, (fields.get("apiKey") or [""])[0], send)

    async def _wrong_proof(self, link: KeyLink, token: str, send: Any) -> None:
        """The form came without the principal's exa-orch token: asked again, and after
        MAX_PROOF_TRIES the link is closed. No key is taken either way."""
        link.wrong_proofs += 1
        log.warning(
            "the key link for %s was answered without %s's exa-orch token: no key taken (%d of %d)",
            link.principal,
            link.principal,
            link.wrong_proofs,
            MAX_PROOF_TRIES,
            extra=concerning(link.principal),
        )
        if link.wrong_proofs >= MAX_PROOF_TRIES:
            self.close_link(link)
            link.ended.set()
            await _answer(
                send,
                403,
                "This link is closed",
                f"<p>It was answered {MAX_PROOF_TRIES} times without the exa-orch token of "
                f"<b>{html.escape(link.principal)}</b>. Nothing was taken. If you are "
                f"{html.escape(link.principal)}, call the tool again to get a new link.</p>",
            )
            return
        problem = (
            f"That is not the exa-orch token of {link.principal}: only {link.principal} can "
            "answer this link. If someone else sent it to you, close this page."
        )
        await _answer(send, 403, "Exa API key", _form(link, token, problem, self.needs_proof(link.principal)))

    async def _take_key(self, link: KeyLink, token: str, key: str, send: Any) -> None:
        """Give `key` for the link's principal (the form again, saying why, if it can't be a key);
        the link is then used up and whoever waits on it is told."""
        try:
            self._give(link.principal, key)
        except InvalidParams as exc:
            await _answer(
                send, 400, "Exa API key", _form(link, token, exc.message, self.needs_proof(link.principal))
            )
            return
        self.close_link(link)
        link.given.set()
        link.ended.set()
        log.info(
            "an Exa API key was given for %s on the key page (held in memory only)",
            link.principal,
            extra=concerning(link.principal),  # heard by that principal's clients alone
        )
        await _answer(
            send,
            200,
            "Key received",
            f"<p>exa-orch will use this key for <b>{html.escape(link.principal)}</b> until it stops "
            "(it is kept in memory only). You can close this page.</p>",
        )


def _cross_site(headers: dict[bytes, bytes], origin: str) -> str | None:
    """Why a POST is refused as coming from another site, or None."""
    sent_origin = headers.get(b"origin")
    if sent_origin is not None and sent_origin.decode("latin-1") != origin:
        return "The form was sent from another site."
    site = headers.get(b"sec-fetch-site")
    if site is not None and site not in (b"same-origin", b"none"):
        return "The form was sent from another site."
    return None


async def _read_body(receive: Any, limit: int) -> bytes | None:
    body = b""
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return None
        chunk: bytes = message.get("body", b"")  # an ASGI http.request message
        body += chunk
        if len(body) > limit:
            return None
        if not message.get("more_body"):
            return body


def _form(link: KeyLink, token: str, problem: str | None, proof: bool) -> str:
    who = html.escape(link.principal)
    said = f'<p class="bad">{html.escape(problem)}</p>' if problem else ""
    prove = (
        f"<p><label>Your exa-orch token (the bearer token your MCP client sends as {who}) "
        '<input type="password" name="principalToken" autocomplete="off" required size="44">'
        "</label></p>"
        if proof
        else ""
    )
    return (
        f"<p>exa-orch asks for an Exa API key for <b>{who}</b>: it will sign the calls to Exa made by "
        f"{who} (and their tasks) while this server runs, and no one else's. It is kept in memory "
        "only: never stored, logged or shown to the MCP client.</p>"
        "<p>If you did not ask for this, or you are not " + who + ", close this page.</p>"
        f"{said}"
        f'<form method="post" action="{PATH_PREFIX}{html.escape(token)}">'
        f'<input type="hidden" name="token" value="{html.escape(token)}">{prove}'
        '<label>Exa API key <input type="password" name="apiKey" autocomplete="off" required '
        'autofocus size="44"></label> <button type="submit">Give the key</button></form>'
        '<p>Get a key at <a href="https://dashboard.exa.ai/api-keys" rel="noreferrer">'
        "dashboard.exa.ai</a>.</p>"
    )


async def _answer(
    send: Any, status: int, title: str, body: str, extra: list[tuple[bytes, bytes]] | None = None
) -> None:
    page = (
        '<!doctype html><html><head><meta charset="utf-8"><title>exa-orch: '
        f"{html.escape(title)}</title><style>body{{font:16px sans-serif;max-width:40em;margin:3em auto}}"
        ".bad{color:#a00}</style></head><body>"
        f"<h1>{html.escape(title)}</h1>{body}</body></html>"
    ).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"text/html; charset=utf-8"),
                (b"content-length", str(len(page)).encode()),
                *SECURITY_HEADERS,
                *(extra or []),
            ],
        }
    )
    await send({"type": "http.response.body", "body": page})
