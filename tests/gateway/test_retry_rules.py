"""Pure rules of the gateway: Retry-After parsing, request shapes, the safe-retry rule, error mapping."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import httpx
import pytest
from aiolimiter import AsyncLimiter

from exa_orch.errors import (
    ApiError,
    AuthenticationError,
    Conflict,
    ErrorCode,
    GatewayError,
    InvalidParams,
    NotFoundError,
    RateLimited,
    UpstreamTimeout,
)
from exa_orch.gateway.errors import error_from_exception, error_from_response
from exa_orch.gateway.limits import family_of, window_safe_limiter
from exa_orch.gateway.retry import (
    CallShape,
    RetryableFailure,
    RetryPolicy,
    may_retry,
    parse_retry_after,
    shape_of,
)
from tests.gateway._util import VirtualTimeLoop, in_virtual_time, max_in_window

NOW = datetime(2026, 11, 21, 12, 0, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("value", "expected"),
    [("3", 3.0), (" 0.25 ", 0.25), ("0", 0.0), ("-4", 0.0), (None, None), ("", None), ("soon", None)],
)
def test_retry_after_delta_seconds(value: str | None, expected: float | None) -> None:
    assert parse_retry_after(value, now=NOW) == expected


def test_retry_after_http_date_counts_from_now() -> None:
    later = format_datetime(NOW + timedelta(seconds=7), usegmt=True)  # "Sat, 21 Nov 2026 12:00:07 GMT"
    assert parse_retry_after(later, now=NOW) == pytest.approx(7.0)
    earlier = format_datetime(NOW - timedelta(seconds=30), usegmt=True)
    assert parse_retry_after(earlier, now=NOW) == 0.0


def test_retry_after_rejects_nan_and_infinity() -> None:
    assert parse_retry_after("nan") is None
    assert parse_retry_after("inf") is None


def _post(path: str, body: dict[str, object] | None = None, **kw: object) -> httpx.Request:
    return httpx.Request("POST", "http://exa.test" + path, json=body or {}, **kw)  # type: ignore[arg-type]


def test_creates_are_recognised_and_never_resent_after_an_ambiguous_failure() -> None:
    shape = shape_of(
        _post("/websets/v0/websets", {"externalId": "task_1:create"}), "/websets/v0/websets", "websets"
    )
    assert shape.is_create and shape.external_id == "task_1:create"  # named in a 409's Conflict
    # Even keyed: finding the object a lost answer made is operations/_creates.py's (one owner).
    assert not may_retry(shape, "ambiguous")
    assert may_retry(shape, "rate_limited") and may_retry(shape, "pre_send")
    nested = "/websets/v0/websets/ws_1/enrichments"
    assert shape_of(_post(nested, {"externalId": "e"}), nested, "websets").is_create
    # The Agent API has no externalId: a run is a create that Exa cannot de-duplicate.
    run = shape_of(_post("/agent/runs", {"externalId": "a"}), "/agent/runs", "agent")
    assert run.is_create and run.external_id is None
    assert not may_retry(run, "ambiguous")


@pytest.mark.parametrize(
    "path",
    [
        "/search",
        "/contents",
        "/answer",
        "/findSimilar",
        "/websets/v0/websets/preview",
        "/websets/v0/websets/ws_1",
    ],
)
def test_reads_previews_and_updates_are_not_creates(path: str) -> None:
    shape = shape_of(_post(path, {"externalId": "x", "query": "q"}), path, family_of(path))
    assert not shape.is_create
    assert shape.external_id is None


def test_streamed_requests_are_recognised() -> None:
    assert shape_of(_post("/answer", {"query": "q", "stream": True}), "/answer", "answer").streaming
    sse = httpx.Request("GET", "http://exa.test/agent/runs/r/events", headers={"accept": "text/event-stream"})
    assert shape_of(sse, "/agent/runs/r/events", "agent").streaming
    assert not shape_of(_post("/answer", {"query": "q"}), "/answer", "answer").streaming


def test_safe_retry_rule_for_creates() -> None:
    read = CallShape(family="search", method="POST", path="/search")
    keyed = CallShape(
        family="websets", method="POST", path="/websets/v0/websets", is_create=True, external_id="k"
    )
    bare = CallShape(family="websets", method="POST", path="/websets/v0/websets", is_create=True)
    for failure in ("rate_limited", "pre_send", "ambiguous"):
        assert may_retry(read, failure)  # type: ignore[arg-type]
    for create in (keyed, bare):  # a key doesn't matter here: operations/_creates.py uses it
        assert may_retry(create, "rate_limited")
        assert may_retry(create, "pre_send")
        assert not may_retry(create, "ambiguous")


def test_families_match_the_simulators() -> None:
    assert family_of("/websets/v0/websets/ws_1/items") == "websets"
    assert family_of("/findSimilar") == family_of("/search") == "search"
    assert family_of("/agent/runs") == "agent"
    assert family_of("/searchmonitors") == "other"


def test_limiter_spaces_tokens_so_a_second_never_holds_more_than_rps() -> None:
    limiter = window_safe_limiter(10)
    assert limiter.max_rate == 1  # capacity 1: no burst after idle
    steady = limiter.max_rate / limiter.time_period
    assert 0.9 * 10 < steady < 10  # below N, so N+1 tokens span more than a second; above 0.9 N
    assert window_safe_limiter(0.5).time_period > 2  # below 1/s it still admits (max_rate >= 1)
    with pytest.raises(ValueError):
        window_safe_limiter(0)


def test_retry_policy_validates() -> None:
    with pytest.raises(ValueError):
        RetryPolicy(max_attempts=0)


async def _run_policy(policy: RetryPolicy, failures: list[RetryableFailure]) -> tuple[list[float], int]:
    """Run a call that fails with `failures` in turn; return the sleeps tenacity chose and attempts."""
    sleeps: list[float] = []

    async def record(seconds: float) -> None:
        sleeps.append(seconds)

    retrying = policy.retrying()
    retrying.sleep = record  # type: ignore[method-assign]
    calls = 0
    async for attempt in retrying:
        with attempt:
            calls += 1
            if failures:
                raise failures.pop(0)
    return sleeps, calls


async def test_backoff_grows_and_never_undercuts_retry_after() -> None:
    err = RateLimited("slow", retry_after=3.0)
    policy = RetryPolicy(backoff=0.1, jitter=0.0, max_backoff=1.0)
    sleeps, calls = await _run_policy(
        policy, [RetryableFailure(ApiError("x")), RetryableFailure(ApiError("x")), RetryableFailure(err, 3.0)]
    )
    assert calls == 4
    assert sleeps[:2] == pytest.approx([0.1, 0.2])
    assert sleeps[2] == pytest.approx(3.0)


async def test_no_retry_when_retry_after_passes_the_deadline() -> None:
    err = RateLimited("slow", retry_after=30.0)
    with pytest.raises(RetryableFailure) as info:
        await _run_policy(RetryPolicy(deadline=5.0), [RetryableFailure(err, 30.0)])
    assert info.value.error is err


async def test_attempts_are_capped() -> None:
    failures = [RetryableFailure(ApiError("x")) for _ in range(10)]
    with pytest.raises(RetryableFailure):
        await _run_policy(RetryPolicy(max_attempts=3, backoff=0.0, jitter=0.0), failures)
    assert len(failures) == 7


def _err(status: int, body: object, headers: dict[str, str] | None = None) -> GatewayError:
    raw = json.dumps(body).encode() if not isinstance(body, bytes) else body
    return error_from_response(status, httpx.Headers(headers or {}), raw, method="POST", path="/search")


def test_status_mapping_follows_seed_section_10() -> None:
    body = {"requestId": "req_9", "error": "query is required", "tag": "INVALID_REQUEST_BODY"}
    bad = _err(400, body)
    assert isinstance(bad, InvalidParams) and isinstance(bad, GatewayError)
    assert bad.code is ErrorCode.INVALID_PARAMS and bad.code.rpc_code == -32602
    assert (bad.status, bad.tag, bad.request_id) == (400, "INVALID_REQUEST_BODY", "req_9")
    assert bad.hint and "query is required" in bad.hint and "list_operations" in bad.hint
    assert isinstance(_err(422, body), InvalidParams)

    auth = _err(401, {"error": "Invalid API key", "tag": "INVALID_API_KEY"})
    assert isinstance(auth, AuthenticationError) and auth.code.rpc_code == -32002
    assert "EXA_API_KEY" in auth.message and auth.hint and "exa-orch sim" in auth.hint

    missing = _err(404, {"error": "no webset"}, {"x-request-id": "req_h"})
    assert isinstance(missing, NotFoundError) and missing.request_id == "req_h"
    assert missing.code.rpc_code == -32003

    limited = _err(429, {"error": "slow"}, {"retry-after": "2"})
    assert isinstance(limited, RateLimited) and limited.retry_after == 2.0
    assert limited.to_dict()["retryAfter"] == 2.0 and limited.code.rpc_code == -32001

    state = _err(409, {"error": "Agent run r_1 already completed", "tag": "RUN_FINISHED"})
    assert isinstance(state, Conflict) and state.code is ErrorCode.CONFLICT
    assert "state does not allow" in state.message and "already completed" in state.message
    assert state.hint and "externalId" not in state.hint  # a cancel is not a duplicate create
    dup = error_from_response(
        409,
        httpx.Headers(),
        b'{"error": "dup"}',
        method="POST",
        path="/websets/v0/websets",
        external_id="t:create",
    )
    assert isinstance(dup, Conflict) and "duplicate" in dup.message and dup.hint and "externalId" in dup.hint
    other = _err(502, b"<html>Bad Gateway</html>")
    assert isinstance(other, ApiError) and other.code is ErrorCode.API_ERROR
    assert "Bad Gateway" in other.message and other.tag is None


def test_transport_failures_are_upstream_timeouts() -> None:
    for exc in (
        httpx.ReadTimeout("slow"),
        httpx.RemoteProtocolError("dropped"),
        httpx.ConnectError("refused"),
    ):
        assert isinstance(error_from_exception(exc, method="GET", path="/x"), UpstreamTimeout)
    assert isinstance(
        error_from_exception(httpx.UnsupportedProtocol("ftp"), method="GET", path="/x"), ApiError
    )


async def _admissions(limiter: AsyncLimiter, n: int, busy: float = 0.0) -> list[float]:
    """Admission times of `n` concurrent acquirers; with `busy`, the event loop is blocked that
    long once they all wait, as a loop busy with other work would be. Run in virtual time
    (`in_virtual_time`): the loop wakes every timer exactly when due, unless blocked."""
    loop = asyncio.get_running_loop()
    assert isinstance(loop, VirtualTimeLoop)
    times: list[float] = []

    async def one() -> None:
        await limiter.acquire()
        times.append(loop.time())

    async with asyncio.TaskGroup() as tg:
        for _ in range(n):
            tg.create_task(one())
        if busy:
            await asyncio.sleep(0.005)  # every acquirer is queued now
            loop.block(busy)
    return times


def test_idle_time_earns_no_burst() -> None:
    async def main(loop: VirtualTimeLoop) -> list[float]:
        limiter = window_safe_limiter(20)  # one token every 54 ms
        await limiter.acquire()
        await asyncio.sleep(0.3)  # idle: a plain leaky bucket would now hold a burst
        return await _admissions(limiter, 2)

    first, second = in_virtual_time(main)
    assert second - first == pytest.approx(window_safe_limiter(20).time_period, abs=1e-4)


def test_a_late_wake_up_is_made_up_by_the_next_admission() -> None:
    limiter = window_safe_limiter(20)
    period = limiter.time_period

    async def main(loop: VirtualTimeLoop) -> list[float]:
        # The second admission is due after one period; the loop is blocked until 1.3 periods.
        return await _admissions(limiter, 8, busy=1.3 * period)

    times = in_virtual_time(main)
    gaps = [b - a for a, b in zip(times, times[1:], strict=False)]
    assert gaps[0] >= 1.3 * period
    assert 0.3 * period < gaps[1] < 0.9 * period  # catching up, without a burst
    # Back on schedule right after: one period apart, none sooner (no burst).
    assert gaps[2:] == pytest.approx([period] * len(gaps[2:]), abs=1e-4), gaps


def test_the_steady_rate_is_close_to_n_and_late_wake_ups_cost_little_of_it() -> None:
    """What the pacing tests over HTTP can't tell on a busy machine (its scheduler stretches every
    gap): the rate the limiter itself allows, on a loop that wakes on time, then on one held up
    20 ms past every third admission's due time (the catch-up credit makes most of that up: a
    plain capacity-1 bucket drops to 0.87 N)."""
    n = 10

    async def steady(loop: VirtualTimeLoop, late: float) -> float:
        limiter = window_safe_limiter(n)
        times: list[float] = []

        async def hold() -> None:  # other work that keeps the loop busy when the next one is due
            await asyncio.sleep(0.99 * limiter.time_period)
            loop.block(late)

        async with asyncio.TaskGroup() as tg:

            async def one(i: int) -> None:
                await limiter.acquire()
                times.append(loop.time())
                if late and i % 3 == 0:
                    tg.create_task(hold())

            for i in range(5 * n):
                tg.create_task(one(i))
        assert max_in_window(times) <= n  # never more than N in any second, late or not
        return (len(times) - 1) / (times[-1] - times[0])

    on_time = in_virtual_time(lambda loop: steady(loop, 0.0))
    late = in_virtual_time(lambda loop: steady(loop, 0.02))
    assert 0.92 * n < on_time < n
    assert 0.9 * n < late < on_time
