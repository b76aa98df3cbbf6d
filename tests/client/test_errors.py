"""error_from_body: a tool error body becomes the OrchError subclass of its code, details kept."""

from __future__ import annotations

from exa_orch.client import RemoteError, error_from_body
from exa_orch.errors import (
    Conflict,
    ErrorCode,
    InvalidParams,
    OrchError,
    RateLimited,
    TaskNotFound,
    TaskTerminal,
    UnknownOperation,
    UpstreamInvalidParams,
)


def test_every_server_error_comes_back_as_its_own_class_with_the_same_shape() -> None:
    originals: list[OrchError] = [
        InvalidParams("args: bad", hint="fix it", fields=["args"]),
        UnknownOperation("websets.craete", ["websets.create"]),
        TaskNotFound("task_x"),
        TaskTerminal("task_x", "completed"),
        RateLimited("slow down", retry_after=2.5, status=429, request_id="r1"),
        Conflict("exists", external_id="task_x:create", status=409),
    ]
    for original in originals:
        body = {**original.to_dict(), "operation": "some.op"}
        rebuilt = error_from_body(body)
        assert type(rebuilt) is type(original)
        assert rebuilt.code is original.code and rebuilt.hint == original.hint
        assert str(rebuilt) == original.message
        assert rebuilt.to_dict() == original.to_dict()
        assert rebuilt.operation == "some.op" and rebuilt.body == body  # type: ignore[attr-defined]
    limited = error_from_body(RateLimited("x", retry_after=2.5).to_dict())
    assert isinstance(limited, RateLimited) and limited.retry_after == 2.5 and limited.retryable


def test_a_shared_code_maps_to_the_general_class_and_an_unknown_code_is_kept() -> None:
    upstream = UpstreamInvalidParams("Exa said no", status=422)
    rebuilt = error_from_body(upstream.to_dict())
    assert type(rebuilt) is InvalidParams and rebuilt.code is ErrorCode.INVALID_PARAMS

    newer = error_from_body({"code": "SOMETHING_NEW", "message": "m", "hint": None})
    assert isinstance(newer, RemoteError) and newer.remote_code == "SOMETHING_NEW"
    assert newer.to_dict() == {"code": "SOMETHING_NEW", "message": "m"}
    assert str(error_from_body({})) == "INTERNAL_ERROR"
