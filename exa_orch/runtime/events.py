"""TaskEvent: what local subscribers (MCP Tasks notifications) hear about tasks run in this process."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Literal

from exa_orch.store import TaskRecord


@dataclass(frozen=True)
class TaskEvent:
    """A status transition (`kind="status"`, `task` is the row after it) or a progress update
    (`kind="progress"`, `progress` is {step, completed, total, message?} and `task.progress` equals it).
    Events of one task arrive in order; `task.meta` carries the MCP request metadata given to create().
    """

    kind: Literal["status", "progress"]
    task: TaskRecord
    progress: dict[str, Any] | None = None


TaskListener = Callable[[TaskEvent], Awaitable[None]]
