"""Changes: how the parts of one process hear of task changes committed by any process.

On PostgreSQL the store's Listener (postgres.py) hands every NOTIFY on `exa_orch_task` to
`Changes.notified`: a task id (the task's status or cancel flag changed, or its lease passed from
one holder to another), RUNNABLE (a task was created or let go unfinished), or None after the
listener reconnected (notifications may have been missed: everything may have changed). Nothing
calls it on SQLite, whose waiters poll instead. Every callback runs on the event loop.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from exa_orch.store.postgres import RUNNABLE


def _register(callbacks: list[Any], callback: Any) -> Callable[[], None]:
    """Add `callback` to `callbacks`; return the function that takes it out again."""
    callbacks.append(callback)

    def unregister() -> None:
        if callback in callbacks:
            callbacks.remove(callback)

    return unregister


class Changes:
    """Waiters' events per task, and callbacks for runnable work and for any task's change."""

    def __init__(self) -> None:
        self._watchers: dict[str, set[asyncio.Event]] = {}
        self._on_runnable: list[Callable[[], None]] = []
        self._on_change: list[Callable[[str | None], None]] = []

    def watch(self, task_id: str) -> asyncio.Event:
        """An event set at the task's next notified change."""
        event = asyncio.Event()
        self._watchers.setdefault(task_id, set()).add(event)
        return event

    def unwatch(self, task_id: str, event: asyncio.Event) -> None:
        """Forget an event `watch` returned."""
        events = self._watchers.get(task_id)
        if events is not None:
            events.discard(event)
            if not events:
                del self._watchers[task_id]

    def on_runnable(self, callback: Callable[[], None]) -> Callable[[], None]:
        """Call `callback()` at each RUNNABLE (and after a reconnect); returns the unregister function."""
        return _register(self._on_runnable, callback)

    def on_change(self, callback: Callable[[str | None], None]) -> Callable[[], None]:
        """Call `callback(task_id)` at each task's change, `callback(None)` after a reconnect;
        returns the unregister function."""
        return _register(self._on_change, callback)

    def notified(self, payload: str | None) -> None:
        """Dispatch one NOTIFY payload (None: the listener reconnected)."""
        if payload is None or payload == RUNNABLE:
            for runnable in list(self._on_runnable):
                runnable()
            if payload is not None:
                return
        for changed in list(self._on_change):
            changed(payload)
        targets = self._watchers.values() if payload is None else [self._watchers.get(payload, set())]
        for events in targets:
            for event in events:
                event.set()
