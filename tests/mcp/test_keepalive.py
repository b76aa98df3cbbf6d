"""Keep-alive during long calls: progress heartbeats for a caller with a progress token (one
increasing sequence with the operation's own progress), pings for one without; pings answered."""

from __future__ import annotations

from typing import Any

import pytest
from mcp import Client

from exa_orch.app import App
from exa_orch.config import Settings
from exa_orch.mcp import keepalive
from exa_orch.mcp.server import build_server
from exa_orch.operations import OpContext, Operation, Registry
from exa_orch.operations.models import Args

from .conftest import result_json

# The client's ping is deprecated for 2026-07-28; these are 2025-11-25 (legacy) clients.
pytestmark = pytest.mark.filterwarnings("ignore::mcp.shared.exceptions.MCPDeprecationWarning")


class BlockArgs(Args):
    heartbeats: int = 0
    pings: int = 0


async def _block(args: BlockArgs, ctx: OpContext) -> dict[str, Any]:
    """Report progress 1, stay blocked until the keep-alive has beaten enough, report progress 2."""
    beat = keepalive.current_beat()
    assert beat is not None
    await ctx.progress(1, 2, "half way")
    await beat.wait_for(heartbeats=args.heartbeats, pings=args.pings)
    await ctx.progress(2, 2, "done")
    return {"heartbeats": beat.heartbeats, "pings": beat.pings}


def _server() -> Any:
    registry = Registry([Operation("test.block", BlockArgs, _block, "block until beaten", long_running=True)])
    return build_server(App(settings=Settings(), store=None, gateway=None, registry=registry))


async def test_a_caller_with_a_progress_token_gets_heartbeats_between_real_progress(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(keepalive, "HEARTBEAT_S", 0.05)
    seen: list[tuple[float, str | None]] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        seen.append((progress, message))

    async with Client(_server(), mode="legacy") as client:
        result = await client.call_tool(
            "manage_websets",
            {"operation": "test.block", "args": {"heartbeats": 2}},
            progress_callback=on_progress,
        )
    assert not result.is_error and result_json(result)["heartbeats"] >= 2
    values = [v for v, _ in seen]
    assert values == sorted(values) and len(set(values)) == len(values)  # strictly increasing
    assert seen[0] == (1, "half way") and seen[-1] == (2, "done")
    assert sum(1 for _, m in seen if m and m.startswith("still working")) >= 2


async def test_a_caller_without_a_token_is_pinged_and_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(keepalive, "HEARTBEAT_S", 0.05)
    async with Client(_server(), mode="legacy") as client:
        result = await client.call_tool("manage_websets", {"operation": "test.block", "args": {"pings": 2}})
        assert (await client.send_ping()) is not None  # and the server answers the client's pings
    body = result_json(result)
    assert not result.is_error and body["pings"] >= 2 and body["heartbeats"] == 0
