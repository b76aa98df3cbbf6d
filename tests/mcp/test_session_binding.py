"""An MCP session over HTTP belongs to the principal that opened it, for as long as it lives.

Real `exa-orch serve --http` processes with two named tokens, driven by raw HTTP: Bob can't use
Alice's session id, before or after he opened (and closed) as many sessions as the table holds; a
full table refuses a new session (503, SESSIONS_FULL) instead of evicting a live one; deleting a
session frees its place, and its id then answers no one; no principal holds more than its share, so
Bob can't fill the table to lock Alice out.
"""

from __future__ import annotations

import asyncio
import os
from collections import Counter
from pathlib import Path

import httpx
import pytest

from exa_orch.errors import ErrorCode
from tests.support import WAIT

from .conftest import initialize_request
from .test_serve_http import http_server

pytestmark = pytest.mark.slow

ALICE, BOB = "alice-secret-9f8e7d6c", "bob-secret-5b4a3928"
ENV = {"EXA_ORCH_HTTP_TOKENS": f"alice={ALICE},bob={BOB}"}
ACCEPT = {"accept": "application/json, text/event-stream", "content-type": "application/json"}
PING = {"jsonrpc": "2.0", "id": 2, "method": "ping"}


def _headers(token: str, session: str | None = None) -> dict[str, str]:
    headers = {**ACCEPT, "authorization": f"Bearer {token}"}
    if session is not None:
        headers |= {"mcp-session-id": session, "mcp-protocol-version": "2025-11-25"}
    return headers


async def _open(http: httpx.AsyncClient, url: str, token: str) -> httpx.Response:
    """An initialize request without a session id: opens a session (its id in the answer's header)."""
    return await http.post(url, json=initialize_request(1), headers=_headers(token))


async def _session(http: httpx.AsyncClient, url: str, token: str) -> str:
    opened = await _open(http, url, token)
    assert opened.status_code == 200, opened.text
    return opened.headers["mcp-session-id"]


async def _ping(http: httpx.AsyncClient, url: str, token: str, session: str) -> int:
    return (await http.post(url, json=PING, headers=_headers(token, session))).status_code


async def _close(http: httpx.AsyncClient, url: str, token: str, session: str) -> None:
    assert (await http.delete(url, headers=_headers(token, session))).status_code == 200


def _assert_sessions_full(refused: httpx.Response, variable: str) -> None:
    """exa-orch's own code for a refused session (never -32603, which is kept for its bugs)."""
    error = refused.json()["error"]
    assert error["code"] == ErrorCode.SESSIONS_FULL.rpc_code == -32020, error
    assert error["data"]["code"] == "SESSIONS_FULL" and variable in error["data"]["hint"]
    assert "too many open sessions" in error["message"].lower()
    assert int(refused.headers["retry-after"]) > 0


async def test_a_full_table_refuses_new_sessions_and_never_gives_a_live_one_to_another_token(
    sim_url: str, tmp_path: Path
) -> None:
    size = 12
    with http_server(sim_url, tmp_path, **ENV, EXA_ORCH_HTTP_MAX_SESSIONS=str(size)) as (_proc, url):
        async with httpx.AsyncClient(timeout=WAIT) as http:
            alice = await _session(http, url, ALICE)
            assert await _ping(http, url, ALICE, alice) == 200
            assert await _ping(http, url, BOB, alice) == 404
            # Bob fills the table: the session that would not fit is refused, Alice's stays hers.
            bobs = [await _session(http, url, BOB) for _ in range(size - 1)]
            refused = await _open(http, url, BOB)
            assert refused.status_code == 503 and "mcp-session-id" not in refused.headers
            _assert_sessions_full(refused, "EXA_ORCH_HTTP_MAX_SESSIONS")
            assert await _ping(http, url, BOB, alice) == 404
            assert await _ping(http, url, ALICE, alice) == 200
            assert all([await _ping(http, url, BOB, sid) == 200 for sid in bobs])
            # Deleting a session frees its place (and its binding with it).
            await _close(http, url, BOB, bobs.pop())
            bobs.append(await _session(http, url, BOB))
            assert (await _open(http, url, BOB)).status_code == 503
            # Alice ends hers: from then on its id answers no one, and its place is free.
            assert (await http.delete(url, headers=_headers(BOB, alice))).status_code == 404
            await _close(http, url, ALICE, alice)
            assert await _ping(http, url, ALICE, alice) == 404
            assert await _ping(http, url, BOB, alice) == 404
            assert (await _open(http, url, BOB)).status_code == 200


# Opening and closing 10,000 sessions at the default table size takes 80-130 s on the 2-core
# development machine, beyond the suite's per-test bound; the same property (more newer sessions
# than the table holds) is checked on a table of 50 with 8 times as many. The full figure runs
# with EXA_ORCH_TEST_FULL_SESSION_TABLE=1 (the default table, 10,000 newer sessions).
FULL = bool(os.environ.get("EXA_ORCH_TEST_FULL_SESSION_TABLE"))


@pytest.mark.timeout(900 if FULL else 120)
async def test_bob_cannot_use_alices_session_after_more_newer_sessions_than_the_table_holds(
    sim_url: str, tmp_path: Path
) -> None:
    # Bob opens and closes more sessions than the table holds while Alice's stays open; every
    # binding leaves with its session, so Alice's is still there and Bob's token is still refused.
    table, newer = (None, 10_000) if FULL else (50, 400)
    env = {**ENV, "EXA_ORCH_LOG_LEVEL": "WARNING"}
    if table is not None:
        env["EXA_ORCH_HTTP_MAX_SESSIONS"] = str(table)
    with http_server(sim_url, tmp_path, **env) as (_proc, url):
        limits = httpx.Limits(max_connections=8, max_keepalive_connections=8)
        async with httpx.AsyncClient(timeout=WAIT, limits=limits) as http:
            alice = await _session(http, url, ALICE)
            assert await _ping(http, url, BOB, alice) == 404
            answers: Counter[tuple[int, int]] = Counter()

            async def churn(count: int) -> None:
                for _ in range(count):
                    opened = await _open(http, url, BOB)
                    sid = opened.headers.get("mcp-session-id", "none")
                    closed = await http.delete(url, headers=_headers(BOB, sid))
                    answers[opened.status_code, closed.status_code] += 1

            await asyncio.gather(*(churn(newer // 8) for _ in range(8)))
            assert answers == {(200, 200): newer}
            assert await _ping(http, url, BOB, alice) == 404
            assert await _ping(http, url, ALICE, alice) == 200


async def test_one_principal_cannot_hold_more_than_its_share_of_the_table(
    sim_url: str, tmp_path: Path
) -> None:
    share = 4
    env = {**ENV, "EXA_ORCH_HTTP_MAX_SESSIONS": "12", "EXA_ORCH_HTTP_MAX_SESSIONS_PER_PRINCIPAL": str(share)}
    with http_server(sim_url, tmp_path, **env) as (_proc, url):
        async with httpx.AsyncClient(timeout=WAIT) as http:
            bobs = [await _session(http, url, BOB) for _ in range(share)]
            refused = await _open(http, url, BOB)
            assert refused.status_code == 503 and "mcp-session-id" not in refused.headers
            _assert_sessions_full(refused, "EXA_ORCH_HTTP_MAX_SESSIONS_PER_PRINCIPAL")
            assert "token:bob" in refused.json()["error"]["message"]
            # A stateless 2026-07-28 request opens no session: Bob's share does not refuse it.
            modern = await http.post(
                url, json=PING, headers={**_headers(BOB), "mcp-protocol-version": "2026-07-28"}
            )
            assert modern.status_code != 503 and "SESSIONS_FULL" not in modern.text, modern.text
            # Alice is not locked out by Bob's sessions, and Bob's stay his.
            alice = await _session(http, url, ALICE)
            assert await _ping(http, url, ALICE, alice) == 200
            assert all([await _ping(http, url, BOB, sid) == 200 for sid in bobs])
            # Opened at once, Bob's requests still can't pass his share.
            await _close(http, url, BOB, bobs.pop())
            burst = await asyncio.gather(*(_open(http, url, BOB) for _ in range(3)))
            assert sorted(r.status_code for r in burst) == [200, 503, 503]
