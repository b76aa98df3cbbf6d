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
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import anyio
import mcp_types as types
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.server.mcpserver.server import require_client_extension
from mcp.server.session import ServerSession
from mcp.shared.exceptions import MCPError
from mcp.shared.inbound import MCP_NAME_HEADER, decode_header_value
from mcp_types import HEADER_MISMATCH, INTERNAL_ERROR, INVALID_PARAMS, METHOD_NOT_FOUND
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from pydantic import ValidationError

from exa_orch.app import App
from exa_orch.errors import ErrorCode, OrchError, TaskExpired, TaskNotFound, TaskTerminal
from exa_orch.mcp import tasks_wire as wire
from exa_orch.mcp.auth import request_principal
from exa_orch.mcp.elicit import ask_api_key
from exa_orch.mcp.hooked import HookedServer
from exa_orch.mcp.keypage import KeyLink, KeyPage
from exa_orch.mcp.peer import SessionPeer, root_path
from exa_orch.mcp.tasks_calls import CallResolver, ResolvedCall
from exa_orch.operations._roots import read_inside_roots
from exa_orch.operations.imports import MAX_IMPORT_BYTES
from exa_orch.operations.task_views import input_required
from exa_orch.operations.tasks import (
    check_task_args,
    create_operation_task,
    ttl_note,
)
from exa_orch.runtime import Principal, TaskEvent, TaskService, input_kind
from exa_orch.store import INPUT_REQUEST_META, TaskRecord, TaskStatus

log = logging.getLogger(__name__)

MAX_UNANSWERED = 10_000
KEY_REQUEST = "exaApiKey"
ROOTS_REQUEST = "roots"  # the inputRequests key of a waiting path import's roots/list  # the inputRequests key of a waiting task's key link (2026-07-28)
CANCEL_SETTLE_S = 10.0  # how much longer a 2025-11-25 tasks/cancel waits for `cancelled` to be recorded
NOTIFY_TIMEOUT_S = 2.0  # a client that stops reading must not stall the runtime's event loop


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


@dataclass
class _Watcher:
    """Who hears about one task: the creating 2025 session, and its progress token if it sent one."""

    session: ServerSession
    progress_token: str | int | None
    last_progress: float = 0.0
    progress_base: float = 0.0
    last_step: str | None = None
    last_status: tuple[str, str] | None = None


class TasksBridge:
    """MCP Tasks requests and notifications on top of the runtime's TaskService."""

    def __init__(self, server: Server[Any], app: App) -> None:
        self._server = server
        self._app = app
        self._calls = CallResolver(server, app)
        self._watchers: dict[str, _Watcher] = {}  # notify key (stored in the task's meta) -> watcher
        # Asks for a waiting task's input in flight (one per task), and the key links that 2026
        # tasks/get answers carry as inputRequests (one per task while it waits).
        self._asking: dict[str, asyncio.Task[bool]] = {}
        self._links: dict[str, KeyLink] = {}
        self._unanswered: set[tuple[str, int]] = set()  # (task, connection) asked without an answer
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
        # key it waits input_required and this session is asked, tied to the task (`on_event`).
        ttl = params.task.ttl if params.task is not None and params.task.ttl is not None else call.ttl_ms
        token = (raw.get("_meta") or {}).get("progressToken")
        key = uuid.uuid4().hex
        # Registered before the task exists: the runtime may report its first transition before
        # create() returns, and the listener finds the watcher through the key in the task's meta.
        self._watchers[key] = _Watcher(session=ctx.session, progress_token=token)
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
            self._watchers.pop(key, None)
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
                requests = await self._input_requests(ctx, record)
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
            record = await self._wait_asking(ctx, params.task_id)
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
        # The key link's response: accepting says only that the person opens it (the key reaches
        # the server on the page, and resumes the task); declining closes it.
        roots = (params.input_responses or {}).get(ROOTS_REQUEST)
        if isinstance(roots, Mapping) and input_kind(record) == "root":
            # The client's roots, answered through the task: the file is read inside them.
            await self._read_for_task(record, GivenRoots(roots))
        response = (params.input_responses or {}).get(KEY_REQUEST)
        link = self._links.get(record.id)
        if (
            isinstance(response, Mapping)
            and link is not None
            and response.get("action") in ("decline", "cancel")
        ):
            page = self._key_page()
            if page is not None:
                page.close_link(link)
            self._links.pop(record.id, None)
        return {}

    # ---------------------------------------------------------------- input_required

    def _key_page(self) -> KeyPage | None:
        page = getattr(self._server, "key_page", None)
        return page if isinstance(page, KeyPage) else None

    def _server_dirs(self) -> Sequence[str] | None:
        """The folders a remote client's files are read in (ExaOrchServer.server_dirs); None on stdio."""
        dirs = getattr(self._server, "server_dirs", None)
        return tuple(dirs) if dirs is not None else None

    def start_ask(
        self, record: TaskRecord, peer: SessionPeer, *, unasked: bool = False
    ) -> asyncio.Task[bool] | None:
        """Ask `peer` for what the waiting task needs, once per task at a time (an ask in flight is
        returned instead); None when it can't be asked (the kind, no page, no URL-mode elicitation).
        `unasked` (an ask nobody requested: a status change, a poll): not when this connection was
        asked for this task already and did not give it, so a client that declined is not asked
        again at its every poll (a `tasks/result` asks again)."""
        running = self._asking.get(record.id)
        if running is not None and not running.done():
            return running
        kind = input_kind(record)
        if kind == "apiKey" and self._key_page() is not None and peer.url_elicitation:
            ask = self._ask_for_key(record, peer)
        elif kind == "root" and (peer.roots or self._server_dirs()):
            ask = self._read_for_task(record, peer)
        else:
            return None
        seen = (record.id, peer.connection_key)
        if unasked and seen in self._unanswered:
            ask.close()
            return None
        job = asyncio.get_running_loop().create_task(ask)
        self._asking[record.id] = job

        def done(finished: asyncio.Task[bool]) -> None:
            if self._asking.get(record.id) is finished:
                del self._asking[record.id]
            if finished.cancelled() or not finished.result():
                if len(self._unanswered) >= MAX_UNANSWERED:
                    self._unanswered.clear()  # a bound, not a record: forgetting re-asks once
                self._unanswered.add(seen)

        job.add_done_callback(done)
        return job

    async def _ask_for_key(self, record: TaskRecord, peer: SessionPeer) -> bool:
        """URL-mode elicitation of the owner's key for a waiting task; True once given (the task
        resumed). Never raises: a failed ask leaves the task waiting for the next poll."""
        owner = record.principal
        if owner is None:
            return False
        request = record.meta.get(INPUT_REQUEST_META) or {}
        refused = "refused" in str(request.get("message") or "")
        try:
            given = await ask_api_key(peer, self._key_page(), owner, refused=refused, task_id=record.id)
            if given:
                await self.service.resume_waiting(Principal(owner), "apiKey")
            return given
        except Exception:
            log.warning("asking for task %s's key failed", record.id, exc_info=True)
            return False

    async def _read_for_task(self, record: TaskRecord, peer: Any) -> bool:
        """A path import waiting for its owner's roots: read the file inside `peer`'s roots (the
        checks of a plain call) and resume the task with its text in place of the path. True once
        resumed; False (the task still waiting) when the file can't be read there, logged."""
        request = record.meta.get(INPUT_REQUEST_META) or {}
        path = request.get("path")
        inner = record.args.get("args")
        if record.type != "operation" or not isinstance(path, str) or not isinstance(inner, dict):
            return False
        try:
            text = await read_inside_roots(peer, path, MAX_IMPORT_BYTES, server_dirs=self._server_dirs())
            args = {**record.args, "args": {**{k: v for k, v in inner.items() if k != "path"}, "csv": text}}
            return await self.service.resume_with_args(record, args) is not None
        except OrchError as exc:
            log.info("task %s: its file can't be read in its owner's roots: %s", record.id, exc.message)
            return False
        except Exception:
            log.warning("reading task %s's file failed", record.id, exc_info=True)
            return False

    async def _wait_asking(self, ctx: ServerRequestContext[Any, Any], task_id: str) -> TaskRecord:
        """tasks/result's wait: until the task is terminal, asking this client (on this request's
        stream, tied to the task) whenever it waits for input; the waiting task when nobody could be
        asked or the person did not give it."""
        principal = self.principal(ctx)
        while True:
            # The spec says block until terminal; the client ends the wait by cancelling this request.
            record = await self.service.wait(task_id, principal=principal, until_input=True)
            if record.status is not TaskStatus.INPUT_REQUIRED:
                return record
            running = self._asking.get(record.id)
            if running is not None and not running.done() and await running:
                continue  # asked elsewhere (the session that made it) and given: wait on
            ask = self.start_ask(record, SessionPeer(ctx.session, ctx.request_id, related_task=record.id))
            if ask is not None and await ask:
                continue
            record = await self.service.get(task_id, principal=principal)
            if record.terminal or record.status is TaskStatus.INPUT_REQUIRED:
                return record
            # Not asked here, yet no longer waiting: another ask (the session that made it) gave
            # what it needed after `wait` read it. It runs again: wait on, never answer a running task.

    async def _input_requests(
        self, ctx: ServerRequestContext[Any, Any], record: TaskRecord
    ) -> dict[str, Any]:
        """SEP-2663 inputRequests of a waiting task, for a client that declares URL-mode
        elicitation: the key page's link for its owner (one live link per task)."""
        page = self._key_page()
        caps = ctx.session.client_capabilities
        if input_kind(record) == "root" and caps is not None and caps.roots is not None:
            return {ROOTS_REQUEST: {"method": "roots/list", "params": {"_meta": wire.related(record.id)}}}
        url_mode = bool(caps and caps.elicitation is not None and caps.elicitation.url is not None)
        if input_kind(record) != "apiKey" or page is None or record.principal is None or not url_mode:
            return {}
        link = self._links.get(record.id)
        if link is None or link.given.is_set() or link.expires <= time.monotonic():
            link = self._links[record.id] = await page.open_link(record.principal)
        params = {
            "mode": "url",
            "message": f"Your task {record.id} waits for an Exa API key: open this link (a page exa-orch "
            "serves on 127.0.0.1 of the machine it runs on) and paste your key there; it is not sent "
            "through this client and serves only your calls and tasks. The task resumes once it is given.",
            "url": link.url,
            "elicitationId": link.elicitation_id,
            "_meta": wire.related(record.id),
        }
        return {KEY_REQUEST: {"method": "elicitation/create", "params": params}}

    # ---------------------------------------------------------------- notifications

    async def on_event(self, event: TaskEvent) -> None:
        """TaskService listener: status and progress notifications to the session that made the task."""
        record = event.task
        key = str((record.meta or {}).get("notifyKey") or "")
        watcher = self._watchers.get(key)
        if watcher is None:
            return
        if event.kind == "status" and record.status is TaskStatus.INPUT_REQUIRED:
            # The session that made the task is asked for what it waits for, tied to the task.
            self.start_ask(record, SessionPeer(watcher.session, None, related_task=record.id), unasked=True)
        try:
            with anyio.move_on_after(NOTIFY_TIMEOUT_S):
                if event.kind == "progress":
                    await self._notify_progress(watcher, record, event.progress or record.progress or {})
                else:
                    await self._notify_status(watcher, record)
        except Exception:  # the client went away: notifications are best-effort
            log.debug("notification for task %s dropped", record.id, exc_info=True)
            self._watchers.pop(key, None)
            return
        if record.terminal:
            self._watchers.pop(key, None)

    async def _notify_status(self, watcher: _Watcher, record: TaskRecord) -> None:
        task = wire.task_2025(record)
        fingerprint = (task["status"], task["statusMessage"])
        if fingerprint == watcher.last_status:
            return
        watcher.last_status = fingerprint
        params = types.TaskStatusNotificationParams.model_validate(task)
        await watcher.session.send_notification(types.TaskStatusNotification(params=params))  # type: ignore[arg-type]

    async def _notify_progress(
        self, watcher: _Watcher, record: TaskRecord, progress: Mapping[str, Any]
    ) -> None:
        if watcher.progress_token is None or record.terminal:
            return
        completed = float(progress.get("completed") or 0)
        total = progress.get("total")
        # Progress must only grow for one token; a workflow counts each step from zero, so a new
        # step is stacked on what earlier ones reported. The same step reporting no advance (a poll
        # that found nothing new) says nothing: stacking it would inflate the count at every poll.
        step = str(progress.get("step") or "")
        if watcher.progress_base + completed <= watcher.last_progress and step != watcher.last_step:
            watcher.progress_base = watcher.last_progress
        watcher.last_step = step
        value = watcher.progress_base + completed
        if value <= watcher.last_progress:
            return
        watcher.last_progress = value
        message = " ".join(str(p) for p in (progress.get("step"), progress.get("message")) if p) or None
        await watcher.session.send_notification(
            types.ProgressNotification(
                params=types.ProgressNotificationParams(
                    progress_token=watcher.progress_token,
                    progress=value,
                    total=watcher.progress_base + float(total) if total else None,
                    message=message,
                    _meta=wire.related(record.id),
                )
            )
        )


class GivenRoots:
    """The roots a 2026-07-28 client answered a task's roots/list input request with, as the
    `roots` part of a ClientPeer (file:// URIs as local paths; others ignored)."""

    roots = True

    def __init__(self, result: Mapping[str, Any]) -> None:
        listed = result.get("roots")
        uris = [r.get("uri") for r in listed if isinstance(r, Mapping)] if isinstance(listed, list) else []
        self._paths = [p for p in (root_path(str(u)) for u in uris if u) if p is not None]

    async def list_roots(self) -> list[str]:
        return list(self._paths)


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
    bridge.unsubscribe = service.subscribe(bridge.on_event)
    server.tasks_bridge = bridge
    return bridge
