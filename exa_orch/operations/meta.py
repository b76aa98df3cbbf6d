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
        return {"count": len(ops), "operations": ops}

    return Operation(
        "list_operations",
        ListOperationsArgs,
        handler,
        "List every operation with its summary and the JSON Schema of its args.",
    )
