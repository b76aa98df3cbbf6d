"""Raw JSON-RPC a careless or hostile client sends to `exa-orch serve` over stdio: every request
gets an answer that says what was wrong, and the server keeps serving."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from exa_orch.mcp.server import text_result
from exa_orch.mcp.tasks_wire import call_tool_result

from .rawstdio import RawStdio

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def raw(sim_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[RawStdio]:
    tmp = tmp_path_factory.mktemp("bad-input")
    with RawStdio(sim_url, tmp) as session:
        yield session
        assert session.ask({"jsonrpc": "2.0", "id": "last", "method": "ping"})["result"] == {}
        assert session.close() == 0
    assert "Traceback" not in (tmp / "stderr.log").read_text()


def _error(answer: dict[str, Any], rid: Any, code: int) -> str:
    assert answer["id"] == rid and answer["error"]["code"] == code, answer
    return str(answer["error"]["message"])


def test_requests_before_initialize_and_params_of_the_wrong_shape_say_what_to_fix(raw: RawStdio) -> None:
    # The SDK answered both with a bare -32602 "Invalid request parameters" (data ""), naming nothing:
    # a client could not tell "initialize first" from "your params are wrong", nor which param.
    early = _error(raw.ask({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}), 1, -32602)
    assert "not initialized" in early and "'initialize'" in early
    raw.initialize()
    call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call"}
    as_text = {"name": "manage_websets", "arguments": json.dumps({"operation": "list_operations"})}
    message = _error(raw.ask({**call, "params": as_text}), 2, -32602)
    assert "arguments" in message and "JSON object" in message
    message = _error(raw.ask({**call, "params": {"arguments": {}}}), 2, -32602)
    assert "name" in message and "required" in message.lower()
    deep = {
        "name": "manage_websets",
        "arguments": {"operation": "websets.list", "args": "[" * 50_000 + "]" * 50_000},
    }
    refused = raw.ask({**call, "params": deep})["result"]  # args JSON-encoded, too deep to decode
    assert refused["isError"] and refused["structuredContent"]["fields"] == ["args"], refused
    cursor = raw.ask({"jsonrpc": "2.0", "id": 3, "method": "tools/list", "params": {"cursor": 7}})
    assert "cursor" in _error(cursor, 3, -32602)
    assert cursor["error"]["data"]["code"] == "INVALID_PARAMS"


def test_lines_that_are_not_one_json_rpc_object_are_answered_not_dropped(raw: RawStdio) -> None:
    # The SDK drops these without a word; a client waiting on ids 9 and 10 of a batch (2025-03-26
    # clients send them) waited forever.
    for line in (b"{not json", b'{"jsonrpc":"2.0","id":8,"method":"ping"'):
        assert "Parse error" in _error(raw.ask(line), None, -32700)
    raw.send([{"jsonrpc": "2.0", "id": 9, "method": "ping"}, {"jsonrpc": "2.0", "id": 10, "method": "ping"}])
    for rid in (9, 10):
        assert "batches are not supported" in _error(raw.answer(rid), rid, -32600)
    assert "batches" in _error(raw.ask([]), None, -32600)
    assert "JSON object" in _error(raw.ask(b"42"), None, -32600)
    huge = b'{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"manage_websets","arguments":'
    huge += b'{"operation":"websets.list","args":{"limit":' + b"9" * 5000 + b"}}}}"
    assert "number out of range" in _error(
        raw.ask(huge, rid=12), 12, -32700
    )  # its id was lost to int()'s cap
    # A notification and a stray response stay unanswered: the next message is the ping's answer.
    raw.send({"jsonrpc": "2.0", "method": "notifications/whatever"})
    raw.send({"jsonrpc": "2.0", "id": 77, "result": {}})
    raw.send({"jsonrpc": "2.0", "id": 11, "method": "ping"})
    assert raw.read() == {"jsonrpc": "2.0", "id": 11, "result": {}}


def test_a_toolhost_operation_name_sent_to_manage_websets_names_the_operation_meant(raw: RawStdio) -> None:
    # Seed 000's names (create_webset, start_search, ...) got no suggestion at all from manage_websets.
    if not raw.initialized:
        raw.initialize()
    call = {"name": "manage_websets", "arguments": {"operation": "create_webset", "args": {}}}
    answer = raw.ask({"jsonrpc": "2.0", "id": 20, "method": "tools/call", "params": call})
    body = answer["result"]["structuredContent"]
    assert answer["result"]["isError"] and body["code"] == "UNKNOWN_OPERATION", body
    assert body["hint"].startswith("Did you mean 'websets.create'"), body


def test_a_lone_surrogate_in_a_json_encoded_arg_never_reaches_a_writer(raw: RawStdio) -> None:
    # Python's json.loads accepts "\ud800"; safe mode decoded such a string into the args, and the
    # preview echoing them killed the stdout writer: the server died mid-session. Sent on, the same
    # args were an INTERNAL_ERROR (httpx cannot encode them).
    if not raw.initialized:
        raw.initialize()
    args = {"query": "x", "preview": True, "includeDomains": '["\\ud800"]'}
    call = {"name": "manage_websets", "arguments": {"operation": "exa.search", "args": args}}
    answer = raw.ask({"jsonrpc": "2.0", "id": 30, "method": "tools/call", "params": call})["result"]
    assert not answer["isError"] and answer["structuredContent"]["args"]["includeDomains"] == ['["\\ud800"]']
    metadata = {"search": {"query": "x", "count": 1}, "metadata": '{"k": "\\ud800"}'}
    call = {"name": "manage_websets", "arguments": {"operation": "websets.create", "args": metadata}}
    answer = raw.ask({"jsonrpc": "2.0", "id": 31, "method": "tools/call", "params": call})["result"]
    assert answer["isError"] and answer["structuredContent"]["fields"] == ["metadata"], answer


def test_a_request_the_sdk_cannot_read_still_gets_an_answer(raw: RawStdio) -> None:
    # The SDK's stdio reader dropped any line failing its JSON-RPC validation without a word, so a
    # request with a readable id waited forever: args nested ~200 deep (the mcp client sends those;
    # its parser stops at about 200), a lone surrogate escape, params that are not an object.
    if not raw.initialized:
        raw.initialize()
    nested: Any = "bottom"
    for _ in range(220):
        nested = {"a": nested}
    deep = {"name": "manage_websets", "arguments": {"operation": "exa.search", "args": {"query": nested}}}
    lines = {
        40: json.dumps({"jsonrpc": "2.0", "id": 40, "method": "tools/call", "params": deep}).encode(),
        "forty-one": b'{"jsonrpc":"2.0","id":"forty-one","method":"tools/call","params":{"name":'
        b'"manage_websets","arguments":{"operation":"exa.search","args":{"query":"\\ud800"}}}}',
        42: b'{"jsonrpc":"2.0","id":42,"method":"ping","params":[1]}',
    }
    for rid, line in lines.items():
        answer = raw.ask(line, rid=rid)
        assert answer["error"]["code"] in (-32700, -32600), answer
    assert "params" in raw.ask(lines[42], rid=42)["error"]["message"]
    assert raw.ask({"jsonrpc": "2.0", "id": 0, "method": "ping"}) == {"jsonrpc": "2.0", "id": 0, "result": {}}


@pytest.mark.parametrize("value", [{"text": "caf\udce9 \ud800"}, "\ud83d alone"])
def test_a_result_holding_a_lone_surrogate_is_sent_escaped(value: Any) -> None:
    # Exa's crawled text can hold one; written as is, it kills the stdout writer (and the server).
    for result in (text_result(value).model_dump(by_alias=True, mode="json"), call_tool_result(value)):
        text = result["content"][0]["text"]
        text.encode("utf-8")
        assert json.loads(text) == value if isinstance(value, dict) else "\\ud83d alone" in text
        assert "structuredContent" not in {k for k, v in result.items() if v is not None}


def test_a_big_task_result_is_sent_once_as_text() -> None:
    # As for a plain call: text and structuredContent both carried it, doubling what the 1 MiB cap sees.
    big = {"data": ["x" * 300_000]}
    result = call_tool_result(big)
    assert "structuredContent" not in result and json.loads(result["content"][0]["text"]) == big
    assert call_tool_result({"a": 1})["structuredContent"] == {"a": 1}
