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
from difflib import get_close_matches
from functools import cached_property
from typing import Any

import mcp_types as types
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.shared.exceptions import MCPDeprecationWarning, MCPError

from exa_orch import __version__
from exa_orch.app import App
from exa_orch.errors import InvalidParams, OrchError, UnknownOperation
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
    _type_name,
    error_body,
    error_result,
    explain_invalid_params,
    text_result,
)
from exa_orch.mcp.tasks import install_tasks
from exa_orch.mcp.toolhost import (
    LIST_OPERATIONS,
    TOOLS_BY_NAME,
    adapt_params,
    shape_async_result,
    tool_input_schema,
)
from exa_orch.mcp.toolhost import (
    output_schema as toolhost_output_schema,
)
from exa_orch.mcp.watch_notify import install_watch_notifications
from exa_orch.operations import ClientPeer
from exa_orch.operations.follow import FOLLOW_TASK_TYPE, KIND_OF_CREATE
from exa_orch.operations.normalize import decode_json
from exa_orch.runtime import BearerTokens, Principal, local_principal

log = logging.getLogger(__name__)

SERVER_NAME = "exa-orch"
SERVER_DESCRIPTION = (
    "MCP server for Exa Search and Websets: durable long-running research tasks that survive restarts"
)
MANAGE_WEBSETS = "manage_websets"
CREATE_TASK = "tasks.create"
EXPORT = "tasks.export"
WATCHING = frozenset({"tasks.get", "tasks.result"})  # answers that may find a task waiting for input
# Seed 000 section 8.2: hints for client UIs on the long-running (async) tools.
LONG_RUNNING_HINTS: dict[str, Any] = {
    "io.modelcontextprotocol/long-running": True,
    "io.modelcontextprotocol/typical-duration": "30s-5m",
    "io.modelcontextprotocol/background-capable": True,
}
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

_MANAGE_DESCRIPTION = (
    "Run any Exa operation: websets.*, searches.*, items.*, enrichments.*, monitors.*, webhooks.*, "
    "imports.*, events.*, exa.search/findSimilar/getContents/answer, research.*, papers.search, "
    "tasks.* (durable long jobs). Put the operation's arguments (camelCase, as in Exa's API) in "
    "'args'. Call operation 'list_operations' first: it lists every operation by domain; call it with "
    "args {operation: '<name>'} for that operation's JSON Schema ({taskType: '<type>'} for a task type's). "
    "Add preview:true to validate without calling Exa, raw:true for Exa's full objects."
)


# Toolhost operation names (seed 000 section 4.2) -> registry names, to point manage_websets
# callers who use them at the right operation.
_SEED_NAMES: dict[str, str] = {}
for _tool in TOOLS_BY_NAME.values():
    for _seed, _target in _tool.operations.items():
        _SEED_NAMES.setdefault(_seed.lower(), _target)


class ToolCallError(InvalidParams):
    """The tool's own arguments (operation/args/params) were malformed."""


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
        """The tools of the active profile."""
        if self.profile == "toolhost":
            out = [
                types.Tool(
                    name=t.name,
                    title=t.title,
                    description=t.description,
                    input_schema=tool_input_schema(t),
                    annotations=types.ToolAnnotations(title=t.title, open_world_hint=True),
                )
                for t in TOOLS_BY_NAME.values()
            ]
            for tool in out:
                if TOOLS_BY_NAME[tool.name].long_running:
                    # Seed 000 section 8.2's hints: in _meta here; `hints_in_annotations` copies
                    # them into `annotations` on the wire (the SDK's model drops unknown keys).
                    tool.meta = dict(LONG_RUNNING_HINTS)
        else:
            out = [
                types.Tool(
                    name=MANAGE_WEBSETS,
                    title="Exa Websets, search and research",
                    description=_MANAGE_DESCRIPTION,
                    input_schema={
                        "type": "object",
                        "properties": {
                            "operation": {"type": "string", "enum": self.operation_names()},
                            "args": {"type": "object", "description": "the operation's arguments"},
                        },
                        "required": ["operation"],
                    },
                    annotations=types.ToolAnnotations(
                        title="Exa Websets", destructive_hint=True, open_world_hint=True
                    ),
                )
            ]
            out[0].meta = dict(LONG_RUNNING_HINTS)  # it runs tasks.* and the waits (section 8.2)
        out = [t for t in out if t.name in self.served_tools]
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

    def _schema_of(self, name: str) -> dict[str, Any]:
        schema: dict[str, Any] = self.app.registry.get(name).args_schema()
        return schema

    def list_operations(
        self, tool: str | None = None, params: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        """Every operation (of `tool`, in the toolhost profile) with its summary and JSON Schema;
        with params `{operation: name}`, that one operation's entry with its `outputSchema` too
        (seed 000 section 4.4: the JSON Schema of its default answer)."""
        described = {d["name"]: d for d in self.app.registry.describe()}
        if tool is None or tool == MANAGE_WEBSETS:
            return {"operations": list(described.values()), "count": len(described)}
        meta = TOOLS_BY_NAME[tool]
        wanted = (params or {}).get("operation")
        if wanted is not None:
            if not isinstance(wanted, str) or wanted not in meta.operations:
                close = get_close_matches(str(wanted)[:100], list(meta.operations), n=3, cutoff=0.5)
                raise ToolCallError(
                    f"params.operation: {_short(wanted)} is not an operation of {tool}",
                    hint=(f"Did you mean {', '.join(repr(c) for c in close)}? " if close else "")
                    + f"Call {tool} with operation 'list_operations' and no params to see them all.",
                    fields=["operation"],
                )
            if meta.operations[wanted] not in described:
                raise ToolCallError(
                    f"operation {wanted!r} is not available in this build", fields=["operation"]
                )
        ops = []
        for seed_name, reg_name in meta.operations.items():
            entry = described.get(reg_name)
            if entry is None or (wanted is not None and seed_name != wanted):
                continue
            op: dict[str, Any] = {
                "name": seed_name,
                "description": entry.get("summary", ""),
                "operation": reg_name,
                "inputSchema": entry.get("argsSchema", {}),
                "isAsync": bool(meta.long_running or entry.get("longRunning")),
            }
            if wanted is not None:
                output = toolhost_output_schema(seed_name, self.app.registry.get(reg_name).output_schema())
                if output is not None:
                    op["outputSchema"] = output
            ops.append(op)
        if wanted is not None:
            return {"tool": tool, **ops[0]}
        return {"tool": tool, "operations": ops, "count": len(ops)}

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
        """Map a tool call onto (registry operation, args); raise ToolCallError naming what is wrong.

        `list_operations` resolves to itself (not a registry operation in the toolhost profile).
        """
        arguments = arguments or {}
        if name == MANAGE_WEBSETS:
            key, tool_label = "args", MANAGE_WEBSETS
        elif name in TOOLS_BY_NAME:
            key, tool_label = "params", name
        else:  # tools/call validated the name already; kept for direct callers
            raise MCPError(code=-32602, message=f"Unknown tool: {_short(name)}")
        extra = sorted(set(arguments) - {"operation", key, "args", "params"})
        if "operation" not in arguments:
            raise ToolCallError(
                f"missing 'operation': {tool_label} takes {{operation, {key}}}",
                hint="Set 'operation' to an operation name; call operation 'list_operations' to see them.",
                fields=["operation"],
            )
        operation = arguments["operation"]
        if not isinstance(operation, str):
            raise ToolCallError(
                f"'operation' must be a string naming an operation, got {_type_name(operation)} {_short(operation)}",
                hint="Call operation 'list_operations' to see every operation name.",
                fields=["operation"],
            )
        target = self._target(name, operation)
        other = "params" if key == "args" else "args"
        if key in arguments and other in arguments:
            raise ToolCallError(
                f"give the arguments once, in '{key}' (both '{key}' and '{other}' were sent)",
                fields=[key, other],
            )
        raw = arguments.get(key, arguments.get(other))
        if raw is None:
            raw = {}
        if isinstance(raw, str):  # agents sometimes JSON-encode the object; accept that one slip
            decoded = decode_json(raw) if raw.strip() else {}
            raw = decoded if isinstance(decoded, dict) else raw
        if not isinstance(raw, dict):
            raise ToolCallError(
                f"'{key}' must be a JSON object with the operation's arguments, got {_type_name(raw)} {_short(raw)}",
                hint=f'Example: {{"operation": "{operation[:60]}", "{key}": {{...}}}}',
                fields=[key],
            )
        if extra:
            raise ToolCallError(
                f"unexpected top-level field(s) {', '.join(repr(e[:40]) for e in extra[:5])}: "
                f"{tool_label} takes only 'operation' and '{key}'",
                hint=f"Put the operation's own arguments inside '{key}'.",
                fields=extra[:5],
            )
        if target == LIST_OPERATIONS or name == MANAGE_WEBSETS:
            return target, raw
        return target, adapt_params(operation, raw, self._schema_of(target))

    def _target(self, tool: str, operation: str) -> str:
        """The registry operation `operation` names on `tool`; UnknownOperation/ToolCallError if none."""
        if operation == LIST_OPERATIONS:
            return operation
        if tool == MANAGE_WEBSETS:
            if len(operation) > 100:  # don't echo a huge name back into the agent's context
                raise UnknownOperation(operation[:100] + "...", [])
            try:
                self.app.registry.get(operation)  # raises UnknownOperation with close names
            except UnknownOperation as exc:
                # A toolhost (seed 000) name such as 'create_webset' is no typo: name its operation.
                meant = _SEED_NAMES.get(operation.strip().lower())
                if meant is None or meant not in self.app.registry or meant in exc.suggestions:
                    raise
                raise UnknownOperation(operation, [meant, *exc.suggestions][:3]) from None
            return operation
        table = TOOLS_BY_NAME[tool].operations
        if operation not in table:
            close = get_close_matches(operation[:100], [LIST_OPERATIONS, *table], n=3, cutoff=0.5)
            raise ToolCallError(
                f"unknown operation {_short(operation)} for tool {tool!r}",
                hint=(f"Did you mean {', '.join(repr(c) for c in close)}? " if close else "")
                + f"Call {tool} with operation 'list_operations' to see its operations.",
                fields=["operation"],
            )
        target = table[operation]
        if target not in self.app.registry:
            raise ToolCallError(
                f"operation {operation!r} ({target}) is not available in this build",
                hint=f"Call {tool} with operation 'list_operations' to see what is available.",
                fields=["operation"],
            )
        return target

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
                filled = None if asked_args else await ask_missing(peer, target, self._schema_of(target), exc)
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


async def hints_in_annotations(ctx: ServerRequestContext[Any], call_next: CallNext) -> HandlerResult:
    """Server middleware: a tools/list answer carries each tool's seed 000 section 8.2 hints in its
    `annotations` (where the seed puts them) as well as in its `_meta`.

    The SDK's `ToolAnnotations` model (and its per-version sieve of the answer) keeps only the MCP
    fields, so the hints are written into the answer's wire dict, after the sieve."""
    result = await call_next(ctx)
    if ctx.method != "tools/list" or not isinstance(result, dict):
        return result
    for tool in result.get("tools") or []:
        meta = tool.get("_meta") if isinstance(tool, dict) else None
        hints = {k: meta[k] for k in LONG_RUNNING_HINTS if k in meta} if isinstance(meta, dict) else {}
        if hints:
            annotations = tool.get("annotations")
            tool["annotations"] = {**(annotations if isinstance(annotations, dict) else {}), **hints}
    return result


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
