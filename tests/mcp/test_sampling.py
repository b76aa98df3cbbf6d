"""Sampling (seed 000 sections 5.4, 6.4): enrichments.suggest and criteria.suggest ask the client's
model (with a required tool when the client declares sampling.tools, else for JSON text), and answer
{data, instruction} when the client has no sampling or its model fails."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
from mcp import Client
from mcp.client.context import ClientRequestContext

from exa_orch.mcp.server import build_server
from exa_orch.sim.testing import SimHandle
from tests.support import WAIT

from .tasks_support import app_for, structured

TOOLS_CAP = types.SamplingCapability(tools=types.SamplingToolsCapability())


async def _call(client: Client, operation: str, args: dict[str, Any]) -> dict[str, Any]:
    result = await client.call_tool("manage_websets", {"operation": operation, "args": args})
    body = structured(result)
    assert not result.is_error, body
    return body


async def test_sampling_with_tools_suggests_enrichments_through_a_required_tool_call(
    sim: SimHandle, tmp_path: Path
) -> None:
    asked: list[types.CreateMessageRequestParams] = []

    async def model(ctx: ClientRequestContext, params: types.CreateMessageRequestParams) -> Any:
        asked.append(params)
        tool = params.tools[0] if params.tools else None
        assert tool is not None and params.tool_choice is not None and params.tool_choice.mode == "required"
        return types.CreateMessageResultWithTools(
            role="assistant",
            model="test-model",
            stop_reason="toolUse",
            content=[
                types.ToolUseContent(
                    id="call_1",
                    name=tool.name,
                    input={
                        "enrichments": [
                            {"description": "Founding year", "format": "number"},
                            # a model may answer labels as strings or as Exa's {"label": ...} objects
                            {
                                "description": "Stage",
                                "format": "options",
                                "options": ["seed", {"label": "series A"}],
                            },
                            {"description": "CEO name", "format": "not-a-format"},
                            {"description": "Extra one beyond count", "format": "text"},
                        ]
                    },
                )
            ],
        )

    async with app_for(sim.url, tmp_path / "w.db") as app:
        server = build_server(app)
        async with Client(
            server, mode="legacy", sampling_callback=model, sampling_capabilities=TOOLS_CAP
        ) as client:
            made = await _call(
                client, "websets.create", {"search": {"query": "AI startups in Berlin", "count": 2}}
            )
            body = await _call(client, "enrichments.suggest", {"websetId": made["id"], "count": 3})
    assert body["source"] == "sampling-tools"
    assert body["suggestions"] == [
        {"description": "Founding year", "format": "number"},
        {"description": "Stage", "format": "options", "options": [{"label": "seed"}, {"label": "series A"}]},
        {"description": "CEO name", "format": "text"},  # an unknown format falls back to text
    ]
    assert body["applyWith"][0] == {
        "operation": "enrichments.create",
        "args": {"websetId": made["id"], "description": "Founding year", "format": "number"},
    }
    prompt = asked[0].messages[0].content
    assert isinstance(prompt, types.TextContent) and "AI startups in Berlin" in prompt.text


async def test_sampling_without_tools_asks_for_json_text(sim: SimHandle, tmp_path: Path) -> None:
    async def model(ctx: ClientRequestContext, params: types.CreateMessageRequestParams) -> Any:
        assert params.tools is None and params.tool_choice is None
        text = 'Sure:\n```json\n{"criteria": [{"description": "is a fintech company"}, {"description": "in EU"}]}\n```'
        return types.CreateMessageResult(role="assistant", model="m", content=types.TextContent(text=text))

    async with app_for(sim.url, tmp_path / "w.db") as app:
        async with Client(build_server(app), mode="legacy", sampling_callback=model) as client:
            body = await _call(client, "criteria.suggest", {"query": "fintech startups", "count": 2})
    assert body["source"] == "sampling"
    assert body["suggestions"] == [{"description": "is a fintech company"}, {"description": "in EU"}]
    assert body["applyWith"]["operation"] == "searches.create"


async def test_no_sampling_or_a_failing_model_answers_data_and_instruction(
    sim: SimHandle, tmp_path: Path
) -> None:
    async def broken(ctx: ClientRequestContext, params: types.CreateMessageRequestParams) -> Any:
        return types.ErrorData(code=-1, message="user rejected sampling")

    async with app_for(sim.url, tmp_path / "w.db") as app:
        server = build_server(app)
        async with Client(server, mode="legacy") as client:
            plain = await _call(client, "enrichments.suggest", {"description": "climate tech startups"})
        async with Client(server, mode="legacy", sampling_callback=broken) as client:
            failed = await _call(client, "criteria.suggest", {"query": "climate tech"})
    assert set(plain) == {"data", "instruction"}
    assert plain["data"]["description"] == "climate tech startups"
    assert "does not offer sampling" in plain["instruction"]
    assert set(failed) == {"data", "instruction"}
    assert "sampling failed" in failed["instruction"] and "user rejected sampling" in failed["instruction"]


async def test_a_2026_client_without_a_back_channel_gets_the_fallback_at_once(
    sim: SimHandle, tmp_path: Path
) -> None:
    async def model(ctx: ClientRequestContext, params: types.CreateMessageRequestParams) -> Any:
        raise AssertionError("a 2026-07-28 exchange has no back-channel for sampling")

    async with app_for(sim.url, tmp_path / "w.db") as app:
        async with Client(build_server(app), mode="2026-07-28", sampling_callback=model) as client:
            with anyio.fail_after(WAIT):
                body = await _call(client, "criteria.suggest", {"query": "quantum computing"})
    assert set(body) == {"data", "instruction"}
