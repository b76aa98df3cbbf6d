"""StallWatch: names the durable task whose own code keeps a server's event loop busy.

A server's leases lapse when its event loop does not get round to renewing them: one callback ran
too long (a task's CPU-bound or blocking code), or the whole process did not run at all (SIGSTOP,
a paused VM, a machine too loaded to schedule it). Only the first is a task's fault. The watch is a
daemon thread that, every `every` s, looks at which callback the loop thread is running (the
innermost `asyncio.Handle._run` on its stack; CPython) and at the request scope that callback runs
in (`gateway.context`: its task id). A callback seen running across the watch's samples for `hold`
s of the watch's own time is the loop's holder, and its task a suspect. Time the watch itself did
not run (a sample overdue by more than `every` or 0.1 s: the whole process stood still) counts for nobody,
so a stopped or starved process blames none of its tasks.

Contract: `held(task_id)` is the longest a callback of that task has held the loop since
`forget(task_id)` (0.0 if never for `hold` s); safe to call from the loop while the thread runs.
"""

from __future__ import annotations

import asyncio
import logging
import sys
import threading
import time
from collections.abc import Callable
from types import FrameType

from exa_orch.gateway.context import request_in

logger = logging.getLogger(__name__)

_HANDLE_RUN = asyncio.Handle._run.__code__


class StallWatch:
    """`start()` on the event loop's thread, `stop()` when done; `held(task_id)` reads the verdicts."""

    def __init__(
        self, hold: float, every: float | None = None, clock: Callable[[], float] = time.monotonic
    ) -> None:
        if not hold > 0:
            raise ValueError("hold must be positive")
        self.hold = hold
        self.every = every if every is not None else min(0.5, hold / 4)
        self._clock = clock
        self._held: dict[str, float] = {}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._loop_thread = 0

    def start(self) -> None:
        """Watch the calling thread (the one running the event loop)."""
        if self._thread is not None:
            return
        self._loop_thread = threading.get_ident()
        self._thread = threading.Thread(target=self._watch, name="exa-orch-stallwatch", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop the thread (it ends within one sample)."""
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=max(1.0, 4 * self.every))

    def held(self, task_id: str) -> float:
        """The longest the task's code held the loop since `forget(task_id)`; 0.0 if under `hold`."""
        with self._lock:
            return self._held.get(task_id, 0.0)

    def forget(self, task_id: str) -> None:
        """Start the task's record afresh (a new run of it begins)."""
        with self._lock:
            self._held.pop(task_id, None)

    # -- the thread --------------------------------------------------------------------------

    def _watch(self) -> None:
        last = self._clock()
        running: asyncio.Handle | None = None
        held = 0.0
        while not self._stop.wait(self.every):
            now = self._clock()
            gap, last = now - last, now
            handle = self._running()
            if handle is None or handle is not running:
                running, held = handle, 0.0
                continue
            # A sample overdue by more than a scheduling delay (a loaded machine's 0.1 s): the whole
            # process stood still meanwhile (stopped, paused, starved), so that time is nobody's.
            if gap <= self.every + max(self.every, 0.1):
                held += gap
            if held >= self.hold:
                self._blame(handle, held)

    def _running(self) -> asyncio.Handle | None:
        """The callback the loop thread is running now, if any (None while it waits for I/O)."""
        frame: FrameType | None = sys._current_frames().get(self._loop_thread)
        while frame is not None:
            if frame.f_code is _HANDLE_RUN:
                handle = frame.f_locals.get("self")
                return handle if isinstance(handle, asyncio.Handle) else None
            frame = frame.f_back
        return None

    def _blame(self, handle: asyncio.Handle, held: float) -> None:
        context = getattr(handle, "_context", None)
        task_id = request_in(context).task_id if context is not None else None
        if task_id is None:
            return  # not a task's code (the server's own, or an operation outside any task)
        with self._lock:
            before = self._held.get(task_id, 0.0)
            self._held[task_id] = max(before, held)
        if before < self.hold:
            logger.warning(
                "task %s: its code has held the event loop for %.1f s; if its leases lapse, it is the suspect",
                task_id,
                held,
            )
