"""On PostgreSQL a cancel asked on one server, or a takeover by another, reaches the server running
the task through NOTIFY at once, not at its next heartbeat (here a minute away, so only the
notification can deliver it in time); one missed while the listener was away arrives when it is back.
(On SQLite the heartbeat delivers it: test_supervisor.py's cancel by another process.)"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

import pytest

from exa_orch.store import Store, TaskRecord, TaskStatus
from exa_orch.store.pgcluster import Cluster
from tests.pg import fresh_database, listeners_cut_off
from tests.runtime.conftest import supervisor
from tests.support import WAIT, until_steps

# Nothing ticks during a test: no heartbeat, no lease lapses, no claim poll.
SLOW = {"heartbeat": 60.0, "lease_ttl": 120.0, "claim_interval": 60.0}


@pytest.fixture
def url(pg_cluster: Cluster, pg_template: str) -> str:
    return fresh_database(pg_cluster, pg_template)


def recorder() -> tuple[list[str], Callable[[str], Awaitable[None]]]:
    """What rt.gated's cancel hook undid, and the `undo` service that records it."""
    undone: list[str] = []

    async def undo(thing: str) -> None:
        undone.append(thing)

    return undone, undo


async def test_a_cancel_asked_on_another_server_stops_the_task_at_the_notification(url: str) -> None:
    undone, undo = recorder()
    async with Store(url) as a, Store(url) as b, supervisor(a, {"undo": undo}, **SLOW) as runner:
        task = await runner.tasks.create("rt.gated", {})
        await until_steps(a, task.id, "create")  # its cancel hook is registered right after
        async with supervisor(b, {}, **SLOW) as other:
            assert other.actor(task.id) is None  # the lease is A's: B only asks
            async with asyncio.timeout(WAIT):
                done = await other.tasks.cancel(task.id)
    assert done.status is TaskStatus.CANCELLED
    assert undone == ["thing-1"]


async def test_a_lease_taken_over_by_another_server_stops_the_runner_at_the_notification(url: str) -> None:
    undone, undo = recorder()
    later = time.time() + 3_600  # a server on whose clock A's lease has lapsed (A stalled, say)
    async with (
        Store(url) as a,
        Store(url, clock=lambda: later) as rescuer,
        supervisor(a, {"undo": undo}, **SLOW) as runner,
    ):
        task = await runner.tasks.create("rt.gated", {})
        await until_steps(a, task.id, "create")
        actor = runner.actor(task.id)
        assert actor is not None
        assert [t.id for t in await rescuer.claim_runnable(rescuer.owner_id, 60, 1)] == [task.id]
        async with asyncio.timeout(WAIT):
            await actor.wait_done()
        assert runner.actor(task.id) is None
        record = await a.get_task(task.id)
    # Stopped, not cancelled: the rescuer holds it and runs it on.
    assert record.status is TaskStatus.WORKING and record.lease_owner == rescuer.owner_id
    assert undone == []


async def test_a_cancel_notified_while_the_listener_was_away_arrives_when_it_is_back(
    url: str, pg_cluster: Cluster
) -> None:
    undone, undo = recorder()
    async with Store(url) as a, Store(url) as b, supervisor(a, {"undo": undo}, **SLOW) as runner:
        task = await runner.tasks.create("rt.gated", {})
        await until_steps(a, task.id, "create")
        actor = runner.actor(task.id)
        assert actor is not None
        resynced = asyncio.Event()
        a.on_change(lambda task_id: resynced.set() if task_id is None else None)
        # The listeners are cut off and can't come back, so the cancel below commits while nobody
        # listens: its NOTIFY is lost for good.
        async with listeners_cut_off(pg_cluster, url):
            await b.request_cancel(task.id)
            assert not resynced.is_set()
        async with asyncio.timeout(WAIT):  # the listener tries again within 2 s
            await actor.wait_done()
        assert resynced.is_set()
        record: TaskRecord = await a.get_task(task.id)
    assert record.status is TaskStatus.CANCELLED
    assert undone == ["thing-1"]
