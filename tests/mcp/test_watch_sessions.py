"""A watch run that found a change reaches its owner's MCP session as a `notice` log message; a run
that found none sends nothing (issue 39)."""

from __future__ import annotations

from pathlib import Path

import pytest
from mcp import Client

from exa_orch.app import App
from exa_orch.mcp.server import build_server
from tests.operations.test_watches import SEARCH, finished_runs, watching
from tests.support import until

from .test_logging import Messages

pytestmark = pytest.mark.filterwarnings("ignore::mcp.shared.exceptions.MCPDeprecationWarning")


async def test_a_changed_run_is_told_to_the_owners_session_and_an_unchanged_one_is_not(
    tmp_path: Path,
) -> None:
    messages = Messages()
    async with watching(tmp_path) as (app, sim):
        assert app.watches is not None
        async with Client(build_server(app), mode="legacy", logging_callback=messages) as client:
            await client.set_logging_level("notice")
            made = await client.call_tool(
                "manage_websets", {"operation": "watches.create", "args": {**SEARCH, "every": "15s"}}
            )
            assert made.structured_content is not None
            wid = made.structured_content["watchId"]
            await finished_runs(app, wid, 1)
            sim.ctx.clock.advance(15)  # Nova Drones appeared at 10
            app.watches.wake()
            told = await messages.until(f"watch {wid} run 2 changed: 1 added, 0 gone, 0 changed")
            assert told.level == "notice" and told.logger == "exa_orch.watches"
            # The run is recorded before it is told, and who was told after the telling returns.
            assert await _notified(app, wid, 2) == ["mcp"]
            sim.ctx.clock.advance(15)  # Acme's new text at 20, Zeta gone at 25
            app.watches.wake()
            await messages.until(f"watch {wid} run 3 changed: 0 added, 1 gone, 1 changed")
            sim.ctx.clock.advance(15)  # nothing changes after 25
            app.watches.wake()
            runs = await finished_runs(app, wid, 4)
            assert runs[3]["changed"] is False and runs[3]["notified"] is None
            assert not [m for m in messages.items if f"{wid} run 4" in str(m.data)]
            assert not [m for m in messages.items if f"{wid} run 1" in str(m.data)]  # the baseline


async def _notified(app: App, watch_id: str, n: int) -> list[str]:
    """Whom run `n` of the watch told, once that is recorded."""

    async def told() -> list[str] | None:
        got = await app.run_operation("watches.get", {"watchId": watch_id})
        return next((r["notified"] for r in got["runs"] if r["run"] == n and r["notified"]), None)

    found: list[str] = await until(told, what=f"whom run {n} of {watch_id} told")
    return found
