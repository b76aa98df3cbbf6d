"""Pacing against the simulator: rate windows, the in-flight cap, and Retry-After deadlines.

The rate and Retry-After checks read the gateway's own accounting: when its limiter admitted each
request (the event loop's clock, recorded as `acquire` returns) and when a 429 held a family. A
count of arrivals at the simulator in a 1-second window is what the scheduler of a busy machine
stretches and squeezes (a request admitted on time, delayed on its way, lands beside the next
one), so those only check what a delay can't fake: that the requests all arrived, in the ratios
the limiter set. bench/gateway.py measures the windows at the server.
"""

from __future__ import annotations

import asyncio
import time
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager

from aiolimiter import AsyncLimiter

from exa_orch.gateway import Gateway, RetryPolicy
from exa_orch.gateway.limits import FamilyGate, window_safe_limiter
from exa_orch.sim.context import FaultConfig
from exa_orch.sim.testing import SimHandle
from tests.gateway._util import arrivals, max_in_window, settings_for

N = 10  # requests per second per family


class Admissions:
    """What a Gateway's transport did, on its own clocks: each family's limiter admissions
    (loop time) and every send let through (monotonic), and every Retry-After hold (monotonic)."""

    def __init__(self) -> None:
        self.by_family: dict[str, list[float]] = defaultdict(list)
        self.sent: list[float] = []
        self.holds: list[tuple[float, float]] = []  # (when, seconds)


class _Recorded:
    """A family's limiter, noting the loop time of each admission as `acquire` returns."""

    def __init__(self, inner: AsyncLimiter, times: list[float]) -> None:
        self._inner, self._times = inner, times

    def has_capacity(self, amount: float = 1) -> bool:
        return self._inner.has_capacity(amount)

    async def acquire(self, amount: float = 1) -> None:
        await self._inner.acquire(amount)
        self._times.append(asyncio.get_running_loop().time())


class _RecordedGate(FamilyGate):
    """A FamilyGate whose admissions and Retry-After holds land in `seen`."""

    def __init__(self, family: str, rps: float, margin: float, seen: Admissions) -> None:
        super().__init__(family, rps, margin)
        self.limiter = _Recorded(self.limiter, seen.by_family[family])  # type: ignore[assignment]
        self._seen = seen

    def block(self, seconds: float) -> None:
        self._seen.holds.append((time.monotonic(), seconds))
        super().block(seconds)


@contextmanager
def accounted(gw: Gateway) -> Iterator[Admissions]:
    seen = Admissions()
    transport = gw.transport.pacing
    enter = transport._enter

    def gate(family: str) -> FamilyGate:
        if family not in transport._gates:
            transport._gates[family] = _RecordedGate(family, transport._rps, transport._margin, seen)
        return transport._gates[family]

    async def entered(*args: object) -> None:
        await enter(*args)  # type: ignore[arg-type]
        seen.sent.append(time.monotonic())

    transport.gate = gate  # type: ignore[method-assign]
    transport._enter = entered  # type: ignore[method-assign]
    try:
        yield seen
    finally:
        del transport.gate, transport._enter


async def _searches(gw: Gateway, count: int, tag: str) -> None:
    async with asyncio.TaskGroup() as tg:
        for i in range(count):
            tg.create_task(gw.http.post("/search", json={"query": f"{tag} startup {i}", "numResults": 1}))


async def test_no_second_holds_more_than_n_requests_including_the_first_and_after_idle(
    sim: SimHandle,
) -> None:
    async with Gateway(settings_for(sim, rps=N, concurrency=6)) as gw:
        with accounted(gw) as seen:
            await _searches(gw, 3 * N, "first")
            first = list(seen.by_family["search"])
            # An idle gap longer than a second is the case a plain AsyncLimiter(N, 1) gets wrong.
            await asyncio.sleep(1.5)
            await _searches(gw, 2 * N, "second")
    times = seen.by_family["search"]
    second = times[len(first) :]
    assert len(first) == 3 * N and len(second) == 2 * N
    assert len(arrivals(sim, "search")) == 5 * N  # every admitted request reached Exa
    assert second[0] - first[-1] >= 1.5  # the gap really was idle
    assert sum(1 for t in first if t < first[0] + 1.0) <= N  # first second
    assert sum(1 for t in second if t < second[0] + 1.0) <= N  # first second after the gap
    assert max_in_window(times) <= N  # every window
    # A ratio, not a count: a limiter admitting a burst would raise it. How close to N it stays
    # (a busy machine lowers it, however well the limiter does) is measured in virtual time:
    # test_retry_rules.py's test_the_steady_rate_is_close_to_n_and_late_wake_ups_cost_little_of_it.
    steady = (len(first) - 1) / (first[-1] - first[0])
    assert steady <= N, f"steady rate {steady:.2f}/s is above N"


async def test_families_are_limited_separately(sim: SimHandle) -> None:
    async with Gateway(settings_for(sim, rps=N, concurrency=8)) as gw:
        with accounted(gw) as seen:
            async with asyncio.TaskGroup() as tg:
                for i in range(N):
                    tg.create_task(gw.http.post("/search", json={"query": f"q{i}", "numResults": 1}))
                    tg.create_task(gw.http.post("/contents", json={"urls": [f"https://example.com/{i}"]}))
    search, contents = seen.by_family["search"], seen.by_family["contents"]
    assert len(search) == len(contents) == N
    assert len(arrivals(sim, "search")) == len(arrivals(sim, "contents")) == N
    assert max_in_window(search) <= N and max_in_window(contents) <= N
    # Each family has a limiter of its own: one shared would space all admissions of both at
    # least 0.7 period apart on the loop's clock (which it keeps however busy the machine), so the
    # first request of each, both admitted at once, could not be.
    period = window_safe_limiter(N).time_period
    merged = sorted(search + contents)
    assert min(b - a for a, b in zip(merged, merged[1:], strict=False)) < period / 2


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
        with accounted(gw) as seen:
            await _searches(gw, 30, "family")
    limited = [e for e in sim.log() if e["status"] == 429]
    assert limited and len(seen.holds) == len(limited)
    assert all(seconds == retry_after for _, seconds in seen.holds)
    # Requests already on their way when a 429 came back may still land after it (the server's
    # log can't tell them apart on a busy machine); the gateway lets none go out during the hold.
    for when, seconds in seen.holds:
        early = [t for t in seen.sent if when < t < when + seconds]
        assert not early, (when, early)
