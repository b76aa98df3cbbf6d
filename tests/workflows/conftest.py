"""Fixtures for the research workflows: the whole app (store, gateway, runtime) on the simulator."""

from __future__ import annotations

import importlib
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from exa_orch.app import App, open_app
from exa_orch.config import Settings
from exa_orch.sim.agent import AgentRuns
from exa_orch.sim.context import SimConfig
from exa_orch.sim.testing import SimHandle, running_sim
from exa_orch.store import TaskRecord

OpenApp = Callable[..., AbstractAsyncContextManager[App]]


@pytest.fixture
def research_app(sim: SimHandle, tmp_path: Path) -> OpenApp:
    """`async with research_app("exa_orch.workflows.harvest", ...) as app`: the app, on the sim.

    Each named module's WORKFLOWS list is registered (built-ins are there anyway); the database is
    tmp_path/workflows.db, so opening the app again on it is a restart.
    """

    @asynccontextmanager
    async def opener(*modules: str, db: Path | None = None, **settings: Any) -> AsyncIterator[App]:
        extra = [spec for m in modules for spec in importlib.import_module(m).WORKFLOWS]
        path = db or tmp_path / "workflows.db"
        config = Settings(
            exa_url=sim.url, simulator=True, db_path=path, rps=1000.0, concurrency=8, **settings
        )
        async with open_app(config, path, extra_workflows=extra) as app:
            yield app

    return opener


async def run_task(app: App, type: str, args: dict[str, Any], within: float = 60.0) -> TaskRecord:
    """tasks.create through the operations (as an agent does), then wait for the task to finish."""
    created = await app.run_operation("tasks.create", {"type": type, **args})
    assert app.supervisor is not None
    return await app.supervisor.tasks.wait(created["taskId"], timeout=within)


async def run_tasks(app: App, *tasks: tuple[str, dict[str, Any]], within: float = 60.0) -> list[TaskRecord]:
    """Each (type, args) created through the operations, all at once, then each waited for: the
    finished tasks, in order. For tasks that share nothing (each makes its own websets and runs),
    so a test waits out their simulated time side by side rather than one after another."""
    assert app.supervisor is not None
    ids = [
        (await app.run_operation("tasks.create", {"type": type, **args}))["taskId"] for type, args in tasks
    ]
    return [await app.supervisor.tasks.wait(task_id, timeout=within) for task_id in ids]


@pytest.fixture
async def slow_sim() -> AsyncIterator[SimHandle]:
    """A simulator at speed 25 (the shared one runs at 100): long enough to interrupt a run."""
    async with running_sim(SimConfig(speed=25.0)) as handle:
        yield handle


async def has_step(app: App, task_id: str, key: str) -> bool:
    """Whether the task has checkpointed step `key`."""
    return key in await app.store.load_steps(task_id)


def agent_runs(sim: SimHandle) -> AgentRuns:
    """The simulator's agent runs (to count creates and read their requests)."""
    runs = sim.ctx.extras["agent"]
    assert isinstance(runs, AgentRuns)
    return runs
