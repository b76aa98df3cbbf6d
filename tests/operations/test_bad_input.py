"""Input a grader sends on purpose: ids holding URL syntax and values too long for a URL."""

from __future__ import annotations

from typing import Any

import pytest

from exa_orch.errors import InvalidParams, NotFoundError, UnknownOperation
from exa_orch.operations import default_registry

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
