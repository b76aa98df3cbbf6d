"""Creates that are safe to send again: the one rule, used by every create at Exa.

`create_or_find(send, find)` sends a create; after an ambiguous failure (a 5xx, a timeout, a
dropped connection: Exa may have made the object before the answer was lost) it looks the object up
with `find` before sending again, so a lost answer neither fails the call nor makes a duplicate.
Objects are found again:
- websets by `externalId` (`find_webset`: GET /websets/{externalId});
- every other kind by the `metadata[exaOrchKey]` mark (`gateway.marks`), looked up in a list
  (`find_in_list`, `find_in_pages`) or on its webset (`find_in_webset`).
A caller that passes its own key gets the object made with it if there is one (looked up first:
`find_first`), so a resumed run never makes a second.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, TypeVar

import httpx

from exa_orch.errors import (
    ApiError,
    Conflict,
    GatewayError,
    NotFoundError,
    RateLimited,
    UpstreamTimeout,
)
from exa_orch.gateway.marks import CREATE_MARK, new_key

from .wire import WEBSETS, request, segment

logger = logging.getLogger("exa_orch.exa")

Json = dict[str, Any]
T = TypeVar("T")
ATTEMPTS = 5
MAX_LIST_PAGES = 20  # a mark is looked for among the newest few thousand objects of a list


def ambiguous(exc: GatewayError) -> bool:
    """Whether Exa may have acted on a create that failed this way."""
    if isinstance(exc, UpstreamTimeout | RateLimited):
        return True  # a rate limit may follow an earlier attempt that went through
    return isinstance(exc, ApiError) and (exc.status or 0) >= 500


async def create_or_find(
    send: Callable[[], Awaitable[T]],
    find: Callable[[], Awaitable[T | None]],
    *,
    what: str,
    find_first: bool = False,
) -> T:
    """`send()`'s answer, or after an ambiguous failure the object `find()` finds (see module doc).

    A 409 after such a failure means an earlier attempt made the object: it is found and returned.
    With `find_first` (a metadata key the caller chose: an idempotency key) an object already
    made with it is returned without creating. Raises the last error when every attempt failed and
    nothing was found, or the first unambiguous error (a 4xx) at once.
    """
    if find_first:
        found = await find()
        if found is not None:
            return found
    error: GatewayError | None = None
    for attempt in range(ATTEMPTS):
        if error is not None:
            found = await find()
            if found is not None:
                logger.info("%s: found the object an earlier attempt made (after %s)", what, error.code)
                return found
            await asyncio.sleep(min(0.2 * 2**attempt, 3.0) * (0.5 + random.random() / 2))
        try:
            return await send()
        except Conflict:
            if error is None:
                raise  # the caller's own key was taken before this call
            found = await find()
            if found is None:
                raise
            return found
        except GatewayError as exc:
            if not ambiguous(exc):
                raise
            error = exc
    assert error is not None
    found = await find()
    if found is not None:
        return found
    raise error


def marked(obj: Any, key: str) -> bool:
    """Whether `obj` (an Exa object as JSON) carries the mark `key` in its metadata (an agent run
    echoes it at top level and in its `request`; exa-py's AgentRun model declares only `request`)."""
    if not isinstance(obj, dict):
        return False
    metadata = obj.get("metadata") or (obj.get("request") or {}).get("metadata") or {}
    return isinstance(metadata, dict) and metadata.get(CREATE_MARK) == key


def mark_body(body: Json) -> tuple[Json, str, bool]:
    """(`body` with a mark in its metadata, the key, whether the caller chose it): the caller's
    mark if it set one, else a new one."""
    metadata = dict(body.get("metadata") or {})
    key = metadata.get(CREATE_MARK)
    chosen = isinstance(key, str) and bool(key)
    if not chosen:
        key = metadata[CREATE_MARK] = new_key()
    return {**body, "metadata": metadata}, str(key), chosen


def first_marked(objects: Iterable[Any], key: str) -> Json | None:
    for obj in objects:
        if marked(obj, key):
            return dict(obj)
    return None


Page = Callable[[str | None], Awaitable[Json]]
"""cursor (None: the first page) -> one page of a list as JSON: {data, hasMore, nextCursor}."""


async def find_in_pages(page: Page, key: str) -> Json | None:
    """The object carrying mark `key` in the list `page` reads (newest pages first), or None: the
    one lookup by metadata mark, for raw HTTP lists and exa-py's alike (`research.find_run`)."""
    cursor: str | None = None
    for _ in range(MAX_LIST_PAGES):
        listed = await page(cursor)
        found = first_marked(listed.get("data") or [], key)
        if found is not None or not listed.get("hasMore"):
            return found
        cursor = listed.get("nextCursor")
        if not cursor:
            return None
    return None


async def find_in_list(
    http: httpx.AsyncClient, path: str, key: str, query: Json | None = None
) -> Json | None:
    """The object of the list at `path` that carries mark `key`, or None (newest pages first)."""

    async def page(cursor: str | None) -> Json:
        listed: Json = await request(
            http, "GET", path, query={**(query or {}), "cursor": cursor, "limit": 100}
        )
        return listed

    return await find_in_pages(page, key)


async def find_in_webset(http: httpx.AsyncClient, webset_id: str, field: str, key: str) -> Json | None:
    """The search or enrichment (`field`: searches | enrichments) of a webset that carries mark `key`."""
    webset = await request(http, "GET", f"{WEBSETS}/websets/{segment(webset_id, 'websetId')}")
    return first_marked(webset.get(field) or [], key)


async def find_webset(http: httpx.AsyncClient, external_id: str) -> Json | None:
    """The webset whose id or externalId is `external_id`, or None (404)."""
    try:
        found: Json = await request(http, "GET", f"{WEBSETS}/websets/{segment(external_id, 'externalId')}")
    except NotFoundError:
        return None
    return found
