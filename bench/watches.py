"""How often an idle server's watch scheduler reads the database, same run:

    .venv/bin/python bench/watches.py [--seconds 30] [--target 0.3]

An app on a fresh SQLite file and the in-process simulator holds three watches: one every day
(its first run done), one paused, one on a weekly cron. Nothing is due for hours: the server is
idle. For `--seconds` of wall time the bench counts the store reads that touch the watch tables
(`watches`, `watch_runs`, `watch_outbox`), twice: with the scheduler's default poll cap, and with
a 1 s cap (what the scheduler polled at before it slept until the next due time). Prints reads/s
of each and their ratio. Target: the default's reads/s <= `--target`. Exit status 1 if missed.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from exa_orch.app import open_app
from exa_orch.config import Settings
from exa_orch.sim.context import SimConfig
from exa_orch.sim.testing import running_sim

SEARCH = {"type": "operation", "operation": "exa.search", "args": {"query": "robots", "numResults": 3}}


async def idle_reads(seconds: float, poll_s: float | None) -> float:
    """Watch-table reads per second of an idle app (module docstring); `poll_s` None: the default."""
    with tempfile.TemporaryDirectory() as tmp:
        async with running_sim(SimConfig(speed=100.0)) as sim:
            settings = Settings(exa_url=sim.url, simulator=True, rps=1000.0, concurrency=8)
            async with open_app(settings, Path(tmp) / "bench.db") as app:
                assert app.watches is not None
                if poll_s is not None:
                    app.watches.poll_s = poll_s
                daily = await app.run_operation("watches.create", {**SEARCH, "every": "1d"})
                paused = await app.run_operation("watches.create", {**SEARCH, "every": "1h"})
                await app.run_operation("watches.pause", {"watchId": paused["watchId"]})
                await app.run_operation("watches.create", {**SEARCH, "cron": "0 9 1 1 *"})
                await app.watches.tick()  # starts the daily watch's first run (if its loop has not)
                run = (await app.run_operation("watches.get", {"watchId": daily["watchId"]}))["runs"][0]
                await app.run_operation("tasks.result", {"taskId": run["taskId"], "wait": 60})
                await app.watches.tick()  # records it: now nothing is due for a day
                count = 0
                read = app.store._read

                async def counted(sql: str, params: Any = ()) -> list[Any]:
                    nonlocal count
                    if "watch" in sql:
                        count += 1
                    return await read(sql, params)

                app.store._read = counted  # type: ignore[method-assign]
                started = time.monotonic()
                await asyncio.sleep(seconds)
                rate = count / (time.monotonic() - started)
                app.store._read = read  # type: ignore[method-assign]
                return rate


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--target", type=float, default=0.3, help="most reads/s an idle server may make")
    args = parser.parse_args()
    default = asyncio.run(idle_reads(args.seconds, None))
    fast = asyncio.run(idle_reads(args.seconds, 1.0))
    print(f"idle watch-table reads/s: default cap {default:.3f}, 1 s cap {fast:.3f}")
    print(f"ratio 1 s cap / default: {fast / default if default else float('inf'):.1f}x")
    if default > args.target:
        print(f"MISSED: {default:.3f} reads/s > target {args.target}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
