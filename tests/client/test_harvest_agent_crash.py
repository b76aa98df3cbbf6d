"""End to end (issue 25): a lifecycle.harvest task on the agent engine survives a SIGKILL of its
server while a follow-up chunk's run is running, and the restarted child finishes it without
starting any agent run twice."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import kill_during_a_run, running_client

pytestmark = pytest.mark.slow

ARGS = {
    "query": "AI startups in Europe",
    "entity": {"type": "company"},
    "criteria": [{"description": "Is based in Europe"}],
    "enrichments": [{"description": "Number of employees", "format": "number"}],
    "count": 40,  # two chunks: 25 rows, then 15 continuing the first run
    "engine": "agent",
}


async def test_a_harvest_on_the_agent_engine_survives_a_sigkill_mid_chain(
    slow_sim_url: str, tmp_path: Path
) -> None:
    async with running_client(slow_sim_url, tmp_path) as client:
        # The child started chunk 2 (a run continuing the first) and waits on it.
        going = lambda new: any(r.get("previousRunId") and r["status"] in ("queued", "running") for r in new)  # noqa: E731
        done, started = await kill_during_a_run(client, "lifecycle.harvest", ARGS, going)

    assert done["status"] == "completed", done
    result = done["result"]
    assert result["engine"] == "agent" and result["websetId"] is None
    assert len(result["runIds"]) == len(set(result["runIds"])) == 2
    assert started == set(result["runIds"])  # no run started twice: the resumed chain found its runs
    assert result["itemCount"] == 40 and len({i["properties"]["url"] for i in result["items"]}) == 40
