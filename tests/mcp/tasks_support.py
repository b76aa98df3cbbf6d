"""Clients for the MCP Tasks tests: a 2025-11-25 requestor and a 2026-07-28 tasks extension.

The 2025 client sends the task-augmented tools/call raw: the SDK's typed path validates a
tools/call result as a CallToolResult and would reject the CreateTaskResult. Notifications
(tasks/status, progress) are recorded; `until(pred)` waits for one with a deadline.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Literal

import anyio
import mcp_types as types
from mcp.client.extension import ClaimContext, ClientExtension, NotificationBinding, ResultClaim
from mcp.client.session import ClientSession, IncomingMessage
from mcp.shared.exceptions import MCPError
from mcp.shared.jsonrpc_dispatcher import JSONRPCDispatcher

from exa_orch.app import App, open_app
from exa_orch.config import Settings
from exa_orch.mcp.server import build_server
from tests.mcp.tasks_workflows import WORKFLOWS as TEST_WORKFLOWS
from tests.support import WAIT

TASKS_EXT = "io.modelcontextprotocol/tasks"
RELATED = "io.modelcontextprotocol/related-task"
WORKFLOWS_ENV = "tests.mcp.tasks_workflows:WORKFLOWS"
REPO = Path(__file__).resolve().parents[2]


@asynccontextmanager
async def app_for(sim_url: str, db_path: Path, *, tools: str = "manage_websets") -> AsyncIterator[App]:
    """An App on the simulator with the test workflows (tasks_workflows.py) registered."""
    settings = Settings(
        exa_url=sim_url, simulator=True, db_path=db_path, tools=tools, rps=1000.0, concurrency=8
    )
    async with open_app(settings, db_path, extra_workflows=TEST_WORKFLOWS) as app:
        yield app


class LegacyTasksClient:
    """A 2025-11-25 client: initialize handshake, raw task-augmented calls, typed tasks/* requests."""

    def __init__(
        self,
        dispatcher: JSONRPCDispatcher[Any],
        elicitation_callback: Any = None,
        list_roots_callback: Any = None,
    ) -> None:
        self.dispatcher = dispatcher
        self.statuses: list[types.TaskStatusNotificationParams] = []
        self.progress: list[types.ProgressNotificationParams] = []
        self._changed = anyio.Event()
        self.session = ClientSession(
            dispatcher=dispatcher,
            message_handler=self._on_message,
            elicitation_callback=elicitation_callback,
            list_roots_callback=list_roots_callback,
            notification_bindings=[
                NotificationBinding(
                    method="notifications/tasks/status",
                    params_type=types.TaskStatusNotificationParams,
                    handler=self._on_status,
                )
            ],
        )
        self.init: types.InitializeResult | None = None

    async def _on_message(self, message: IncomingMessage) -> None:
        if isinstance(message, types.ProgressNotification):
            self.progress.append(message.params)
            self._poke()

    async def _on_status(self, params: types.TaskStatusNotificationParams) -> None:
        self.statuses.append(params)
        self._poke()

    def _poke(self) -> None:
        self._changed.set()
        self._changed = anyio.Event()

    async def until(self, pred: Callable[[], bool], deadline_s: float = WAIT) -> None:
        """Wait until `pred()` holds, re-checking at each notification (bounded)."""
        with anyio.fail_after(deadline_s):
            while not pred():
                event = self._changed
                with anyio.move_on_after(0.2):  # also re-check now and then (pred may read the server)
                    await event.wait()

    async def call_task(
        self, tool: str, arguments: dict[str, Any], *, ttl: int | None = None, token: str | int | None = None
    ) -> dict[str, Any]:
        """tools/call with params.task; the raw CreateTaskResult."""
        params: dict[str, Any] = {
            "name": tool,
            "arguments": arguments,
            "task": {} if ttl is None else {"ttl": ttl},
        }
        if token is not None:
            params["_meta"] = {"progressToken": token}
        return await self.dispatcher.send_raw_request("tools/call", params, None)

    async def call(self, operation: str, args: dict[str, Any] | None = None) -> types.CallToolResult:
        """A plain manage_websets call."""
        return await self.session.call_tool("manage_websets", {"operation": operation, "args": args or {}})

    async def get(self, task_id: str) -> types.GetTaskResult:
        return await self.session.send_request(
            types.GetTaskRequest(params=types.GetTaskRequestParams(task_id=task_id)), types.GetTaskResult
        )

    async def result(self, task_id: str) -> types.CallToolResult:
        return await self.session.send_request(
            types.GetTaskPayloadRequest(params=types.GetTaskPayloadRequestParams(task_id=task_id)),
            types.CallToolResult,
        )

    async def list(self, cursor: str | None = None) -> types.ListTasksResult:
        params = types.PaginatedRequestParams(cursor=cursor) if cursor else None
        return await self.session.send_request(types.ListTasksRequest(params=params), types.ListTasksResult)

    async def cancel(self, task_id: str) -> types.CancelTaskResult:
        return await self.session.send_request(
            types.CancelTaskRequest(params=types.CancelTaskRequestParams(task_id=task_id)),
            types.CancelTaskResult,
        )


@asynccontextmanager
async def legacy_client(
    read_stream: Any, write_stream: Any, elicitation_callback: Any = None, list_roots_callback: Any = None
) -> AsyncIterator[LegacyTasksClient]:
    """A LegacyTasksClient over a stream pair, initialized (offering elicitation, roots with a callback)."""
    client = LegacyTasksClient(
        JSONRPCDispatcher(read_stream, write_stream), elicitation_callback, list_roots_callback
    )
    async with client.session:
        client.init = await client.session.initialize()
        yield client


@asynccontextmanager
async def inprocess_legacy(app: App) -> AsyncIterator[LegacyTasksClient]:
    """A 2025-11-25 client talking to build_server(app) over in-memory streams."""
    from mcp.client._memory import InMemoryTransport

    async with InMemoryTransport(build_server(app)) as (read_stream, write_stream):
        async with legacy_client(read_stream, write_stream) as client:
            yield client


@asynccontextmanager
async def legacy_app(
    sim_url: str, db_path: Path, *, tools: str = "manage_websets"
) -> AsyncIterator[tuple[App, LegacyTasksClient]]:
    """An App on the simulator and a 2025 client on its server, opened and closed in one task."""
    async with app_for(sim_url, db_path, tools=tools) as app, inprocess_legacy(app) as client:
        yield app, client


def structured(result: types.CallToolResult) -> dict[str, Any]:
    """The JSON a tool result carries (structuredContent, else its text)."""
    if result.structured_content is not None:
        return result.structured_content
    block = result.content[0]
    assert isinstance(block, types.TextContent)
    return json.loads(block.text)


# ------------------------------------------------------------------ 2026-07-28 tasks extension


class TaskIdParams(types.RequestParams):
    task_id: str


class TasksGetRequest(types.Request[TaskIdParams, Literal["tasks/get"]]):
    method: Literal["tasks/get"] = "tasks/get"
    params: TaskIdParams
    name_param = "taskId"


class TasksCancelRequest(types.Request[TaskIdParams, Literal["tasks/cancel"]]):
    method: Literal["tasks/cancel"] = "tasks/cancel"
    params: TaskIdParams
    name_param = "taskId"


class TaskFields(types.Result):
    task_id: str
    status: str
    status_message: str | None = None
    created_at: str
    last_updated_at: str
    ttl_ms: int | None = None
    poll_interval_ms: int | None = None


class CreateTaskResult2026(TaskFields):
    """SEP-2663 flat `Result & Task`, resultType "task"."""

    result_type: Literal["task"] = "task"


class DetailedTask(TaskFields):
    result: dict[str, Any] | None = None
    error: dict[str, Any] | None = None


async def get_2026(session: ClientSession, task_id: str) -> DetailedTask:
    return await session.send_request(TasksGetRequest(params=TaskIdParams(task_id=task_id)), DetailedTask)


async def cancel_2026(session: ClientSession, task_id: str) -> None:
    await session.send_request(TasksCancelRequest(params=TaskIdParams(task_id=task_id)), types.EmptyResult)


async def _resolve(handle: CreateTaskResult2026, ctx: ClaimContext) -> types.CallToolResult:
    """Poll tasks/get until terminal (pollIntervalMs apart); the inlined CallToolResult."""
    with anyio.fail_after(WAIT):
        while True:
            task = await get_2026(ctx.session, handle.task_id)
            if task.status == "completed" and task.result is not None:
                return types.CallToolResult.model_validate(task.result)
            if task.status == "failed":
                raise MCPError.from_error_data(types.ErrorData.model_validate(task.error))
            if task.status == "cancelled":
                raise RuntimeError(f"task {handle.task_id} was cancelled")
            await anyio.sleep((task.poll_interval_ms or 500) / 1000)


class TasksExtension(ClientExtension):
    identifier = TASKS_EXT

    def claims(self) -> list[ResultClaim[Any]]:
        return [ResultClaim(result_type="task", model=CreateTaskResult2026, resolve=_resolve)]
