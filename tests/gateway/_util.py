"""Helpers for the gateway tests: settings pointing at a simulator, and request-log arithmetic."""

from __future__ import annotations

import asyncio
import selectors
from bisect import bisect_left
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, TypeVar

import httpx

from exa_orch.config import Settings
from exa_orch.sim.testing import SimHandle

T = TypeVar("T")


def settings_for(sim: SimHandle, **overrides: Any) -> Settings:
    """Settings that send every call to `sim` (the key defaults to the simulator's made-up one)."""
    return Settings(exa_url=sim.url, simulator=True, arxiv_url=f"{sim.url}/arxivxplorer", **overrides)


def arrivals(sim: SimHandle, family: str | None = None) -> list[float]:
    """Sorted arrival times (the simulator's own clock) of the requests it logged, optionally one family."""
    return sorted(e["t"] for e in sim.log() if family is None or e["family"] == family)


def max_in_window(times: Iterable[float], width: float = 1.0) -> int:
    """The most arrivals in any half-open window [t, t + width)."""
    ordered = sorted(times)
    return max((bisect_left(ordered, t + width) - i for i, t in enumerate(ordered)), default=0)


class ToSim(httpx.AsyncBaseTransport):
    """Sends what the gateway addresses to api.exa.ai to the simulator instead (real HTTP)."""

    def __init__(self, sim_url: str) -> None:
        self._target = httpx.URL(sim_url)
        self._inner = httpx.AsyncHTTPTransport()
        self.keys: list[str | None] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.keys.append(request.headers.get("x-api-key"))
        url = request.url.copy_with(
            scheme=self._target.scheme, host=self._target.host, port=self._target.port
        )
        forwarded = httpx.Request(request.method, url, headers=request.headers, stream=request.stream)
        return await self._inner.handle_async_request(forwarded)

    async def aclose(self) -> None:
        await self._inner.aclose()


class _Idle(selectors.DefaultSelector):
    """A selector that never waits: when nothing is ready, it moves the loop's clock on by the
    time the loop would have slept (to its next timer) instead, and by 1 us at least, as each turn
    of a real loop takes some time (a timer set a rounding error ahead would otherwise never be
    reached: aiolimiter sets such timers)."""

    def __init__(self, clock: list[float]) -> None:
        super().__init__()
        self._clock = clock

    def select(self, timeout: float | None = None) -> list[tuple[selectors.SelectorKey, int]]:
        ready = super().select(0)
        if not ready:
            if timeout is None:
                raise RuntimeError("every task waits and no timer is due: nothing would ever run")
            self._clock[0] += max(timeout, 1e-6)
        return ready


class VirtualTimeLoop(asyncio.SelectorEventLoop):
    """An event loop on a clock of its own that jumps to the next timer whenever every task waits,
    so what a timer-driven piece (a rate limiter) does is the same on any machine, at any load.
    `block(seconds)` is the loop held up that long (as by other work on a busy machine)."""

    def __init__(self) -> None:
        self._clock = [0.0]
        super().__init__(_Idle(self._clock))

    def time(self) -> float:
        return self._clock[0]

    def block(self, seconds: float) -> None:
        self._clock[0] += seconds


def in_virtual_time(main: Callable[[VirtualTimeLoop], Awaitable[T]]) -> T:
    """Run `main(loop)` to completion on a fresh VirtualTimeLoop."""
    loop = VirtualTimeLoop()
    try:
        return loop.run_until_complete(main(loop))
    finally:
        loop.close()
