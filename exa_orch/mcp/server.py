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

Hook points for MCP Tasks (`exa_orch.mcp.tasks.install_tasks(server, app)`), all on `ExaOrchServer`:
`execute_tool(name, arguments, progress)` runs a call exactly as tools/call does;
`resolve_call(name, arguments)` -> (operation, args) without running it; `task_support` maps a tool
name to its `execution.taskSupport`; `capability_hooks` edit the advertised capabilities.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable
from difflib import get_close_matches
from pathlib import Path
from typing import Any

import mcp_types as types
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.lowlevel import NotificationOptions, Server
from mcp.shared.exceptions import MCPError
from pydantic import ValidationError

from exa_orch import __version__
from exa_orch.config import Settings
from exa_orch.errors import InvalidParams, OrchError, UnknownOperation
from exa_orch.mcp.app import App
from exa_orch.mcp.auth import request_principal
from exa_orch.mcp.toolhost import LIST_OPERATIONS, TOOLS_BY_NAME, adapt_params, tool_input_schema
from exa_orch.operations.normalize import decode_json
from exa_orch.runtime import Principal

log = logging.getLogger(__name__)

SERVER_NAME = "exa-orch"
MANAGE_WEBSETS = "manage_websets"
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


def _short(value: Any, limit: int = 80) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _type_name(value: Any) -> str:
    return {dict: "object", list: "array", str: "string", bool: "boolean", type(None): "null"}.get(
        type(value), "number" if isinstance(value, int | float) else type(value).__name__
    )


STRUCTURED_MAX_CHARS = 256 * 1024


def text_result(value: Any, *, is_error: bool = False) -> types.CallToolResult:
    """A tool result carrying `value` as JSON text (and as structuredContent when it is an object of
    at most STRUCTURED_MAX_CHARS characters)."""
    text = json.dumps(value, ensure_ascii=False, default=str)
    # A big object goes once, as text: twice, it would pass the 1 MiB that the MCP Python client takes
    # per message over HTTP sooner (structuredContent is optional without an outputSchema).
    structured = value if isinstance(value, dict) and len(text) <= STRUCTURED_MAX_CHARS else None
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: unescaped, it kills the stdout writer (the server)
        text, structured = json.dumps(value, default=str), None
    return types.CallToolResult(
        content=[types.TextContent(text=text)], structured_content=structured, is_error=is_error
    )


def error_result(exc: BaseException, operation: str | None) -> types.CallToolResult:
    """The isError result for a failed call: {code, message, hint, operation, ...details}."""
    if isinstance(exc, OrchError):
        body = exc.to_dict()
    else:
        body = {
            "code": "INTERNAL_ERROR",
            "message": f"internal error ({type(exc).__name__}) while running this operation",
            "hint": "This is a bug in exa-orch, not in your call; the traceback is in the server log. "
            "Retrying may work; 'list_operations' lists alternatives.",
        }
    body.setdefault("hint", None)
    body["operation"] = operation
    return text_result(body, is_error=True)


class ExaOrchServer(Server[Any]):
    """The low-level MCP server bound to one App and one tool profile."""

    def __init__(self, app: App, profile: str) -> None:
        super().__init__(
            SERVER_NAME,
            version=__version__,
            title="exa-orch",
            instructions=TOOLHOST_INSTRUCTIONS if profile == "toolhost" else INSTRUCTIONS,
            on_list_tools=self._list_tools,
            on_call_tool=self._call_tool,
        )
        self.app = app
        self.profile = profile
        # Filled by exa_orch.mcp.tasks.install_tasks: tool name -> "optional" | "required".
        self.task_support: dict[str, str] = {}
        # Each hook may edit the capabilities advertised for a protocol version (None = handshake).
        self.capability_hooks: list[Callable[[types.ServerCapabilities, str | None], None]] = []

    # ------------------------------------------------------------------ capabilities

    def get_capabilities(
        self,
        notification_options: NotificationOptions | None = None,
        experimental_capabilities: dict[str, dict[str, Any]] | None = None,
        extensions: dict[str, dict[str, Any]] | None = None,
        *,
        protocol_version: str | None = None,
    ) -> types.ServerCapabilities:
        caps = super().get_capabilities(
            notification_options, experimental_capabilities, extensions, protocol_version=protocol_version
        )
        for hook in self.capability_hooks:
            hook(caps, protocol_version)
        return caps

    # ------------------------------------------------------------------ tools/list

    def operation_names(self) -> list[str]:
        """Every operation the manage_websets tool accepts, list_operations first."""
        names = [n for n in self.app.registry.names() if n != LIST_OPERATIONS]
        return [LIST_OPERATIONS, *sorted(names)]

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

    def list_operations(self, tool: str | None = None) -> dict[str, Any]:
        """Every operation (of `tool`, in the toolhost profile) with its summary and JSON Schema."""
        described = {d["name"]: d for d in self.app.registry.describe()}
        if tool is None or tool == MANAGE_WEBSETS:
            return {"operations": list(described.values()), "count": len(described)}
        meta = TOOLS_BY_NAME[tool]
        ops = []
        for seed_name, reg_name in meta.operations.items():
            entry = described.get(reg_name)
            if entry is None:
                continue
            ops.append(
                {
                    "name": seed_name,
                    "description": entry.get("summary", ""),
                    "operation": reg_name,
                    "inputSchema": entry.get("argsSchema", {}),
                    "isAsync": bool(meta.long_running or entry.get("longRunning")),
                }
            )
        return {"tool": tool, "operations": ops, "count": len(ops)}

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
    ) -> types.CallToolResult:
        """Run one tool call for `principal` (None: the local user) to its CallToolResult; never
        raises for anything the input can cause."""
        operation: str | None = None
        if isinstance(arguments, dict) and isinstance(arguments.get("operation"), str):
            operation = arguments["operation"][:100]
        try:
            target, args = self.resolve_call(name, arguments)
            if target == LIST_OPERATIONS:
                if name == MANAGE_WEBSETS and LIST_OPERATIONS in self.app.registry:
                    return text_result(
                        await self.app.run_operation(LIST_OPERATIONS, args, progress, principal)
                    )
                return text_result(self.list_operations(name))
            result = await self.app.run_operation(target, args, progress, principal)
            return text_result(result)
        except MCPError:
            raise
        except OrchError as exc:
            log.info("call %s %s failed: [%s] %s", name, operation, exc.code, exc.message)
            return error_result(exc, operation)
        except Exception as exc:
            log.exception("call %s %s crashed", name, operation)
            return error_result(exc, operation)

    async def _call_tool(
        self, ctx: ServerRequestContext[Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        served = set(TOOLS_BY_NAME) if self.profile == "toolhost" else {MANAGE_WEBSETS}
        if params.name not in served:
            names = ", ".join(sorted(served))
            raise MCPError(
                code=-32602, message=f"Unknown tool: {_short(params.name)}; this server has: {names}"
            )
        session = ctx.session
        last: list[float] = []

        async def progress(completed: float, total: float | None = None, message: str | None = None) -> None:
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
        return await self.execute_tool(params.name, params.arguments, progress, principal)


# The SDK's answer to a request before initialize and to params failing their schema: the same
# bare -32602 for both, naming nothing (its "pinned compat" shape).
_SDK_BARE = "Invalid request parameters"


async def explain_invalid_params(ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
    """Server middleware: keep the SDK's -32602 for malformed params and for a request sent before
    initialize, but say which it is and what to fix (the SDK sends only "Invalid request parameters")."""
    try:
        return await call_next(ctx)
    except ValidationError as exc:
        errors = exc.errors(include_url=False, include_input=False)
        problems = [
            ".".join(str(p) for p in e["loc"]) + ": " + e["msg"] if e["loc"] else e["msg"] for e in errors
        ]
        message = f"Invalid params for {ctx.method[:60]}: {'; '.join(problems[:5])[:500]}"
        hint = f"Fix the fields named; the MCP schema of {ctx.method[:60]!r} says what each one takes."
        if any("arguments" in e["loc"] for e in errors):
            hint = "tools/call takes {name, arguments}: 'arguments' must be a JSON object (not a string)."
        raise MCPError(
            code=types.INVALID_PARAMS,
            message=f"{message}. {hint}",
            data={"code": "INVALID_PARAMS", "message": message, "hint": hint},
        ) from None
    except MCPError as exc:
        if exc.error.code == types.INVALID_PARAMS and exc.error.message == _SDK_BARE and not exc.error.data:
            raise MCPError(
                code=types.INVALID_PARAMS,
                message=f"Invalid request: the session is not initialized, so {ctx.method[:60]!r} can't be "
                "served yet; send 'initialize', then the 'notifications/initialized' notification",
            ) from None
        raise


def build_server(app: App) -> ExaOrchServer:
    """The MCP server for `app`, with the profile from its settings and MCP Tasks."""
    from exa_orch.mcp.tasks import install_tasks  # imported here: tasks.py builds on this module

    server = ExaOrchServer(app, app.settings.tools)
    server.middleware.append(explain_invalid_params)  # outside the tasks bridge: sees its errors too
    install_tasks(server, app)
    return server


def run_server(settings: Settings, *, db_path: Path, http: bool, host: str, port: int) -> int:
    """Serve MCP until the client leaves or a signal arrives; 0 on a clean stop.

    stdio by default; `http=True` serves streamable HTTP at http://host:port/mcp (loopback unless
    EXA_ORCH_HTTP_TOKEN is set). Raises ConfigError for a missing key or an unsafe bind.
    """
    from exa_orch.mcp.transport import serve

    return serve(settings, db_path=db_path, http=http, host=host, port=port)
