"""build_server in-process over the SDK's in-memory transport, with a registry of test operations:
crashes become INTERNAL_ERROR results (traceback logged), progress reaches the caller."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from mcp import Client

from exa_orch.app import App
from exa_orch.config import Settings
from exa_orch.errors import InvalidParams, OrchError, UpstreamInvalidParams
from exa_orch.mcp.server import build_server
from exa_orch.operations import OpContext, Operation, Registry
from exa_orch.operations.meta import list_operations_op
from exa_orch.operations.models import Args, NoArgs
from tests.mcp.conftest import result_json


class StepsArgs(Args):
    steps: int = 3


async def _steps(args: StepsArgs, ctx: OpContext) -> dict[str, Any]:
    for i in range(1, args.steps + 1):
        await ctx.progress(i, args.steps, f"step {i}/{args.steps}")
    return {"done": args.steps}


async def _ok(args: NoArgs, ctx: OpContext) -> list[int]:
    return [1, 2, 3]


async def _exa_refuses(args: NoArgs, ctx: OpContext) -> list[int]:
    # What the gateway raises when Exa answers 400 (a cursor it does not know, say).
    raise UpstreamInvalidParams("Invalid cursor", status=400, tag="INVALID_CURSOR", request_id="req_1")


class _InvalidParamsMissingItsFields(InvalidParams):
    # The shape of a real bug: a subclass that skips InvalidParams.__init__ (no `.missing`), which
    # used to end the tools/call as a JSON-RPC error with code 0 and the AttributeError's text.
    def __init__(self, message: str) -> None:
        OrchError.__init__(self, message)


async def _refuses_sloppily(args: NoArgs, ctx: OpContext) -> list[int]:
    raise _InvalidParamsMissingItsFields("bad args")


def _broken_projection(result: Any, args: Any) -> Any:
    raise RuntimeError("projection bug with secret-ish detail")


def _app(profile: str = "manage_websets") -> App:
    registry = Registry(
        [
            Operation("test.steps", StepsArgs, _steps, "report progress per step", long_running=True),
            Operation("test.list", NoArgs, _ok, "a list result"),
            Operation("test.crash", NoArgs, _ok, "projection raises", project=_broken_projection),
            Operation("test.exa400", NoArgs, _exa_refuses, "Exa answers 400"),
            Operation("test.sloppy", NoArgs, _refuses_sloppily, "an error that breaks its own answer"),
        ]
    )
    registry.register(list_operations_op(registry))
    return App(settings=Settings(tools=profile), store=None, gateway=None, registry=registry)


async def test_unexpected_exception_is_internal_error_and_the_server_lives(
    caplog: pytest.LogCaptureFixture,
) -> None:
    server = build_server(_app())
    with caplog.at_level(logging.ERROR, logger="exa_orch.mcp.server"):
        async with Client(server, mode="legacy") as client:
            result = await client.call_tool("manage_websets", {"operation": "test.crash"})
            assert result.is_error
            body = result_json(result)
            assert body["code"] == "INTERNAL_ERROR" and body["operation"] == "test.crash"
            assert "secret-ish" not in body["message"], "exception text stays in the server log"
            assert body["hint"]
            await client.session.send_ping()
            again = await client.call_tool("manage_websets", {"operation": "test.list"})
            assert not again.is_error and result_json(again) == [1, 2, 3]
            assert again.structured_content is None  # only objects are structured content
    assert "Traceback" in caplog.text and "projection bug" in caplog.text


async def test_exa_refusing_the_arguments_is_a_typed_tool_error_not_a_protocol_error() -> None:
    async with Client(build_server(_app()), mode="legacy") as client:
        result = await client.call_tool("manage_websets", {"operation": "test.exa400"})
        assert result.is_error
        body = result_json(result)
        assert body["code"] == "INVALID_PARAMS" and body["operation"] == "test.exa400", body
        assert "Invalid cursor" in body["message"]


async def test_a_bug_while_answering_a_failure_is_an_internal_error_result_not_a_protocol_error() -> None:
    async with Client(build_server(_app()), mode="legacy") as client:
        result = await client.call_tool("manage_websets", {"operation": "test.sloppy"})
        assert result.is_error
        body = result_json(result)
        assert body["code"] == "INTERNAL_ERROR" and body["operation"] == "test.sloppy", body
        assert "missing" not in body["message"], "the exception's text stays in the server log"
        again = await client.call_tool("manage_websets", {"operation": "test.list"})
        assert not again.is_error


async def test_progress_notifications_follow_the_progress_token() -> None:
    server = build_server(_app())
    seen: list[tuple[float, float | None, str | None]] = []

    async def on_progress(done: float, total: float | None, message: str | None) -> None:
        seen.append((done, total, message))

    async with Client(server, mode="legacy") as client:
        result = await client.call_tool(
            "manage_websets", {"operation": "test.steps", "args": {"steps": 4}}, progress_callback=on_progress
        )
        assert result_json(result) == {"done": 4}
        assert result.structured_content == {"done": 4}
        assert seen == [(i, 4, f"step {i}/4") for i in range(1, 5)]
        # Without a token the operation runs the same and nothing is sent.
        plain = await client.call_tool("manage_websets", {"operation": "test.steps", "args": {"steps": 2}})
        assert result_json(plain) == {"done": 2} and len(seen) == 4


async def test_tool_enum_follows_the_registry() -> None:
    server = build_server(_app())
    async with Client(server, mode="legacy") as client:
        listed = await client.list_tools()
        enum = listed.tools[0].input_schema["properties"]["operation"]["enum"]
        assert enum == [
            "list_operations",
            "test.crash",
            "test.exa400",
            "test.list",
            "test.sloppy",
            "test.steps",
        ]
        listed_ops = result_json(
            await client.call_tool(
                "manage_websets", {"operation": "list_operations", "args": {"namesOnly": True}}
            )
        )
        assert {o["name"] for o in listed_ops["operations"]} == set(enum)


async def test_json_encoded_args_are_accepted() -> None:
    server = build_server(_app())
    async with Client(server, mode="legacy") as client:
        result = await client.call_tool("manage_websets", {"operation": "test.steps", "args": '{"steps": 1}'})
        assert result_json(result) == {"done": 1}
        bad = await client.call_tool("manage_websets", {"operation": "test.steps", "args": "steps=1"})
        assert bad.is_error and result_json(bad)["fields"] == ["args"]
