"""Each of the 38 Websets operations (and the helpers) against the simulator, results checked."""

from __future__ import annotations

from typing import Any

import pytest

from exa_orch.errors import ErrorCode, NotFoundError, WebsetNotRunning
from exa_orch.operations import projections as pj
from exa_orch.sim.context import FaultConfig
from exa_orch.sim.testing import SimHandle

from .conftest import Ops

QUERY = "AI startups in Europe"


async def idle_webset(ops: Ops, count: int = 6, **extra: Any) -> dict[str, Any]:
    ws = await ops("websets.create", {"search": {"query": QUERY, "count": count}, **extra})
    done = await ops("websets.waitUntilIdle", {"id": ws["id"], "timeout": 60, "pollInterval": 0.05})
    assert done["timedOut"] is False
    return dict(done["webset"])


async def test_websets_lifecycle(ops: Ops) -> None:
    preview = await ops("websets.preview", {"search": {"query": QUERY}})
    assert preview["search"]["criteria"] and preview["search"]["entity"]["type"] == "company"

    ws = await ops("websets.create", {"search": {"query": QUERY, "count": 6, "criteria": ["based in Europe"]},
                                      "externalId": "ops-ws-1", "metadata": {"team": "ops"},
                                      "enrichments": [{"description": "founding year", "format": "number"}]})  # fmt: skip
    assert ws["id"] and ws["externalId"] == "ops-ws-1"
    assert ws["searches"][0]["query"] == QUERY and ws["searches"][0]["criteria"] == ["based in Europe"]
    assert ws["enrichments"][0]["format"] == "number"
    assert "object" not in ws and "object" not in ws["searches"][0]
    assert ws["normalized"][0]["field"] == "search.criteria[0]"

    waited = await ops("websets.waitUntilIdle", {"id": "ops-ws-1", "timeout": 60, "pollInterval": 0.05})
    assert waited["timedOut"] is False and waited["webset"]["status"] == "idle"
    assert waited["polls"] == len(ops.progress) >= 1
    found, total, message = ops.progress[-1]
    assert total == 6 and 0 < found <= 6 and message and message.startswith("webset idle")

    got = await ops("websets.get", {"id": ws["id"], "expand": ["items"]})
    assert got["status"] == "idle" and got["items"] and got["items"][0]["criteria"]  # compact items
    assert "evaluations" not in got["items"][0]
    whole = await ops("websets.get", {"id": ws["id"], "expand": ["items"], "fields": ["all"]})
    assert whole["items"][0]["evaluations"] and whole["items"][0]["id"] == got["items"][0]["id"]
    by_external = await ops("websets.get", {"id": "ops-ws-1"})
    assert by_external["id"] == ws["id"]

    listed = await ops("websets.list", {"limit": 10})
    assert ws["id"] in [w["id"] for w in listed["data"]] and listed["hasMore"] is False
    every = await ops("websets.getAll", {})
    assert every["truncated"] is False and ws["id"] in [w["id"] for w in every["data"]]

    updated = await ops("websets.update", {"id": ws["id"], "metadata": {"team": "ops", "stage": "2"}})
    assert updated["metadata"] == {"team": "ops", "stage": "2"}

    canceled = await ops("websets.cancel", {"id": ws["id"]})
    assert canceled["id"] == ws["id"]
    deleted = await ops("websets.delete", {"id": ws["id"]})
    assert deleted["id"] == ws["id"]
    with pytest.raises(NotFoundError):
        await ops("websets.get", {"id": ws["id"]})


async def test_wait_until_idle_times_out_and_says_so(ops: Ops) -> None:
    ops.sim.ctx.clock.set_speed(1e-9)  # held: the search is still going however late the wait ends
    ws = await ops("websets.create", {"search": {"query": QUERY, "count": 50}})
    out = await ops("websets.waitUntilIdle", {"id": ws["id"], "timeout": 0.1, "pollInterval": 0.05})
    assert out["timedOut"] is True and out["webset"]["status"] in ("running", "pending")
    assert "call again" in out["timedOutNote"]
    assert ops.progress, "each poll reports progress"


async def test_wait_until_idle_on_a_paused_webset_ends_at_once_saying_so(ops: Ops, sim: SimHandle) -> None:
    """Exa's `paused` never becomes idle by itself: the wait ends with WEBSET_NOT_RUNNING naming it,
    instead of polling until its timeout (issue 29)."""
    ws = await ops("websets.create", {"search": {"query": QUERY, "count": 50}})
    sim.set_faults(FaultConfig(webset_status="paused"))
    with pytest.raises(WebsetNotRunning) as paused:
        await ops("websets.waitUntilIdle", {"id": ws["id"], "timeout": 600, "pollInterval": 0.05})
    assert paused.value.code is ErrorCode.WEBSET_NOT_RUNNING and paused.value.status == "paused"
    assert ws["id"] in paused.value.message and "will not become idle by itself" in paused.value.message
    assert (await ops("websets.get", {"id": ws["id"]}))["status"] == "paused"


async def test_a_pending_webset_is_waited_for_until_it_runs_and_goes_idle(ops: Ops, sim: SimHandle) -> None:
    ws = await ops("websets.create", {"search": {"query": QUERY, "count": 3}})
    sim.set_faults(FaultConfig(webset_status="pending"))
    held = await ops("websets.waitUntilIdle", {"id": ws["id"], "timeout": 0.3, "pollInterval": 0.05})
    assert held["timedOut"] is True and held["webset"]["status"] == "pending"  # queued: waited for
    sim.set_faults(FaultConfig())
    done = await ops("websets.waitUntilIdle", {"id": ws["id"], "timeout": 60, "pollInterval": 0.05})
    assert done["timedOut"] is False and done["webset"]["status"] == "idle"


async def test_searches(ops: Ops) -> None:
    ws = await idle_webset(ops)
    search = await ops("searches.create", {"websetId": ws["id"], "query": "fintech startups in Europe",
                                           "count": "4", "behavior": "append", "entity": "company"})  # fmt: skip
    assert search["id"] and search["websetId"] == ws["id"]
    assert search["behavior"] == "append" and search["entity"] == "company"
    assert {c["field"] for c in search["normalized"]} == {"count", "entity"}
    got = await ops("searches.get", {"websetId": ws["id"], "searchId": search["id"]})
    assert got["id"] == search["id"] and "progress" in got
    canceled = await ops("searches.cancel", {"websetId": ws["id"], "searchId": search["id"]})
    assert canceled["status"] in ("canceled", "completed")


async def test_items(ops: Ops) -> None:
    ws = await idle_webset(ops, count=6)
    page = await ops("items.list", {"websetId": ws["id"], "limit": 2, "fields": ["all"]})
    assert page["count"] == 2 and page["hasMore"] is True and page["nextCursor"]
    item = page["data"][0]
    assert item["id"] and item["properties"]["type"] == "company"
    assert item["evaluations"][0]["satisfied"] in ("yes", "no", "unclear")
    compact = (await ops("items.list", {"websetId": ws["id"], "limit": 2}))["data"][0]
    assert compact == pj.compact_item(item) and set(compact) <= {
        "id",
        "name",
        "url",
        "criteria",
        "enrichments",
    }
    assert compact["criteria"] == {e["criterion"]: e["satisfied"] for e in item["evaluations"]}
    raw = await ops("items.get", {"websetId": ws["id"], "itemId": item["id"], "raw": True})
    assert raw["object"] == "webset_item"
    got = await ops("items.get", {"websetId": ws["id"], "itemId": item["id"]})
    assert got["id"] == item["id"] and "object" not in got
    if raw["properties"].get("content"):
        assert got["properties"]["contentOmitted"]["chars"] == len(raw["properties"]["content"])
    second = await ops("items.list", {"websetId": ws["id"], "cursor": page["nextCursor"], "limit": 2})
    assert not {i["id"] for i in second["data"]} & {i["id"] for i in page["data"]}

    everything = await ops("items.getAll", {"websetId": ws["id"]})
    total = everything["count"]
    assert everything["truncated"] is False and total == len(everything["data"]) >= 3
    assert "evaluations" not in everything["data"][0]  # compact unless fields asks for more
    reasons = await ops("items.getAll", {"websetId": ws["id"], "fields": ["reasoning", "properties"]})
    assert reasons["data"][0]["evaluations"][0]["reasoning"] and reasons["data"][0]["properties"]
    capped = await ops("items.getAll", {"websetId": ws["id"], "maxItems": 2, "pageSize": 1})
    assert capped["truncated"] is True and capped["count"] == 2 and capped["pages"] == 2
    assert "maxItems=2" in capped["truncatedNote"] and capped["nextCursor"]
    rest = await ops("items.getAll", {"websetId": ws["id"], "cursor": capped["nextCursor"]})
    assert capped["count"] + rest["count"] == total

    satisfied = await ops("items.getAll", {"websetId": ws["id"], "onlySatisfied": True})
    omitted = satisfied.get("omitted", 0)
    assert satisfied["count"] + omitted == total
    if omitted:
        assert "onlySatisfied: false" in satisfied["omittedNote"]

    deleted = await ops("items.delete", {"websetId": ws["id"], "itemId": item["id"]})
    assert deleted["id"] == item["id"]
    with pytest.raises(NotFoundError):
        await ops("items.get", {"websetId": ws["id"], "itemId": item["id"]})


async def test_enrichments(ops: Ops) -> None:
    ws = await idle_webset(ops, count=3)
    created = await ops("enrichments.create", {"websetId": ws["id"], "description": "funding stage",
                                               "format": "options", "options": ["seed", "series A"]})  # fmt: skip
    assert created["id"] and created["options"] == ["seed", "series A"]
    got = await ops("enrichments.get", {"websetId": ws["id"], "enrichmentId": created["id"]})
    assert got["description"] == "funding stage"
    updated = await ops("enrichments.update", {"websetId": ws["id"], "enrichmentId": created["id"],
                                               "description": "latest funding stage"})  # fmt: skip
    assert updated["id"] == created["id"]
    await ops("websets.waitUntilIdle", {"id": ws["id"], "timeout": 60, "pollInterval": 0.05})
    items = await ops("items.list", {"websetId": ws["id"], "fields": ["enrichmentResults"]})
    results = [r for i in items["data"] for r in i["enrichmentResults"] if r["enrichmentId"] == created["id"]]
    assert results and all("result" in r for r in results)
    values = await ops("items.list", {"websetId": ws["id"]})  # compact: {enrichmentId: result}
    full = {
        i["id"]: {r["enrichmentId"]: r.get("result") for r in i["enrichmentResults"]} for i in items["data"]
    }
    assert {i["id"]: i.get("enrichments", {}) for i in values["data"]} == full
    canceled = await ops("enrichments.cancel", {"websetId": ws["id"], "enrichmentId": created["id"]})
    assert canceled["id"] == created["id"]
    deleted = await ops("enrichments.delete", {"websetId": ws["id"], "enrichmentId": created["id"]})
    assert deleted["id"] == created["id"]


async def test_monitors(ops: Ops) -> None:
    ws = await idle_webset(ops, count=3)
    monitor = await ops("monitors.create", {"websetId": ws["id"], "cadence": {"cron": "0 9 * * 1"},
                                            "behavior": {"type": "search", "config": {"count": 2}}})  # fmt: skip
    assert monitor["id"] and monitor["status"] == "enabled"
    assert monitor["cadence"]["cron"] == "0 9 * * 1"
    assert (await ops("monitors.get", {"id": monitor["id"]}))["websetId"] == ws["id"]
    listed = await ops("monitors.list", {"websetId": ws["id"]})
    assert [m["id"] for m in listed["data"]] == [monitor["id"]]
    assert monitor["id"] in [m["id"] for m in (await ops("monitors.getAll", {}))["data"]]
    updated = await ops("monitors.update", {"id": monitor["id"], "status": "disabled"})
    assert updated["status"] == "disabled"
    runs = await ops("monitors.runs.list", {"monitorId": monitor["id"]})
    assert runs["data"] and runs["data"][0]["monitorId"] == monitor["id"]
    run = await ops("monitors.runs.get", {"monitorId": monitor["id"], "runId": runs["data"][0]["id"]})
    assert run["id"] == runs["data"][0]["id"] and run["type"] in ("search", "refresh")
    deleted = await ops("monitors.delete", {"id": monitor["id"]})
    assert deleted["id"] == monitor["id"]


async def test_webhooks_hand_back_the_secret_once(ops: Ops, caplog: pytest.LogCaptureFixture) -> None:
    hook = await ops("webhooks.create", {"url": "https://example.com/hook", "events": "webset.created"})
    secret = hook["secret"]
    assert secret and "store it" in hook["secretNote"]
    assert hook["events"] == ["webset.created"]
    got = await ops("webhooks.get", {"id": hook["id"]})
    assert "secret" not in got and got["url"] == "https://example.com/hook"
    listed = await ops("webhooks.list", {})
    assert hook["id"] in [h["id"] for h in listed["data"]] and all("secret" not in h for h in listed["data"])
    assert (await ops("webhooks.getAll", {}))["count"] == listed["count"]
    updated = await ops("webhooks.update", {"id": hook["id"], "events": ["webset.created", "webset.idle"]})
    assert updated["events"] == ["webset.created", "webset.idle"]

    await ops("websets.create", {"search": {"query": QUERY, "count": 2}})
    attempts = await ops("webhooks.list_attempts", {"id": hook["id"]})
    assert "webset.created" in {a["eventType"] for a in attempts["data"]}
    assert "responseBody" not in attempts["data"][0]
    all_attempts = await ops("webhooks.getAllAttempts", {"id": hook["id"], "eventType": "webset.created"})
    assert all_attempts["count"] == len([a for a in attempts["data"] if a["eventType"] == "webset.created"])

    deleted = await ops("webhooks.delete", {"id": hook["id"]})
    assert deleted["id"] == hook["id"] and "secret" not in deleted
    assert secret not in caplog.text


async def test_imports_with_csv_text(ops: Ops) -> None:
    csv_text = "url,name\nhttps://vantaware.io,Vanta Ware\nhttps://cobalthealth.co,Cobalt Health\n"
    created = await ops("imports.create", {"entity": {"type": "company"}, "csv": csv_text, "csvIdentifier": 0,
                                           "title": "two companies"})  # fmt: skip
    assert created["uploaded"] == {
        "bytes": len(csv_text.encode()),
        "rows": 2,
        "status": created["uploaded"]["status"],
    }
    assert 200 <= created["uploaded"]["status"] < 300 and "uploadUrl" not in created
    log = [e for e in ops.sim.stats().get("requests_by_endpoint", {}) if e.startswith("PUT")]
    assert log, "the CSV was PUT to the upload URL"
    done = await ops("imports.waitUntilCompleted", {"id": created["id"], "timeout": 60, "pollInterval": 0.05})
    assert done["timedOut"] is False and done["import"]["status"] == "completed"
    got = await ops("imports.get", {"id": created["id"]})
    assert got["count"] == 2 and got["title"] == "two companies"
    assert created["id"] in [i["id"] for i in (await ops("imports.list", {}))["data"]]
    assert created["id"] in [i["id"] for i in (await ops("imports.getAll", {}))["data"]]
    updated = await ops("imports.update", {"id": created["id"], "title": "renamed"})
    assert updated["title"] == "renamed"
    deleted = await ops("imports.delete", {"id": created["id"]})
    assert deleted["id"] == created["id"]


async def test_events(ops: Ops) -> None:
    await idle_webset(ops, count=2)
    listed = await ops("events.list", {"types": ["webset.created"]})
    assert listed["data"] and all(e["type"] == "webset.created" for e in listed["data"])
    event = listed["data"][0]
    assert event["data"]["id"]
    got = await ops("events.get", {"id": event["id"]})
    assert got["id"] == event["id"] and got["type"] == "webset.created"
    every = await ops("events.getAll", {"maxItems": 3, "pageSize": 2})
    assert every["count"] <= 3
    total = (await ops("events.getAll", {}))["count"]
    assert every["truncated"] is (total > 3)
