"""How a stopped task ends: its cancel hooks, what it found, and what its progress says.

A task stops short when it is cancelled, its budget is reached or its deadline passes (the
actor, `exa_orch.runtime.actor`, decides when). Whatever it paid for stays its answer:
`stopped_answer` runs its cancel hooks and reads what its work found; `replay_for_hooks` replays
a task an earlier run began up to its first live step, so the hooks that run registered are known
again; `stop_progress` is what its progress says afterwards.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from exa_orch.gateway.context import request_scope
from exa_orch.runtime.context import TaskContext
from exa_orch.runtime.deps import Deps
from exa_orch.runtime.spec import WorkflowSpec
from exa_orch.store import Store, TaskRecord

logger = logging.getLogger("exa_orch.runtime.actor")  # its lines read as the actor's, as before


async def stopped_answer(
    store: Store,
    task_id: str,
    ctx: TaskContext | None,
    stopped_by: str,
    result: Any = None,
    *,
    hook_timeout: float,
) -> dict[str, Any]:
    """A stopped task's answer: its cancel hooks run, then what it found (the workflow's
    `result` if it returned one, else its stored partial result with what its on_stop salvage
    reads from Exa), marked {partial: true, stoppedBy}. Nothing it paid for is left out. Each of
    the hooks and the salvage is bounded by `hook_timeout`."""
    salvaged: dict[str, Any] = {}
    if ctx is not None:
        with request_scope(purse=None):  # the cancels and reads are sent although the budget is spent
            await ctx._run_cancel_hooks(hook_timeout)
            if result is None:
                salvaged = await ctx._salvaged(hook_timeout)
    if result is None:
        result = (await store.get_task(task_id)).partial
    found = dict(result) if isinstance(result, dict) else {} if result is None else {"result": result}
    return {**found, **salvaged, "partial": True, "stoppedBy": stopped_by}


async def replay_for_hooks(
    spec: WorkflowSpec | None,
    record: TaskRecord,
    *,
    store: Store,
    deps: Deps,
    owner: str,
    hook_timeout: float,
    task: asyncio.Task[Any] | None,
) -> TaskContext | None:
    """Replay the checkpoints up to the first live step or sleep, so the workflow registers its
    cancel hooks again (bounded by hook_timeout). None if the workflow can't run here. `task` is
    the actor's own asyncio task: a cancel of it from outside is re-raised, never swallowed."""
    if spec is None:
        return None
    ctx: TaskContext | None = None
    try:
        args = spec.validate(record.args)
        async with asyncio.timeout(hook_timeout):
            ctx = TaskContext(
                task_id=record.id,
                args=args,
                store=store,
                deps=deps,
                steps=await store.load_steps(record.id),
                resumed=True,
                owner=owner,
                cancelling=True,
            )
            await spec.fn(ctx, args)
    except asyncio.CancelledError:
        if task is not None and task.cancelling():
            raise  # cancelled from outside (the task group is torn down)
        # The replay reached its first live step or sleep: ctx holds the hooks.
    except Exception:  # a failed or overlong replay: run the hooks it found, then cancel anyway
        logger.warning("task %s: replay to its cancel hooks ended early", record.id, exc_info=True)
    return ctx


def stop_progress(last: dict[str, Any], stopped_by: str) -> dict[str, Any]:
    """A stopped task's progress: `last` with how it stopped short (the views read it there, not
    in a result of any size), its counts kept, the bar no longer read as a full run's."""
    word = {"budget": "its budget was reached", "timeout": "its deadline passed"}.get(stopped_by, stopped_by)
    return {
        **last,
        "stoppedBy": stopped_by,
        "message": f"stopped: {word}; its result keeps what it found",
    }
