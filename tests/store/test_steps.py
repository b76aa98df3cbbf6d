"""Step checkpoints: saved durably, loaded back, overwritten by key, counted on the task."""

from __future__ import annotations

import asyncio

import pytest

from exa_orch.errors import InvalidParams, LeaseHeld, TaskNotFound
from exa_orch.store import Store

from .conftest import connect


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


async def test_saving_a_key_again_replaces_it_and_the_counter_agrees(store: Store) -> None:
    task = await store.create_task("t", {})
    await store.save_step(task.id, "a", 1)
    await store.save_step(task.id, "b", 2)
    await store.save_step(task.id, "a", 3)
    assert await store.load_steps(task.id) == {"b": 2, "a": 3}
    with connect(store) as conn:
        count, last = conn.execute(
            "SELECT step_count, last_step_key FROM task_heads WHERE task_id = ?", (task.id,)
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
    looped: list[object] = []
    looped.append(looped)
    with pytest.raises(InvalidParams, match="result of step 'a' must be JSON-serializable"):
        await store.save_step(task.id, "a", {"self": looped})  # a cycle: typed, not a RecursionError
    assert await store.load_steps(task.id) == {}


async def test_steps_survive_reopening(db: str) -> None:
    async with Store(db) as first:
        task = await first.create_task("t", {})
        await first.save_step(task.id, "a", {"deep": {"x": [1, "two", None, True]}})
    async with Store(db) as second:
        assert await second.load_steps(task.id) == {"a": {"deep": {"x": [1, "two", None, True]}}}


async def test_with_an_owner_only_the_lease_holder_writes_checkpoints_progress_and_partials(
    store: Store,
) -> None:
    # A runner that lost its lease to another process must not write into the task any more.
    task = await store.create_task("t", {})
    other = await store.create_task("t", {})
    assert await store.acquire_lease(task.id, "host:1:holder", 60)
    assert await store.acquire_lease(other.id, "host:1:holder", 60)
    await store.save_step(task.id, "a", 1, owner="host:1:holder")
    await store.set_progress(task.id, {"step": "a", "completed": 1, "total": 2}, owner="host:1:holder")
    await store.set_partial(task.id, {"n": 1}, owner="host:1:holder")
    # One stale write among good ones in the same group commit: only it fails.
    results = await asyncio.gather(
        store.save_step(task.id, "b", 2, owner="host:2:stale"),
        store.save_step(other.id, "b", 2, owner="host:1:holder"),
        store.save_step(task.id, "c", 3),  # no owner: an admin write, not fenced
        return_exceptions=True,
    )
    assert isinstance(results[0], LeaseHeld) and results[1:] == [None, None]
    with pytest.raises(LeaseHeld):
        await store.save_step(task.id, "a", 99, owner="host:2:stale")  # an existing key too
    with pytest.raises(LeaseHeld):
        await store.set_progress(task.id, {"step": "x", "completed": 9, "total": 9}, owner="host:2:stale")
    with pytest.raises(LeaseHeld):
        await store.set_partial(task.id, {"n": 9}, owner="host:2:stale")
    with pytest.raises(TaskNotFound):
        await store.save_step("task_missing", "a", 1, owner="host:1:holder")
    assert await store.load_steps(task.id) == {"a": 1, "c": 3}
    record = await store.get_task(task.id)
    assert record.progress == {"step": "a", "completed": 1, "total": 2}
    assert record.partial == {"n": 1}
    assert await store.load_steps(other.id) == {"b": 2}


async def test_strings_with_lone_surrogates_are_stored_and_read_back_unchanged(store: Store) -> None:
    # json.loads accepts "\ud800" escapes (web text from Exa may carry them); SQLite's UTF-8 can't
    # hold them raw. They must not turn a checkpoint into a database error.
    odd = {"title": "caf\u00e9 \ud800 end", "k\udcff": ["\udfff"]}
    task = await store.create_task("t", {"q": odd})
    await store.save_step(task.id, "a", odd)
    await store.set_progress(task.id, {"step": "a", "completed": 1, "total": 1, "message": "\ud83d"})
    await store.set_partial(task.id, odd)
    assert await store.load_step(task.id, "a") == (True, odd)
    record = await store.get_task(task.id)
    assert record.args == {"q": odd} and record.partial == odd
    assert record.progress is not None and record.progress["message"] == "\ud83d"
    done = await store.complete(task.id, odd)
    assert done.result == odd
