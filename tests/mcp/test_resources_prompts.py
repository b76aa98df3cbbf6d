"""MCP resources, tasks.export's resource_link and the recipe prompts, with the official client:
over stdio (export, listing, templates, a subscription, every prompt fed back to tasks.create) and
over HTTP with two named tokens (another principal's resources are neither listed nor read)."""

from __future__ import annotations

import asyncio
import json
import re
import warnings
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import httpx2
import mcp_types as types
import pytest
from mcp import Client
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPDeprecationWarning, MCPError

from tests.support import WAIT, run_cli

from .conftest import call, result_json, serve_params
from .tasks_support import WORKFLOWS_ENV
from .test_serve_http import http_server

pytestmark = pytest.mark.slow

HARVEST = {
    "type": "lifecycle.harvest",
    "query": "AI startups in Europe",
    "entity": {"type": "company"},
    "count": 5,
    "criteria": [{"description": "based in Europe"}],
    "timeout": 20_000,
}
SLOW = {"type": "mcp_test.steps", "steps": 200, "delay": 0.2}  # runs far longer than the test


class Updates:
    """notifications/resources/updated the client received, by URI."""

    def __init__(self) -> None:
        self.uris: list[str] = []
        self.arrived = anyio.Event()

    async def on_message(self, message: Any) -> None:
        if isinstance(message, types.ResourceUpdatedNotification):
            self.uris.append(message.params.uri)
            self.arrived.set()

    async def at_least(self, uri: str, n: int) -> None:
        with anyio.fail_after(WAIT):
            while self.uris.count(uri) < n:
                self.arrived = anyio.Event()
                await self.arrived.wait()


@asynccontextmanager
async def stdio(sim_url: str, tmp_path: Path, updates: Updates) -> AsyncIterator[Client]:
    params = serve_params(sim_url, tmp_path / "workflows.db", EXA_ORCH_EXTRA_WORKFLOWS=WORKFLOWS_ENV)
    with (tmp_path / "server-stderr.log").open("a") as errlog:
        transport = stdio_client(params, errlog=errlog)
        async with Client(
            transport,  # type: ignore[arg-type]
            mode="legacy",
            read_timeout_seconds=WAIT,
            message_handler=updates.on_message,
        ) as client:
            yield client


async def finished(client: Client, task_id: str) -> dict[str, Any]:
    with anyio.fail_after(WAIT):
        while True:
            done = await call(client, "tasks.result", {"taskId": task_id, "wait": 5})
            if done["status"] != "working" and done["status"] != "pending":
                return dict(done)


async def legacy_subscribe(client: Client, uri: str) -> None:
    """resources/subscribe, a 2025-11-25 method (the SDK warns that 2026-07-28 replaces it by
    subscriptions/listen, which exa-orch does not serve yet)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MCPDeprecationWarning)
        await client.subscribe_resource(uri)


def the_call(result: types.GetPromptResult) -> dict[str, Any]:
    """The manage_websets arguments a prompt's message carries (its ```json block)."""
    block = result.messages[0].content
    assert isinstance(block, types.TextContent)
    found = re.search(r"```json\n(.*?)\n```", block.text, re.DOTALL)
    assert found, block.text
    return dict(json.loads(found.group(1)))


async def test_export_link_resources_subscription_and_prompts_over_stdio(
    sim_url: str, tmp_path: Path
) -> None:
    updates = Updates()
    async with stdio(sim_url, tmp_path, updates) as client:
        harvest = await call(client, "tasks.create", HARVEST)
        assert (await finished(client, harvest["taskId"]))["status"] == "completed"
        exported = await client.call_tool(
            "manage_websets", {"operation": "tasks.export", "args": {"taskId": harvest["taskId"]}}
        )
        assert not exported.is_error, result_json(exported)
        link = exported.content[1]
        assert isinstance(link, types.ResourceLink)
        assert link.uri == f"exa-orch://tasks/{harvest['taskId']}/export.csv" and link.mime_type == "text/csv"
        read = await client.read_resource(link.uri)
        text = read.contents[0]
        assert isinstance(text, types.TextResourceContents) and len(text.text.encode()) == link.size
        # The same bytes as `exa-orch export` reads from the database, on its own connection.
        cli = await asyncio.to_thread(
            run_cli, "export", harvest["taskId"], "--db", str(tmp_path / "workflows.db")
        )
        assert cli.returncode == 0 and cli.stdout == text.text, cli.stderr

        listed = await client.list_resources()
        uris = {r.uri for r in listed.resources}
        base = f"exa-orch://tasks/{harvest['taskId']}"
        assert {
            base,
            f"{base}/result",
            f"{base}/export.csv",
            f"{base}/export.jsonl",
            f"{base}/export.md",
        } <= uris
        templates = await client.list_resource_templates()
        assert len(templates.resource_templates) == 3
        result = await client.read_resource(f"{base}/result")
        assert json.loads(result.contents[0].text)["itemCount"] == 5  # type: ignore[union-attr]

        # A subscription to a running task hears it progress.
        slow = await call(client, "tasks.create", SLOW)
        uri = f"exa-orch://tasks/{slow['taskId']}"
        await legacy_subscribe(client, uri)
        await updates.at_least(uri, 2)
        status = json.loads((await client.read_resource(uri)).contents[0].text)  # type: ignore[union-attr]
        assert status["status"] == "working" and status["progress"]["completed"] >= 1
        with pytest.raises(MCPError) as early:  # a running task has no export yet
            await client.read_resource(f"{uri}/export.csv")
        assert (
            early.value.error.code == types.INVALID_PARAMS
            and "only a completed task" in early.value.error.message
        )
        await call(client, "tasks.cancel", {"taskId": slow["taskId"]})

        # Each prompt yields a call tasks.create accepts as it stands.
        prompts = await client.list_prompts()
        assert {p.name for p in prompts.prompts} == {
            "market-map",
            "people-finder",
            "due-diligence",
            "claim-check",
        }
        fill = {
            "market": "carbon accounting",
            "role": "head of data",
            "company": "Klarna",
            "claim": "remote work works",
        }
        for prompt in prompts.prompts:
            wanted = {a.name: fill[a.name] for a in prompt.arguments or [] if a.required}
            got = await client.get_prompt(prompt.name, wanted)
            made = the_call(got)
            assert made["operation"] == "tasks.create"
            created = await call(client, "tasks.create", made["args"])
            assert created["type"] == made["args"]["type"]
            await call(client, "tasks.cancel", {"taskId": created["taskId"]})
        with pytest.raises(MCPError) as missing:
            await client.get_prompt("market-map", {})
        assert missing.value.error.code == types.INVALID_PARAMS


def _http(token: str) -> httpx2.AsyncClient:
    return httpx2.AsyncClient(
        headers={"Authorization": f"Bearer {token}"}, timeout=httpx2.Timeout(30, read=300)
    )


@asynccontextmanager
async def over_http(url: str, token: str) -> AsyncIterator[Client]:
    async with _http(token) as http:
        async with Client(streamable_http_client(url, http_client=http), mode="legacy") as client:
            yield client


async def test_another_principals_resources_are_neither_listed_nor_read_over_http(
    sim_url: str, tmp_path: Path
) -> None:
    alice, bob = "alice-secret-0a1b2c3d", "bob-secret-4e5f6a7b"
    env = {"EXA_ORCH_HTTP_TOKENS": f"alice={alice},bob={bob}", "EXA_ORCH_EXTRA_WORKFLOWS": WORKFLOWS_ENV}
    with http_server(sim_url, tmp_path, **env) as (_proc, url):
        async with over_http(url, alice) as a:
            task = await call(a, "tasks.create", {"type": "mcp_test.steps", "steps": 1})
            assert (await finished(a, task["taskId"]))["status"] == "completed"
            base = f"exa-orch://tasks/{task['taskId']}"
            mine = {r.uri for r in (await a.list_resources()).resources}
            assert {base, f"{base}/export.csv"} <= mine
            # The list comes in pages of 10 tasks (a task and, once completed, its 4 resources).
            more = [await call(a, "tasks.create", {"type": "mcp_test.steps", "steps": 0}) for _ in range(11)]
            pages, cursor = [], None
            while True:
                page = await a.list_resources(cursor=cursor, cache_mode="bypass")
                pages.append(page.resources)
                cursor = page.next_cursor
                if not cursor:
                    break
            assert len(pages) == 2 and all(len(p) <= 50 for p in pages)
            listed = {r.uri for p in pages for r in p}
            assert {f"exa-orch://tasks/{t['taskId']}" for t in [task, *more]} <= listed
            own = await a.read_resource(f"{base}/export.jsonl")
            assert json.loads(own.contents[0].text.splitlines()[0])["citationStatus"] is None  # type: ignore[union-attr]
        async with over_http(url, bob) as b:
            assert not any(r.uri.startswith(base) for r in (await b.list_resources()).resources)
            for uri in (base, f"{base}/result", f"{base}/export.csv"):
                with pytest.raises(MCPError) as refused:
                    await b.read_resource(uri)
                assert refused.value.error.code == -32002
            with pytest.raises(MCPError):
                await legacy_subscribe(b, base)
            denied = await b.call_tool(
                "manage_websets", {"operation": "tasks.export", "args": {"taskId": task["taskId"]}}
            )
            assert denied.is_error and result_json(denied)["code"] == "TASK_NOT_FOUND"
