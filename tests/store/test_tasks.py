"""The task API: create, get, list with cursors, checked transitions, progress, events, expiry."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from exa_orch.errors import ErrorCode, InvalidParams, InvalidTransition, LeaseHeld, TaskNotFound, TaskTerminal
from exa_orch.store import TERMINAL_STATUSES, Store, TaskStatus

from .conftest import FakeClock, connect

ISO = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")


async def test_create_then_get_round_trips(store: Store) -> None:
    meta = {"era": "2025-11-25", "progressToken": 7}
    created = await store.create_task(
        "qd.winnow", {"query": "robotics", "count": 5}, ttl_ms=60_000, meta=meta
    )
    assert re.fullmatch(r"task_[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}", created.id)
    assert created.status is TaskStatus.PENDING
    assert ISO.match(created.created_at) and created.updated_at == created.created_at
    assert created.expires_at is None and created.ttl_ms == 60_000
    fetched = await store.get_task(created.id)
    assert fetched == created
    assert fetched.args == {"query": "robotics", "count": 5} and fetched.meta == meta
    assert not fetched.cancel_requested and fetched.lease_owner is None


async def test_unknown_task_raises_task_not_found(store: Store) -> None:
    with pytest.raises(TaskNotFound) as caught:
        await store.get_task("task_nope")
    assert caught.value.code == ErrorCode.TASK_NOT_FOUND
    for call in (
        store.transition("task_nope", "working"),
        store.set_progress("task_nope", {"step": "x", "completed": 0, "total": 1}),
        store.events("task_nope"),
        store.load_steps("task_nope"),
    ):
        with pytest.raises(TaskNotFound):
            await call


async def test_get_tasks_reads_the_existing_ones_of_many_ids_in_chunks(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    from exa_orch.store import core

    monkeypatch.setattr(core, "_IDS_PER_READ", 2)  # three chunks for five ids
    made = [await store.create_task("t", {"i": i}) for i in range(4)]
    await store.request_cancel(made[1].id)
    wanted = [made[0].id, made[1].id, "task_nope", made[3].id, made[2].id]
    found = {record.id: record for record in await store.get_tasks(wanted)}
    assert sorted(found) == sorted(m.id for m in made)
    assert found[made[1].id].cancel_requested and not found[made[0].id].cancel_requested
    assert found[made[2].id] == await store.get_task(made[2].id)
    assert await store.get_tasks([]) == []


async def test_non_json_args_are_refused_before_writing(store: Store) -> None:
    with pytest.raises(InvalidParams) as caught:
        await store.create_task("qd.winnow", {"when": object()})
    assert caught.value.code == ErrorCode.INVALID_PARAMS
    assert (await store.list_tasks())[0] == []


async def test_lifecycle_events_record_every_change(store: Store) -> None:
    task = await store.create_task("lifecycle.harvest", {})
    await store.transition(task.id, "working", message="started")
    await store.set_progress(
        task.id, {"step": "searching", "completed": 2, "total": 10, "message": "2 of 10"}
    )
    await store.set_partial(task.id, {"items": [1, 2]})
    done = await store.complete(task.id, {"items": [1, 2, 3]})
    assert done.status is TaskStatus.COMPLETED and done.result == {"items": [1, 2, 3]}
    assert done.partial == {"items": [1, 2]}
    assert done.progress == {"step": "searching", "completed": 2, "total": 10, "message": "2 of 10"}
    events = await store.events(task.id)
    assert [(e["kind"], e["status"]) for e in events] == [
        ("created", "pending"),
        ("status", "working"),
        ("progress", "working"),
        ("status", "completed"),
    ]
    assert events[1]["message"] == "started" and events[1]["data"] == {"from": "pending"}
    assert events[2]["data"]["completed"] == 2 and events[2]["message"] == "2 of 10"
    assert [e["id"] for e in events] == sorted(e["id"] for e in events)


@pytest.mark.parametrize("terminal", sorted(TERMINAL_STATUSES))
async def test_terminal_tasks_cannot_change(store: Store, terminal: TaskStatus) -> None:
    task = await store.create_task("t", {})
    await store.transition(task.id, "working")
    await store.transition(task.id, terminal)
    for target in TaskStatus:
        if target == terminal:
            same = await store.transition(task.id, target)  # same status: a no-op
            assert same.status == terminal
            continue
        with pytest.raises(InvalidTransition) as caught:
            await store.transition(task.id, target)
        assert caught.value.code == ErrorCode.INVALID_TRANSITION
        assert (caught.value.current, caught.value.requested) == (terminal, target)
    with pytest.raises(InvalidTransition):
        await store.complete(task.id, {"late": True})
    with pytest.raises(InvalidTransition):
        await store.fail(task.id, {"step": "x", "message": "late", "recoverable": False})
    with pytest.raises(TaskTerminal):
        await store.set_progress(task.id, {"step": "x", "completed": 1, "total": 1})
    with pytest.raises(TaskTerminal):
        await store.request_cancel(task.id)
    assert (await store.get_task(task.id)).status == terminal
    assert [e["status"] for e in await store.events(task.id)].count(terminal) == 1


async def test_non_terminal_statuses_move_freely_and_same_status_is_a_no_op(store: Store) -> None:
    task = await store.create_task("t", {})
    await store.transition(task.id, "working")
    again = await store.transition(task.id, "working")
    assert again.status is TaskStatus.WORKING
    back = await store.transition(task.id, "pending", message="handed back at shutdown")
    assert back.status is TaskStatus.PENDING
    assert [e["status"] for e in await store.events(task.id)] == ["pending", "working", "pending"]


async def test_unknown_status_is_invalid_params(store: Store) -> None:
    task = await store.create_task("t", {})
    with pytest.raises(InvalidParams):
        await store.transition(task.id, "done")


async def test_finishing_sets_expiry_from_ttl_and_drops_the_lease(store: Store, clock: FakeClock) -> None:
    task = await store.create_task("t", {}, ttl_ms=90_000)
    assert await store.acquire_lease(task.id, store.owner_id, 30)
    clock.advance(5)
    failed = await store.fail(task.id, {"step": "search", "message": "boom", "recoverable": True})
    assert failed.status is TaskStatus.FAILED
    assert failed.error == {"step": "search", "message": "boom", "recoverable": True}
    assert failed.lease_owner is None and failed.lease_expires_at is None
    assert failed.expires_at is not None and failed.expires_at > failed.updated_at
    clock.advance(89.9)
    assert await store.delete_expired() == 0
    clock.advance(0.2)
    assert await store.delete_expired() == 1
    with pytest.raises(TaskNotFound):
        await store.get_task(task.id)


async def test_delete_expired_takes_steps_and_events_and_spares_running_tasks(
    store: Store, clock: FakeClock
) -> None:
    finished = await store.create_task("t", {}, ttl_ms=1_000)
    running = await store.create_task("t", {}, ttl_ms=1_000)
    for task in (finished, running):
        await store.save_step(task.id, "a", {"n": 1})
        await store.transition(task.id, "working")
    await store.complete(finished.id, {"ok": True})
    clock.advance(3_600)
    assert await store.delete_expired() == 1
    with connect(store) as conn:
        for table in ("task_steps", "task_events"):
            ids = {r[0] for r in conn.execute(f"SELECT task_id FROM {table}")}
            assert ids == {running.id}
    assert (await store.get_task(running.id)).status is TaskStatus.WORKING


async def test_owner_checked_transitions_need_the_lease(store: Store) -> None:
    task = await store.create_task("t", {})
    with pytest.raises(LeaseHeld):
        await store.transition(task.id, "working", owner=store.owner_id)
    assert await store.acquire_lease(task.id, "host:1:other", 30)
    with pytest.raises(LeaseHeld) as caught:
        await store.complete(task.id, {"x": 1}, owner=store.owner_id)
    assert caught.value.code == ErrorCode.LEASE_HELD and caught.value.owner == "host:1:other"
    working = await store.transition(task.id, "working", owner="host:1:other")
    assert working.status is TaskStatus.WORKING
    assert (await store.complete(task.id, {"x": 1}, owner="host:1:other")).result == {"x": 1}


async def test_request_cancel_sets_the_flag_once(store: Store) -> None:
    task = await store.create_task("t", {})
    flagged = await store.request_cancel(task.id)
    assert flagged.cancel_requested and flagged.status is TaskStatus.PENDING
    await store.request_cancel(task.id)
    kinds = [e["kind"] for e in await store.events(task.id)]
    assert kinds.count("cancel_requested") == 1
    cancelled = await store.transition(task.id, "cancelled")
    assert cancelled.status is TaskStatus.CANCELLED and cancelled.cancel_requested


async def test_list_filters_and_pages_with_cursor(store: Store, clock: FakeClock) -> None:
    made = []
    for i in range(7):
        made.append(await store.create_task("qd.winnow" if i % 2 else "research.deep", {"i": i}))
        clock.advance(0.001 * (i % 3))  # some share a timestamp: creation order breaks ties
    await store.transition(made[0].id, "working")
    await store.transition(made[1].id, "cancelled")

    seen: list[str] = []
    cursor: str | None = None
    while True:
        page, cursor = await store.list_tasks(limit=3, cursor=cursor)
        assert len(page) <= 3
        seen.extend(t.id for t in page)
        if cursor is None:
            break
    assert seen == [t.id for t in made]

    pending, nxt = await store.list_tasks(status="pending")
    assert nxt is None and {t.id for t in pending} == {t.id for t in made[2:]}
    both, _ = await store.list_tasks(status=["working", "cancelled"])
    assert {t.id for t in both} == {made[0].id, made[1].id}
    typed, _ = await store.list_tasks(type="qd.winnow", status="pending")
    assert {t.args["i"] for t in typed} == {3, 5}
    with pytest.raises(InvalidParams):
        await store.list_tasks(cursor="not a cursor")
    with pytest.raises(InvalidParams):
        await store.list_tasks(limit=0)


async def test_v_tasks_reads_like_a_status_board(store: Store) -> None:
    task = await store.create_task("qd.winnow", {})
    await store.transition(task.id, "working")
    await store.set_progress(
        task.id, {"step": "searching", "completed": 3.0, "total": 10, "message": "found 3"}
    )
    halfway = await store.create_task("qd.winnow", {})
    await store.set_progress(halfway.id, {"step": "collect", "completed": 2.5, "total": 4.0})
    other = await store.create_task("research.deep", {})
    await store.fail(other.id, {"step": "poll", "message": "agent run failed", "recoverable": False})
    with connect(store) as conn:
        rows = conn.execute("SELECT id, status, progress, error_message FROM v_tasks").fetchall()
    assert (task.id, "working", "searching 3/10: found 3", None) in rows
    assert (other.id, "failed", None, "agent run failed") in rows
    assert (halfway.id, "pending", "collect 2.5/4", None) in rows


async def test_store_is_single_use(db_path: Path) -> None:
    store = Store(db_path)
    async with store:
        pass
    await store.aclose()  # idempotent
    with pytest.raises(Exception) as caught:
        await store.create_task("t", {})
    assert getattr(caught.value, "code", None) == ErrorCode.STORE_ERROR
    with pytest.raises(Exception) as reopen:
        async with store:
            pass
    assert getattr(reopen.value, "code", None) == ErrorCode.STORE_ERROR


async def test_unopenable_path_says_what_to_fix(tmp_path: Path) -> None:
    with pytest.raises(Exception) as caught:
        async with Store(tmp_path / "no-such-dir" / "x.db"):
            pass
    assert getattr(caught.value, "code", None) == ErrorCode.STORE_ERROR
    assert "EXA_ORCH_DB" in (getattr(caught.value, "hint", "") or "")


async def test_tasks_made_in_one_millisecond_list_and_claim_in_creation_order(store: Store) -> None:
    # The fake clock stands still, so every task shares one created_at; ids are random.
    made = [(await store.create_task("t.order", {"n": n})).id for n in range(30)]
    first, cursor = await store.list_tasks(type="t.order", limit=10)
    rest, _ = await store.list_tasks(type="t.order", limit=100, cursor=cursor)
    assert [t.id for t in first + rest] == made
    claimed = await store.claim_runnable(store.owner_id, 30.0, limit=30)
    assert [t.id for t in claimed] == made


async def test_a_lookup_by_an_id_or_type_holding_a_nul_finds_nothing_on_either_backend(store: Store) -> None:
    # PostgreSQL's text can't hold NUL: such a parameter failed the query (an INTERNAL_ERROR for a
    # hostile tasks.get), where SQLite simply found nothing.
    task = await store.create_task("t", {})
    for hostile in ("task_\x00", task.id + "\x00", "\x00"):
        with pytest.raises(TaskNotFound):
            await store.get_task(hostile)
        assert await store.get_tombstone(hostile) is None
        with pytest.raises(TaskNotFound):
            await store.events(hostile)
    assert [r.id for r in await store.get_tasks([task.id, "task_\x00"])] == [task.id]
    assert await store.list_tasks(type="t\x00") == ([], None)
    assert [r.id for r in (await store.list_tasks(type="t"))[0]] == [task.id]


async def test_park_waits_unleased_and_unclaimed_until_unparked(store: Store) -> None:
    """input_required on every backend: written by the lease holder with its request, the lease
    released, claimed by nobody, listed by its status; unpark makes it runnable again."""
    task = await store.create_task("t", {}, principal="user:alice")
    [claimed] = await store.claim_runnable(store.owner_id, 30.0, 10)
    assert claimed.id == task.id
    with pytest.raises(LeaseHeld):
        await store.park(task.id, {"kind": "apiKey"}, owner="someone-else")
    parked = await store.park(task.id, {"kind": "apiKey", "message": "needs a key"}, owner=store.owner_id)
    assert parked.status is TaskStatus.INPUT_REQUIRED and parked.lease_owner is None
    assert parked.meta["inputRequest"] == {"kind": "apiKey", "message": "needs a key"}
    assert await store.claim_runnable(store.owner_id, 30.0, 10) == []
    assert [r.id for r in await store.waiting_tasks("user:alice")] == [task.id]
    assert await store.waiting_tasks("user:bob") == []
    listed, _ = await store.list_tasks(status="input_required")
    assert [r.id for r in listed] == [task.id]
    [back] = await store.unpark([task.id, "task_missing"])
    assert back.status is TaskStatus.WORKING and "inputRequest" not in back.meta
    assert await store.unpark([task.id]) == []  # only a waiting task moves
    [again] = await store.claim_runnable(store.owner_id, 30.0, 10)
    assert again.id == task.id


async def test_a_cancel_requested_before_parking_wins(store: Store) -> None:
    task = await store.create_task("t", {})
    await store.claim_runnable(store.owner_id, 30.0, 10)
    await store.request_cancel(task.id)
    kept = await store.park(task.id, {"kind": "apiKey"}, owner=store.owner_id)
    assert kept.status is TaskStatus.PENDING and kept.lease_owner is None and kept.cancel_requested
