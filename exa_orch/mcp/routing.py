"""Which registry operation a tools/call names, and the tools each profile lists.

Two profiles over one registry (`exa_orch.mcp.server` serves them): `manage_websets` takes
`{operation, args}` and any registry operation; `toolhost` (seed 000 section 4.2) has four tools
taking `{operation, params}`, each with its own table of operations (`toolhost.TOOLS_BY_NAME`).
`resolve_call` checks a call's arguments and answers (registry operation, args), raising
ToolCallError (or UnknownOperation, with close names) that names what is wrong and how to fix it;
`list_operations` answers the `list_operations` pseudo-operation; `profile_tools` builds the tools
and `hints_in_annotations` (a server middleware) copies their long-running hints into the answer.
Pure functions of the registry: nothing here runs an operation.
"""

from __future__ import annotations

from difflib import get_close_matches
from typing import Any

import mcp_types as types
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.shared.exceptions import MCPError

from exa_orch.errors import InvalidParams, UnknownOperation
from exa_orch.mcp.results import _short, _type_name
from exa_orch.mcp.toolhost import (
    LIST_OPERATIONS,
    TOOLS_BY_NAME,
    adapt_params,
    tool_input_schema,
)
from exa_orch.mcp.toolhost import (
    output_schema as toolhost_output_schema,
)
from exa_orch.operations import Registry
from exa_orch.operations.normalize import decode_json

MANAGE_WEBSETS = "manage_websets"
# Seed 000 section 8.2: hints for client UIs on the long-running (async) tools.
LONG_RUNNING_HINTS: dict[str, Any] = {
    "io.modelcontextprotocol/long-running": True,
    "io.modelcontextprotocol/typical-duration": "30s-5m",
    "io.modelcontextprotocol/background-capable": True,
}
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
    for _seed, _meant in _tool.operations.items():
        _SEED_NAMES.setdefault(_seed.lower(), _meant)


class ToolCallError(InvalidParams):
    """The tool's own arguments (operation/args/params) were malformed."""


def profile_tools(profile: str, operation_names: list[str]) -> list[types.Tool]:
    """The tools of `profile` (`toolhost`, else `manage_websets`), before EXA_ORCH_ENABLED_TOOLS
    narrows them and MCP Tasks marks their `execution`; `operation_names` is manage_websets' enum."""
    if profile == "toolhost":
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
                        "operation": {"type": "string", "enum": operation_names},
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
    return out


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


def schema_of(registry: Registry, name: str) -> dict[str, Any]:
    """The JSON Schema of operation `name`'s args."""
    schema: dict[str, Any] = registry.get(name).args_schema()
    return schema


def list_operations(
    registry: Registry, tool: str | None = None, params: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Every operation (of `tool`, in the toolhost profile) with its summary and JSON Schema;
    with params `{operation: name}`, that one operation's entry with its `outputSchema` too
    (seed 000 section 4.4: the JSON Schema of its default answer)."""
    described = {d["name"]: d for d in registry.describe()}
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
            raise ToolCallError(f"operation {wanted!r} is not available in this build", fields=["operation"])
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
            output = toolhost_output_schema(seed_name, registry.get(reg_name).output_schema())
            if output is not None:
                op["outputSchema"] = output
        ops.append(op)
    if wanted is not None:
        return {"tool": tool, **ops[0]}
    return {"tool": tool, "operations": ops, "count": len(ops)}


def resolve_call(
    registry: Registry, name: str, arguments: dict[str, Any] | None
) -> tuple[str, dict[str, Any]]:
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
    target = _target(registry, name, operation)
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
    return target, adapt_params(operation, raw, schema_of(registry, target))


def _target(registry: Registry, tool: str, operation: str) -> str:
    """The registry operation `operation` names on `tool`; UnknownOperation/ToolCallError if none."""
    if operation == LIST_OPERATIONS:
        return operation
    if tool == MANAGE_WEBSETS:
        if len(operation) > 100:  # don't echo a huge name back into the agent's context
            raise UnknownOperation(operation[:100] + "...", [])
        try:
            registry.get(operation)  # raises UnknownOperation with close names
        except UnknownOperation as exc:
            # A toolhost (seed 000) name such as 'create_webset' is no typo: name its operation.
            meant = _SEED_NAMES.get(operation.strip().lower())
            if meant is None or meant not in registry or meant in exc.suggestions:
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
    if target not in registry:
        raise ToolCallError(
            f"operation {operation!r} ({target}) is not available in this build",
            hint=f"Call {tool} with operation 'list_operations' to see what is available.",
            fields=["operation"],
        )
    return target
