"""scripts/conformance.sh --tasks fails on any failure: the harness's verdict on one scenario's run
(issue 26: the script once printed "failed scenarios" and exited 0)."""

from __future__ import annotations

from tests.mcp.tasks_conformance import verdict

PASSED = "[\x1b[90mtasks-get\x1b[0m] \x1b[32mSUCCESS\x1b[0m tasks/get answers\n"
FAILED = "[tasks-cancel] FAILURE cancel of a finished task\n"
MRTR = "[tasks-result-type-complete-on-non-task-responses] FAILURE needs input fixtures\n"


def test_a_scenario_passes_only_when_its_checks_pass_and_it_exits_0() -> None:
    assert verdict("tasks-get", PASSED, 0) == (1, [])
    assert verdict("tasks-get", PASSED + FAILED, 1) == (1, ["tasks-get: tasks-cancel FAILURE"])
    assert verdict("tasks-x", PASSED + MRTR, 1) == (1, [])  # the checks this harness can't serve


def test_a_run_that_printed_no_check_or_crashed_fails() -> None:
    assert verdict("tasks-get", "", 0) == (0, ["tasks-get: ran no check (exit 0)"])
    assert verdict("tasks-get", "Error: unknown scenario\n", 1)[1] == ["tasks-get: ran no check (exit 1)"]
    assert verdict("tasks-get", PASSED + "TypeError: boom\n", 1)[1] == [
        "tasks-get: exited 1 with every check passed"
    ]
