"""Elicitation (seed 000 sections 5.5, 6.5, 11.1): a call missing a required arg asks for it by a
form, else answers input_required with retryWith; a server without EXA_API_KEY asks the caller for
their key by URL-mode elicitation (a one-time link to its key page; never a form) at their first Exa
call (memory only, never logged), asks again after Exa refuses it, else answers CONFIG_ERROR."""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
import pytest
from mcp import Client
from mcp.client.context import ClientRequestContext
from mcp.client.stdio import stdio_client

from exa_orch.app import App
from exa_orch.config import Settings
from exa_orch.gateway import Gateway
from exa_orch.mcp.server import build_server
from exa_orch.operations import default_registry
from exa_orch.sim.app import client_tag
from exa_orch.sim.context import SimConfig
from exa_orch.sim.testing import SimHandle, SimThread
from tests.gateway._util import ToSim

from .conftest import serve_params
from .keys_support import KeyBrowser
from .tasks_support import app_for, structured


class Form:
    """An elicitation callback answering with `content` (or declining), recording each request."""

    def __init__(self, content: dict[str, Any] | None) -> None:
        self.content = content
        self.asked: list[types.ElicitRequestFormParams] = []

    async def __call__(self, ctx: ClientRequestContext, params: types.ElicitRequestParams) -> Any:
        assert isinstance(params, types.ElicitRequestFormParams)
        self.asked.append(params)
        if self.content is None:
            return types.ElicitResult(action="decline")
        return types.ElicitResult(action="accept", content=self.content)


async def test_a_missing_arg_is_asked_for_by_a_form_and_the_call_runs(sim: SimHandle, tmp_path: Path) -> None:
    async with app_for(sim.url, tmp_path / "w.db") as app:
        server = build_server(app)
        async with Client(server, mode="legacy") as plain:
            made = structured(
                await plain.call_tool(
                    "manage_websets",
                    {"operation": "websets.create", "args": {"search": {"query": "AI labs", "count": 1}}},
                )
            )
        form = Form({"id": made["id"]})
        async with Client(server, mode="legacy", elicitation_callback=form) as client:
            got = await client.call_tool("manage_websets", {"operation": "websets.get", "args": {}})
    assert not got.is_error, structured(got)
    assert structured(got)["id"] == made["id"]
    asked = form.asked[0]
    assert asked.requested_schema["required"] == ["id"]
    assert asked.requested_schema["properties"]["id"]["type"] == "string"


async def test_without_elicitation_or_when_declined_the_answer_is_input_required(
    sim: SimHandle, tmp_path: Path
) -> None:
    async with app_for(sim.url, tmp_path / "w.db", tools="toolhost") as app:
        server = build_server(app)
        async with Client(server, mode="legacy") as client:
            plain = await client.call_tool(
                "websets-async", {"operation": "check_search", "params": {"websetId": "ws_1"}}
            )
        declined_form = Form(None)
        async with Client(server, mode="legacy", elicitation_callback=declined_form) as client:
            declined = await client.call_tool(
                "websets-async", {"operation": "check_search", "params": {"websetId": "ws_1"}}
            )
    for result in (plain, declined):
        body = structured(result)
        assert result.is_error and body["error"] == "input_required" and body["code"] == "INVALID_PARAMS"
        assert "searchId" in body["instruction"]
        assert body["retryWith"] == {
            "operation": "check_search",
            "params": {"websetId": "ws_1", "searchId": "<your_value_here>"},
        }
    assert len(declined_form.asked) == 1


@asynccontextmanager
async def keyless_app(sim_url: str) -> AsyncIterator[tuple[App, ToSim]]:
    """An App for real Exa (api.exa.ai) with no key, whose requests reach the simulator."""
    settings = Settings(api_key=None, rps=1000.0)
    assert settings.uses_real_exa
    inner = ToSim(sim_url)
    async with Gateway(settings, key_required=False, inner=inner) as gateway:
        yield App(settings=settings, store=None, gateway=gateway, registry=default_registry()), inner


async def test_a_keyless_server_asks_for_the_key_by_a_link_once_and_never_logs_it(
    sim: SimHandle, caplog: pytest.LogCaptureFixture
) -> None:
    key = "exa-elicited-key-5678"
    browser = KeyBrowser(key)
    call = {"operation": "websets.list", "args": {"limit": 1}}
    with caplog.at_level(logging.DEBUG):
        async with keyless_app(sim.url) as (app, inner):
            server = build_server(app)
            try:
                async with Client(server, mode="legacy") as client:
                    refused = await client.call_tool("manage_websets", call)
                assert inner.keys == []  # nothing went to Exa unsigned
                async with Client(
                    server, mode="legacy", elicitation_callback=browser, message_handler=browser.on_message
                ) as client:
                    first = await client.call_tool("manage_websets", call)
                    second = await client.call_tool("manage_websets", call)
            finally:
                await server.aclose()
    body = structured(refused)
    assert refused.is_error and body["code"] == "CONFIG_ERROR" and "EXA_API_KEY" in body["message"]
    assert not first.is_error and not second.is_error, structured(first)
    # Asked once, by URL mode (never a form: a key is a secret), for this caller, on loopback.
    assert browser.forms == [] and len(browser.asked) == 1
    asked = browser.asked[0]
    assert asked.url.startswith("http://127.0.0.1:") and key not in asked.url
    assert asked.elicitation_id and browser.completed == [asked.elicitation_id]
    assert "user:" in browser.pages[0]  # the page names whose key it takes
    assert inner.keys and all(k == key for k in inner.keys)
    assert "EXA_API_KEY is not set" in caplog.text and key not in caplog.text


async def _keyless_calls(sim_url: str, browser: KeyBrowser, calls: int = 1) -> tuple[list[Any], ToSim, App]:
    """`calls` websets.list calls on a keyless in-process server by a client whose person is `browser`."""
    call = {"operation": "websets.list", "args": {"limit": 1}}
    async with keyless_app(sim_url) as (app, inner):
        server = build_server(app)
        try:
            async with Client(server, mode="legacy", elicitation_callback=browser) as client:
                results = [await client.call_tool("manage_websets", call) for _ in range(calls)]
        finally:
            await server.aclose()
    return results, inner, app


async def test_concurrent_calls_of_one_caller_share_one_link(sim: SimHandle) -> None:
    browser = KeyBrowser("exa-shared-key-4321", "never-asked-key")
    call = {"operation": "websets.list", "args": {"limit": 1}}
    async with keyless_app(sim.url) as (app, inner):
        server = build_server(app)
        try:
            async with Client(server, mode="legacy", elicitation_callback=browser) as client:
                results: list[Any] = []

                async def one() -> None:
                    results.append(await client.call_tool("manage_websets", call))

                async with anyio.create_task_group() as group:
                    for _ in range(3):
                        group.start_soon(one)
        finally:
            await server.aclose()
    assert [r.is_error for r in results] == [False] * 3
    assert len(browser.asked) == 1 and set(inner.keys) == {"exa-shared-key-4321"}


async def test_a_refused_key_is_forgotten_and_asked_for_again(sim: SimHandle) -> None:
    # The simulator refuses "invalid-key" with 401, as Exa refuses a wrong key.
    browser = KeyBrowser("invalid-key", "exa-good-key-1234")
    (fixed,), inner, app = await _keyless_calls(sim.url, browser)
    assert not fixed.is_error, structured(fixed)
    assert len(browser.asked) == 2 and "refused" in browser.asked[1].message
    assert inner.keys == ["invalid-key", "exa-good-key-1234"]


async def test_after_three_refused_keys_the_call_ends_with_a_clear_error(sim: SimHandle) -> None:
    browser = KeyBrowser("invalid-key", "invalid-key", "invalid-key", "never-asked-key")
    (gave_up,), inner, app = await _keyless_calls(sim.url, browser)
    body = structured(gave_up)
    assert gave_up.is_error and body["code"] == "AUTHENTICATION_ERROR" and "3 times" in body["message"]
    assert "dashboard.exa.ai" in body["hint"] and "invalid-key" not in json.dumps(body)
    assert len(browser.asked) == 3 and browser.keys == ["never-asked-key"]
    assert inner.keys == ["invalid-key"] * 3
    assert not app.gateway.has_key_for(app.settings.principal)  # the last refused key is gone too


async def test_a_declined_link_answers_config_error_and_sends_nothing(sim: SimHandle) -> None:
    browser = KeyBrowser(None)
    (declined,), inner, _ = await _keyless_calls(sim.url, browser)
    body = structured(declined)
    assert declined.is_error and body["code"] == "CONFIG_ERROR" and "EXA_API_KEY" in body["message"]
    assert len(browser.asked) == 1 and inner.keys == []


@pytest.mark.slow
async def test_stdio_server_asks_for_the_key_by_a_link_to_its_loopback_page_and_stops_cleanly(
    tmp_path: Path,
) -> None:
    # A real stdio server for real Exa (the simulator's URL, not said to be one: no made-up key),
    # in front of a simulator that accepts only this key: the page is served by the stdio process.
    key = "stdio-exa-key-2468"
    browser = KeyBrowser(key)
    with SimThread(SimConfig(speed=100.0, keys=frozenset({key}))) as sim:
        params = serve_params(sim.url, tmp_path / "w.db", EXA_ORCH_SIMULATOR="0")
        with (tmp_path / "stderr.log").open("w") as errlog:
            async with Client(
                stdio_client(params, errlog=errlog),  # type: ignore[arg-type]
                mode="legacy",
                elicitation_callback=browser,
                message_handler=browser.on_message,
            ) as client:
                listed = await client.call_tool("manage_websets", {"operation": "websets.list", "args": {}})
        carried = {entry["client"] for entry in sim.log()}
    assert not listed.is_error, structured(listed)
    assert len(browser.asked) == 1 and browser.asked[0].url.startswith("http://127.0.0.1:")
    assert browser.completed == [browser.asked[0].elicitation_id]
    assert carried == {client_tag(key)}
    log = (tmp_path / "stderr.log").read_text()
    assert "key page listening on http://127.0.0.1:" in log and "exa-orch stopped" in log
    assert key not in log
