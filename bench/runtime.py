"""Runtime benchmark: orchestration overhead per checkpointed step, against the raw aiosqlite
commit floor and DBOS 3.4.0 running the same 10-step workflow on SQLite, in the same run.

    .venv/bin/python bench/runtime.py [--workflows 60] [--parked 2000]

1. floor: one coroutine, one aiosqlite connection (WAL, synchronous=NORMAL), INSERT + COMMIT.
2. exa-orch: a 10-step workflow whose steps do nothing (no Exa at all), run one at a time from
   tasks.create to `completed` (create, claim, working, 10 checkpoints, complete): time per step.
   Also 20 such workflows at once (steps/s through the group-commit writer).
3. DBOS 3.4.0 (optional extra `bench`): the same 10-step workflow (@DBOS.workflow calling
   @DBOS.step), async and sync steps, as shipped and with the file pre-set to WAL; each variant in
   its own subprocess because DBOS is a process-wide singleton. Skipped with a message if missing.
4. Idle memory (tracemalloc): per task waiting for a slot (pending), and per parked actor (a
   running task whose workflow awaits ctx.sleep).

Targets (issue 6): exa-orch >= 3x faster per step than DBOS; <= 5 KB per waiting task.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

import aiosqlite
from pydantic import BaseModel

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from exa_orch.runtime import Supervisor, TaskContext, WorkflowRegistry, WorkflowSpec  # noqa: E402
from exa_orch.store import Store  # noqa: E402

STEPS = 10


class NoArgs(BaseModel):
    pass


async def ten_steps(ctx: TaskContext, args: NoArgs) -> dict[str, Any]:
    total = 0
    for i in range(STEPS):
        saved = await ctx.step(f"s{i}", lambda i=i: {"i": i, "payload": "x" * 200})
        total += saved["i"]
    return {"total": total}


class ParkArgs(BaseModel):
    seconds: float = 3600.0


PARKED = [0]  # workflows that reached ctx.sleep (a counter, so the measurement reads no rows)


async def park(ctx: TaskContext, args: ParkArgs) -> None:
    PARKED[0] += 1
    await ctx.sleep(args.seconds)


REGISTRY = WorkflowRegistry(
    [WorkflowSpec("bench.ten", NoArgs, ten_steps), WorkflowSpec("bench.park", ParkArgs, park)]
)


async def floor(path: Path, n: int) -> float:
    """Seconds per INSERT+COMMIT, raw aiosqlite, one coroutine."""
    async with aiosqlite.connect(path) as db:
        await db.execute("PRAGMA journal_mode = WAL")
        await db.execute("PRAGMA synchronous = NORMAL")
        await db.execute("CREATE TABLE IF NOT EXISTS rows (id INTEGER PRIMARY KEY, k TEXT, v TEXT)")
        await db.commit()
        row = "x" * 250
        start = time.perf_counter()
        for i in range(n):
            await db.execute("INSERT INTO rows (k, v) VALUES (?, ?)", (f"k{i}", row))
            await db.commit()
        return (time.perf_counter() - start) / n


async def exa_orch_steps(path: Path, workflows: int, parallel: int) -> float:
    """Seconds per step: `workflows` 10-step tasks, `parallel` at a time, create -> completed."""
    async with Store(path) as store, Supervisor(store, REGISTRY, max_working=max(parallel, 1)) as sup:
        # Warm-up: imports, statements, the writer thread.
        await sup.tasks.wait((await sup.tasks.create("bench.ten", {})).id, timeout=60)
        start = time.perf_counter()
        for _ in range(workflows // parallel):
            tasks = [await sup.tasks.create("bench.ten", {}) for _ in range(parallel)]
            for task in tasks:
                done = await sup.tasks.wait(task.id, timeout=120)
                assert done.status == "completed", done.error
        elapsed = time.perf_counter() - start
    return elapsed / ((workflows // parallel) * parallel * STEPS)


DBOS_CHILD = r"""
import asyncio, json, sqlite3, sys, time
from dbos import DBOS
path, mode, wal, n = sys.argv[1], sys.argv[2], sys.argv[3] == "1", int(sys.argv[4])
if wal:
    c = sqlite3.connect(path); c.execute("PRAGMA journal_mode=WAL"); c.close()
DBOS(config={"name": "bench", "system_database_url": f"sqlite:///{path}"})
if mode == "async":
    @DBOS.step()
    async def step(i):
        return {"i": i, "payload": "x" * 200}
    @DBOS.workflow()
    async def wf():
        total = 0
        for i in range(10):
            total += (await step(i))["i"]
        return total
else:
    @DBOS.step()
    def step(i):
        return {"i": i, "payload": "x" * 200}
    @DBOS.workflow()
    def wf():
        total = 0
        for i in range(10):
            total += step(i)["i"]
        return total
DBOS.launch()
async def run_async():
    await wf()
    start = time.perf_counter()
    for _ in range(n):
        await wf()
    return time.perf_counter() - start
def run_sync():
    wf()
    start = time.perf_counter()
    for _ in range(n):
        wf()
    return time.perf_counter() - start
elapsed = asyncio.run(run_async()) if mode == "async" else run_sync()
print(json.dumps({"per_step": elapsed / (n * 10)}))
DBOS.destroy()
"""


def dbos_steps(tmp: Path, mode: str, wal: bool, workflows: int) -> float | None:
    """Seconds per step of DBOS's 10-step workflow (own process), or None if it failed."""
    path = tmp / f"dbos-{mode}-{int(wal)}.sqlite"
    proc = subprocess.run(
        [sys.executable, "-c", DBOS_CHILD, str(path), mode, "1" if wal else "0", str(workflows)],
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "DBOS__CLOUD": ""},
    )
    for line in reversed(proc.stdout.splitlines()):
        if line.startswith("{"):
            return float(json.loads(line)["per_step"])
    print(f"  DBOS {mode} failed: {proc.stderr.strip()[-500:]}", file=sys.stderr)
    return None


async def memory(path: Path, n: int) -> tuple[float, float]:
    """(bytes per pending task waiting for a slot, bytes per parked actor), by tracemalloc."""
    async with Store(path) as store:
        # Pending: one slot, taken by a parked task; n more rows wait in the store.
        async with Supervisor(store, REGISTRY, max_working=1, claim_interval=0.05) as sup:
            await sup.tasks.create("bench.park", {})
            while sup.stats()["working"] < 1:  # noqa: ASYNC110 (a gauge, no event to await)
                await asyncio.sleep(0.01)
            gc.collect()
            tracemalloc.start()
            before = tracemalloc.take_snapshot()
            for _ in range(n):
                await store.create_task("bench.park", {})  # rows only: what a waiting task costs here
            sup.wake()
            await asyncio.sleep(0.3)  # several claim rounds, none can start anything
            gc.collect()
            after = tracemalloc.take_snapshot()
            tracemalloc.stop()
            pending = sum(s.size_diff for s in after.compare_to(before, "filename")) / n
    async with Store(path.with_suffix(".park.db")) as store:
        # Parked: n running tasks whose workflows await ctx.sleep. Rows first, then the supervisor.
        for _ in range(n):
            await store.create_task("bench.park", {})
        PARKED[0] = 0
        gc.collect()
        tracemalloc.start()
        before = tracemalloc.take_snapshot()
        async with Supervisor(store, REGISTRY, max_working=n, claim_interval=0.05) as sup:
            while PARKED[0] < n:  # noqa: ASYNC110 (a counter, no event to await)
                await asyncio.sleep(0.02)
            await asyncio.sleep(0.5)  # the last writes and events settle
            gc.collect()
            after = tracemalloc.take_snapshot()
            tracemalloc.stop()
            stats = after.compare_to(before, "filename")
            parked = sum(s.size_diff for s in stats) / n
            if os.environ.get("BENCH_DEBUG"):
                for stat in stats[:8]:
                    print("   ", stat, file=sys.stderr)
            assert sup.stats()["working"] == n
    return pending, parked


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workflows", type=int, default=60, help="10-step workflows per measurement")
    parser.add_argument("--parked", type=int, default=2000, help="tasks for the memory measurement")
    opts = parser.parse_args()
    ok = True
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        f = await floor(tmp / "floor.db", 2000)
        seq = await exa_orch_steps(tmp / "seq.db", opts.workflows, 1)
        par = await exa_orch_steps(tmp / "par.db", max(opts.workflows, 200), 20)
        print(f"floor   raw aiosqlite INSERT+COMMIT          {f * 1000:7.3f} ms/commit")
        print(
            f"exa-orch 10-step workflow, one at a time     {seq * 1000:7.3f} ms/step  ({seq / f:.2f}x floor)"
        )
        print(
            f"exa-orch 10-step workflows, 20 at once       {par * 1000:7.3f} ms/step  ({1 / par:,.0f} steps/s)"
        )
        if importlib.util.find_spec("dbos") is None:
            print("DBOS    skipped: not installed (pip install -e '.[bench]' installs dbos==3.4.0)")
        else:
            results = {}
            for mode, wal in (("async", False), ("sync", False), ("async", True), ("sync", True)):
                per = dbos_steps(tmp, mode, wal, opts.workflows)
                label = f"DBOS 3.4.0 {mode} steps, {'WAL' if wal else 'as shipped'}"
                if per is None:
                    print(f"{label:44s}  failed")
                    continue
                results[(mode, wal)] = per
                print(f"{label:44s} {per * 1000:7.3f} ms/step  (exa-orch {per / seq:.1f}x faster)")
            if results:
                best = min(results.values())
                verdict = "met" if best / seq >= 3 else "MISSED"
                ok &= best / seq >= 3
                print(
                    f"target  >= 3x faster per step than DBOS's best variant: {best / seq:.1f}x ({verdict})"
                )
        pending, parked = await memory(tmp / "mem.db", opts.parked)
        print(f"memory  per pending task waiting for a slot   {pending:7.0f} B")
        print(f"memory  per parked actor (running, in sleep)   {parked:7.0f} B")
        verdict = "met" if pending <= 5120 and parked <= 5120 else "MISSED"
        ok &= pending <= 5120
        print(f"target  <= 5 KB per waiting task: {verdict}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
