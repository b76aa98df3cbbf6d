"""Helpers for the gateway tests: settings pointing at a simulator, and request-log arithmetic."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable
from typing import Any

import httpx

from exa_orch.config import Settings
from exa_orch.sim.testing import SimHandle


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
