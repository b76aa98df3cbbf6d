"""Task status input_required (seed 000 section 5.2.1) on a server with no EXA_API_KEY: a
research.deep task whose run needs its owner's key waits input_required; its owner's client is asked
by URL-mode elicitation tied to the task (related-task `_meta`), and tasks/get reads input_required
while the link is open; once the key is given on the page, the task resumes and completes. A client
that can't be asked gets the input_required result with retryWith; a restart keeps the task
waiting, and the owner's next session that polls it is asked."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
from mcp.client._memory import InMemoryTransport
from mcp.client.context import ClientRequestContext

from exa_orch.app import App, open_app
from exa_orch.config import Settings
from exa_orch.mcp.server import ExaOrchServer, build_server
from exa_orch.sim.app import client_tag
from exa_orch.sim.testing import SimHandle
from tests.support import WAIT, until

from .keys_support import KeyBrowser
from .tasks_support import RELATED, LegacyTasksClient, legacy_client, structured

KEY = "exa-task-key-9876"
DEEP = {"type": "research.deep", "instructions": "AI startups in Europe"}


class HeldBrowser(KeyBrowser):
    """A KeyBrowser whose person takes their time: each link stays open (the elicitation
    unanswered) until `release` is set; what each request's `_meta` said is kept."""

    def __init__(self, *keys: str | None) -> None:
        super().__init__(*keys)
        self.opened = anyio.Event()
        self.release = anyio.Event()
        self.metas: list[dict[str, Any] | None] = []

    async def __call__(self, ctx: ClientRequestContext, params: types.ElicitRequestParams) -> Any:
        if isinstance(params, types.ElicitRequestURLParams):
            self.metas.append(dict(params.meta) if params.meta is not None else None)
            self.opened.set()
            await self.release.wait()
        return await super().__call__(ctx, params)


@asynccontextmanager
async def keyless(sim_url: str, db_path: Path) -> AsyncIterator[App]:
    """The whole app (store, runtime) for an Exa that is not said to be a simulator, with no key:
    nothing is made up, every request waits for a key someone gives."""
    settings = Settings(exa_url=sim_url, simulator=False, api_key=None, db_path=db_path, rps=1000.0)
    async with open_app(settings, db_path, key_required=False) as app:
        yield app


@asynccontextmanager
async def connect(
    server: ExaOrchServer, browser: KeyBrowser | None = None
) -> AsyncIterator[LegacyTasksClient]:
    """A 2025-11-25 client in-process; with `browser`, it offers elicitation (form and URL)."""
    async with InMemoryTransport(server) as (read, write), legacy_client(read, write, browser) as client:
        yield client


async def waits_for_input(client: LegacyTasksClient, task_id: str) -> None:
    async def waiting() -> bool:
        return (await client.get(task_id)).status == "input_required"

    await until(waiting, what=f"{task_id} input_required")


async def test_a_keyless_task_waits_input_required_while_its_owner_is_asked(
    sim: SimHandle, tmp_path: Path
) -> None:
    browser = HeldBrowser(KEY)
    async with keyless(sim.url, tmp_path / "w.db") as app:
        server = build_server(app)
        try:
            async with connect(server, browser) as client:
                created = await client.call_task(
                    "manage_websets", {"operation": "tasks.create", "args": DEEP}
                )
                task_id = created["task"]["taskId"]
                with anyio.fail_after(WAIT):
                    await browser.opened.wait()
                # The link is open, unanswered: the task reads input_required, with what it waits for.
                waiting = await client.get(task_id)
                assert waiting.status == "input_required", waiting
                assert "Exa API key" in (waiting.status_message or "")
                view = structured(await client.call("tasks.get", {"taskId": task_id}))
                assert view["status"] == "input_required" and view["inputRequired"]["kind"] == "apiKey"
                listed = structured(await client.call("tasks.list", {"status": "input_required"}))
                assert [t["taskId"] for t in listed["tasks"]] == [task_id]
                assert sim.log() == [] or all(e["client"] is None for e in sim.log())  # nothing was sent
                browser.release.set()
                result = await client.result(task_id)
                await client.until(lambda: any(s.status == "completed" for s in client.statuses))
        finally:
            await server.aclose()
    body = structured(result)
    assert not result.is_error, body
    assert body["status"] == "completed" and body["result"]
    # Asked once, by a link, tied to the task; the status went through input_required.
    assert len(browser.asked) == 1 and browser.forms == []
    assert browser.metas == [{RELATED: {"taskId": task_id}}]
    assert task_id in browser.asked[0].message
    assert [s.status for s in client.statuses if s.task_id == task_id].count("input_required") == 1
    tags = {e["client"] for e in sim.log()}
    assert tags == {client_tag(KEY)}  # every request carried the key given on the page


async def test_without_elicitation_the_result_says_input_required_and_a_restart_keeps_it(
    sim: SimHandle, tmp_path: Path
) -> None:
    db = tmp_path / "w.db"
    async with keyless(sim.url, db) as app:
        server = build_server(app)
        try:
            async with connect(server) as client:  # no elicitation: nobody can be asked
                created = await client.call_task(
                    "manage_websets", {"operation": "tasks.create", "args": DEEP}
                )
                task_id = created["task"]["taskId"]
                await waits_for_input(client, task_id)
                fallback = await client.result(task_id)
                waited = structured(await client.call("tasks.result", {"taskId": task_id, "wait": WAIT}))
        finally:
            await server.aclose()
    body = structured(fallback)
    assert fallback.is_error and body["error"] == "input_required" and body["status"] == "input_required"
    assert body["retryWith"] == {"operation": "tasks.result", "args": {"taskId": task_id, "wait": 30}}
    assert "URL-mode elicitation" in body["instruction"] and "EXA_API_KEY" in body["instruction"]
    assert fallback.meta is not None and fallback.meta[RELATED] == {"taskId": task_id}
    assert waited["status"] == "input_required" and waited["inputRequired"]["error"] == "input_required"

    # A restart while it waits: still input_required; the owner's next session that polls is asked.
    browser = HeldBrowser(KEY)
    async with keyless(sim.url, db) as app:
        server = build_server(app)
        try:
            async with connect(server, browser) as client:
                assert (await client.get(task_id)).status == "input_required"
                with anyio.fail_after(WAIT):
                    await browser.opened.wait()
                assert (await client.get(task_id)).status == "input_required"
                browser.release.set()
                result = await client.result(task_id)
        finally:
            await server.aclose()
    assert not result.is_error and structured(result)["status"] == "completed", structured(result)
    assert browser.metas == [{RELATED: {"taskId": task_id}}]
