"""create_or_get: make a step that creates an Exa object safe to run twice.

Every object a task creates carries externalId = ctx.external_id(key). If a run dies after Exa
created the object but before the step's checkpoint, the resumed run finds it by that externalId
instead of creating a second one; a 409 (Exa already has that externalId) also means "fetch it".
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from exa_orch.errors import GatewayError, NotFoundError
from exa_orch.runtime.context import TaskContext

CreateFn = Callable[[str], Awaitable[Any]]
"""async (external_id) -> the created object (JSON-able, or a pydantic model)."""
FindFn = Callable[[str], Awaitable[Any]]
"""async (external_id) -> the object with that externalId, or None (a 404 counts as None)."""


def _status(exc: BaseException) -> int | None:
    if isinstance(exc, GatewayError):
        return exc.status
    status = getattr(exc, "status_code", None) or getattr(exc, "status", None)
    if isinstance(status, int):
        return status
    # exa-py without the gateway raises ValueError("Request failed with status code 409: ...").
    text = str(exc)
    for code in (404, 409):
        if f"status code {code}" in text or f" {code}:" in text:
            return code
    return None


def _jsonable(obj: Any) -> Any:
    dump = getattr(obj, "model_dump", None)
    if callable(dump):
        return dump(mode="json", by_alias=True, exclude_none=True)
    return obj


async def _find(find: FindFn, external_id: str) -> Any:
    try:
        return await find(external_id)
    except NotFoundError:
        return None
    except Exception as exc:
        if _status(exc) == 404:
            return None
        raise


async def create_or_get(ctx: TaskContext, key: str, create: CreateFn, find: FindFn) -> Any:
    """Step `key`: the Exa object created with externalId=ctx.external_id(key), created at most once.

    On a resumed run (`ctx.resumed`) it first looks the object up by externalId; on a 409 from the
    create it fetches the existing one. The JSON result is checkpointed like any step.
    """

    async def run() -> Any:
        external_id = ctx.external_id(key)
        if ctx.resumed:
            found = await _find(find, external_id)
            if found is not None:
                return _jsonable(found)
        try:
            return _jsonable(await create(external_id))
        except Exception as exc:
            if _status(exc) != 409:
                raise
            found = await _find(find, external_id)
            if found is None:
                raise
            return _jsonable(found)

    return await ctx.step(key, run)
