"""stdio answers every request line it can read an id from (the README's promise), and only those.

The SDK reads a request whose id is null, a bool, a float, an object or an array as a notification
and never answers it; a request nested 1,000+ levels deep broke Python's parser and lost its id.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from exa_orch.mcp.transport import _read_line

from .rawstdio import RawStdio


def deep(levels: int) -> str:
    return "[" * levels + "]" * levels


@pytest.mark.parametrize("rid", ["null", "true", "false", "{}", "[]", "1.5", '{"a":1}'])
def test_a_request_with_an_unusable_id_is_answered_with_id_null(rid: str) -> None:
    message, errors = _read_line(f'{{"jsonrpc":"2.0","id":{rid},"method":"ping"}}')
    assert message is None and len(errors) == 1
    assert errors[0].id is None and errors[0].error.code == -32600 and "'id'" in errors[0].error.message


@pytest.mark.parametrize("before", [True, False])
def test_a_request_nested_past_the_parser_keeps_its_id(before: bool) -> None:
    params = f'"params":{{"a":{deep(1500)},"s":"}}\\"id\\":9"}}'
    line = '{"jsonrpc":"2.0",' + ('"id":"r7",' if before else "") + '"method":"tools/call",' + params
    line += "}" if before else ',"id":"r7"}'
    message, errors = _read_line(line)
    assert message is None and [(e.id, e.error.code) for e in errors] == [("r7", -32600)]
    assert "deep" in errors[0].error.message


def test_notifications_stay_unanswered_however_they_look() -> None:
    for line in [
        '{"jsonrpc":"2.0","method":"notifications/initialized"}',
        '{"jsonrpc":"2.0","method":"notifications/x","params":{"id":1}}',
        '{"jsonrpc":"2.0","method":"notifications/x","params":{"a":' + deep(1500) + "}}",
    ]:
        message, errors = _read_line(line)
        assert errors == [], line[:60]


@pytest.mark.slow
def test_every_request_line_with_an_id_gets_an_answer_over_stdio(sim_url: str, tmp_path: Path) -> None:
    with RawStdio(sim_url, tmp_path) as raw:
        raw.initialize(0)
        for rid in ("null", "true", "{}", "[]", "1.5"):
            got: dict[str, Any] = raw.ask(
                f'{{"jsonrpc":"2.0","id":{rid},"method":"ping"}}'.encode(), rid=None
            )
            assert got["error"]["code"] == -32600, got
        nested = json.dumps({"jsonrpc": "2.0", "id": 5, "method": "ping"})[:-1] + ',"params":{"a":'
        got = raw.ask((nested + deep(1200) + "}}").encode(), rid=5)
        assert got["error"]["code"] == -32600, got
        assert raw.ask({"jsonrpc": "2.0", "id": 6, "method": "ping"}) == {
            "jsonrpc": "2.0",
            "id": 6,
            "result": {},
        }
        assert raw.close() == 0
        assert raw.others == []  # nothing came that no request asked for
