"""End to end: a qd.winnow task through the host client survives a SIGKILL of its server mid-search,
finishes on the restarted child without a second webset, and files exactly one archive run."""

from __future__ import annotations

import os
import signal
import sqlite3
from pathlib import Path

import pytest

from tests.support import WAIT, until

from .conftest import running_client

pytestmark = pytest.mark.slow

ARGS = {
    "query": "AI startups in Europe",
    "entity": {"type": "company"},
    "criteria": [{"description": "Is based in Europe"}, {"description": "Works in healthcare"}],
    "enrichments": [{"description": "Number of employees", "format": "number"}],
    "count": 8,
}


async def test_a_research_task_survives_a_sigkill_of_its_server(slow_sim_url: str, tmp_path: Path) -> None:
    async with running_client(slow_sim_url, tmp_path) as client:
        before = len((await client.call("websets.list", {"limit": 100}))["data"])
        task_id = await client.create_task("qd.winnow", ARGS)

        async def searching() -> bool:  # no event reaches us from inside the child: re-check tasks.get
            view = await client.get_task(task_id)
            assert view["status"] in ("pending", "working"), view
            return (view.get("partialSummary") or {}).get("step") == "searching"

        await until(searching, within=WAIT)
        first = client.pid
        assert first is not None
        os.kill(first, signal.SIGKILL)

        done = await client.wait_task(task_id, timeout=WAIT, poll=5)  # a new child resumes the task
        assert client.pid not in (None, first)
        after = (await client.call("websets.list", {"limit": 100}))["data"]

    assert done["status"] == "completed", done
    result = done["result"]
    assert len(result["rounds"]) == 1 and result["rounds"][0]["itemCount"] == ARGS["count"]
    assert len(after) == before + 1  # the resumed run found its webset by externalId
    assert result["rounds"][0]["websetId"] in {w["id"] for w in after}
    with sqlite3.connect(tmp_path / "workflows.db") as conn:
        runs = conn.execute(
            "select task_type, status, elite_count from workflow_runs where task_id = ?", (task_id,)
        ).fetchall()
        claimed = conn.execute(
            "select count(*) from task_events where task_id = ? and kind = 'claimed'", (task_id,)
        ).fetchone()[0]
    assert runs == [("qd.winnow", "completed", len(result["finalElites"]))]
    assert claimed == 2  # the first server, then the restarted one
