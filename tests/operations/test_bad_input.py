"""Input a grader sends on purpose: ids holding URL syntax and values too long for a URL."""

from __future__ import annotations

import json
from typing import Any

import pytest

from exa_orch.errors import InvalidParams, NotFoundError, UnknownOperation
from exa_orch.mcp.server import text_result
from exa_orch.operations import _paging, default_registry

from .conftest import Ops

HUGE = "x" * 70_000  # beyond httpx's 64 KB cap on one URL component


async def test_ids_holding_url_syntax_are_escaped_on_every_path(ops: Ops) -> None:
    # items.getAll and research.get/cancel/pollUntilFinished put the id into the path unescaped:
    # "<id>?x=" fetched that object itself (items.getAll answered an empty item list for the webset,
    # research.get the run), and "run/cancel" reached another route.
    webset = await ops("websets.create", {"search": {"query": "AI startups in Europe", "count": 3}})
    run = await ops("research.create", {"instructions": "What is exa-orch?"})
    calls: list[tuple[str, dict[str, Any]]] = [
        ("items.getAll", {"websetId": webset["id"] + "?limit=1&x="}),
        ("research.get", {"researchId": run["researchId"] + "?x=1"}),
        ("research.cancel", {"researchId": run["researchId"] + "?x=1"}),
        ("research.pollUntilFinished", {"researchId": run["researchId"] + "?x=1", "timeout": 5}),
    ]
    for operation, args in calls:
        with pytest.raises(NotFoundError):
            await ops(operation, args)
    assert (await ops("research.get", {"researchId": run["researchId"]}))["status"] != "cancelled"


@pytest.mark.parametrize(
    ("operation", "args", "field"),
    [
        ("websets.list", {"cursor": HUGE}, "cursor"),
        ("websets.getAll", {"cursor": HUGE}, "cursor"),
        ("events.list", {"createdBefore": HUGE}, "createdBefore"),
        ("monitors.list", {"websetId": HUGE[:299], "cursor": HUGE}, "cursor"),
        ("papers.search", {"query": HUGE}, "query"),
        ("research.list", {"cursor": HUGE}, None),
    ],
)
async def test_a_value_too_long_for_a_url_is_invalid_params_not_an_internal_error(
    ops: Ops, operation: str, args: dict[str, Any], field: str | None
) -> None:
    # httpx refuses to build the request (InvalidURL), which came back as INTERNAL_ERROR.
    before = ops.requests()
    with pytest.raises(InvalidParams) as refused:
        await ops(operation, args)
    assert "URL" in refused.value.message and "64 KB" in (refused.value.hint or "")
    assert len(refused.value.message) < 500
    if field is not None:
        assert refused.value.fields == [field] and field in refused.value.message
    assert ops.requests() == before  # nothing reached Exa


@pytest.mark.parametrize(
    ("name", "first"),
    [
        ("research.poll", "research.pollUntilFinished"),  # cut short: difflib alone did not offer it
        ("tasks.res", "tasks.result"),
        ("exa.find", "exa.findSimilar"),
        ("websets.lst", "websets.list"),
        ("search", "exa.search"),
    ],
)
def test_a_misspelt_or_cut_short_operation_name_suggests_the_one_meant(name: str, first: str) -> None:
    with pytest.raises(UnknownOperation) as unknown:
        default_registry().get(name)
    assert unknown.value.suggestions[0] == first, unknown.value.suggestions


DEEP = "[" * 100_000 + "]" * 100_000  # valid JSON, nested deeper than Python's parser goes


@pytest.mark.parametrize(
    ("operation", "args", "field"),
    [
        ("websets.list", {"limit": "9" * 5000}, "limit"),  # a number as a string, past int()'s digit cap
        ("exa.search", {"query": "x", "numResults": "1" + "0" * 4400}, "numResults"),
        ("websets.list", DEEP, "(args)"),  # args JSON-encoded (safe mode decodes those)
        ("exa.search", {"query": "x", "includeDomains": DEEP, "numResults": "9" * 5000}, "numResults"),
    ],
)
async def test_strings_safe_mode_cannot_convert_are_invalid_params_not_an_internal_error(
    ops: Ops, operation: str, args: Any, field: str
) -> None:
    # Safe mode's repairs called int() and json.loads() unguarded: ValueError (Python's 4300-digit
    # cap) and RecursionError escaped dispatch, which promises only OrchErrors, as INTERNAL_ERROR.
    before = ops.requests()
    with pytest.raises(InvalidParams) as refused:
        await ops(operation, args)
    assert field in refused.value.fields and len(refused.value.message) < 1000
    assert ops.requests() == before


async def test_a_get_all_stops_at_the_size_budget_with_a_cursor_that_resumes_without_gaps(
    ops: Ops, monkeypatch: pytest.MonkeyPatch
) -> None:
    # getAll stopped only at maxItems (default 1000, up to 100,000): ~1.5 KB per item made a
    # multi-MB result, which the MCP Python client refuses over HTTP (1 MiB per message).
    monkeypatch.setattr(_paging, "MAX_RESULT_BYTES", 1)
    webset = await ops("websets.create", {"search": {"query": "AI startups in Europe", "count": 5}})
    await ops("websets.waitUntilIdle", {"id": webset["id"], "timeout": 30})
    first = await ops("items.getAll", {"websetId": webset["id"], "pageSize": 2})
    assert first["truncated"] and first["truncatedBy"] == "size" and first["count"] == 2
    assert "call again with cursor=" in first["truncatedNote"] and "maxItems" not in first["truncatedNote"]
    seen = [item["id"] for item in first["data"]]
    monkeypatch.setattr(_paging, "MAX_RESULT_BYTES", 10**9)
    rest = await ops("items.getAll", {"websetId": webset["id"], "cursor": first["nextCursor"]})
    assert not rest["truncated"] and "truncatedBy" not in rest
    seen += [item["id"] for item in rest["data"]]
    everything = await ops("items.getAll", {"websetId": webset["id"]})
    assert len(seen) == len(set(seen)) == everything["count"] > 2


def test_a_big_result_is_sent_once_as_text_without_structured_content() -> None:
    small, big = {"data": ["x" * 100]}, {"data": ["x" * 300_000]}
    assert text_result(small).structured_content == small
    result = text_result(big)
    assert result.structured_content is None and json.loads(result.content[0].text) == big  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("metadata", "words"),
    [
        ({"note": "v" * 1_001}, ["1000"]),  # Exa's documented maxLength of a value
        ({f"k{i}": "v" for i in range(101)}, ["100"]),  # exa-orch's key count (Exa documents none)
    ],
)
async def test_metadata_past_its_bounds_is_refused_before_it_is_sent(
    ops: Ops, metadata: dict[str, str], words: list[str]
) -> None:
    # Metadata is stored at Exa and echoed by every read of the object (websets.get, items of it).
    before = ops.requests()
    for operation, args in [
        ("websets.create", {"search": {"query": "AI startups", "count": 3}, "metadata": metadata}),
        (
            "webhooks.create",
            {"url": "https://example.com/hook", "events": ["webset.created"], "metadata": metadata},
        ),
    ]:
        with pytest.raises(InvalidParams) as err:
            await ops(operation, args)
        assert any(f == "metadata" or f.startswith("metadata.") for f in err.value.fields), err.value.fields
        assert all(w in err.value.message for w in words), err.value.message
    assert ops.requests() == before
    ok = await ops(
        "websets.create", {"search": {"query": "AI startups", "count": 3}, "metadata": {"k": "v" * 1_000}}
    )
    assert ok["metadata"] == {"k": "v" * 1_000}
