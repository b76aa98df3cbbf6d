"""StallWatch names the task whose own code holds the event loop, and nobody for a stopped process."""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import Callable

from exa_orch.gateway.context import enter_request_scope
from exa_orch.runtime.stallwatch import StallWatch
from tests.support import WAIT


async def _blocks(task_id: str, done: Callable[[], bool]) -> None:
    """Hold the event loop (this task's own code, in its request scope) until `done()`, bounded."""
    enter_request_scope(principal=None, task_id=task_id)
    await asyncio.sleep(0)  # a yield, not a wait: the hold runs in a callback of its own
    deadline = time.monotonic() + WAIT
    while not done():  # on purpose: polled without yielding, so the loop stays held
        assert time.monotonic() < deadline, "the watch never got round to it"
        time.sleep(0.005)  # noqa: ASYNC251 (this task's code holds the loop)


async def _idles(task_id: str, started: asyncio.Event) -> None:
    enter_request_scope(principal=None, task_id=task_id)
    started.set()
    await asyncio.Event().wait()  # until cancelled


async def test_the_task_holding_the_loop_is_named_and_the_one_waiting_is_not() -> None:
    watch = StallWatch(hold=0.2, every=0.05)
    watch.start()
    started = asyncio.Event()
    idle = asyncio.create_task(_idles("waits", started))
    try:
        await started.wait()
        await asyncio.create_task(_blocks("holds", lambda: watch.held("holds") >= 0.2))
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
    samples = [0]

    def clock() -> float:
        samples[0] += 1
        return next(ticks)

    watch = StallWatch(hold=0.2, every=0.02, clock=clock)
    watch.start()
    try:
        # Held for 40 of the watch's readings of its clock: far past `hold` by any reckoning.
        await asyncio.create_task(_blocks("stopped", lambda: samples[0] >= 40))
        assert watch.held("stopped") == 0.0
    finally:
        watch.stop()
