"""Typed errors: stable codes, JSON-RPC numbers from seed 000, and agent-facing shapes."""

from exa_orch.errors import (
    ErrorCode,
    InvalidTransition,
    RateLimited,
    TaskNotFound,
    UnknownOperation,
)


def test_codes_map_to_the_seed_json_rpc_numbers() -> None:
    assert ErrorCode.INVALID_PARAMS.rpc_code == -32602
    assert ErrorCode.RATE_LIMITED.rpc_code == -32001
    assert ErrorCode.AUTHENTICATION_ERROR.rpc_code == -32002
    assert ErrorCode.RESOURCE_NOT_FOUND.rpc_code == -32003
    assert ErrorCode.TASK_EXPIRED.rpc_code == -32005


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
