"""End to end (issue 25): a lifecycle.harvest task on the agent engine survives a SIGKILL of its
server while a follow-up chunk's run is running, and the restarted child finishes it without
starting any agent run twice."""

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
    "criteria": [{"description": "Is based in Europe"}],
    "enrichments": [{"description": "Number of employees", "format": "number"}],
    "count": 40,  # two chunks: 25 rows, then 15 continuing the first run
    "engine": "agent",
}


@pytest.fixture(scope="module")
def slow_sim_url() -> Iterator[str]:
    """Speed 10: an agent run takes seconds, long enough to kill the server while one runs."""
    with SimThread(SimConfig(speed=10.0)) as handle:
        yield handle.url


async def test_a_harvest_on_the_agent_engine_survives_a_sigkill_mid_chain(
    slow_sim_url: str, tmp_path: Path
) -> None:
    async with running_client(slow_sim_url, tmp_path) as client:
        before = {r["researchId"] for r in (await client.call("research.list", {"limit": 100}))["data"]}
        task_id = await client.create_task("lifecycle.harvest", ARGS)

        async def a_follow_up_is_running() -> bool:  # the child started chunk 2 and waits on it
            view = await client.get_task(task_id)
            assert view["status"] in ("pending", "working"), view
            listed = (await client.call("research.list", {"limit": 100}))["data"]
            return any(
                r["researchId"] not in before
                and r.get("previousRunId")
                and r["status"] in ("queued", "running")
                for r in listed
            )

        await until(a_follow_up_is_running, within=WAIT)
        first = client.pid
        assert first is not None
        os.kill(first, signal.SIGKILL)

        done = await client.wait_task(task_id, timeout=WAIT, poll=5)  # a new child resumes the task
        assert client.pid not in (None, first)
        after = {r["researchId"] for r in (await client.call("research.list", {"limit": 100}))["data"]}

    assert done["status"] == "completed", done
    result = done["result"]
    assert result["engine"] == "agent" and result["websetId"] is None
    assert len(result["runIds"]) == len(set(result["runIds"])) == 2
    assert after - before == set(result["runIds"])  # no run started twice: the resumed chain found its runs
    assert result["itemCount"] == 40 and len({i["properties"]["url"] for i in result["items"]}) == 40
