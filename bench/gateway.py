"""Gateway benchmark against the simulator (in its own process, as Exa is), as ratios from one run.

    .venv/bin/python bench/gateway.py [--rps 20] [--burst 80] [--calls 400]

1. rate: a burst of `burst` searches at once through a Gateway limited to `rps` per family.
   From the simulator's request log: achieved steady rate / limit, and the busiest 1-second
   window / limit (must be <= 1).
2. overhead: `calls` sequential GET /agent/runs?limit=1, bare httpx vs `gw.http`, and bare
   exa-py `AsyncExa` vs `gw.exa`, each against the same simulator, alternating call by call
   (medians of per-call times, so a noisy neighbour hits both sides alike). The gateway runs
   with a rate limit far above what the loop can reach, so what is measured is its own cost.
3. pure cost: the same with an in-memory transport under both (no network, no simulator).
4. concurrency: searches/s, and this process's CPU per search, through a gateway allowing 4 and 32
   calls at once (as many callers), in 8 alternating slices of each. A search at 32 at once must
   cost at most 1.5 x the CPU of one at 4: through one connection pool it cost 2.4 x, and 32 carried
   fewer searches a second than 4 (gateway/wire.py REQUESTS_PER_POOL). The searches/s are
   printed, not judged: here the simulator shares the 2 cores, so more at once need not mean more.

The simulator runs as `exa-orch sim` in a child process: on a thread of this process it would
hold the GIL while it answers and delay the limiter's timers by up to the 5 ms switch interval.

Targets: busiest window <= limit; steady rate >= 0.9 x limit; CPU per search at 32 <= 1.5 x at 4.
Exit status 1 if one is missed.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import time
from bisect import bisect_left
from collections.abc import Awaitable, Callable, Iterator
from contextlib import AsyncExitStack, contextmanager

import httpx
from exa_py import AsyncExa

from exa_orch.config import Settings
from exa_orch.gateway import Gateway

BODY = {"query": "AI startups", "numResults": 1}
PATH = "/agent/runs"  # a cheap endpoint, so the simulator's own time varies little


def _settings(url: str, **kw: float) -> Settings:
    return Settings(exa_url=url, simulator=True, arxiv_url=f"{url}/arxivxplorer", **kw)  # type: ignore[arg-type]


def _busiest_window(times: list[float]) -> int:
    ordered = sorted(times)
    return max((bisect_left(ordered, t + 1.0) - i for i, t in enumerate(ordered)), default=0)


@contextmanager
def simulator() -> Iterator[str]:
    """`exa-orch sim` in a child process; yields its URL."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "exa_orch", "sim", "--speed", "100"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline().strip()
        if not line.startswith("EXA_ORCH_EXA_URL="):
            raise RuntimeError(f"the simulator did not start: {line!r}")
        yield line.split("=", 1)[1]
    finally:
        proc.terminate()
        proc.wait(10)


async def bench_rate(url: str, rps: float, burst: int) -> tuple[float, int]:
    """(achieved steady rate, busiest 1-s window) for a burst, read from the simulator's log."""
    async with httpx.AsyncClient(base_url=url) as admin:
        await admin.post("/_sim/reset")
        async with Gateway(_settings(url, rps=rps, concurrency=8)) as gw, asyncio.TaskGroup() as tg:
            for i in range(burst):
                tg.create_task(gw.http.post("/search", json={**BODY, "query": f"AI startups {i}"}))
        log = (await admin.get("/_sim/log")).json()["log"]
    times = sorted(e["t"] for e in log if e["family"] == "search")
    return (len(times) - 1) / (times[-1] - times[0]), _busiest_window(times)


async def _interleaved(clients: dict[str, Callable[[], Awaitable[object]]], calls: int) -> dict[str, float]:
    """Median seconds per call of each client; calls alternate between clients one by one, so
    load from other processes, which varies over seconds, falls on every client alike."""
    samples: dict[str, list[float]] = {name: [] for name in clients}
    names = list(clients)
    for i in range(calls + 5):
        for name in names[i % len(names) :] + names[: i % len(names)]:
            start = time.perf_counter()
            await clients[name]()
            if i >= 5:  # the first calls open connections and warm caches
                samples[name].append(time.perf_counter() - start)
    return {name: statistics.median(values) for name, values in samples.items()}


async def bench_overhead(url: str, calls: int) -> dict[str, float]:
    """Seconds per sequential call to the simulator: bare clients vs the gateway's."""
    headers = {"x-api-key": "bench-key"}
    async with (
        httpx.AsyncClient(base_url=url, headers=headers) as bare,
        AsyncExa(api_key="bench-key", api_base=url) as exa,
        Gateway(_settings(url, rps=1e6, concurrency=3)) as gw,
    ):
        cost = await _interleaved(
            {
                "httpx": lambda: bare.get(PATH, params={"limit": 1}),
                "gateway.http": lambda: gw.http.get(PATH, params={"limit": 1}),
                "exa-py": lambda: exa.agent.runs.list(limit=1),
                "gateway.exa": lambda: gw.exa.agent.runs.list(limit=1),
            },
            calls,
        )
        assert gw.stats()["errors_by_kind"] == {}
    return cost


async def bench_pure_cost(calls: int) -> dict[str, float]:
    """Seconds per call with an in-memory transport: the gateway's own CPU cost, no network."""

    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json={"data": [], "hasMore": False})

    mock = httpx.MockTransport(answer)
    url = "http://exa.invalid"
    async with (
        httpx.AsyncClient(base_url=url, transport=mock) as bare,
        Gateway(_settings(url, rps=1e6), inner=mock) as gw,
    ):
        return await _interleaved(
            {"httpx": lambda: bare.get(PATH), "gateway.http": lambda: gw.http.get(PATH)}, calls
        )


LOW, HIGH = 4, 32  # calls at once


async def bench_concurrency(url: str, seconds: float) -> dict[int, tuple[float, float]]:
    """{calls at once: (searches/s, this process's CPU seconds per search)} at LOW and HIGH, from 8
    alternating slices of each."""
    done = {LOW: [0, 0.0, 0.0], HIGH: [0, 0.0, 0.0]}  # searches, wall seconds, CPU seconds
    async with AsyncExitStack() as stack:
        gateways = {
            c: await stack.enter_async_context(Gateway(_settings(url, rps=1e6, concurrency=c))) for c in done
        }
        for slice_ in range(-2, 16):  # a warm-up slice of each first
            c = (LOW, HIGH)[slice_ % 2]
            gw, deadline = gateways[c], time.perf_counter() + (seconds / 16 if slice_ >= 0 else 0.3)
            count = 0

            async def caller(gw: Gateway = gw, deadline: float = deadline) -> None:
                nonlocal count
                while time.perf_counter() < deadline:
                    await gw.http.post("/search", json={**BODY, "query": f"AI startups {count}"})
                    count += 1

            start, cpu = time.perf_counter(), time.process_time()
            async with asyncio.TaskGroup() as tg:
                for _ in range(c):
                    tg.create_task(caller())
            if slice_ >= 0:
                done[c][0] += count
                done[c][1] += time.perf_counter() - start
                done[c][2] += time.process_time() - cpu
    return {c: (n / wall, cpu / n) for c, (n, wall, cpu) in done.items()}


async def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rps", type=float, default=20.0)
    parser.add_argument("--burst", type=int, default=80)
    parser.add_argument("--calls", type=int, default=400)
    parser.add_argument("--concurrency-seconds", type=float, default=8.0)
    args = parser.parse_args(argv)
    with simulator() as url:
        steady, busiest = await bench_rate(url, args.rps, args.burst)
        cost = await bench_overhead(url, args.calls)
        scaling = await bench_concurrency(url, args.concurrency_seconds)
    pure = await bench_pure_cost(args.calls * 5)
    dearer = scaling[HIGH][1] / scaling[LOW][1]
    ok = busiest <= args.rps and steady >= 0.9 * args.rps and dearer <= 1.5
    print(f"rate      limit {args.rps:g}/s per family, burst of {args.burst} searches")
    print(f"          achieved/limit = {steady / args.rps:.3f} ({steady:.2f}/s steady)")
    print(f"          busiest 1-s window/limit = {busiest / args.rps:.3f} ({busiest} requests)")
    for bare, governed in (("httpx", "gateway.http"), ("exa-py", "gateway.exa")):
        extra = (cost[governed] - cost[bare]) * 1e6
        print(
            f"overhead  {governed} / {bare} = {cost[governed] / cost[bare]:.3f} "
            f"({cost[bare] * 1e3:.3f} -> {cost[governed] * 1e3:.3f} ms/call, {extra:+.0f} us/call)"
        )
    extra = (pure["gateway.http"] - pure["httpx"]) * 1e6
    print(
        f"pure cost gateway.http / httpx on an in-memory transport = {pure['gateway.http'] / pure['httpx']:.3f} "
        f"({pure['httpx'] * 1e6:.0f} -> {pure['gateway.http'] * 1e6:.0f} us/call, {extra:+.0f} us/call)"
    )
    for c, (rate, cpu) in scaling.items():
        print(f"concurrency {c:2d} at once: {rate:6.0f} searches/s, {cpu * 1e6:5.0f} us of CPU each")
    print(f"          CPU per search at {HIGH} / at {LOW} = {dearer:.3f}")
    print(
        "targets   "
        + ("met" if ok else "MISSED")
        + " (window <= limit, steady >= 0.9 x limit, CPU per search at 32 <= 1.5 x at 4)"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
