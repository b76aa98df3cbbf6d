"""An agent run is paid for once: a crash between Exa making the run and the task's checkpoint, or a
cancel while the create is in flight, never leaves a second run or a run going unwatched."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from exa_orch.gateway.marks import CREATE_MARK
from exa_orch.runtime.context import TaskContext
from exa_orch.sim.testing import SimHandle
from tests.support import WAIT
from tests.workflows.conftest import OpenApp, agent_runs
from tests.workflows.test_research import MODULE, start

ARGS = {"instructions": "AI startups in Europe", "model": "exa-research-pro"}


@pytest.fixture
def sim(slow_sim: SimHandle) -> SimHandle:
    return slow_sim


def stall_checkpoint(monkeypatch: pytest.MonkeyPatch, key: str) -> asyncio.Event:
    """Make the checkpoint of step `key` never land (the process "dies" between Exa and the store);
    the returned event is set once the step's Exa call has answered and its write has begun."""
    reached = asyncio.Event()
    save = TaskContext._save

    async def stalled(self: TaskContext, step: str, result: Any) -> None:
        if step == key:
            reached.set()
            await asyncio.Event().wait()  # until the app closes (cancelled)
        await save(self, step, result)

    monkeypatch.setattr(TaskContext, "_save", stalled)
    return reached


async def test_a_run_made_before_a_crash_is_found_not_made_again(
    research_app: OpenApp, sim: SimHandle, monkeypatch: pytest.MonkeyPatch
) -> None:
    reached = stall_checkpoint(monkeypatch, "research.create")
    async with research_app(MODULE) as app:
        task_id = await start(app, ARGS)
        await asyncio.wait_for(reached.wait(), WAIT)
        assert "research.create" not in await app.store.load_steps(task_id)
    made = list(agent_runs(sim).runs)
    assert len(made) == 1
    monkeypatch.undo()
    async with research_app(MODULE) as app:
        assert app.supervisor is not None
        done = await app.supervisor.tasks.wait(task_id, timeout=WAIT)
    assert done.status == "completed", done.error
    assert list(agent_runs(sim).runs) == made == [done.result["researchId"]]
    assert sim.creates_by_key(CREATE_MARK) == {f"agent_run:{task_id}:research.create": 1}


async def test_a_cancel_reaches_a_run_whose_create_was_in_flight(
    research_app: OpenApp, sim: SimHandle, monkeypatch: pytest.MonkeyPatch
) -> None:
    reached = stall_checkpoint(monkeypatch, "research.create")
    async with research_app(MODULE) as app:
        task_id = await start(app, ARGS)
        await asyncio.wait_for(reached.wait(), WAIT)
        cancelled = await app.run_operation("tasks.cancel", {"taskId": task_id})
        assert cancelled["status"] == "cancelled", cancelled
        [run_id] = list(agent_runs(sim).runs)
        got = await app.run_operation("research.get", {"researchId": run_id})
    assert got["status"] == "cancelled", got


@pytest.mark.parametrize(
    ("operation", "kind"), [("enrichments.create", "enrichment"), ("research.create", "agent_run")]
)
async def test_an_operation_task_killed_before_its_checkpoint_finds_its_object(
    research_app: OpenApp, sim: SimHandle, monkeypatch: pytest.MonkeyPatch, operation: str, kind: str
) -> None:
    async with research_app(MODULE) as app:
        webset = await app.run_operation("websets.create", {"externalId": "w-op"})
    args = (
        {"websetId": webset["id"], "description": "CEO name", "format": "text"}
        if kind == "enrichment"
        else {"instructions": "who makes RISC-V chips?"}
    )
    reached = stall_checkpoint(monkeypatch, "operation")
    async with research_app(MODULE) as app:
        created = await app.run_operation(
            "tasks.create", {"type": "operation", "operation": operation, "args": args}
        )
        task_id = created["taskId"]
        await asyncio.wait_for(reached.wait(), WAIT)
    monkeypatch.undo()
    async with research_app(MODULE) as app:
        assert app.supervisor is not None
        done = await app.supervisor.tasks.wait(task_id, timeout=WAIT)
    assert done.status == "completed", done.error
    assert sim.stats()["creates_by_kind"][kind] == 1
    assert sim.creates_by_key(CREATE_MARK) == {"webset:w-op": 1, f"{kind}:{task_id}:operation": 1}
