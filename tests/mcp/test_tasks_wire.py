"""Wire shapes of MCP Tasks for store rows: status mapping, messages, results and errors."""

from __future__ import annotations

import dataclasses
from typing import Any

import mcp_types as types

from exa_orch.mcp import tasks_wire as wire
from exa_orch.store import TaskRecord, TaskStatus


def record(status: TaskStatus, **fields: Any) -> TaskRecord:
    base = TaskRecord(
        id="task_1",
        type="mcp_test.steps",
        status=status,
        args={},
        progress=None,
        partial=None,
        result=None,
        error=None,
        created_at="2026-11-21T21:00:00.000Z",
        updated_at="2026-11-21T21:00:01.000Z",
        expires_at=None,
        ttl_ms=3_600_000,
        lease_owner=None,
        lease_expires_at=None,
        meta={"operation": "tasks.create"},
    )
    return dataclasses.replace(base, **fields)


def test_our_statuses_map_onto_mcp_statuses() -> None:
    mapped = {s: wire.status_of(record(s)) for s in TaskStatus}
    assert mapped == {
        TaskStatus.PENDING: "working",
        TaskStatus.WORKING: "working",
        TaskStatus.INPUT_REQUIRED: "input_required",
        TaskStatus.COMPLETED: "completed",
        TaskStatus.FAILED: "failed",
        TaskStatus.CANCELLED: "cancelled",
    }
    waiting = record(
        TaskStatus.INPUT_REQUIRED,
        meta={"inputRequest": {"kind": "apiKey", "principal": "token:ann", "step": "research.create"}},
    )
    task = types.Task.model_validate(wire.task_2025(waiting))  # the SDK's model knows the status
    assert task.status == "input_required" and "Exa API key for token:ann" in (task.status_message or "")


def test_2025_task_validates_as_the_sdk_task_model() -> None:
    working = record(
        TaskStatus.WORKING, progress={"step": "search", "completed": 2, "total": 5, "message": "hm"}
    )
    task = types.Task.model_validate(wire.task_2025(working))
    assert task.status == "working" and task.ttl == 3_600_000 and task.poll_interval == wire.POLL_INTERVAL_MS
    assert task.status_message == "Working: search 2/5 hm"
    assert wire.task_2025(record(TaskStatus.PENDING))["statusMessage"].startswith("Queued")


def test_2026_detailed_task_inlines_the_result_and_a_failure_is_a_completed_error_result() -> None:
    done = wire.task_2026(record(TaskStatus.COMPLETED, result={"steps": 1}), detailed=True)
    assert done["status"] == "completed" and done["result"]["structuredContent"] == {"steps": 1}
    assert done["result"]["isError"] is False and "_meta" not in done["result"]
    assert done["ttlMs"] == 3_600_000 and "ttl" not in done and "error" not in done
    failed = record(TaskStatus.FAILED, error={"step": "s0", "message": "boom", "code": "RATE_LIMITED"})
    detailed = wire.task_2026(failed, detailed=True)
    # SEP-2663: a tool execution error is `completed` with result.isError, never `failed`.
    assert detailed["status"] == "completed" and "error" not in detailed
    assert detailed["result"]["isError"] is True and "_meta" not in detailed["result"]
    assert detailed["result"]["structuredContent"]["code"] == "RATE_LIMITED"
    assert detailed["result"]["structuredContent"]["step"] == "s0"
    assert wire.task_2025(failed)["status"] == "failed"  # 2025-11-25: an isError result is `failed`
    # An internal failure (a bug, an unknown task type here) is a protocol-level error: `failed`.
    crashed = record(TaskStatus.FAILED, error={"step": "start", "message": "unknown task type 'x'"})
    detailed = wire.task_2026(crashed, detailed=True)
    assert detailed["status"] == "failed" and "result" not in detailed
    assert detailed["error"]["code"] == -32603 and detailed["error"]["data"]["step"] == "start"
    odd = record(TaskStatus.FAILED, error={"message": "x", "code": "SOMETHING_NEW"})
    assert wire.error_object(odd)["code"] == -32603
    assert "result" not in wire.task_2026(record(TaskStatus.COMPLETED, result=1), detailed=False)


def test_final_result_of_a_failed_task_is_an_error_tool_result_with_the_related_task() -> None:
    failed = record(TaskStatus.FAILED, error={"step": "s0", "message": "boom", "recoverable": False})
    result = types.CallToolResult.model_validate(wire.final_result(failed))
    assert result.is_error is True
    assert result.structured_content is not None
    assert (
        result.structured_content["message"] == "boom"
        and result.structured_content["code"] == "INTERNAL_ERROR"
    )
    assert result.structured_content["operation"] == "tasks.create"
    assert result.meta == {wire.RELATED_TASK_META: {"taskId": "task_1"}}
