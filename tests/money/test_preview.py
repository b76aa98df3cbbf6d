"""Issue 23: `preview: true` says what a task (or a call) would cost at Exa without spending: the
range of the whole task, from the price table (data-design/prices.md), and nothing is sent."""

from __future__ import annotations

from typing import Any

import pytest

from exa_orch.gateway import prices
from exa_orch.sim.billing import Billing
from exa_orch.sim.testing import SimHandle
from tests.money.test_mixed_day import SIX
from tests.support import WAIT
from tests.workflows.conftest import OpenApp


async def test_a_preview_of_each_workflow_prices_the_whole_task_and_sends_nothing(
    research_app: OpenApp, sim: SimHandle
) -> None:
    async with research_app() as app:
        previews = {t["type"]: await app.run_operation("tasks.create", {**t, "preview": True}) for t in SIX}
        listed = await app.run_operation("tasks.list", {})
    assert listed["tasks"] == [] and sim.log() == []  # no task made, no request sent
    for kind, answer in previews.items():
        cost = answer["cost"]
        assert answer["preview"] is True and 0 <= cost["lowUsd"] <= cost["highUsd"], kind
        assert cost["highUsd"] == pytest.approx(sum(p["usd"] for p in cost["parts"])), kind
        assert cost["highUsd"] > 0 and "prices.md" in cost["source"], kind
    item, cell = prices.WEBSET_ITEM_ESTIMATE, prices.WEBSET_ENRICHMENT_ESTIMATE
    # lifecycle.harvest: 4 items with one enrichment each, none of it certain (a search may find nothing).
    assert previews["lifecycle.harvest"]["cost"]["highUsd"] == pytest.approx(4 * item + 4 * cell)
    assert previews["lifecycle.harvest"]["cost"]["lowUsd"] == 0
    # convergent.search: one webset of 4 per query.
    assert previews["convergent.search"]["cost"]["highUsd"] == pytest.approx(2 * 4 * item)
    # adversarial.verify: two websets of 3, and the synthesis run at a fixed effort (certain).
    medium = prices.AGENT_FIXED["medium"]
    assert previews["adversarial.verify"]["cost"]["highUsd"] == pytest.approx(6 * item + medium)
    assert previews["adversarial.verify"]["cost"]["lowUsd"] == pytest.approx(medium)
    # research.verifiedCollection: a webset of 3, then up to researchLimit (2) research runs.
    assert previews["research.verifiedCollection"]["cost"]["highUsd"] == pytest.approx(3 * item + 2 * medium)
    # qd.winnow: one round of 4 items with one enrichment and a yes/no enrichment per criterion.
    [winnow] = [t for t in SIX if t["type"] == "qd.winnow"]
    cells = 1 + len(winnow["criteria"])
    assert previews["qd.winnow"]["cost"]["highUsd"] == pytest.approx(4 * item + 4 * cells * cell)


async def test_a_previewed_task_then_run_costs_within_its_range(
    research_app: OpenApp, sim: SimHandle
) -> None:
    args: dict[str, Any] = {
        "type": "research.deep",
        "instructions": "AI startups",
        "model": "exa-research-pro",
    }
    async with research_app() as app:
        preview = await app.run_operation("tasks.create", {**args, "preview": True, "budgetUsd": 0.01})
        assert sim.log() == []
        created = await app.run_operation("tasks.create", args)
        assert app.supervisor is not None
        done = await app.supervisor.tasks.wait(created["taskId"], timeout=WAIT)
        got = await app.run_operation("tasks.get", {"task_id": created["taskId"]})
    cost = preview["cost"]
    assert cost["lowUsd"] == cost["highUsd"] == prices.AGENT_FIXED["high"]
    assert cost["budgetUsd"] == 0.01 and cost["withinBudget"] is False  # the budget would stop it
    assert done.status == "completed"
    account: Billing = sim.ctx.extras["billing"]
    assert cost["lowUsd"] <= got["cost"]["usd"] == account.spent <= cost["highUsd"]


async def test_a_call_and_an_operation_task_preview_their_request(
    research_app: OpenApp, sim: SimHandle
) -> None:
    search = {"query": "AI startups", "numResults": 20, "contents": {"text": True}}
    async with research_app() as app:
        call = await app.run_operation("exa.search", {**search, "preview": True})
        task = await app.run_operation(
            "tasks.create",
            {"type": "operation", "operation": "exa.answer", "args": {"query": "who?"}, "preview": True},
        )
        webset = await app.run_operation(
            "websets.create",
            {
                "search": {"query": "AI startups", "count": 7},
                "enrichments": [{"description": "CEO"}],
                "preview": True,
            },
        )
        free = await app.run_operation("websets.list", {"preview": True})
    assert sim.log() == []
    worst = prices.SEARCH + 10 * prices.EXTRA_RESULT + 20 * prices.CONTENT_PER_PAGE
    assert call["cost"]["lowUsd"] == call["cost"]["highUsd"] == pytest.approx(worst)
    assert task["cost"]["highUsd"] == prices.ANSWER
    assert webset["cost"]["highUsd"] == pytest.approx(
        7 * prices.WEBSET_ITEM_ESTIMATE + 7 * prices.WEBSET_ENRICHMENT_ESTIMATE
    )
    assert free["cost"]["highUsd"] == 0


async def test_a_metered_research_run_is_previewed_at_most_its_own_budget(research_app: OpenApp) -> None:
    args = {"type": "research.deep", "instructions": "AI startups", "effort": "auto", "preview": True}
    async with research_app() as app:
        capped = await app.run_operation("tasks.create", {**args, "budget": {"maxCostDollars": 3}})
        default = await app.run_operation("tasks.create", args)
    assert (capped["cost"]["lowUsd"], capped["cost"]["highUsd"]) == (0, 3)
    assert default["cost"]["highUsd"] == prices.AGENT_METERED_CAP["auto"]
