"""Every Websets operation, the search family, research.* and papers.search, called through
`manage_websets` on an `exa-orch serve` subprocess over stdio, against the simulator."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio
from mcp import Client

from tests.mcp.conftest import call_error, held, result_json, stdio_session

pytestmark = pytest.mark.slow
# The tests that share the module's server (`client`) run in the module's event loop.
SHARED = pytest.mark.asyncio(loop_scope="module")

QUERY = "AI startups in Europe"

# The 38 Websets endpoints, named as in seed 001.
WEBSETS_OPERATIONS = {
    *(f"websets.{v}" for v in ("create", "get", "list", "update", "delete", "cancel", "preview")),
    *(f"searches.{v}" for v in ("create", "get", "cancel")),
    *(f"items.{v}" for v in ("list", "get", "delete")),
    *(f"enrichments.{v}" for v in ("create", "get", "cancel", "update", "delete")),
    *(f"monitors.{v}" for v in ("create", "get", "list", "update", "delete", "runs.list", "runs.get")),
    *(f"webhooks.{v}" for v in ("create", "get", "list", "update", "delete", "list_attempts")),
    *(f"imports.{v}" for v in ("create", "get", "list", "update", "delete")),
    *(f"events.{v}" for v in ("list", "get")),
}


class Recorder:
    """manage_websets calls that must succeed; remembers which operations were exercised."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self.called: set[str] = set()

    async def __call__(self, operation: str, args: dict[str, Any] | None = None, **kw: Any) -> Any:
        result = await self.client.call_tool(
            "manage_websets", {"operation": operation, "args": args or {}}, **kw
        )
        body = result_json(result)
        assert not result.is_error, f"{operation} failed: {body}"
        if isinstance(body, dict) and result.structured_content is not None:
            assert result.structured_content == body
        self.called.add(operation)
        return body


async def _idle_webset(ops: Recorder, count: int = 4, **extra: Any) -> dict[str, Any]:
    ws = await ops("websets.create", {"search": {"query": QUERY, "count": count}, **extra})
    done = await ops("websets.waitUntilIdle", {"id": ws["id"], "timeout": 60, "pollInterval": 0.05})
    assert done["timedOut"] is False
    return dict(done["webset"])


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def client(sim_url: str, tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Client]:
    """One `exa-orch serve` over stdio for the module's tests (one start-up, ~1 s of CPU, not one
    a test): each makes its own websets and runs, none restarts or reconfigures it."""
    async with held(stdio_session(sim_url, tmp_path_factory.mktemp("serve"))) as session:
        yield session


def test_the_38_names_are_the_seed_list() -> None:
    assert len(WEBSETS_OPERATIONS) == 38


@SHARED
async def test_every_websets_operation_through_manage_websets(client: Client) -> None:
    ops = Recorder(client)
    # websets
    preview = await ops("websets.preview", {"search": {"query": QUERY}})
    assert preview["search"]["entity"]["type"] == "company"
    ws = await ops(
        "websets.create",
        {"search": {"query": QUERY, "count": 4}, "externalId": "mcp-ws-1", "metadata": {"team": "mcp"}},
    )
    assert ws["id"] and ws["externalId"] == "mcp-ws-1"
    progress: list[tuple[float, float | None, str | None]] = []

    async def on_progress(done: float, total: float | None, message: str | None) -> None:
        progress.append((done, total, message))

    waited = await ops(
        "websets.waitUntilIdle",
        {"id": "mcp-ws-1", "timeout": 60, "pollInterval": 0.05},
        progress_callback=on_progress,
    )
    assert waited["webset"]["status"] == "idle"
    assert progress, "a progress token on the call gets notifications/progress"
    assert progress[-1][1] == 4 and progress[-1][2]
    assert (await ops("websets.get", {"id": ws["id"]}))["id"] == ws["id"]
    assert ws["id"] in [w["id"] for w in (await ops("websets.list", {"limit": 10}))["data"]]
    updated = await ops("websets.update", {"id": ws["id"], "metadata": {"team": "mcp", "n": "2"}})
    assert updated["metadata"] == {"team": "mcp", "n": "2"}

    # searches
    search = await ops("searches.create", {"websetId": ws["id"], "query": "fintech startups", "count": 2})
    got = await ops("searches.get", {"websetId": ws["id"], "searchId": search["id"]})
    assert got["id"] == search["id"]
    canceled = await ops("searches.cancel", {"websetId": ws["id"], "searchId": search["id"]})
    assert canceled["status"] in ("canceled", "completed")

    # items
    page = await ops("items.list", {"websetId": ws["id"], "limit": 2})
    item = page["data"][0]
    assert set(item["criteria"].values()) <= {"yes", "no", "unclear"}  # compact items by default
    assert (await ops("items.get", {"websetId": ws["id"], "itemId": item["id"]}))["id"] == item["id"]
    assert (await ops("items.delete", {"websetId": ws["id"], "itemId": item["id"]}))["id"] == item["id"]
    gone = await call_error(client, "items.get", {"websetId": ws["id"], "itemId": item["id"]})
    assert gone["code"] == "RESOURCE_NOT_FOUND" and gone["operation"] == "items.get"

    # enrichments
    enr = await ops(
        "enrichments.create",
        {
            "websetId": ws["id"],
            "description": "funding stage",
            "format": "options",
            "options": ["seed", "A"],
        },
    )
    eid = {"websetId": ws["id"], "enrichmentId": enr["id"]}
    assert (await ops("enrichments.get", eid))["description"] == "funding stage"
    assert (await ops("enrichments.update", {**eid, "description": "latest stage"}))["id"] == enr["id"]
    assert (await ops("enrichments.cancel", eid))["id"] == enr["id"]
    assert (await ops("enrichments.delete", eid))["id"] == enr["id"]

    # monitors
    mon = await ops(
        "monitors.create",
        {
            "websetId": ws["id"],
            "cadence": {"cron": "0 9 * * 1"},
            "behavior": {"type": "search", "config": {"count": 2}},
        },
    )
    assert (await ops("monitors.get", {"id": mon["id"]}))["websetId"] == ws["id"]
    assert [m["id"] for m in (await ops("monitors.list", {"websetId": ws["id"]}))["data"]] == [mon["id"]]
    assert (await ops("monitors.update", {"id": mon["id"], "status": "disabled"}))["status"] == "disabled"
    runs = await ops("monitors.runs.list", {"monitorId": mon["id"]})
    run = await ops("monitors.runs.get", {"monitorId": mon["id"], "runId": runs["data"][0]["id"]})
    assert run["monitorId"] == mon["id"]
    assert (await ops("monitors.delete", {"id": mon["id"]}))["id"] == mon["id"]

    # webhooks: the secret comes back once, on create
    hook = await ops("webhooks.create", {"url": "https://example.com/hook", "events": ["webset.created"]})
    assert hook["secret"]
    got_hook = await ops("webhooks.get", {"id": hook["id"]})
    assert "secret" not in got_hook
    assert hook["id"] in [h["id"] for h in (await ops("webhooks.list", {}))["data"]]
    upd = await ops("webhooks.update", {"id": hook["id"], "events": ["webset.created", "webset.idle"]})
    assert upd["events"] == ["webset.created", "webset.idle"]
    await ops("websets.create", {"search": {"query": QUERY, "count": 1}})
    attempts = await ops("webhooks.list_attempts", {"id": hook["id"]})
    assert "webset.created" in {a["eventType"] for a in attempts["data"]}
    assert (await ops("webhooks.delete", {"id": hook["id"]}))["id"] == hook["id"]

    # imports (CSV text uploaded by the operation)
    csv_text = "url,name\nhttps://vantaware.io,Vanta Ware\nhttps://cobalthealth.co,Cobalt Health\n"
    imp = await ops(
        "imports.create",
        {"entity": {"type": "company"}, "csv": csv_text, "csvIdentifier": 0, "title": "two"},
    )
    assert imp["uploaded"]["rows"] == 2
    done = await ops("imports.waitUntilCompleted", {"id": imp["id"], "timeout": 60, "pollInterval": 0.05})
    assert done["import"]["status"] == "completed"
    assert (await ops("imports.get", {"id": imp["id"]}))["count"] == 2
    assert imp["id"] in [i["id"] for i in (await ops("imports.list", {}))["data"]]
    assert (await ops("imports.update", {"id": imp["id"], "title": "renamed"}))["title"] == "renamed"
    assert (await ops("imports.delete", {"id": imp["id"]}))["id"] == imp["id"]

    # events
    events = await ops("events.list", {"types": ["webset.created"]})
    assert events["data"] and all(e["type"] == "webset.created" for e in events["data"])
    assert (await ops("events.get", {"id": events["data"][0]["id"]}))["id"] == events["data"][0]["id"]

    # the helpers an agent needs
    every = await ops("items.getAll", {"websetId": ws["id"]})
    assert every["truncated"] is False
    for helper in (
        "websets.getAll",
        "monitors.getAll",
        "webhooks.getAll",
        "imports.getAll",
        "events.getAll",
    ):
        assert "truncated" in await ops(helper, {})

    # finally the webset itself
    assert (await ops("websets.cancel", {"id": ws["id"]}))["id"] == ws["id"]
    assert (await ops("websets.delete", {"id": ws["id"]}))["id"] == ws["id"]
    missing = await call_error(client, "websets.get", {"id": ws["id"]})
    assert missing["code"] == "RESOURCE_NOT_FOUND" and missing["hint"]

    assert WEBSETS_OPERATIONS <= ops.called, sorted(WEBSETS_OPERATIONS - ops.called)


@SHARED
async def test_preserved_validations_over_mcp(client: Client) -> None:
    no_options = await call_error(
        client, "enrichments.create", {"websetId": "ws_x", "description": "stage", "format": "options"}
    )
    assert no_options["code"] == "INVALID_PARAMS" and "options" in no_options["message"]
    cron = await call_error(
        client,
        "monitors.create",
        {
            "websetId": "ws_x",
            "cadence": {"cron": "0 9 * *"},
            "behavior": {"type": "search", "config": {}},
        },
    )
    assert "5 fields" in cron["message"] or "five" in cron["message"].lower(), cron
    no_task = await call_error(client, "tasks.get", {"taskId": "task_does_not_exist"})
    assert no_task["code"] == "TASK_NOT_FOUND" and "tasks.list" in no_task["hint"]
    search = await call_error(client, "searches.create", {"websetId": "ws_x", "count": 5})
    assert "Common issues" in (search.get("hint") or "") + search["message"], search


@SHARED
async def test_search_family_research_and_papers(client: Client) -> None:
    ops = Recorder(client)
    found = await ops("exa.search", {"query": "climate tech startup", "numResults": 2})
    url = found["results"][0]["url"]
    assert (await ops("exa.findSimilar", {"url": url, "numResults": 2}))["results"]
    assert (await ops("exa.getContents", {"urls": [url], "text": True}))["results"]
    assert (await ops("exa.answer", {"question": "Which climate tech startups exist?"}))["answer"]

    created = await ops("research.create", {"instructions": "Summarize European AI startups"})
    rid = created["researchId"]
    assert (await ops("research.get", {"researchId": rid}))["researchId"] == rid
    assert rid in [r["researchId"] for r in (await ops("research.list", {"limit": 10}))["data"]]
    done = await ops("research.pollUntilFinished", {"researchId": rid, "pollInterval": 0.05, "timeout": 60})
    assert done["status"] == "completed" and done["output"]["text"]

    papers = await ops("papers.search", {"query": "neural networks", "categories": ["cs.LG"]})
    assert set(papers) == {"results", "total_count", "query", "filters"} and papers["results"]
    bad_year = await call_error(client, "papers.search", {"query": "x", "years": [1990]})
    assert bad_year["code"] == "INVALID_PARAMS" and "years" in bad_year["message"]

    preview = await ops("exa.search", {"query": "x", "preview": True})
    assert preview["preview"] is True
