"""MCP Tasks notifications (2025-11-25): status and progress, to the session that made the task.

`TaskNotifier` is the MCP Tasks bridge's (`exa_orch.mcp.tasks`) listener on the runtime's
TaskService: `watch(key, session, token)` before the task exists (the runtime may report its first
transition before create() returns; the key is stored in the task's meta as `notifyKey`), and each
transition becomes `notifications/tasks/status` (once per distinct status and message) and each
progress report `notifications/progress` on the call's token (only ever growing, as the spec asks).
Notifications are best-effort: a client that stops reading is dropped, and one send never blocks
the runtime's event loop for more than NOTIFY_TIMEOUT_S. 2026-07-28 clients poll instead.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import anyio
import mcp_types as types
from mcp.server.session import ServerSession

from exa_orch.mcp import tasks_wire as wire
from exa_orch.mcp.peer import SessionPeer
from exa_orch.runtime import TaskEvent
from exa_orch.store import TaskRecord, TaskStatus

log = logging.getLogger(__name__)

NOTIFY_TIMEOUT_S = 2.0  # a client that stops reading must not stall the runtime's event loop


@dataclass
class Watcher:
    """Who hears about one task: the creating 2025 session, and its progress token if it sent one."""

    session: ServerSession
    progress_token: str | int | None
    last_progress: float = 0.0
    progress_base: float = 0.0
    last_step: str | None = None
    last_status: tuple[str, str] | None = None


class TaskNotifier:
    """Who hears about which task, and the notifications they get.

    `ask(record, peer)` is called when a watched task starts waiting for its owner's input, so the
    session that made it is asked for it (tied to the task)."""

    def __init__(self, ask: Callable[[TaskRecord, SessionPeer], object]) -> None:
        self._ask = ask
        self._watchers: dict[str, Watcher] = {}  # notify key (stored in the task's meta) -> watcher

    def watch(self, key: str, session: ServerSession, progress_token: str | int | None) -> None:
        """Send `session` the notifications of the task whose meta will carry `notifyKey: key`."""
        self._watchers[key] = Watcher(session=session, progress_token=progress_token)

    def forget(self, key: str) -> None:
        """Stop watching `key` (its task was never made)."""
        self._watchers.pop(key, None)

    async def on_event(self, event: TaskEvent) -> None:
        """TaskService listener: status and progress notifications to the session that made the task."""
        record = event.task
        key = str((record.meta or {}).get("notifyKey") or "")
        watcher = self._watchers.get(key)
        if watcher is None:
            return
        if event.kind == "status" and record.status is TaskStatus.INPUT_REQUIRED:
            # The session that made the task is asked for what it waits for, tied to the task.
            self._ask(record, SessionPeer(watcher.session, None, related_task=record.id))
        try:
            with anyio.move_on_after(NOTIFY_TIMEOUT_S):
                if event.kind == "progress":
                    await self._notify_progress(watcher, record, event.progress or record.progress or {})
                else:
                    await self._notify_status(watcher, record)
        except Exception:  # the client went away: notifications are best-effort
            log.debug("notification for task %s dropped", record.id, exc_info=True)
            self._watchers.pop(key, None)
            return
        if record.terminal:
            self._watchers.pop(key, None)

    async def _notify_status(self, watcher: Watcher, record: TaskRecord) -> None:
        task = wire.task_2025(record)
        fingerprint = (task["status"], task["statusMessage"])
        if fingerprint == watcher.last_status:
            return
        watcher.last_status = fingerprint
        params = types.TaskStatusNotificationParams.model_validate(task)
        await watcher.session.send_notification(types.TaskStatusNotification(params=params))  # type: ignore[arg-type]

    async def _notify_progress(
        self, watcher: Watcher, record: TaskRecord, progress: Mapping[str, Any]
    ) -> None:
        if watcher.progress_token is None or record.terminal:
            return
        completed = float(progress.get("completed") or 0)
        total = progress.get("total")
        # Progress must only grow for one token; a workflow counts each step from zero, so a new
        # step is stacked on what earlier ones reported. The same step reporting no advance (a poll
        # that found nothing new) says nothing: stacking it would inflate the count at every poll.
        step = str(progress.get("step") or "")
        if watcher.progress_base + completed <= watcher.last_progress and step != watcher.last_step:
            watcher.progress_base = watcher.last_progress
        watcher.last_step = step
        value = watcher.progress_base + completed
        if value <= watcher.last_progress:
            return
        watcher.last_progress = value
        message = " ".join(str(p) for p in (progress.get("step"), progress.get("message")) if p) or None
        await watcher.session.send_notification(
            types.ProgressNotification(
                params=types.ProgressNotificationParams(
                    progress_token=watcher.progress_token,
                    progress=value,
                    total=watcher.progress_base + float(total) if total else None,
                    message=message,
                    _meta=wire.related(record.id),
                )
            )
        )
