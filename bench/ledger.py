"""Ledger benchmark (issue 23): checkpoint throughput with the cost ledger against without it.

    .venv/bin/python bench/ledger.py [--seconds 9] [--workers 100] [--slices 9] [--paid-seconds 8]

1. The store. `workers` coroutines each run one task's steps: every step is one paid request (its
   answer's cost written to the ledger the way the gateway writes it: a `CostRow` given to
   `Store.record_cost(..., wait=False)`, one row per request) followed by the step's checkpoint
   (`Store.save_step`). Without the ledger, the same steps write only the checkpoint. The request
   itself is not sent here, so what is compared is the store's work alone. A third mode, `floor`,
   is the least any ledger of one row per paid request can do: a ready-made tuple put on the
   writer's queue and written, in the same group commit, to a table with no constraint, index or
   trigger (`bench_floor`). The modes run in rotating slices of one run on one database file, so
   they see the same disk, the same WAL and the same neighbours. The report gives checkpoints/s
   and the CPU per checkpoint of the writer thread (where rows are written) and of the event loop
   (where they are made), so a missed target says whether the ledger or the machine is why.
2. Paid steps, end to end (`--paid-seconds`, 0 skips it). The same steps, each sending its search
   to the simulator (in a child process, as Exa is) through the gateway, with the gateway's ledger
   on and off in alternating slices: what the ledger costs a task that pays for its steps. The
   throughputs carry the simulator's and the host's noise (+-10% here), so
3. the ledger's CPU per row (part 1, ledger minus without) is also given as a share of this
   process's CPU per paid step (part 2): CPU against CPU, both from this run.

Target (the issue's): checkpoints/s of the store with the ledger >= 90% of without. Exit status 1 if
missed. The floor's own ratio, printed beside it, is the most any ledger could reach here.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.gateway import _settings, simulator  # noqa: E402
from exa_orch.app import ledger_of  # noqa: E402
from exa_orch.gateway import Gateway  # noqa: E402
from exa_orch.gateway.context import request_scope  # noqa: E402
from exa_orch.store import CostRow, Store  # noqa: E402
from exa_orch.store import writer as store_writer  # noqa: E402
from exa_orch.store.records import iso  # noqa: E402

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


def _floor_add(store: Store, row: tuple[Any, ...]) -> None:
    """The floor's write: `row` put, as it is, on the list the writer's next group commit writes."""
    pending = store._costs
    with pending._lock:  # the writer thread takes the list
        pending._rows.append(row)
        if pending._future is None:
            pending._future = asyncio.get_running_loop().create_future()


Step = Callable[[str, str, int], Awaitable[Any]]


async def run_steps(store: Store, task_ids: list[str], seconds: float, step: Step) -> int:
    """Checkpoints saved in `seconds` by one coroutine per task: each step is `step(task_id,
    step_key, i)` and then the checkpoint of what it returned."""
    count = 0
    deadline = time.perf_counter() + seconds

    async def worker(task_id: str) -> None:
        nonlocal count
        i = 0
        while time.perf_counter() < deadline:
            key = f"s{i}"
            await store.save_step(task_id, key, await step(task_id, key, i))
            i += 1
            count += 1

    async with asyncio.TaskGroup() as tg:
        for task_id in task_ids:
            tg.create_task(worker(task_id))
    return count


async def slice_(store: Store, seconds: float, workers: int, mode: str) -> int:
    """Checkpoints saved in `seconds` by `workers` coroutines, each after its row in `mode`."""
    tasks = [(await store.create_task("bench.ledger", {})).id for _ in range(workers)]

    async def step(task_id: str, step_key: str, i: int) -> Any:
        if mode == "ledger":
            key = f"{random.getrandbits(128):032x}"  # random, as Exa's requestIds are
            # Positional, as the gateway's ledger makes it (app.ledger_of).
            row = CostRow(key, "search", 0.007, True, task_id, step_key, "user:bench", "bench")
            await store.record_cost(row, wait=False)
        elif mode == "floor":
            key = f"{random.getrandbits(128):032x}"
            ready = (key, task_id, step_key, "user:bench", "search", 0.007, 1, "bench", iso(time.time()), 0)
            _floor_add(store, ready)
        return PAYLOAD

    return await run_steps(store, tasks, seconds, step)


async def bench_store(seconds: float, workers: int, slices: int) -> tuple[dict[str, float], bool]:
    """Part 1: each mode's checkpoints/s, printed with the CPU each spends; (each mode's CPU
    seconds per checkpoint, target met)."""
    slices = max(len(MODES), slices - slices % len(MODES))  # each mode as many slices
    per_slice = seconds / slices
    totals = dict.fromkeys(MODES, 0)
    writer_s = dict.fromkeys(MODES, 0.0)
    process_s = dict.fromkeys(MODES, 0.0)
    clock = WriterClock()
    with tempfile.TemporaryDirectory() as tmp:
        async with Store(Path(tmp) / "bench.db") as store:
            await store._writer.call(lambda conn: conn.execute(FLOOR_TABLE))
            ledger_sql = store._costs._sql
            for n in range(-len(MODES), slices):  # one warm-up slice of each mode first
                mode = MODES[n % len(MODES)]
                store._costs._sql = FLOOR_INSERT if mode == "floor" else ledger_sql
                before, cpu = clock.seconds, time.process_time()
                count = await slice_(store, per_slice if n >= 0 else 0.5, workers, mode)
                if n >= 0:
                    totals[mode] += count
                    writer_s[mode] += clock.seconds - before
                    process_s[mode] += time.process_time() - cpu
            rows = (await store._read("SELECT count(*) FROM costs"))[0][0]
    each = seconds / len(MODES)
    rate = {m: totals[m] / each for m in MODES}
    label = {"without": "without a ledger", "ledger": "with the ledger", "floor": "the floor"}
    print("1. the store: checkpoints/s, and CPU per checkpoint of the writer thread and the event loop")
    for m in MODES:
        writer = 1e6 * writer_s[m] / totals[m] if totals[m] else 0.0
        loop = 1e6 * (process_s[m] - writer_s[m]) / totals[m] if totals[m] else 0.0
        print(f"   {label[m]:17s} {rate[m]:8.0f}/s   writer {writer:5.1f} us   loop {loop:5.1f} us")
    print(f"   ({rows} ledger rows; the floor: a ready tuple, one row with no index or trigger per request)")
    ratio = rate["ledger"] / rate["without"] if rate["without"] else 0.0
    floor = rate["floor"] / rate["without"] if rate["without"] else 0.0
    of_floor = rate["ledger"] / rate["floor"] if rate["floor"] else 0.0
    ok = ratio >= TARGET
    print(f"   ledger / without {ratio:.3f} (target >= {TARGET:.2f}): {'ok' if ok else 'MISSED'}")
    print(f"   floor / without  {floor:.3f}: the most any ledger of one row per paid request reaches here")
    print(f"   ledger / floor   {of_floor:.3f}: what the ledger's own layout and path cost")
    return {m: process_s[m] / totals[m] if totals[m] else 0.0 for m in MODES}, ok


async def paid_slice(gw: Gateway, store: Store, seconds: float, workers: int) -> int:
    """Steps done in `seconds` by `workers` tasks, each step one search sent and its checkpoint."""
    tasks = [
        (await store.create_task("bench.ledger.paid", {}, principal="user:bench")).id for _ in range(workers)
    ]

    async def step(task_id: str, step_key: str, i: int) -> Any:
        with request_scope(principal="user:bench", task_id=task_id, step=step_key):
            answer = await gw.http.post("/search", json={"query": f"AI startups {i}", "numResults": 3})
        return answer.json()

    return await run_steps(store, tasks, seconds, step)


async def bench_paid(seconds: float, workers: int) -> float:
    """Part 2: steps/s of paid steps with the gateway's ledger on and off in alternating slices
    (ledger / without: the median over adjacent pairs of slices); returns this process's CPU
    seconds per step without the ledger."""
    slices = 16  # short and alternating: the simulator's and the host's drift fall on both alike
    rates: dict[str, list[float]] = {"without": [], "ledger": []}
    cpu = {"without": 0.0, "ledger": 0.0}  # this process's CPU (the simulator's is its own)
    steps = {"without": 0, "ledger": 0}
    ledgered = 0  # paid requests sent with the ledger on, warm-up included
    with simulator() as url, tempfile.TemporaryDirectory() as tmp:
        async with (
            Store(Path(tmp) / "paid.db") as store,
            Gateway(_settings(url, rps=1e6, concurrency=workers)) as gw,
        ):
            ledger = ledger_of(store)
            for n in range(-2, slices):  # a warm-up slice of each first
                mode = ("without", "ledger")[n % 2]
                gw.record_costs(ledger if mode == "ledger" else None)
                start, cpu_start = time.perf_counter(), time.process_time()
                count = await paid_slice(gw, store, seconds / slices if n >= 0 else 0.5, workers)
                elapsed = time.perf_counter() - start  # with the steps in flight at the deadline
                ledgered += count if mode == "ledger" else 0
                if n >= 0:
                    rates[mode].append(count / elapsed)
                    cpu[mode] += time.process_time() - cpu_start
                    steps[mode] += count
            rows = (await store._read("SELECT count(*) FROM costs"))[0][0]
    if rows != ledgered:
        print(f"   the ledger holds {rows} rows for {ledgered} paid requests: a row lost or counted twice")
    ratio = statistics.median(b / a for a, b in zip(rates["without"], rates["ledger"], strict=True))
    print(
        f"2. paid steps end to end: a search to the simulator (a child process) and a checkpoint, {workers} tasks"
    )
    print(
        f"   without a ledger {statistics.median(rates['without']):8.0f}/s (median of {slices // 2} slices)"
    )
    print(
        f"   with the ledger  {statistics.median(rates['ledger']):8.0f}/s   ({rows} ledger rows, one per paid request)"
    )
    print(f"   ledger / without {ratio:.3f} (the median over adjacent pairs of slices)")
    per = {m: cpu[m] / steps[m] if steps[m] else 0.0 for m in cpu}
    print(
        f"   this process's CPU per step: {1e6 * per['without']:.0f} us without, {1e6 * per['ledger']:.0f} us with"
    )
    return per["without"]


async def main(args: argparse.Namespace) -> int:
    cpu, ok = await bench_store(args.seconds, args.workers, args.slices)
    if args.paid_seconds > 0:
        step = await bench_paid(args.paid_seconds, args.paid_workers)
        # CPU against CPU, both measured in this run: steadier than two throughputs on a shared host.
        share = (cpu["ledger"] - cpu["without"]) / step if step else 0.0
        print(
            f"3. a ledger row's CPU (part 1: {1e6 * (cpu['ledger'] - cpu['without']):.1f} us) is {100 * share:.2f}% of a"
            f" paid step's ({1e6 * step:.0f} us): a paid step bound by this CPU keeps {1 / (1 + max(share, 0.0)):.3f} of its"
            " throughput with the ledger"
        )
    return 0 if ok else 1


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=9.0)
    parser.add_argument("--workers", type=int, default=100)
    parser.add_argument("--slices", type=int, default=9)
    parser.add_argument("--paid-seconds", type=float, default=8.0)
    parser.add_argument("--paid-workers", type=int, default=16)
    sys.exit(asyncio.run(main(parser.parse_args())))
