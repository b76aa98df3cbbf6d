"""Issue 36: several `exa-orch serve --sim` on one database share one simulated Exa, as several
servers share one Exa account. One server's client quits mid-task; the other server takes the
released task over, finds at its own simulator the webset the first one made, and completes it
with every item; nothing is made twice."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

from tests.runtime.test_serve_sim_resume import SimServer, _steps, _websets
from tests.support import WAIT, until

pytestmark = pytest.mark.slow

COUNT = 200


async def test_a_task_one_sim_server_left_is_completed_by_another_with_every_item(tmp_path: Path) -> None:
    db, errlog = tmp_path / "workflows.db", tmp_path / "stderr.log"
    # The first server's simulated Exa barely moves (its search is still running when it quits);
    # the second's runs fast. Both read one account, and one clock that never goes back.
    second = SimServer(db, errlog, speed=50)
    try:
        assert _websets(second.sim_url) == []  # its simulator is up (it starts at its first request)
        first = SimServer(db, errlog, speed=0.5)
        try:
            args = {"type": "lifecycle.harvest", "query": "AI startups", "entity": {"type": "company"}}
            task_id = first.call("tasks.create", {**args, "count": COUNT})["taskId"]
            await until(lambda: "create.webset" in _steps(db, task_id), within=WAIT, what="the webset made")
            made = _websets(first.sim_url)
        finally:
            assert first.stop(signal.SIGTERM) == 0  # its client quit: the task is released, unfinished
        assert "collect.items" not in _steps(db, task_id)
        done = second.call("tasks.result", {"taskId": task_id, "wait": 30})
        for _ in range(10):
            if done["status"] in ("completed", "failed", "cancelled"):
                break
            done = second.call("tasks.result", {"taskId": task_id, "wait": 30})
        after = _websets(second.sim_url)
        held = second.call("items.getAll", {"websetId": made[0]["id"], "maxItems": 1000})["data"]
    finally:
        assert second.stop(signal.SIGTERM) == 0
    assert done["status"] == "completed", done
    # Every item the webset holds (the world has fewer than COUNT matches: the search ran dry).
    assert held and done["summary"]["itemCount"] == len(held), done["summary"]
    assert not done["summary"]["timedOut"] and done["summary"]["searchProgress"]["found"] == len(held)
    assert len(made) == 1 and [w["id"] for w in after] == [made[0]["id"]]  # the one webset, made once
    assert len(after[0]["searches"]) == 1
    assert "RESOURCE_NOT_FOUND" not in errlog.read_text()
