"""Creates that are safe to send again: the one rule, used by every operation that creates at Exa.

`create_or_find(send, find)` sends a create; after an ambiguous failure (a 5xx, a timeout, a
dropped connection: Exa may have made the object before the answer was lost) it looks the object up
with `find` before sending again, so a lost answer neither fails the call nor makes a duplicate.
Operations declare how their object is found again:
- websets by `externalId` (exa-orch supplies one when the caller gave none; it is in the answer);
- every other kind by the `metadata[exaOrchKey]` mark (`gateway.marks`), looked up in a list;
A caller (a workflow step, an operation task) that passes its own metadata key gets the object
made with it if there is one (looked up first), so a resumed run never makes a second.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from exa_orch.errors import (
    ApiError,
    Conflict,
    GatewayError,
    InvalidParams,
    NotFoundError,
    RateLimited,
    UpstreamTimeout,
)
from exa_orch.gateway.marks import CREATE_MARK, new_key
from exa_orch.gateway.paths import route_safe

from ._http import WEBSETS, Rest, request, segment
from .context import OpContext
from .registry import CreateKey, Operation, Registry

logger = logging.getLogger("exa_orch.operations")

Json = dict[str, Any]
Finder = Callable[[], Awaitable[Json | None]]
ATTEMPTS = 5
MAX_LIST_PAGES = 20  # a mark is looked for among the newest few thousand objects of a list


def ambiguous(exc: GatewayError) -> bool:
    """Whether Exa may have acted on a create that failed this way."""
    if isinstance(exc, UpstreamTimeout | RateLimited):
        return True  # a rate limit may follow an earlier attempt that went through
    return isinstance(exc, ApiError) and (exc.status or 0) >= 500


async def create_or_find(
    send: Callable[[], Awaitable[Json]], find: Finder, *, what: str, find_first: bool = False
) -> Json:
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


async def find_in_list(ctx: OpContext, path: str, key: str, query: Json | None = None) -> Json | None:
    """The object of the list at `path` that carries mark `key`, or None (newest pages first)."""

    async def page(cursor: str | None) -> Json:
        listed: Json = await request(
            ctx, "GET", path, query={**(query or {}), "cursor": cursor, "limit": 100}
        )
        return listed

    return await find_in_pages(page, key)


async def find_in_webset(ctx: OpContext, webset_id: str, field: str, key: str) -> Json | None:
    """The search or enrichment (`field`: searches | enrichments) of a webset that carries mark `key`."""
    webset = await request(ctx, "GET", f"{WEBSETS}/websets/{segment(webset_id, 'websetId')}")
    return first_marked(webset.get(field) or [], key)


async def find_webset(ctx: OpContext, external_id: str) -> Json | None:
    try:
        found: Json = await request(ctx, "GET", f"{WEBSETS}/websets/{segment(external_id, 'externalId')}")
    except NotFoundError:
        return None
    return found


Locate = Callable[[OpContext, Any, str], Awaitable[Json | None]]
"""How an operation's object is found again: (ctx, the call's args, the create's key) -> it or None."""


def create_op(
    name: str,
    model: type[Any],
    path: str,
    summary: str,
    *,
    find: Locate,
    by_external_id: bool = False,
    **kw: Any,
) -> Any:
    """An Operation that POSTs one create (planned like `rest_op`) through `create_or_find`.

    Its key is the caller's `externalId` (`by_external_id`, webset creates) or `metadata[exaOrchKey]`,
    else a new one exa-orch adds to the body (and so to the answer).
    """
    rest = Rest("POST", path)

    async def handler(args: Any, ctx: OpContext) -> Json:
        plan = rest.plan(args)
        body: Json = dict(plan.get("body") or {})
        chosen = False  # a webset's own externalId is never looked up first: Exa answers 409 for it
        if by_external_id:
            key = body.get("externalId")
            if not isinstance(key, str) or not key:
                key = body["externalId"] = new_key()
            elif not route_safe(key):
                # The object is found again (and later read) by GET /websets/{externalId}; a key no
                # path can carry would make it unreachable by that key, and a lost answer a failure.
                raise InvalidParams(
                    f"externalId: {key[:40]!r} can't be used as an id ('.' and '..' and ids holding "
                    "'/' or '\\' can't be sent in a URL, so the webset could never be found by it)",
                    hint="Choose an externalId without '/' or '\\' that is not '.' or '..' "
                    "(e.g. 'my-project-2026-01'), or leave it out and use the one exa-orch makes.",
                    fields=["externalId"],
                )
        else:
            body, key, chosen = mark_body(body)

        async def send() -> Json:
            answer: Json = await request(ctx, "POST", plan["path"], query=plan.get("query"), body=body)
            return answer

        return await create_or_find(send, lambda: find(ctx, args, key), what=name, find_first=chosen)

    key_arg: CreateKey = "externalId" if by_external_id else "metadata"
    return Operation(name, model, handler, summary, plan=rest.plan, create_key=key_arg, **kw)


def declared_op(registry: Registry, name: str) -> Operation | None:
    """The registered operation `name`, or None when `registry` has none of that name (dispatch
    then answers UnknownOperation; nothing is keyed)."""
    return registry.get(name) if name in registry else None


def mark_create(op: Operation | None, call_args: dict[str, Any], key: str) -> str | None:
    """Give a create run as a task the task's own key (unless the caller gave one), where the
    operation declares its key goes (`Operation.create_key`), so a rerun after a crash finds the
    object instead of making a second (operations/_creates.py). The externalId the call carries
    when that is the key, else None."""
    if op is None or op.create_key is None:
        return None
    if op.create_key == "metadata":
        metadata = call_args.get("metadata")
        metadata = dict(metadata) if isinstance(metadata, dict) else {}
        metadata.setdefault(CREATE_MARK, key)
        call_args["metadata"] = metadata
        return None
    given = call_args.get("externalId", call_args.get("external_id"))
    if given is None:
        given = call_args["externalId"] = key
    return given if isinstance(given, str) and given else None
