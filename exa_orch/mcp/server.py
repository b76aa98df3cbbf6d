"""The MCP server: tools/list and tools/call for the active tool profile, over the one registry.

Profiles (EXA_ORCH_TOOLS):
- `manage_websets` (default): one tool `{operation, args}`; schemas live behind `list_operations`
  so the whole tools/list answer stays under 4 KB.
- `toolhost`: the four meta-tools of seed 000 section 4.2 (`{operation, params}`), mapped onto the
  same registry by `exa_orch.mcp.toolhost`.

Errors an agent can fix come back as a tool result with `isError: true` whose text is JSON
`{code, message, hint, operation, ...}`; only a malformed request (an unknown tool, params that
are not an object) is a JSON-RPC error. An unexpected exception is logged with its traceback and
answered as INTERNAL_ERROR: the server never dies on input.

Beyond tools (seed 000 sections 5-6, docs/client-features.md): `logging/setLevel` subscribes the
connection to exa_orch's log records (`logbridge`); each tools/call hands its operation the
client's sampling, elicitation and roots (`peer.SessionPeer` as `OpContext.peer`); a call missing
required args asks for them by a form, a call for a principal with no Exa key asks for one by
URL-mode elicitation (`elicit`, `keypage`), else each answers its fallback; long calls get
heartbeats or pings (`keepalive`). Toolhost start_*/check_*/cancel_* answer the section 6.3 shapes.
Resources (the caller's tasks, results and exports) and prompts (the research recipes) are
installed from `resources` and `prompts`; tasks.export's answer carries a resource_link.

Which operation a call names, and the tools each profile lists, are `routing`'s (pure functions
of the registry); this module runs the calls.

Hook points for MCP Tasks (`exa_orch.mcp.tasks.install_tasks(server, app)`), all on `ExaOrchServer`:
`execute_tool(name, arguments, progress)` runs a call exactly as tools/call does;
`resolve_call(name, arguments)` -> (operation, args) without running it (`resolve_task_call`: as a
task); `task_support` maps a tool
name to its `execution.taskSupport`; `capability_hooks` edit the advertised capabilities.
"""

from __future__ import annotations

import asyncio
import logging
import warnings
from collections.abc import Awaitable, Callable
from functools import cached_property
from typing import Any

import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.shared.exceptions import MCPDeprecationWarning, MCPError

from exa_orch import __version__
from exa_orch.app import App
from exa_orch.errors import InvalidParams, OrchError
from exa_orch.gateway import KeyRefused, MissingApiKey
from exa_orch.gateway.context import request_scope
from exa_orch.mcp.auth import request_principal
from exa_orch.mcp.elicit import (
    KEY_ASKS,
    KeysRefused,
    ask_api_key,
    ask_key_for_task,
    ask_missing,
    input_required,
)
from exa_orch.mcp.hooked import HookedServer
from exa_orch.mcp.keepalive import current_beat, keepalive
from exa_orch.mcp.keypage import KeyPage
from exa_orch.mcp.logbridge import bridge as log_bridge
from exa_orch.mcp.logbridge import log_task_event
from exa_orch.mcp.peer import SessionPeer, forget_roots
from exa_orch.mcp.prompts import install_prompts
from exa_orch.mcp.resources import export_link, install_resources
from exa_orch.mcp.results import STRUCTURED_MAX_CHARS as STRUCTURED_MAX_CHARS  # re-exported
from exa_orch.mcp.results import (
    _short,
    error_body,
    error_result,
    explain_invalid_params,
    text_result,
)
from exa_orch.mcp.routing import LONG_RUNNING_HINTS as LONG_RUNNING_HINTS  # re-exported
from exa_orch.mcp.routing import (
    MANAGE_WEBSETS,
    hints_in_annotations,
    list_operations,
    profile_tools,
    resolve_call,
    schema_of,
)
from exa_orch.mcp.tasks import install_tasks
from exa_orch.mcp.toolhost import (
    LIST_OPERATIONS,
    TOOLS_BY_NAME,
    shape_async_result,
)
from exa_orch.mcp.watch_notify import install_watch_notifications
from exa_orch.operations import ClientPeer
from exa_orch.operations.follow import FOLLOW_TASK_TYPE, KIND_OF_CREATE
from exa_orch.runtime import BearerTokens, Principal, local_principal

log = logging.getLogger(__name__)

SERVER_NAME = "exa-orch"
SERVER_DESCRIPTION = (
    "MCP server for Exa Search and Websets: durable long-running research tasks that survive restarts"
)
CREATE_TASK = "tasks.create"
EXPORT = "tasks.export"
WATCHING = frozenset({"tasks.get", "tasks.result"})  # answers that may find a task waiting for input
Progress = Callable[[float, float | None, str | None], Awaitable[None]]

INSTRUCTIONS = (
    "exa-orch runs Exa Websets, search and research for you. Call the tool with "
    "{operation, args}: 'list_operations' lists the operations by domain; args {operation: name} gives "
    "one operation's JSON Schema. Long jobs: 'tasks.create' starts a durable task and returns its id at "
    "once; poll 'tasks.get', fetch 'tasks.result' (a summary and items in pages: follow nextCursor), stop "
    "with 'tasks.cancel', see all with 'tasks.list'. Tasks survive restarts. "
    "Errors come back as JSON {code, message, hint}: fix what the message names and call again."
)

TOOLHOST_INSTRUCTIONS = (
    "exa-orch runs Exa Websets, search and research for you through four tools: websets-sync, "
    "websets-async, exa-sync and exa-async. Call one with {operation, params}; operation "
    "'list_operations' returns that tool's operations with the JSON Schema of their params. "
    "Errors come back as JSON {code, message, hint}: fix what the message names and call again."
)


class ExaOrchServer(HookedServer):
    """The low-level MCP server bound to one App and one tool profile."""

    def __init__(self, app: App, profile: str) -> None:
        with warnings.catch_warnings():
            # The SDK marks logging deprecated for 2026-07-28; 2025-11-25 clients still use it.
            warnings.simplefilter("ignore", MCPDeprecationWarning)
            super().__init__(
                SERVER_NAME,
                version=__version__,
                title="exa-orch",
                description=SERVER_DESCRIPTION,
                instructions=TOOLHOST_INSTRUCTIONS if profile == "toolhost" else INSTRUCTIONS,
                on_list_tools=self._list_tools,
                on_call_tool=self._call_tool,
                on_set_logging_level=self._set_logging_level,
                on_roots_list_changed=self._roots_changed,
            )
        self.app = app
        self.profile = profile
        self.server_dirs: tuple[str, ...] | None = None
        """where a caller's files are read: None while callers share this machine (stdio: inside
        their roots); once served over HTTP, only in EXA_ORCH_IMPORT_DIRS (none when unset)"""
        self.unsubscribe_task_log: Callable[[], None] = lambda: None
        self._background: set[asyncio.Task[None]] = set()  # kept referenced until done

    @cached_property
    def key_page(self) -> KeyPage | None:
        """Where principals give their Exa keys (its listener starts at the first link); None when
        the operator's EXA_API_KEY serves everyone, or there is no gateway."""
        gateway = self.app.gateway
        if gateway is None or gateway.has_key:
            return None
        # A bearer-token principal proves on the page that it is the one asked (its own token).
        tokens = BearerTokens.from_settings(self.app.settings)

        def give(principal: str, key: str) -> None:
            gateway.give_api_key(principal, key)  # InvalidParams for what can't be a key
            self.resume_waiting_for_key(principal)

        return KeyPage(give, gateway.has_key_for, tokens=tokens)

    def resume_waiting_for_key(self, principal: str) -> None:
        """A key was given for `principal`: its tasks waiting for one (input_required) resume, in
        the background (the key page answers at once)."""
        tasks = self.app.tasks
        if tasks is None:
            return

        async def resume() -> None:
            try:
                resumed = await tasks.resume_waiting(Principal(principal), "apiKey")
            except Exception:
                log.exception("resuming the tasks of %s that waited for a key failed", principal)
                return
            if resumed:
                log.info("%d task(s) of %s resume with the key given", len(resumed), principal)

        job = asyncio.get_running_loop().create_task(resume())
        self._background.add(job)
        job.add_done_callback(self._background.discard)

    def streamable_http_app(self, **kwargs: Any) -> Any:
        """The SDK's streamable HTTP app; from then on callers are remote, and their roots name no
        path on this machine: files are read only inside EXA_ORCH_IMPORT_DIRS."""
        self.server_dirs = self.app.settings.import_dirs
        return super().streamable_http_app(**kwargs)

    async def aclose(self) -> None:
        """Stop what the server started beside its transport (the key page's listener)."""
        page = self.__dict__.get("key_page")
        if page is not None:
            await page.aclose()

    # ------------------------------------------------------------------ logging

    async def _set_logging_level(
        self, ctx: ServerRequestContext[Any], params: types.SetLevelRequestParams
    ) -> types.EmptyResult:
        """logging/setLevel: this connection hears exa_orch's log records at `level` and above."""
        # ServerSession is a per-request proxy; the level belongs to the connection behind it.
        connection = getattr(ctx.session, "_connection", None)
        if connection is None:  # pragma: no cover - every SDK session has one
            raise MCPError(code=types.INTERNAL_ERROR, message="no connection behind this session")
        # It hears only what concerns whoever opened it (another token's tasks stay unheard of).
        log_bridge().set_level(connection, params.level, request_principal(self.app.settings, ctx.request))
        log.debug("logging level set to %s for a client", params.level)
        return types.EmptyResult()

    async def _roots_changed(
        self, ctx: ServerRequestContext[Any], params: types.NotificationParams | None
    ) -> None:
        """notifications/roots/list_changed: the next local-file operation asks roots/list again."""
        forget_roots(ctx.session)

    # ------------------------------------------------------------------ tools/list

    def operation_names(self) -> list[str]:
        """Every operation the manage_websets tool accepts, list_operations first."""
        names = [n for n in self.app.registry.names() if n != LIST_OPERATIONS]
        return [LIST_OPERATIONS, *sorted(names)]

    @cached_property
    def served_tools(self) -> frozenset[str]:
        """The tools this server answers: the profile's, narrowed by EXA_ORCH_ENABLED_TOOLS (fixed
        at start-up, so worked out once rather than per request)."""
        names = set(TOOLS_BY_NAME) if self.profile == "toolhost" else {MANAGE_WEBSETS}
        enabled = getattr(self.app.settings, "enabled_tools", None)
        return frozenset(names & set(enabled) if enabled else names)

    def check_served(self, name: str) -> None:
        """Refuse (-32602, naming the served tools) a tools/call of a tool this server does not
        serve; every tools/call passes here, plain or task-augmented, so a subset bounds tasks too."""
        if name not in self.served_tools:
            names = ", ".join(sorted(self.served_tools))
            raise MCPError(code=-32602, message=f"Unknown tool: {_short(name)}; this server has: {names}")

    def tools(self) -> list[types.Tool]:
        """The tools of the active profile that this server serves, marked for MCP Tasks."""
        listed = profile_tools(self.profile, self.operation_names())
        out = [t for t in listed if t.name in self.served_tools]
        for tool in out:
            support = self.task_support.get(tool.name)
            if support:
                tool.execution = types.ToolExecution(task_support=support)  # type: ignore[arg-type]
        return out

    async def _list_tools(
        self, ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=self.tools())

    # ------------------------------------------------------------------ tools/call

    def list_operations(
        self, tool: str | None = None, params: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        """`routing.list_operations` over this server's registry."""
        return list_operations(self.app.registry, tool, params)

    def resolve_task_call(self, name: str, arguments: dict[str, Any] | None) -> tuple[str, dict[str, Any]]:
        """Map a tool call onto the (registry operation, args) it runs as an MCP task.

        `resolve_call`'s answer, except a toolhost start_search/start_enrichment/start_research:
        as a task it is `tasks.create {type: "exa.follow"}`, which starts the job and follows it to
        its end, so the task completes when the job does (seed 000 section 5.2.2).
        """
        target, args = self.resolve_call(name, arguments)
        if name in TOOLS_BY_NAME and target in KIND_OF_CREATE and args.get("preview") is not True:
            return CREATE_TASK, {"type": FOLLOW_TASK_TYPE, "kind": KIND_OF_CREATE[target], "args": args}
        return target, args

    def resolve_call(self, name: str, arguments: dict[str, Any] | None) -> tuple[str, dict[str, Any]]:
        """Map a tool call onto (registry operation, args): `routing.resolve_call`."""
        return resolve_call(self.app.registry, name, arguments)

    async def execute_tool(
        self,
        name: str,
        arguments: dict[str, Any] | None,
        progress: Progress | None = None,
        principal: Principal | None = None,
        peer: ClientPeer | None = None,
    ) -> types.CallToolResult:
        """Run one tool call for `principal` (None: the local user) to its CallToolResult; never
        raises for anything the input can cause.

        `peer` is the calling client's sampling/elicitation/roots, for the operations that use them."""
        # What this call sends to Exa and logs (the gateway's requests, its failure) is for its
        # caller alone.
        with request_scope(
            principal=(principal or local_principal(self.app.settings)).name, task_id=None, step=None
        ):
            return await self._execute_tool_in_scope(name, arguments, progress, principal, peer)

    async def _execute_tool_in_scope(
        self,
        name: str,
        arguments: dict[str, Any] | None,
        progress: Progress | None,
        principal: Principal | None,
        peer: ClientPeer | None,
    ) -> types.CallToolResult:
        try:
            return await self._execute_tool(name, arguments, progress, principal, peer)
        except MCPError:
            raise
        except Exception as exc:
            # A bug while answering a failure (building its error body): still a tool result, not a
            # JSON-RPC error carrying the exception's text.
            log.exception("call %s crashed while answering", name)
            operation = arguments.get("operation") if isinstance(arguments, dict) else None
            return error_result(exc, operation[:100] if isinstance(operation, str) else None)

    async def _execute_tool(
        self,
        name: str,
        arguments: dict[str, Any] | None,
        progress: Progress | None,
        principal: Principal | None,
        peer: ClientPeer | None,
    ) -> types.CallToolResult:
        operation: str | None = None
        args: dict[str, Any] | None = None
        if isinstance(arguments, dict) and isinstance(arguments.get("operation"), str):
            operation = arguments["operation"][:100]
        try:
            target, args = self.resolve_call(name, arguments)
            if target == LIST_OPERATIONS:
                if name == MANAGE_WEBSETS and LIST_OPERATIONS in self.app.registry:
                    return text_result(
                        await self.app.run_operation(LIST_OPERATIONS, args, progress, principal)
                    )
                return text_result(self.list_operations(name, args))
            result = await self._run_asking(target, args, progress, principal, peer)
            if name in TOOLS_BY_NAME and operation is not None:
                result = shape_async_result(operation, args, result)
            if target == EXPORT and isinstance(result, dict) and "uri" in result:
                return export_link(result)  # a resource_link to the file, read by resources/read
            return text_result(result)
        except MCPError:
            raise
        except OrchError as exc:
            log.info("call %s %s failed: [%s] %s", name, operation, exc.code, exc.message)
            body = error_body(exc, operation)
            if isinstance(exc, InvalidParams) and exc.missing and operation and args is not None:
                key = "args" if name == MANAGE_WEBSETS else "params"
                body = input_required(body, exc, operation=operation, args_key=key, args=args)
            return text_result(body, is_error=True)
        except Exception as exc:
            log.exception("call %s %s crashed", name, operation)
            return error_result(exc, operation)

    async def _run_asking(
        self,
        target: str,
        args: dict[str, Any],
        progress: Progress | None,
        principal: Principal | None,
        peer: ClientPeer | None,
    ) -> Any:
        """Run the operation; if it lacks required args, ask the user for them by a form (once); if
        the caller has no Exa key, or Exa refused the one they gave, ask for one by URL-mode
        elicitation (up to KEY_ASKS times); run it again after each answer."""
        who = (principal or local_principal(self.app.settings)).name
        if target == CREATE_TASK:
            await ask_key_for_task(peer, self.key_page, who)
        key_asks = task_asks = 0
        asked_args = False
        while True:
            try:
                result = await self.app.run_operation(target, args, progress, principal, peer)
                if (
                    target in WATCHING
                    and task_asks < KEY_ASKS
                    and await self._asked_for_task_input(target, args, result, principal, peer)
                ):
                    task_asks += 1
                    continue  # given: the task resumed; tasks.result waits on
                return result
            except (MissingApiKey, KeyRefused) as exc:
                refused = isinstance(exc, KeyRefused)
                if key_asks >= KEY_ASKS:
                    if refused:
                        raise KeysRefused(who, key_asks) from exc
                    raise
                key_asks += 1
                if not await ask_api_key(peer, self.key_page, who, refused=refused):
                    raise
            except InvalidParams as exc:
                filled = (
                    None
                    if asked_args
                    else await ask_missing(peer, target, schema_of(self.app.registry, target), exc)
                )
                if filled is None:
                    raise
                asked_args = True
                args = {**args, **filled}

    async def _asked_for_task_input(
        self,
        target: str,
        args: dict[str, Any],
        result: Any,
        principal: Principal | None,
        peer: ClientPeer | None,
    ) -> bool:
        """tasks.get or tasks.result answered a task of the caller's that waits for its input: ask
        this client for it (URL mode, tied to the task). tasks.get (and tasks.result without a wait)
        answers at once and asks in the background; tasks.result with a wait asks on its own call
        and says True once the input was given (the call then waits on)."""
        bridge = self.tasks_bridge
        tasks = self.app.tasks
        if (
            not isinstance(result, dict)
            or result.get("status") != "input_required"
            or not isinstance(peer, SessionPeer)
            or bridge is None
            or tasks is None
        ):
            return False
        try:
            record = await tasks.get(
                str(result.get("taskId")), principal=principal or local_principal(self.app.settings)
            )
        except OrchError:
            return False
        waiting = target == "tasks.result" and bool(args.get("wait"))
        ask = bridge.start_ask(record, peer.for_task(record.id, in_call=waiting), unasked=not waiting)
        if ask is None or not waiting:
            return False
        return bool(await ask)

    async def _call_tool(
        self, ctx: ServerRequestContext[Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        self.check_served(params.name)
        session = ctx.session
        last: list[float] = []
        beat = current_beat()

        async def progress(completed: float, total: float | None = None, message: str | None = None) -> None:
            if beat is not None:  # one increasing sequence with the keep-alive heartbeats
                await beat.report(completed, total, message)
                return
            # A no-op unless the request carried a progressToken; a closed connection must not
            # fail the operation, so a failed notification is only logged. Progress MUST increase
            # with each notification: a poll that found nothing new sends none.
            if last and completed <= last[0]:
                return
            last[:] = [completed]
            try:
                await session.report_progress(completed, total, message)
            except Exception:
                log.debug("progress notification dropped", exc_info=True)

        principal = request_principal(self.app.settings, ctx.request)  # who owns the tasks it makes
        return await self.execute_tool(
            params.name,
            params.arguments,
            progress,
            principal,
            SessionPeer(session, ctx.request_id, server_dirs=self.server_dirs),
        )


def build_server(app: App) -> ExaOrchServer:
    """The MCP server for `app`, with the profile from its settings and MCP Tasks."""
    server = ExaOrchServer(app, app.settings.tools)
    server.middleware.append(explain_invalid_params)  # outside the tasks bridge: sees its errors too
    server.middleware.append(keepalive)  # heartbeats and pings during long calls
    server.middleware.append(hints_in_annotations)
    install_tasks(server, app)
    install_resources(server, app)  # each caller's tasks, results and exports (mcp/resources.py)
    install_prompts(server)  # the research recipes as ready tasks.create calls (mcp/prompts.py)
    install_watch_notifications(app)  # a watch run's change, to its owner's sessions (mcp/watch_notify.py)
    if not getattr(app.gateway, "has_key", True):
        log.warning(
            "EXA_API_KEY is not set: serving anyway; each caller's first call to Exa asks them for "
            "their own key (URL-mode elicitation, a page on 127.0.0.1) or answers CONFIG_ERROR"
        )
    if app.tasks is not None:  # task transitions as log lines (and so as MCP log messages)
        server.unsubscribe_task_log = app.tasks.subscribe(log_task_event)
    return server
