"""A running task's purse: what it may still spend, opened once per run of the task.

The purse itself, and the checks every request to Exa passes, are the gateway's
(`exa_orch.gateway.purse`); this module fills one for a run from the store (the task's budget,
what its earlier runs spent and still hold) and sets it for every request the run sends.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from exa_orch.gateway.context import set_request
from exa_orch.gateway.purse import Purse
from exa_orch.gateway.running import running_work
from exa_orch.store import Store, TaskRecord


async def open_purse(
    store: Store, record: TaskRecord, steps: dict[str, Any], on_stop: Callable[[], None]
) -> Purse:
    """The task's purse: its budget (`budgetUsd` at create) and what the ledger says it spent
    already (a resumed task), set for every request this run sends (gateway/purse.py). A resumed
    task holds again what its earlier run held for the Exa work still running: each agent run's
    worst case (one the ledger has no final cost for) and what each webset search may still
    find, from its checkpoints (`running.running_work`); work its checkpoints miss is held at
    its first read (gateway/accounts.py). `on_stop` is called when the purse stops the task
    between requests."""
    task_id = record.id
    budget = record.meta.get("budgetUsd")
    spent = (await store.task_costs([task_id]))[task_id]["usd"]
    estimated: set[str] = set()
    paid_steps: set[str] = set()
    run_keys: set[str] = set()
    if spent:  # a resumed task: what the ledger holds of its earlier runs
        estimated, paid_steps = await store.task_ledger(task_id, record.principal, record.created_at)
    runs, searches = running_work(steps) if steps else ({}, {})
    if spent:  # runs already counted: a read of one again adds nothing
        run_keys = await store.task_run_keys(task_id, record.principal, record.created_at)
    purse = Purse(task_id, float(budget) if isinstance(budget, int | float) else None, spent, estimated)
    purse.on_stop = on_stop
    purse.paid_steps = paid_steps
    purse.counted_runs = run_keys
    for run_id, worst in runs.items():
        purse.hold_run(run_id, worst)
    for search_id, search in searches.items():
        purse.hold_search(search_id, search.left(estimated, search_id))
    set_request(purse=purse)
    return purse
