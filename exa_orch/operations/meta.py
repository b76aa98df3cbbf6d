"""`list_operations`: every registered operation with its summary and args JSON Schema."""

from __future__ import annotations

from typing import Any

from .context import OpContext
from .models import Args
from .registry import Operation, Registry


class ListOperationsArgs(Args):
    prefix: str | None = None
    """only operations whose name starts with this (e.g. 'monitors.')"""
    names_only: bool = False
    """just the names and summaries, without schemas"""


def list_operations_op(registry: Registry) -> Operation:
    """The list_operations operation bound to `registry` (it lists itself too)."""

    async def handler(args: ListOperationsArgs, ctx: OpContext) -> dict[str, Any]:
        ops = [d for d in registry.describe() if not args.prefix or d["name"].startswith(args.prefix)]
        if args.names_only:
            ops = [{k: d[k] for k in ("name", "summary", "longRunning")} for d in ops]
        out: dict[str, Any] = {"count": len(ops), "operations": ops}
        service = ctx.services.get("tasks")
        if service is not None and (not args.prefix or "tasks.create".startswith(args.prefix)):
            # What tasks.create {type, ...args} accepts: each task type's args sit beside `type`.
            out["taskTypes"] = [
                {"type": spec.type, "summary": spec.summary}
                | ({} if args.names_only else {"args": spec.args_model.model_json_schema(by_alias=True)})
                for spec in service.task_types()
            ]
        return out

    return Operation(
        "list_operations",
        ListOperationsArgs,
        handler,
        "List every operation with its summary and the JSON Schema of its args, and the task types tasks.create runs.",
    )
