"""End to end (issue 25): a qd.winnow task on the agent engine survives a SIGKILL of its server in
the middle of a round, and the restarted child finishes it without starting any agent run twice."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest

from exa_orch.sim.context import SimConfig
from exa_orch.sim.testing import SimThread
from tests.support import WAIT, until

from .conftest import running_client

pytestmark = pytest.mark.slow

ARGS = {
    "query": "AI startups in Europe",
    "entity": {"type": "company"},
    "criteria": [{"description": "Is based in Europe"}, {"description": "Works in healthcare"}],
    "enrichments": [{"description": "Number of employees", "format": "number"}],
    "count": 6,
    "maxRounds": 2,
    "convergenceThreshold": 0.0,
    "engine": "agent",
}


@pytest.fixture(scope="module")
def slow_sim_url() -> Iterator[str]:
    """Speed 10: an agent run takes seconds, long enough to kill the server while one runs."""
    with SimThread(SimConfig(speed=10.0)) as handle:
        yield handle.url


async def test_a_winnow_task_on_the_agent_engine_survives_a_sigkill_mid_round(
    slow_sim_url: str, tmp_path: Path
) -> None:
    async with running_client(slow_sim_url, tmp_path) as client:
        before = {r["researchId"] for r in (await client.call("research.list", {"limit": 100}))["data"]}
        task_id = await client.create_task("qd.winnow", ARGS)

        async def a_run_is_running() -> bool:  # the child started round 1's run and waits on it
            view = await client.get_task(task_id)
            assert view["status"] in ("pending", "working"), view
            listed = (await client.call("research.list", {"limit": 100}))["data"]
            return any(r["researchId"] not in before and r["status"] in ("queued", "running") for r in listed)

        await until(a_run_is_running, within=WAIT)
        first = client.pid
        assert first is not None
        os.kill(first, signal.SIGKILL)

        done = await client.wait_task(task_id, timeout=WAIT, poll=5)  # a new child resumes the task
        assert client.pid not in (None, first)
        after = {r["researchId"] for r in (await client.call("research.list", {"limit": 100}))["data"]}

    assert done["status"] == "completed", done
    result = done["result"]
    assert result["engine"] == "agent" and all(r["websetId"] is None for r in result["rounds"])
    used = [rid for r in result["rounds"] for rid in r["runIds"]]
    assert len(used) == len(set(used)) >= 2  # round 1's run and round 2's, one per empty niche
    assert after - before == set(used)  # no run started twice: the resumed round found its runs
