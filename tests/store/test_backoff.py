"""A run ended by a transient Exa error: the task waits its backoff in the lease, on every backend."""

from __future__ import annotations

from exa_orch.store import Store
from exa_orch.store.backoff import MAX_TRANSIENT_RUNS, transient_backoff
from exa_orch.store.leases import BACKOFF_OWNER
from exa_orch.store.records import iso

from .conftest import FakeClock

ERROR = {"step": "search.1", "message": "Exa failed: HTTP 503", "recoverable": False, "code": "API_ERROR"}


async def test_a_backoff_holds_the_task_until_its_retry_time_and_progress_starts_the_count_again(
    store: Store, clock: FakeClock
) -> None:
    task = await store.create_task("t", {})
    assert [t.id for t in await store.claim_runnable("here:1:a", 30, 5)] == [task.id]
    await store.transition(task.id, "working")
    await store.save_step(task.id, "search.0", [1])
    waiting = await store.back_off(task.id, ERROR, "Exa answered 503", owner="here:1:a")
    assert waiting.status.value == "working" and waiting.lease_owner == BACKOFF_OWNER + "here:1:a"
    assert waiting.lease_expires_at == iso(clock() + transient_backoff(1))
    assert waiting.progress is not None
    assert waiting.progress["message"] == (
        f"Exa answered 503; retrying at {waiting.lease_expires_at} (attempt 2 of {MAX_TRANSIENT_RUNS})"
    )
    assert await store.renew_leases("here:1:a", 30) == 0  # its run's heartbeat no longer extends it
    clock.advance(transient_backoff(1) - 0.1)
    assert await store.claim_runnable("here:2:b", 30, 5) == []
    clock.advance(0.2)
    resumed = await store.claim_runnable("here:2:b", 30, 5)
    assert [t.id for t in resumed] == [task.id]
    assert resumed[0].progress is not None and "retryAt" not in resumed[0].progress
    assert resumed[0].progress["message"] == "retrying now: Exa answered 503"
    # This run saved a checkpoint: its backoff is the first one again.
    clock.advance(1)
    await store.save_step(task.id, "search.1", [2])
    again = await store.back_off(task.id, ERROR, "Exa answered 503", owner="here:2:b")
    assert again.lease_expires_at == iso(clock() + transient_backoff(1))


async def test_runs_that_end_on_transient_errors_without_progress_are_given_up_with_the_last_error(
    store: Store, clock: FakeClock
) -> None:
    task = await store.create_task("t", {})
    waits = []
    for n in range(1, MAX_TRANSIENT_RUNS + 1):
        owner = f"here:{n}:x"
        assert [t.id for t in await store.claim_runnable(owner, 30, 5)] == [task.id], n
        await store.transition(task.id, "working")
        clock.advance(1)
        record = await store.back_off(task.id, ERROR, "Exa answered 503", owner=owner)
        if record.terminal:
            break
        assert record.lease_expires_at is not None
        waits.append(record.lease_expires_at)
        clock.advance(transient_backoff(n))
    assert len(waits) == MAX_TRANSIENT_RUNS - 1
    assert [transient_backoff(n) for n in range(1, 8)] == [2, 4, 8, 16, 32, 60, 60]
    assert record.status.value == "failed" and record.lease_owner is None
    assert record.error is not None
    assert record.error["code"] == "API_ERROR" and record.error["recoverable"] is True
    assert record.error["attempts"] == MAX_TRANSIENT_RUNS and record.error["step"] == "search.1"
    assert record.error["message"].startswith(f"Given up after {MAX_TRANSIENT_RUNS} attempts in a row")
    assert record.error["message"].endswith("The last: Exa answered 503: Exa failed: HTTP 503")


async def test_a_cancel_takes_a_task_waiting_out_its_backoff_at_once(store: Store, clock: FakeClock) -> None:
    task = await store.create_task("t", {})
    assert await store.claim_runnable("here:1:a", 30, 5)
    await store.transition(task.id, "working")
    await store.back_off(task.id, ERROR, "Exa answered 503", owner="here:1:a")
    await store.request_cancel(task.id)
    assert await store.acquire_lease(task.id, "here:2:c", 30)  # no wait for the retry time
    # A cancel asked for before the run ended leaves no backoff: the next claim cancels it.
    other = await store.create_task("t", {})
    assert await store.claim_runnable("here:3:d", 30, 5)
    await store.request_cancel(other.id)
    freed = await store.back_off(other.id, ERROR, "Exa answered 503", owner="here:3:d")
    assert freed.lease_owner is None and freed.status.value == "pending"
