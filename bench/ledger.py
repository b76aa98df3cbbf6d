"""Ledger benchmark (issue 23): checkpoint throughput with the cost ledger against without it.

    .venv/bin/python bench/ledger.py [--seconds 9] [--workers 100] [--slices 9]

`workers` coroutines each run one task's steps: every step is one paid request (its answer's cost
written to the ledger the way the gateway writes it: `Store.record_cost(..., wait=False)`, one row
per request) followed by the step's checkpoint (`Store.save_step`). Without the ledger, the same
steps write only the checkpoint. The two modes run in alternating slices of the same run, on the
same database file, so they see the same disk and the same state of its WAL. The request itself is
not sent (it would cost the same in both modes and only hide the difference).

A third mode, `floor`, writes the same row through the same path into a table with no constraint and
no index (`bench_floor`): what any one row per paid request costs a checkpoint on this machine, the
best a ledger could do. The report gives checkpoints/s and the writer thread's CPU per checkpoint in
each mode (the writer is where the rows are written; a ledger row is one more B-tree insert in the
checkpoint's transaction), so a missed target says whether the ledger's layout or the machine is why.

Target: checkpoints/s with the ledger >= 90% of without. Exit status 1 if missed.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from exa_orch.store import CostRow, Store  # noqa: E402
from exa_orch.store import writer as store_writer  # noqa: E402

PAYLOAD = {"results": [{"url": f"https://example.com/{i}", "title": "x" * 20} for i in range(3)]}
TARGET = 0.90


FLOOR_TABLE = (
    "CREATE TABLE IF NOT EXISTS bench_floor (key TEXT, task_id TEXT, step_key TEXT, principal TEXT, "
    "operation TEXT, usd REAL, billed INTEGER, resend INTEGER, attempt TEXT, at TEXT)"
)
FLOOR_INSERT = (
    "INSERT INTO bench_floor (key, task_id, step_key, principal, operation, usd, billed, resend, attempt, at) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?10, ?8, ?9)"
)
MODES = ("without", "ledger", "floor")


class WriterClock:
    """CPU seconds the store's writer thread spends committing (all of `_commit`)."""

    def __init__(self) -> None:
        self.seconds = 0.0
        original = store_writer.GroupCommitWriter._commit
        clock = self

        def timed(writer: store_writer.GroupCommitWriter, batch: list[Any]) -> Any:
            start = time.thread_time()
            try:
                return original(writer, batch)
            finally:
                clock.seconds += time.thread_time() - start

        store_writer.GroupCommitWriter._commit = timed  # type: ignore[method-assign]


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
    slices = max(len(MODES), slices - slices % len(MODES))  # each mode as many slices
    per_slice = seconds / slices
    totals = dict.fromkeys(MODES, 0)
    writer_s = dict.fromkeys(MODES, 0.0)
    clock = WriterClock()
    with tempfile.TemporaryDirectory() as tmp:
        async with Store(Path(tmp) / "bench.db") as store:
            await store._writer.call(lambda conn: conn.execute(FLOOR_TABLE))
            ledger_sql = store._costs._sql
            for n in range(-len(MODES), slices):  # one warm-up slice of each mode first
                mode = MODES[n % len(MODES)]
                store._costs._sql = FLOOR_INSERT if mode == "floor" else ledger_sql
                before = clock.seconds
                count = await slice_(store, per_slice if n >= 0 else 0.5, workers, mode != "without")
                if n >= 0:
                    totals[mode] += count
                    writer_s[mode] += clock.seconds - before
            rows = (await store._read("SELECT count(*) FROM costs"))[0][0]
    each = seconds / len(MODES)
    rate = {m: totals[m] / each for m in MODES}
    per = {m: 1e6 * writer_s[m] / totals[m] if totals[m] else 0.0 for m in MODES}
    print(
        f"checkpoints/s without the ledger: {rate['without']:9.0f}   writer {per['without']:5.1f} us/checkpoint"
    )
    print(f"checkpoints/s with the ledger:    {rate['ledger']:9.0f}   writer {per['ledger']:5.1f} us/checkpoint"
          f"  ({rows} ledger rows in all)")  # fmt: skip
    print(f"checkpoints/s with a bare row:    {rate['floor']:9.0f}   writer {per['floor']:5.1f} us/checkpoint"
          "  (the floor: one unindexed row per request)")  # fmt: skip
    ratio = rate["ledger"] / rate["without"] if rate["without"] else 0.0
    floor = rate["floor"] / rate["without"] if rate["without"] else 0.0
    of_floor = rate["ledger"] / rate["floor"] if rate["floor"] else 0.0
    print(
        f"the ledger against the floor: {of_floor:.3f} (data-design/prices.md proposes >= {TARGET:.2f} here)"
    )
    ok = ratio >= TARGET
    print(
        f"ratio {ratio:.3f} (target >= {TARGET:.2f}): {'ok' if ok else 'MISSED'}; the floor's ratio {floor:.3f}"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=9.0)
    parser.add_argument("--workers", type=int, default=100)
    parser.add_argument("--slices", type=int, default=9)
    ns = parser.parse_args()
    sys.exit(asyncio.run(main(ns.seconds, ns.workers, ns.slices)))
