"""Projections keep what an agent needs and say what they leave out."""

from __future__ import annotations

from exa_orch.operations import projections as pj

ITEM = {
    "id": "witem_1",
    "object": "webset_item",
    "source": "search",
    "sourceId": "ws_s1",
    "websetId": "ws_1",
    "properties": {"type": "company", "url": "https://a.io", "description": "AI startup", "content": "x" * 5000,
                   "company": {"name": "A", "location": "Berlin"}},
    "evaluations": [{"criterion": "in Europe", "reasoning": "Berlin", "satisfied": "yes",
                     "references": [{"title": "t", "snippet": "s" * 300, "url": "https://a.io/about"}]}],
    "enrichments": [{"object": "enrichment_result", "status": "completed", "format": "number", "result": ["2019"],
                     "reasoning": "site says", "references": [], "enrichmentId": "wenrich_1"}],
    "createdAt": "2026-01-01T00:00:00Z",
    "updatedAt": "2026-01-01T00:00:00Z",
}  # fmt: skip


def test_item_keeps_evaluations_and_enrichment_results_and_reports_content() -> None:
    out = pj.item(ITEM)
    assert out["id"] == "witem_1" and out["properties"]["company"]["name"] == "A"
    assert "content" not in out["properties"]
    assert (
        out["properties"]["contentOmitted"]["chars"] == 5000
        and "raw" in out["properties"]["contentOmitted"]["how"]
    )
    assert out["evaluations"] == [{"criterion": "in Europe", "satisfied": "yes", "reasoning": "Berlin",
                                   "references": ["https://a.io/about"]}]  # fmt: skip
    assert out["enrichments"][0]["enrichmentId"] == "wenrich_1" and out["enrichments"][0]["result"] == [
        "2019"
    ]
    assert "object" not in out


def test_webhook_secret_only_on_create() -> None:
    hook = {"id": "wh_1", "object": "webhook", "status": "active", "events": ["webset.created"],
            "url": "https://x", "secret": "whsec_123", "metadata": {}}  # fmt: skip
    assert "secret" not in pj.webhook(hook)
    created = pj.webhook_created(hook)
    assert created["secret"] == "whsec_123" and "does not keep it" in created["secretNote"]


def test_page_keeps_pagination_and_counts() -> None:
    out = pj.page({"data": [ITEM, ITEM], "hasMore": True, "nextCursor": "c2"}, pj.item)
    assert (
        out["count"] == 2 and out["hasMore"] is True and out["nextCursor"] == "c2" and "cursor" in out["next"]
    )
    last = pj.page({"data": [], "hasMore": False, "nextCursor": None}, pj.item)
    assert last == {"count": 0, "data": [], "hasMore": False}


def test_webset_summarises_searches_and_enrichments() -> None:
    ws = {
        "id": "ws_1", "object": "webset", "status": "running", "externalId": "e", "title": "t",
        "searches": [{"id": "s1", "object": "webset_search", "status": "running", "query": "q", "count": 10,
                      "entity": {"type": "company"}, "criteria": [{"description": "c1", "successRate": 50}],
                      "progress": {"found": 3, "analyzed": 9, "completion": 30, "timeLeft": 20},
                      "exclude": [], "scope": []}],
        "enrichments": [{"id": "e1", "object": "webset_enrichment", "status": "pending", "format": "options",
                         "options": [{"label": "a"}, {"label": "b"}], "description": "d"}],
        "monitors": [], "imports": [], "excludes": [], "metadata": {}, "createdAt": "c", "updatedAt": "u",
    }  # fmt: skip
    out = pj.webset(ws)
    search = out["searches"][0]
    assert search["progress"]["found"] == 3 and search["entity"] == "company" and search["criteria"] == ["c1"]
    assert out["enrichments"][0]["options"] == ["a", "b"]
    assert "monitors" not in out and out["status"] == "running"


def test_all_satisfied_needs_every_evaluation_yes() -> None:
    assert pj.all_satisfied(ITEM)
    assert not pj.all_satisfied({**ITEM, "evaluations": [*ITEM["evaluations"], {"satisfied": "unclear"}]})
    assert not pj.all_satisfied({**ITEM, "evaluations": []})


def test_event_projects_its_data_by_kind() -> None:
    out = pj.event(
        {"id": "ev1", "object": "event", "type": "webset.item.created", "data": ITEM, "createdAt": "c"}
    )
    assert out["data"]["id"] == "witem_1" and "contentOmitted" in out["data"]["properties"]
