"""Workflows whose steps call the simulator: no duplicated side effects, cancel reaches Exa."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from exa_orch.sim.context import SimConfig
from exa_orch.sim.testing import SimHandle, running_sim
from exa_orch.store import Store, TaskStatus
from tests.runtime.conftest import supervisor
from tests.support import WAIT, until


@pytest.fixture
async def http(sim: SimHandle) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=sim.url, headers={"x-api-key": "test-key"}) as client:
        yield client


async def test_webset_workflow_creates_each_object_once(
    store: Store, sim: SimHandle, http: httpx.AsyncClient
) -> None:
    async with supervisor(store, {"http": http}) as sup:
        task = await sup.tasks.create("rt.webset", {"count": 3})
        done = await sup.tasks.wait(task.id, timeout=WAIT)
    assert done.status is TaskStatus.COMPLETED, done.error
    assert done.result["externalId"] == f"{task.id}:create"
    assert done.result["items"] >= 1
    assert sim.stats()["creates_by_external_id"] == {f"{task.id}:create": 1}


async def test_resumed_step_finds_the_object_its_dead_run_created(
    store: Store, sim: SimHandle, http: httpx.AsyncClient
) -> None:
    # A previous run leased the task, created the webset at Exa, and died before its checkpoint.
    task = await store.create_task("rt.webset", {"count": 2})
    assert await store.acquire_lease(task.id, "elsewhere:1:dead", 0.01)
    await store.transition(task.id, "working")
    made = await http.post(
        "/websets/v0/websets", json={"search": {"query": "x", "count": 2}, "externalId": f"{task.id}:create"}
    )
    assert made.status_code in (200, 201)
    async with supervisor(store, {"http": http}) as sup:
        done = await sup.tasks.wait(task.id, timeout=WAIT)
    assert done.status is TaskStatus.COMPLETED, done.error
    assert done.result["websetId"] == made.json()["id"]
    stats = sim.stats()
    assert stats["creates_by_external_id"] == {f"{task.id}:create": 1}
    assert not stats.get("conflicts_by_external_id")  # looked up first, so no second create at all


async def test_a_409_on_create_fetches_the_existing_object(
    store: Store, sim: SimHandle, http: httpx.AsyncClient
) -> None:
    # Pending (not resumed), yet Exa already has the object: the create's 409 turns into a fetch.
    task = await store.create_task("rt.webset", {"count": 2})
    made = await http.post(
        "/websets/v0/websets", json={"search": {"query": "x", "count": 2}, "externalId": f"{task.id}:create"}
    )
    async with supervisor(store, {"http": http}) as sup:
        done = await sup.tasks.wait(task.id, timeout=WAIT)
    assert done.status is TaskStatus.COMPLETED, done.error
    assert done.result["websetId"] == made.json()["id"]
    stats = sim.stats()
    assert stats["creates_by_external_id"] == {f"{task.id}:create": 1}
    assert stats["conflicts_by_external_id"] == {f"{task.id}:create": 1}


async def test_cancel_while_waiting_on_exa_ends_cancelled_and_cancels_the_webset(db_path: Path) -> None:
    # speed 1: a 100-item search takes minutes, so the workflow is surely waiting on Exa.
    async with (
        running_sim(SimConfig(speed=1.0)) as slow,
        httpx.AsyncClient(base_url=slow.url, headers={"x-api-key": "k"}) as http,
        Store(db_path) as store,
        supervisor(store, {"http": http}) as sup,
    ):
        task = await sup.tasks.create("rt.webset", {"count": 100, "poll": 0.05})

        async def waiting() -> bool:
            return "create" in await store.load_steps(task.id)

        await until(waiting)
        webset_id = (await store.load_steps(task.id))["create"]["id"]
        cancelled = await sup.tasks.cancel(task.id)
        assert cancelled.status is TaskStatus.CANCELLED
        cancels = [
            e for e in slow.log() if e["method"] == "POST" and e["path"].endswith(f"/{webset_id}/cancel")
        ]
        assert len(cancels) == 1 and cancels[0]["status"] == 200
        webset = (await http.get(f"/websets/v0/websets/{webset_id}")).json()
        assert webset["status"] != "running"
    async with Store(db_path) as again:
        assert (await again.get_task(task.id)).status is TaskStatus.CANCELLED
        assert [e["status"] for e in await again.events(task.id) if e.get("kind") == "status"][
            -1
        ] == "cancelled"
