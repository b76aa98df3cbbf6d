"""Following Exa's list cursors: the one loop behind the port's `items` and the operations' getAll.

Exa's lists answer {data, hasMore, nextCursor}; `pages` asks for page after page until a page says
there is no more, or its caller stops iterating (a cap reached: the caller then holds the cursor
to resume from).
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Callable
from dataclasses import dataclass
from typing import Any

import httpx

from .wire import request


@dataclass(frozen=True)
class Page:
    """One page of a list as Exa sent it: its objects (JSON) and the cursor of the next page
    (None: this was the last)."""

    data: list[Any]
    next_cursor: str | None


async def pages(
    http: httpx.AsyncClient,
    path: str,
    *,
    limit: Callable[[], int],
    query: dict[str, Any] | None = None,
    cursor: str | None = None,
) -> AsyncGenerator[Page, None]:
    """The pages of the list at `path` from `cursor` (None: the first), each asked with `limit()`
    objects (called before each page, so a caller near its cap asks for what it still wants)."""
    while True:
        listed = await request(http, "GET", path, query={**(query or {}), "cursor": cursor, "limit": limit()})
        cursor = listed.get("nextCursor") if listed.get("hasMore") else None
        yield Page(list(listed.get("data") or []), cursor)
        if cursor is None:
            return
