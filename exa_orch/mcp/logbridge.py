"""MCP logging (2025-11-25 `logging` capability): exa-orch's own log records, as
`notifications/message`, to every connection that asked for them with `logging/setLevel`.

What an operator wants to see already goes through Python logging under `exa_orch.*`: task
transitions (logged here from the runtime's task events), throttling and retries (the gateway),
resumes after a restart (the supervisor). `LogBridge` is one `logging.Handler` on the `exa_orch`
logger; each connection that sent `logging/setLevel` gets a sink with its own level and a bounded
queue, drained by a pump task that the connection's teardown cancels. A slow or gone client loses
messages, never stalls the code that logged. Text passes `exa_orch.log.redact` again on the way
out, so a registered secret (the API key) never reaches a client.

A record concerns one principal when it was made for one (`runtime.concerning`) or while acting
for one (the request scope's principal, `gateway.context`: a task's actor, a tool call): it goes to that principal's
connections alone, so a token's client never hears of another token's tasks (their ids, types,
failures, Exa objects). A record that concerns nobody in particular (start-up, the supervisor's
rounds, another thread) goes to the local user's connections only: stdio, or HTTP without tokens.

2026-07-28 connections have no `logging/setLevel` (SEP-2577 makes logging a per-request opt-in);
they get no sink.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass, field
from typing import Any

import anyio

from exa_orch.log import redact
from exa_orch.runtime import Principal, concerning, record_principal

log = logging.getLogger(__name__)

# RFC 5424 levels of MCP, severity-ascending, with the Python level each one starts at.
MCP_LEVELS: dict[str, int] = {
    "debug": logging.DEBUG,
    "info": logging.INFO,
    "notice": logging.INFO + 5,
    "warning": logging.WARNING,
    "error": logging.ERROR,
    "critical": logging.CRITICAL,
    "alert": logging.CRITICAL + 5,
    "emergency": logging.CRITICAL + 10,
}
ROOT_LOGGER = "exa_orch"
QUEUE_MAX = 500  # messages a connection may have pending before new ones are dropped
SEND_TIMEOUT_S = 2.0  # a client that stops reading must not hold the pump forever
MAX_DATA_CHARS = 4000  # one record must not flood the agent's context


def mcp_level(levelno: int) -> str:
    """The MCP level name for a Python level number (the highest MCP level at or below it)."""
    name = "debug"
    for candidate, threshold in MCP_LEVELS.items():
        if levelno >= threshold:
            name = candidate
    return name


@dataclass(eq=False)
class _Sink:
    """One connection's subscription: its level, its queue, the pump that drains it."""

    outbound: Any  # mcp Outbound: `await notify(method, params)`
    level: int
    loop: asyncio.AbstractEventLoop
    principal: str | None = None  # who opened the connection (None: the local user, in tests)
    sees_unowned: bool = True  # hears records that concern nobody (the local user only)
    queue: asyncio.Queue[dict[str, Any]] = field(default_factory=lambda: asyncio.Queue(QUEUE_MAX))
    pump: asyncio.Task[None] | None = None
    dropped: int = 0

    def hears(self, owner: str | None) -> bool:
        """True if a record concerning `owner` (None: nobody in particular) is this sink's to hear."""
        if owner is None:
            return self.sees_unowned
        return owner == self.principal or (self.principal is None and self.sees_unowned)

    def offer(self, params: dict[str, Any]) -> None:
        try:
            self.queue.put_nowait(params)
        except asyncio.QueueFull:
            self.dropped += 1

    async def run(self) -> None:
        while True:
            params = await self.queue.get()
            try:
                with anyio.move_on_after(SEND_TIMEOUT_S):
                    await self.outbound.notify("notifications/message", params)
            except Exception:  # the connection went away; its teardown removes the sink
                self.dropped += 1


class LogBridge(logging.Handler):
    """Forwards `exa_orch.*` log records to subscribed MCP connections at each one's level."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self._sinks: dict[int, _Sink] = {}
        self._base_level: int | None = None
        # The lowest level any sink wants: `emit` drops a record below it before formatting or
        # redacting it (a debug line costs nothing while every client listens at warning).
        self._lowest = logging.CRITICAL + 100

    # -- subscriptions ------------------------------------------------------------------

    def set_level(self, connection: Any, level: str, principal: Principal | None = None) -> None:
        """Send this connection records at `level` and above (MCP level name) from now on, of
        those that concern `principal` (who opened the connection; None: the local user).

        Must be called on the event loop that serves the connection; the pump is torn down with it.
        """
        number = MCP_LEVELS[level]
        key = id(connection)
        sink = self._sinks.get(key)
        if sink is None:
            sink = _Sink(
                outbound=connection.outbound,
                level=number,
                loop=asyncio.get_running_loop(),
                principal=None if principal is None else principal.name,
                sees_unowned=True if principal is None else principal.sees_unowned,
            )
            sink.pump = asyncio.get_running_loop().create_task(sink.run(), name="exa-orch-log-pump")
            self._sinks[key] = sink
            connection.exit_stack.push_async_callback(self._remove, key)
        sink.level = number
        self._sync_logger_level()

    async def _remove(self, key: int) -> None:
        sink = self._sinks.pop(key, None)
        self._sync_logger_level()
        if sink is not None and sink.pump is not None:
            sink.pump.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await sink.pump

    def listening(self, owner: str | None, levelno: int) -> bool:
        """True if some connection would hear a record at `levelno` concerning `owner`."""
        return any(levelno >= s.level and s.hears(owner) for s in self._sinks.values())

    def level_of(self, connection: Any) -> str | None:
        """The MCP level a connection subscribed at; None when it never sent logging/setLevel."""
        sink = self._sinks.get(id(connection))
        return None if sink is None else mcp_level(sink.level)

    def _sync_logger_level(self) -> None:
        # A client asking for debug must get debug records even though stderr stays at the
        # operator's level (its handler filters): the exa_orch logger lets through the lowest
        # level anyone wants, and goes back to inheriting when nobody listens.
        logger = logging.getLogger(ROOT_LOGGER)
        if self._base_level is None:
            self._base_level = logger.level
        wanted = min((s.level for s in self._sinks.values()), default=None)
        self._lowest = logging.CRITICAL + 100 if wanted is None else wanted
        effective = logging.getLogger().getEffectiveLevel() if self._base_level == 0 else self._base_level
        logger.setLevel(self._base_level if wanted is None or wanted >= effective else wanted)

    # -- logging.Handler ----------------------------------------------------------------

    def emit(self, record: logging.LogRecord) -> None:
        """Queue `record` for every sink at or below its level; a record below every sink's
        level (or with no sink) is dropped before its message is formatted or redacted."""
        if record.levelno < self._lowest or not self._sinks or record.name == __name__:
            return
        try:
            text = record.getMessage()
            if record.exc_info and record.levelno >= logging.ERROR:
                text += f" ({type(record.exc_info[1]).__name__}: {record.exc_info[1]})"
        except Exception:  # a malformed format string: logging reports it on stderr
            return
        text = redact(text)
        if len(text) > MAX_DATA_CHARS:
            text = text[:MAX_DATA_CHARS] + "... (cut)"
        params = {"level": mcp_level(record.levelno), "logger": record.name, "data": text}
        owner = record_principal(record)
        for sink in list(self._sinks.values()):
            if record.levelno < sink.level or not sink.hears(owner):
                continue
            try:
                if _on_loop(sink.loop):
                    sink.offer(params)
                else:  # a record from another thread (aiosqlite's, a simulator's)
                    sink.loop.call_soon_threadsafe(sink.offer, params)
            except RuntimeError:  # the loop is closed: the connection is gone
                continue


def _on_loop(loop: asyncio.AbstractEventLoop) -> bool:
    try:
        return asyncio.get_running_loop() is loop
    except RuntimeError:
        return False


_BRIDGE: LogBridge | None = None


def bridge() -> LogBridge:
    """The process's one LogBridge, attached to the `exa_orch` logger on first use."""
    global _BRIDGE
    if _BRIDGE is None:
        _BRIDGE = LogBridge()
        logging.getLogger(ROOT_LOGGER).addHandler(_BRIDGE)
    return _BRIDGE


task_log = logging.getLogger("exa_orch.tasks")


async def log_task_event(event: Any) -> None:
    """TaskService listener: one INFO line per task transition (status events only)."""
    if getattr(event, "kind", None) != "status":
        return
    record = event.task
    message = ""
    if record.error and str(record.status) == "failed":
        message = f": {str(record.error.get('message', ''))[:300]}"
    task_log.info(
        "task %s (%s) is %s%s",
        record.id,
        record.type,
        record.status,
        message,
        extra=concerning(record.principal),
    )
