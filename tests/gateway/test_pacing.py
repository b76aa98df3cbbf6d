"""Pacing against the simulator: rate windows, the in-flight cap, and Retry-After deadlines.

Every timing is read from the simulator's own request log (arrival times on the same monotonic
clock), never from the client side, and the bounds leave room for a noisy 2-core machine.
"""

from __future__ import annotations

import asyncio

from exa_orch.gateway import Gateway, RetryPolicy
from exa_orch.sim.context import FaultConfig
from exa_orch.sim.testing import SimHandle
from tests.gateway._util import arrivals, max_in_window, settings_for

N = 10  # requests per second per family


async def _searches(gw: Gateway, count: int, tag: str) -> None:
    async with asyncio.TaskGroup() as tg:
        for i in range(count):
            tg.create_task(gw.http.post("/search", json={"query": f"{tag} startup {i}", "numResults": 1}))


async def test_no_second_holds_more_than_n_requests_including_the_first_and_after_idle(
    sim: SimHandle,
) -> None:
    async with Gateway(settings_for(sim, rps=N, concurrency=6)) as gw:
        await _searches(gw, 3 * N, "first")
        first = arrivals(sim, "search")
        # An idle gap longer than a second is the case a plain AsyncLimiter(N, 1) gets wrong.
        await asyncio.sleep(1.5)
        await _searches(gw, 2 * N, "second")
    times = arrivals(sim, "search")
    second = times[len(first) :]
    assert len(first) == 3 * N and len(second) == 2 * N
    assert second[0] - first[-1] > 1.2  # the gap really was idle
    assert sum(1 for t in first if t < first[0] + 1.0) <= N  # first second
    assert sum(1 for t in second if t < second[0] + 1.0) <= N  # first second after the gap
    assert max_in_window(times) <= N  # every window
    steady = (len(first) - 1) / (first[-1] - first[0])
    assert steady >= 0.9 * N, f"steady rate {steady:.2f}/s is below 0.9 N"


async def test_families_are_limited_separately(sim: SimHandle) -> None:
    async with Gateway(settings_for(sim, rps=N, concurrency=8)) as gw, asyncio.TaskGroup() as tg:
        for i in range(N):
            tg.create_task(gw.http.post("/search", json={"query": f"q{i}", "numResults": 1}))
            tg.create_task(gw.http.post("/contents", json={"urls": [f"https://example.com/{i}"]}))
    search, contents = arrivals(sim, "search"), arrivals(sim, "contents")
    assert max_in_window(search) <= N and max_in_window(contents) <= N
    # Both families ran side by side: 2N requests in about the time N take.
    assert max_in_window(search + contents) > N


async def test_in_flight_calls_never_exceed_the_semaphore(sim: SimHandle) -> None:
    sim.set_faults(FaultConfig(latency_ms=40))
    async with Gateway(settings_for(sim, rps=1000, concurrency=3)) as gw:
        await _searches(gw, 30, "parallel")
        stats = gw.stats()
    assert sim.stats()["max_in_flight"] == 3  # reached, and never passed
    assert stats["max_in_flight"] == 3 and stats["in_flight"] == 0


def _after(log: list[dict[str, object]], t: float) -> list[float]:
    return sorted(float(e["t"]) for e in log if float(e["t"]) > t)  # type: ignore[arg-type]


async def test_no_request_is_sent_before_a_retry_after_deadline(sim: SimHandle) -> None:
    retry_after = 0.3
    sim.set_faults(FaultConfig(rate=0.4, kinds=("429",), retry_after=retry_after, seed=7))
    policy = RetryPolicy(backoff=0.01, jitter=0.01, max_attempts=10)
    async with Gateway(settings_for(sim, rps=1000, concurrency=1), retry=policy) as gw:
        await _searches(gw, 12, "paced")
        stats = gw.stats()
    log = sim.log()
    limited = [e for e in log if e["status"] == 429]
    assert len(limited) >= 3 and stats["errors_by_kind"] == {}
    for entry in limited:
        later = _after(log, entry["t_end"])
        if later:  # one call at a time: the next request is the retry (or the next call)
            assert later[0] >= entry["t_end"] + retry_after, (entry, later[0])


async def test_a_retry_after_holds_the_whole_family(sim: SimHandle) -> None:
    retry_after = 0.5
    sim.set_faults(FaultConfig(rate=0.15, kinds=("429",), retry_after=retry_after, seed=3))
    async with Gateway(settings_for(sim, rps=1000, concurrency=3), retry=RetryPolicy(backoff=0.01)) as gw:
        await _searches(gw, 30, "family")
    log = sim.log()
    limited = [e for e in log if e["status"] == 429]
    assert limited
    for entry in limited:
        # Requests already on their way when the 429 came back may land just after it; none
        # may start later than that until the deadline has passed.
        slack = 0.1
        early = [t for t in _after(log, entry["t_end"] + slack) if t < entry["t_end"] + retry_after]
        assert not early, (entry, early)
