"""Property: any JSON sent as args yields a result or an OrchError naming what was wrong, never a crash."""

from __future__ import annotations

import asyncio
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exa_orch.errors import InvalidParams, OrchError
from exa_orch.operations import OpContext, default_registry, dispatch

REGISTRY = default_registry()
NAMES = REGISTRY.names()
FIELDS = sorted({key for op in REGISTRY for key in op.args_schema().get("properties", {})})

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=12)
    | st.sampled_from(["true", "false", "5", "[1]", '{"a": 1}', "company", ""]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8) | st.sampled_from(FIELDS),
                                                                  inner, max_size=3),
    max_leaves=12,
)  # fmt: skip
args_strategy = st.dictionaries(st.sampled_from(FIELDS) | st.text(max_size=10), json_values, max_size=6)


async def _call(name: str, args: Any, mode: str) -> Any:
    return await dispatch(REGISTRY, name, args, OpContext(gateway=None), mode=mode)  # type: ignore[arg-type]


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(NAMES), args=args_strategy, mode=st.sampled_from(["safe", "strict"]))
def test_malformed_args_never_crash_the_dispatcher(name: str, args: dict[str, Any], mode: str) -> None:
    args = {**args, "preview": True}
    try:
        out = asyncio.run(_call(name, args, mode))
    except InvalidParams as exc:
        assert exc.message and (exc.fields or "mode" in exc.message or "must" in exc.message), exc.message
        assert "list_operations" in (exc.hint or "") or exc.fields, exc.to_dict()
    except OrchError as exc:
        assert exc.message
    else:
        assert out["preview"] is True and out["operation"] == name


@settings(max_examples=100, deadline=None)
@given(args=json_values)
def test_args_of_any_json_type_are_handled(args: Any) -> None:
    try:
        asyncio.run(_call("websets.get", args, "safe"))
    except OrchError as exc:
        assert exc.message
