"""Typed errors through exa-py and httpx, the key's start-up check, and where the key goes."""

from __future__ import annotations

import asyncio
import gzip
import json

import httpx
import pytest

from exa_orch.config import DEFAULT_EXA_URL, Secret, Settings
from exa_orch.errors import (
    AuthenticationError,
    ConfigError,
    ErrorCode,
    GatewayError,
    InvalidParams,
    NotFoundError,
    RateLimited,
    UpstreamInvalidParams,
    UpstreamTimeout,
)
from exa_orch.gateway import Gateway, RetryPolicy, call
from exa_orch.sim.context import FaultConfig
from exa_orch.sim.testing import SimHandle
from tests import contract
from tests.gateway._util import settings_for
from tests.support import WAIT

FAST = RetryPolicy(backoff=0.01, jitter=0.01, max_backoff=0.05)


async def test_exa_py_calls_go_through_the_governed_transport(sim: SimHandle) -> None:
    async with Gateway(settings_for(sim)) as gw:
        assert gw.exa.client is gw.http
        response = await gw.exa.search("AI startups in Berlin", num_results=3)
        assert len(response.results) == 3
        await gw.exa.agent.runs.list()
        assert gw.stats()["calls"] == 2
    assert sim.stats()["requests_by_family"] == {"search": 1, "agent": 1}


async def test_a_bad_request_is_not_retried_and_reaches_the_caller_with_a_hint(sim: SimHandle) -> None:
    async with Gateway(settings_for(sim), retry=FAST) as gw:
        with pytest.raises(InvalidParams) as through_exa_py:
            await gw.exa.search("startups", num_results=5000)
        with contract.expect_violations() as broken, pytest.raises(UpstreamInvalidParams) as through_http:
            await gw.http.post("/search", json={})  # against the spec on purpose: no query
    assert any("'query' is a required property" in v for v in broken), broken
    err = through_exa_py.value
    assert err.code is ErrorCode.INVALID_PARAMS and err.code.rpc_code == -32602
    assert isinstance(err, GatewayError) and err.status == 400 and err.tag == "INVALID_REQUEST_BODY"
    assert err.request_id and err.request_id.startswith("req_")
    assert err.hint and "numResults" in err.hint  # Exa's own message, in the hint
    assert through_http.value.hint and "query is required" in through_http.value.hint
    assert [e["status"] for e in sim.log()] == [400, 400]  # one request each: no retry


async def test_a_rejected_key_says_how_to_set_it(sim: SimHandle) -> None:
    async with Gateway(settings_for(sim, api_key=Secret("invalid-key")), retry=FAST) as gw:
        with pytest.raises(AuthenticationError) as info:
            await gw.exa.search("anything")
    err = info.value
    assert err.code.rpc_code == -32002 and err.status == 401 and err.tag == "INVALID_API_KEY"
    assert "EXA_API_KEY" in err.message
    assert err.hint and "EXA_API_KEY" in err.hint and "exa-orch sim" in err.hint
    assert "invalid-key" not in f"{err} {err!r} {err.to_dict()}"
    assert len(sim.log()) == 1


def test_a_missing_key_is_a_start_up_error_naming_the_variable_and_the_simulator() -> None:
    with pytest.raises(ConfigError) as info:
        Gateway(Settings(exa_url=DEFAULT_EXA_URL))
    assert "EXA_API_KEY" in info.value.message
    assert info.value.hint and "exa-orch sim" in info.value.hint


async def test_not_found_comes_through_exa_py_typed(sim: SimHandle) -> None:
    async with Gateway(settings_for(sim)) as gw:
        with pytest.raises(NotFoundError) as info:
            await gw.exa.agent.runs.get("run_does_not_exist")
    assert info.value.status == 404 and info.value.code.rpc_code == -32003


async def test_rate_limited_after_retries_carries_retry_after(sim: SimHandle) -> None:
    sim.set_faults(FaultConfig(rate=1.0, kinds=("429",), retry_after=0.05))
    policy = RetryPolicy(max_attempts=3, backoff=0.01, jitter=0.0)
    async with Gateway(settings_for(sim), retry=policy) as gw:
        with pytest.raises(RateLimited) as info:
            await gw.exa.search("anything")
        stats = gw.stats()
    assert info.value.retry_after == pytest.approx(0.05)
    assert info.value.to_dict()["retryAfter"] == pytest.approx(0.05)
    assert len(sim.log()) == 3 and stats["retries"] == 2
    assert stats["errors_by_kind"] == {"RATE_LIMITED": 1}


async def test_a_create_without_external_id_is_not_resent_after_an_ambiguous_failure(sim: SimHandle) -> None:
    sim.set_faults(FaultConfig(rate=1.0, kinds=("500",)))
    async with Gateway(settings_for(sim), retry=FAST) as gw:
        with pytest.raises(GatewayError) as info:
            await gw.http.post("/websets/v0/websets", json={"search": {"query": "AI startups", "count": 5}})
        assert info.value.status == 500
        # The same failure on a read is retried until attempts run out.
        with pytest.raises(GatewayError):
            await gw.http.post("/search", json={"query": "AI startups"})
    log = sim.log()
    assert [e["path"] for e in log].count("/websets/v0/websets") == 1
    assert [e["path"] for e in log].count("/search") == FAST.max_attempts


async def test_a_create_without_external_id_is_resent_after_429(sim: SimHandle) -> None:
    sim.set_faults(FaultConfig(rate=1.0, kinds=("429",), retry_after=0.01))
    async with Gateway(settings_for(sim), retry=RetryPolicy(max_attempts=2, backoff=0.01, jitter=0)) as gw:
        with pytest.raises(RateLimited):
            await gw.exa.agent.runs.create(query="find AI startups")
    assert [e["path"] for e in sim.log()] == ["/agent/runs", "/agent/runs"]


def _recording(seen: list[httpx.Request]) -> httpx.MockTransport:
    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json={"ok": True})

    return httpx.MockTransport(handler)


async def test_the_key_goes_only_to_exa_and_never_onto_the_callers_request() -> None:
    # What a server received can't be read back from the simulator (it never keeps the key),
    # so this one test looks at the wire through httpx's MockTransport.
    key = "exa-test-key-0123456789"
    settings = Settings(api_key=Secret(key), exa_url="https://api.exa.ai", arxiv_url="https://arxiv.example")
    seen: list[httpx.Request] = []
    async with Gateway(settings, inner=_recording(seen)) as gw:
        exa_response = await gw.http.post("/search", json={"query": "q"})
        arxiv_response = await gw.arxiv.get("/", params={"q": "transformers"})
        await gw.http.get("https://uploads.example/put-here", headers={"x-api-key": "stray"})
        assert key not in repr(gw.exa.headers)
        assert key not in repr(gw) + repr(gw.transport) + repr(gw.stats())
    assert [r.headers.get("x-api-key") for r in seen] == [key, None, None]
    assert "x-api-key" not in exa_response.request.headers  # the caller's request object
    assert arxiv_response.json() == {"ok": True}


async def test_streamed_answers_pass_through_unbuffered_and_free_their_slot(sim: SimHandle) -> None:
    async with Gateway(settings_for(sim, concurrency=1)) as gw:
        stream = await gw.exa.stream_answer("climate tech companies")
        # The stream is still open, yet the single slot is free for the next call.
        plain = await gw.exa.answer("climate tech companies")
        text = "".join([c.content or "" async for c in stream])
        assert text == plain.answer
        assert gw.stats()["in_flight"] == 0


async def test_a_timeout_is_retried_then_surfaces_as_upstream_timeout_not_exa_pys(sim: SimHandle) -> None:
    sim.set_faults(FaultConfig(latency_ms=400))
    policy = RetryPolicy(max_attempts=2, backoff=0.01, jitter=0.0)
    async with Gateway(settings_for(sim), retry=policy, timeout=0.1) as gw:
        with pytest.raises(UpstreamTimeout) as info:
            await gw.exa.search("slow")
        assert gw.stats()["failures_by_kind"] == {"timeout": 2}
    assert not isinstance(info.value, httpx.TimeoutException)  # exa-py would have made it ExaTimeoutError
    assert info.value.code is ErrorCode.UPSTREAM_TIMEOUT and info.value.retryable


async def test_a_retry_after_longer_than_the_deadline_fails_fast_instead_of_hanging_every_call(
    sim: SimHandle,
) -> None:
    # Exa asks for an hour's pause: the call gives up at once with RATE_LIMITED, and so does the
    # next call of that family (nothing is sent before the deadline), instead of sleeping an hour.
    sim.set_faults(FaultConfig(rate=1.0, kinds=("429",), retry_after=3600))
    policy = RetryPolicy(max_attempts=3, deadline=5.0, backoff=0.01, jitter=0.0)
    async with Gateway(settings_for(sim), retry=policy) as gw:
        async with asyncio.timeout(WAIT):
            with pytest.raises(RateLimited) as first:
                await gw.exa.search("anything")
        assert first.value.retry_after == pytest.approx(3600, abs=5)
        sim.set_faults(FaultConfig())
        sent = len(sim.log())
        async with asyncio.timeout(WAIT):
            with pytest.raises(RateLimited) as second:
                await gw.exa.search("anything else")
        assert second.value.retry_after is not None and second.value.retry_after > 3000
        assert "EXA_ORCH_RPS" in (second.value.hint or "")
        assert len(sim.log()) == sent  # the family's Retry-After deadline still holds
        # Other families are not held back.
        async with asyncio.timeout(WAIT):
            await gw.exa.get_contents(["https://example.com/a"])


async def test_a_call_waiting_out_a_retry_after_gives_up_when_the_hold_is_extended_past_the_deadline(
    sim: SimHandle,
) -> None:
    policy = RetryPolicy(max_attempts=3, deadline=5.0, backoff=0.01, jitter=0.0)
    async with Gateway(settings_for(sim), retry=policy) as gw:
        gate = gw.transport.gate("search")
        exa = gw.exa  # made first: its first use imports exa-py, which can outlast a short hold
        gate.block(2.0)  # a Retry-After within the deadline: the call waits it out ...
        call = asyncio.create_task(exa.search("anything"))
        async with asyncio.timeout(WAIT):
            while gw.stats()["calls"] == 0:  # noqa: ASYNC110 - counted right before it starts waiting
                await asyncio.sleep(0.005)
        gate.block(3600)  # ... then another 429 asks for an hour
        async with asyncio.timeout(WAIT):
            with pytest.raises(RateLimited):
                await call
    assert sim.log() == []


async def test_a_compressed_error_body_is_decoded_before_it_is_read() -> None:
    # The gateway asks for gzip (httpx's default Accept-Encoding) and reads error bodies raw; Exa
    # behind a CDN may compress them. Its message, tag and request id must still come through.
    body = {"error": "query must not be empty", "tag": "INVALID_REQUEST_BODY", "requestId": "req_gz"}

    async def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(
            400,
            headers={"content-type": "application/json", "content-encoding": "gzip"},
            stream=_Chunks([gzip.compress(json.dumps(body).encode())]),
        )

    settings = Settings(exa_url="https://api.exa.ai", api_key=Secret("test-key-gzip-0001"))
    async with Gateway(settings, retry=FAST, inner=httpx.MockTransport(answer)) as gw:
        with pytest.raises(UpstreamInvalidParams) as info:
            await gw.http.post("/search", json={"query": ""})
    assert "query must not be empty" in info.value.message
    assert info.value.tag == "INVALID_REQUEST_BODY" and info.value.request_id == "req_gz"


class _Chunks(httpx.AsyncByteStream):
    """A body as it comes off the wire (not yet read), like a real transport's."""

    def __init__(self, chunks: list[bytes]) -> None:
        self._chunks = chunks

    async def __aiter__(self):  # type: ignore[no-untyped-def]
        for chunk in self._chunks:
            yield chunk


async def test_a_5xx_storm_says_what_to_do_about_it(sim: SimHandle) -> None:
    # A 500/503 that outlasted the retries came back with only "(gave up after N attempts)" as hint.
    sim.set_faults(FaultConfig(rate=1.0, kinds=("503",)))
    async with Gateway(settings_for(sim), retry=FAST) as gw:
        with pytest.raises(GatewayError) as info:
            await gw.http.get("/websets/v0/websets")
    assert info.value.status == 503 and info.value.code == "API_ERROR"
    assert info.value.hint is not None and "try again" in info.value.hint
    assert info.value.hint.endswith(f"(gave up after {FAST.max_attempts} attempts)")


async def test_an_error_is_typed_by_status_and_body_never_by_its_message_text(sim: SimHandle) -> None:
    """A status reaches exa-orch only as the transport's typed error (gateway/errors.py); text that
    merely reads like exa-py's status message is not taken for one."""

    async def says_409() -> None:
        raise ValueError("Request failed with status code 409: externalId exists")

    with pytest.raises(ValueError, match="status code 409"):
        await call(says_409())
    async with Gateway(settings_for(sim), retry=FAST) as gw:
        with pytest.raises(NotFoundError) as missing:
            await call(gw.exa.agent.runs.get("run_missing"))
    assert missing.value.status == 404 and missing.value.request_id
