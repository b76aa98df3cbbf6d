"""bench/context.py as a CI check: the scripted agent session keeps issue 13's limits."""

from __future__ import annotations

from bench.context import (
    LIST_OPERATIONS_MAX,
    MIN_RATIO,
    RESULT_PAGE_MAX,
    TASKS_GET_MAX,
    TASKS_LIST_PER_TASK_MAX,
    WORKFLOWS,
    measure,
    render,
)


async def test_the_scripted_session_keeps_every_answer_within_its_limit() -> None:
    report = await measure(speed=100.0)
    sizes = dict(report.default.calls)
    assert report.misses() == [], render(report)
    assert sizes["list_operations"] <= LIST_OPERATIONS_MAX
    assert sizes["tasks.list"] <= TASKS_LIST_PER_TASK_MAX * len(WORKFLOWS)
    for type_ in WORKFLOWS:
        assert sizes[f"tasks.get {type_}"] <= TASKS_GET_MAX
        assert sizes[f"tasks.result {type_}"] <= RESULT_PAGE_MAX
    # The full answers are measured in the same run: the default session is much smaller.
    assert report.full.total >= MIN_RATIO * report.default.total, render(report)
    assert dict(report.full.calls)["list_operations"] > 10 * sizes["list_operations"]
