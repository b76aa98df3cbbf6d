"""Cross-server cancel on PostgreSQL: how long from server B's `tasks.cancel` to the task stopped on A.

    .venv/bin/python bench/pg_cancel.py [--rounds 20] [--heartbeat 60] [--postgres URL]

Two Stores and Supervisors on one database (a throwaway local cluster unless `--postgres URL`,
which must be an empty database or one exa-orch migrated). A runs a task parked in `ctx.sleep`
with a cancel hook; B, which can't run that type, cancels it through its TaskService. Printed: the
time until A's actor stopped (hook run, `cancelled` written) and until B's call returned the
cancelled task. A's heartbeat is long (default 60 s), so only the NOTIFY path can be fast; with
`--heartbeat 2` on a build without it, both figures are the heartbeat's (up to 2 s).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from pydantic import BaseModel

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from exa_orch.runtime import Deps, Supervisor, TaskContext, WorkflowRegistry, WorkflowSpec  # noqa: E402
from exa_orch.store import Store  # noqa: E402


class NoArgs(BaseModel):
    pass


async def parked(ctx: TaskContext, args: NoArgs) -> dict[str, Any]:
    made = await ctx.step("create", lambda: {"id": "thing"})

    async def undo() -> None:
        ctx.deps.extras["undone"].append(made["id"])

    ctx.on_cancel(undo)
    ctx.deps.extras["parked"].put_nowait(ctx.task_id)  # tell the bench: hook registered, sleeping now
    await ctx.sleep(3600)
    return made


async def _noop(ctx: TaskContext, args: NoArgs) -> dict[str, Any]:
    return {}


PARKED = WorkflowSpec("bench.parked", NoArgs, parked, "a checkpoint, its cancel hook, a long sleep")
OTHER = WorkflowSpec("bench.noop", NoArgs, _noop, "B runs only this, so A runs every parked task")


async def measure(url: str, rounds: int, heartbeat: float) -> None:
    undone: list[str] = []
    parked_ids: asyncio.Queue[str] = asyncio.Queue()
    slow = {"heartbeat": heartbeat, "lease_ttl": max(15.0, 2 * heartbeat), "claim_interval": 1.0}
    stopped_ms: list[float] = []
    returned_ms: list[float] = []
    async with (
        Store(url) as a,
        Store(url) as b,
        Supervisor(
            a, WorkflowRegistry([PARKED]), Deps(extras={"undone": undone, "parked": parked_ids}), **slow
        ) as runner,
        Supervisor(b, WorkflowRegistry([OTHER]), **slow) as asker,
    ):
        for _ in range(rounds):
            task = await runner.tasks.create("bench.parked", {})
            assert await parked_ids.get() == task.id
            actor = runner.actor(task.id)
            assert actor is not None
            started = time.perf_counter()

            async def stopped(actor: Any = actor, started: float = started) -> None:
                await actor.wait_done()
                stopped_ms.append((time.perf_counter() - started) * 1000)

            stops = asyncio.ensure_future(stopped())
            record = await asker.tasks.cancel(task.id)
            returned_ms.append((time.perf_counter() - started) * 1000)
            await stops
            assert str(record.status) == "cancelled", record.status
    assert len(undone) == rounds  # every hook ran
    for name, values in (("A's actor stopped", stopped_ms), ("B's tasks.cancel returned", returned_ms)):
        values.sort()
        print(
            f"{name:<26} p50 {statistics.median(values):7.1f} ms  max {values[-1]:7.1f} ms  "
            f"({rounds} rounds, A's heartbeat {heartbeat:g} s)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--heartbeat", type=float, default=60.0)
    parser.add_argument(
        "--postgres", metavar="URL", help="an existing database instead of a throwaway cluster"
    )
    ns = parser.parse_args()
    if ns.postgres:
        asyncio.run(measure(ns.postgres, ns.rounds, ns.heartbeat))
        return
    from exa_orch.store.pgcluster import Cluster, ClusterUnavailable

    with tempfile.TemporaryDirectory(prefix="exa-orch-bench-") as tmp:
        try:
            cluster = Cluster.start(Path(tmp))
        except ClusterUnavailable as exc:
            sys.exit(f"no PostgreSQL here ({exc}); give --postgres URL")
        with cluster:
            asyncio.run(measure(cluster.create_database("bench"), ns.rounds, ns.heartbeat))


if __name__ == "__main__":
    main()
