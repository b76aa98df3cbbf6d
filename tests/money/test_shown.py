"""Issue 23: what a task cost is shown where people look (tasks.get, tasks.list, tasks.result), and
tasks.create takes a budget; an agent run's cost is recorded once, from its final state."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from rich.console import Console

from exa_orch.config import Settings
from exa_orch.gateway import prices
from exa_orch.sim.billing import Billing
from exa_orch.sim.testing import SimHandle
from exa_orch.store import CostRow, Store
from exa_orch.view.data import ViewDB, Viewer
from exa_orch.view.terminal import show_tasks
from exa_orch.view.web import build_app
from tests.support import WAIT, until
from tests.workflows.conftest import OpenApp


async def test_a_research_task_shows_its_agent_runs_cost_once(research_app: OpenApp, sim: SimHandle) -> None:
    account: Billing = sim.ctx.extras["billing"]
    async with research_app() as app:
        assert app.supervisor is not None
        created = await app.run_operation(
            "tasks.create",
            {
                "type": "research.deep",
                "instructions": "AI startups in Europe",
                "budgetUsd": 2,
                "verifyCitations": False,  # the agent run's cost alone
            },
        )
        assert created["budgetUsd"] == 2
        done = await app.supervisor.tasks.wait(created["taskId"], timeout=WAIT)
        assert done.status == "completed", done.error
        assert done.meta["budgetUsd"] == 2
        task_id = created["taskId"]
        got = await app.run_operation("tasks.get", {"task_id": task_id})
        listed = await app.run_operation("tasks.list", {})
        result = await app.run_operation("tasks.result", {"task_id": task_id})
        # The run was read again after it finished: still one row.
        await app.run_operation("research.get", {"researchId": done.result["researchId"]})
        await app.run_operation("exa.search", {"query": "robotics startups"})  # a direct call: no task
        sql = "SELECT task_id, operation, usd, billed, key FROM v_costs"
        await until(lambda: _rows(app.store, sql, 2), what="the direct call's row")  # queued, not awaited
        rows = await app.store._read(sql)
        runs = await app.store._read("SELECT cost_usd FROM workflow_runs WHERE task_id = ?", (task_id,))
        cell = await app.store._read(
            "SELECT cost_usd, elite_count, cost_per_elite FROM v_archive WHERE task_id = ?", (task_id,)
        )
    agent_cost = prices.AGENT_FIXED["medium"]
    assert got["cost"] == {"usd": agent_cost, "billed": agent_cost, "estimated": 0.0}
    assert [t["cost"] for t in listed["tasks"] if t["taskId"] == task_id] == [got["cost"]]
    assert result["cost"] == got["cost"]
    assert [(r[0], r[1], r[3]) for r in rows] == [(task_id, "agent.run", 1), (None, "search", 1)]
    assert rows[0][4] == f"agent_run:{done.result['researchId']}"
    assert runs == [(agent_cost,)]  # the archive files the run with what it cost
    assert cell == [(agent_cost, None, None)]  # the cell's best run and its cost (no elites to divide by)
    assert round(sum(r[2] for r in rows), 6) == account.spent


async def _rows(store: Store, sql: str, n: int) -> bool:
    return len(await store._read(sql)) == n


async def test_exa_orch_tasks_shows_each_tasks_cost_and_a_total_per_day(
    research_app: OpenApp, sim: SimHandle, tmp_path: Path
) -> None:
    async with research_app() as app:
        assert app.supervisor is not None
        created = await app.run_operation(
            "tasks.create", {"type": "research.deep", "instructions": "AI startups in Europe"}
        )
        await app.supervisor.tasks.wait(created["taskId"], timeout=WAIT)
    console = Console(record=True, width=220)
    await show_tasks(tmp_path / "workflows.db", Viewer.all_owners(), console=console)
    out = console.export_text()
    price = f"${prices.AGENT_FIXED['medium']:.2f}"
    assert " cost " in out  # the column's header
    assert price in out
    assert f"cost per day: {time.strftime('%Y-%m-%d', time.gmtime())} {price}" in out


async def test_the_web_view_shows_each_tasks_cost(tmp_path: Path) -> None:
    db = tmp_path / "w.db"
    async with Store(db) as store:
        paid = await store.create_task("research.deep", {"instructions": "x"}, principal="user:tester")
        free = await store.create_task("research.deep", {"instructions": "y"}, principal="user:tester")
        for i, usd in enumerate((0.11, 0.005)):
            await store.record_cost(
                CostRow(key=f"r{i}", operation="search", usd=usd, billed=True, task_id=paid.id)
            )
    async with ViewDB(db) as view:
        app: Any = build_app(view, Settings(principal="user:tester"))
        transport = httpx.ASGITransport(app=app, client=("127.0.0.1", 40000))
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1:8766") as c:
            page = (await c.get("/")).text
            api = {t["id"]: t["cost_usd"] for t in (await c.get("/api/tasks")).json()["tasks"]}
    assert api == {paid.id: pytest.approx(0.115), free.id: None}
    assert (
        "<th>cost</th>" in page and '<td class="cost">$0.12</td>' in page and '<td class="cost"></td>' in page
    )
