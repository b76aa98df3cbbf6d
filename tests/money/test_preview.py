"""Issue 23: `preview: true` says what a task (or a call) would cost at Exa without spending: the
range of the whole task, from the price table (data-design/prices.md), and nothing is sent."""

from __future__ import annotations

from typing import Any

import pytest

from exa_orch.gateway import prices
from exa_orch.sim.billing import Billing
from exa_orch.sim.testing import SimHandle
from exa_orch.workflows import citations
from tests.money.test_mixed_day import SIX
from tests.support import WAIT
from tests.workflows.conftest import OpenApp

# Every research task checks its citations (workflows/citations.py): up to its page cap, priced.
CHECK = citations.DEFAULT_PAGES * prices.CONTENT_PER_PAGE


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
        [check] = [p for p in cost["parts"] if p["what"].startswith("citation check")]
        assert (check["count"], check["usd"], check["certain"]) == (citations.DEFAULT_PAGES, CHECK, False)
    item, cell = prices.WEBSET_ITEM_ESTIMATE, prices.WEBSET_ENRICHMENT_ESTIMATE
    # lifecycle.harvest: 4 items with one enrichment each, none of it certain (a search may find nothing).
    assert previews["lifecycle.harvest"]["cost"]["highUsd"] == pytest.approx(4 * item + 4 * cell + CHECK)
    assert previews["lifecycle.harvest"]["cost"]["lowUsd"] == 0
    # convergent.search: one webset of 4 per query.
    assert previews["convergent.search"]["cost"]["highUsd"] == pytest.approx(2 * 4 * item + CHECK)
    # adversarial.verify: two websets of 3, and the synthesis run at a fixed effort (certain).
    medium = prices.AGENT_FIXED["medium"]
    assert previews["adversarial.verify"]["cost"]["highUsd"] == pytest.approx(6 * item + medium + CHECK)
    assert previews["adversarial.verify"]["cost"]["lowUsd"] == pytest.approx(medium)
    # research.verifiedCollection: a webset of 3, then up to researchLimit (2) research runs.
    assert previews["research.verifiedCollection"]["cost"]["highUsd"] == pytest.approx(
        3 * item + 2 * medium + CHECK
    )
    # qd.winnow: one round of 4 items with one enrichment and a yes/no enrichment per criterion.
    [winnow] = [t for t in SIX if t["type"] == "qd.winnow"]
    cells = 1 + len(winnow["criteria"])
    assert previews["qd.winnow"]["cost"]["highUsd"] == pytest.approx(4 * item + 4 * cells * cell + CHECK)


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
    assert cost["lowUsd"] == prices.AGENT_FIXED["high"] and cost["highUsd"] == pytest.approx(
        cost["lowUsd"] + CHECK
    )
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
    assert (capped["cost"]["lowUsd"], capped["cost"]["highUsd"]) == (0, pytest.approx(3 + CHECK))
    assert default["cost"]["highUsd"] == pytest.approx(prices.AGENT_METERED_CAP["auto"] + CHECK)


async def test_a_preview_prices_contact_enrichments_and_monitor_runs(
    research_app: OpenApp, sim: SimHandle
) -> None:
    item, cell, contact = (
        prices.WEBSET_ITEM_ESTIMATE,
        prices.WEBSET_ENRICHMENT_ESTIMATE,
        prices.CONTACT_ENRICHMENT,
    )
    emails = [
        {"description": "CEO email", "format": "email"},
        {"description": "Employees", "format": "number"},
    ]
    async with research_app() as app:
        harvest = await app.run_operation(
            "tasks.create",
            {
                "type": "lifecycle.harvest",
                "query": "AI startups",
                "entity": {"type": "company"},
                "count": 5,
                "enrichments": emails,
                "preview": True,
            },
        )
        webset = await app.run_operation(
            "websets.create",
            {"search": {"query": "AI startups", "count": 5}, "enrichments": emails, "preview": True},
        )
        monitor = await app.run_operation(
            "monitors.create",
            {
                "websetId": "ws_x",
                "cadence": {"cron": "0 9 * * *"},
                "behavior": {"type": "search", "config": {"count": 7, "query": "new AI startups"}},
                "preview": True,
            },
        )
    assert sim.log() == []  # nothing sent
    # 5 items, 2 cells each, and the contact surcharge on each of the 5 email results.
    expect = 5 * item + 10 * cell + 5 * contact
    assert harvest["cost"]["highUsd"] == pytest.approx(expect + CHECK)
    assert webset["cost"]["highUsd"] == pytest.approx(expect)
    parts = {p["what"]: p for p in webset["cost"]["parts"]}
    assert parts["webset contact enrichment results"] == {
        "what": "webset contact enrichment results",
        "count": 5,
        "eachUsd": contact,
        "usd": pytest.approx(5 * contact),
        "certain": False,
        "estimate": False,
    }
    # A monitor: each scheduled run's price and the new items its search may add.
    assert monitor["cost"]["highUsd"] == pytest.approx(prices.MONITOR_RUN + 7 * item)
    assert any(
        p["what"] == "monitor run" and p["eachUsd"] == prices.MONITOR_RUN for p in monitor["cost"]["parts"]
    )


def test_a_contact_enrichment_result_is_estimated_with_its_surcharge() -> None:
    import json as _json

    from exa_orch.gateway.context import RequestContext
    from exa_orch.gateway.ledger import WebsetsSeen, webset_count_path, webset_estimates, webset_search_worst

    item = {
        "object": "webset_item",
        "id": "it1",
        "enrichments": [
            {"object": "enrichment_result", "status": "completed", "format": "email", "enrichmentId": "e1"},
            {"object": "enrichment_result", "status": "completed", "format": "text", "enrichmentId": "e2"},
        ],
    }
    raw = _json.dumps({"data": [item]}).encode()
    rows = webset_estimates("/websets/v0/websets/ws/items", raw, RequestContext(), "a", WebsetsSeen())
    by_key = {r.key: r.usd for r in rows}
    assert by_key == {
        "webset_cell:e1:it1": pytest.approx(prices.WEBSET_ENRICHMENT_ESTIMATE + prices.CONTACT_ENRICHMENT),
        "webset_cell:e2:it1": pytest.approx(prices.WEBSET_ENRICHMENT_ESTIMATE),
    }
    # A budget's worst case of a webset with a contact enrichment counts the surcharge too.
    path = "/websets/v0/websets"
    body = {"search": {"query": "q", "count": 2}, "enrichments": [{"description": "e", "format": "phone"}]}
    assert webset_count_path(path)
    per = prices.WEBSET_ITEM_ESTIMATE + prices.WEBSET_ENRICHMENT_ESTIMATE + prices.CONTACT_ENRICHMENT
    assert webset_search_worst(path, _json.dumps(body).encode()) == pytest.approx(2 * per)


async def test_every_websets_workflow_prices_its_contact_enrichments(
    research_app: OpenApp, sim: SimHandle
) -> None:
    email = {"description": "CEO email", "format": "email"}
    contact = prices.CONTACT_ENRICHMENT
    async with research_app() as app:
        previews = {}
        for task in SIX:
            if task["type"] in ("convergent.search", "research.deep"):
                continue  # no enrichments of their own
            with_email = {**task, "enrichments": [*task.get("enrichments", []), email], "preview": True}
            previews[task["type"]] = (
                await app.run_operation("tasks.create", with_email),
                await app.run_operation("tasks.create", {**task, "preview": True}),
            )
    assert sim.log() == []
    sides = {"adversarial.verify": 2}  # two websets, each with the enrichment
    rounds = {"qd.winnow": 1}
    for kind, (with_email, without) in previews.items():
        [task] = [t for t in SIX if t["type"] == kind]
        results = task["count"] * sides.get(kind, 1) * rounds.get(kind, 1)
        extra = with_email["cost"]["highUsd"] - without["cost"]["highUsd"]
        assert extra == pytest.approx(results * (prices.WEBSET_ENRICHMENT_ESTIMATE + contact)), kind
        assert any("contact enrichment results" in p["what"] for p in with_email["cost"]["parts"]), kind


def test_a_monitor_run_that_ran_is_estimated_once_at_exas_price() -> None:
    import json as _json

    from exa_orch.gateway.context import RequestContext
    from exa_orch.gateway.ledger import WebsetsSeen, webset_estimates
    from exa_orch.gateway.purse import Purse

    def run(rid: str, status: str) -> dict[str, Any]:
        return {"id": rid, "object": "monitor_run", "status": status, "monitorId": "m1", "type": "search"}

    seen, scope = WebsetsSeen(), RequestContext(task_id="t")
    monitor = {"id": "m1", "object": "monitor", "lastRun": run("r1", "completed")}
    page = {"data": [run("r1", "completed"), run("r2", "running"), run("r3", "created")], "hasMore": False}
    rows = webset_estimates("/websets/v0/monitors/m1", _json.dumps(monitor).encode(), scope, "a", seen)
    rows += webset_estimates("/websets/v0/monitors/m1/runs", _json.dumps(page).encode(), scope, "a", seen)
    assert [(r.key, r.operation, r.usd, r.billed) for r in rows] == [
        ("monitor_run:r1", "websets.monitor_run", prices.MONITOR_RUN, False),
        ("monitor_run:r2", "websets.monitor_run", prices.MONITOR_RUN, False),
    ]
    # A task's purse counts it on top (no webset search's count covers a monitor's run fee).
    purse = Purse("t", budget=1.0)
    purse.search_started("s1", 0.5)
    purse.spent = 0.5
    purse.accrue("monitor_run:r1", prices.MONITOR_RUN, prices.WEBSET_ITEM_ESTIMATE)
    assert purse.spent == pytest.approx(0.5 + prices.MONITOR_RUN) and purse.searches == {"s1": 0.5}


async def test_a_research_create_preview_prices_the_effort_and_budget_it_sends(research_app: OpenApp) -> None:
    """A call's preview prices what the run is sent with: its effort (over `model`), capped by its
    own budget; not the default model's price."""
    base = {"instructions": "AI startups", "preview": True}
    async with research_app() as app:
        answers = {
            name: (await app.run_operation("research.create", {**base, **more}))["cost"]
            for name, more in {
                "default": {},
                "pro": {"model": "exa-research-pro"},
                "high": {"effort": "high"},
                "ultra": {"effort": "ultra"},
                "ultra capped": {"effort": "ultra", "budget": {"maxCostDollars": 2}},
            }.items()
        }
    assert answers["default"]["highUsd"] == prices.AGENT_FIXED["medium"]
    assert answers["pro"]["highUsd"] == answers["high"]["highUsd"] == prices.AGENT_FIXED["high"]
    assert answers["ultra"]["highUsd"] == prices.AGENT_METERED_CAP["ultra"] > 2
    assert (answers["ultra capped"]["lowUsd"], answers["ultra capped"]["highUsd"]) == (0, 2)
