"""Registry, validation modes, preview and raw without any network."""

from __future__ import annotations

from typing import Any, Literal

import pytest
from jsonschema import Draft202012Validator
from pydantic import Field

from exa_orch.errors import ErrorCode, InvalidParams, UnknownOperation
from exa_orch.operations import Args, OpContext, Operation, Registry, dispatch
from exa_orch.operations.meta import list_operations_op
from exa_orch.operations.models import Loose


class Crit(Loose):
    description: str


class EchoArgs(Args):
    webset_id: str
    count: int = 10
    ratio: float | None = None
    flag: bool = False
    tags: list[str] = Field(default_factory=list)
    criteria: list[Crit] | None = None
    meta: dict[str, Any] | None = None
    kind: Literal["a", "b"] = "a"


calls: list[dict[str, Any]] = []


async def echo(args: EchoArgs, ctx: OpContext) -> dict[str, Any]:
    calls.append(args.wire())
    return {"id": args.webset_id, "count": args.count, "bulky": "x" * 10}


def project(result: dict[str, Any], args: EchoArgs) -> dict[str, Any]:
    return {k: v for k, v in result.items() if k != "bulky"}


@pytest.fixture
def registry() -> Registry:
    calls.clear()
    reg = Registry([Operation("echo.run", EchoArgs, echo, "Echo args.", project=project)])
    reg.register(list_operations_op(reg))
    return reg


CTX = OpContext(gateway=None)


async def test_safe_mode_repairs_and_reports(registry: Registry) -> None:
    out = await dispatch(
        registry,
        "echo.run",
        {
            "websetId": "ws1",
            "count": "25",
            "flag": "true",
            "tags": "x",
            "ratio": "0.5",
            "criteria": '[{"description": "is a startup"}]',
            "meta": '{"k": 1}',
        },
        CTX,
    )
    assert out["count"] == 25
    changed = {c["field"]: c["change"] for c in out["normalized"]}
    assert changed == {
        "count": "number sent as a string",
        "flag": "boolean sent as a string",
        "tags": "single value wrapped in a list",
        "ratio": "number sent as a string",
        "criteria": "JSON-encoded string decoded to an array",
        "meta": "JSON-encoded string decoded to an object",
    }
    assert calls[-1]["criteria"] == [{"description": "is a startup"}]
    assert calls[-1]["flag"] is True and calls[-1]["tags"] == ["x"]


async def test_single_object_wrapped_where_list_expected(registry: Registry) -> None:
    out = await dispatch(registry, "echo.run", {"websetId": "w", "criteria": {"description": "d"}}, CTX)
    assert out["normalized"][0]["field"] == "criteria"
    assert calls[-1]["criteria"] == [{"description": "d"}]


async def test_strict_mode_refuses_what_safe_mode_repairs(registry: Registry) -> None:
    with pytest.raises(InvalidParams) as err:
        await dispatch(registry, "echo.run", {"websetId": "w", "count": "25", "mode": "strict"}, CTX)
    assert err.value.code == ErrorCode.INVALID_PARAMS
    assert err.value.fields == ["count"]
    assert "safe mode would convert" in err.value.message
    with pytest.raises(InvalidParams):
        await dispatch(registry, "echo.run", {"websetId": "w", "tags": "x"}, CTX, mode="strict")
    assert calls == []


async def test_clean_args_report_no_changes(registry: Registry) -> None:
    out = await dispatch(registry, "echo.run", {"websetId": "w", "count": 3}, CTX)
    assert "normalized" not in out


async def test_every_bad_field_is_named(registry: Registry) -> None:
    with pytest.raises(InvalidParams) as err:
        await dispatch(registry, "echo.run", {"count": "many", "kind": "z", "websetID": "x"}, CTX)
    e = err.value
    assert set(e.fields) == {"websetId", "count", "kind", "websetID"}
    assert "websetId: required field is missing" in e.message
    assert "did you mean 'websetId'" in e.message
    assert "'a' or 'b'" in e.message
    assert "list_operations" in (e.hint or "")


async def test_snake_case_names_are_accepted(registry: Registry) -> None:
    out = await dispatch(registry, "echo.run", {"webset_id": "w"}, CTX)
    assert out["id"] == "w"


async def test_preview_does_not_run_the_handler(registry: Registry) -> None:
    out = await dispatch(registry, "echo.run", {"websetId": "w", "count": "7", "preview": True}, CTX)
    assert out["preview"] is True and out["args"] == {"websetId": "w", "count": 7}
    assert out["normalized"][0]["field"] == "count"
    assert calls == []


async def test_raw_skips_the_projection(registry: Registry) -> None:
    assert "bulky" not in await dispatch(registry, "echo.run", {"websetId": "w"}, CTX)
    assert "bulky" in await dispatch(registry, "echo.run", {"websetId": "w", "raw": True}, CTX)


async def test_unknown_operation_suggests_close_names(registry: Registry) -> None:
    with pytest.raises(UnknownOperation) as err:
        await dispatch(registry, "echo.rn", {}, CTX)
    assert err.value.suggestions[0] == "echo.run"
    assert "echo.run" in (err.value.hint or "")
    assert registry.suggest("list-operations") == ["list_operations"]


async def test_args_must_be_an_object(registry: Registry) -> None:
    with pytest.raises(InvalidParams):
        await dispatch(registry, "echo.run", [1, 2], CTX)  # type: ignore[arg-type]
    out = await dispatch(registry, "echo.run", '{"websetId": "w"}', CTX)  # type: ignore[arg-type]
    assert out["normalized"][0]["field"] == "(args)"


async def test_bad_mode_is_refused(registry: Registry) -> None:
    with pytest.raises(InvalidParams) as err:
        await dispatch(registry, "echo.run", {"websetId": "w", "mode": "lenient"}, CTX)
    assert err.value.fields == ["mode"]


async def test_list_operations_schemas_are_valid(registry: Registry) -> None:
    out = await dispatch(registry, "list_operations", {"schemas": True}, CTX)
    assert [o["name"] for o in out["operations"]] == ["echo.run", "list_operations"]
    for op in out["operations"]:
        Draft202012Validator.check_schema(op["argsSchema"])
        assert {"mode", "preview", "raw"} <= set(op["argsSchema"]["properties"])
    echo_schema = out["operations"][0]["argsSchema"]
    assert "websetId" in echo_schema["properties"] and echo_schema["required"] == ["websetId"]


def test_duplicate_registration_is_refused(registry: Registry) -> None:
    with pytest.raises(ValueError):
        registry.register(registry.get("echo.run"))


async def test_exa_rejections_carry_the_operation_hint() -> None:
    from exa_orch.errors import ApiError, NotFoundError

    async def rejected(args: EchoArgs, ctx: OpContext) -> Any:
        raise ApiError("Exa rejected the request", status=400)

    async def missing(args: EchoArgs, ctx: OpContext) -> Any:
        raise NotFoundError("no such webset", status=404)

    reg = Registry([Operation("a.bad", EchoArgs, rejected, "s", hint="Common issues: x"),
                    Operation("a.gone", EchoArgs, missing, "s", hint="Common issues: x")])  # fmt: skip
    with pytest.raises(ApiError) as err:
        await dispatch(reg, "a.bad", {"websetId": "w"}, CTX)
    assert err.value.hint == "Common issues: x"
    with pytest.raises(NotFoundError) as gone:
        await dispatch(reg, "a.gone", {"websetId": "w"}, CTX)
    assert "Common issues" not in (gone.value.hint or "")


async def test_unexpected_handler_errors_become_orch_errors() -> None:
    from exa_orch.errors import OrchError

    async def broken(args: EchoArgs, ctx: OpContext) -> Any:
        raise KeyError("oops")

    reg = Registry([Operation("a.broken", EchoArgs, broken, "s")])
    with pytest.raises(OrchError) as err:
        await dispatch(reg, "a.broken", {"websetId": "w"}, CTX)
    assert err.value.code == ErrorCode.INTERNAL_ERROR and "a.broken" in err.value.message
