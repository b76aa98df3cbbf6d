"""`list_operations`: the operations by domain with one-line summaries; JSON Schemas on request.

With no args the answer is small (names and summaries grouped by domain, the task types, and how to
ask for more); `operation`, `prefix` + `schemas`, and `taskType` give the schemas. `schemas: true`
with no prefix is the whole catalogue with every schema (the answer before it was made small).
"""

from __future__ import annotations

from typing import Any

from exa_orch.errors import InvalidParams

from .context import OpContext
from .models import Args
from .registry import Operation, Registry

HOW = (
    "For an operation's args JSON Schema: {operation: 'websets.create'}; for a domain's: "
    "{prefix: 'monitors.', schemas: true}; for tasks.create's args of a task type: "
    "{taskType: 'qd.winnow'} ('*' for every type)."
)


class ListOperationsArgs(Args):
    operation: str | None = None
    """one operation: its summary, the JSON Schema of its args and (outputSchema) of its answer"""
    prefix: str | None = None
    """only operations whose name starts with this (e.g. 'monitors.')"""
    schemas: bool = False
    """include each listed operation's args JSON Schema (and each task type's, when tasks.* are listed)"""
    task_type: str | None = None
    """a task type ('qd.winnow', ...): the JSON Schema of what tasks.create takes for it; '*' for every type"""
    names_only: bool = False
    """a flat list of names and summaries (without schemas)"""


def list_operations_op(registry: Registry) -> Operation:
    """The list_operations operation bound to `registry` (it lists itself too)."""

    def task_types(ctx: OpContext) -> list[Any]:
        service = ctx.tasks
        return list(service.task_types()) if service is not None else []

    def task_type_schema(spec: Any) -> dict[str, Any]:
        return {
            "type": spec.type,
            "summary": spec.summary,
            "args": spec.args_model.model_json_schema(by_alias=True),
        }

    async def handler(args: ListOperationsArgs, ctx: OpContext) -> dict[str, Any]:
        if args.operation is not None:
            op = registry.get(args.operation)  # UnknownOperation names the closest ones
            one = op.describe()
            output = op.output_schema()
            if output is not None:  # one operation's answer only: the lists stay small
                one["outputSchema"] = output
            return one
        if args.task_type is not None:
            specs = task_types(ctx)
            chosen = [s for s in specs if args.task_type in ("*", s.type)]
            if not chosen:
                known = ", ".join(s.type for s in specs) or "none (the task runtime is not running here)"
                raise InvalidParams(
                    f"taskType: unknown task type {args.task_type!r}; known: {known}", fields=["taskType"]
                )
            return {"taskTypes": [task_type_schema(s) for s in chosen]}
        described = [d for d in registry.describe() if not args.prefix or d["name"].startswith(args.prefix)]
        lists_tasks = not args.prefix or "tasks.create".startswith(args.prefix)
        if args.schemas or args.names_only:
            ops = described
            if args.names_only:
                ops = [{k: d[k] for k in ("name", "summary", "longRunning")} for d in ops]
            out: dict[str, Any] = {"count": len(ops), "operations": ops}
            if lists_tasks and ctx.tasks is not None:
                # What tasks.create {type, ...args} accepts: each task type's args sit beside `type`.
                out["taskTypes"] = [
                    {"type": s.type, "summary": s.summary} if args.names_only else task_type_schema(s)
                    for s in task_types(ctx)
                ]
            return out
        domains: dict[str, dict[str, str]] = {}
        for d in described:
            domain, _, verb = d["name"].rpartition(".")
            domains.setdefault(domain or "meta", {})[verb] = d["summary"]
        out = {"count": len(described), "domains": domains}
        out["longRunning"] = [d["name"] for d in described if d["longRunning"]]
        if lists_tasks and ctx.tasks is not None:
            out["taskTypes"] = {s.type: s.summary for s in task_types(ctx)}
        out["how"] = HOW
        return out

    return Operation(
        "list_operations",
        ListOperationsArgs,
        handler,
        "The operations by domain with one-line summaries and the task types; {operation: name} for an "
        "operation's args JSON Schema, {prefix, schemas: true} for a domain's, {taskType} for a task type's.",
        read_only=True,
    )
