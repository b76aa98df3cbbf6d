"""An agent run's own event stream (`GET /agent/runs/{id}/events`, server-sent events with ids).

`RunFeed(http, run_id, sleep)` reads the feed one event at a time (`next(after, deadline)`), opened
with `Last-Event-ID` set to `after` so a reader resumed from a checkpoint goes on from the next
event. A feed that ends before the run's terminal event (an endpoint that replays what happened so
far and closes, a dropped connection) is opened again after a pause that grows from 0.2 s to 5 s.
Where no feed is available (the endpoint answers no event stream, or an error that is not
transient) `next` says so (`FeedEnd`), and the caller polls the run instead.

Events are Exa's (`agent_run.created`, `agent_run.started`, kinds between such as
`agent_run.search_trace`, then `agent_run.completed|failed|cancelled`), each with the run's `id`
and `status` in its data. exa-py's `AgentEvent` requires an object as data; a stream event may
carry text, so events are read into `RunEvent` (the same fields, data of any JSON).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from typing import Any

import httpx
from pydantic import BaseModel, ConfigDict

from exa_orch.errors import GatewayError, OrchError

from .statuses import RUN_TERMINAL, RUN_TERMINAL_EVENTS
from .wire import segment

FIRST_PAUSE_S, MAX_PAUSE_S = 0.2, 5.0
Sleep = Callable[[float], Awaitable[None]]


class RunEvent(BaseModel):
    """One event of an agent run's stream: its SSE id, name, and data (JSON, or text that is not)."""

    model_config = ConfigDict(frozen=True, defer_build=True)
    id: str | None = None
    event: str = "message"
    data: Any = None

    def status(self) -> str | None:
        """The run status the data states (`data.status`, or `data.run.status`), if any."""
        data = self.data
        if not isinstance(data, dict):
            return None
        run = data.get("run")
        status = run.get("status") if isinstance(run, dict) else None
        status = status if isinstance(status, str) else data.get("status")
        return status if isinstance(status, str) else None

    def ended(self) -> bool:
        """Whether the event says its run ended: a terminal event name or a terminal status."""
        return self.event in RUN_TERMINAL_EVENTS or self.status() in RUN_TERMINAL

    def run_status(self) -> str:
        """The status the run is in after this event (a terminal name without a status says which)."""
        status = self.status()
        if status is not None:
            return status
        return self.event.removeprefix("agent_run.") if self.event in RUN_TERMINAL_EVENTS else "running"


class FeedEnd(BaseModel):
    """Why a feed gave no (more) event: "timeout", or "unavailable (...)" (the caller polls)."""

    model_config = ConfigDict(frozen=True, defer_build=True)
    end: str


class RunFeed:
    """One run's event stream, opened (again) as needed; `next` returns one event or why there is none."""

    def __init__(self, http: httpx.AsyncClient, run_id: str, sleep: Sleep = asyncio.sleep) -> None:
        self._http = http
        self._sleep = sleep
        self._path = f"/agent/runs/{segment(run_id, 'researchId')}/events"
        self._stream: AbstractAsyncContextManager[httpx.Response] | None = None
        self._events: AsyncIterator[RunEvent] | None = None
        self._pause = FIRST_PAUSE_S
        self.opened = 0  # how many times the feed was opened (tests, logs)

    async def next(self, after: str | None, deadline: float) -> RunEvent | FeedEnd:
        """The next event after the event id `after`, or why there is none before `deadline` (wall time)."""
        while True:
            left = deadline - time.time()
            if left <= 0:
                return FeedEnd(end="timeout")
            if self._events is None:
                why = await self._open(after)
                if why is not None:
                    return FeedEnd(end=why)
            assert self._events is not None
            try:
                async with asyncio.timeout(left):
                    event = await anext(self._events)
            except TimeoutError:
                await self.aclose()
                return FeedEnd(end="timeout")
            except (StopAsyncIteration, OrchError, httpx.TransportError):
                # The feed ended (or broke) before the run did: open it again after a pause.
                await self.aclose()
                await self._sleep(min(self._pause, max(0.0, deadline - time.time())))
                self._pause = min(self._pause * 1.5, MAX_PAUSE_S)
                continue
            self._pause = FIRST_PAUSE_S
            return event

    async def _open(self, after: str | None) -> str | None:
        headers = {"accept": "text/event-stream"}
        if after is not None:
            headers["last-event-id"] = after
        stream = self._http.stream("GET", self._path, headers=headers)
        try:
            response = await stream.__aenter__()
        except GatewayError as exc:  # no feed here (a transient failure was retried already)
            if exc.status is not None and 400 <= exc.status < 500:
                return f"unavailable ({exc.code})"
            raise
        self.opened += 1
        if not response.headers.get("content-type", "").startswith("text/event-stream"):
            await stream.__aexit__(None, None, None)
            return "unavailable (no event stream)"
        self._stream = stream
        self._events = _parse(response)
        return None

    async def aclose(self) -> None:
        """Close the stream if one is open (the feed opens again on the next `next`)."""
        stream, self._stream, self._events = self._stream, None, None
        if stream is not None:
            with contextlib.suppress(Exception):
                await stream.__aexit__(None, None, None)


async def _parse(response: httpx.Response) -> AsyncIterator[RunEvent]:
    """Server-sent events (`SseReader`), read from a response's lines."""
    reader = SseReader()
    async for line in response.aiter_lines():
        event = reader.feed(line)
        if event is not None:
            yield RunEvent.model_validate(event)
    last = reader.end()
    if last is not None:
        yield RunEvent.model_validate(last)


class SseReader:
    """Server-sent events, line by line: `feed(line)` returns the event a blank line completes, as
    {id, event, data} (data JSON when it parses, else text); `end()` the event a stream ended on
    before its blank line (the Agent API spec's own stream example ends that way), if any."""

    def __init__(self) -> None:
        self.fields: dict[str, str] = {}
        self.data: list[str] = []

    def feed(self, line: str) -> dict[str, Any] | None:
        if line == "":
            done = self._event() if self.data or self.fields else None
            self.fields, self.data = {}, []
            return done
        if not line.startswith(":"):
            name, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if name == "data":
                self.data.append(value)
            elif name in ("id", "event"):
                self.fields[name] = value
        return None

    def end(self) -> dict[str, Any] | None:
        return self._event() if self.data else None

    def _event(self) -> dict[str, Any]:
        text = "\n".join(self.data)
        try:
            value: Any = json.loads(text)
        except ValueError:
            value = text
        return {"id": self.fields.get("id"), "event": self.fields.get("event", "message"), "data": value}
