"""MCP Tasks wire shapes for our task rows, in both protocol eras.

Pure functions from a store `TaskRecord` to the JSON the two eras expect:
- 2025-11-25 core tasks: `Task` {taskId, status, statusMessage, createdAt, lastUpdatedAt, ttl, pollInterval}
  (CreateTaskResult.task, tasks/get|list|cancel, notifications/tasks/status); tasks/result answers with the
  CallToolResult the original call would have returned.
- 2026-07-28 SEP-2663 extension `io.modelcontextprotocol/tasks`: a flat Task with `ttlMs`/`pollIntervalMs`,
  `resultType: "task"` when it answers a tools/call, and a DetailedTask (result inlined) for tasks/get.

Our statuses map onto MCP's: pending and working -> "working" (a queued task is already accepted work),
input_required -> "input_required" (it waits for its owner's input), completed -> "completed",
failed -> "failed" (SEP-2663: only internal failures; see `task_2026`), cancelled -> "cancelled".
"""

from __future__ import annotations

import json
from typing import Any

from exa_orch.errors import ErrorCode
from exa_orch.mcp.results import STRUCTURED_MAX_CHARS
from exa_orch.store import INPUT_REQUEST_META

TASKS_EXTENSION = "io.modelcontextprotocol/tasks"
RELATED_TASK_META = "io.modelcontextprotocol/related-task"
IMMEDIATE_RESPONSE_META = "io.modelcontextprotocol/model-immediate-response"
POLL_INTERVAL_MS = 500

_MCP_STATUS = {
    "pending": "working",
    "working": "working",
    "input_required": "input_required",
    "completed": "completed",
    "failed": "failed",
    "cancelled": "cancelled",
}
TERMINAL = frozenset({"completed", "failed", "cancelled"})


def status_of(record: Any) -> str:
    """Our status as the MCP task status (`pending` is still `working` to a requestor)."""
    return _MCP_STATUS.get(str(record.status), "working")


def status_message(record: Any) -> str:
    """One human-readable line on where the task stands."""
    status = str(record.status)
    if status == "pending":
        return "Queued: waiting for a free worker slot."
    if status == "working":
        progress = record.progress or {}
        parts = [str(progress["step"])] if progress.get("step") else []
        if progress.get("completed") is not None:
            total = progress.get("total")
            parts.append(f"{progress['completed']:g}/{total:g}" if total else f"{progress['completed']:g}")
        if progress.get("message"):
            parts.append(str(progress["message"]))
        return ("Working: " + " ".join(parts)) if parts else "The task is in progress."
    if status == "input_required":
        request = (record.meta or {}).get(INPUT_REQUEST_META) or {}
        if request.get("kind") == "apiKey":
            return (
                f"Input required: an Exa API key for {request.get('principal') or 'its owner'} (at "
                f"{request.get('step') or 'its current step'}); it resumes where it stopped once given."
            )
        if request.get("kind") == "root":
            return (
                f"Input required: the roots of its owner's client, to read {request.get('path')!r} "
                "inside them; it resumes where it stopped once read."
            )
        return f"Input required: {request.get('message') or 'the task waits for its owner'}."
    if status == "completed":
        return "The task completed."
    if status == "failed":
        error = record.error or {}
        return f"The task failed: {error.get('message') or 'no message'}"
    return "The task was cancelled."


def _common(record: Any) -> dict[str, Any]:
    return {
        "taskId": record.id,
        "status": status_of(record),
        "statusMessage": status_message(record),
        "createdAt": record.created_at,
        "lastUpdatedAt": record.updated_at,
    }


def task_2025(record: Any) -> dict[str, Any]:
    """The 2025-11-25 `Task` object for `record`."""
    return {**_common(record), "ttl": record.ttl_ms, "pollInterval": POLL_INTERVAL_MS}


def task_2026(record: Any, *, detailed: bool) -> dict[str, Any]:
    """The SEP-2663 `Task` for `record`; `detailed` inlines the result or the error (DetailedTask).

    SEP-2663 keeps `failed` for protocol-level errors (a crash, an internal failure) and reports a
    tool that ran but failed as `completed` with an `isError` result. So a task that failed with
    INTERNAL_ERROR (a bug, or a task type this server lacks) is `failed` with a JSON-RPC error;
    any other failure (bad input, Exa said no) is `completed` with the isError result the plain
    call would have returned.
    """
    out = {**_common(record), "ttlMs": record.ttl_ms, "pollIntervalMs": POLL_INTERVAL_MS}
    internal = str(record.status) == "failed" and error_payload(record)["code"] == str(
        ErrorCode.INTERNAL_ERROR
    )
    if str(record.status) == "failed" and not internal:
        out["status"] = "completed"
    if detailed and internal:
        out["error"] = error_object(record)
    elif detailed and str(record.status) in ("completed", "failed"):
        # The inlined result carries no related-task `_meta`: the task id is the DetailedTask's own.
        out["result"] = {k: v for k, v in final_result(record).items() if k != "_meta"}
    return out


def error_object(record: Any) -> dict[str, Any]:
    """A failed task's error as a JSON-RPC error object {code, message, data}."""
    payload = error_payload(record)
    try:
        code = ErrorCode(payload["code"]).rpc_code
    except ValueError:
        code = -32603
    return {"code": code, "message": str(payload["message"]), "data": payload}


def related(task_id: str) -> dict[str, Any]:
    """The `_meta` entry tying a message to a task."""
    return {RELATED_TASK_META: {"taskId": task_id}}


def call_tool_result(value: Any, *, is_error: bool = False) -> dict[str, Any]:
    """A CallToolResult (wire dict) carrying `value`: JSON text for any client, structured content for
    clients that read it (objects only, as the spec requires)."""
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    out: dict[str, Any] = {"content": [{"type": "text", "text": text}], "isError": is_error}
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate (Exa's text can hold one): unescaped, it kills the writer
        escaped = text.encode("utf-8", "backslashreplace").decode() if isinstance(value, str) else None
        out["content"][0]["text"] = escaped or json.dumps(value, default=str)
        return out
    if isinstance(value, dict) and len(text) <= STRUCTURED_MAX_CHARS:  # a big one goes once, as text
        out["structuredContent"] = value
    return out


def error_payload(record: Any) -> dict[str, Any]:
    """The task's error as agents see it: {code, message, hint?, step?, recoverable?, taskId}."""
    error = dict(record.error or {})
    error.setdefault("code", str(ErrorCode.INTERNAL_ERROR))
    error.setdefault("message", "the task failed without a message")
    error["taskId"] = record.id
    return error


def final_result(record: Any) -> dict[str, Any]:
    """What tasks/result returns for a completed or failed task: the CallToolResult the original call
    would have returned (a failure is an `isError` result, which is why the task is `failed`)."""
    if str(record.status) == "completed":
        result = call_tool_result(record.result)
    else:
        # The same {code, message, hint, operation, ...} body a failed plain call returns.
        body = {**error_payload(record), "operation": (record.meta or {}).get("operation") or record.type}
        result = call_tool_result(body, is_error=True)
    result["_meta"] = related(record.id)
    return result
