"""Ledger benchmark (issue 23): checkpoint throughput with the cost ledger against without it.

    .venv/bin/python bench/ledger.py [--seconds 6] [--workers 100] [--slices 6]

`workers` coroutines each run one task's steps: every step is one paid request (its answer's cost
written to the ledger the way the gateway writes it: `Store.record_cost(..., wait=False)`, one row
per request) followed by the step's checkpoint (`Store.save_step`). Without the ledger, the same
steps write only the checkpoint. The two modes run in alternating slices of the same run, on the
same database file, so they see the same disk and the same state of its WAL. The request itself is
not sent (it would cost the same in both modes and only hide the difference).

Target: checkpoints/s with the ledger >= 90% of without. Exit status 1 if missed (it is, for now:
data-design/prices.md "What the ledger costs").
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from exa_orch.store import CostRow, Store  # noqa: E402

PAYLOAD = {"results": [{"url": f"https://example.com/{i}", "title": "x" * 20} for i in range(3)]}
TARGET = 0.90


async def slice_(store: Store, seconds: float, workers: int, ledger: bool) -> int:
    """Checkpoints saved in `seconds` by `workers` coroutines; with `ledger`, each after its row."""
    tasks = [await store.create_task("bench.ledger", {}) for _ in range(workers)]
    count = 0
    deadline = time.perf_counter() + seconds

    async def worker(task_id: str) -> None:
        nonlocal count
        i = 0
        while time.perf_counter() < deadline:
            if ledger:
                row = CostRow(
                    key=f"{random.getrandbits(128):032x}",  # random, as Exa's requestIds are
                    operation="search",
                    usd=0.007,
                    billed=True,
                    task_id=task_id,
                    step_key=f"s{i}",
                    principal="user:bench",
                    attempt="bench",
                )
                await store.record_cost(row, wait=False)
            await store.save_step(task_id, f"s{i}", PAYLOAD)
            i += 1
            count += 1

    async with asyncio.TaskGroup() as tg:
        for t in tasks:
            tg.create_task(worker(t.id))
    return count


async def main(seconds: float, workers: int, slices: int) -> int:
    per_slice = seconds / slices
    totals = {True: 0, False: 0}
    with tempfile.TemporaryDirectory() as tmp:
        async with Store(Path(tmp) / "bench.db") as store:
            await slice_(store, 0.5, workers, True)  # warm up both paths
            await slice_(store, 0.5, workers, False)
            for n in range(slices):
                with_ledger = n % 2 == 0
                totals[with_ledger] += await slice_(store, per_slice, workers, with_ledger)
            rows = (await store._read("SELECT count(*) FROM costs"))[0][0]
    each = seconds / 2
    without, with_ = totals[False] / each, totals[True] / each
    ratio = with_ / without if without else 0.0
    print(f"checkpoints/s without the ledger: {without:9.0f}")
    print(f"checkpoints/s with the ledger:    {with_:9.0f}  ({rows} ledger rows in all)")
    ok = ratio >= TARGET
    print(f"ratio {ratio:.3f} (target >= {TARGET:.2f}): {'ok' if ok else 'MISSED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=6.0)
    parser.add_argument("--workers", type=int, default=100)
    parser.add_argument("--slices", type=int, default=6)
    ns = parser.parse_args()
    sys.exit(asyncio.run(main(ns.seconds, ns.workers, ns.slices)))
