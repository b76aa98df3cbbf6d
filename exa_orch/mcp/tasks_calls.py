"""Which tools/call can become a task, and what task it becomes.

`manage_websets {operation, args}` and the toolhost's async tools `{operation, params}` name one
registered operation. A call of `tasks.create {type, ...args}` becomes that workflow task; any
other operation becomes a task of the runtime's "operation" workflow that runs it durably.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from exa_orch.errors import InvalidParams
from exa_orch.mcp import toolhost

MANAGE_WEBSETS = "manage_websets"
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

    @property
    def wants_task(self) -> bool:
        """Whether a server-directed (2026) call should run as a task rather than inline."""
        return self.task_type is not None or self.long_running

    def describe(self) -> str:
        return f"{self.operation} {self.task_type}" if self.task_type else self.operation


class CallResolver:
    """Maps (tool name, arguments) to a ResolvedCall using the app's operation registry."""

    def __init__(self, app: Any) -> None:
        self._registry = app.registry
        profile = getattr(app.settings, "tools", MANAGE_WEBSETS)
        if profile == "toolhost":
            self._tools = {t.name for t in toolhost.TOOLHOST_TOOLS if t.long_running}
        else:
            self._tools = {MANAGE_WEBSETS}

    def task_capable(self, tool: str) -> bool:
        """True for the tools that advertise `execution.taskSupport: "optional"`."""
        return tool in self._tools

    def resolve(self, tool: str, arguments: dict[str, Any]) -> ResolvedCall:
        """The operation a call names. Raises InvalidParams for a missing or unknown operation."""
        name = arguments.get("operation")
        if not isinstance(name, str) or not name:
            raise InvalidParams(
                "'operation' is required: the name of the operation to run", fields=["operation"]
            )
        if tool == MANAGE_WEBSETS:
            operation, args = name, arguments.get("args")
        else:
            meta = toolhost.TOOLS_BY_NAME[tool]
            if name not in meta.operations:
                raise InvalidParams(
                    f"{tool} has no operation {name!r}",
                    hint=f"Use one of: {', '.join(sorted(meta.operations))}.",
                    fields=["operation"],
                )
            operation, args = meta.operations[name], arguments.get("params")
            if isinstance(args, dict):
                args = toolhost.adapt_params(name, args, self._registry.get(operation).args_schema())
        if args is None:
            args = {}
        if not isinstance(args, dict):
            raise InvalidParams("'args' must be an object of the operation's arguments", fields=["args"])
        op = self._registry.get(operation)  # UnknownOperation (with suggestions) before any task exists
        if operation != CREATE_TASK_OPERATION:
            return ResolvedCall(tool, operation, dict(args), long_running=op.long_running)
        task_args = dict(args)
        task_type = task_args.pop("type", None)
        if not isinstance(task_type, str) or not task_type:
            raise InvalidParams(
                "tasks.create needs 'type': the task type to run",
                hint="Call 'list_operations' to see the task types and their arguments.",
                fields=["type"],
            )
        return ResolvedCall(
            tool, operation, dict(args), long_running=True, task_type=task_type, task_args=task_args
        )
