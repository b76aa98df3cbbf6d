"""Typed errors: stable codes, JSON-RPC numbers from seed 000, and agent-facing shapes."""

import re
from pathlib import Path

from exa_orch.errors import (
    RPC_CODES,
    ErrorCode,
    InvalidTransition,
    RateLimited,
    TaskNotFound,
    TaskTerminal,
    UnknownOperation,
)


def test_codes_map_to_the_seed_json_rpc_numbers() -> None:
    assert ErrorCode.INVALID_PARAMS.rpc_code == -32602
    assert ErrorCode.RATE_LIMITED.rpc_code == -32001
    assert ErrorCode.AUTHENTICATION_ERROR.rpc_code == -32002
    assert ErrorCode.RESOURCE_NOT_FOUND.rpc_code == -32003
    assert ErrorCode.TASK_EXPIRED.rpc_code == -32005


def test_every_meaning_has_its_own_number_and_the_docs_table_is_the_code() -> None:
    """Issue 29: "no such task" is not an Exa 404 (-32003), "task already finished" not an Exa
    failure (-32000); a number per meaning, and docs/reliability.md's one table says the same."""
    assert set(RPC_CODES) == set(ErrorCode)
    numbers = [n for code, n in RPC_CODES.items() if code is not ErrorCode.UNKNOWN_OPERATION]
    assert len(numbers) == len(set(numbers))
    assert ErrorCode.TASK_NOT_FOUND.rpc_code not in (-32003, -32000)
    assert ErrorCode.TASK_TERMINAL.rpc_code != -32000
    assert ErrorCode.OPERATION_CANCELLED.rpc_code == -32004 and ErrorCode.API_ERROR.rpc_code == -32000
    docs = (Path(__file__).resolve().parents[1] / "docs" / "reliability.md").read_text()
    table = dict(re.findall(r"^\| `([A-Z_]+)` \| (-\d+) \|", docs, re.M))
    assert {ErrorCode(code): int(n) for code, n in table.items()} == RPC_CODES


def test_a_terminal_task_says_its_status_as_a_word() -> None:
    from exa_orch.store import TaskStatus

    err = TaskTerminal("task_1", TaskStatus.COMPLETED)
    assert err.message == "task 'task_1' is already completed" and "TaskStatus" not in err.message
    assert err.to_dict()["status"] == "completed"


def test_unknown_operation_suggests_close_names_and_list_operations() -> None:
    err = UnknownOperation("websets.craete", ["websets.create"])
    shape = err.to_dict()
    assert shape["code"] == "UNKNOWN_OPERATION"
    assert "'websets.create'" in shape["hint"]
    assert "list_operations" in shape["hint"]


def test_rate_limited_carries_retry_after_in_its_shape() -> None:
    err = RateLimited("slow down", retry_after=2.5, status=429, request_id="req_1")
    assert err.to_dict() == {
        "code": "RATE_LIMITED",
        "message": "slow down",
        "status": 429,
        "requestId": "req_1",
        "retryAfter": 2.5,
    }
    assert err.retryable


def test_context_lives_in_attributes() -> None:
    err = InvalidTransition("task_1", "completed", "working")
    assert (err.task_id, err.current, err.requested) == ("task_1", "completed", "working")
    assert TaskNotFound("task_x").task_id == "task_x"
