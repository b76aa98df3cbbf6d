"""End to end (issue 25): a qd.winnow task on the agent engine survives a SIGKILL of its server in
the middle of a round, and the restarted child finishes it without starting any agent run twice."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import kill_during_a_run, running_client

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


async def test_a_winnow_task_on_the_agent_engine_survives_a_sigkill_mid_round(
    slow_sim_url: str, tmp_path: Path
) -> None:
    async with running_client(slow_sim_url, tmp_path) as client:
        # The child started round 1's run and waits on it.
        going = lambda new: any(r["status"] in ("queued", "running") for r in new)  # noqa: E731
        done, started = await kill_during_a_run(client, "qd.winnow", ARGS, going)

    assert done["status"] == "completed", done
    result = done["result"]
    assert result["engine"] == "agent" and all(r["websetId"] is None for r in result["rounds"])
    used = [rid for r in result["rounds"] for rid in r["runIds"]]
    assert len(used) == len(set(used)) >= 2  # round 1's run and round 2's, one per empty niche
    assert started == set(used)  # no run started twice: the resumed round found its runs
