"""Keep-alive for long blocking calls (seed 000 sections 5.3, 5.7): tools/call (waitUntilIdle,
pollUntilFinished, tasks.result with a wait) and tasks/result.

A server middleware gives each such request a `Beat`. While the request runs, every
`HEARTBEAT_S` without progress: a request that carried a progress token gets a progress
notification (a small step past the last value, since progress must grow, saying how long the
call has run); one without a token has the client pinged (bounded by `PING_TIMEOUT_S`), so a
client that went away shows up in the log rather than as a silent hang. The client's own pings are
answered by the SDK.

The tools/call handler reports its operation's progress through the same Beat (`current_beat()`),
so heartbeats and real progress share one increasing sequence.
"""

from __future__ import annotations

import contextvars
import logging
import time
from typing import Any

import anyio
import mcp_types as types
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext

log = logging.getLogger(__name__)

HEARTBEAT_S = 15.0
PING_TIMEOUT_S = 10.0
HEARTBEAT_STEP = 0.001  # how far a heartbeat moves progress: it must grow, but say nothing new
LONG_METHODS = frozenset({"tools/call", "tasks/result"})

_CURRENT: contextvars.ContextVar[Beat | None] = contextvars.ContextVar("exa_orch_beat", default=None)


def current_beat() -> Beat | None:
    """The Beat of the request being handled, if it is one of LONG_METHODS."""
    return _CURRENT.get()


def _progress_token(ctx: ServerRequestContext[Any, Any]) -> Any:
    meta: Any = ctx.meta or {}
    raw_meta = (ctx.params or {}).get("_meta") if isinstance(ctx.params, dict) else None
    for source in (meta, raw_meta or {}):
        if isinstance(source, dict):
            for key in ("progressToken", "progress_token"):
                if source.get(key) is not None:
                    return source[key]
    return None


class Beat:
    """One long request's progress sequence and heartbeat."""

    def __init__(self, session: Any, has_token: bool) -> None:
        self._session = session
        self.has_token = has_token
        self.started = time.monotonic()
        self.last_sent = self.started
        self.last_progress: float | None = None
        self.heartbeats = 0
        self.pings = 0
        self._changed = anyio.Event()

    async def report(self, completed: float, total: float | None, message: str | None) -> None:
        """Send a progress notification if `completed` grows the sequence (else nothing)."""
        if self.last_progress is not None and completed <= self.last_progress:
            return
        self.last_progress = completed
        self.last_sent = time.monotonic()
        try:
            await self._session.report_progress(completed, total, message)
        except Exception:  # a closed connection must not fail the operation
            log.debug("progress notification dropped", exc_info=True)

    async def _beat(self) -> None:
        elapsed = time.monotonic() - self.started
        if self.has_token:
            value = (self.last_progress or 0.0) + HEARTBEAT_STEP
            await self.report(value, None, f"still working ({elapsed:.0f} s)")
            self.heartbeats += 1
        elif getattr(self._session, "can_send_request", False):
            try:
                with anyio.fail_after(PING_TIMEOUT_S):
                    await self._session.send_request(types.PingRequest(), types.EmptyResult)
                self.pings += 1
            except Exception as exc:  # no answer: the client may be gone; the call goes on
                log.warning("the client did not answer a keep-alive ping after %.0f s: %r", elapsed, exc)
            self.last_sent = time.monotonic()
        self._changed.set()
        self._changed = anyio.Event()

    async def run(self) -> None:
        """Heartbeat until cancelled (the request ended)."""
        while True:
            await anyio.sleep(max(0.0, self.last_sent + HEARTBEAT_S - time.monotonic()))
            if time.monotonic() - self.last_sent >= HEARTBEAT_S:
                await self._beat()

    async def wait_for(self, heartbeats: int = 0, pings: int = 0) -> None:
        """Until at least this many heartbeats and pings have happened (for tests and callers)."""
        while self.heartbeats < heartbeats or self.pings < pings:
            await self._changed.wait()


async def keepalive(ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
    """Server middleware: a Beat around each long request (see the module doc)."""
    if ctx.request_id is None or ctx.method not in LONG_METHODS:
        return await call_next(ctx)
    beat = Beat(ctx.session, _progress_token(ctx) is not None)
    token = _CURRENT.set(beat)
    failure: Exception | None = None
    try:
        async with anyio.create_task_group() as tg:
            tg.start_soon(beat.run)
            try:
                result = await call_next(ctx)
            except Exception as exc:  # raised after the group: inside, it would become an ExceptionGroup
                failure = exc
            finally:
                tg.cancel_scope.cancel()
    finally:
        _CURRENT.reset(token)
    if failure is not None:
        raise failure
    return result
