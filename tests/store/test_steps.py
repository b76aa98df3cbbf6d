"""Step checkpoints: saved durably, loaded back, overwritten by key, counted on the task."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from exa_orch.errors import InvalidParams, TaskNotFound
from exa_orch.store import Store


async def test_saved_steps_load_back_in_order(store: Store) -> None:
    task = await store.create_task("qd.winnow", {})
    assert await store.load_step(task.id, "create") == (False, None)
    assert await store.load_steps(task.id) == {}
    await store.save_step(task.id, "create", {"websetId": "ws_1"})
    await store.save_step(task.id, "wait", None)  # a step whose result is JSON null is still saved
    await store.save_step(task.id, "collect", [1, 2, 3])
    assert await store.load_step(task.id, "create") == (True, {"websetId": "ws_1"})
    assert await store.load_step(task.id, "wait") == (True, None)
    steps = await store.load_steps(task.id)
    assert list(steps) == ["create", "wait", "collect"]
    assert steps["collect"] == [1, 2, 3]


async def test_saving_a_key_again_replaces_it_and_the_counter_agrees(store: Store, db_path: Path) -> None:
    task = await store.create_task("t", {})
    await store.save_step(task.id, "a", 1)
    await store.save_step(task.id, "b", 2)
    await store.save_step(task.id, "a", 3)
    assert await store.load_steps(task.id) == {"b": 2, "a": 3}
    with sqlite3.connect(db_path) as conn:
        count, last = conn.execute(
            "SELECT step_count, last_step_key FROM tasks WHERE id = ?", (task.id,)
        ).fetchone()
        top = conn.execute("SELECT max(seq) FROM task_steps WHERE task_id = ?", (task.id,)).fetchone()[0]
    assert (count, last, top) == (3, "a", 3)


async def test_saving_for_an_unknown_task_raises(store: Store) -> None:
    with pytest.raises(TaskNotFound):
        await store.save_step("task_missing", "a", 1)
    with pytest.raises(TaskNotFound):
        await store.load_step("task_missing", "a")


async def test_unserializable_results_are_refused(store: Store) -> None:
    task = await store.create_task("t", {})
    with pytest.raises(InvalidParams):
        await store.save_step(task.id, "a", {1, 2})
    with pytest.raises(InvalidParams):
        await store.save_step(task.id, "a", float("nan"))
    assert await store.load_steps(task.id) == {}


async def test_steps_survive_reopening(db_path: Path) -> None:
    async with Store(db_path) as first:
        task = await first.create_task("t", {})
        await first.save_step(task.id, "a", {"deep": {"x": [1, "two", None, True]}})
    async with Store(db_path) as second:
        assert await second.load_steps(task.id) == {"a": {"deep": {"x": [1, "two", None, True]}}}
