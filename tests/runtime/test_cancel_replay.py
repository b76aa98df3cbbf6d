"""A task cancelled while nobody runs it still cancels the Exa work its earlier run started.

The earlier run is written into the store as a dead server leaves it: `rt.webset` working, its
"create" step checkpointed (the webset exists at the simulator), the lease lapsed. The workflow
registers its cancel hook (cancel the webset at Exa) right after that step, so only a run that
replays the checkpoints knows the hook.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from exa_orch.sim.testing import SimHandle
from exa_orch.store import Store, TaskRecord, TaskStatus
from tests.runtime.conftest import supervisor
from tests.support import WAIT, until

GONE = "otherhost:4242:dead"  # the earlier run's server: its lease has lapsed


@pytest.fixture
async def http(sim: SimHandle) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=sim.url, headers={"x-api-key": "test"}) as client:
        yield client


async def _left_by_a_dead_run(store: Store, http: httpx.AsyncClient) -> tuple[TaskRecord, str]:
    task = await store.create_task("rt.webset", {"count": 50, "poll": 0.05})
    assert await store.acquire_lease(task.id, GONE, 0.001)
    await store.transition(task.id, TaskStatus.WORKING, owner=GONE)
    body = {"search": {"query": "AI infrastructure startups", "count": 50}, "externalId": f"{task.id}:create"}
    webset = (await http.post("/websets/v0/websets", json=body)).json()
    await store.save_step(task.id, "create", webset, owner=GONE)
    return task, webset["id"]


def _cancels(sim: SimHandle, webset_id: str) -> int:
    path = f"/websets/v0/websets/{webset_id}/cancel"
    return sum(1 for e in sim.log() if e["method"] == "POST" and e["path"] == path)


async def test_tasks_cancel_of_a_task_nobody_runs_runs_its_cancel_hooks(
    store: Store, http: httpx.AsyncClient, sim: SimHandle
) -> None:
    # The claim loop ticks once at start, before the task exists, then not for a minute: the
    # cancel below finds the task unowned.
    async with supervisor(store, {"http": http}, claim_interval=60.0) as sup:
        task, webset_id = await _left_by_a_dead_run(store, http)
        done = await sup.tasks.cancel(task.id)
    assert done.status is TaskStatus.CANCELLED
    assert _cancels(sim, webset_id) == 1
    assert sim.stats()["creates_by_external_id"] == {f"{task.id}:create": 1}  # nothing new started
    assert list(await store.load_steps(task.id)) == ["create"]


async def test_a_resumed_task_whose_cancel_was_requested_runs_its_cancel_hooks(
    store: Store, http: httpx.AsyncClient, sim: SimHandle
) -> None:
    task, webset_id = await _left_by_a_dead_run(store, http)
    await store.request_cancel(task.id)  # asked while its server was down
    async with supervisor(store, {"http": http}) as sup:

        async def ended() -> bool:
            return (await sup.tasks.get(task.id)).terminal

        await until(ended)
    assert (await store.get_task(task.id)).status is TaskStatus.CANCELLED
    assert _cancels(sim, webset_id) == 1
    assert sim.stats()["creates_by_external_id"] == {f"{task.id}:create": 1}
    assert list(await store.load_steps(task.id)) == ["create"]


class SlowCheckpoints(Store):
    """A store whose "create" checkpoint commits, then takes until `gate` opens to report back."""

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.reached = asyncio.Event()
        self.gate = asyncio.Event()

    async def save_step(self, task_id: str, step_key: str, result: Any, *, owner: str | None = None) -> None:
        await super().save_step(task_id, step_key, result, owner=owner)
        if step_key == "create":
            self.reached.set()
            await self.gate.wait()


async def test_a_cancel_landing_while_a_checkpoint_is_written_still_runs_the_hook_after_it(
    db_path: Path,
) -> None:
    # The interrupt reaches the workflow while its "create" checkpoint is being written (it
    # commits regardless): the step still returns, so the hook registered right after it runs.
    undone: list[str] = []

    async def undo(thing: str) -> None:
        undone.append(thing)

    async with SlowCheckpoints(db_path) as store, supervisor(store, {"undo": undo}) as sup:
        task = await sup.tasks.create("rt.gated", {})
        await asyncio.wait_for(store.reached.wait(), WAIT)
        cancelling = asyncio.create_task(sup.tasks.cancel(task.id))
        await until(lambda: _cancel_seen(store, task.id))
        store.gate.set()
        done = await asyncio.wait_for(cancelling, WAIT)
        saved = await store.load_steps(task.id)
    assert done.status is TaskStatus.CANCELLED
    assert saved == {"create": {"id": "thing-1"}}
    assert undone == ["thing-1"]


async def _cancel_seen(store: Store, task_id: str) -> bool:
    return (await store.get_task(task_id)).cancel_requested
