"""StallWatch names the task whose own code holds the event loop, and nobody for a stopped process."""

from __future__ import annotations

import asyncio
import itertools
import time

from exa_orch.gateway.context import enter_request_scope
from exa_orch.runtime.stallwatch import StallWatch


async def _blocks(task_id: str, seconds: float) -> None:
    enter_request_scope(principal=None, task_id=task_id)
    await asyncio.sleep(0)
    time.sleep(seconds)  # noqa: ASYNC251 (on purpose: this task's code holds the loop)


async def _idles(task_id: str, started: asyncio.Event) -> None:
    enter_request_scope(principal=None, task_id=task_id)
    started.set()
    await asyncio.sleep(3_600)


async def test_the_task_holding_the_loop_is_named_and_the_one_waiting_is_not() -> None:
    watch = StallWatch(hold=0.2, every=0.05)
    watch.start()
    started = asyncio.Event()
    idle = asyncio.create_task(_idles("waits", started))
    try:
        await started.wait()
        await asyncio.create_task(_blocks("holds", 1.0))
        assert watch.held("holds") >= 0.2 and watch.held("waits") == 0.0
        watch.forget("holds")
        assert watch.held("holds") == 0.0
    finally:
        idle.cancel()
        watch.stop()


async def test_time_the_whole_process_stood_still_counts_for_nobody() -> None:
    # The watch's own samples come 10 s apart by its clock, as if the process were stopped between
    # each: however long the callback runs, nothing is blamed on it.
    ticks = itertools.count(step=10.0)
    watch = StallWatch(hold=0.2, every=0.02, clock=lambda: next(ticks))
    watch.start()
    try:
        await asyncio.create_task(_blocks("stopped", 0.8))
        assert watch.held("stopped") == 0.0
    finally:
        watch.stop()
