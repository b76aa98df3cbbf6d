"""TaskService.cancel's `settle`: one bounded wait, owned by the service, for a runner elsewhere."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from exa_orch.store import Store, TaskStatus
from tests.runtime.conftest import supervisor
from tests.support import WAIT, until


@pytest.mark.parametrize("settle", [0.0, 10.0])
async def test_cancel_of_a_task_run_elsewhere_waits_only_when_asked_to_settle(
    settle: float, db_path: Path
) -> None:
    async with Store(db_path) as a, Store(db_path) as b:
        created = await a.create_task("rt.steps", {"steps": 1})
        (leased,) = await b.claim_runnable(b.owner_id, 60.0, 1)  # process B runs it, not A
        await b.transition(leased.id, TaskStatus.WORKING, owner=b.owner_id)
        async with supervisor(a, {}) as sup:
            sup.tasks.cancel_wait = 0.0  # the unsettled answer comes at once
            cancel = asyncio.create_task(sup.tasks.cancel(created.id, settle=settle))

            async def requested() -> bool:
                return (await b.get_task(created.id)).cancel_requested

            await until(requested, within=WAIT)
            if settle == 0:
                async with asyncio.timeout(WAIT):
                    record = await cancel
                assert record.status is TaskStatus.WORKING and record.cancel_requested
                return
            assert not cancel.done()  # still settling: B has not stopped yet
            await b.transition(created.id, TaskStatus.CANCELLED, message="cancelled", owner=b.owner_id)
            async with asyncio.timeout(WAIT):
                record = await cancel
            assert record.status is TaskStatus.CANCELLED
