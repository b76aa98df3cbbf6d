"""End to end (issue 25): a research.verifiedCollection task on the agent engine survives a SIGKILL
of its server while its research batch run is running, and the restarted child finishes it without
starting any agent run twice (the batch's body is built from checkpointed rows, under its key)."""

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
    "count": 6,
    "researchPrompt": "Who founded {{name}} ({{url}})?",
    "researchModel": "exa-research-pro",  # a longer run: room to kill the server in it
    "researchLimit": 6,
    "engine": "agent",
}


@pytest.fixture(scope="module")
def slow_sim_url() -> Iterator[str]:
    """Speed 10: an agent run takes seconds, long enough to kill the server while one runs."""
    with SimThread(SimConfig(speed=10.0)) as handle:
        yield handle.url


async def test_a_verified_collection_on_the_agent_engine_survives_a_sigkill_mid_batch(
    slow_sim_url: str, tmp_path: Path
) -> None:
    async with running_client(slow_sim_url, tmp_path) as client:
        before = {r["researchId"] for r in (await client.call("research.list", {"limit": 100}))["data"]}
        task_id = await client.create_task("research.verifiedCollection", ARGS)

        async def the_batch_is_running() -> bool:  # the collection is done, its batch run going
            view = await client.get_task(task_id)
            assert view["status"] in ("pending", "working"), view
            listed = (await client.call("research.list", {"limit": 100}))["data"]
            new = [r for r in listed if r["researchId"] not in before]
            return len(new) == 2 and any(r["status"] in ("queued", "running") for r in new)

        await until(the_batch_is_running, within=WAIT)
        first = client.pid
        assert first is not None
        os.kill(first, signal.SIGKILL)

        done = await client.wait_task(task_id, timeout=WAIT, poll=5)  # a new child resumes the task
        assert client.pid not in (None, first)
        after = {r["researchId"] for r in (await client.call("research.list", {"limit": 100}))["data"]}

    assert done["status"] == "completed", done
    result = done["result"]
    assert result["engine"] == "agent" and result["websetId"] is None
    [collection] = result["runIds"]
    batches = {m["research"]["researchId"] for m in result["items"] if "research" in m}
    assert len(batches) == 1 and collection not in batches
    assert after - before == {collection, *batches}  # no run started twice
    assert result["researchedCount"] == result["totalItems"] == 6
