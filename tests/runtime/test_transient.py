"""A run that ends on a transient Exa error (5xx past the gateway's retries) backs off and resumes.

Real simulator over loopback with its fault injection, the real gateway (few, fast retries) and
a store whose clock the test moves forward past each backoff (store/backoff.py), so no test waits
out a backoff in wall time.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel, Field

from exa_orch.app import ledger_of
from exa_orch.gateway import Gateway
from exa_orch.gateway.retry import RetryPolicy
from exa_orch.runtime import Deps, Supervisor, TaskContext, WorkflowRegistry, WorkflowSpec
from exa_orch.sim.context import FaultConfig
from exa_orch.sim.testing import SimHandle
from exa_orch.store import Store, TaskRecord, TaskStatus
from exa_orch.store.backoff import MAX_TRANSIENT_RUNS
from exa_orch.store.leases import BACKOFF_OWNER
from tests.gateway._util import settings_for
from tests.runtime.conftest import FAST
from tests.runtime.workflows import WebsetArgs, _create_webset
from tests.support import WAIT, until

FAULTS = FaultConfig(rate=1.0, kinds=("503",))


class FlakyArgs(BaseModel):
    n: int = Field(default=3, ge=1, le=20)


async def flaky(ctx: TaskContext, args: FlakyArgs) -> dict[str, Any]:
    """A webset made once (externalId), then `n` billed searches, each its own checkpoint."""
    made = await _create_webset(ctx, "create", WebsetArgs(count=1))
    gate = ctx.deps.extras.get("gate")
    if gate is not None:
        await gate.wait()
    assert ctx.deps.gateway is not None
    http = ctx.deps.gateway.http
    urls: list[str] = []
    for i in range(args.n):

        async def search(i: int = i) -> list[str]:
            answer = await http.post("/search", json={"query": f"AI startups {i}", "numResults": 2})
            return [r["url"] for r in answer.json()["results"]]

        urls += await ctx.step(f"search.{i}", search)
    return {"websetId": made["id"], "urls": urls}


REGISTRY = WorkflowRegistry([WorkflowSpec("tr.flaky", FlakyArgs, flaky)])


class Clock:
    """Wall time plus an offset the test moves forward (each backoff is skipped, not waited)."""

    def __init__(self) -> None:
        self.ahead = 0.0

    def __call__(self) -> float:
        return time.time() + self.ahead


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def store(tmp_path: Path, clock: Clock) -> AsyncIterator[Store]:
    async with Store(tmp_path / "workflows.db", clock=clock) as s:
        yield s


@pytest.fixture
async def gateway(sim: SimHandle, store: Store) -> AsyncIterator[Gateway]:
    fast = RetryPolicy(max_attempts=3, backoff=0.01, jitter=0.01, max_backoff=0.05)
    async with Gateway(settings_for(sim, concurrency=3, rps=1000), retry=fast) as gw:
        gw.record_costs(ledger_of(store))
        yield gw


def supervisor(store: Store, gateway: Gateway, **extras: Any) -> Supervisor:
    return Supervisor(store, REGISTRY, Deps(gateway=gateway, extras=extras), **FAST)  # type: ignore[arg-type]


async def backing_off(store: Store, task_id: str) -> TaskRecord | None:
    record = await store.get_task(task_id)
    return record if (record.lease_owner or "").startswith(BACKOFF_OWNER) else None


async def test_a_task_with_a_checkpoint_outlives_a_run_of_503s_and_completes_once_they_stop(
    sim: SimHandle, gateway: Gateway, store: Store, clock: Clock
) -> None:
    gate = asyncio.Event()
    async with supervisor(store, gateway, gate=gate) as sup:
        task = await sup.tasks.create("tr.flaky", {"n": 3})
        await until(lambda: _saved(store, task.id, "create"), what="the create's checkpoint")
        sim.set_faults(FAULTS)  # every request from now on: 503, longer than the gateway's retries
        gate.set()
        waiting = await until(lambda: backing_off(store, task.id), what="the backoff")
        # Not failed: still working, and an agent polling tasks.get reads why and until when.
        assert waiting.status is TaskStatus.WORKING and waiting.error is None
        assert waiting.progress is not None
        assert waiting.progress["message"].startswith("Exa answered 503; retrying at "), waiting.progress
        assert waiting.progress["retryAt"] == waiting.lease_expires_at
        sim.set_faults(FaultConfig())
        clock.ahead += 3600  # past the backoff: the next claim resumes it from its checkpoints
        done = await sup.tasks.wait(task.id, timeout=WAIT)
    assert done.status is TaskStatus.COMPLETED, done.error
    assert sim.stats()["creates_by_external_id"] == {f"{task.id}:create": 1}
    rows = await store._read("SELECT step_key, usd FROM v_costs WHERE task_id = ?", (task.id,))
    account = sim.ctx.extras["billing"]
    assert sorted(r[0] for r in rows) == [f"search.{i}" for i in range(3)]  # each search paid once
    assert (await store.task_costs([task.id]))[task.id]["usd"] == pytest.approx(account.spent)


async def test_a_task_that_never_gets_past_its_errors_fails_after_the_bounded_attempts(
    sim: SimHandle, gateway: Gateway, store: Store, clock: Clock
) -> None:
    sim.set_faults(FAULTS)  # from the first request: no run makes any progress
    async with supervisor(store, gateway) as sup:
        task = await sup.tasks.create("tr.flaky", {"n": 1})

        async def skip_backoffs() -> TaskRecord | None:
            record = await store.get_task(task.id)
            if record.terminal:
                return record
            if (record.lease_owner or "").startswith(BACKOFF_OWNER):
                clock.ahead += 3600
            return None

        done = await until(skip_backoffs, what="the task given up")
    assert done.status is TaskStatus.FAILED, done
    assert done.error is not None
    assert done.error["code"] == "API_ERROR" and done.error["recoverable"] is True
    assert done.error["attempts"] == MAX_TRANSIENT_RUNS
    assert f"Given up after {MAX_TRANSIENT_RUNS} attempts" in done.error["message"]
    assert "Exa answered 503" in done.error["message"]
    claims = [e for e in await store.events(task.id) if e["kind"] == "claimed"]
    assert len(claims) == MAX_TRANSIENT_RUNS
    assert not sim.stats()["creates_by_external_id"]


async def test_a_non_transient_error_still_fails_at_once(
    sim: SimHandle, gateway: Gateway, store: Store
) -> None:
    sim.set_faults(FaultConfig(rate=1.0, kinds=("401",)))
    async with supervisor(store, gateway) as sup:
        task = await sup.tasks.create("tr.flaky", {"n": 1})
        done = await sup.tasks.wait(task.id, timeout=WAIT)
    assert done.status is TaskStatus.FAILED, done
    assert done.error is not None and done.error["code"] == "AUTHENTICATION_ERROR"
    assert len([e for e in await store.events(task.id) if e["kind"] == "claimed"]) == 1


async def test_a_cancel_during_the_backoff_cancels_the_task_and_starts_no_run(
    sim: SimHandle, gateway: Gateway, store: Store
) -> None:
    sim.set_faults(FAULTS)
    async with supervisor(store, gateway) as sup:
        task = await sup.tasks.create("tr.flaky", {"n": 1})
        await until(lambda: backing_off(store, task.id), what="the backoff")
        sent = len(sim.log())
        cancelled = await sup.tasks.cancel(task.id, settle=WAIT)
    assert cancelled.status is TaskStatus.CANCELLED, cancelled
    assert len(sim.log()) == sent  # nothing more was sent to Exa


async def _saved(store: Store, task_id: str, key: str) -> bool:
    return key in await store.load_steps(task_id)
