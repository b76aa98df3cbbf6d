"""research.deep on the whole app and the simulator's Agent API (runs take 0.9-1.7 s at speed 25)."""

from __future__ import annotations

from typing import Any

import pytest

from exa_orch.app import App
from exa_orch.errors import InvalidParams
from exa_orch.gateway.marks import CREATE_MARK
from exa_orch.sim.testing import SimHandle
from tests.support import WAIT, until_steps
from tests.workflows.conftest import OpenApp, agent_runs, run_task

MODULE = "exa_orch.workflows.research"
SCHEMA = {
    "type": "object",
    "required": ["companies"],
    "properties": {"companies": {"type": "array", "items": {"type": "string"}}},
}


@pytest.fixture
def sim(slow_sim: SimHandle) -> SimHandle:
    """Slower than the shared simulator, so a run is still going while a test restarts or cancels."""
    return slow_sim


async def start(app: App, args: dict[str, Any]) -> str:
    created = await app.run_operation("tasks.create", {"type": "research.deep", **args})
    return str(created["taskId"])


async def test_deep_research_returns_the_structured_answer(research_app: OpenApp, sim: SimHandle) -> None:
    async with research_app(MODULE) as app:
        done = await run_task(
            app, "research.deep", {"instructions": "AI startups in Europe", "outputSchema": SCHEMA}
        )
        text = await run_task(
            app, "research.deep", {"instructions": "AI startups in Europe", "model": "exa-research-pro"}
        )
    assert done.status == "completed", done.error
    result = done.result
    assert set(result) >= {"researchId", "status", "result", "model", "duration"}
    run = agent_runs(sim).get(result["researchId"])  # a real run at the sim, run at effort medium
    assert run.request["effort"] == "medium" and run.request["outputSchema"] == SCHEMA
    assert result["status"] == "completed" and result["model"] == "exa-research"
    assert result["timedOut"] is False
    assert isinstance(result["result"], dict) and isinstance(result["result"]["companies"], list)
    assert result["citations"] and all(c["urls"] for c in result["citations"])
    # from the create's checkpoint to the run seen done: above 0, but no wall-clock floor (a busy
    # machine may hand the create's answer back after most of the run's 22 simulated seconds)
    assert result["duration"] > 0
    # Without a schema the result is the answer's markdown text; pro runs at effort high.
    assert text.status == "completed", text.error
    assert isinstance(text.result["result"], str) and text.result["result"]
    assert text.result["model"] == "exa-research-pro"
    assert agent_runs(sim).get(text.result["researchId"]).request["effort"] == "high"
    assert len(agent_runs(sim).runs) == 2
    assert done.progress is not None and (done.progress["completed"], done.progress["total"]) == (2, 2)


async def test_bad_args_are_refused_before_any_task_is_written(research_app: OpenApp) -> None:
    async with research_app(MODULE) as app:
        for args, field in (
            ({"instructions": "x", "model": "gpt-4"}, "model"),
            ({"instruction": "x"}, "instruction"),
            ({"instructions": ""}, "instructions"),
            ({"instructions": "x", "timeout": -5}, "timeout"),
            # exa-orch's bounds on a run's input (Exa documents none): refused at tasks.create
            ({"instructions": "x", "input": {"data": [{"n": i} for i in range(2001)]}}, "input.data"),
            ({"instructions": "x", "input": {"data": [{"d": "x" * 1_000_000}]}}, "input"),
            ({"instructions": "x", "systemPrompt": "s" * 20_001}, "systemPrompt"),
        ):
            with pytest.raises(InvalidParams) as err:
                await start(app, args)
            assert field in err.value.fields, (args, err.value.fields)
        tasks, _ = await app.store.list_tasks()
    assert tasks == []


async def test_a_timeout_returns_the_status_so_far(research_app: OpenApp, sim: SimHandle) -> None:
    sim.ctx.clock.set_speed(1e-9)  # held: the run is still going however late the 0.3 s timeout ends
    async with research_app(MODULE) as app:
        done = await run_task(
            app, "research.deep", {"instructions": "AI startups", "model": "exa-research-pro", "timeout": 300}
        )
    assert done.status == "completed", done.error
    assert done.result["timedOut"] is True and done.result["status"] in ("queued", "running")
    assert done.result["result"] is None
    # The run goes on at Exa: its id is there to fetch it later.
    assert agent_runs(sim).get(done.result["researchId"]).frozen_status is None


async def test_a_failed_run_fails_the_task_naming_the_run(research_app: OpenApp) -> None:
    async with research_app(MODULE) as app:
        done = await run_task(app, "research.deep", {"instructions": "AI startups [sim:fail]"})
        steps = await app.store.load_steps(done.id)
    assert done.status == "failed"
    assert done.error is not None and done.error["code"] == "API_ERROR"
    assert steps["research.create"]["researchId"] in done.error["message"]


async def test_a_restart_mid_run_resumes_without_a_second_run(research_app: OpenApp, sim: SimHandle) -> None:
    args = {"instructions": "AI startups in Europe", "model": "exa-research-pro"}
    async with research_app(MODULE) as app:
        task_id = await start(app, args)
        await until_steps(app.store, task_id, "research.create")
    async with research_app(MODULE) as app:
        assert app.supervisor is not None
        done = await app.supervisor.tasks.wait(task_id, timeout=WAIT)
    assert done.status == "completed", done.error
    assert done.result["status"] == "completed" and isinstance(done.result["result"], str)
    assert list(agent_runs(sim).runs) == [done.result["researchId"]]
    assert sim.creates_by_key(CREATE_MARK) == {f"agent_run:{task_id}:research.create": 1}


async def test_cancel_mid_run_cancels_the_research_run(research_app: OpenApp, sim: SimHandle) -> None:
    async with research_app(MODULE) as app:
        assert app.supervisor is not None
        task_id = await start(app, {"instructions": "AI startups", "model": "exa-research-pro"})
        await until_steps(app.store, task_id, "research.create")
        record = await app.supervisor.tasks.cancel(task_id)
        steps = await app.store.load_steps(task_id)
    assert record.status == "cancelled"
    run = agent_runs(sim).get(steps["research.create"]["researchId"])
    assert run.frozen_status == "cancelled"
