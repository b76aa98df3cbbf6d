"""Many concurrent calls are spread over several connection pools (gateway/wire.py
REQUESTS_PER_POOL): httpcore's pool does work quadratic in its connections at every request, so
through one pool a call 32 at once cost 2.4 x the CPU of one 4 at once (bench/gateway.py)."""

from __future__ import annotations

import asyncio

import httpx

from exa_orch.gateway import Gateway
from exa_orch.gateway.wire import REQUESTS_PER_POOL, Pools
from exa_orch.sim.faults import FaultConfig
from exa_orch.sim.testing import SimHandle
from tests.gateway._util import settings_for


def connections(pools: Pools) -> list[int]:
    """The connections each of the pools holds (httpcore's pool behind each httpx transport)."""
    return [len(pool._pool.connections) for pool in pools.pools if isinstance(pool, httpx.AsyncHTTPTransport)]


async def test_sixteen_concurrent_calls_are_spread_over_pools_of_a_few_connections(sim: SimHandle) -> None:
    # Each answer held a while so the calls really overlap: a warm simulator answers a call before
    # the pacer lets the next one out, and calls one at a time rightly stay on the first pools.
    sim.set_faults(FaultConfig(latency_ms=250))
    async with Gateway(settings_for(sim, concurrency=16, rps=1000)) as gw:
        async with asyncio.TaskGroup() as tg:
            calls = [
                tg.create_task(gw.http.post("/search", json={"query": f"AI startups {i}", "numResults": 1}))
                for i in range(64)
            ]
        assert all(call.result().status_code == 200 for call in calls)
        inner = gw.transport.wire.real
        assert isinstance(inner, Pools) and len(inner.pools) == 16 // REQUESTS_PER_POOL
        # Every pool carried calls, each on connections of its own.
        opened = connections(inner)
        assert len(opened) == len(inner.pools) and min(opened) >= 1
    assert len(sim.log()) == 64


async def test_the_default_concurrency_keeps_one_pool(sim: SimHandle) -> None:
    async with Gateway(settings_for(sim, concurrency=3)) as gw:
        assert (
            await gw.http.post("/search", json={"query": "AI startups", "numResults": 1})
        ).status_code == 200
        assert isinstance(gw.transport.wire.real, httpx.AsyncHTTPTransport)


async def test_sparse_calls_reuse_the_first_pools_connection_and_a_stream_holds_its_pool_until_closed(
    sim: SimHandle,
) -> None:
    async with Gateway(settings_for(sim, concurrency=16, rps=1000)) as gw:
        for i in range(5):
            await gw.http.post("/search", json={"query": f"AI startups {i}", "numResults": 1})
        inner = gw.transport.wire.real
        assert isinstance(inner, Pools)
        # One warm connection, reused: calls one at a time never open a second pool's.
        opened = connections(inner)
        assert opened == [1, 0, 0, 0] and inner.open == [0, 0, 0, 0]
        async with gw.http.stream(
            "POST", "/answer", json={"query": "who makes GPUs?", "stream": True}
        ) as streamed:
            assert inner.open == [1, 0, 0, 0]  # the caller reads it: its connection is busy
            async for _ in streamed.aiter_lines():
                break
        assert inner.open == [0, 0, 0, 0]
