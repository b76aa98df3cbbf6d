"""The toolhost profile (EXA_ORCH_TOOLS=toolhost): every seed operation of the four meta-tools,
with the seed's parameter names, over stdio against the simulator; each real answer validates
against the outputSchema its tool's list_operations gives for it (seed 000 section 4.4)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import jsonschema
import pytest
import pytest_asyncio
from mcp import Client

from exa_orch.mcp.toolhost import TOOLHOST_TOOLS
from tests.mcp.conftest import held, result_json, stdio_session

pytestmark = [pytest.mark.slow, pytest.mark.asyncio(loop_scope="module")]  # the module's server


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def client(sim_url: str, tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Client]:
    """One toolhost-profile server for the module's tests (one start-up, ~1 s of CPU, not one a
    test): the four tools' listing makes no Exa object and leaves no task, and neither test
    restarts or reconfigures the server."""
    tmp = tmp_path_factory.mktemp("toolhost")
    async with held(stdio_session(sim_url, tmp, EXA_ORCH_TOOLS="toolhost")) as session:
        yield session


class Toolhost:
    """Calls `tool {operation, params}`; remembers which (tool, operation) pairs were exercised."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self.called: set[tuple[str, str]] = set()
        self.validated: set[tuple[str, str]] = set()
        self.schemas: dict[tuple[str, str], dict[str, Any]] = {}

    async def output_schema(self, tool: str, operation: str) -> dict[str, Any]:
        """The outputSchema `tool`'s list_operations gives for `operation` (asked once)."""
        if (tool, operation) not in self.schemas:
            asked = await self.client.call_tool(
                tool, {"operation": "list_operations", "params": {"operation": operation}}
            )
            entry = result_json(asked)
            assert not asked.is_error and entry["name"] == operation, entry
            schema = entry["outputSchema"]
            jsonschema.Draft202012Validator.check_schema(schema)
            self.schemas[(tool, operation)] = schema
        return self.schemas[(tool, operation)]

    async def __call__(self, tool: str, operation: str, params: dict[str, Any] | None = None) -> Any:
        result = await self.client.call_tool(tool, {"operation": operation, "params": params or {}})
        body = result_json(result)
        assert not result.is_error, f"{tool}/{operation} failed: {body}"
        self.called.add((tool, operation))
        schema = await self.output_schema(tool, operation)
        jsonschema.Draft202012Validator(schema).validate(body)  # names the key or type that is off
        self.validated.add((tool, operation))
        return body

    async def error(self, tool: str, operation: str, params: dict[str, Any]) -> dict[str, Any]:
        result = await self.client.call_tool(tool, {"operation": operation, "params": params})
        body = result_json(result)
        assert result.is_error, f"{tool}/{operation} should have failed: {body}"
        self.called.add((tool, operation))
        return dict(body)


async def test_toolhost_profile_serves_the_four_tools(client: Client) -> None:
    assert client.instructions and "websets-sync" in client.instructions
    listed = await client.list_tools()
    by_name = {t.name: t for t in listed.tools}
    assert set(by_name) == {"websets-sync", "websets-async", "exa-sync", "exa-async"}
    for meta in TOOLHOST_TOOLS:
        tool = by_name[meta.name]
        enum = tool.input_schema["properties"]["operation"]["enum"]
        assert enum == ["list_operations", *meta.operations]
        assert "params" in tool.input_schema["properties"]
        result = await client.call_tool(meta.name, {"operation": "list_operations"})
        assert not result.is_error
        ops = result_json(result)["operations"]
        listed_names = {op["name"] for op in ops}
        assert set(meta.operations) <= listed_names, (meta.name, set(meta.operations) - listed_names)
        for op in ops:
            jsonschema.Draft202012Validator.check_schema(op["inputSchema"])
    # A seed operation runs through the registry, with the seed's `params` key.
    result = await client.call_tool("websets-sync", {"operation": "list_websets", "params": {"limit": 5}})
    assert not result.is_error, result_json(result)
    assert "data" in result_json(result) or "websets" in result_json(result)
    # The seed names are per tool: another tool's operation is refused with a hint.
    result = await client.call_tool("exa-sync", {"operation": "create_webset", "params": {}})
    assert result.is_error
    assert result_json(result)["code"] == "INVALID_PARAMS"
    # Seed search: params are mapped onto exa.search.
    result = await client.call_tool(
        "exa-sync", {"operation": "search", "params": {"query": "battery startups"}}
    )
    assert not result.is_error, result_json(result)


async def test_every_toolhost_operation(client: Client, sim_url: str) -> None:
    th = Toolhost(client)
    for tool in TOOLHOST_TOOLS:  # asked first: nothing may come between a start and its cancel
        for operation in tool.operations:
            await th.output_schema(tool.name, operation)
    ws = await th("websets-sync", "create_webset", {"search": {"query": "AI startups in Europe", "count": 3}})
    wid = ws["id"]
    assert (await th("websets-sync", "get_webset", {"id": wid}))["id"] == wid
    assert wid in [w["id"] for w in (await th("websets-sync", "list_websets", {"limit": 10}))["data"]]
    updated = await th("websets-sync", "update_webset", {"id": wid, "metadata": {"k": "v"}})
    assert updated["metadata"] == {"k": "v"}

    search = await th(
        "websets-async", "start_search", {"websetId": wid, "query": "fintech startups", "count": 2}
    )
    checked = await th("websets-async", "check_search", {"websetId": wid, "searchId": search["id"]})
    assert checked["id"] == search["id"]
    assert (await th("websets-sync", "get_search", {"websetId": wid, "searchId": search["id"]}))["id"]
    await th("websets-async", "cancel_search", {"websetId": wid, "searchId": search["id"]})

    items = await th("websets-sync", "list_items", {"websetId": wid, "limit": 5})
    item = items["data"][0]
    assert (await th("websets-sync", "get_item", {"websetId": wid, "itemId": item["id"]}))["id"] == item["id"]
    await th("websets-sync", "delete_item", {"websetId": wid, "itemId": item["id"]})

    enr = await th(
        "websets-async",
        "start_enrichment",
        {"websetId": wid, "description": "founding year", "format": "number"},
    )
    ref = {"websetId": wid, "enrichmentId": enr["id"]}
    assert (await th("websets-async", "check_enrichment", ref))["id"] == enr["id"]
    assert (await th("websets-sync", "get_enrichment", ref))["id"] == enr["id"]
    await th("websets-async", "cancel_enrichment", ref)
    bad = await th.error(
        "websets-async",
        "start_enrichment",
        {"websetId": wid, "description": "stage", "format": "options"},
    )
    assert "options" in bad["message"]

    # The seed's monitor shape: a cron string and searchParams.
    mon = await th(
        "websets-async",
        "start_monitor",
        {"websetId": wid, "cadence": "0 9 * * 1", "searchParams": {"count": 2}},
    )
    assert mon["cadence"]["cron"] == "0 9 * * 1"
    assert (await th("websets-sync", "get_monitor", {"monitorId": mon["id"]}))["id"] == mon["id"]
    assert mon["id"] in [m["id"] for m in (await th("websets-sync", "list_monitors", {}))["data"]]
    assert "data" in await th("websets-async", "check_monitor_runs", {"monitorId": mon["id"]})
    await th("websets-async", "stop_monitor", {"monitorId": mon["id"]})
    mon2 = await th(
        "websets-async",
        "start_monitor",
        {"websetId": wid, "cadence": "0 8 * * *", "searchParams": {"count": 1}},
    )
    await th("websets-sync", "delete_monitor", {"monitorId": mon2["id"]})

    # Webhooks have no create in the seed's toolhost list (one is made at Exa directly); an
    # unknown id is a clear 404.
    async with httpx.AsyncClient(base_url=sim_url, headers={"x-api-key": "test-key"}) as exa:
        made_hook = await exa.post(
            "/websets/v0/webhooks", json={"url": "https://hooks.example/x", "events": ["webset.created"]}
        )
    assert made_hook.status_code < 300, made_hook.text
    hook_id = made_hook.json()["id"]
    assert hook_id in [h["id"] for h in (await th("websets-sync", "list_webhooks", {}))["data"]]
    assert (await th("websets-sync", "get_webhook", {"webhookId": hook_id}))["id"] == hook_id
    await th("websets-sync", "delete_webhook", {"webhookId": hook_id})
    for op in ("get_webhook", "delete_webhook"):
        missing = await th.error("websets-sync", op, {"webhookId": "wh_missing"})
        assert missing["code"] == "RESOURCE_NOT_FOUND" and missing["operation"] == op

    events = await th("websets-sync", "list_events", {"type": "webset.created"})
    assert events["data"] and all(e["type"] == "webset.created" for e in events["data"])
    # A stdio client without sampling gets the section 6.4 fallback: the data and what to do.
    suggested = await th("websets-sync", "suggest_enrichments", {"websetId": wid, "count": 2})
    assert suggested["data"]["websetId"] == wid and "enrichments.create" in suggested["instruction"]
    criteria = await th("websets-sync", "suggest_criteria", {"query": "fintech startups"})
    assert criteria["data"]["query"] == "fintech startups" and "criteria" in criteria["instruction"]
    await th("websets-sync", "delete_webset", {"id": wid})

    found = await th("exa-sync", "search", {"query": "climate tech startup", "numResults": 2})
    url = found["results"][0]["url"]
    assert (await th("exa-sync", "find_similar", {"url": url, "numResults": 2}))["results"]
    assert (await th("exa-sync", "get_contents", {"urls": [url], "text": True}))["results"]
    assert (await th("exa-sync", "answer", {"question": "Which climate tech startups exist?"}))["answer"]

    # The longest-running model, and nothing else between start and cancel: the run (40 simulated
    # seconds, 0.4 s here) must still be going when the cancel arrives, even on a loaded machine.
    research = await th(
        "exa-async",
        "start_research",
        {"instructions": "Summarize European AI startups", "model": "exa-research-pro"},
    )
    rid = research["researchId"]
    assert (await th("exa-async", "check_research", {"researchId": rid}))["researchId"] == rid
    cancelled = await th("exa-async", "cancel_research", {"researchId": rid})
    assert cancelled["researchId"] == rid and cancelled["status"] == "cancelled"
    assert (await th("exa-async", "stream_answer", {"question": "What is Exa?"}))["answer"]

    expected = {(t.name, op) for t in TOOLHOST_TOOLS for op in t.operations}
    assert expected <= th.called, sorted(expected - th.called)
    assert expected <= th.validated, sorted(expected - th.validated)
    # The summary list stays small: no entry carries its outputSchema there.
    listed = result_json(await client.call_tool("exa-sync", {"operation": "list_operations"}))
    assert listed["operations"] and not any("outputSchema" in op for op in listed["operations"])
