"""TaskContext.step: steps run one after the other or side by side, never one inside another."""

from __future__ import annotations

import asyncio

import pytest

from exa_orch.runtime import Deps, TaskContext
from exa_orch.store import Store


async def _context(store: Store) -> TaskContext:
    task = await store.create_task("t", {})
    return TaskContext(task_id=task.id, args=None, store=store, deps=Deps(), steps={}, resumed=False)


async def test_a_step_inside_a_step_is_refused_and_nothing_of_it_is_saved(store: Store) -> None:
    ctx = await _context(store)

    async def outer() -> int:
        return await ctx.step("inner", lambda: 1)

    with pytest.raises(ValueError, match="steps can't nest") as info:
        await ctx.step("outer", outer)
    assert "'inner'" in str(info.value) and "'outer'" in str(info.value)
    assert await store.load_steps(ctx.task_id) == {}
    # The refusal leaves the context usable: the next step runs and is saved.
    assert await ctx.step("after", lambda: 2) == 2
    assert await store.load_steps(ctx.task_id) == {"after": 2}


async def test_steps_side_by_side_are_fine(store: Store) -> None:
    ctx = await _context(store)

    async def slow(n: int) -> int:
        await asyncio.sleep(0)
        return n * n

    results = await asyncio.gather(*(ctx.step(f"s{n}", lambda n=n: slow(n)) for n in range(4)))
    assert results == [0, 1, 4, 9]
    assert await store.load_steps(ctx.task_id) == {"s0": 0, "s1": 1, "s2": 4, "s3": 9}
