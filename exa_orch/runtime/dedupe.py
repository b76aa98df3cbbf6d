"""create_or_get: make a step that creates an Exa object safe to run twice.

Every object a task creates carries externalId = ctx.external_id(key). If a run dies after Exa
created the object but before the step's checkpoint, the resumed run finds it by that externalId
instead of creating a second one; a 409 (Exa already has that externalId) also means "fetch it".
Failures are recognised by the gateway's typed errors (Conflict, NotFoundError), never by message text.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from exa_orch.errors import Conflict, NotFoundError
from exa_orch.runtime.context import TaskContext

JsonObject = dict[str, Any]
"""An Exa object as JSON (what a create answers and a step saves)."""
CreateFn = Callable[[str], Awaitable[Any]]
"""async (external_id) -> the created object (a JSON object, or a pydantic model of one)."""
FindFn = Callable[[str], Awaitable[Any]]
"""async (external_id) -> the object with that externalId, or None (a 404 counts as None)."""


def _jsonable(obj: Any) -> JsonObject:
    dump = getattr(obj, "model_dump", None)
    out: JsonObject = dump(mode="json", by_alias=True, exclude_none=True) if callable(dump) else obj
    return out


async def _find(find: FindFn, external_id: str) -> Any:
    try:
        return await find(external_id)
    except NotFoundError:  # the gateway's 404
        return None


async def find_or_create(
    ctx: TaskContext,
    external_id: str,
    create: Callable[[], Awaitable[Any]],
    find: FindFn,
    *,
    ours: bool = True,
) -> JsonObject:
    """The body of a step that creates the Exa object keyed `external_id` (the one rule for a crash:
    call it inside `ctx.step`). On a resumed run it first looks the object up by `external_id`; on
    a Conflict (409) from `create()` it returns the existing object when exa-orch chose the key
    (`ours`) or the run is resumed (an earlier run may have made it), else re-raises the Conflict."""
    if ctx.resumed:
        found = await _find(find, external_id)
        if found is not None:
            return _jsonable(found)
    try:
        return _jsonable(await create())
    except Conflict:  # the gateway's 409: Exa has an object with this externalId already
        if not (ours or ctx.resumed):
            raise  # the caller's own key, taken before this task ever ran
        found = await _find(find, external_id)
        if found is None:
            raise
        return _jsonable(found)


async def create_or_get(ctx: TaskContext, key: str, create: CreateFn, find: FindFn) -> JsonObject:
    """Step `key`: the Exa object created with externalId=ctx.external_id(key), created at most once.

    On a resumed run (`ctx.resumed`) it first looks the object up by externalId; on a 409 from the
    create it fetches the existing one. The JSON result is checkpointed like any step.
    """

    async def run() -> JsonObject:
        external_id = ctx.external_id(key)
        return await find_or_create(ctx, external_id, lambda: create(external_id), find)

    return await ctx.step(key, run)
