"""Leases: one runner per task, in one process and across processes sharing the file."""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
from pathlib import Path

import pytest

from exa_orch.errors import InvalidParams
from exa_orch.store import Store
from exa_orch.store.leases import (
    BACKOFF_CAP_S,
    HOST,
    MAX_LOST_RUNS,
    MAX_RECOVERIES,
    owner_is_dead,
    recovery_backoff,
)
from exa_orch.store.records import iso
from tests.support import WAIT

from .conftest import FakeClock, connect

CHILD = Path(__file__).with_name("lease_child.py")
OTHER = "otherhost:4242:abcd"  # an owner on another machine: only expiry frees its leases


async def test_lease_is_exclusive_until_it_expires(store: Store, clock: FakeClock) -> None:
    task = await store.create_task("t", {})
    assert await store.acquire_lease(task.id, OTHER, 10)
    assert not await store.acquire_lease(task.id, store.owner_id, 10)
    assert await store.claim_runnable(store.owner_id, 10, 5) == []
    clock.advance(9.9)
    assert not await store.acquire_lease(task.id, store.owner_id, 10)
    clock.advance(0.2)
    assert await store.acquire_lease(task.id, store.owner_id, 10)
    record = await store.get_task(task.id)
    assert record.lease_owner == store.owner_id and record.lease_expires_at == iso(clock() + 10)
    claimed = [e for e in await store.events(task.id) if e["kind"] == "claimed"]
    assert [e["data"]["previous"] for e in claimed] == [None, OTHER]


async def test_own_lease_can_be_extended_renewed_and_released(store: Store, clock: FakeClock) -> None:
    a = await store.create_task("t", {})
    b = await store.create_task("t", {})
    done = await store.create_task("t", {})
    for task in (a, b, done):
        assert await store.acquire_lease(task.id, store.owner_id, 5)
    assert await store.acquire_lease(a.id, store.owner_id, 5)  # already ours: extended
    await store.complete(done.id, {})
    clock.advance(4)
    assert await store.renew_leases(store.owner_id, 30) == 2  # the finished task has no lease left
    clock.advance(20)
    assert not await store.acquire_lease(a.id, OTHER, 5)
    await store.release_lease(a.id, OTHER)  # not the holder: nothing happens
    assert (await store.get_task(a.id)).lease_owner == store.owner_id
    await store.release_lease(a.id, store.owner_id)
    assert (await store.get_task(a.id)).lease_owner is None
    assert await store.acquire_lease(a.id, OTHER, 5)
    assert not await store.acquire_lease(done.id, store.owner_id, 5)  # finished tasks aren't run
    with pytest.raises(InvalidParams):
        await store.acquire_lease(b.id, store.owner_id, 0)


async def test_renew_can_be_limited_to_the_tasks_still_run_and_an_own_expired_lease_is_reclaimed(
    store: Store, clock: FakeClock
) -> None:
    # A supervisor renews only the tasks its actors run; one whose actor died lets its lease
    # expire, and the next claim (this process's too) takes it again.
    live = await store.create_task("t", {})
    orphan = await store.create_task("t", {})
    assert len(await store.claim_runnable(store.owner_id, 5, 10)) == 2
    clock.advance(4)
    assert await store.renew_leases(store.owner_id, 5, [live.id]) == 1
    assert await store.claim_runnable(store.owner_id, 5, 10) == []  # nothing expired yet
    clock.advance(2)
    reclaimed = await store.claim_runnable(store.owner_id, 5, 10)
    assert [t.id for t in reclaimed] == [orphan.id]
    assert reclaimed[0].lease_expires_at == iso(clock() + 5)
    assert await store.renew_leases(store.owner_id, 5, []) == 0


async def test_claim_runnable_can_be_limited_to_task_types(store: Store) -> None:
    known = await store.create_task("known", {})
    await store.create_task("unknown", {})
    claimed = await store.claim_runnable(store.owner_id, 30, 10, ["known", "also.known"])
    assert [t.id for t in claimed] == [known.id]
    assert await store.claim_runnable(store.owner_id, 30, 10, []) == []


async def test_claim_runnable_takes_free_and_expired_oldest_first(store: Store, clock: FakeClock) -> None:
    free = await store.create_task("t", {"n": 0})
    clock.advance(1)
    expired = await store.create_task("t", {"n": 1})
    await store.acquire_lease(expired.id, OTHER, 1)
    clock.advance(1)
    held = await store.create_task("t", {"n": 2})
    await store.acquire_lease(held.id, OTHER, 60)
    clock.advance(1)
    working = await store.create_task("t", {"n": 3})
    await store.transition(working.id, "working")
    clock.advance(1)
    finished = await store.create_task("t", {"n": 4})
    await store.complete(finished.id, {})
    clock.advance(5)

    first = await store.claim_runnable(store.owner_id, 30, 2)
    assert [t.id for t in first] == [free.id, expired.id]
    assert all(t.lease_owner == store.owner_id for t in first)
    assert first[1].status.value == "pending"  # status unchanged
    rest = await store.claim_runnable(store.owner_id, 30, 10)
    assert [t.id for t in rest] == [working.id]
    assert await store.claim_runnable("me:1:again", 30, 10) == []


async def test_a_task_whose_runs_keep_dying_is_failed_instead_of_started_again(
    store: Store, clock: FakeClock
) -> None:
    task = await store.create_task("t", {})
    healthy = await store.create_task("t", {})
    await store.transition(task.id, "working")
    await store.save_step(task.id, "fetch", {"n": 1})
    # A graceful stop lets go of the lease: the next take is not a lost run.
    assert [t.id for t in await store.claim_runnable("elsewhere:1:a", 5, 10)] == [task.id, healthy.id]
    await store.release_lease(task.id, "elsewhere:1:a")
    await store.release_lease(healthy.id, "elsewhere:1:a")
    for n in range(MAX_LOST_RUNS):  # runs 1..MAX_LOST_RUNS each die holding the lease
        claimed = await store.claim_runnable(f"elsewhere:{n + 2}:b", 5, 1)
        assert [t.id for t in claimed] == [task.id]
        clock.advance(6)
    assert [t.id for t in await store.claim_runnable("elsewhere:99:c", 5, 10)] == [healthy.id]
    failed = await store.get_task(task.id)
    assert failed.status.value == "failed" and failed.lease_owner is None and failed.expires_at
    assert failed.error is not None and failed.error["step"] == "fetch" and not failed.error["recoverable"]
    assert f"{MAX_LOST_RUNS} server processes died" in failed.error["message"]
    assert "create the task again" in failed.error["message"]
    assert failed.error["code"] == "TASK_ABANDONED"


async def test_runs_lost_after_saving_progress_never_count_toward_giving_up(
    store: Store, clock: FakeClock
) -> None:
    # A busy host whose servers get killed every few seconds: each run saves a checkpoint before it
    # dies, so the task goes on however many runs it takes; only runs in a row with no checkpoint count.
    task = await store.create_task("t", {})
    await store.transition(task.id, "working")
    for n in range(3 * MAX_LOST_RUNS):
        claimed = await store.claim_runnable(f"elsewhere:{n + 1}:p", 5, 1)
        assert [t.id for t in claimed] == [task.id], f"given up after {n} runs that all made progress"
        clock.advance(1)
        await store.save_step(task.id, f"step.{n}", {"n": n})
        clock.advance(5)
    for n in range(MAX_LOST_RUNS - 1):  # the run holding it now made progress; these make none
        assert await store.claim_runnable(f"elsewhere:{100 + n}:q", 5, 1)
        clock.advance(6)
    assert await store.claim_runnable("elsewhere:200:r", 5, 1)  # the last run that made progress counts not
    clock.advance(6)
    assert await store.claim_runnable("elsewhere:201:s", 5, 1) == []
    failed = await store.get_task(task.id)
    assert failed.status.value == "failed" and failed.error is not None
    assert (
        failed.error["code"] == "TASK_ABANDONED" and failed.error["step"] == f"step.{3 * MAX_LOST_RUNS - 1}"
    )


async def test_dead_owner_on_this_host_is_reclaimed_without_waiting(store: Store) -> None:
    process = await asyncio.create_subprocess_exec(sys.executable, "-c", "pass")
    await process.wait()
    dead_owner = f"{HOST}:{process.pid}:deadbeef"
    assert owner_is_dead(dead_owner)
    assert not owner_is_dead(store.owner_id)
    # Our pid, but a token this process never used: an earlier process with the same pid (a
    # restarted container's server is pid 1 again), so it is gone.
    assert owner_is_dead(f"{HOST}:{os.getpid()}:other")
    assert not owner_is_dead(OTHER)
    task = await store.create_task("t", {})
    assert await store.acquire_lease(task.id, dead_owner, 3_600)
    predecessors = await store.create_task("t", {})
    assert await store.acquire_lease(predecessors.id, f"{HOST}:{os.getpid()}:0ld", 3_600)
    claimed = await store.claim_runnable(store.owner_id, 30, 10)
    assert [t.id for t in claimed] == [task.id, predecessors.id]


# --- two processes on one database (file or server)---------------------------------------------------------


async def spawn(*args: str) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable,
        str(CHILD),
        *args,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )


async def read_line(process: asyncio.subprocess.Process) -> str:
    assert process.stdout is not None
    async with asyncio.timeout(WAIT):
        line = await process.stdout.readline()
    if not line:
        assert process.stderr is not None
        raise AssertionError(f"child said nothing; stderr: {(await process.stderr.read()).decode()}")
    return line.decode().strip()


async def finish(process: asyncio.subprocess.Process) -> None:
    assert process.stdin is not None
    process.stdin.close()
    async with asyncio.timeout(WAIT):
        await process.wait()


async def test_a_lease_held_by_another_process_is_taken_only_after_expiry(db: str) -> None:
    async with Store(db) as store:
        task = await store.create_task("t", {})
        holder = await spawn("hold", db, task.id, "3")
        try:
            line = await read_line(holder)
            assert line.startswith("held ")
            held = await store.get_task(task.id)
            assert held.lease_owner == line.split()[1] and held.lease_expires_at is not None
            expires = held.lease_expires_at
            refused = 0
            # No event marks expiry, so poll, bounded by a deadline. Each answer is checked
            # against the clock read around it, so a slow machine can't make the test lie.
            deadline = time.monotonic() + WAIT
            while True:
                asked_at = iso(time.time())
                claimed = await store.claim_runnable(store.owner_id, 30, 10)
                took = bool(claimed) or await store.acquire_lease(task.id, store.owner_id, 30)
                answered_at = iso(time.time())
                if took:
                    assert answered_at >= expires, "the lease was taken before it expired"
                    break
                assert asked_at < expires, "refused although the lease had expired when we asked"
                refused += 1
                assert time.monotonic() < deadline, "the expired lease was never taken"
                await asyncio.sleep(0.05)
            assert refused > 0, "the machine was too slow to try before the lease expired"
            assert (await store.get_task(task.id)).lease_owner == store.owner_id
            assert holder.returncode is None  # the holder was alive the whole time
        finally:
            await finish(holder)


async def test_a_killed_holders_lease_is_reclaimed_at_once(db: str) -> None:
    async with Store(db) as store:
        task = await store.create_task("t", {})
        holder = await spawn("hold", db, task.id, "3600")
        assert (await read_line(holder)).startswith("held ")
        assert await store.claim_runnable(store.owner_id, 30, 10) == []
        holder.kill()
        await holder.wait()
        claimed = await store.claim_runnable(store.owner_id, 30, 10)
        assert [t.id for t in claimed] == [task.id]


async def test_an_expired_lease_is_taken_exactly_once_by_racing_processes(db: str) -> None:
    async with Store(db, clock=lambda: time.time() - 3_600) as past:
        contested = await past.create_task("t", {})
        pool = [await past.create_task("t", {"n": i}) for i in range(12)]
        for task in (contested, *pool):
            assert await past.acquire_lease(task.id, OTHER, 60)  # expired an hour ago, in real time
    acquirers = [await spawn("acquire", db, contested.id) for _ in range(3)]
    claimers = [await spawn("claim", db) for _ in range(3)]
    children = acquirers + claimers
    try:
        for child in children:
            assert await read_line(child) == "ready"
        for child in children:  # release them together
            assert child.stdin is not None
            child.stdin.write(b"go\n")
            await child.stdin.drain()
        verdicts = [await read_line(child) for child in acquirers]
        claims = [json.loads(await read_line(child)) for child in claimers]
    finally:
        for child in children:
            await finish(child)
    claimed_ids = [task_id for ids in claims for task_id in ids]
    # The contested task goes either to one acquirer or to one claimer, never to two.
    winners = verdicts.count("won") + claimed_ids.count(contested.id)
    assert winners == 1, (verdicts, claims)
    pool_ids = sorted(t.id for t in pool)
    assert sorted(i for i in claimed_ids if i != contested.id) == pool_ids  # each taken exactly once
    assert all(child.returncode == 0 for child in children)


async def test_runs_that_report_something_new_make_progress_and_repeats_do_not(
    store: Store, clock: FakeClock
) -> None:
    # A long wait on Exa saves nothing until it ends, but reports what it finds: a new report is
    # progress. A run that dies at the same point each time repeats the same reports.
    task = await store.create_task("t", {})
    await store.transition(task.id, "working")
    for n in range(3 * MAX_LOST_RUNS):
        assert await store.claim_runnable(f"elsewhere:{n + 1}:w", 5, 1), f"given up after {n} runs"
        clock.advance(1)
        await store.set_progress(
            task.id, {"step": "wait", "completed": n, "total": 100, "message": f"{n} found"}
        )
        clock.advance(5)
    for n in range(MAX_LOST_RUNS):  # the same report again and again
        assert await store.claim_runnable(f"elsewhere:{100 + n}:x", 5, 1)
        clock.advance(1)
        await store.set_progress(
            task.id, {"step": "wait", "completed": 0, "total": 100, "message": "0 found"}
        )
        clock.advance(5)
    assert await store.claim_runnable("elsewhere:200:y", 5, 1) == []
    failed = await store.get_task(task.id)
    assert failed.error is not None and failed.error["code"] == "TASK_ABANDONED"


async def test_a_held_task_with_no_claim_in_its_history_is_taken_over_and_blocks_no_other(
    store: Store, clock: FakeClock
) -> None:
    # A row restored from a backup without its events, or written by an older tool, holds a lease
    # but has no 'claimed' event. It once made every claim round fail, so no server took any task.
    orphan = await store.create_task("t", {})
    other = await store.create_task("t", {})
    assert len(await store.claim_runnable(OTHER, 5, 10)) == 2
    with connect(store) as conn:
        conn.execute("DELETE FROM task_events WHERE task_id = ? AND kind = 'claimed'", (orphan.id,))
        if hasattr(conn, "commit"):
            conn.commit()
    clock.advance(6)
    taken = await store.claim_runnable("elsewhere:7:t", 5, 10)
    assert [t.id for t in taken] == [orphan.id, other.id]
    assert all(t.lease_owner == "elsewhere:7:t" for t in taken)


async def test_a_lapse_its_holder_lived_through_strikes_only_the_suspect(
    store: Store, clock: FakeClock
) -> None:
    # Two servers pass three tasks back and forth, each losing them while stalled, never saving
    # anything. Each stalled server wakes and notes the lapse: one task is the suspect (its code
    # held the loop), the others are not. Only the suspect is given up; a noted lapse without
    # suspicion ends the count, and a note without its claim changes nothing.
    suspect, *innocent = [await store.create_task("t", {}) for _ in range(3)]
    holders = ["a:1:x", "b:2:y"]
    for n in range(3 * MAX_LOST_RUNS):
        taker, loser = holders[n % 2], holders[(n + 1) % 2]
        claimed = {t.id for t in await store.claim_runnable(taker, 5, 10)}
        if n:
            for task in (suspect, *innocent):
                if task.id in claimed:
                    assert await store.note_lapse(task.id, loser, taker, suspect=task is suspect)
        assert not await store.note_lapse(innocent[0].id, "nobody:0:z", taker, suspect=False)
        clock.advance(6)
    gone = await store.get_task(suspect.id)
    assert gone.error is not None and gone.error["code"] == "TASK_ABANDONED"
    assert [(await store.get_task(t.id)).status.value for t in innocent] == ["pending", "pending"]


async def test_a_process_retaking_its_own_lapsed_lease_is_no_lost_run(store: Store, clock: FakeClock) -> None:
    # A server whose loop stalled past its TTL, with nobody else about, takes its own leases back:
    # its run goes on, so this is no lost run (it once counted, and could give up a running task).
    task = await store.create_task("t", {})
    for n in range(MAX_LOST_RUNS):  # runs lost in a row: one more would give it up
        assert await store.claim_runnable(f"elsewhere:{n}:d", 5, 1)
        clock.advance(6)
    for _ in range(3):
        assert [t.id for t in await store.claim_runnable(f"elsewhere:{MAX_LOST_RUNS - 1}:d", 5, 1)] == [
            task.id
        ]
        clock.advance(6)
    assert (await store.get_task(task.id)).status.value == "pending"


async def test_runs_lost_while_servers_not_running_the_task_die_too_are_no_evidence_against_it(
    store: Store, clock: FakeClock
) -> None:
    # Issue 36: servers killed from outside. Each round the server running `task` dies holding it,
    # and so does another server that never ran it (holding `other`): the deaths are not the
    # task's doing. It is started again past MAX_LOST_RUNS, each start after a growing backoff,
    # and given up only at MAX_RECOVERIES.
    task = await store.create_task("t", {})
    await store.transition(task.id, "working")
    await store.save_step(task.id, "fetch", {"n": 1})

    async def claim(owner: str) -> list[str]:
        """What a server claims (one task): it dies holding `task`, and lets any other go."""
        taken = [t.id for t in await store.claim_runnable(owner, 5, 1)]
        for task_id in taken:
            if task_id != task.id:
                await store.release_lease(task_id, owner)
        return taken

    async def round_(n: int) -> list[str]:
        """A server claims and dies; meanwhile one that never ran `task` dies holding another."""
        taken = await claim(f"elsewhere:{n}:a")
        beside = await store.create_task("t", {})
        assert await store.acquire_lease(beside.id, f"elsewhere:{10_000 + n}:b", 5)
        clock.advance(6)  # both leases expire (TTL 5)
        assert await store.acquire_lease(beside.id, f"elsewhere:{20_000 + n}:c", 5)  # taken from b
        await store.release_lease(beside.id, f"elsewhere:{20_000 + n}:c")
        return taken

    for n in range(MAX_LOST_RUNS):
        assert await round_(n) == [task.id], f"given up after {n} runs lost to servers killed from outside"
    n, waited = MAX_LOST_RUNS, 0
    while (record := await store.get_task(task.id)).status.value != "failed":
        assert n <= MAX_RECOVERIES, "never given up"
        wait = recovery_backoff(n)  # n runs lost in a row: the next start waits this after the last
        assert 0 < wait <= BACKOFF_CAP_S
        if wait > 6:
            clock.advance(wait - 6 - 0.05)
            assert task.id not in await claim(f"elsewhere:early{n}:c")  # not due yet
            clock.advance(0.1)
            waited += 1
        taken = await round_(n)
        assert taken == [task.id] or n == MAX_RECOVERIES, (n, taken)
        n += 1
    assert n == MAX_RECOVERIES + 1 and waited > 0
    assert record.error is not None and record.error["code"] == "TASK_ABANDONED"
    assert record.error["message"].startswith(f"{MAX_RECOVERIES} server processes died")
    assert "servers not running it died too" in record.error["message"]
