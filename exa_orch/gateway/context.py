"""The per-request context: on whose behalf, for which task and which step a request to Exa is made.

Every request the gateway sends is made inside some scope: a tool call (its caller), a task's run
(its owner and task id) and, within a run, a checkpointed step (its key). The face and the runtime
set that scope here; the layers below read it without being passed anything: the gateway picks the
principal's Exa key and accounts cost to the task and step, the log bridge sends a record only to
the principal it concerns. It lives in the gateway (a port) so every layer above may set it and
the transport may read it without importing the runtime.

`current_request()` is the scope in force (an empty one outside any). `request_scope(...)` narrows
it for a block, keeping what it does not change: a step inside a task keeps the task's principal.
Child asyncio tasks inherit the scope in force when they were created (contextvars).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import Context, ContextVar
from dataclasses import dataclass, replace
from typing import Any

_UNSET: Any = object()


@dataclass(frozen=True, slots=True)
class RequestContext:
    """Who a request to Exa is for. Every field may be None: nobody's in particular (the
    supervisor's rounds), a call outside any task, a request outside any step."""

    principal: str | None = None
    """The principal's name (`user:<login>`, `token:<name>`), never a secret."""
    task_id: str | None = None
    """The durable task the request is made for."""
    step: str | None = None
    """The checkpointed step (its key) whose work the request is."""


_EMPTY = RequestContext()
_CURRENT: ContextVar[RequestContext] = ContextVar("exa_orch_request", default=_EMPTY)


def current_request() -> RequestContext:
    """The scope in force in this asyncio task (an empty RequestContext outside any)."""
    return _CURRENT.get()


@contextmanager
def request_scope(
    *, principal: str | None = _UNSET, task_id: str | None = _UNSET, step: str | None = _UNSET
) -> Iterator[RequestContext]:
    """Within the block, the current scope with the given fields replaced (None clears one)."""
    changes = {
        name: value
        for name, value in (("principal", principal), ("task_id", task_id), ("step", step))
        if value is not _UNSET
    }
    scope = replace(_CURRENT.get(), **changes)
    token = _CURRENT.set(scope)
    try:
        yield scope
    finally:
        _CURRENT.reset(token)


def enter_request_scope(*, principal: str | None, task_id: str | None = None) -> None:
    """Set the scope for the rest of this asyncio task (a task's actor, which owns its asyncio task
    and ends with it; children created later inherit it). Anything else uses `request_scope`."""
    _CURRENT.set(RequestContext(principal=principal, task_id=task_id))


def request_in(context: Context) -> RequestContext:
    """The scope in force in `context` (a callback's or an asyncio task's); readable from any thread."""
    return context.get(_CURRENT, _EMPTY)
