"""EXA_ORCH_ENGINE reaches every way a task is created: a task-augmented tools/call stores the
server's engine in the task's args as tasks.create does, and an `engine: null` (what an agent sends
for "the default") is the server's engine too, never a refusal."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from exa_orch.app import open_app
from exa_orch.sim.testing import SimHandle
from tests.mcp.tasks_support import app_for, inprocess_legacy
from tests.mcp.tasks_workflows import WORKFLOWS as TEST_WORKFLOWS

HARVEST = {
    "type": "lifecycle.harvest",
    "query": "AI startups in Europe",
    "entity": {"type": "company"},
    "count": 3,
}


async def test_every_way_of_creating_a_task_stores_the_servers_engine(sim: SimHandle, tmp_path: Path) -> None:
    async with app_for(sim.url, tmp_path / "probe.db") as probe:
        settings = dataclasses.replace(probe.settings, engine="agent", db_path=tmp_path / "w.db")
    async with open_app(settings, tmp_path / "w.db", extra_workflows=TEST_WORKFLOWS) as app:
        assert app.tasks is not None
        async with inprocess_legacy(app) as client:
            augmented = await client.call_task(
                "manage_websets", {"operation": "tasks.create", "args": HARVEST}
            )
        plain = await app.run_operation("tasks.create", HARVEST)
        null = await app.run_operation("tasks.create", {**HARVEST, "engine": None})
        chosen = await app.run_operation("tasks.create", {**HARVEST, "engine": "websets"})
        preview = await app.run_operation("tasks.create", {**HARVEST, "engine": None, "preview": True})
        stored = {
            name: (await app.tasks.get(task_id)).args.get("engine")
            for name, task_id in {
                "augmented": augmented["task"]["taskId"],
                "plain": plain["taskId"],
                "null": null["taskId"],
                "chosen": chosen["taskId"],
            }.items()
        }
    assert stored == {"augmented": "agent", "plain": "agent", "null": "agent", "chosen": "websets"}
    parts = [p for p in preview["cost"]["parts"] if not p["what"].startswith("citation check")]
    assert parts and all("agent" in part["what"] for part in parts)  # priced on the server's engine
