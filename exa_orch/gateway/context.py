"""The per-request context: on whose behalf, for which task and which step a request to Exa is made,
and the task's state the gateway acts on (its lease fence, its purse, where its notices go).

Every request the gateway sends is made inside some scope: a tool call (its caller), a task's run
(its owner and task id, fence, purse and notice) and, within a run, a checkpointed step (its key).
The face and the runtime set that scope here, in one ContextVar holding one `RequestContext`; the
layers below read it without being passed anything: the gateway picks the principal's Exa key,
fences, meters and accounts cost to the task and step, the log bridge sends a record only to the
principal it concerns. It lives in the gateway (a port) so every layer above may set it and the
transport may read it without importing the runtime.

`current_request()` is the scope in force (an empty one outside any). `request_scope(...)` narrows
it for a block, keeping what it does not change: a step inside a task keeps the task's principal.
`enter_request_scope` starts a task's scope and `set_request` changes it, both for the rest of the
asyncio task (the actor's, which owns its asyncio task). Child asyncio tasks inherit the scope in
force when they were created (contextvars).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from contextvars import Context, ContextVar
from dataclasses import dataclass, field, replace
from typing import Any

from exa_orch.gateway.fence import LeaseFence
from exa_orch.gateway.purse import Purse

_UNSET: Any = object()

Notice = Callable[[str], Awaitable[None]]
"""Sets the status message of the task a request is made for (the runtime's `TaskContext.note`)."""


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
    # What a task's run brings, for the gateway to act on: not part of a scope's identity (two
    # scopes for the same principal, task and step are equal), nor of its repr (logs).
    fence: LeaseFence | None = field(default=None, compare=False, repr=False)
    """The task's lease fence: checked right before each attempt is sent (gateway/fencing.py)."""
    purse: Purse | None = field(default=None, compare=False, repr=False)
    """The task's purse: what it may still spend (gateway/purse.py, metered by gateway/metering.py)."""
    notice: Notice | None = field(default=None, compare=False, repr=False)
    """Where the gateway's word on a wait goes (a create waiting for a pool slot: gateway/pool.py)."""
    sending: str | None = field(default=None, compare=False, repr=False)
    """The request being sent (`POST /agent/runs`), for the fence's refusal at the socket."""


_EMPTY = RequestContext()
_CURRENT: ContextVar[RequestContext] = ContextVar("exa_orch_request", default=_EMPTY)


def current_request() -> RequestContext:
    """The scope in force in this asyncio task (an empty RequestContext outside any)."""
    return _CURRENT.get()


def _changed(given: dict[str, Any]) -> RequestContext:
    return replace(_CURRENT.get(), **{name: value for name, value in given.items() if value is not _UNSET})


@contextmanager
def request_scope(
    *,
    principal: str | None = _UNSET,
    task_id: str | None = _UNSET,
    step: str | None = _UNSET,
    fence: LeaseFence | None = _UNSET,
    purse: Purse | None = _UNSET,
    notice: Notice | None = _UNSET,
    sending: str | None = _UNSET,
) -> Iterator[RequestContext]:
    """Within the block, the current scope with the given fields replaced (None clears one)."""
    scope = _changed(
        {
            "principal": principal,
            "task_id": task_id,
            "step": step,
            "fence": fence,
            "purse": purse,
            "notice": notice,
            "sending": sending,
        }
    )
    token = _CURRENT.set(scope)
    try:
        yield scope
    finally:
        _CURRENT.reset(token)


def enter_request_scope(
    *, principal: str | None, task_id: str | None = None, fence: LeaseFence | None = None
) -> None:
    """Set a new scope for the rest of this asyncio task (a task's actor, which owns its asyncio task
    and ends with it; children created later inherit it). Anything else uses `request_scope`."""
    _CURRENT.set(RequestContext(principal=principal, task_id=task_id, fence=fence))


def set_request(*, purse: Purse | None = _UNSET, notice: Notice | None = _UNSET) -> None:
    """Change the scope for the rest of this asyncio task, as `enter_request_scope` set it (the
    actor, once it has opened the task's purse or made its context)."""
    _CURRENT.set(_changed({"purse": purse, "notice": notice}))


def request_in(context: Context) -> RequestContext:
    """The scope in force in `context` (a callback's or an asyncio task's); readable from any thread."""
    return context.get(_CURRENT, _EMPTY)
