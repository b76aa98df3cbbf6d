"""ExaOrchPool: several `exa-orch serve` children behind one client API (seed 004, Concurrency).

Each child is an ExaOrchClient (its own process, session, deadlines and stats). A call goes to the
healthy child with the fewest calls in flight (ties in turn); a child the kernel has an exit for is
not healthy, so a SIGKILLed child gets no call even before its end reaches the event loop. A child
that exits is replaced at once by a watcher while the others keep serving; a call lost with it
follows the client's resend rule (`may_resend`): one never written to a live child, whatever the
operation, and a read-only one, are sent once more, to another child; anything else (it may have
run) raises ServerUnavailable and is never sent again. Every child runs the same command with the same
environment, so all share one database (EXA_ORCH_DB): any child answers for any task, and a task
whose child died is resumed by a child on that database.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from types import TracebackType
from typing import Any, Unpack

import anyio
from anyio.abc import TaskGroup

from exa_orch.client.calls import CallStats, TaskCalls
from exa_orch.client.client import ClientOptions, ExaOrchClient, may_resend
from exa_orch.client.errors import ServerUnavailable
from exa_orch.errors import InvalidParams

log = logging.getLogger("exa_orch.client")


class ExaOrchPool(TaskCalls):
    """`async with ExaOrchPool(size=3, env={...}) as pool`: `size` children, one client API
    (`call`, `create_task`, `get_task`, `wait_task`, `cancel_task`, `stats`).

    The options are ExaOrchClient's, given to every child. `--sim` is refused in `command`: each
    child would run a simulator of its own; start one (`exa-orch sim`) and set EXA_ORCH_EXA_URL.
    """

    def __init__(self, size: int = 2, **options: Unpack[ClientOptions]) -> None:
        if not isinstance(size, int) or size < 1:
            raise InvalidParams(f"size must be a whole number >= 1, got {size!r}", fields=["size"])
        if any(arg.split("=", 1)[0] == "--sim" for arg in options.get("command") or ()):
            raise InvalidParams(
                "command: `serve --sim` would give each child a simulator of its own",
                hint="Run one simulator (`exa-orch sim`) and pass the EXA_ORCH_EXA_URL and "
                "EXA_ORCH_SIMULATOR=1 it prints in env={...}.",
                fields=["command"],
            )
        self.children: tuple[ExaOrchClient, ...] = tuple(ExaOrchClient(**options) for _ in range(size))
        self.ping_timeout = self.children[0].ping_timeout
        self._in_flight = [0] * size
        self._turn = 0
        self._resent = 0
        self._stats = CallStats()
        self._watchers: TaskGroup | None = None

    # -- lifecycle -----------------------------------------------------------------------------

    async def __aenter__(self) -> ExaOrchPool:
        opened: list[ExaOrchClient] = []
        try:
            for child in self.children:  # task groups nest: each is entered (and left) in this task
                await child._open()
                opened.append(child)
            failures: list[BaseException] = []
            async with anyio.create_task_group() as tg:  # the children start side by side
                for child in self.children:
                    tg.start_soon(_start, child, failures)
            if failures:
                raise failures[0]
            self._watchers = anyio.create_task_group()
            await self._watchers.__aenter__()
            for slot in range(len(self.children)):
                self._watchers.start_soon(self._watch, slot)
        except BaseException:
            await self._close(opened)
            raise
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """Stop the watchers, then every child (side by side: stdin closed, waited, terminated)."""
        await self._close(list(self.children))

    async def _close(self, opened: list[ExaOrchClient]) -> None:
        if self._watchers is not None:
            watchers, self._watchers = self._watchers, None
            watchers.cancel_scope.cancel()
            await watchers.__aexit__(None, None, None)
        with anyio.CancelScope(shield=True):
            async with anyio.create_task_group() as tg:
                for child in opened:
                    tg.start_soon(child.stop)
        for child in reversed(opened):  # leave their task groups in the reverse order of entry
            await child.aclose()

    async def _watch(self, slot: int) -> None:
        """Replace child `slot` whenever it exits (its own backoff spaces failed starts)."""
        child = self.children[slot]
        while True:
            await child.wait_exit()
            log.warning("pool child %d is down; starting a new one while the others serve", slot)
            try:
                await child.start()
            except Exception as exc:  # logged; the next try waits the child's backoff
                log.warning("pool child %d did not start: %s", slot, exc)

    # -- calls ---------------------------------------------------------------------------------

    async def call(
        self,
        operation: str,
        args: Mapping[str, Any] | None = None,
        *,
        timeout: float | None = None,  # noqa: ASYNC109 (the per-call deadline API)
    ) -> Any:
        """ExaOrchClient.call on the least busy healthy child. A call lost with its child before it
        was written to it, or a read-only one, is sent once more, to another child; any other raises
        ServerUnavailable (it may have run)."""
        if self._watchers is None:
            raise ServerUnavailable("the pool is closed", hint="Use it inside `async with ExaOrchPool(...)`.")
        started = time.monotonic()
        try:
            slot = self._pick()
            try:
                result = await self._send(slot, operation, args, timeout)
            except ServerUnavailable as lost:
                if not may_resend(operation, lost):
                    raise
                self._resent += 1
                other = self._pick(avoid=slot)
                log.info("sending %s again, to pool child %d (child %d exited)", operation, other, slot)
                result = await self._send(other, operation, args, timeout)
        except BaseException:
            self._stats.record(operation, started, error=True)
            raise
        self._stats.record(operation, started, error=False)
        return result

    def _pick(self, avoid: int | None = None) -> int:
        """The healthy child (else any) with the fewest calls in flight, ties taken in turn."""
        slots = [i for i in range(len(self.children)) if i != avoid] or [avoid or 0]
        healthy = [i for i in slots if self.children[i].healthy] or slots
        n = len(self.children)
        slot = min(healthy, key=lambda i: (self._in_flight[i], (i - self._turn) % n))
        self._turn = (slot + 1) % n
        return slot

    async def _send(
        self,
        slot: int,
        operation: str,
        args: Mapping[str, Any] | None,
        timeout: float | None,  # noqa: ASYNC109
    ) -> Any:
        self._in_flight[slot] += 1
        try:
            return await self.children[slot].call(operation, args, timeout=timeout, resend=False)
        finally:
            self._in_flight[slot] -= 1

    # -- observability -------------------------------------------------------------------------

    @property
    def healthy(self) -> int:
        """How many children are running with a live session."""
        return sum(child.healthy for child in self.children)

    def stats(self) -> dict[str, Any]:
        """The pool's counters (each call once, however many children it took; `resent`: lost
        calls sent again after their child died) and each child's own (`children`, by slot)."""
        children = [
            {"slot": i, "inFlight": self._in_flight[i], **child.stats()}
            for i, child in enumerate(self.children)
        ]
        return {
            "size": len(self.children),
            "healthy": self.healthy,
            "calls": self._stats.calls,
            "errors": self._stats.errors,
            "resent": self._resent,
            "starts": sum(c["starts"] for c in children),
            "restarts": sum(c["restarts"] for c in children),
            "operations": self._stats.by_operation(),
            "children": children,
        }


async def _start(child: ExaOrchClient, failures: list[BaseException]) -> None:
    try:
        await child.start()
    except Exception as exc:  # the first is raised once all have tried (a task group would wrap it)
        failures.append(exc)
