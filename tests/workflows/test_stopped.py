"""Issue 36: nothing paid for is lost. A task stopped by its budget or a cancel answers with every
item its Exa work holds (`partial: true`, `stoppedBy`), and every view says how it stopped."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from rich.console import Console

from exa_orch.app import App
from exa_orch.config import Settings
from exa_orch.gateway import prices
from exa_orch.sim.context import SimConfig
from exa_orch.sim.testing import SimHandle, running_sim
from exa_orch.view.data import ViewDB, Viewer
from exa_orch.view.terminal import short_id, show_tasks
from exa_orch.view.web import build_app
from tests.support import WAIT, until
from tests.workflows.conftest import OpenApp
from tests.workflows.test_engines_five import ADVERSARIAL, VERIFIED, WINNOW

COMPANY = {"type": "company"}
HARVEST: dict[str, Any] = {
    "query": "AI startups in Europe",
    "entity": COMPANY,
    "count": 40,
    "timeout": 600_000,
}
# Affords a webset search for one item (what an item asked holds), not a second.
BUDGET = round(1.5 * prices.WEBSET_ITEM_ESTIMATE, 6)
CANCELLED: dict[str, dict[str, Any]] = {
    "lifecycle.harvest": HARVEST,
    "convergent.search": {
        "queries": ["AI startups in Europe", "European machine learning companies"],
        "entity": COMPANY, "count": 30, "timeout": 600_000,
    },
    "adversarial.verify": {**ADVERSARIAL, "count": 30, "timeout": 600_000},
    "research.verifiedCollection": {**VERIFIED, "count": 30, "timeout": 600_000},
    "qd.winnow": {**WINNOW, "count": 30, "timeout": 600_000},
}  # fmt: skip


@pytest.fixture
async def sim() -> AsyncIterator[SimHandle]:
    """A slow simulator (4 simulated seconds a wall second): a search finds an item every ~0.25 s."""
    async with running_sim(SimConfig(speed=4.0)) as handle:
        yield handle


async def websets_of(app: App, task_id: str) -> list[str]:
    """The websets the task created, in creation order (from its checkpoints)."""
    steps = await app.store.load_steps(task_id)
    return [v["id"] for v in steps.values() if isinstance(v, dict) and str(v.get("id")).startswith("webset_")]


async def held(app: App, webset_id: str) -> list[str]:
    """The ids of every item the webset holds at Exa."""
    page = await app.run_operation("items.getAll", {"websetId": webset_id, "maxItems": 1000})
    return [item["id"] for item in page["data"]]


async def answer(app: App, task_id: str) -> dict[str, Any]:
    """tasks.result, whole."""
    got: dict[str, Any] = await app.run_operation("tasks.result", {"taskId": task_id, "full": True})
    return got


async def test_a_harvest_stopped_by_its_budget_returns_every_item_its_webset_holds(
    research_app: OpenApp, sim: SimHandle
) -> None:
    async with research_app() as app:
        assert app.supervisor is not None
        created = await app.run_operation(
            "tasks.create", {"type": "lifecycle.harvest", **HARVEST, "budgetUsd": BUDGET}
        )
        done = await app.supervisor.tasks.wait(created["taskId"], timeout=WAIT)
        (webset_id,) = await websets_of(app, done.id)
        holds = await held(app, webset_id)
        got = await app.run_operation("tasks.get", {"taskId": done.id})
        page = await answer(app, done.id)
    assert done.status == "completed", done.error
    assert holds, "the budget affords at least one item"
    assert [i["id"] for i in done.result["items"]] == holds and done.result["itemCount"] == len(holds)
    assert done.result["partial"] is True and done.result["stoppedBy"] == "budget"
    assert got["partial"] is True and got["stoppedBy"] == "budget"
    assert page["partial"] is True and page["stoppedBy"] == "budget"


@pytest.mark.parametrize("kind", list(CANCELLED))
async def test_a_cancelled_task_returns_what_its_websets_hold(
    research_app: OpenApp, sim: SimHandle, kind: str
) -> None:
    async with research_app() as app:
        assert app.supervisor is not None
        created = await app.run_operation("tasks.create", {"type": kind, **CANCELLED[kind]})
        task_id = created["taskId"]

        async def every_webset_found_some() -> list[str] | None:
            websets = await websets_of(app, task_id)
            if len(websets) < (2 if kind in ("convergent.search", "adversarial.verify") else 1):
                return None
            return websets if all([await held(app, w) for w in websets]) else None

        websets = await until(every_webset_found_some, what="items in every webset of the task")
        sim.ctx.clock.set_speed(1e-9)  # held: nothing more is found while the task stops
        cancelled = await app.run_operation("tasks.cancel", {"taskId": task_id})
        record = await app.supervisor.tasks.wait(task_id, timeout=WAIT)
        holds = [await held(app, w) for w in websets]
        page = await answer(app, task_id)
        got = await app.run_operation("tasks.get", {"taskId": task_id})
    assert record.status == "cancelled" and cancelled["status"] == "cancelled"
    assert page["status"] == "cancelled" and page["stoppedBy"] == "cancel" and page["partial"] is True
    assert got["stoppedBy"] == "cancel"
    result = page["result"]
    assert result["stoppedBy"] == "cancel"
    counts = [len(h) for h in holds]
    assert all(counts)
    if kind == "lifecycle.harvest":
        assert [i["id"] for i in result["items"]] == holds[0]
    elif kind == "convergent.search":
        assert result["itemCounts"] == counts
    elif kind == "adversarial.verify":
        assert [result[side]["itemCount"] for side in ("thesis", "antithesis")] == counts
    elif kind == "research.verifiedCollection":
        assert [m["item"]["id"] for m in result["items"]] == holds[0]
    else:  # qd.winnow, cancelled in its first round: that round's items, not scored
        assert result["stoppedRound"]["round"] == 1 and result["stoppedRound"]["itemCount"] == sum(counts)


async def test_a_cancelled_deep_research_returns_its_run(research_app: OpenApp, sim: SimHandle) -> None:
    async with research_app() as app:
        assert app.supervisor is not None
        created = await app.run_operation(
            "tasks.create", {"type": "research.deep", "instructions": "Who builds AI chips in Europe?"}
        )
        steps = await until(
            lambda: _with(app, created["taskId"], "research.create"), what="the research run's checkpoint"
        )
        await app.run_operation("tasks.cancel", {"taskId": created["taskId"]})
        await app.supervisor.tasks.wait(created["taskId"], timeout=WAIT)
        page = await answer(app, created["taskId"])
    assert page["status"] == "cancelled" and page["stoppedBy"] == "cancel"
    assert page["result"]["researchId"] == steps["research.create"]["researchId"]
    assert page["result"]["status"] == "cancelled"


async def _with(app: App, task_id: str, key: str) -> dict[str, Any] | None:
    steps = await app.store.load_steps(task_id)
    return steps if key in steps else None


async def test_each_view_says_how_a_task_stopped(
    research_app: OpenApp, sim: SimHandle, tmp_path: Path
) -> None:
    async with research_app() as app:
        assert app.supervisor is not None
        budget = await app.run_operation(
            "tasks.create", {"type": "lifecycle.harvest", **HARVEST, "budgetUsd": BUDGET}
        )
        timeout = await app.run_operation(
            "tasks.create", {"type": "lifecycle.harvest", **HARVEST, "timeout": 500}
        )
        full = await app.run_operation("tasks.create", {"type": "lifecycle.harvest", **HARVEST, "count": 1})
        ids = {"budget": budget["taskId"], "timeout": timeout["taskId"], "full": full["taskId"]}
        for task_id in ids.values():
            record = await app.supervisor.tasks.wait(task_id, timeout=WAIT)
            assert record.status == "completed", record.error
        assert (await app.supervisor.tasks.get(ids["timeout"])).result["stoppedBy"] == "timeout"
        path = tmp_path / "workflows.db"
        viewer = Viewer.all_owners()
        out = Console(width=200, force_terminal=True, color_system=None, record=True)
        assert await show_tasks(path, viewer, console=out) == 0
        text = out.export_text()
        async with ViewDB(path) as db:
            rows = {r["id"]: r for r in await db.tasks(viewer)}
            web: Any = build_app(db, Settings(principal="user:tester"), all_owners=True)
            async with httpx.AsyncClient(
                transport=httpx.ASGITransport(app=web, client=("127.0.0.1", 40000)),
                base_url="http://127.0.0.1:8766",
            ) as client:
                listed = (await client.get("/api/tasks")).json()
                page = (await client.get(f"/tasks/{ids['budget']}")).text
    assert rows[ids["budget"]]["stopped_by"] == "budget" and rows[ids["budget"]]["fraction"] is None
    assert rows[ids["timeout"]]["stopped_by"] == "timeout" and rows[ids["full"]]["stopped_by"] is None
    assert rows[ids["full"]]["fraction"] == 1.0
    lines = {k: next(line for line in text.splitlines() if short_id(v) in line) for k, v in ids.items()}
    assert "budget reached" in lines["budget"] and "━" not in lines["budget"]
    assert "timed out" in lines["timeout"] and "━" not in lines["timeout"]
    assert "completed" in lines["full"] and "━" in lines["full"]
    api = {t["id"]: t for t in listed["tasks"]}
    assert api[ids["budget"]]["stopped_by"] == "budget" and api[ids["full"]]["stopped_by"] is None
    assert "budget reached" in page and "<progress" not in page.split('id="task"')[1].split("</section>")[0]
