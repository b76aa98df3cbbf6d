"""A watch run that found a change reaches its owner's MCP sessions as a `notice` log message, on
every server on the database; a run that found none sends nothing (issue 39)."""

from __future__ import annotations

import asyncio
import json
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from pydantic import BaseModel

from exa_orch.app import App, open_app
from exa_orch.config import Settings
from exa_orch.mcp.server import build_server
from exa_orch.runtime import TaskContext, WorkflowSpec
from exa_orch.sim.context import SimConfig
from exa_orch.sim.testing import running_sim
from exa_orch.store.pgcluster import Cluster
from tests.operations.test_watches import SEARCH, finished_runs, receiving, watching, webhook_settled
from tests.pg import fresh_database
from tests.runtime.test_watch_restarts import HeldClock
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


async def _notified(app: App, watch_id: str, n: int, every: set[str] | None = None) -> list[str]:
    """Whom run `n` of the watch told, once that is recorded (with `every`: once all of those are)."""

    async def told() -> list[str] | None:
        got = await app.run_operation("watches.get", {"watchId": watch_id})
        found = next((r["notified"] for r in got["runs"] if r["run"] == n and r["notified"]), None)
        return found if found and (every is None or every <= set(found)) else None

    found: list[str] = await until(told, what=f"whom run {n} of {watch_id} told")
    return found


ITEMS: list[str] = []  # what `wt.list` answers: the test changes it between runs


class ListArgs(BaseModel):
    pass


async def _list_items(ctx: TaskContext, args: ListArgs) -> dict[str, Any]:
    return {"results": [{"url": url} for url in ITEMS]}


LIST = WorkflowSpec("wt.list", ListArgs, _list_items, "the test's list of URLs")


async def test_a_session_on_another_server_hears_each_run_once(pg_cluster: Cluster) -> None:
    """Two servers on one PostgreSQL database; only the first can run the watch's task type, so the
    first records every run; the session is on the second, which never records one."""
    url, clock = fresh_database(pg_cluster), HeldClock()
    ITEMS[:] = ["https://a.example"]
    messages = Messages()
    async with running_sim(SimConfig(speed=1e-9)) as sim, receiving() as hook, AsyncExitStack() as stack:
        settings = Settings(exa_url=sim.url, simulator=True, rps=1000.0, concurrency=8)
        one = await stack.enter_async_context(
            open_app(settings, url, extra_workflows=[LIST], watch_clock=clock)
        )
        two = await stack.enter_async_context(open_app(settings, url, watch_clock=clock))
        assert one.watches is not None and two.watches is not None
        client = await stack.enter_async_context(
            Client(build_server(two), mode="legacy", logging_callback=messages)
        )
        await client.set_logging_level("notice")
        made = {"type": "wt.list", "every": "15s", "notify": {"webhook": hook.url}}
        wid = (await one.run_operation("watches.create", made))["watchId"]
        await finished_runs(one, wid, 1)
        for n, url_added in ((2, "https://b.example"), (3, "https://c.example")):
            ITEMS.append(url_added)
            clock.now += 15
            one.watches.wake()
            await finished_runs(one, wid, n)
            if n == 3:
                two.watches.wake()  # run 2 waited for the second server's poll; run 3 need not
            # The second server reads the run's notice from the outbox at its next round.
            await messages.until(f"watch {wid} run {n} changed: 1 added, 0 gone, 0 changed")
        for n in (2, 3):  # both servers' senders saw each webhook row due; one claimed and sent it
            assert (await webhook_settled(two, wid, n, "delivered"))["webhook"]["attempts"] == 1
            await _notified(two, wid, n, {"mcp", "webhook"})
        recorded = await one.store._read(
            "SELECT DISTINCT recorded_by FROM watch_outbox WHERE watch_id = ?", (wid,)
        )
        assert recorded == [(one.store.owner_id,)]  # the session's server recorded none of them
        # One more round on each server: nothing is told or sent twice.
        await asyncio.gather(one.watches.tick(), two.watches.tick())
    assert sorted(json.loads(body)["eventId"] for _, body in hook.got) == [f"{wid}/2", f"{wid}/3"]
    for n in (2, 3):
        assert sum(f"watch {wid} run {n} changed" in str(m.data) for m in messages.items) == 1
