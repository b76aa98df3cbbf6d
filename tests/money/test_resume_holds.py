"""Issue 23: a task resumed after a SIGKILL holds what its first run held for the Exa work still
running (an agent run's worst case, a webset search's count estimate), so it stops at its budget
where an unkilled task would, never spending budget + more than one request's worst case.

A real `exa-orch serve` child (tests/client's `running_client`) is killed while the task's work
runs at the simulator; a new child resumes it. The simulator's billing is the truth for agent runs
(Exa bills them); Websets carry no cost, so there the ledger's estimates are what a budget caps."""

from __future__ import annotations

import json
import os
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from exa_orch.gateway import prices
from exa_orch.gateway.purse import Purse
from exa_orch.gateway.running import RunningSearch, running_work
from exa_orch.sim.billing import Billing
from exa_orch.sim.context import SimConfig
from exa_orch.sim.testing import SimThread
from tests.client.conftest import running_client
from tests.support import WAIT, until

MEDIUM = prices.AGENT_FIXED["medium"]  # a collection's agent runs are sent at medium (rows.RUN_EFFORT)
ITEM = prices.WEBSET_ITEM_ESTIMATE


def test_running_work_reads_unfinished_runs_and_searches_from_checkpoints() -> None:
    steps: dict[str, Any] = {
        "create.run": {"id": "r1", "object": "agent_run", "status": "running", "request": {"effort": "low"}},
        "create.run2": {
            "id": "r2",
            "object": "agent_run",
            "status": "running",
            "request": {"effort": "auto"},
        },
        "wait.run2": {"id": "r2", "object": "agent_run", "status": "completed", "request": {}},
        "create.webset": {
            "id": "ws1",
            "object": "webset",
            "enrichments": [{"id": "e1", "object": "webset_enrichment"}],
            "searches": [
                {"id": "s1", "object": "webset_search", "status": "running", "websetId": "ws1", "count": 5}
            ],
        },
    }
    runs, searches = running_work(steps)
    assert runs == {"r1": prices.AGENT_FIXED["low"]}  # r2 finished: its cost is the ledger's
    assert searches == {"s1": RunningSearch(5, ITEM + prices.WEBSET_ENRICHMENT_ESTIMATE, ("e1",))}
    counted = {"webset_item:s1:0", "webset_item:s1:1", "webset_cell:e1:i0", "webset_item:other:0"}
    counted |= {f"webset_analyzed:s1:{n}" for n in range(3)} | {"webset_analyzed:other:0"}
    left = searches["s1"].left(counted, "s1")
    did = (
        2 * prices.WEBSET_FOUND_ESTIMATE
        + 3 * prices.WEBSET_ANALYZED_ESTIMATE
        + prices.WEBSET_ENRICHMENT_ESTIMATE
    )
    assert left == pytest.approx(5 * (ITEM + prices.WEBSET_ENRICHMENT_ESTIMATE) - did)


def test_a_held_run_is_counted_once_however_it_is_seen() -> None:
    purse = Purse("t", budget=1.0)
    purse.hold_run("r1", 0.11)
    purse.hold_run("r1", 0.11)  # seen again (a checkpoint, then a read): held once
    assert purse.spent == pytest.approx(0.11)
    purse.run_finished("r1", 0.1)
    purse.run_finished("r1", 0.1)  # its final state read twice
    purse.hold_run("r1", 0.11)  # and an old snapshot of it: counted already
    assert purse.spent == pytest.approx(0.1)
    purse.run_finished("r2", 0.05)  # a run made before a restart, never held: its cost counts
    assert purse.spent == pytest.approx(0.15)


@pytest.fixture
def slow_sim() -> Iterator[SimThread]:
    """Speed 10: an agent run takes seconds, long enough to kill the server while one runs."""
    with SimThread(SimConfig(speed=10.0)) as handle:
        yield handle


def _read(db: Path, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
    import sqlite3

    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=WAIT)
    try:
        return con.execute(sql, params).fetchall()
    finally:
        con.close()


def _saved_running(db: Path, task_id: str, kind: str) -> bool:
    """Whether a checkpoint of the task holds an unfinished `kind` object (its create was saved)."""
    if not db.exists():
        return False
    rows = _read(db, "SELECT result FROM task_steps WHERE task_id = ?", (task_id,))
    runs, searches = running_work([json.loads(r[0]) for r in rows])
    return bool(runs if kind == "agent_run" else searches)


@pytest.mark.slow
async def test_a_resumed_task_holds_its_running_agent_run_and_stops_where_it_would_have(
    slow_sim: SimThread, tmp_path: Path
) -> None:
    # Two medium runs fit in the budget, a third would not: the unkilled task stops after two. Killed
    # while its first run runs, the resumed task must still count that run (held at its worst case
    # from the checkpoint, then its billed cost): without the hold it started a third run.
    budget = 0.25
    account: Billing = slow_sim.ctx.extras["billing"]
    args = {
        "query": "AI startups in Europe",
        "entity": {"type": "company"},
        "count": 100,  # four chunks of 25 rows: more runs than the budget affords
        "engine": "agent",
        "budgetUsd": budget,
    }
    db = tmp_path / "workflows.db"
    async with running_client(slow_sim.url, tmp_path) as client:
        task_id = await client.create_task("lifecycle.harvest", args)
        await until(lambda: _saved_running(db, task_id, "agent_run"), within=WAIT, what="a run saved running")
        first = client.pid
        assert first is not None
        os.kill(first, signal.SIGKILL)
        done = await client.wait_task(task_id, timeout=WAIT, poll=5)  # a new child resumes the task
        assert client.pid not in (None, first)
    assert done["status"] == "completed", done
    result = done["result"]
    assert result["partial"] is True and result["stoppedBy"] == "budget"
    creates = [e for e in slow_sim.log() if e["method"] == "POST" and e["path"] == "/agent/runs"]
    assert len(creates) == 2  # as without the kill: 2 x $0.11 fit in $0.25, a third does not
    # The simulator bills each run it finished; a run still running when the task stopped was
    # cancelled (Exa bills a cancelled fixed-effort run at most its price).
    assert account.spent <= budget + 1e-9
    (ledger_usd,) = _read(db, "SELECT coalesce(sum(usd), 0) FROM v_costs WHERE task_id = ?", (task_id,))[0]
    assert ledger_usd == pytest.approx(account.spent)


def _searches_checkpointed(db: Path, task_id: str) -> int:
    rows = _read(
        db, "SELECT count(*) FROM task_steps WHERE task_id = ? AND step_key LIKE 'search.%'", (task_id,)
    )
    return int(rows[0][0])


@pytest.mark.slow
async def test_a_resumed_task_holds_its_running_webset_search_against_its_budget(tmp_path: Path) -> None:
    # money.websetThenSearches: a webset search holds its items' estimate (what the $0.2 affords of 5)
    # budget while it runs, so the searches after it get only the rest (~6 at $0.007). Killed while
    # the search runs, the resumed task holds the same (from its checkpointed create, less the items
    # the ledger counted): without the hold it would spend the whole budget again on searches while
    # the webset keeps finding items.
    budget, count = 0.2, 5
    search_worst = prices.search_price({})
    db = tmp_path / "workflows.db"
    env = {"EXA_ORCH_EXTRA_WORKFLOWS": "tests.money.resume_workflows:WORKFLOWS"}
    with SimThread(SimConfig(speed=1.0)) as sim:
        account: Billing = sim.ctx.extras["billing"]
        async with running_client(sim.url, tmp_path, env=env) as client:
            task_id = await client.create_task(
                "money.websetThenSearches", {"count": count, "budgetUsd": budget}
            )
            await until(
                lambda: _saved_running(db, task_id, "webset_search"), within=WAIT, what="a search saved"
            )
            first = client.pid
            assert first is not None
            os.kill(first, signal.SIGKILL)
            done = await client.wait_task(task_id, timeout=WAIT, poll=5)
            assert client.pid not in (None, first)
        searches = [e for e in sim.log() if e["method"] == "POST" and e["path"] == "/search"]
        billed = account.spent
    assert done["status"] == "completed", done
    assert done["result"]["partial"] is True and done["result"]["stoppedBy"] == "budget"
    ((items,),) = _read(
        db, "SELECT coalesce(sum(usd), 0) FROM v_costs WHERE task_id = ? AND billed = 0", (task_id,)
    )
    # Exa's bill (the searches) plus the webset's estimate (what its search did): within the budget
    # and one request's worst; the searches got only what the webset left.
    assert billed + items <= budget + search_worst + 1e-9
    assert (
        len(searches) <= int((budget - min(items, count * ITEM)) / search_worst + 1e-9) + 1
    )  # + one re-send


def test_a_run_held_from_a_checkpoint_takes_the_worst_case_its_read_echoes() -> None:
    from exa_orch.gateway.running import read_running

    purse = Purse("t", budget=1.0)
    purse.hold_run("r3", MEDIUM)  # a research view names only its model
    echoed: set[str] = set()
    answer = {"id": "r3", "object": "agent_run", "status": "running", "request": {"effort": "low"}}
    runs, _ = read_running("/agent/runs/r3", json.dumps(answer).encode(), echoed)
    purse.hold_run("r3", runs["r3"], exact="r3" in echoed)
    assert purse.spent == pytest.approx(prices.AGENT_FIXED["low"])
    # An answer that echoes no request says nothing exact: the hold stays.
    bare: set[str] = set()
    runs, _ = read_running("/agent/runs/r3", json.dumps({**answer, "request": None}).encode(), bare)
    purse.hold_run("r3", runs["r3"], exact="r3" in bare)
    assert bare == set() and purse.spent == pytest.approx(prices.AGENT_FIXED["low"])
    # A list page may hold other tasks' runs: nothing is read off it.
    assert read_running("/agent/runs", json.dumps({"data": [answer]}).encode()) == ({}, {})
