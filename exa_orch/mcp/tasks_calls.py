"""Which tools/call can become a task, and what task it becomes.

`manage_websets {operation, args}` and the toolhost's async tools `{operation, params}` name one
registered operation. A call of `tasks.create {type, ...args}` becomes that workflow task; any
other operation becomes a task of the runtime's "operation" workflow that runs it durably.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from exa_orch.app import App
from exa_orch.errors import InvalidParams
from exa_orch.mcp import toolhost
from exa_orch.operations.tasks import parse_create

MANAGE_WEBSETS = "manage_websets"
LIST_OPERATIONS = toolhost.LIST_OPERATIONS
CREATE_TASK_OPERATION = "tasks.create"


@dataclass(frozen=True)
class ResolvedCall:
    """A tools/call resolved to an operation; `task_type` is set for tasks.create (its workflow)."""

    tool: str
    operation: str
    args: dict[str, Any]
    long_running: bool
    task_type: str | None = None
    task_args: dict[str, Any] | None = None
    ttl_ms: int | None = None  # tasks.create's own `ttl`, when the call gave one
    meta: dict[str, Any] | None = None  # tasks.create's `budgetUsd`, kept in the task's meta

    @property
    def wants_task(self) -> bool:
        """Whether a server-directed (2026) call should run as a task rather than inline."""
        return self.task_type is not None or self.long_running

    def describe(self) -> str:
        return f"{self.operation} {self.task_type}" if self.task_type else self.operation


class CallResolver:
    """Maps (tool name, arguments) to a ResolvedCall with the server's own `resolve_call`, so a task
    runs exactly the operation and arguments the plain tools/call would have run."""

    def __init__(self, server: Any, app: App) -> None:
        self._server = server
        self._registry = app.registry
        profile = getattr(app.settings, "tools", MANAGE_WEBSETS)
        if profile == "toolhost":
            defaults = {t.name for t in toolhost.TOOLHOST_TOOLS if t.long_running}
        else:
            defaults = {MANAGE_WEBSETS}
        # Tools the server already marks (a host embedding extra tools) keep their own setting.
        marked: dict[str, str] = dict(getattr(server, "task_support", {}) or {})
        self.support: dict[str, str] = {**dict.fromkeys(defaults, "optional"), **marked}
        served = getattr(server, "served_tools", None)  # EXA_ORCH_ENABLED_TOOLS: no task for the rest
        if served is not None:
            self.support = {t: s for t, s in self.support.items() if t in served}
        self.tools = frozenset(t for t, s in self.support.items() if s in ("optional", "required"))

    def task_capable(self, tool: str) -> bool:
        """True for the tools that advertise `execution.taskSupport` "optional" or "required"."""
        return tool in self.tools

    def task_required(self, tool: str) -> bool:
        """True for a tool that runs only as a task (`execution.taskSupport: "required"`)."""
        return self.support.get(tool) == "required"

    def resolve(self, tool: str, arguments: dict[str, Any]) -> ResolvedCall:
        """The operation a call names. Raises InvalidParams for a missing or unknown operation."""
        # As a task: a toolhost start_* follows its job to the end (ExaOrchServer.resolve_task_call).
        resolve = getattr(self._server, "resolve_task_call", self._server.resolve_call)
        operation, args = resolve(tool, arguments)
        if operation == LIST_OPERATIONS and tool != MANAGE_WEBSETS:
            # A toolhost tool lists its own operations in place; no registry operation does that.
            raise InvalidParams(
                f"{tool} list_operations answers at once: call it without task augmentation",
                fields=["operation"],
            )
        op = self._registry.get(operation)  # UnknownOperation (with suggestions) before any task exists
        if operation != CREATE_TASK_OPERATION:
            return ResolvedCall(tool, operation, dict(args), long_running=op.long_running)
        # tasks.create {type, ttl?, ...the type's args}, parsed by the tasks.create operation's own rule.
        task_type, task_args, ttl, meta = parse_create(self._registry, args)
        return ResolvedCall(
            tool,
            operation,
            dict(args),
            long_running=True,
            task_type=task_type,
            task_args=task_args,
            ttl_ms=ttl,
            meta=meta or None,
        )
