"""MCP Tasks, both protocol eras, over the runtime's TaskService (one store for tasks.* and MCP).

`install_tasks(server, app)` adds to a low-level `Server` built by `build_server`:
- 2025-11-25 (initialize handshake): the `tasks` capability {list, cancel, requests.tools.call};
  `execution.taskSupport: "optional"` on the task-capable tools; a `tools/call` with `params.task`
  answers at once with a CreateTaskResult; `tasks/get`, `tasks/result` (blocks until terminal),
  `tasks/list` (cursor), `tasks/cancel` (a terminal task is -32602); `notifications/tasks/status` on
  every transition and `notifications/progress` (the call's token, related-task `_meta`) to the
  session that created the task, for tasks this process runs.
- 2026-07-28 (SEP-2663 extension `io.modelcontextprotocol/tasks`, advertised under
  capabilities.extensions): when the request's client capabilities declare the extension, a
  `tools/call` of `tasks.create` or of a long-running operation answers with a flat
  `resultType: "task"` (other calls answer inline); `tasks/get` (DetailedTask), `tasks/update`,
  `tasks/cancel` (empty ack). No notifications: a 2026 client polls tasks/get.

A task whose run needs its owner's input (the Exa API key on a keyless server) waits
`input_required` (seed 000 section 5.2.1): 2025-11-25 asks by URL-mode elicitation tied to the task
(related-task `_meta`): the session that made it at once, `tasks/result` on its stream, and after a
restart the owner's next session that polls it; 2026-07-28 puts the key link in `tasks/get`'s
`inputRequests`, answered through `tasks/update`. The key given on the page resumes the task; a
client that can't be asked gets the `input_required` result with `retryWith`.

A task-augmented call of `tasks.create` is that workflow task; of any other operation, a task of the
runtime's "operation" workflow that runs the operation durably. Every task lives in the store, so a
task made either way is listed, polled and cancelled the other way too.

Why middleware: the SDK validates a tools/call *handler's* result against the 2025 CallToolResult
schema, so a CreateTaskResult returned from the handler becomes -32603; a middleware that answers
without `call_next` owns its result. The capability and the tools' `execution` field go through
the hooks `ExaOrchServer` offers (`capability_hooks`, `task_support`); the tools stay in server.py.

Who does what: this module answers the requests (the middleware, tasks/*) and makes the tasks;
`tasks_calls` resolves a tools/call to what it runs as a task, `tasks_wire` shapes a task for each
era, `tasks_input` asks a waiting task's owner for its input, `tasks_notify` sends 2025
notifications.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Callable, Mapping
from typing import Any

import mcp_types as types
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.server.mcpserver.server import require_client_extension
from mcp.shared.exceptions import MCPError
from mcp.shared.inbound import MCP_NAME_HEADER, decode_header_value
from mcp_types import HEADER_MISMATCH, INTERNAL_ERROR, INVALID_PARAMS, METHOD_NOT_FOUND
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from pydantic import ValidationError

from exa_orch.app import App
from exa_orch.errors import ErrorCode, OrchError, TaskExpired, TaskNotFound, TaskTerminal
from exa_orch.mcp import tasks_wire as wire
from exa_orch.mcp.auth import request_principal
from exa_orch.mcp.hooked import HookedServer
from exa_orch.mcp.peer import SessionPeer
from exa_orch.mcp.tasks_calls import CallResolver, ResolvedCall
from exa_orch.mcp.tasks_input import TaskInputs
from exa_orch.mcp.tasks_notify import TaskNotifier
from exa_orch.operations.task_views import input_required
from exa_orch.operations.tasks import (
    check_task_args,
    create_operation_task,
    ttl_note,
)
from exa_orch.runtime import Principal, TaskService
from exa_orch.store import TaskRecord, TaskStatus

log = logging.getLogger(__name__)

CANCEL_SETTLE_S = 10.0  # how much longer a 2025-11-25 tasks/cancel waits for `cancelled` to be recorded


def _modern(ctx: ServerRequestContext[Any, Any]) -> bool:
    return ctx.protocol_version in MODERN_PROTOCOL_VERSIONS


def _declared_extension(ctx: ServerRequestContext[Any, Any]) -> bool:
    caps = ctx.session.client_capabilities
    return bool(caps and caps.extensions and wire.TASKS_EXTENSION in caps.extensions)


def _rpc_error(exc: OrchError) -> MCPError:
    """An OrchError raised before any task exists, as the JSON-RPC error the request gets."""
    message = exc.message + (f" ({exc.hint})" if exc.hint else "")
    return MCPError(code=exc.code.rpc_code, message=message, data=exc.to_dict())


def _not_found(task_id: str, expired: TaskExpired | None = None) -> MCPError:
    """-32602 for a task the caller can't see (none, or another principal's); `data.code` says
    TASK_EXPIRED instead of TASK_NOT_FOUND when the caller's own task expired."""
    exc: TaskNotFound = expired if expired is not None else TaskNotFound(task_id)
    return MCPError(
        code=INVALID_PARAMS, message=f"Failed to retrieve task: {exc.message}", data=exc.to_dict()
    )


def _gone(exc: TaskNotFound) -> MCPError:
    return _not_found(exc.task_id, exc if isinstance(exc, TaskExpired) else None)


class TasksBridge:
    """MCP Tasks requests and notifications on top of the runtime's TaskService."""

    def __init__(self, server: Server[Any], app: App) -> None:
        self._server = server
        self._app = app
        self._calls = CallResolver(server, app)
        self.inputs = TaskInputs(server, lambda: self.service)  # what waiting tasks are asked for
        self.notifier = TaskNotifier(lambda record, peer: self.start_ask(record, peer, unasked=True))
        self.unsubscribe: Callable[[], None] = lambda: None

    @property
    def task_tools(self) -> frozenset[str]:
        """The tools whose calls may be task-augmented."""
        return self._calls.tools

    def principal(self, ctx: ServerRequestContext[Any, Any]) -> Principal:
        """Who sent the request: its bearer token's principal on HTTP, the local user on stdio."""
        return request_principal(self._app.settings, ctx.request)

    @property
    def service(self) -> TaskService:
        tasks = self._app.tasks
        if tasks is None:  # pragma: no cover - install_tasks checks this first
            raise MCPError(code=INTERNAL_ERROR, message="the task runtime is not running")
        return tasks

    # ---------------------------------------------------------------- middleware

    async def middleware(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        """Answer task-augmented tools/call; everything else passes through."""
        if ctx.request_id is None:
            return await call_next(ctx)
        raw = ctx.params if isinstance(ctx.params, Mapping) else {}
        if ctx.method == "tools/call":
            # A tool outside EXA_ORCH_ENABLED_TOOLS is refused here, before it can become a task.
            check_served = getattr(self._server, "check_served", None)
            if check_served is not None and isinstance(raw.get("name"), str):  # else: the SDK's refusal
                check_served(raw["name"])
            if not _modern(ctx) and raw.get("task") is not None:
                return await self._call_as_task_2025(ctx, raw)
            if _modern(ctx) and _declared_extension(ctx):
                answered = await self._call_as_task_2026(ctx, raw)
                if answered is not None:
                    return answered
            if self._calls.task_required(str(raw.get("name"))):
                # A task-only tool called without task support on the client's side.
                if _modern(ctx):
                    require_client_extension(ctx, wire.TASKS_EXTENSION)  # -32021, naming the extension
                raise MCPError(
                    code=METHOD_NOT_FOUND,
                    message=f"Tool {raw.get('name')!r} runs only as a task (params.task)",
                )
            return await call_next(ctx)
        return await call_next(ctx)

    def add_capability(self, caps: types.ServerCapabilities, protocol_version: str | None) -> None:
        """Capability hook: the 2025 `tasks` capability on the handshake (None) and 2025 versions.

        The 2026 era learns of tasks from `capabilities.extensions` instead (server/discover)."""
        if protocol_version in MODERN_PROTOCOL_VERSIONS:
            return
        caps.tasks = types.ServerTasksCapability(
            list=types.TasksListCapability(),
            cancel=types.TasksCancelCapability(),
            requests=types.ServerTasksRequestsCapability(
                tools=types.TasksToolsCapability(call=types.TasksCallCapability())
            ),
        )

    # ---------------------------------------------------------------- task-augmented tools/call

    def _parse_call(self, raw: Mapping[str, Any]) -> types.CallToolRequestParams:
        try:
            return types.CallToolRequestParams.model_validate(raw, by_name=False)
        except ValidationError as exc:
            raise MCPError(
                code=INVALID_PARAMS, message=f"Invalid tools/call params: {exc.errors()[0]['msg']}"
            ) from None

    async def _call_as_task_2025(
        self, ctx: ServerRequestContext[Any, Any], raw: Mapping[str, Any]
    ) -> dict[str, Any]:
        params = self._parse_call(raw)
        if not self._calls.task_capable(params.name):
            # Spec: a task-augmented call of a tool whose taskSupport is (absent =) forbidden is -32601.
            raise MCPError(
                code=METHOD_NOT_FOUND, message=f"Tool {params.name!r} does not support task augmentation"
            )
        call = self._resolve(params)
        principal = self.principal(ctx)
        # A keyless owner is not asked here: the task is made at once, and when its run needs the
        # key it waits input_required and this session is asked, tied to the task (`TaskNotifier.on_event`).
        ttl = params.task.ttl if params.task is not None and params.task.ttl is not None else call.ttl_ms
        token = (raw.get("_meta") or {}).get("progressToken")
        key = uuid.uuid4().hex
        # Registered before the task exists: the runtime may report its first transition before
        # create() returns, and the listener finds the watcher through the key in the task's meta.
        self.notifier.watch(key, ctx.session, token)
        try:
            record = await self._create(
                call,
                era=ctx.protocol_version,
                ttl_ms=ttl,
                token=token,
                notify_key=key,
                principal=principal,
            )
        except BaseException:
            self.notifier.forget(key)
            raise
        note = f"Started task {record.id} ({call.describe()}); its result comes from tasks/result."
        clamped = ttl_note(ttl, record.ttl_ms)
        if clamped is not None:
            note += f" Its ttl was clamped: {clamped}."
        return {"task": wire.task_2025(record), "_meta": {wire.IMMEDIATE_RESPONSE_META: note}}

    async def _call_as_task_2026(
        self, ctx: ServerRequestContext[Any, Any], raw: Mapping[str, Any]
    ) -> dict[str, Any] | None:
        """A task for tasks.create and long-running operations; None lets the call run inline.

        A call that can't become a task (malformed, unknown operation, bad args) also runs inline,
        so a declaring client gets the same isError tool result as any other; no task is written.
        """
        try:
            params = types.CallToolRequestParams.model_validate(raw, by_name=False)
            if not self._calls.task_capable(params.name):
                return None
            call = self._calls.resolve(params.name, dict(params.arguments or {}))
            # Server-directed: quick operations answer inline (unless the tool runs only as a task).
            if not call.wants_task and not self._calls.task_required(params.name):
                return None
            # SEP-2663 tasks carry no progress; nobody is notified, the client polls tasks/get.
            record = await self._create(
                call,
                era=ctx.protocol_version,
                ttl_ms=call.ttl_ms,
                token=None,
                notify_key=None,
                principal=self.principal(ctx),
            )
        except (ValidationError, OrchError, MCPError):
            return None
        out = {"resultType": "task", **wire.task_2026(record, detailed=False)}
        # A middleware that answers owns the envelope, so it stamps serverInfo as the runner would.
        out["_meta"] = {types.SERVER_INFO_META_KEY: self._server.server_info_stamp}
        return out

    def _resolve(self, params: types.CallToolRequestParams) -> ResolvedCall:
        try:
            return self._calls.resolve(params.name, dict(params.arguments or {}))
        except OrchError as exc:
            raise _rpc_error(exc) from None

    async def _create(
        self,
        call: ResolvedCall,
        *,
        era: str,
        ttl_ms: int | None,
        token: Any,
        notify_key: str | None,
        principal: Principal,
    ) -> Any:
        meta: dict[str, Any] = {
            "source": "mcp-tasks",
            "era": era,
            "tool": call.tool,
            "operation": call.operation,
        }
        if token is not None:
            meta["progressToken"] = token
        if notify_key is not None:
            meta["notifyKey"] = notify_key
        if call.meta:
            meta.update(call.meta)  # tasks.create's budgetUsd
        if ttl_ms is not None:
            ttl_ms = max(1_000, int(ttl_ms))  # the runtime clamps it to the maximum (EXA_ORCH_MAX_TASK_TTL)
        try:
            if call.task_type is not None:
                task_args = self.service.with_engine(
                    call.task_type, call.task_args or {}, self._app.settings.engine
                )
                check_task_args(self._app.registry, call.task_type, task_args)  # as tasks.create inline
                return await self.service.create(
                    call.task_type, task_args, meta=meta, ttl_ms=ttl_ms, principal=principal
                )
            # The "operation" task type (operations/tasks.py) validates the args before any row exists.
            return await create_operation_task(
                self.service,
                self._app.registry,
                call.operation,
                call.args,
                meta=meta,
                ttl_ms=ttl_ms,
                principal=principal,
            )
        except OrchError as exc:
            raise _rpc_error(exc) from None

    # ---------------------------------------------------------------- tasks/* handlers

    def _gate(self, ctx: ServerRequestContext[Any, Any], method: str, task_id: str | None) -> None:
        """Which era serves which method; SEP-2663's extension and routing-header checks."""
        if _modern(ctx):
            if method not in ("tasks/get", "tasks/cancel", "tasks/update"):
                raise MCPError(code=METHOD_NOT_FOUND, message="Method not found", data=method)
            require_client_extension(ctx, wire.TASKS_EXTENSION)
            # On streamable HTTP, Mcp-Name MUST equal params.taskId; the SDK checks only its own verbs.
            headers = getattr(ctx.request, "headers", None)
            if headers is not None and decode_header_value(headers.get(MCP_NAME_HEADER)) != task_id:
                raise MCPError(
                    code=HEADER_MISMATCH, message=f"{MCP_NAME_HEADER} header does not match params.taskId"
                )
        elif method == "tasks/update":
            raise MCPError(code=METHOD_NOT_FOUND, message="Method not found", data=method)

    async def _get(self, ctx: ServerRequestContext[Any, Any], task_id: str) -> TaskRecord:
        try:
            return await self.service.get(task_id, principal=self.principal(ctx))
        except TaskNotFound as exc:
            raise _gone(exc) from None

    async def tasks_get(
        self, ctx: ServerRequestContext[Any, Any], params: types.GetTaskRequestParams
    ) -> dict[str, Any]:
        self._gate(ctx, "tasks/get", params.task_id)
        record = await self._get(ctx, params.task_id)
        if _modern(ctx):
            out = wire.task_2026(record, detailed=True)
            if record.status is TaskStatus.INPUT_REQUIRED:
                requests = await self.inputs.input_requests(ctx, record)
                if requests:
                    out["inputRequests"] = requests
            return out
        if record.status is TaskStatus.INPUT_REQUIRED:
            # The owner polls a waiting task (after a restart, nobody asked it yet): ask this session,
            # in the background; the answer says input_required meanwhile.
            self.start_ask(record, SessionPeer(ctx.session, None, related_task=record.id), unasked=True)
        return wire.task_2025(record)

    async def tasks_result(
        self, ctx: ServerRequestContext[Any, Any], params: types.GetTaskPayloadRequestParams
    ) -> dict[str, Any]:
        self._gate(ctx, "tasks/result", params.task_id)
        try:
            record = await self.inputs.wait_asking(ctx, params.task_id, self.principal(ctx))
        except TaskNotFound as exc:
            raise _gone(exc) from None
        if record.status is TaskStatus.INPUT_REQUIRED:
            # Nobody could be asked (this client has no URL-mode elicitation) or the person declined:
            # seed 000 section 6.5's input_required result, the task still waiting.
            body = {**(input_required(record) or {}), "taskId": record.id, "status": str(record.status)}
            return {**wire.call_tool_result(body, is_error=True), "_meta": wire.related(record.id)}
        if str(record.status) == "cancelled":
            # The Tasks spec mandates no code here: seed 000's OPERATION_CANCELLED (-32004) says it.
            raise MCPError(
                code=ErrorCode.OPERATION_CANCELLED.rpc_code,
                message=f"Task {record.id} was cancelled; it has no result",
                data={"code": str(ErrorCode.OPERATION_CANCELLED), **wire.related(record.id)},
            )
        return wire.final_result(record)

    async def tasks_list(
        self, ctx: ServerRequestContext[Any, Any], params: types.PaginatedRequestParams
    ) -> dict[str, Any]:
        self._gate(ctx, "tasks/list", None)
        try:
            records, cursor = await self.service.list(cursor=params.cursor, principal=self.principal(ctx))
        except OrchError as exc:
            raise _rpc_error(exc) from None
        out: dict[str, Any] = {"tasks": [wire.task_2025(r) for r in records]}
        if cursor:
            out["nextCursor"] = cursor
        return out

    async def tasks_cancel(
        self, ctx: ServerRequestContext[Any, Any], params: types.CancelTaskRequestParams
    ) -> dict[str, Any]:
        self._gate(ctx, "tasks/cancel", params.task_id)
        try:
            # 2025-11-25: the task MUST be cancelled before the response, so that era's clients get
            # the settle wait; 2026 (SEP-2663) is an acknowledgement.
            settle = 0.0 if _modern(ctx) else CANCEL_SETTLE_S
            record = await self.service.cancel(params.task_id, principal=self.principal(ctx), settle=settle)
        except TaskNotFound as exc:
            raise _gone(exc) from None
        except TaskTerminal as exc:
            if _modern(ctx):
                return {}  # SEP-2663: cancel is an idempotent acknowledgement
            raise MCPError(
                code=INVALID_PARAMS,  # the spec's code for a task already terminal
                message=f"Cannot cancel task {exc.task_id}: it is already {exc.status}",
                data=exc.to_dict(),
            ) from None
        if _modern(ctx):
            return {}
        return wire.task_2025(record)

    async def tasks_update(
        self, ctx: ServerRequestContext[Any, Any], params: UpdateTaskParams
    ) -> dict[str, Any]:
        self._gate(ctx, "tasks/update", params.task_id)
        record = await self._get(ctx, params.task_id)
        await self.inputs.answer_update(record, params.input_responses or {})
        return {}

    # ---------------------------------------------------------------- input_required

    def start_ask(
        self, record: TaskRecord, peer: SessionPeer, *, unasked: bool = False
    ) -> asyncio.Task[bool] | None:
        """Ask `peer` for what the waiting task needs (`TaskInputs.start_ask`)."""
        return self.inputs.start_ask(record, peer, unasked=unasked)


class UpdateTaskParams(types.RequestParams):
    """SEP-2663 tasks/update params (input responses for an input_required task)."""

    task_id: str
    input_responses: dict[str, Any] | None = None


def install_tasks(server: HookedServer, app: App) -> TasksBridge | None:
    """Serve MCP Tasks (both eras) on `server` from `app`'s TaskService; None when the runtime is off."""
    service = app.tasks
    if service is None:
        log.warning("MCP Tasks disabled: the task runtime is not running")
        return None
    bridge = TasksBridge(server, app)
    server.add_request_handler("tasks/get", types.GetTaskRequestParams, bridge.tasks_get)
    server.add_request_handler("tasks/result", types.GetTaskPayloadRequestParams, bridge.tasks_result)
    server.add_request_handler("tasks/list", types.PaginatedRequestParams, bridge.tasks_list)
    server.add_request_handler("tasks/cancel", types.CancelTaskRequestParams, bridge.tasks_cancel)
    server.add_request_handler("tasks/update", UpdateTaskParams, bridge.tasks_update)
    server.middleware.append(bridge.middleware)
    # The server's hooks (exa_orch.mcp.hooked.HookedServer): tools/list shows execution.taskSupport
    # (the 2026 sieve drops it), and the capability hook adds `tasks` to the handshake capabilities.
    for tool in bridge.task_tools:
        server.task_support.setdefault(tool, "optional")
    server.capability_hooks.append(bridge.add_capability)
    server.extensions[wire.TASKS_EXTENSION] = {}
    bridge.unsubscribe = service.subscribe(bridge.notifier.on_event)
    server.tasks_bridge = bridge
    return bridge
