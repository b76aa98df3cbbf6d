"""What the client and the pool share above `call`: the durable-task helpers and the call counters.

`TaskCalls` is written once against `call(operation, args, timeout=...)`: ExaOrchClient sends it to
its one child, ExaOrchPool to one of its children, and both get `create_task`, `get_task`,
`wait_task` and `cancel_task` from here.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from exa_orch.client.errors import CallTimeout

MAX_WAIT_S = 60.0  # tasks.result holds a request at most this long
TERMINAL = frozenset({"completed", "failed", "cancelled"})


@dataclass
class OperationStats:
    calls: int = 0
    errors: int = 0
    total_s: float = 0.0
    max_s: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        mean = self.total_s / self.calls if self.calls else 0.0
        return {
            "calls": self.calls,
            "errors": self.errors,
            "meanMs": round(mean * 1000, 3),
            "maxMs": round(self.max_s * 1000, 3),
        }


@dataclass
class CallStats:
    """Calls and errors in all, and each operation's count and latency."""

    calls: int = 0
    errors: int = 0
    operations: defaultdict[str, OperationStats] = field(default_factory=lambda: defaultdict(OperationStats))

    def record(self, operation: str, started: float, *, error: bool) -> None:
        """Count one call of `operation` that began at `started` (time.monotonic()) and ended now."""
        elapsed = time.monotonic() - started
        stats = self.operations[operation]
        stats.calls += 1
        stats.total_s += elapsed
        stats.max_s = max(stats.max_s, elapsed)
        self.calls += 1
        if error:
            stats.errors += 1
            self.errors += 1

    def by_operation(self) -> dict[str, dict[str, Any]]:
        return {name: s.as_dict() for name, s in sorted(self.operations.items())}


class TaskCalls:
    """The durable-task helpers, over the subclass's `call`."""

    ping_timeout: float

    async def call(
        self,
        operation: str,
        args: Mapping[str, Any] | None = None,
        *,
        timeout: float | None = None,  # noqa: ASYNC109 (the per-call deadline API)
    ) -> Any:
        raise NotImplementedError

    async def create_task(
        self,
        type: str,
        args: Mapping[str, Any] | None = None,
        *,
        ttl_ms: int | None = None,
        timeout: float | None = None,  # noqa: ASYNC109 (the per-call deadline API)
    ) -> str:
        """Start a durable task of `type` with `args`; its task id."""
        body: dict[str, Any] = {"type": type, **dict(args or {})}
        if ttl_ms is not None:
            body["ttl"] = ttl_ms
        created = await self.call("tasks.create", body, timeout=timeout)
        return str(created["taskId"])

    async def get_task(
        self,
        task_id: str,
        *,
        full: bool = False,
        timeout: float | None = None,  # noqa: ASYNC109
    ) -> dict[str, Any]:
        """tasks.get: the task's status, progress, error, timestamps and a summary of its partial result
        (`partialSummary`; with full=True, the whole `partialResult`)."""
        args: dict[str, Any] = {"taskId": task_id, "full": True} if full else {"taskId": task_id}
        view: dict[str, Any] = await self.call("tasks.get", args, timeout=timeout)
        return view

    async def wait_task(self, task_id: str, timeout: float, *, poll: float = 20.0) -> dict[str, Any]:  # noqa: ASYNC109
        """Wait up to `timeout` s for the task to end; tasks.result's body (`status`, and the whole
        stored `result` (full: true: a host program takes it all at once, unpaged) or `error`); also,
        at once, a task that waits for its owner's input (status `input_required`, `inputRequired`
        saying what it needs: an Exa API key). Each poll is a tasks.result holding at most `poll` s at the server, so a child
        restart in between costs one poll. Raises CallTimeout if it is still running at the end."""
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            wait = max(0.0, min(poll, MAX_WAIT_S, left))
            body: dict[str, Any] = await self.call(
                "tasks.result",
                {"taskId": task_id, "wait": wait, "full": True},
                timeout=wait + self.ping_timeout + 30,
            )
            if body.get("status") in TERMINAL or body.get("status") == "input_required":
                return body  # ended, or waits for its owner's input: polling on changes nothing
            if time.monotonic() >= end:
                message = (
                    f"task {task_id!r} is still {body.get('status')} after {timeout:g} s (it keeps running)"
                )
                raise CallTimeout("tasks.result", timeout, message)

    async def cancel_task(self, task_id: str, *, timeout: float | None = None) -> dict[str, Any]:  # noqa: ASYNC109
        """tasks.cancel: request the cancel; the task's view (status `cancelled` once it stopped)."""
        view: dict[str, Any] = await self.call("tasks.cancel", {"taskId": task_id}, timeout=timeout)
        return view
