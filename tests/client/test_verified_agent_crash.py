"""End to end (issue 25): a research.verifiedCollection task on the agent engine survives a SIGKILL
of its server while its research batch run is running, and the restarted child finishes it without
starting any agent run twice (the batch's body is built from checkpointed rows, under its key)."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import kill_during_a_run, running_client

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


async def test_a_verified_collection_on_the_agent_engine_survives_a_sigkill_mid_batch(
    slow_sim_url: str, tmp_path: Path
) -> None:
    async with running_client(slow_sim_url, tmp_path) as client:
        # The collection is done, its research batch's run going.
        going = lambda new: len(new) == 2 and any(r["status"] in ("queued", "running") for r in new)  # noqa: E731
        done, started = await kill_during_a_run(client, "research.verifiedCollection", ARGS, going)

    assert done["status"] == "completed", done
    result = done["result"]
    assert result["engine"] == "agent" and result["websetId"] is None
    [collection] = result["runIds"]
    batches = {m["research"]["researchId"] for m in result["items"] if "research" in m}
    assert len(batches) == 1 and collection not in batches
    assert started == {collection, *batches}  # no run started twice
    assert result["researchedCount"] == result["totalItems"] == 6
