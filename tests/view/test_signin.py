"""Signing in to the view with tokens: a `?token=` link never replaces a sign-in unasked, the
confirmation can't be forged by another site, and the cookie expires, is Secure over TLS and is
keyed with the server's secret.

In process (httpx on the ASGI guard, around an app that says who it serves), then in a real
headless chromium with a second site on another origin.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse
from starlette.routing import Route

from exa_orch.config import Secret, Settings
from exa_orch.errors import ConfigError
from exa_orch.net import bind_listener
from exa_orch.store import Store
from exa_orch.view.auth import CONFIRM_COOKIE, COOKIE, COOKIE_TTL, SIGNIN_PATH, ViewGuard, viewer_of
from tests.view.conftest import ServeView

ALICE, BOB = "tok-alice-0123456789", "tok-bob-9876543210"
TOKENS = (("alice", Secret(ALICE)), ("bob", Secret(BOB)))
HIDDEN = re.compile(r'<input type="hidden" name="(\w+)" value="([^"]*)">')


def _whoami_app() -> Starlette:
    async def whoami(request: Request) -> PlainTextResponse:
        return PlainTextResponse(viewer_of(request.scope).principal.name)

    return Starlette(routes=[Route("/{path:path}", whoami, methods=["GET"])])


def _guard(secret: str | None = None) -> ViewGuard:
    settings = Settings(http_tokens=TOKENS, view_key=Secret(secret) if secret else None)
    return ViewGuard(_whoami_app(), settings)


def _client(guard: ViewGuard, scheme: str = "http") -> httpx.AsyncClient:
    transport = httpx.ASGITransport(app=guard, client=("127.0.0.1", 40000))
    return httpx.AsyncClient(transport=transport, base_url=f"{scheme}://view.example")


async def _who(c: httpx.AsyncClient) -> str | int:
    answer = await c.get("/whoami")
    return answer.text if answer.status_code == 200 else answer.status_code


def _fields(page: str) -> dict[str, str]:
    return {k: v.replace("&amp;", "&") for k, v in HIDDEN.findall(page)}


SAME_ORIGIN = {"sec-fetch-site": "same-origin", "origin": "http://view.example"}


async def test_a_token_link_asks_before_it_replaces_a_sign_in_and_the_ask_cannot_be_forged() -> None:
    guard = _guard()
    async with _client(guard) as c, _client(guard) as mallory:
        login = await c.get(f"/tasks?token={ALICE}", headers={"sec-fetch-site": "none"})
        assert login.status_code == 303 and login.headers["location"] == "/tasks"
        assert await _who(c) == "token:alice"
        # Signed in as Alice, a link to Bob's sign-in asks; nothing changes until she answers.
        for fetched_by in ("none", "cross-site", "same-site", "same-origin"):
            asked = await c.get(f"/?token={BOB}&x=1", headers={"sec-fetch-site": fetched_by})
            assert asked.status_code == 200 and 'action="/signin"' in asked.text
            assert "token:alice" in asked.text and "token:bob" in asked.text
            assert all(not v.startswith(f"{COOKIE}=") for v in asked.headers.get_list("set-cookie"))
            assert await _who(c) == "token:alice"
        # From another site, even a browser with no sign-in is asked (a SameSite=Strict cookie is
        # not sent on that navigation, so the view can't tell whether someone is signed in).
        asked = await mallory.get(f"/?token={BOB}", headers={"sec-fetch-site": "cross-site"})
        assert asked.status_code == 200 and await _who(mallory) == 401
        malloryss = _fields(asked.text)

        # Alice's own page, confirmed from the view's origin: signed in as Bob.
        page = await c.get(f"/?token={BOB}&x=1", headers={"sec-fetch-site": "cross-site"})
        form = _fields(page.text)
        assert set(form) == {"as", "exp", "next", "grant"} and form["next"] == "/?x=1"
        assert BOB not in page.text  # the page carries a signed grant, never the token
        refusals = [
            (malloryss, SAME_ORIGIN),  # another browser's grant: not made for Alice's nonce
            ({**form, "as": "token:alice"}, SAME_ORIGIN),  # a grant for someone else
            ({**form, "next": "//evil.example/"}, SAME_ORIGIN),
            (form, {"sec-fetch-site": "cross-site"}),  # posted by another site
            (form, {"sec-fetch-site": "same-origin", "origin": "http://evil.example"}),
            (form, {"sec-fetch-site": "same-origin", "origin": "null"}),
        ]
        for data, headers in refusals:
            answer = await c.post(SIGNIN_PATH, data=data, headers=headers)
            assert answer.status_code == 403, (data, headers)
            assert await _who(c) == "token:alice"
        nonce = c.cookies.get(CONFIRM_COOKIE)
        c.cookies.delete(CONFIRM_COOKIE)
        assert (await c.post(SIGNIN_PATH, data=form, headers=SAME_ORIGIN)).status_code == 403
        c.cookies.set(CONFIRM_COOKIE, nonce or "", path=SIGNIN_PATH)
        confirmed = await c.post(SIGNIN_PATH, data=form, headers=SAME_ORIGIN)
        assert confirmed.status_code == 303 and confirmed.headers["location"] == "/?x=1"
        assert await _who(c) == "token:bob"
        # A confirmation page left open too long no longer signs in.
        stale = _fields((await c.get(f"/?token={ALICE}", headers={"sec-fetch-site": "cross-site"})).text)
        now = guard.clock()
        guard.clock = lambda: now + 3600
        assert (await c.post(SIGNIN_PATH, data=stale, headers=SAME_ORIGIN)).status_code == 403
        # Only the sign-in POST exists: anything else posted is still 405.
        assert (await c.post("/", data=form, headers=SAME_ORIGIN)).status_code == 405


async def test_the_cookie_expires_is_secure_over_tls_and_is_keyed_with_the_server_secret() -> None:
    guard = _guard()
    async with _client(guard) as c:
        cookie = (await c.get(f"/?token={ALICE}")).headers["set-cookie"]
        assert f"Max-Age={COOKIE_TTL}" in cookie and "HttpOnly" in cookie and "SameSite=Strict" in cookie
        assert "Secure" not in cookie and ALICE not in cookie
        value = c.cookies[COOKIE]
        expiry, mac = value.split(".")
        assert await _who(c) == "token:alice"
        c.cookies.set(COOKIE, f"{int(expiry) + 10 * COOKIE_TTL}.{mac}")  # a later expiry, same MAC
        assert await _who(c) == 401
        c.cookies.set(COOKIE, value)
        now = guard.clock()
        guard.clock = lambda: now + COOKIE_TTL + 1
        assert await _who(c) == 401  # expired
    async with _client(_guard(), scheme="https") as tls:
        assert "; Secure" in (await tls.get(f"/?token={ALICE}")).headers["set-cookie"]
    # A restart makes a new secret unless one is configured: the old cookie signs in no one.
    async with _client(_guard()) as restarted:
        restarted.cookies.set(COOKIE, value)
        assert await _who(restarted) == 401
    kept = "a-configured-view-secret-0123"
    async with _client(_guard(kept)) as before, _client(_guard(kept)) as after:
        await before.get(f"/?token={BOB}")
        after.cookies.set(COOKIE, before.cookies[COOKIE])
        assert await _who(after) == "token:bob"
    assert Settings.from_env({"EXA_ORCH_VIEW_SECRET": kept}).view_key == Secret(kept)
    with pytest.raises(ConfigError, match="EXA_ORCH_VIEW_SECRET") as short:
        Settings.from_env({"EXA_ORCH_VIEW_SECRET": "short"})
    assert "short" not in str(short.value)


@asynccontextmanager
async def _other_site(view_url: str, forged: dict[str, str]) -> AsyncIterator[str]:
    """A page on another origin (localhost, where the view is on 127.0.0.1): a link to Bob's
    sign-in, and a form that posts a grant it got for itself to the view's sign-in."""
    inputs = "".join(f'<input type="hidden" name="{k}" value="{v}">' for k, v in forged.items())
    page = (
        f'<a id="link" href="{view_url}/?token={BOB}">cute cats</a>'
        f'<form id="forge" method="post" action="{view_url}{SIGNIN_PATH}">{inputs}<button>go</button></form>'
    )

    async def home(request: Request) -> HTMLResponse:
        return HTMLResponse(page)

    sock = bind_listener("127.0.0.1", 0)
    sock.listen(16)
    server = uvicorn.Server(
        uvicorn.Config(
            Starlette(routes=[Route("/", home)]),
            lifespan="off",
            log_level="warning",
            access_log=False,
            log_config=None,
        )
    )
    task = asyncio.create_task(server.serve(sockets=[sock]))
    try:
        yield f"http://localhost:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        await task
        sock.close()


async def test_in_chromium_a_cross_site_token_link_leaves_alice_signed_in_as_alice(
    serve_view: ServeView, browser: Any, tmp_path: Path
) -> None:
    async with Store(tmp_path / "workflows.db"):
        pass  # a migrated database for the view
    settings = Settings(http_tokens=TOKENS)
    async with serve_view(tmp_path / "workflows.db", settings=settings) as url:
        async with httpx.AsyncClient() as mallory:  # Bob's own confirmation page, for his forgery
            asked = await mallory.get(f"{url}/?token={BOB}", headers={"sec-fetch-site": "cross-site"})
        async with _other_site(url, _fields(asked.text)) as elsewhere:
            page = await browser.new_page()
            await page.goto(f"{url}/?token={ALICE}")  # typed by Alice: signs in at once
            assert "as token:alice" in await page.locator("header").inner_text()
            assert page.url == f"{url}/"

            await page.goto(elsewhere)
            await page.click("#link")  # another site's link to Bob's sign-in
            await page.wait_for_selector("#confirm")
            assert "token:bob" in await page.locator("#confirm").inner_text()
            await page.goto(f"{url}/")
            assert "as token:alice" in await page.locator("header").inner_text()

            await page.goto(elsewhere)
            await page.click("#forge >> text=go")  # another site posts Bob's own grant
            await page.wait_for_load_state()
            assert "sign-in refused" in await page.content()
            await page.goto(f"{url}/")
            assert "as token:alice" in await page.locator("header").inner_text()

            # Alice herself follows a link to Bob's sign-in and confirms: now she is Bob.
            await page.goto(f"{url}/?token={BOB}")
            await page.click("#confirm")
            await page.wait_for_url(f"{url}/")
            assert "as token:bob" in await page.locator("header").inner_text()
