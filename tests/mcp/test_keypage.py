"""The key page over real HTTP on loopback: a one-time link for one principal, that only a same-origin
POST carrying the link's token can answer (and, for a bearer-token principal, that principal's own
token: a forwarded link takes no one else's key); nothing else gives a key, and the key is never
echoed."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import httpx
import pytest

from exa_orch.config import Secret
from exa_orch.errors import InvalidParams
from exa_orch.mcp.keypage import MAX_PROOF_TRIES, KeyPage
from exa_orch.runtime import BearerTokens
from tests.support import WAIT

KEY = "pasted-exa-key-9876"


class Keys:
    """What the page gives keys to (the gateway's give_api_key / has_key_for)."""

    def __init__(self) -> None:
        self.held: dict[str, str] = {}

    def give(self, principal: str, key: str) -> None:
        if not key.strip():
            raise InvalidParams("the Exa API key is empty", fields=["apiKey"])
        self.held[principal] = key.strip()

    def has(self, principal: str) -> bool:
        return principal in self.held


@pytest.fixture
async def page() -> AsyncIterator[tuple[KeyPage, Keys]]:
    keys = Keys()
    page = KeyPage(keys.give, keys.has)
    try:
        yield page, keys
    finally:
        await page.aclose()


def form(url: str, key: str = KEY, token: str | None = None) -> dict[str, str]:
    return {"token": url.rsplit("/", 1)[1] if token is None else token, "apiKey": key}


async def test_a_link_shows_a_form_for_its_principal_and_takes_one_key(page: tuple[KeyPage, Keys]) -> None:
    kp, keys = page
    link = await kp.open_link("token:alice")
    assert link.url.startswith("http://127.0.0.1:") and link.elicitation_id not in link.url
    async with httpx.AsyncClient() as http:
        shown = await http.get(link.url)
        given = await http.post(link.url, data=form(link.url))
        again = await http.post(link.url, data=form(link.url, "another-key-0000"))
        reopened = await http.get(link.url)
    assert shown.status_code == 200 and "token:alice" in shown.text and 'type="password"' in shown.text
    for header, value in (
        ("cache-control", "no-store"),
        ("referrer-policy", "no-referrer"),
        ("x-frame-options", "DENY"),
    ):
        assert shown.headers[header] == value
    assert "frame-ancestors 'none'" in shown.headers["content-security-policy"]
    assert "set-cookie" not in shown.headers
    assert given.status_code == 200 and KEY not in given.text and link.given.is_set()
    assert again.status_code == 404 and reopened.status_code == 404  # one key per link
    assert keys.held == {"token:alice": KEY}


async def test_only_a_same_origin_post_with_the_links_token_gives_a_key(page: tuple[KeyPage, Keys]) -> None:
    kp, keys = page
    link = await kp.open_link("token:alice")
    other = await kp.open_link("token:bob")
    url = link.url
    origin = url.split("/key/")[0]
    async with httpx.AsyncClient() as http:
        refusals = {
            "no token in the form": await http.post(url, data={"apiKey": KEY}),
            "another link's token": await http.post(url, data=form(other.url)),
            "a guessed link": await http.post(origin + "/key/guessed", data=form(origin + "/key/guessed")),
            "another site": await http.post(url, data=form(url), headers={"origin": "https://evil.example"}),
            "a cross-site fetch": await http.post(
                url, data=form(url), headers={"sec-fetch-site": "cross-site"}
            ),
            "a rebound host name": await http.post(url, data=form(url), headers={"host": "evil.example"}),
            "JSON, not the form": await http.post(url, json=form(url)),
            "a huge body": await http.post(url, data=form(url, "k" * 10_000)),
            "a GET with the key": await http.get(url, params=form(url)),
        }
        same_origin = await http.post(
            url, data=form(url), headers={"origin": origin, "sec-fetch-site": "same-origin"}
        )
    assert {what: r.status_code for what, r in refusals.items()} == {
        "no token in the form": 403,
        "another link's token": 403,
        "a guessed link": 404,
        "another site": 403,
        "a cross-site fetch": 403,
        "a rebound host name": 421,
        "JSON, not the form": 415,
        "a huge body": 413,
        "a GET with the key": 200,  # shows the form; a GET never gives a key
    }
    assert same_origin.status_code == 200
    assert keys.held == {"token:alice": KEY}  # nothing reached Bob, and only the last POST counted


async def test_an_empty_key_shows_the_form_again_and_the_link_stays(page: tuple[KeyPage, Keys]) -> None:
    kp, keys = page
    link = await kp.open_link("user:me")
    async with httpx.AsyncClient() as http:
        empty = await http.post(link.url, data=form(link.url, "   "))
        given = await http.post(link.url, data=form(link.url))
    assert empty.status_code == 400 and "empty" in empty.text and 'type="password"' in empty.text
    assert given.status_code == 200 and keys.held == {"user:me": KEY}


async def test_an_expired_or_closed_link_gives_nothing(page: tuple[KeyPage, Keys]) -> None:
    kp, keys = page
    expired = KeyPage(keys.give, keys.has, ttl=0.0)
    try:
        stale = await expired.open_link("token:alice")
        closed = await kp.open_link("token:bob")
        kp.close_link(closed)  # what a declined elicitation does
        async with httpx.AsyncClient() as http:
            answers = [
                await http.post(stale.url, data=form(stale.url)),
                await http.post(closed.url, data=form(closed.url)),
            ]
        assert not await stale.wait()
    finally:
        await expired.aclose()
    assert [a.status_code for a in answers] == [404, 404] and keys.held == {}


ALICE_TOKEN, BOB_TOKEN = "alice-bearer-token-5e6f", "bob-bearer-token-7a8b"


@pytest.fixture
async def token_page() -> AsyncIterator[tuple[KeyPage, Keys]]:
    """The page of a server with two bearer tokens (token:alice, token:bob)."""
    keys = Keys()
    tokens = BearerTokens({"token:alice": Secret(ALICE_TOKEN), "token:bob": Secret(BOB_TOKEN)})
    page = KeyPage(keys.give, keys.has, tokens=tokens)
    try:
        yield page, keys
    finally:
        await page.aclose()


async def test_a_token_principals_link_takes_a_key_only_from_whoever_holds_that_principals_token(
    token_page: tuple[KeyPage, Keys],
) -> None:
    # Bob's link, forwarded to Alice (phishing): whatever she sends, no key of hers reaches Bob.
    kp, keys = token_page
    link = await kp.open_link("token:bob")
    local = await kp.open_link("user:me")  # the local user is not a token's principal: no proof
    async with httpx.AsyncClient() as http:
        shown = await http.get(link.url)
        shown_local = await http.get(local.url)
        refused = {
            "no token": await http.post(link.url, data=form(link.url, "alice-exa-key")),
            "Alice's own token": await http.post(
                link.url, data={**form(link.url, "alice-exa-key"), "principalToken": ALICE_TOKEN}
            ),
            "a made-up token": await http.post(
                link.url, data={**form(link.url, "alice-exa-key"), "principalToken": "bob-bearer"}
            ),
        }
        assert keys.held == {} and not link.given.is_set()
        given = await http.post(link.url, data={**form(link.url), "principalToken": BOB_TOKEN})
    assert 'name="principalToken"' in shown.text and "token:bob" in shown.text
    assert 'name="principalToken"' not in shown_local.text
    assert {what: r.status_code for what, r in refused.items()} == dict.fromkeys(refused, 403)
    assert all("only token:bob can answer" in r.text and ALICE_TOKEN not in r.text for r in refused.values())
    assert given.status_code == 200 and keys.held == {"token:bob": KEY}


async def test_a_link_answered_with_wrong_tokens_too_often_closes_and_its_ask_ends(
    token_page: tuple[KeyPage, Keys],
) -> None:
    kp, keys = token_page
    link = await kp.open_link("token:alice")
    wrong = {**form(link.url), "principalToken": BOB_TOKEN}
    async with httpx.AsyncClient() as http:
        answers = [(await http.post(link.url, data=wrong)).status_code for _ in range(MAX_PROOF_TRIES)]
        after = await http.post(link.url, data={**form(link.url), "principalToken": ALICE_TOKEN})
    assert answers == [403] * MAX_PROOF_TRIES and after.status_code == 404
    async with asyncio.timeout(WAIT):  # the ask ends now, not when the link would have expired
        assert not await link.wait()
    assert keys.held == {}
