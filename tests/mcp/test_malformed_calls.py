"""1,000 malformed manage_websets calls over one stdio session: each is an isError result that
names what was wrong, and the server still answers ping afterwards."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from anyio.from_thread import start_blocking_portal
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp import Client
from mcp.client.stdio import stdio_client

from tests.mcp.conftest import result_json, serve_params
from tests.support import WAIT

pytestmark = pytest.mark.slow

KNOWN_FIELDS = ("operation", "args")

# JSON junk, nested and sometimes large. No infinities: JSON has none, and the client sends one
# as null, which is a valid "no args". A dozen leaves at most: drawing the junk was most of this
# test's time (40 leaves: ~45 ms an example, against ~20 ms for the call), and what a case must
# name never lies deeper than the top level; `huge` makes the large ones.
json_leaf = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=50)
)
junk = st.recursive(
    json_leaf,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=12,
)
junk_object = st.dictionaries(st.text(max_size=10), junk, max_size=5)
huge = st.integers(min_value=10_000, max_value=200_000).map(lambda n: "x" * n)
# JSON strings are not here: safe mode decodes a JSON-encoded object, so "{}" may be valid args.
not_object = (
    st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.lists(junk, max_size=4)
)
not_string = (
    st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.booleans()
    | st.lists(junk, max_size=3)
    | st.dictionaries(st.text(max_size=5), junk, max_size=3)
)


def _cases(names: list[str], required: dict[str, list[str]], string_fields: dict[str, list[str]]) -> Any:
    """A strategy of (kind, arguments, what the error must name)."""
    unknown_op = (st.text(max_size=40) | huge).filter(lambda s: s not in names)
    with_required = sorted(required)
    with_strings = sorted(string_fields)
    strategies = [
        # a random operation string that is not registered
        st.builds(
            lambda op, a: ("unknown-op", {"operation": op, "args": a}, op[:60]), unknown_op, junk_object
        ),
        # operation of the wrong type
        st.builds(lambda op: ("op-type", {"operation": op}, "operation"), not_string),
        # no operation at all, maybe junk beside it
        st.builds(lambda a: ("no-op", {"args": a}, "operation"), junk),
        # a real operation with args that are not an object
        st.builds(
            lambda op, a: ("args-type", {"operation": op, "args": a}, "args"),
            st.sampled_from(names),
            not_object,
        ),
        # junk beside operation/args at the top level
        st.builds(
            lambda op, k, v: ("extra-key", {"operation": op, "args": {}, k: v}, k[:40]),
            st.sampled_from(names),
            st.text(min_size=1, max_size=20).filter(lambda k: k not in (*KNOWN_FIELDS, "params")),
            junk,
        ),
        # a real operation missing its required fields
        st.builds(
            lambda op: ("missing", {"operation": op, "args": {}}, required[op][0]),
            st.sampled_from(with_required),
        ),
        # a string field given an object or a list (no safe-mode fix turns those into a string)
        st.builds(
            lambda op, i, bad: (
                "field-type",
                {"operation": op, "args": {string_fields[op][i % len(string_fields[op])]: bad}},
                string_fields[op][i % len(string_fields[op])],
            ),
            st.sampled_from(with_strings),
            st.integers(min_value=0, max_value=20),
            st.dictionaries(st.text(max_size=5), junk, min_size=1, max_size=3)
            | st.lists(junk, min_size=2, max_size=3),
        ),
    ]
    return st.one_of(*strategies)


def _schema_facts(operations: list[dict[str, Any]]) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    required: dict[str, list[str]] = {}
    strings: dict[str, list[str]] = {}
    for op in operations:
        schema = op["argsSchema"]
        if schema.get("required"):
            required[op["name"]] = list(schema["required"])
        props = schema.get("properties", {})
        plain = [
            name
            for name, prop in props.items()
            if prop.get("type") == "string" and name not in ("mode",) and "enum" not in prop
        ]
        if plain:
            strings[op["name"]] = plain
    return required, strings


def test_thousand_malformed_calls_get_is_error_naming_the_problem(sim_url: str, tmp_path: Path) -> None:
    params = serve_params(sim_url, tmp_path / "workflows.db")
    with (tmp_path / "stderr.log").open("w") as errlog, start_blocking_portal() as portal:
        client_cm = Client(stdio_client(params, errlog=errlog), mode="legacy", read_timeout_seconds=WAIT)  # type: ignore[arg-type]
        with portal.wrap_async_context_manager(client_cm) as client:

            def call(arguments: dict[str, Any]) -> Any:
                return portal.call(client.call_tool, "manage_websets", arguments)

            listed = result_json(call({"operation": "list_operations", "args": {"schemas": True}}))[
                "operations"
            ]
            names = [op["name"] for op in listed]
            required, strings = _schema_facts(listed)
            assert required and strings
            seen: dict[str, int] = {}

            @settings(
                max_examples=1000,
                deadline=None,
                database=None,
                suppress_health_check=list(HealthCheck),
            )
            @given(_cases(names, required, strings))
            def check(case: tuple[str, dict[str, Any], str]) -> None:
                kind, arguments, must_name = case
                seen[kind] = seen.get(kind, 0) + 1
                result = call(arguments)
                assert result.is_error, (kind, arguments)
                body = result_json(result)
                assert set(body) >= {"code", "message", "operation"}, body
                assert body["code"] in ("INVALID_PARAMS", "UNKNOWN_OPERATION"), body
                if kind == "unknown-op":
                    assert body["code"] == "UNKNOWN_OPERATION", body
                    assert body["message"].startswith("unknown operation"), body
                    assert body["operation"] == arguments["operation"][:100], body
                    return
                named = "\n".join([body["message"], *map(str, body.get("fields", []))])
                assert must_name in named, (kind, must_name, body)

            check()
            assert sum(seen.values()) >= 1000 * 0.9
            assert len(seen) == 7, seen
            portal.call(client.session.send_ping)
            again = result_json(call({"operation": "list_operations", "args": {"namesOnly": True}}))
            assert again["count"] == len(names)
