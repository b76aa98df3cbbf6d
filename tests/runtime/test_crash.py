"""Crash safety across processes: SIGKILL mid-task, and two processes sharing one database."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

import pytest

from exa_orch.sim.testing import SimHandle
from exa_orch.store import Store, TaskRecord, TaskStatus
from tests.support import WAIT, until

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow


async def spawn(db: Path, sim: SimHandle, max_working: int = 20) -> tuple[asyncio.subprocess.Process, str]:
    """Start tests/runtime/child.py and wait for its "ready <owner>" line."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.runtime.child",
        str(db),
        sim.url,
        str(max_working),
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
