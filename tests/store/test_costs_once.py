"""The ledger's keys (migration 0013): an agent run's row and an estimate's are written once however
often they are recorded; a request's row is written as recorded (the gateway records each answer
once). On every backend."""

from __future__ import annotations

from exa_orch.store import CostRow, Store


async def test_agent_runs_and_estimates_count_once_requests_as_recorded(store: Store) -> None:
    task = await store.create_task("t", {})
    rows = [
        CostRow(key="agent_run:r1", operation="agent.run", usd=0.11, billed=True, task_id=task.id),
        CostRow(key="webset_item:s1:0", operation="websets.item", usd=0.031, billed=False, task_id=task.id),
        CostRow(key="req_1", operation="search", usd=0.007, billed=True, task_id=task.id),
    ]
    for row in rows + rows[:2]:  # the run read again, the webset read again
        await store.record_cost(row)
    keys = sorted(r[0] for r in await store._read("SELECT key FROM v_costs"))
    assert keys == ["agent_run:r1", "req_1", "webset_item:s1:0"]
    # The task's totals (kept on its row, migration 0014) count each inserted row once.
    assert (await store.task_costs([task.id]))[task.id] == {"usd": 0.148, "billed": 0.117, "estimated": 0.031}
