"""Tool results and JSON-RPC errors of the MCP face: the JSON text result, the isError body
{code, message, hint, operation, rpcCode}, and the middleware that explains the SDK's bare -32602."""

from __future__ import annotations

import json
import logging
from typing import Any

import mcp_types as types
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.shared.exceptions import MCPError
from pydantic import ValidationError

from exa_orch.errors import OrchError

log = logging.getLogger(__name__)


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
    return text_result(error_body(exc, operation), is_error=True)


def error_body(exc: BaseException, operation: str | None) -> dict[str, Any]:
    """The JSON body of error_result: {code, message, hint, operation, rpcCode, ...details}."""
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
    # Seed 000 section 10.1's number for the code, for clients that switch on numbers.
    body["rpcCode"] = exc.code.rpc_code if isinstance(exc, OrchError) else types.INTERNAL_ERROR
    return body


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
