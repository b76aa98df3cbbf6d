"""Fixtures for the host client: one simulator per module (or per test, `sim`, for tests that change
its faults), and clients and pools that spawn `exa-orch serve`."""

from __future__ import annotations

import os
import signal
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from exa_orch.client import ExaOrchClient, ExaOrchPool
from exa_orch.sim.context import SimConfig
from exa_orch.sim.testing import SimThread
from tests.support import WAIT, until

REPO = Path(__file__).resolve().parents[2]
STOP_WORKFLOWS = "tests.mcp.stop_workflows:WORKFLOWS"  # mcp_stop.ticks: one checkpoint per tick


@pytest.fixture(scope="module")
def sim_url() -> Iterator[str]:
    """One simulator (speed 100) for every test of a module, on 127.0.0.1:<free port>."""
    with SimThread(SimConfig(speed=100.0)) as handle:
        yield handle.url


@pytest.fixture(scope="module")
def slow_sim_url() -> Iterator[str]:
    """Speed 10: a search or an agent run takes seconds, long enough to kill the server in it."""
    with SimThread(SimConfig(speed=10.0)) as handle:
        yield handle.url


@pytest.fixture
def sim() -> Iterator[SimThread]:
    """A simulator of this test's own: its faults change mid-test."""
    with SimThread(SimConfig(speed=100.0)) as handle:
        yield handle


def sent(sim: SimThread, method: str, path: str) -> list[dict[str, Any]]:
    """The requests `method path` the simulator received (answered or still held)."""
    return [e for e in sim.log() if e["method"] == method and e["path"] == path]


def child_env(sim_url: str, tmp_path: Path) -> dict[str, str]:
    """A child's settings: serve the simulator from tmp_path/workflows.db."""
    return {
        "EXA_ORCH_EXA_URL": sim_url,
        "EXA_ORCH_SIMULATOR": "1",
        "EXA_ORCH_DB": str(tmp_path / "workflows.db"),
        "EXA_ORCH_EXTRA_WORKFLOWS": STOP_WORKFLOWS,
        "EXA_ORCH_LOG_LEVEL": "DEBUG",
        "PYTHONPATH": str(REPO),
    }


@asynccontextmanager
async def running_client(sim_url: str, tmp_path: Path, **kw: Any) -> AsyncIterator[ExaOrchClient]:
    """A started client whose child serves the simulator from tmp_path/workflows.db; the child's
    stderr goes to tmp_path/child-stderr.log."""
    env = child_env(sim_url, tmp_path)
    env.update(kw.pop("env", {}))
    kw.setdefault("restart_backoff", 0.05)
    with (tmp_path / "child-stderr.log").open("a") as errlog:
        async with ExaOrchClient(env=env, cwd=REPO, stderr=errlog, **kw) as client:
            yield client


@asynccontextmanager
async def running_pool(sim_url: str, tmp_path: Path, size: int, **kw: Any) -> AsyncIterator[ExaOrchPool]:
    """A started pool of `size` children on one database (tmp_path/workflows.db) and the simulator;
    their stderr goes to tmp_path/child-stderr.log."""
    kw.setdefault("restart_backoff", 0.05)
    with (tmp_path / "child-stderr.log").open("a") as errlog:
        async with ExaOrchPool(size, env=child_env(sim_url, tmp_path), cwd=REPO, stderr=errlog, **kw) as pool:
            yield pool


async def research_ids(client: ExaOrchClient) -> set[str]:
    """The agent runs the account holds (research.list), by id."""
    return {r["researchId"] for r in (await client.call("research.list", {"limit": 100}))["data"]}


async def kill_during_a_run(
    client: ExaOrchClient, kind: str, args: dict[str, Any], running: Callable[[list[dict[str, Any]]], bool]
) -> tuple[dict[str, Any], set[str]]:
    """Create a `kind` task, SIGKILL the child once `running(new runs)` holds for the agent runs
    started since (research.list rows), and wait for the task on the child started in its place.
    Returns the task's final view and the ids of every run started since the task was created."""
    before = await research_ids(client)
    task_id = await client.create_task(kind, args)

    async def at_the_moment() -> bool:
        view = await client.get_task(task_id)
        assert view["status"] in ("pending", "working"), view
        listed = (await client.call("research.list", {"limit": 100}))["data"]
        return running([r for r in listed if r["researchId"] not in before])

    await until(at_the_moment, within=WAIT, what=f"the {kind} task's run to be running")
    first = client.pid
    assert first is not None
    os.kill(first, signal.SIGKILL)
    done = await client.wait_task(task_id, timeout=WAIT, poll=5)  # a new child resumes the task
    assert client.pid not in (None, first)
    return done, await research_ids(client) - before
