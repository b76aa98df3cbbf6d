"""Over stdio (`exa-orch serve` as a subprocess), the official mcp client declaring logging, sampling
with tools, form elicitation and roots sees each used; the same calls from a client declaring none
answer the fallback shapes. A 2026-07-28 client (no back-channel) gets the fallbacks too."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
import pytest
from mcp import Client
from mcp.client.context import ClientRequestContext
from mcp.client.stdio import stdio_client

from tests.support import WAIT

from .conftest import serve_params
from .tasks_support import structured

pytestmark = [
    pytest.mark.slow,
    # logging/setLevel and roots are deprecated for 2026-07-28; 2025-11-25 clients use them.
    pytest.mark.filterwarnings("ignore::mcp.shared.exceptions.MCPDeprecationWarning"),
]


class Features:
    """Client callbacks that record what the server asked for."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.logs: list[types.LoggingMessageNotificationParams] = []
        self.sampled = 0
        self.elicited = 0
        self.roots_listed = 0
        self.logged = anyio.Event()

    async def log(self, params: types.LoggingMessageNotificationParams) -> None:
        self.logs.append(params)
        if "is completed" in str(params.data):
            self.logged.set()

    async def sample(self, ctx: ClientRequestContext, params: types.CreateMessageRequestParams) -> Any:
        self.sampled += 1
        assert params.tools
        return types.CreateMessageResultWithTools(
            role="assistant",
            model="m",
            stop_reason="toolUse",
            content=[
                types.ToolUseContent(
                    id="u1",
                    name=params.tools[0].name,
                    input={"criteria": [{"description": "is a robotics firm"}]},
                )
            ],
        )

    async def elicit(self, ctx: ClientRequestContext, params: types.ElicitRequestParams) -> Any:
        self.elicited += 1
        return types.ElicitResult(action="accept", content={"query": "robotics startups"})

    async def roots(self, ctx: ClientRequestContext) -> types.ListRootsResult:
        self.roots_listed += 1
        return types.ListRootsResult(roots=[types.Root(uri=self.root.as_uri())])


async def _calls(client: Client, csv: Path) -> dict[str, types.CallToolResult]:
    async def call(operation: str, args: dict[str, Any]) -> types.CallToolResult:
        return await client.call_tool("manage_websets", {"operation": operation, "args": args})

    return {
        "criteria": await call("criteria.suggest", {"query": "robotics"}),
        "missing": await call("criteria.suggest", {}),
        "import": await call("imports.create", {"entity": {"type": "company"}, "path": str(csv)}),
    }


async def test_features_are_used_when_declared_and_fall_back_when_not(sim_url: str, tmp_path: Path) -> None:
    root = tmp_path / "data"
    root.mkdir()
    csv = root / "rows.csv"
    csv.write_text("url,name\nhttps://a.example,A\n")
    features = Features(root)
    params = serve_params(sim_url, tmp_path / "w.db")
    with (tmp_path / "stderr.log").open("w") as errlog:
        async with Client(
            stdio_client(params, errlog=errlog),  # type: ignore[arg-type]
            mode="legacy",
            logging_callback=features.log,
            sampling_callback=features.sample,
            sampling_capabilities=types.SamplingCapability(tools=types.SamplingToolsCapability()),
            elicitation_callback=features.elicit,
            list_roots_callback=features.roots,
        ) as client:
            await client.set_logging_level("info")
            used = await _calls(client, csv)
            made = await client.call_tool(
                "manage_websets",
                {
                    "operation": "tasks.create",
                    "args": {"type": "operation", "operation": "websets.list", "args": {}},
                },
            )
            assert not made.is_error, structured(made)
            with anyio.fail_after(WAIT):
                await features.logged.wait()
        async with Client(stdio_client(params, errlog=errlog), mode="legacy") as bare:  # type: ignore[arg-type]
            fallback = await _calls(bare, csv)

    assert structured(used["criteria"])["suggestions"] == [{"description": "is a robotics firm"}]
    assert structured(used["missing"])["source"] == "sampling-tools"  # the form supplied the query
    assert not used["import"].is_error and structured(used["import"])["uploaded"]["rows"] == 1
    assert features.sampled == 2 and features.elicited == 1 and features.roots_listed == 1
    assert any(m.logger == "exa_orch.tasks" for m in features.logs)

    assert set(structured(fallback["criteria"])) == {"data", "instruction"}
    missing = structured(fallback["missing"])
    assert fallback["missing"].is_error and missing["error"] == "input_required"
    assert missing["retryWith"] == {"operation": "criteria.suggest", "args": {"query": "<your_value_here>"}}
    refused = structured(fallback["import"])
    assert fallback["import"].is_error and "roots" in refused["message"]
