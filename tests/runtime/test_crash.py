"""Crash safety across processes: SIGKILL mid-task, and two processes sharing one database."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import time
from pathlib import Path

import pytest

from exa_orch.sim.testing import SimHandle
from exa_orch.store import Store, TaskRecord, TaskStatus
from exa_orch.store.leases import MAX_LOST_RUNS
from exa_orch.store.records import iso
from tests.support import WAIT, until

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow


async def spawn(
    db: Path, sim: SimHandle, max_working: int = 20, lease_ttl: float = 15.0
) -> tuple[asyncio.subprocess.Process, str]:
    """Start tests/runtime/child.py and wait for its "ready <owner>" line."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.runtime.child",
        str(db),
        sim.url,
        str(max_working),
        str(lease_ttl),
        cwd=ROOT,
        stdout=asyncio.subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert proc.stdout is not None
    async with asyncio.timeout(WAIT):
        line = (await proc.stdout.readline()).decode().strip()
    assert line.startswith("ready "), line
    return proc, line.removeprefix("ready ")


async def stop(proc: asyncio.subprocess.Process, sig: int = signal.SIGTERM) -> int:
    if proc.returncode is None:
        proc.send_signal(sig)
    async with asyncio.timeout(WAIT):
        return await proc.wait()


async def finished(store: Store, task_id: str) -> TaskRecord:
    async def terminal() -> bool:
        return (await store.get_task(task_id)).terminal

    await until(terminal, within=WAIT, every=0.05)
    return await store.get_task(task_id)


async def test_sigkill_mid_task_then_a_new_process_finishes_it_without_repeating_steps(
    db_path: Path, sim: SimHandle
) -> None:
    async with Store(db_path) as store:
        task = await store.create_task("rt.websets", {"count": 4, "pause": 0.3})
        first, first_owner = await spawn(db_path, sim)
        try:

            async def two_created() -> bool:
                return len(await store.load_steps(task.id)) >= 2

            await until(two_created, within=WAIT, every=0.01)
        finally:
            assert await stop(first, signal.SIGKILL) == -signal.SIGKILL
        killed = await store.get_task(task.id)
        assert killed.status is TaskStatus.WORKING and killed.lease_owner == first_owner
        second, second_owner = await spawn(db_path, sim)
        try:
            resumed = await finished(store, task.id)
            # The same workflow, uninterrupted, in the same (new) process, for comparison.
            reference = await finished(store, (await store.create_task("rt.websets", {"count": 4})).id)
        finally:
            assert await stop(second) == 0
        claims = [e["data"]["owner"] for e in await store.events(task.id) if e["kind"] == "claimed"]
    assert resumed.status is TaskStatus.COMPLETED, resumed.error
    assert claims == [first_owner, second_owner]
    assert {k: v for k, v in resumed.result.items() if k != "websets"} == {
        k: v for k, v in reference.result.items() if k != "websets"
    }
    assert len(set(resumed.result["websets"])) == 4
    creates = sim.stats()["creates_by_external_id"]
    mine = {k: v for k, v in creates.items() if k.startswith(f"{task.id}:")}
    assert mine == {f"{task.id}:create:{i}": 1 for i in range(4)}


async def test_two_processes_on_one_database_run_every_step_exactly_once(
    db_path: Path, sim: SimHandle
) -> None:
    async with Store(db_path) as store:
        a, owner_a = await spawn(db_path, sim, max_working=10)
        b, owner_b = await spawn(db_path, sim, max_working=10)
        try:
            ids = [(await store.create_task("rt.websets", {"count": 2})).id for _ in range(50)]
            done = [await finished(store, task_id) for task_id in ids]
        finally:
            codes = [await stop(a), await stop(b)]
        owners = {
            e["data"]["owner"]
            for task_id in ids
            for e in await store.events(task_id)
            if e["kind"] == "claimed"
        }
    assert codes == [0, 0]
    assert {d.status for d in done} == {TaskStatus.COMPLETED}, [d.error for d in done if d.error]
    assert owners == {owner_a, owner_b}  # both processes did part of the work
    creates = sim.stats()["creates_by_external_id"]
    assert len(creates) == 100
    assert set(creates.values()) == {1}
    assert not sim.stats().get("conflicts_by_external_id")


async def test_cancel_from_another_process_stops_the_running_task(db_path: Path, sim: SimHandle) -> None:
    async with Store(db_path) as store:
        task = await store.create_task("rt.steps", {"steps": 50, "sleep": 1.0})
        child, _ = await spawn(db_path, sim)
        try:

            async def started() -> bool:
                return (await store.get_task(task.id)).status is TaskStatus.WORKING

            await until(started, within=WAIT)
            await store.request_cancel(task.id)  # this process never ran the task
            done = await finished(store, task.id)
        finally:
            assert await stop(child) == 0
        steps = await store.load_steps(task.id)
    assert done.status is TaskStatus.CANCELLED
    assert len(steps) <= 2  # stopped within a heartbeat, in the middle of a 1 s step


async def test_a_task_that_stalls_its_server_is_given_up_and_the_tasks_beside_it_are_not(
    db_path: Path, sim: SimHandle
) -> None:
    # One server runs a task whose step blocks its event loop past the lease TTL, beside two tasks
    # that wait (no checkpoint, no report: nothing to show for any run). Each time the leases lapse,
    # another server takes all three and dies holding them (this test, claiming as a process on
    # another host). The stalled server wakes, finds its leases taken, and takes them back once they
    # expire. Only the task that stalls it may be given up: the two beside it did nothing wrong.
    ttl = 0.6
    async with Store(db_path) as store:
        # It waits a moment before it stalls, so the server takes its other tasks back first.
        stall = await store.create_task("rt.stall", {"hold": 4 * ttl, "wait": ttl})
        waiting = [(await store.create_task("rt.steps", {"steps": 1, "sleep": 3_600})).id for _ in range(2)]
        server, owner = await spawn(db_path, sim, max_working=3, lease_ttl=ttl)
        try:
            for n in range(3 * MAX_LOST_RUNS):

                async def taken(n: int = n) -> bool:
                    # Once the staller's lease lapsed in the server's hands (the stall), take every
                    # lapsed lease the server holds, as a process that then dies holding them.
                    rows = await store.get_tasks([stall.id, *waiting])
                    if any(r.terminal for r in rows):
                        return True
                    now = iso(time.time())
                    lapsed = [r for r in rows if r.lease_owner == owner and (r.lease_expires_at or now) < now]
                    if stall.id not in {r.id for r in lapsed}:
                        return False
                    for row in lapsed:  # held past the stall: the server sees them taken when it wakes
                        assert await store.acquire_lease(row.id, f"otherhost:{n}:dies", 6 * ttl)
                    return True

                await until(taken, within=WAIT, every=0.02, what=f"the stall's lapsed leases, round {n}")
                if any(r.terminal for r in await store.get_tasks([stall.id, *waiting])):
                    break
            given_up = await store.get_task(stall.id)
            beside = [await store.get_task(task_id) for task_id in waiting]
            notes = {task_id: await lapses(store, task_id) for task_id in (stall.id, *waiting)}
        finally:
            assert await stop(server) == 0
    assert given_up.status is TaskStatus.FAILED and given_up.error is not None
    assert given_up.error["code"] == "TASK_ABANDONED"
    assert [r.status for r in beside] == [TaskStatus.WORKING, TaskStatus.WORKING], [r.error for r in beside]
    # The server noted the leases it lost and lived through, naming the staller alone as the suspect.
    assert notes[stall.id] and all(suspect for suspect in notes[stall.id])
    assert all(notes[task_id] and not any(notes[task_id]) for task_id in waiting), notes


async def lapses(store: Store, task_id: str) -> list[bool]:
    """Whether the task was the suspect, for each lost lease whose holder noted it lived on."""
    claims = [e["data"] for e in await store.events(task_id) if e["kind"] == "claimed"]
    return [claim["lapse"]["suspect"] for claim in claims if "lapse" in claim]
