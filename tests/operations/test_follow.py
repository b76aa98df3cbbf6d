"""exa.follow (what a task-augmented toolhost start_* runs): a run resumed after Exa created the
search, but before the checkpoint, finds that search by its metadata mark instead of starting a
second one; a fresh run creates it and follows it to its end."""

from __future__ import annotations

from pathlib import Path

import pytest

from exa_orch.gateway.marks import CREATE_MARK as MARK_KEY
from exa_orch.operations.follow import FollowArgs, follow_workflow, progress_of
from exa_orch.runtime import TaskContext
from exa_orch.sim.testing import SimHandle
from tests.mcp.tasks_support import app_for


@pytest.mark.parametrize("resumed", [True, False])
async def test_a_resumed_follow_finds_the_search_its_earlier_run_made(
    sim: SimHandle, tmp_path: Path, resumed: bool
) -> None:
    async with app_for(sim.url, tmp_path / "w.db") as app:
        webset = await app.run_operation("websets.create", {"search": {"query": "AI labs", "count": 1}})
        search = {"websetId": webset["id"], "query": "robotics startups", "count": 2}
        task = await app.store.create_task("exa.follow", {"kind": "search", "args": search})
        ctx = TaskContext(
            task_id=task.id,
            args=None,
            store=app.store,
            deps=app.deps,
            steps={},
            resumed=resumed,
        )
        earlier = None
        if resumed:  # the killed run's create reached Exa; its checkpoint did not reach the store
            marked = {**search, "metadata": {MARK_KEY: ctx.external_id("start")}}
            earlier = await app.run_operation("searches.create", marked)
        args = FollowArgs(kind="search", args=search, poll_interval=0.05)
        done = await follow_workflow(app.registry).fn(ctx, args)
        raw = await app.run_operation("websets.get", {"id": webset["id"], "raw": True})
    ours = [s for s in raw["searches"] if s["query"] == "robotics startups"]
    assert len(ours) == 1 and done["id"] == ours[0]["id"] and done["status"] == "completed"
    assert ours[0]["metadata"][MARK_KEY] == ctx.external_id("start")
    if earlier is not None:
        assert done["id"] == earlier["id"]


def test_a_followed_search_reports_its_counts_and_names_itself_by_id() -> None:
    """Issue 29: a start_search task's progress read "search search {'websetId': ...} is running"."""
    search = {"id": "wsearch_1", "status": "running", "count": 10, "progress": {"found": 3, "analyzed": 12}}
    assert progress_of("search", search, 4) == (
        3,
        10,
        "search wsearch_1 is running: found 3 of 10, 12 analyzed",
    )
    run = {"researchId": "agent_run_1", "status": "running"}
    assert progress_of("research", run, 2) == (2, None, "research agent_run_1 is running")
    assert "{" not in progress_of("enrichment", {"id": "wenrich_1", "status": "pending"}, 1)[2]
