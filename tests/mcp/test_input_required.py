"""Task status input_required (seed 000 section 5.2.1) on a server with no EXA_API_KEY: a
research.deep task whose run needs its owner's key waits input_required; its owner's client is asked
by URL-mode elicitation tied to the task (related-task `_meta`), and tasks/get reads input_required
while the link is open; once the key is given on the page, the task resumes and completes. A client
that can't be asked gets the input_required result with retryWith; a restart keeps the task
waiting, and the owner's next session that polls it is asked. 2026-07-28: the key link is one of
the task's inputRequests, answered through tasks/update."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Literal

import anyio
import mcp_types as types
from mcp import Client
from mcp.client._memory import InMemoryTransport
from mcp.client.context import ClientRequestContext

from exa_orch.app import App, open_app
from exa_orch.config import Settings
from exa_orch.mcp.server import ExaOrchServer, build_server
from exa_orch.sim.app import client_tag
from exa_orch.sim.testing import SimHandle
from tests.support import WAIT, until

from .keys_support import KeyBrowser
from .tasks_support import (
    RELATED,
    CreateTaskResult2026,
    DetailedTask,
    LegacyTasksClient,
    TaskIdParams,
    TasksExtension,
    TasksGetRequest,
    legacy_client,
    structured,
)

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


async def test_tasks_result_with_a_wait_asks_on_its_call_and_waits_on(sim: SimHandle, tmp_path: Path) -> None:
    """manage_websets tasks.result {wait} of a waiting task: its client is asked on the call (tied
    to the task) while tasks/get reads input_required; given, the same call answers completed."""
    db = tmp_path / "w.db"
    async with keyless(sim.url, db) as app:
        server = build_server(app)
        try:
            async with connect(server) as client:
                made = structured(await client.call("tasks.create", DEEP))
                await waits_for_input(client, made["taskId"])
        finally:
            await server.aclose()
    browser = HeldBrowser(KEY)
    answers: list[dict[str, Any]] = []
    async with keyless(sim.url, db) as app:
        server = build_server(app)
        try:
            async with connect(server, browser) as client:

                async def poll() -> None:
                    answer = await client.call("tasks.result", {"taskId": made["taskId"], "wait": 30})
                    answers.append(structured(answer))

                async with anyio.create_task_group() as tg:
                    tg.start_soon(poll)
                    with anyio.fail_after(WAIT):
                        await browser.opened.wait()
                    assert (await client.get(made["taskId"])).status == "input_required"
                    browser.release.set()
        finally:
            await server.aclose()
    assert [a["status"] for a in answers] == ["completed"], answers
    assert browser.metas == [{RELATED: {"taskId": made["taskId"]}}] and len(browser.asked) == 1


class UpdateParams(types.RequestParams):
    task_id: str
    input_responses: dict[str, Any] | None = None


class TasksUpdateRequest(types.Request[UpdateParams, Literal["tasks/update"]]):
    method: Literal["tasks/update"] = "tasks/update"
    params: UpdateParams
    name_param = "taskId"


class WaitingTask(DetailedTask):
    input_requests: dict[str, Any] | None = None


async def test_2026_the_key_link_is_an_input_request_of_the_task(sim: SimHandle, tmp_path: Path) -> None:
    """SEP-2663: tasks/get of the waiting task carries the key link as an inputRequest (URL-mode
    elicitation, tied to the task); the person gives the key on the page, the client answers the
    request through tasks/update, and the task resumes and completes."""
    browser = KeyBrowser(KEY)
    async with keyless(sim.url, tmp_path / "w.db") as app:
        server = build_server(app)
        try:
            async with Client(server, extensions=[TasksExtension()], elicitation_callback=browser) as client:
                assert client.protocol_version == "2026-07-28"
                handle = await client.session.call_tool(
                    "manage_websets", {"operation": "tasks.create", "args": DEEP}, allow_claimed=True
                )
                assert isinstance(handle, CreateTaskResult2026)

                async def get() -> WaitingTask:
                    return await client.session.send_request(
                        TasksGetRequest(params=TaskIdParams(task_id=handle.task_id)), WaitingTask
                    )

                async def waiting() -> WaitingTask | None:
                    task = await get()
                    return task if task.status == "input_required" else None

                task = await until(waiting, what="input_required")
                assert task.input_requests is not None, task
                request = task.input_requests["exaApiKey"]
                assert request["method"] == "elicitation/create"
                params = types.ElicitRequestURLParams.model_validate(request["params"], by_name=False)
                assert params.meta == {RELATED: {"taskId": handle.task_id}}
                assert params.url.startswith("http://127.0.0.1:") and handle.task_id in params.message
                assert (await get()).input_requests["exaApiKey"]["params"]["url"] == params.url  # one link
                # The person opens the link and pastes the key; the client answers the request.
                accepted = await browser(None, params)  # type: ignore[arg-type]
                await client.session.send_request(
                    TasksUpdateRequest(
                        params=UpdateParams(
                            task_id=handle.task_id,
                            input_responses={
                                "exaApiKey": accepted.model_dump(by_alias=True, exclude_none=True)
                            },
                        )
                    ),
                    types.EmptyResult,
                )

                async def finished() -> WaitingTask | None:
                    task = await get()
                    return task if task.status in ("completed", "failed", "cancelled") else None

                done = await until(finished, what="the task's end")
        finally:
            await server.aclose()
    assert done.status == "completed" and done.result is not None, done
    assert structured(types.CallToolResult.model_validate(done.result))["status"] == "completed"
    assert {e["client"] for e in sim.log()} == {client_tag(KEY)}


async def test_a_client_that_declines_is_not_asked_again_at_every_poll(
    sim: SimHandle, tmp_path: Path
) -> None:
    browser = KeyBrowser(None, None)  # declines every link
    async with keyless(sim.url, tmp_path / "w.db") as app:
        server = build_server(app)
        try:
            async with connect(server, browser) as client:
                created = await client.call_task(
                    "manage_websets", {"operation": "tasks.create", "args": DEEP}
                )
                task_id = created["task"]["taskId"]
                await until(lambda: len(browser.asked) == 1, what="the first ask")
                for _ in range(3):
                    assert (await client.get(task_id)).status == "input_required"
                result = await client.result(task_id)  # asks once more, on its own stream
        finally:
            await server.aclose()
    assert len(browser.asked) == 2, [a.message for a in browser.asked]
    body = structured(result)
    assert result.is_error and body["error"] == "input_required" and body["taskId"] == task_id
