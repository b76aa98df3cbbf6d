"""Toolhost async tools (seed 000 sections 6.3, 5.2.2, 8.2, 9.1, 10.1) over build_server in-process:
start/check/cancel shapes, a task-augmented start_search that ends when the search does, the
long-running hints, EXA_ORCH_ENABLED_TOOLS, numeric codes in error bodies."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError

from exa_orch.mcp import toolhost
from exa_orch.mcp.server import LONG_RUNNING_HINTS, build_server
from exa_orch.mcp.toolhost import TOOLHOST_TOOLS
from exa_orch.operations.catalog import default_registry
from exa_orch.sim.testing import SimHandle

from .rawstdio import RawStdio
from .tasks_support import TasksExtension, app_for, inprocess_legacy, structured


async def _webset(client: Any) -> str:
    made = await client.call_tool(
        "websets-sync",
        {"operation": "create_webset", "params": {"search": {"query": "AI startups", "count": 2}}},
    )
    assert not made.is_error, structured(made)
    return str(structured(made)["id"])


async def test_start_check_cancel_have_the_section_6_3_shapes(sim: SimHandle, tmp_path: Path) -> None:
    async with app_for(sim.url, tmp_path / "w.db", tools="toolhost") as app:
        async with Client(build_server(app), mode="legacy") as client:
            wid = await _webset(client)
            # Hold simulated time almost still, so the search is still running when it is cancelled
            # however slowly a loaded machine gets from start to cancel.
            sim.ctx.clock.set_speed(0.01)
            started = structured(
                await client.call_tool(
                    "websets-async",
                    {
                        "operation": "start_search",
                        "params": {"websetId": wid, "query": "fintech", "count": 2},
                    },
                )
            )
            sid = started["operationId"]
            assert sid == started["id"] and started["message"].startswith("Search started")
            ref = {"websetId": wid, "searchId": sid}
            assert started["checkWith"] == {"operation": "check_search", "params": ref}
            assert started["cancelWith"] == {"operation": "cancel_search", "params": ref}
            checked = structured(
                await client.call_tool("websets-async", {"operation": "check_search", "params": ref})
            )
            assert checked["operationId"] == sid
            assert checked["isComplete"] is (checked["status"] in ("completed", "canceled"))
            cancelled = structured(
                await client.call_tool("websets-async", {"operation": "cancel_search", "params": ref})
            )
            assert cancelled["operationId"] == sid and cancelled["message"] == "Search cancelled."
            after = structured(
                await client.call_tool("websets-async", {"operation": "check_search", "params": ref})
            )
            assert after["status"] == "canceled" and after["isComplete"] is True

            bad = await client.call_tool(
                "websets-async", {"operation": "check_search", "params": {"websetId": wid}}
            )
            assert bad.is_error
            body = structured(bad)
            assert body["code"] == "INVALID_PARAMS" and body["rpcCode"] == -32602

            tools = {t.name: t for t in (await client.list_tools()).tools}
            assert tools["websets-async"].meta == LONG_RUNNING_HINTS
            assert tools["exa-async"].meta == LONG_RUNNING_HINTS
            assert not tools["websets-sync"].meta


async def test_task_augmented_start_search_completes_when_the_search_does(
    sim: SimHandle, tmp_path: Path
) -> None:
    async with app_for(sim.url, tmp_path / "w.db", tools="toolhost") as app:
        async with inprocess_legacy(app) as client:
            made = await client.session.call_tool(
                "websets-sync",
                {"operation": "create_webset", "params": {"search": {"query": "AI startups", "count": 2}}},
            )
            wid = structured(made)["id"]
            created = await client.call_task(
                "websets-async",
                {"operation": "start_search", "params": {"websetId": wid, "query": "robotics", "count": 3}},
            )
            task_id = created["task"]["taskId"]
            result = await client.result(task_id)  # blocks until the task (the search) is terminal
            search = structured(result)
            assert not result.is_error, search
            assert search["status"] == "completed", search
            assert search["websetId"] == wid and search["query"] == "robotics"
            record = await app.tasks.get(task_id)  # type: ignore[union-attr]
            assert record.type == "exa.follow" and str(record.status) == "completed"


async def test_enabled_tools_narrow_tools_list_and_calls(sim: SimHandle, tmp_path: Path) -> None:
    async with app_for(sim.url, tmp_path / "w.db", tools="toolhost") as app:
        app.settings = dataclasses.replace(app.settings, enabled_tools=("exa-sync", "exa-async"))
        async with Client(build_server(app), mode="legacy") as client:
            names = sorted(t.name for t in (await client.list_tools()).tools)
            assert names == ["exa-async", "exa-sync"]
            with pytest.raises(MCPError) as refused:
                await client.call_tool("websets-sync", {"operation": "list_websets"})
            assert refused.value.error.code == -32602 and "exa-async, exa-sync" in refused.value.error.message


async def test_stream_answer_streams_chunks_as_progress_and_returns_the_whole_answer(
    sim: SimHandle, tmp_path: Path
) -> None:
    chunks: list[tuple[float, str | None]] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        chunks.append((progress, message))

    question = {"question": "Which AI startups in Europe raised money, and who founded them?"}
    async with app_for(sim.url, tmp_path / "w.db", tools="toolhost") as app:
        async with Client(build_server(app), mode="legacy") as client:
            streamed = await client.call_tool(
                "exa-async", {"operation": "stream_answer", "params": question}, progress_callback=on_progress
            )
            whole = await client.call_tool("exa-sync", {"operation": "answer", "params": question})
            also = await client.call_tool(
                "exa-sync", {"operation": "answer", "params": {**question, "stream": True}}
            )
            first = structured(
                await client.call_tool(
                    "exa-sync", {"operation": "search", "params": {"query": "AI startups"}}
                )
            )
            url = first["results"][0]["url"]
            domain = url.split("/")[2]
            found = await client.call_tool(
                "exa-sync",
                {
                    "operation": "search",
                    "params": {"query": "AI startups", "filters": {"includeDomains": [domain]}},
                },
            )
            contents = await client.call_tool(
                "exa-sync", {"operation": "get_contents", "params": {"urls": [url], "summary": True}}
            )
    body, plain = structured(streamed), structured(whole)
    assert not streamed.is_error and not whole.is_error and not also.is_error, body
    assert body["streamed"] is True and body["chunks"] >= 2 and body["answer"] == plain["answer"]
    assert [c[0] for c in chunks] == list(range(1, body["chunks"] + 1))
    assert "".join(m or "" for _, m in chunks) == plain["answer"]
    assert body["citations"] == plain["citations"] and structured(also)["answer"] == plain["answer"]
    assert not found.is_error, structured(found)
    kept = structured(found)["results"]
    assert kept and all(r["url"].split("/")[2] == domain for r in kept)
    assert not contents.is_error and structured(contents)["results"][0].get("summary"), structured(contents)


async def test_cancelling_a_task_augmented_start_search_cancels_the_search_at_exa(
    sim: SimHandle, tmp_path: Path
) -> None:
    async with app_for(sim.url, tmp_path / "w.db", tools="toolhost") as app:
        async with inprocess_legacy(app) as client:
            made = await client.session.call_tool(
                "websets-sync",
                {"operation": "create_webset", "params": {"search": {"query": "AI startups", "count": 2}}},
            )
            wid = structured(made)["id"]
            created = await client.call_task(
                "websets-async",
                {"operation": "start_search", "params": {"websetId": wid, "query": "biotech", "count": 1000}},
                token="follow",
            )
            task_id = created["task"]["taskId"]
            await client.until(lambda: bool(client.progress))  # the search exists and is being followed
            cancelled = await client.cancel(task_id)
            assert cancelled.status == "cancelled"
            searches = structured(
                await client.session.call_tool(
                    "websets-sync", {"operation": "get_webset", "params": {"id": wid}}
                )
            )
            record = await app.tasks.get(task_id)  # type: ignore[union-attr]
            assert str(record.status) == "cancelled"
    started = [s for s in searches.get("searches", []) if s.get("query") == "biotech"]
    assert started and started[0]["status"] == "canceled", searches


async def test_a_served_subset_bounds_tasks_too(sim: SimHandle, tmp_path: Path) -> None:
    # With only exa-sync and exa-async served, websets-async is refused as a plain call and as a
    # task in both eras (no task row, no request to Exa); a served tool still runs as a task.
    start = {"operation": "start_search", "params": {"websetId": "ws_any", "query": "robotics", "count": 3}}
    async with app_for(sim.url, tmp_path / "w.db", tools="toolhost") as app:
        app.settings = dataclasses.replace(app.settings, enabled_tools=("exa-sync", "exa-async"))
        assert app.tasks is not None
        sim.reset()
        async with inprocess_legacy(app) as client:
            with pytest.raises(MCPError) as plain:
                await client.session.call_tool("websets-async", start)
            with pytest.raises(MCPError) as tasked:
                await client.call_task("websets-async", start)
            for refused in (plain, tasked):
                assert refused.value.error.code == -32602
                assert "exa-async, exa-sync" in refused.value.error.message
            research = {
                "operation": "start_research",
                "params": {"instructions": "Find AI startups in Europe"},
            }
            served = await client.call_task("exa-async", research)
            assert (await app.tasks.get(served["task"]["taskId"])).type == "exa.follow"
        async with Client(build_server(app), extensions=[TasksExtension()]) as modern:
            with pytest.raises(MCPError) as modern_refused:
                await modern.call_tool("websets-async", start)
            assert modern_refused.value.error.code == -32602
        assert [t.type for t in (await app.tasks.list())[0]] == ["exa.follow"]
    assert [e["path"] for e in sim.log() if e["path"].startswith("/websets/")] == []


def test_tools_list_carries_the_8_2_hints_in_annotations(sim_url: str, tmp_path: Path) -> None:
    """On the wire (the SDK's client model would drop them): the long-running tools' annotations
    hold seed 000 section 8.2's three hints beside the MCP ones; the others' hold none. (The
    one-tool profile's manage_websets: tests/mcp/test_serve_stdio.py, on its tools/list line.)"""
    with RawStdio(sim_url, tmp_path, EXA_ORCH_TOOLS="toolhost") as raw:
        raw.initialize()
        answer = raw.ask({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
        listed = {t["name"]: t for t in answer["result"]["tools"]}
        hinted = {"websets-async", "exa-async"}
        for name, tool in listed.items():
            annotations = tool["annotations"]
            assert annotations["openWorldHint"] is True  # the MCP hints stay
            got = {k: v for k, v in annotations.items() if k.startswith("io.modelcontextprotocol/")}
            assert got == (LONG_RUNNING_HINTS if name in hinted else {}), name
            if name in hinted:
                assert tool["_meta"] == LONG_RUNNING_HINTS  # kept for clients that read it there


def test_every_toolhost_operation_declares_an_output_schema() -> None:
    """Each entry's outputSchema is a valid JSON Schema of an object; the start_*/check_*/cancel_*
    ones name the section 6.3 keys too (their real answers are validated in test_toolhost_e2e)."""
    registry = default_registry()
    for tool in TOOLHOST_TOOLS:
        for seed_op, target in tool.operations.items():
            schema = toolhost.output_schema(seed_op, registry.get(target).output_schema())
            assert schema is not None, (tool.name, seed_op)
            jsonschema.Draft202012Validator.check_schema(schema)
            assert schema["type"] == "object"
            if seed_op.startswith("start_"):
                assert {"operationId", "checkWith", "cancelWith"} <= set(schema["properties"]), seed_op
            if seed_op.startswith("check_") and seed_op != "check_monitor_runs":
                assert "isComplete" in schema["properties"], seed_op
