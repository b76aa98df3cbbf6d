"""getAll helpers: follow Exa's cursors (the port's `paging.pages`) up to a cap an agent can read,
and say when the cap cut the list."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from pydantic import Field

from exa_orch.exa import paging

from .context import OpContext
from .models import Args

DEFAULT_MAX_ITEMS = 1000
# Where a getAll stops even below maxItems (at a page boundary, with a resume cursor): a bigger
# tool result is more than an agent can use, and over streamable HTTP the MCP Python client
# refuses any message over 1 MiB (its SSE event cap), so the call would fail outright.
MAX_RESULT_BYTES = 512 * 1024


class GetAll(Args):
    """Shared args of the *.getAll operations."""

    max_items: int = Field(default=DEFAULT_MAX_ITEMS, ge=1, le=100_000)
    """stop after this many objects (or about 512 KB of them); the result says `truncated` and gives
    the cursor to resume"""
    page_size: int | None = Field(default=None, ge=1, le=200)
    """objects per Exa call (Exa's max: 100 for websets and items, 200 for the rest)"""
    cursor: str | None = None
    """resume from this cursor (the nextCursor of a truncated getAll)"""


async def collect(
    ctx: OpContext, path: str, args: GetAll, query: dict[str, Any] | None = None, *, max_page: int = 200
) -> dict[str, Any]:
    """{data, count, truncated, nextCursor, pages}: every object of a list endpoint, up to args.max_items."""
    data: list[Any] = []
    cursor = args.cursor
    pages = 0
    size = 0
    truncated_by: str | None = None

    def want() -> int:
        return min(args.page_size or max_page, max_page, args.max_items - len(data))

    listed = paging.pages(ctx.http, path, limit=want, query=query, cursor=cursor)
    async for page in listed:
        pages += 1
        data.extend(page.data)
        size += len(json.dumps(page.data, default=str))
        cursor = page.next_cursor
        await ctx.progress(len(data), None, f"{len(data)} fetched from {path}")
        if cursor is None:
            break
        if len(data) >= args.max_items:
            truncated_by = "maxItems"
            break
        if size >= MAX_RESULT_BYTES:
            truncated_by = "size"
            break
    await listed.aclose()
    if len(data) > args.max_items:
        data = data[: args.max_items]
        truncated_by = "maxItems"
    out: dict[str, Any] = {
        "data": data,
        "count": len(data),
        "truncated": truncated_by is not None,
        "nextCursor": cursor if truncated_by else None,
        "pages": pages,
    }
    if truncated_by:
        out["truncatedBy"] = truncated_by
    return out


def project_all(fn: Callable[[dict[str, Any]], dict[str, Any]]) -> Callable[[Any, Any], Any]:
    """A projection for a collect() result: each object projected, the truncation stated."""

    def project(result: dict[str, Any], args: Any) -> dict[str, Any]:
        out = {**result, "data": [fn(x) for x in result["data"]]}
        if result["truncated"] and result.get("truncatedBy") == "size":
            out["truncatedNote"] = (
                f"stopped after {result['count']} objects, about {MAX_RESULT_BYTES // 1024} KB (larger results "
                f"are too big to read); more exist: call again with cursor={result['nextCursor']!r}"
            )
        elif result["truncated"]:
            out["truncatedNote"] = (
                f"stopped at maxItems={args.max_items}; more exist: raise maxItems or call again with "
                f"cursor={result['nextCursor']!r}"
            )
        return out

    return project
