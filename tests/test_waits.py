"""No test waits under a fixed number of seconds: every bound is tests/support.py's WAIT or
bound(...), which scale with EXA_ORCH_TEST_SLOWDOWN (CONTRIBUTING.md, Tests).

A bound written as a number (`timeout=15`, `within=10`, `asyncio.timeout(5)`, ...) is what failed
on a slow 2-core machine (issue 20): this scan finds one in any test file, new ones included. A
number under 5 s is taken for an input of the code under test (a call's own timeout, a poll
interval, an expected expiry), not a bound of a wait, and is left alone.
"""

from __future__ import annotations

import re
from pathlib import Path

TESTS = Path(__file__).resolve().parent
NUMBER = r"(?P<n>\d[\d_]*(?:\.\d+)?)"
# Each form a wait's bound takes in this suite, with the number of seconds in group `n`.
FIXED_BOUNDS = [
    re.compile(r"(?<![\w.])timeout=" + NUMBER + r"(?![\d.])"),  # .wait(), subprocess, httpx, ...
    re.compile(r"\bwithin=" + NUMBER),
    re.compile(r"\basyncio\.timeout\(" + NUMBER + r"\)"),
    re.compile(r"\banyio\.(?:fail|move_on)_after\(" + NUMBER + r"\)"),
    re.compile(r"\basyncio\.wait_for\([^\n]*, " + NUMBER + r"\)"),
    re.compile(r"time\.monotonic\(\) \+ " + NUMBER),
    re.compile(r"\bread_timeout_seconds=" + NUMBER),
    re.compile(r"\bdeadline_s: float = " + NUMBER),
]


def fixed_bounds(text: str) -> list[str]:
    """The fixed bounds of at least 5 s in `text` (Playwright's are in ms: 5,000 and up)."""
    found = []
    for pattern in FIXED_BOUNDS:
        for match in pattern.finditer(text):
            seconds = float(match.group("n").replace("_", ""))
            if seconds >= 5:
                line = text.count("\n", 0, match.start()) + 1
                found.append(f"{line}: {match.group(0)}")
    return found


def test_no_test_waits_under_a_fixed_number_of_seconds() -> None:
    offenders = {
        str(path.relative_to(TESTS.parent)): hits
        for path in sorted(TESTS.rglob("*.py"))
        if path.name != "test_waits.py" and (hits := fixed_bounds(path.read_text()))
    }
    assert offenders == {}, (
        "write timeout=WAIT / within=WAIT / asyncio.timeout(WAIT) (or bound(seconds) for a whole "
        f"long run) from tests/support.py instead: {offenders}"
    )


def test_the_scan_finds_each_form_and_leaves_inputs_alone() -> None:
    assert len(fixed_bounds("await sup.tasks.wait(t, timeout=30)\nproc.wait(timeout=60)")) == 2
    assert fixed_bounds("async with asyncio.timeout(10):\nwith anyio.fail_after(20):") != []
    assert fixed_bounds("await until(ready, within=15)\ndeadline = time.monotonic() + 30\n") != []
    assert fixed_bounds("await page.wait_for_selector('#x', timeout=15_000)") != []
    # Inputs of the code under test, and the scaled bounds themselves, are fine.
    assert fixed_bounds("Gateway(s, timeout=0.1)\nclient.wait_task(t, timeout=0.5, poll=0.2)") == []
    assert fixed_bounds("tasks.wait(t, timeout=WAIT)\nsubprocess.run(a, timeout=bound(600))") == []
    assert fixed_bounds("psycopg.connect(url, connect_timeout=10)") == []
