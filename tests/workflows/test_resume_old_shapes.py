"""A task checkpointed by the version before the typed run steps resumes on its checkpoints (issue 38).

That version saved each agent run step as `exa.views.research_view` shows the run: a create
(`research.start_research`) with the run's `model`, a read (`research.poll_run`) with `timedOut` and
`at`. The steps are now `runs.RunSeen` (exa-py's `AgentRun` under `run`); `runs.RunSeen.load` reads
an old one through `runs.seen_from_research_view`. Each test here runs a task to its end, writes its
run steps back in the old shape under a new task left by a dead server, and resumes that task: it
ends with the same result (durations aside) and makes nothing new at Exa. adversarial.verify's
synthesis steps were saved by `research.start_research` / `wait_run` (a view with `waitedSeconds`,
no `at`): the last test resumes a verification on those.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from exa_orch.exa.port import agent_run
from exa_orch.exa.views import research_view
from exa_orch.sim.testing import SimHandle
from exa_orch.store import Store, TaskRecord, TaskStatus
from exa_orch.workflows.runs import RunSeen, seen_from_research_view
from tests.support import WAIT
from tests.workflows.conftest import OpenApp, agent_runs, run_task
from tests.workflows.test_adversarial import ARGS as ADVERSARIAL_ARGS
from tests.workflows.test_verified import ARGS as VERIFIED_ARGS

GONE = "otherhost:4242:dead"  # the earlier version's server: its lease has lapsed
MODULE = "exa_orch.workflows.verified"
ARGS = {**VERIFIED_ARGS, "researchLimit": 2}


def old_shape(key: str, saved: Any) -> Any:
    """A step as the earlier version saved it: a run step as its research view, the rest as is."""
    if not isinstance(saved, dict) or "run" not in saved:
        return saved
    view = research_view(saved["run"])
    if ".wait" in key or ".poll" in key:  # research.poll_run's read
        return {**view, "timedOut": saved["timedOut"], "at": saved["at"]}
    return {**view, "model": "exa-research"}  # research.start_research's create (no `at`)


def without_durations(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: without_durations(v) for k, v in value.items() if k != "duration"}
    if isinstance(value, list):
        return [without_durations(v) for v in value]
    return value


async def resume_as_old(
    research_app: OpenApp,
    tmp_path: Path,
    module: str,
    first: TaskRecord,
    steps: dict[str, Any],
    shape: Callable[[str, Any], Any],
) -> tuple[TaskRecord, dict[str, Any]]:
    """The earlier version's task, written while no server runs (the same args as `first`, its
    `steps` as `shape` gives them, its server gone), resumed by a new server: (its end, its steps)."""
    async with Store(tmp_path / "workflows.db") as store:
        task = await store.create_task(first.type, first.args)
        assert await store.acquire_lease(task.id, GONE, 0.001)
        await store.transition(task.id, TaskStatus.WORKING, owner=GONE)
        for key, saved in steps.items():
            await store.save_step(task.id, key, shape(key, saved), owner=GONE)
    async with research_app(module) as app:
        assert app.supervisor is not None
        done = await app.supervisor.tasks.wait(task.id, timeout=WAIT)
        return done, await app.store.load_steps(task.id)


@pytest.mark.parametrize(
    ("engine", "run_steps"),
    [
        ("agent", {"rows.create", "rows.wait", "research.batch:0", "research.batch.poll:0"}),
        ("websets", {"research.create:0", "research.poll:0", "research.create:1", "research.poll:1"}),
    ],
)
async def test_a_task_whose_run_steps_are_research_views_resumes_on_them(
    research_app: OpenApp, sim: SimHandle, tmp_path: Path, engine: str, run_steps: set[str]
) -> None:
    async with research_app(MODULE) as app:
        first = await run_task(app, "research.verifiedCollection", {**ARGS, "engine": engine}, within=WAIT)
        assert first.status == "completed", first.error
        steps = await app.store.load_steps(first.id)
    assert run_steps <= {k for k, v in steps.items() if isinstance(v, dict) and "run" in v}
    made = set(agent_runs(sim).runs)
    done, kept = await resume_as_old(research_app, tmp_path, MODULE, first, steps, old_shape)
    assert done.status == "completed", done.error
    assert all("run" not in kept[k] and "researchId" in kept[k] for k in run_steps)  # read as saved
    assert without_durations(done.result) == without_durations(first.result)
    assert set(agent_runs(sim).runs) == made  # nothing started again


async def test_a_research_view_reads_as_the_run_it_showed() -> None:
    """What the view kept of a run (id, status, stop reason, times, error, cost, output with its
    grounding) is what the compat read gives the workflow, typed."""
    run = await agent_run({
        "id": "run_1", "object": "agent_run", "status": "completed", "stopReason": "schema_satisfied",
        "createdAt": "2026-01-01T00:00:00Z", "costDollars": {"total": 0.1},
        "output": {"text": "", "structured": {"rows": [{"name": "Acme"}]},
                   "grounding": [{"field": "rows[0].name", "citations": [{"url": "https://acme.example"}]}]},
        "request": {"effort": "medium", "metadata": {"exaOrchKey": "task_1:rows.create"}},
    })  # fmt: skip
    view = research_view(run.model_dump(by_alias=True, exclude_none=True, mode="json"))
    seen = await RunSeen.load({**view, "timedOut": True, "at": 12.5})
    assert (seen.run.id, seen.run.status, seen.run.stop_reason) == ("run_1", "completed", "schema_satisfied")
    assert (seen.at, seen.timed_out) == (12.5, True)
    assert seen.run.output is not None and seen.run.output.structured == {"rows": [{"name": "Acme"}]}
    assert [(g.field, [c.url for c in g.citations]) for g in seen.run.output.grounding or []] == [
        ("rows[0].name", ["https://acme.example"])
    ]
    assert seen.run.cost_dollars is not None and seen.run.cost_dollars.total == 0.1
    created = seen_from_research_view({**view, "model": "exa-research"})  # a create's view: no `at`
    assert created["timedOut"] is False and created["at"] > 0 and created["run"]["id"] == "run_1"


def old_synthesis_shape(key: str, saved: Any) -> Any:
    """adversarial.verify's synthesis steps as the earlier version saved them: the create as
    `research.start_research` kept it (the run's research view with its `model`), the wait as
    `research.wait_run` did (the view with `timedOut` and `waitedSeconds`, no `at`)."""
    if key == "synthesis.create":
        return {**research_view(saved["run"]), "model": "exa-research"}
    if key == "synthesis.poll":
        return {**research_view(saved["run"]), "timedOut": saved["timedOut"], "waitedSeconds": 1.5}
    return saved


async def test_a_verification_whose_synthesis_steps_are_research_views_resumes_on_them(
    research_app: OpenApp, sim: SimHandle, tmp_path: Path
) -> None:
    """adversarial.verify's synthesis.create and synthesis.poll, saved as research views by the
    version before the typed synthesis, resume into the same verdict with no run started again."""
    module = "exa_orch.workflows.adversarial"
    async with research_app(module) as app:
        first = await run_task(
            app, "adversarial.verify", {**ADVERSARIAL_ARGS, "synthesize": True}, within=WAIT
        )
        assert first.status == "completed", first.error
        steps = await app.store.load_steps(first.id)
    assert "verdict" in first.result["synthesis"]
    assert all("run" in steps[k] for k in ("synthesis.create", "synthesis.poll"))
    made = set(agent_runs(sim).runs)
    done, kept = await resume_as_old(research_app, tmp_path, module, first, steps, old_synthesis_shape)
    assert done.status == "completed", done.error
    assert "run" not in kept["synthesis.poll"] and "waitedSeconds" in kept["synthesis.poll"]  # as saved
    assert without_durations(done.result) == without_durations(first.result)
    assert set(agent_runs(sim).runs) == made  # nothing started again
