"""Seed 001's preserved validations, safe vs strict repairs on real operations, and preview."""

from __future__ import annotations

from typing import Any

import pytest

from exa_orch.errors import ErrorCode, InvalidParams
from exa_orch.operations import OpContext, default_registry, dispatch
from exa_orch.operations.shapes import (
    CRON_FIELDS,
    ENRICHMENT_OPTIONS_REQUIRED,
    ENRICHMENT_OPTIONS_TOO_MANY,
    SEARCH_COMMON_ISSUES,
)

from .conftest import Ops

REGISTRY = default_registry()
NO_GATEWAY = OpContext(gateway=None)


async def call(name: str, args: dict[str, Any], **kw: Any) -> Any:
    return await dispatch(REGISTRY, name, args, NO_GATEWAY, **kw)


def test_message_constants_are_the_documented_texts() -> None:
    assert ENRICHMENT_OPTIONS_REQUIRED == (
        'options: an options array is required when format is \'options\' (1 to 150 items, each {"label": "..."})'
    )
    assert ENRICHMENT_OPTIONS_TOO_MANY.format(count=151) == (
        "options: at most 150 options are allowed when format is 'options', got 151"
    )
    assert CRON_FIELDS.format(count=4, cron="0 9 * *") == (
        "cadence.cron: the cron expression must have exactly 5 fields (minute hour day-of-month month "
        "day-of-week), got 4 in '0 9 * *'; e.g. '0 9 * * 1' runs Mondays at 09:00"
    )
    assert SEARCH_COMMON_ISSUES.startswith("Common issues: ")


async def test_enrichment_options_required_when_format_is_options() -> None:
    with pytest.raises(InvalidParams) as err:
        await call("enrichments.create", {"websetId": "ws_1", "description": "stage", "format": "options"})
    assert ENRICHMENT_OPTIONS_REQUIRED in err.value.message
    assert err.value.code == ErrorCode.INVALID_PARAMS


async def test_enrichment_options_at_most_150() -> None:
    options = [{"label": f"o{i}"} for i in range(151)]
    with pytest.raises(InvalidParams) as err:
        await call(
            "enrichments.create",
            {"websetId": "w", "description": "d", "format": "options", "options": options},
        )
    assert ENRICHMENT_OPTIONS_TOO_MANY.format(count=151) in err.value.message
    ok = await call("enrichments.create", {"websetId": "w", "description": "d", "format": "options",
                                           "options": options[:150], "preview": True})  # fmt: skip
    assert len(ok["request"]["body"]["options"]) == 150


async def test_enrichment_validation_holds_inside_websets_create() -> None:
    with pytest.raises(InvalidParams) as err:
        await call("websets.create", {"enrichments": [{"description": "d", "format": "options"}]})
    assert f"enrichments[0]: {ENRICHMENT_OPTIONS_REQUIRED}" in err.value.message
    assert err.value.fields == ["enrichments[0]"]


async def test_enrichment_update_caps_options_too() -> None:
    with pytest.raises(InvalidParams) as err:
        await call("enrichments.update", {"websetId": "w", "enrichmentId": "e", "format": "options",
                                          "options": [{"label": str(i)} for i in range(200)]})  # fmt: skip
    assert ENRICHMENT_OPTIONS_TOO_MANY.format(count=200) in err.value.message


@pytest.mark.parametrize("cron", ["0 9 * *", "0 9 * * 1 2026", "daily"])
async def test_monitor_cron_needs_exactly_five_fields(cron: str) -> None:
    args = {
        "websetId": "w",
        "cadence": {"cron": cron},
        "behavior": {"type": "search", "config": {"count": 5}},
    }
    with pytest.raises(InvalidParams) as err:
        await call("monitors.create", args)
    assert CRON_FIELDS.format(count=len(cron.split()), cron=cron) in err.value.message
    with pytest.raises(InvalidParams):
        await call("monitors.update", {"id": "m", "cadence": {"cron": cron}})


async def test_searches_create_errors_carry_common_issues() -> None:
    with pytest.raises(InvalidParams) as err:
        await call("searches.create", {"websetId": "w", "query": "", "count": 0})
    assert set(err.value.fields) == {"query", "count"}
    assert SEARCH_COMMON_ISSUES in (err.value.hint or "")


async def test_safe_mode_repairs_real_operation_args() -> None:
    out = await call("searches.create", {"websetId": "w", "query": "AI startups", "count": "10",
                                         "criteria": ["based in Europe", "raised a Series A"],
                                         "entity": "company", "recall": "false", "preview": True})  # fmt: skip
    body = out["request"]["body"]
    assert body == {
        "query": "AI startups",
        "count": 10,
        "criteria": [{"description": "based in Europe"}, {"description": "raised a Series A"}],
        "entity": {"type": "company"},
        "recall": False,
    }
    assert out["request"]["path"] == "/websets/v0/websets/w/searches"
    assert {c["field"] for c in out["normalized"]} == {
        "count",
        "criteria[0]",
        "criteria[1]",
        "entity",
        "recall",
    }


async def test_strict_mode_refuses_the_same_args() -> None:
    with pytest.raises(InvalidParams) as err:
        await call("searches.create", {"websetId": "w", "query": "q", "count": "10", "criteria": ["x"],
                                       "mode": "strict"})  # fmt: skip
    assert set(err.value.fields) == {"count", "criteria[0]"}
    with pytest.raises(InvalidParams):
        await call("websets.get", {"id": "w", "expand": "items"}, mode="strict")
    out = await call("websets.get", {"id": "w", "expand": "items", "preview": True})
    assert out["request"] == {
        "method": "GET",
        "path": "/websets/v0/websets/w",
        "query": {"expand": ["items"]},
    }


async def test_preview_never_calls_exa(ops: Ops) -> None:
    before = ops.sim.stats()["total_requests"]
    for name, args in [
        ("websets.create", {"search": {"query": "AI startups", "count": 5}, "externalId": "mine"}),
        ("exa.search", {"query": "x"}),
        ("research.create", {"instructions": "x"}),
        ("papers.search", {"query": "x"}),
        ("imports.create", {"entity": {"type": "company"}, "csv": "url\nhttps://a.com\nhttps://b.com"}),
        ("webhooks.delete", {"id": "wh 1?2"}),
    ]:
        out = await ops(name, {**args, "preview": "true"})
        assert out["preview"] is True and out["operation"] == name
    assert ops.sim.stats()["total_requests"] == before
    imp = await ops(
        "imports.create", {"entity": {"type": "company"}, "csv": "url\nhttps://a.com\n", "preview": True}
    )
    assert (
        imp["request"]["body"]["size"] == len(b"url\nhttps://a.com\n")
        and imp["request"]["body"]["count"] == 1
    )
    wh = await ops("webhooks.delete", {"id": "wh 1?2", "preview": True})
    assert wh["request"]["path"] == "/websets/v0/webhooks/wh%201%3F2"


async def test_import_without_csv_needs_size_and_count() -> None:
    with pytest.raises(InvalidParams) as err:
        await call("imports.create", {"entity": {"type": "company"}, "preview": True})
    assert set(err.value.fields) == {"size", "count"}


async def test_messages_say_what_was_expected() -> None:
    with pytest.raises(InvalidParams) as err:
        await call("exa.search", {"type": "x", "numResults": "many"})
    message = err.value.message
    assert "query: required field is missing (expected string)" in message
    assert "type: input should be 'neural'" in message and 'got "x"' in message
    assert "numResults" in message and "integer" in message
    assert set(err.value.fields) == {"query", "type", "numResults"}


async def test_an_option_label_past_1000_characters_is_refused_before_any_request() -> None:
    """Exa documents no bound; each item answering the enrichment repeats the label, and a 1 MB label
    stalled a server for minutes (audit): exa-orch refuses past shapes.MAX_OPTION_CHARS."""
    long = {
        "websetId": "ws_1",
        "description": "stage",
        "format": "options",
        "options": [{"label": "x" * 1001}],
    }
    with pytest.raises(InvalidParams) as err:
        await call("enrichments.create", long)
    assert err.value.fields == ["options[0].label"], err.value.fields
    assert "1000" in err.value.message
