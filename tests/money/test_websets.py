"""Issue 23: Websets answers carry no cost, so exa-orch estimates it as a search grows (one row per
item found, one per enrichment cell filled, `billed` 0, at data-design/prices.md's estimates), and
a task with a budget cancels its running websets once the estimate would cross it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from exa_orch.gateway import prices
from exa_orch.sim.context import SimConfig
from exa_orch.sim.testing import SimHandle, running_sim
from tests.support import WAIT
from tests.workflows.conftest import OpenApp

ITEM, CELL = prices.WEBSET_ITEM_ESTIMATE, prices.WEBSET_ENRICHMENT_ESTIMATE


@pytest.fixture
async def sim() -> AsyncIterator[SimHandle]:
    """A slow simulator (4 simulated seconds a wall second): a search finds an item every ~0.25 s."""
    async with running_sim(SimConfig(speed=4.0)) as handle:
        yield handle


def _harvest(count: int, **more: Any) -> dict[str, Any]:
    return {
        "type": "lifecycle.harvest",
        "query": "AI startups in Europe",
        "entity": {"type": "company"},
        "count": count,
        "timeout": 60_000,
        "verifyCitations": False,  # the webset's own estimates, nothing else
        **more,
    }


async def test_a_harvest_is_estimated_item_by_item_and_cell_by_cell(
    research_app: OpenApp, sim: SimHandle
) -> None:
    sim.ctx.clock.set_speed(100.0)
    enrichments = [{"description": "Number of employees", "format": "number"}]
    async with research_app() as app:
        created = await app.run_operation("tasks.create", _harvest(3, enrichments=enrichments))
        assert app.supervisor is not None
        done = await app.supervisor.tasks.wait(created["taskId"], timeout=WAIT)
        got = await app.run_operation("tasks.get", {"task_id": created["taskId"]})
        await app.run_operation("websets.get", {"id": done.result["websetId"]})  # read again: no new row
        rows = await app.store._read(
            "SELECT operation, usd, billed, key FROM v_costs WHERE task_id = ?", (created["taskId"],)
        )
    assert done.status == "completed", done.error
    items = done.result["itemCount"]
    assert items >= 1
    ops = [r[0] for r in rows]
    assert ops.count("websets.item") == items and ops.count("websets.enrichment") == items
    # Exa bills what the search did: every candidate it analyzed (a search), every item (compute).
    analyzed = ops.count("websets.analyzed")
    assert analyzed == done.result["searchProgress"]["analyzed"] >= items
    assert all(r[2] == 0 for r in rows) and len({r[3] for r in rows}) == len(rows)
    usd = items * (prices.WEBSET_FOUND_ESTIMATE + CELL) + analyzed * prices.WEBSET_ANALYZED_ESTIMATE
    assert got["cost"] == {"usd": pytest.approx(usd), "billed": 0.0, "estimated": pytest.approx(usd)}


async def test_a_budget_caps_a_tasks_webset_at_the_items_it_affords(
    research_app: OpenApp, sim: SimHandle
) -> None:
    budget = round(3.2 * ITEM, 6)  # three items' estimate: the fourth would cross it
    async with research_app() as app:
        created = await app.run_operation("tasks.create", {**_harvest(40), "budgetUsd": budget})
        assert app.supervisor is not None
        done = await app.supervisor.tasks.wait(created["taskId"], timeout=WAIT)
        got = await app.run_operation("tasks.get", {"task_id": created["taskId"]})
        webset_id = (await app.store.load_steps(created["taskId"]))["create.webset"]["id"]
        webset = await app.run_operation("websets.get", {"id": webset_id, "raw": True})
    assert done.status == "completed", done.error
    # Asked for 40, sent for the 3 the budget affords (as an agent run is sent with what remains).
    # What the search did (candidates analyzed, items found) is estimated as Exa bills it, within
    # the hold of those 3: it ends inside the budget, or is stopped by it, never past it.
    (search,) = webset["searches"]
    assert search["count"] == 3 and search["progress"]["found"] <= 3
    assert done.result.get("stoppedBy", "budget") == "budget"
    assert got["cost"]["billed"] == 0 and 0 < got["cost"]["estimated"] <= budget


async def test_a_webset_holds_what_its_count_can_cost_so_the_next_is_not_sent_past_the_budget(
    research_app: OpenApp, sim: SimHandle
) -> None:
    # convergent.search makes a webset per query. The first is sent for the 3 items the budget
    # affords and holds their estimate until it finishes (as an agent run holds its worst case), so
    # the second would pass the budget: it is not sent, the first is cancelled, the task stops.
    sim.ctx.clock.set_speed(1.0)
    budget = round(3.2 * ITEM, 6)
    task = {
        "type": "convergent.search",
        "queries": ["AI startups in Europe", "machine learning companies Berlin"],
        "entity": {"type": "company"},
        "count": 40,
        "budgetUsd": budget,
    }
    async with research_app() as app:
        created = await app.run_operation("tasks.create", task)
        assert app.supervisor is not None
        done = await app.supervisor.tasks.wait(created["taskId"], timeout=WAIT)
        got = await app.run_operation("tasks.get", {"task_id": created["taskId"]})
    assert done.status == "completed", done.error
    assert done.result["partial"] is True and done.result["stoppedBy"] == "budget"
    log = sim.log()
    creates = [e for e in log if e["method"] == "POST" and e["path"] == "/websets/v0/websets"]
    cancels = [e for e in log if e["method"] == "POST" and e["path"].endswith("/cancel")]
    assert len(creates) == 1 and len(cancels) == 1
    assert 0 <= got["cost"]["estimated"] <= budget  # never past the budget


async def test_the_archive_ranks_a_winnow_cell_by_its_cost_per_elite(
    research_app: OpenApp, sim: SimHandle
) -> None:
    sim.ctx.clock.set_speed(100.0)
    winnow = {
        "type": "qd.winnow",
        "query": "AI startups",
        "entity": {"type": "company"},
        "count": 4,
        "criteria": [{"description": "based in Europe"}, {"description": "founded after 2015"}],
        "enrichments": [{"description": "Number of employees", "format": "number"}],
    }
    async with research_app() as app:
        created = await app.run_operation("tasks.create", winnow)
        assert app.supervisor is not None
        done = await app.supervisor.tasks.wait(created["taskId"], timeout=WAIT)
        got = await app.run_operation("tasks.get", {"task_id": created["taskId"]})
        cells = await app.store._read(
            "SELECT cost_usd, elite_count, cost_per_elite FROM v_archive WHERE task_id = ?", (done.id,)
        )
    assert done.status == "completed", done.error
    ((cost, elites, per_elite),) = cells
    assert cost == pytest.approx(got["cost"]["usd"]) and cost > 0  # the run's estimated Websets cost
    assert elites == len(done.result["finalElites"]) >= 1
    assert per_elite == pytest.approx(cost / elites)
