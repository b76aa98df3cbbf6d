"""A task whose lease may have lapsed sends nothing to Exa (gateway/fence.py), and its run ends as a
lost lease (the task resumes later), never as a failure."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from pydantic import BaseModel

from exa_orch.config import Secret
from exa_orch.errors import LeaseHeld, LeaseLapsed, OrchError
from exa_orch.gateway.context import request_scope
from exa_orch.gateway.fence import LeaseFence, margin_for
from exa_orch.gateway.transport import GovernedTransport
from exa_orch.runtime import Deps, Supervisor, TaskContext, WorkflowRegistry, WorkflowSpec
from exa_orch.sim.testing import SimHandle
from exa_orch.store import Store, TaskRecord, TaskStatus
from tests.runtime.conftest import FAST, supervisor
from tests.support import WAIT, until


@pytest.fixture
async def governed(sim: SimHandle) -> AsyncIterator[httpx.AsyncClient]:
    """A client whose every request passes through the governed transport (and so its fence)."""
    transport = GovernedTransport(api_key=Secret("test-key"), exa_url=sim.url)
    async with httpx.AsyncClient(base_url=sim.url, transport=transport) as client:
        yield client


def attempts(client: httpx.AsyncClient) -> int:
    transport = client._transport
    assert isinstance(transport, GovernedTransport)
    return transport.stats.attempts


async def test_a_run_whose_lease_lapsed_before_its_requests_sends_none_and_resumes_later(
    store: Store, sim: SimHandle, governed: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The fence's clock: each claim that leases the task is followed by a "stop" of 100 s (the
    # lease is 5 s), as a SIGSTOP right after the claim would do, until `stopping` is cleared.
    now = [0.0]
    stopping = [True]
    claim = store.claim_runnable

    async def claim_then_stop(*args: Any, **kwargs: Any) -> list[TaskRecord]:
        records = await claim(*args, **kwargs)
        if records and stopping[0]:
            now[0] += 100.0
        return records

    monkeypatch.setattr(store, "claim_runnable", claim_then_stop)
    # No heartbeat during the test: a renewal after the "stop" would rightly renew the lease (nobody
    # took it) and move the fence on, and the run would go ahead.
    hour = 3600.0
    async with supervisor(store, {"http": governed}, monotonic=lambda: now[0], heartbeat=hour) as sup:
        task = await sup.tasks.create("rt.webset", {"count": 2})
        # Three runs began, so at least two ended, each at its first request (the find-first lookup).
        await until(lambda: sup.started_total >= 3, within=WAIT, what="three lapsed runs")
        stopping[0] = False
        stalled = await store.get_task(task.id)
        assert sim.log() == []  # nothing reached the simulator
        assert attempts(governed) == 0
        assert stalled.status is TaskStatus.WORKING  # still to be done: not failed, not completed
        assert stalled.error is None
        assert await store.load_steps(task.id) == {}
        done = await sup.tasks.wait(task.id, timeout=WAIT)
    assert done.status is TaskStatus.COMPLETED, done.error
    assert sim.stats()["creates_by_external_id"] == {f"{task.id}:create": 1}


async def test_the_transport_refuses_before_the_send_and_records_the_refusal(
    sim: SimHandle, governed: httpx.AsyncClient
) -> None:
    now = [10.0]
    fence = LeaseFence("task_x", valid_until=13.0, margin=2.0, clock=lambda: now[0])
    with request_scope(fence=fence):
        # 3 s left, more than the 2 s margin: sent.
        assert (await governed.get("/websets/v0/websets")).status_code == 200
        assert attempts(governed) == 1
        now[0] = 11.5  # 1.5 s left: within the margin, refused unsent
        with pytest.raises(LeaseLapsed) as refused:
            await governed.post("/websets/v0/websets", json={"search": {"query": "x", "count": 1}})
        assert isinstance(refused.value, LeaseHeld)  # the actor's lost-lease path catches it
        assert "POST /websets/v0/websets was not sent" in refused.value.message
        assert attempts(governed) == 1
        assert len(sim.log()) == 1
        assert fence.tripped is refused.value
        # A renewal moves the fence on, never back.
        fence.extend(20.0)
        fence.extend(15.0)
        assert fence.valid_until == 20.0
        assert (await governed.get("/websets/v0/websets")).status_code == 200
    # Outside a task (no fence set), nothing is fenced.
    now[0] = 1000.0
    assert (await governed.get("/websets/v0/websets")).status_code == 200


def test_the_margin_is_two_seconds_or_a_quarter_of_a_short_lease() -> None:
    assert margin_for(15.0) == 2.0
    assert margin_for(0.5) == 0.125


class SwallowArgs(BaseModel):
    pass


async def swallowing_workflow(ctx: TaskContext, args: SwallowArgs) -> dict[str, Any]:
    """Records a failed create as a result and goes on, as some built-in workflows do with OrchError."""
    try:
        made = await ctx.deps.extras["http"].post("/websets/v0/websets", json={"search": {"query": "x"}})
    except OrchError as exc:
        return {"error": exc.to_dict()}
    return {"made": made.json()["id"]}


async def swallowing_step(ctx: TaskContext, args: SwallowArgs) -> dict[str, Any]:
    """The same inside a step, as the citation check's reads did (a webset "gone", a page
    "unreachable"): the stand-in would be its checkpoint, and a resumed run would read it back."""
    made: dict[str, Any] = await ctx.step("create", lambda: swallowing_workflow(ctx, args))
    return made


@pytest.mark.parametrize("fn", [swallowing_workflow, swallowing_step])
async def test_a_workflow_that_catches_the_refusal_does_not_end_the_task(
    store: Store, sim: SimHandle, governed: httpx.AsyncClient, fn: Any
) -> None:
    now = [0.0]
    claim = store.claim_runnable

    async def claim_then_stop(*args: Any, **kwargs: Any) -> list[TaskRecord]:
        records = await claim(*args, **kwargs)
        if records:
            now[0] += 100.0
        return records

    store.claim_runnable = claim_then_stop  # type: ignore[method-assign]
    workflows = WorkflowRegistry([WorkflowSpec("rt.swallow", SwallowArgs, fn, "catches")])
    sup = Supervisor(
        store,
        workflows,
        Deps(extras={"http": governed}),
        **{**FAST, "heartbeat": 3600.0},
        monotonic=lambda: now[0],
    )
    async with sup:
        task = await sup.tasks.create("rt.swallow", {})
        await until(lambda: sup.started_total >= 2, within=WAIT, what="two lapsed runs")
        record = await store.get_task(task.id)
    # The workflow returned {"error": ...}, yet the run ended as a lost lease: nothing stored, not
    # even the step's checkpoint.
    assert record.status is TaskStatus.WORKING
    assert record.result is None and record.error is None
    assert await store.load_steps(task.id) == {}
    assert sim.log() == []


async def test_a_heartbeat_renewal_moves_the_fence_on(store: Store, governed: httpx.AsyncClient) -> None:
    now = [0.0]
    gate = asyncio.Event()
    async with supervisor(store, {"http": governed, "gate": gate}, monotonic=lambda: now[0]) as sup:
        task = await sup.tasks.create("rt.steps", {"steps": 1, "block_at": 0})
        actor = await until(lambda: sup.actor(task.id), what="the actor")
        assert actor.fence is not None
        assert actor.fence.valid_until == FAST["lease_ttl"]  # leased at 0
        now[0] = 3.0  # the next heartbeat renews at 3: valid until 3 + TTL
        await until(lambda: actor.fence.valid_until == 3.0 + FAST["lease_ttl"], what="a renewal")
        gate.set()
        done = await sup.tasks.wait(task.id, timeout=WAIT)
    assert done.status is TaskStatus.COMPLETED, done.error


async def test_a_lease_that_lapses_after_the_transports_check_is_caught_at_the_socket(
    sim: SimHandle, governed: httpx.AsyncClient
) -> None:
    """The gap the three-server test met beside busy loops: the transport checked the fence, the
    process was stopped before httpx wrote the request (it was still connecting), and, woken long
    after the lease lapsed and another process made the object, it sent the create. The fence is
    checked again right before the bytes are written; the create never reaches Exa."""
    checks = [0]

    def clock() -> float:  # valid at the transport's check; 100 s later at the next (a stop)
        checks[0] += 1
        return 0.0 if checks[0] == 1 else 100.0

    fence = LeaseFence("task_gap", valid_until=10.0, margin=margin_for(5.0), clock=clock)
    with request_scope(fence=fence):
        with pytest.raises(LeaseLapsed) as refused:
            await governed.post("/websets/v0/websets", json={"search": {"query": "x", "count": 1}})
    assert checks[0] >= 2 and fence.tripped is refused.value
    assert "POST /websets/v0/websets" in refused.value.message
    assert [e for e in sim.log() if e["method"] == "POST"] == []
