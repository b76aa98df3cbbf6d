"""The chaos suite's CI profile: a few mixed tasks, faults on every endpoint (creates included, some
after the object was made), a server SIGKILLed 1.5-3 s after both were up; nothing lost, failed or
duplicated. The kills are paced by the servers' own start-up (bench/chaos.py), so on a slow
machine the profile runs longer instead of failing; `--limit` is only the bound of a broken run."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import WAIT, bound

REPO = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_the_short_chaos_profile_loses_fails_and_duplicates_nothing() -> None:
    from bench import chaos

    out = subprocess.run(
        [sys.executable, str(REPO / "bench" / "chaos.py"), "--json", "--no-baseline", "--tasks", "10",
         "--kill-min", "1.5", "--kill-max", "3", "--fault-rate", "0.2", "--after-create", "0.3",
         "--limit", str(bound(600))],
        capture_output=True, text=True, timeout=bound(600) + WAIT, cwd=REPO,
    )  # fmt: skip
    report = json.loads(out.stdout.strip().splitlines()[-1])
    assert report["lost"] == 0 and report["failedByCode"] == {}, report
    assert report["completed"] == 10 and report["completedWithPartLostToAFault"] == 0, report
    assert sum(report["duplicatesByKind"].values()) == 0, report
    assert not chaos.retry_after_ignored(report["retryAfterHoldsBroken"], report["retryAfterHolds"]), report
    assert report["internalErrors"] == 0, report
    assert sum(report["faults"].values()) > 0 and report["serversKilled"] >= 1, report
    assert out.returncode == 0, out.stderr[-2000:]


def test_a_request_after_a_429_counts_as_early_only_once_it_could_not_have_been_in_flight() -> None:
    from bench import chaos

    hold = {"client": "a", "family": "search", "fault": "429", "t": 9.9, "t_end": 10.0}
    at = [10.05, 10.15, 10.3, 10.6]  # in flight at the 429; a retry 0.15 s and 0.3 s on; after
    log = [hold, *({"client": "a", "family": "search", "t": t} for t in at)]
    assert chaos.early_requests(log, 0.5) == 2
    other = [hold, {"client": "b", "family": "search", "t": 10.2}, {"client": "a", "family": "x", "t": 10.2}]
    assert chaos.early_requests(other, 0.5) == 0  # another client, another family: not held


def test_retry_after_counts_as_ignored_when_holds_are_broken_as_a_rule_not_by_chance() -> None:
    from bench import chaos

    def hold(t_end: float) -> dict[str, object]:
        return {"client": "a", "family": "search", "fault": "429", "t": t_end - 0.1, "t_end": t_end}

    # A client that retries 0.15 s after each of its 429s breaks every hold.
    ignoring = [
        entry
        for end in (10.0, 20.0, 30.0)
        for entry in (hold(end), {"client": "a", "family": "search", "t": end + 0.15})
    ]
    broken = len(chaos.broken_holds(ignoring, 0.5))
    assert broken == 3 and chaos.retry_after_ignored(broken, chaos.retry_after_holds(ignoring))
    # One call that a busy machine delivered late, among 8 holds: chance, not a client ignoring them.
    late = [*(hold(10.0 * n) for n in range(1, 9)), {"client": "a", "family": "search", "t": 10.2}]
    broken = len(chaos.broken_holds(late, 0.5))
    assert broken == 1 and not chaos.retry_after_ignored(broken, chaos.retry_after_holds(late))
