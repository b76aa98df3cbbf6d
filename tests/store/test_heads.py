"""A task's narrow row (migration 0019, `task_heads`): its counters, its cost totals and its copy of
the lease owner never drift from the rows they summarize, on every backend."""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from exa_orch.errors import LeaseHeld, TaskNotFound
from exa_orch.store import CostRow, Store
from exa_orch.store.migrations import default_migrations_dir
from tests.store.conftest import FakeClock, connect, dict_rows


def _heads(store: Store) -> dict[str, tuple[Any, ...]]:
    with connect(store) as conn:
        rows = conn.execute(
            "SELECT h.task_id, h.step_count, h.last_step_key, h.cost_usd, h.cost_billed_usd, h.fence, t.lease_owner "
            "FROM task_heads h LEFT JOIN tasks t ON t.id = h.task_id"
        ).fetchall()
    return {row[0]: tuple(row[1:]) for row in rows}


async def test_counters_totals_and_fence_agree_with_their_rows_through_a_takeover(
    store: Store, clock: FakeClock
) -> None:
    """Steps saved again, a stale owner refused, a takeover and a resumed run, ledger rows written
    at once (some twice, as an agent run read again is): the narrow row says what the rows say."""
    task = await store.create_task("t", {"n": 1})
    first, second = "host:1:aaaa", "host:2:bbbb"
    assert await store.acquire_lease(task.id, first, 30)
    for key in ("a", "b", "a", "c"):  # "a" saved again: counted again, as before 0019
        clock.advance(0.01)
        await store.save_step(task.id, key, {"k": key}, owner=first)
    rows = [
        CostRow(key=f"req-{n}", operation="search", usd=0.005, billed=True, task_id=task.id, step_key="a")
        for n in range(20)
    ] + [CostRow(key="agent_run:r1", operation="agent.run", usd=0.25, billed=True, task_id=task.id)] * 5
    rows += [CostRow(key="ws:1", operation="websets.items", usd=0.125, billed=False, task_id=task.id)] * 3
    await asyncio.gather(*(store.record_cost(row) for row in rows))
    clock.advance(31)  # the lease lapses; another process takes the task over
    assert await store.acquire_lease(task.id, second, 30)
    with pytest.raises(LeaseHeld):
        await store.save_step(task.id, "d", 1, owner=first)
    clock.advance(0.01)
    await store.save_step(task.id, "d", 2, owner=second)
    resumed = await store.get_task(task.id)
    assert (
        resumed.lease_owner == second
        and resumed.updated_at
        == dict_rows(
            store, "SELECT saved_at FROM task_steps WHERE task_id = ? AND step_key = 'd'", (task.id,)
        )[0]["saved_at"]
    )
    with connect(store) as conn:
        (top,) = conn.execute("SELECT max(seq) FROM task_steps WHERE task_id = ?", (task.id,)).fetchone()
    heads = _heads(store)
    assert heads[task.id][:2] == (top, "d") and top == 5
    assert heads[task.id][2] == pytest.approx(20 * 0.005 + 0.25 + 0.125)
    assert heads[task.id][3] == pytest.approx(20 * 0.005 + 0.25)
    assert heads[task.id][4] == heads[task.id][5] == second  # fence == lease_owner
    view = dict_rows(
        store, "SELECT steps, cost_usd, updated_at, lease_owner FROM v_tasks WHERE id = ?", (task.id,)
    )
    assert view == [
        {
            "steps": 5,
            "cost_usd": pytest.approx(0.475),
            "updated_at": resumed.updated_at,
            "lease_owner": second,
        }
    ]
    assert (await store.task_costs([task.id]))[task.id]["usd"] == pytest.approx(0.475)
    await store.release_lease(task.id, second)
    assert _heads(store)[task.id][4:] == (None, None)
    with pytest.raises(LeaseHeld):  # a released lease fences its old owner out too
        await store.save_step(task.id, "e", 1, owner=second)
    assert _heads(store)[task.id][0] == 5


async def test_a_deleted_task_leaves_no_narrow_row(store: Store, clock: FakeClock) -> None:
    tasks = [await store.create_task("t", {}, ttl_ms=1_000) for _ in range(3)]
    for task in tasks:
        await store.save_step(task.id, "a", 1)
        await store.record_cost(
            CostRow(key=f"k-{task.id}", operation="search", usd=0.01, billed=True, task_id=task.id)
        )
        await store.transition(task.id, "working")
        await store.complete(task.id, {})
    kept = await store.create_task("t", {})
    clock.advance(2)
    assert await store.delete_expired() == 3
    assert set(_heads(store)) == {kept.id}
    with pytest.raises(TaskNotFound):
        await store.save_step(tasks[0].id, "b", 1)
    # its ledger rows stay (money spent stays spent); a late one for the deleted task adds to nothing
    await store.record_cost(
        CostRow(key="late", operation="search", usd=0.01, billed=True, task_id=tasks[0].id)
    )
    assert set(_heads(store)) == {kept.id}


def _before_0019(tmp_path: Path) -> Path:
    """A copy of the migrations without 0019 and those after it (on both sides)."""
    older = tmp_path / "migrations-0018"
    shutil.copytree(default_migrations_dir(), older)
    for later in [*older.glob("00*.sql"), *older.glob("postgres/00*.sql")]:
        if later.name >= "0019":
            later.unlink()
    return older


async def test_0019_moves_each_tasks_counters_and_totals_as_they_were(db: str, tmp_path: Path) -> None:
    """A database at 0018 with tasks, steps and ledger rows (written as 0018's code wrote them):
    after 0019 v_tasks reads the same rows, and the tasks keep counting from where they were."""
    owner = "host:1:cafe"
    made = [f"task_{n}" for n in range(3)]
    async with Store(db, migrations_dir=_before_0019(tmp_path)) as old:
        with connect(old) as conn:
            for n, task_id in enumerate(made):
                at = f"2026-11-27T06:0{n}:00.000Z"
                conn.execute(
                    "INSERT INTO tasks (id, type, args, progress, created_at, updated_at, lease_owner) "
                    "VALUES (?, 't', ?, ?, ?, ?, ?)",
                    (
                        task_id,
                        f'{{"n":{n},"pad":"{"x" * 3000}"}}',
                        '{"step":"x","completed":1,"total":3}',
                        at,
                        at,
                        owner,
                    ),
                )
                for step in range(n + 1):
                    saved = f"2026-11-27T06:0{n}:0{step + 1}.000Z"
                    conn.execute(
                        "INSERT INTO task_steps (task_id, step_key, seq, result, saved_at) VALUES (?, ?, ?, '1', ?)",
                        (task_id, f"s{step}", step + 1, saved),
                    )
                    conn.execute(  # what 0018's statement (PostgreSQL) or triggers (SQLite) did
                        "UPDATE tasks SET step_count = ?, last_step_key = ?, updated_at = ? WHERE id = ?",
                        (step + 1, f"s{step}", saved, task_id),
                    )
                for key, usd, billed in ((f"q{n}", 0.01 * (n + 1), 1), (f"w{n}", 0.5, 0)):
                    conn.execute(
                        "INSERT INTO costs (key, task_id, operation, usd, billed, at) VALUES (?, ?, 'search', ?, ?, ?)",
                        (key, task_id, usd, billed, at),
                    )
            if hasattr(conn, "commit"):
                conn.commit()
        view_before = dict_rows(old, "SELECT * FROM v_tasks ORDER BY id")
    assert [row["steps"] for row in view_before] == [1, 2, 3]
    assert [row["cost_usd"] for row in view_before] == [
        pytest.approx(0.51),
        pytest.approx(0.52),
        pytest.approx(0.53),
    ]
    async with Store(db) as new:
        assert new.applied_migrations[0] == "0019_task_heads"
        assert dict_rows(new, "SELECT * FROM v_tasks ORDER BY id") == view_before
        for row in view_before:
            assert (await new.get_task(row["id"])).updated_at == row["updated_at"]
        heads = _heads(new)
        for n, task_id in enumerate(made):
            assert heads[task_id][:2] == (n + 1, f"s{n}")
            assert heads[task_id][2:4] == (pytest.approx(0.01 * (n + 1) + 0.5), pytest.approx(0.01 * (n + 1)))
            assert heads[task_id][4] == owner
        with connect(new) as conn:
            columns = [d[0] for d in conn.execute("SELECT * FROM tasks WHERE 1 = 0").description]
        assert not {"step_count", "last_step_key", "cost_usd", "cost_billed_usd"} & set(columns)
        with pytest.raises(LeaseHeld):
            await new.save_step(made[2], "next", 1, owner="someone:else:1")
        await new.save_step(made[2], "next", 1, owner=owner)
        await new.record_cost(
            CostRow(key="after", operation="search", usd=0.25, billed=True, task_id=made[2])
        )
        assert _heads(new)[made[2]][:3] == (4, "next", pytest.approx(0.03 + 0.5 + 0.25))
        assert dict_rows(new, "SELECT max(seq) AS top FROM task_steps WHERE task_id = ?", (made[2],)) == [
            {"top": 4}
        ]


def test_0019_on_sqlite_keeps_the_file_sound(db_path: Path, tmp_path: Path) -> None:
    """The columns dropped from tasks (a table rewrite on SQLite) leave steps, events and the
    foreign keys whole."""
    asyncio.run(_fill_and_migrate(db_path, tmp_path))
    conn = sqlite3.connect(db_path)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        assert conn.execute("SELECT count(*) FROM task_steps").fetchone() == (2,)
        assert conn.execute("SELECT count(*) FROM task_events").fetchone()[0] >= 2
    finally:
        conn.close()


async def _fill_and_migrate(db_path: Path, tmp_path: Path) -> None:
    async with Store(db_path, migrations_dir=_before_0019(tmp_path)):
        pass
    conn = sqlite3.connect(db_path, isolation_level=None)
    conn.execute("PRAGMA foreign_keys = ON")
    conn.execute("INSERT INTO tasks (id, type, created_at, updated_at) VALUES ('task_a', 't', 'x', 'x')")
    conn.execute(
        "INSERT INTO task_events (task_id, at, kind, status) VALUES ('task_a', 'x', 'created', 'pending')"
    )
    conn.execute(
        "INSERT INTO task_events (task_id, at, kind, status) VALUES ('task_a', 'y', 'status', 'working')"
    )
    for seq, key in enumerate("ab", 1):
        conn.execute("INSERT INTO task_steps VALUES ('task_a', ?, ?, '1', 'y')", (key, seq))
    conn.close()
    async with Store(db_path) as new:
        assert (await new.get_task("task_a")).updated_at == "y"
