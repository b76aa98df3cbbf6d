"""MCP logging: logging/setLevel, then exa_orch's log records as notifications/message at the
client's level, never carrying a registered secret; a client that never asks gets none."""

from __future__ import annotations

import logging
from pathlib import Path

import anyio
import mcp_types as types
import pytest
from mcp import Client

from exa_orch.log import redact as logbridge_redact
from exa_orch.log import register_secret
from exa_orch.mcp import logbridge
from exa_orch.mcp.server import build_server
from exa_orch.sim.context import FaultConfig, SimConfig
from exa_orch.sim.testing import SimHandle, running_sim
from tests.support import WAIT

from .tasks_support import app_for

# The client's logging/setLevel is deprecated for 2026-07-28; 2025-11-25 clients (these) use it.
pytestmark = pytest.mark.filterwarnings("ignore::mcp.shared.exceptions.MCPDeprecationWarning")


class Messages:
    def __init__(self) -> None:
        self.items: list[types.LoggingMessageNotificationParams] = []
        self.changed = anyio.Event()

    async def __call__(self, params: types.LoggingMessageNotificationParams) -> None:
        self.items.append(params)
        self.changed.set()
        self.changed = anyio.Event()

    async def until(self, text: str, deadline_s: float = WAIT) -> types.LoggingMessageNotificationParams:
        with anyio.fail_after(deadline_s):
            while True:
                for m in self.items:
                    if text in str(m.data):
                        return m
                await self.changed.wait()


async def test_set_level_then_task_transitions_arrive_as_messages(sim: SimHandle, tmp_path: Path) -> None:
    messages = Messages()
    async with app_for(sim.url, tmp_path / "w.db") as app:
        server = build_server(app)
        async with Client(server, mode="legacy", logging_callback=messages) as client:
            caps = client.server_capabilities
            assert caps.logging is not None
            assert client.server_info is not None and client.server_info.description
            assert await client.set_logging_level("info") is not None
            made = await client.call_tool(
                "manage_websets",
                {"operation": "tasks.create", "args": {"type": "mcp_test.steps", "steps": 2}},
            )
            task_id = made.structured_content["taskId"] if made.structured_content else None
            assert task_id, made
            done = await messages.until(f"task {task_id} (mcp_test.steps) is completed")
            assert done.level == "info" and done.logger == "exa_orch.tasks"
            # debug stays out at level info; a secret is redacted on the way out
            register_secret("sk-test-secret-1234")
            logging.getLogger("exa_orch.test").debug("debug line that must not arrive")
            logging.getLogger("exa_orch.test").warning("key is sk-test-secret-1234 here")
            warned = await messages.until("key is")
            assert "sk-test-secret-1234" not in str(warned.data) and "[REDACTED]" in str(warned.data)
            assert warned.level == "warning"
            assert not [m for m in messages.items if "must not arrive" in str(m.data)]
            # raising the level to error silences warnings from then on
            await client.set_logging_level("error")
            logging.getLogger("exa_orch.test").warning("quiet warning")
            logging.getLogger("exa_orch.test").error("loud error")
            await messages.until("loud error")
            assert not [m for m in messages.items if "quiet warning" in str(m.data)]


async def test_a_client_that_never_sets_a_level_gets_no_messages(sim: SimHandle, tmp_path: Path) -> None:
    seen: list[types.LoggingMessageNotificationParams] = []

    async def on_log(params: types.LoggingMessageNotificationParams) -> None:
        seen.append(params)

    async with app_for(sim.url, tmp_path / "w.db") as app:
        async with Client(build_server(app), mode="legacy", logging_callback=on_log) as client:
            logging.getLogger("exa_orch.test").error("nobody asked")
            await client.send_ping()  # a round trip: anything queued would have arrived by now
            result = await client.call_tool("manage_websets", {"operation": "list_operations"})
            assert not result.is_error
    assert seen == []


async def test_retries_and_retry_after_holds_reach_a_client_at_info(tmp_path: Path) -> None:
    messages = Messages()
    faults = FaultConfig(rate=0.5, kinds=("429",), retry_after=0.05, seed=3)
    async with running_sim(SimConfig(speed=100.0, faults=faults)) as flaky:
        async with app_for(flaky.url, tmp_path / "w.db") as app:
            async with Client(build_server(app), mode="legacy", logging_callback=messages) as client:
                await client.set_logging_level("info")
                for _ in range(6):
                    result = await client.call_tool(
                        "manage_websets", {"operation": "websets.list", "args": {}}
                    )
                    assert not result.is_error
                retried = await messages.until("retrying GET")
                held = await messages.until("Retry-After")
    assert retried.level == "info" and retried.logger.startswith("exa_orch.gateway")
    assert held.level == "info"


async def test_a_record_below_every_clients_level_is_never_formatted_or_redacted(
    sim: SimHandle, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A spy on the bridge's redaction: every record the bridge formats passes through it once.
    redacted: list[str] = []

    def counting_redact(text: str) -> str:
        redacted.append(text)
        return logbridge_redact(text)

    monkeypatch.setattr(logbridge, "redact", counting_redact)
    messages = Messages()
    async with app_for(sim.url, tmp_path / "w.db") as app:
        async with Client(build_server(app), mode="legacy", logging_callback=messages) as client:
            await client.set_logging_level("critical")
            # error passes the exa_orch logger whatever its level, so it reaches the bridge
            for n in range(5):
                logging.getLogger("exa_orch.test").error("below the client's level %d", n)
            logging.getLogger("exa_orch.test").critical("at the client's level")
            arrived = await messages.until("at the client's level")
    assert arrived.level == "critical"
    assert not [m for m in messages.items if "below the client" in str(m.data)]
    assert not [t for t in redacted if "below the client" in t], "a record below every level was formatted"
    assert [t for t in redacted if "at the client's level" in t]
