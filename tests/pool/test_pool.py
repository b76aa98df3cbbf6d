"""The team's pool of active agent runs (gateway/pool.py, store/slots.py, docs/pool.md).

The acceptance of issue 24's pool: 200 agent runs queued by 5 tasks of 2 principals, on one server
and split over two servers on PostgreSQL: never more than 50 active at the simulator (from the
simulator's own record of when each run was created and ended), no answer 429, and no principal
waiting more than twice its fair share (from the pool's own grant order in `run_slots`).
"""

from __future__ import annotations

import sqlite3
from collections import Counter
from collections.abc import AsyncIterator, Iterable
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

import pytest

from exa_orch.app import App, open_app
from exa_orch.config import Settings
from exa_orch.gateway.pool import ordinal
from exa_orch.runtime.principal import Principal
from exa_orch.sim.agent import AgentRuns
from exa_orch.sim.context import SimConfig
from exa_orch.sim.testing import SimHandle, running_sim
from exa_orch.store import Store
from exa_orch.store.leases import HOST
from exa_orch.store.migrations import default_migrations_dir
from exa_orch.store.slots import SlotChanges, fair_order, memory_connection, run_round
from tests.pg import fresh_database
from tests.support import WAIT, until

from .pool_workflows import WORKFLOWS

PLAN = [("user:alice", 40)] * 4 + [("user:bob", 40)]  # 5 tasks of 2 principals, 200 runs


def max_active(runs: AgentRuns) -> int:
    """The most runs active (queued or running) at once, from the simulator's record of each run."""
    now = runs.ctx.clock.now()
    edges: list[tuple[float, int]] = []
    for run in runs.runs.values():
        ended = run.ended_at(now)
        edges.append((run.created, 1))
        edges.append((ended if ended is not None else float("inf"), -1))
    most = current = 0
    for _, step in sorted(edges):  # an end sorts before a start at the same instant
        current += step
        most = max(most, current)
    return most


def unfair(grants: Iterable[tuple[str, str, str, int]]) -> dict[str, tuple[float, int]]:
    """Principals that got fewer than half their fair share of the grants made while they waited.

    `grants`: (principal, enqueued_at, granted_at, grant_seq), one per slot. At each grant every
    principal with a request waiting (enqueued by then, granted at or after it) is owed
    1 / (principals waiting); a principal waited more than twice its fair share if, at some grant,
    it had got fewer than half of what it was owed by then. Returns {principal: (owed, got)}."""
    rows = sorted(grants, key=lambda g: g[3])
    owed: dict[str, float] = {}
    got: dict[str, int] = {}
    worst: dict[str, tuple[float, int]] = {}
    for principal, _, granted_at, seq in rows:
        waiting = {p for p, enq, gat, s in rows if enq <= granted_at and s >= seq}
        for p in waiting:
            owed[p] = owed.get(p, 0.0) + 1 / len(waiting)
        got[principal] = got.get(principal, 0) + 1
        for p in waiting:
            if got.get(p, 0) + 1 < owed[p] / 2:  # one grant of slack: shares are whole slots
                worst[p] = (owed[p], got.get(p, 0))
    return worst


def test_fair_order_shares_slots_equally_among_waiting_principals_oldest_first() -> None:
    waiting = [(1, "a"), (2, "a"), (3, "a"), (4, "b"), (5, "a"), (6, "c")]
    assert fair_order({}, waiting) == [1, 4, 6, 2, 3, 5]
    # b holds 2 already: a and c catch up first; within a principal the oldest goes first.
    assert fair_order({"b": 2}, waiting) == [1, 6, 2, 3, 4, 5]  # a ties b at 2: its waiter is older
    assert unfair([("a", "0", "1", 1), ("a", "0", "1", 2), ("b", "0", "1", 3), ("b", "0", "1", 4)]) == {}
    assert "b" in unfair([("a", "0", "1", s) for s in range(1, 9)] + [("b", "0", "1", 9)])


def test_places_in_line_read_as_ordinals() -> None:
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 112)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd", "101st", "112th",
    ]  # fmt: skip


def test_a_dead_servers_waiters_are_dropped_and_its_running_runs_adopted() -> None:
    conn = memory_connection(default_migrations_dir())
    dead = f"{HOST}:999999999:dead"  # a pid that cannot exist on this host
    clock = lambda: 1_000_000.0  # noqa: E731

    def round_(owner: str, changes: SlotChanges, limit: int = 2) -> Any:
        conn.execute("BEGIN")
        out = run_round(
            conn, clock, pool="agent", owner=owner, ttl_s=30, limit=limit, rate=100,
            changes=changes, asking=[], stale_s=30,
        )  # fmt: skip
        conn.execute("COMMIT")
        return out

    first = round_(dead, SlotChanges(enqueue=[("user:a", "t1"), ("user:a", "t1"), ("user:b", "t2")]))
    assert first.active == 2 and first.waiting == 1
    round_(dead, SlotChanges(bind=[(first.new_ids[0], "run_1")]))
    live = round_("host:1:live", SlotChanges(enqueue=[("user:c", "t3")]))
    # The dead owner's waiter is gone, its slot without a run freed, its run kept and adopted.
    assert live.active == 2 and live.waiting == 0
    assert live.watch == [(first.new_ids[0], "run_1", "user:a")]
    states = dict(conn.execute("select id, state from run_slots").fetchall())
    assert states == {
        first.new_ids[0]: "active",
        first.new_ids[1]: "done",
        first.new_ids[2]: "done",
        live.new_ids[0]: "active",
    }
    done = round_("host:1:live", SlotChanges(release_runs=["run_1"]))
    assert done.active == 1
    # A run seen going and then seen finished before the next round: released, not counted again.
    late = round_("host:1:live", SlotChanges(seen=[("run_2", "user:c", "t3")], release_runs=["run_2"]))
    assert late.active == 1
    assert conn.execute("select count(*) from run_slots where run_id = 'run_2'").fetchone() == (0,)


def test_news_of_a_run_going_that_comes_after_its_end_takes_no_slot_again() -> None:
    """Two processes: one sees the run finish and releases its slot; the other's older answer
    showing it running arrives in a later round. The slot stays released (no phantom slot that
    only a stale-run check would free); a run with no row at all is still taken in."""
    conn = memory_connection(default_migrations_dir())
    clock = lambda: 1_000_000.0  # noqa: E731

    def round_(owner: str, changes: SlotChanges) -> Any:
        conn.execute("BEGIN")
        out = run_round(
            conn, clock, pool="agent", owner=owner, ttl_s=30, limit=2, rate=100,
            changes=changes, asking=[], stale_s=30,
        )  # fmt: skip
        conn.execute("COMMIT")
        return out

    a, b = f"{HOST}:1:a", f"{HOST}:2:b"
    first = round_(a, SlotChanges(enqueue=[("user:a", "t1")]))
    round_(a, SlotChanges(bind=[(first.new_ids[0], "run_1")]))
    assert round_(b, SlotChanges(release_runs=["run_1"])).active == 0
    assert round_(a, SlotChanges(seen=[("run_1", "user:a", "t1")])).active == 0
    assert round_(a, SlotChanges(seen=[("run_2", "user:a", "t1")])).active == 1  # unknown: taken in
    assert conn.execute("SELECT count(*) FROM run_slots WHERE run_id = 'run_1'").fetchone()[0] == 1


def sim_429s(sim: SimHandle) -> int:
    log = sim.log()
    assert len(log) == sim.stats()["total_requests"]  # the log holds every request: none missed
    return sum(1 for e in log if e.get("status") == 429)


def settings_for(sim: SimHandle, db: Path | str, **more: Any) -> Settings:
    return Settings(exa_url=sim.url, simulator=True, db_path=db, rps=1000.0, concurrency=8, **more)


async def queue_plan(app: App) -> list[str]:
    ids = []
    for k, (principal, count) in enumerate(PLAN):
        created = await app.run_operation(
            "tasks.create",
            {"type": "test.manyRuns", "count": count, "label": f"t{k}"},
            principal=Principal(principal),
        )
        ids.append(created["taskId"])
    return ids


def shares(grants: Iterable[tuple[str, str, str, int]]) -> dict[str, tuple[float, int, float]]:
    """Each principal's (owed, got, lowest got/owed once owed 5 or more): what `pytest -s` prints."""
    rows = sorted(grants, key=lambda g: g[3])
    owed: dict[str, float] = {}
    got: dict[str, int] = {}
    low: dict[str, float] = {}
    for principal, _, granted_at, seq in rows:
        waiting = {p for p, enq, gat, s in rows if enq <= granted_at and s >= seq}
        for p in waiting:
            owed[p] = owed.get(p, 0.0) + 1 / len(waiting)
        got[principal] = got.get(principal, 0) + 1
        for p in waiting:
            if owed[p] >= 5:
                low[p] = min(low.get(p, 9.0), got.get(p, 0) / owed[p])
    return {p: (round(owed[p], 1), got.get(p, 0), round(low.get(p, 1.0), 2)) for p in owed}


def check_outcome(
    sim: SimHandle, grants: list[tuple[str, str, str, int]], bound: list[str | None], failures: dict[str, int]
) -> None:
    """`grants` as `unfair` takes them; `bound`: the run each slot row was bound to (None: none)."""
    runs = sim.ctx.extras["agent"]
    assert isinstance(runs, AgentRuns)
    print(
        f"\nsim max active {max_active(runs)}, 429s {sim_429s(sim)}, (owed, got, lowest got/owed) {shares(grants)}"
        f", failures {failures}"
    )
    # Each of the 200 runs (a query of its own: "t<task> <i>") created once at the simulator: a task
    # that lost its lease and resumed would have created again the runs its first run had made.
    made = Counter(str(run.request["query"]) for run in runs.runs.values())
    assert len(made) == 200 and [q for q, n in made.items() if n > 1] == []
    assert max_active(runs) <= 50
    assert sim_429s(sim) == 0 and failures.get("429", 0) == 0
    # One slot granted a run, each bound to the run it made: none granted to a create that made
    # nothing, none counting a run twice.
    assert len(grants) == 200 and sorted(map(str, bound)) == sorted(runs.runs)
    assert unfair(grants) == {}


@pytest.fixture
async def sim() -> AsyncIterator[SimHandle]:
    """Speed 10: a low-effort run lasts 1.2 s, long enough for 50 to be active together."""
    async with running_sim(SimConfig(speed=10.0)) as handle:
        yield handle


async def test_200_runs_of_5_tasks_of_2_principals_share_50_slots_fairly(
    sim: SimHandle, tmp_path: Path
) -> None:
    db = tmp_path / "workflows.db"
    async with open_app(settings_for(sim, db), db, extra_workflows=WORKFLOWS) as app:
        assert app.supervisor is not None
        ids = await queue_plan(app)
        done = [await app.supervisor.tasks.wait(t, timeout=WAIT * 4) for t in ids]
        failures = dict(app.gateway.stats()["failures_by_kind"])
        pool = app.gateway.stats()["pools"]["agent"]
    assert [r.status.value for r in done] == ["completed"] * 5, [r.error for r in done]
    with sqlite3.connect(db) as conn:
        grants = conn.execute(
            "select principal, enqueued_at, granted_at, grant_seq from run_slots where pool = 'agent'"
        ).fetchall()
        bound = [r for (r,) in conn.execute("select run_id from run_slots where pool = 'agent'")]
        messages = [m for (m,) in conn.execute("select message from task_events where kind = 'progress'")]
        left = conn.execute("select count(*) from run_slots where state <> 'done'").fetchone()[0]
    check_outcome(sim, grants, bound, failures)
    assert pool["max_active"] == 50 and pool["waited"] >= 100  # the pool was full, and creates waited
    assert any(
        m and m.startswith("waiting for an agent-run slot: ") and m.endswith(" in line") for m in messages
    )
    assert left == 0  # every slot given back once its run ended


async def test_200_runs_split_over_two_servers_on_postgresql(
    sim: SimHandle, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    url = fresh_database(request.getfixturevalue("pg_cluster"), request.getfixturevalue("pg_template"))
    async with AsyncExitStack() as stack:
        # Two servers (each its own store, gateway and pools) on one database; 3 tasks at most
        # each, so the 5 tasks are split between them.
        apps = [
            await stack.enter_async_context(
                open_app(settings_for(sim, url, max_tasks=3), url, extra_workflows=WORKFLOWS)
            )
            for _ in range(2)
        ]
        ids = await queue_plan(apps[0])
        supervisor = apps[0].supervisor
        assert supervisor is not None
        done = [await supervisor.tasks.wait(t, timeout=WAIT * 4) for t in ids]
        failures: dict[str, int] = {}
        for app in apps:
            for kind, n in app.gateway.stats()["failures_by_kind"].items():
                failures[kind] = failures.get(kind, 0) + n
        pools = [app.gateway.stats()["pools"]["agent"] for app in apps]
        store: Store = apps[0].store
        grants = [
            (str(p), str(e), str(g), int(s))
            for p, e, g, s in await store._read(
                "select principal, enqueued_at, granted_at, grant_seq from run_slots where pool = 'agent'"
            )
        ]
        bound = [r for (r,) in await store._read("select run_id from run_slots where pool = 'agent'")]
    assert [r.status.value for r in done] == ["completed"] * 5, [r.error for r in done]
    assert all(p["granted"] > 0 for p in pools), pools  # both servers ran some of the runs
    assert max(p["max_active"] for p in pools) == 50
    check_outcome(sim, grants, bound, failures)


async def test_without_the_pool_the_simulator_answers_429(sim: SimHandle, tmp_path: Path) -> None:
    """The control: a pool larger than Exa's 50 lets creates through that the simulator refuses
    (the transport retries them, so the tasks still end), so the 0 above is the pool's doing."""
    db = tmp_path / "workflows.db"
    speed = sim.ctx.clock.speed
    # Simulated time all but stands until the simulator has refused a create: however slowly this
    # machine sends them, no run ends before the 51st is asked for.
    sim.ctx.clock.set_speed(1e-6)
    async with open_app(settings_for(sim, db, max_agent_runs=60), db, extra_workflows=WORKFLOWS) as app:
        assert app.supervisor is not None
        ids = await queue_plan(app)
        refused = lambda: any(e.get("status") == 429 for e in sim.log())  # noqa: E731
        await until(refused, what="the simulator to refuse a 51st active run")
        sim.ctx.clock.set_speed(speed)
        done = [await app.supervisor.tasks.wait(t, timeout=WAIT * 4) for t in ids]
        failures = dict(app.gateway.stats()["failures_by_kind"])
    assert [r.status.value for r in done] == ["completed"] * 5, [r.error for r in done]
    assert sim_429s(sim) > 0 and failures.get("429", 0) == sim_429s(sim)
