"""The watches' store (store/watches.py) on every backend: a due run is claimed once however many
claim it from the same read, a run is recorded once, a claimed run is a normal pending task; a
recorded run's notices (store/watch_outbox.py) are claimed once and settled by their claimant."""

from __future__ import annotations

import asyncio

from exa_orch.store import Store, TaskStatus
from exa_orch.store.watch_outbox import Delivery, Notices, Outbox, Outcome
from exa_orch.store.watches import Claim, Finish, NewWatch, Watches

NEW = NewWatch(owner="alice", type="operation", args={"operation": "exa.search"}, every_s=60.0, cron=None,
               budget_usd=0.5, notify={"webhook": None, "mcp": True}, secret="whsec_x", next_due=1000.0)  # fmt: skip


async def test_a_due_run_read_by_many_is_claimed_once_and_recorded_once(store: Store) -> None:
    book = Watches(store)
    watch = await book.create(NEW)
    assert (watch.owner, watch.signed, watch.runs, watch.running_task) == ("alice", True, 0, None)
    assert [w.id for w in await book.due(999.0)] == [] and [w.id for w in await book.due(1000.0)] == [
        watch.id
    ]
    claims = [
        Claim(watch, 1060.0, 1000.5, {"operation": "exa.search", "args": {}}, {"watchId": watch.id}, 60_000)
    ]
    got = await asyncio.gather(*(book.claim(c) for c in claims * 5))  # five servers, one read
    won = [g for g in got if g is not None]
    assert len(won) == 1
    task, n = won[0]
    assert n == 1 and task.status is TaskStatus.PENDING and task.principal == "alice"
    assert task.meta == {"watchId": watch.id}
    after = await book.get(watch.id)
    assert after is not None and (after.next_due, after.running_task, after.runs) == (1060.0, task.id, 1)
    assert await book.due(5000.0) == []  # a run in flight: nothing else is due
    done = Finish(watch.id, task.id, "completed", 1001.0, False, {"added": []}, 0.01, snapshot={"a": {}})
    recorded = await asyncio.gather(*(book.finish(done) for _ in range(3)))
    assert sorted(recorded) == [False, False, True]
    [run] = await book.runs(watch.id)
    assert (run.n, run.task_id, run.status, run.changed, run.cost_usd, run.due_at) == (
        1,
        task.id,
        "completed",
        False,
        0.01,
        1000.0,
    )
    assert (await book.run_of_task(task.id)) == run
    after = await book.get(watch.id)
    assert after is not None and after.running_task is None and after.snapshot == {"a": {}}


async def test_paused_and_deleted_watches_are_never_claimed(store: Store) -> None:
    book = Watches(store)
    watch = await book.create(NEW)
    await book.set_paused(watch.id, True)
    claim = Claim(watch, 1060.0, 1000.0, {}, {}, 60_000)
    assert await book.claim(claim) is None and await book.due(5000.0) == []
    await book.set_paused(watch.id, False)
    assert [w.id for w in await book.owned("alice", False)] == [watch.id]
    assert await book.owned("bob", False) == []
    await book.delete(watch.id)
    assert await book.claim(claim) is None and await book.get(watch.id) is None
    assert await book.secret(watch.id) is None


async def test_a_recorded_runs_notices_are_claimed_once_and_settled_by_the_claimant_only(
    store: Store,
) -> None:
    book, outbox = Watches(store), Outbox(store)
    watch = await book.create(NEW)
    claimed = await book.claim(Claim(watch, 1060.0, 1000.0, {}, {"watchId": watch.id}, 60_000))
    assert claimed is not None
    task, _ = claimed
    notices = Notices(("webhook", "mcp"), "alice", {"watchId": watch.id}, "server-a", wall=500.0)
    finish = Finish(watch.id, task.id, "completed", 1001.0, True, {"added": ["x"]}, 0.01, {"x": {}}, notices)
    assert await book.finish(finish)  # the run and its two notices, in one transaction
    webhook, mcp = await outbox.pending(0)
    assert (webhook.channel, webhook.run, webhook.payload["run"], mcp.channel) == ("webhook", 1, 1, "mcp")
    assert [n.id for n in await outbox.pending(mcp.id)] == [webhook.id]  # past the cursor: the webhook
    taken = await asyncio.gather(*(outbox.claim(webhook, f"server-{i}", 501.0, 15.0) for i in range(4)))
    assert sorted(taken) == [False, False, False, True]
    holder = f"server-{taken.index(True)}"
    # Only the claimant settles it; its failure puts it back, due again at 503.
    assert not await outbox.settle(Outcome(webhook, "someone-else", 502.0, None))
    assert await outbox.settle(Outcome(webhook, holder, 502.0, "HTTP 503", next_at=503.0))
    [again] = [n for n in await outbox.pending(mcp.id) if n.channel == "webhook"]
    assert (again.status, again.attempts, again.next_at, again.lease_until) == ("pending", 1, 503.0, None)
    assert not await outbox.claim(again, "server-x", 502.5, 15.0)  # not due yet
    assert await outbox.claim(again, "server-x", 503.0, 15.0)
    # A claimant that dies: its lease lapses at 518, and another server takes the row then.
    [held] = [n for n in await outbox.pending(mcp.id) if n.channel == "webhook"]
    assert not await outbox.claim(held, "server-y", 510.0, 15.0)
    assert await outbox.claim(held, "server-y", 518.5, 15.0)
    assert await outbox.settle(Outcome(held, "server-y", 519.0, None))
    assert (await outbox.deliveries(watch.id))[1] == Delivery(1, "delivered", 3, None, 519.0)
    await outbox.told(mcp, 520.0)
    [run] = await book.runs(watch.id)
    assert run.notified == ["webhook", "mcp"]
    await book.delete(watch.id)
    assert await outbox.pending(0) == []
