"""tasks.result of each workflow, run on the simulator: paging loses nothing, pages stay small.

Following every cursor of a finished task's result with fields ['all'] and putting each item back
where its `at` says rebuilds the stored result exactly; at default fields each item is the compact
projection of the stored one; tasks.get / tasks.list stay small while the stored row stays whole.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from bench.context import WORKFLOWS
from exa_orch.app import App
from exa_orch.errors import InvalidParams
from exa_orch.operations.task_views import project, reassemble
from tests.support import WAIT, bound
from tests.workflows.conftest import OpenApp, run_task

SMALLER: dict[str, dict[str, Any]] = {  # the bench's args, fewer items so the test runs fast
    "qd.winnow": {"count": 6},
    "lifecycle.harvest": {"count": 12},
    "convergent.search": {"count": 8},
    "adversarial.verify": {"count": 8},
    "research.verifiedCollection": {"count": 6, "researchLimit": 3},
}


async def pages(app: App, task_id: str, **args: Any) -> tuple[dict[str, Any], list[dict[str, Any]], int]:
    """(first page, every item of every page, number of pages) of tasks.result."""
    first = page = await app.run_operation("tasks.result", {"taskId": task_id, **args})
    items, count = list(page["items"]), 1
    while page["nextCursor"]:
        page = await app.run_operation(
            "tasks.result", {"taskId": task_id, **args, "cursor": page["nextCursor"]}
        )
        assert "summary" not in page  # the summary comes once, with the first page
        items += page["items"]
        count += 1
    return first, items, count


def element(result: Any, at: str) -> Any:
    """The element of `result` at the dot-separated path `at`."""
    for key in at.split("."):
        result = result[int(key)] if key.isdigit() else result[key]
    return result


@pytest.mark.parametrize("task_type", list(WORKFLOWS))
async def test_following_every_cursor_yields_the_full_result(research_app: OpenApp, task_type: str) -> None:
    async with research_app() as app:
        done = await run_task(
            app, task_type, {**WORKFLOWS[task_type], **SMALLER.get(task_type, {})}, within=bound(120)
        )
        assert done.status == "completed", done.error
        full = await app.run_operation("tasks.result", {"taskId": done.id, "full": True})
        assert full["result"] == done.result  # full: true is the stored result, unchanged
        if task_type == "research.deep":  # nothing to page: the result comes whole
            whole = await app.run_operation("tasks.result", {"taskId": done.id})
            assert whole["result"] == done.result and "items" not in whole
            return
        first, items, count = await pages(app, done.id, fields=["all"], limit=3)
        assert count > 1 and first["page"]["total"] == len(items)
        assert reassemble(first["summary"], items) == done.result
        compact_first, compact, _ = await pages(app, done.id)
        assert [e["at"] for e in compact] == [e["at"] for e in items]
        for entry in compact:
            if "sameAs" in entry:  # a repeat points at the first place the same element was shown
                assert entry["sameAs"] != entry["at"]
                assert element(done.result, entry["sameAs"]) == element(done.result, entry["at"])
                continue
            assert {k: v for k, v in entry.items() if k != "at"} == project(
                element(done.result, entry["at"]), None
            )
        if task_type == "adversarial.verify":  # the synthesis's citations page too, after the items
            assert compact_first["summary"]["synthesis"]["citations"] == {
                "paged": len(done.result["synthesis"]["citations"])
            }
        assert len(json.dumps(compact_first)) <= 16_000
        assert len(json.dumps(compact_first)) < len(json.dumps(full))
        row = await app.store.get_task(done.id)
        assert row.result == done.result  # the stored row stays complete


async def test_compact_items_carry_verdicts_and_values_and_fields_add_the_rest(research_app: OpenApp) -> None:
    async with research_app() as app:
        done = await run_task(
            app, "lifecycle.harvest", {**WORKFLOWS["lifecycle.harvest"], "count": 4}, within=WAIT
        )
        assert done.status == "completed", done.error
        compact = (await app.run_operation("tasks.result", {"taskId": done.id}))["items"][0]
        asked = await app.run_operation("tasks.result", {"taskId": done.id, "fields": ["reasoning"]})
        reasons = asked["items"][0]
        with pytest.raises(InvalidParams) as bad:
            await app.run_operation("tasks.result", {"taskId": done.id, "fields": ["colour"]})
        assert bad.value.fields and bad.value.fields[0].startswith("fields")
    stored = done.result["items"][0]
    assert set(compact) == {"at", "id", "name", "url", "criteria", "enrichments"}
    assert compact["criteria"] == {e["criterion"]: e["satisfied"] for e in stored["evaluations"]}
    assert compact["enrichments"] == {r["enrichmentId"]: r["result"] for r in stored["enrichments"]}
    assert "reasoning" not in json.dumps(compact)
    assert reasons["evaluations"] == stored["evaluations"]
    assert reasons["enrichmentResults"] == stored["enrichments"]
