"""Following an agent run's own events (`GET /agent/runs/{id}/events`, server-sent events with ids).

`follow_events(ctx, key, run_id, deadline, on_event)` reads the run's feed one event at a time, each
event a checkpoint of its own (`{key}.event:1`, `{key}.event:2`, ...), and hands each it reads to
`on_event` (the task's progress and status message). A resumed task replays the events it
checkpointed without reporting them again (the run that read one reported it; the last of them
is reported once more unless the task's history holds that report already, for a run that died
between an event's checkpoint and its report) and opens the feed again with `Last-Event-ID` set to the last
of them, so it goes on from the next event and repeats no report.

A feed that ends before the run's terminal event (an endpoint that replays what happened so far
and closes, a dropped connection) is opened again with the last id, after a pause that grows from
0.2 s to 5 s as polls do. Where no feed is available (the endpoint answers no event stream, or an
error that is not transient), it says so, and the caller polls the run as before. Every event is
also told to the gateway's run pool, so a terminal event frees the run's slot at once.

Events are Exa's (`agent_run.created`, `agent_run.started`, kinds between such as
`agent_run.search_trace` or `agent_run.output_item.done`, then `agent_run.completed|failed|cancelled`),
each with the run's `id` and `status` in its data. The feed ends on a terminal name or on a terminal
`status` in an event's data (`ended`); an event of a kind it does not know is progress, never an error.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
import urllib.parse
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from typing import Any

import httpx

from exa_orch.errors import GatewayError, OrchError
from exa_orch.runtime import TaskContext

Json = dict[str, Any]
# Exa's terminal event names (the Agent API spec's AgentRunEvent; Exa's MCP server's TERMINAL_EVENTS,
# tests/fixtures/exa/). A run also ends on any event whose data says a terminal status (`ended`).
TERMINAL_EVENTS = frozenset({"agent_run.completed", "agent_run.failed", "agent_run.cancelled"})
TERMINAL_STATUSES = frozenset({"completed", "failed", "cancelled"})
FIRST_PAUSE_S, MAX_PAUSE_S = 0.2, 5.0


class _Feed:
    """One run's event stream, opened (again) as needed; `next` returns one event or why there is none."""

    def __init__(self, ctx: TaskContext, run_id: str) -> None:
        self._ctx = ctx
        self._path = f"/agent/runs/{urllib.parse.quote(run_id, safe='')}/events"
        self._stream: AbstractAsyncContextManager[httpx.Response] | None = None
        self._events: AsyncIterator[Json] | None = None
        self._pause = FIRST_PAUSE_S
        self.opened = 0  # how many times the feed was opened (tests, logs)

    async def next(self, after: str | None, deadline: float) -> Json:
        while True:
            left = deadline - time.time()
            if left <= 0:
                return {"end": "timeout"}
            if self._events is None:
                why = await self._open(after)
                if why is not None:
                    return {"end": why}
            assert self._events is not None
            try:
                async with asyncio.timeout(left):
                    event = await anext(self._events)
            except TimeoutError:
                await self.aclose()
                return {"end": "timeout"}
            except (StopAsyncIteration, OrchError, httpx.TransportError):
                # The feed ended (or broke) before the run did: open it again after a pause.
                await self.aclose()
                await self._ctx.sleep(min(self._pause, max(0.0, deadline - time.time())))
                self._pause = min(self._pause * 1.5, MAX_PAUSE_S)
                continue
            self._pause = FIRST_PAUSE_S
            return event

    async def _open(self, after: str | None) -> str | None:
        headers = {"accept": "text/event-stream"}
        if after is not None:
            headers["last-event-id"] = after
        gateway = self._ctx.deps.gateway
        if gateway is None:
            return "unavailable (no gateway)"
        stream = gateway.http.stream("GET", self._path, headers=headers)
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
        stream, self._stream, self._events = self._stream, None, None
        if stream is not None:
            with contextlib.suppress(Exception):
                await stream.__aexit__(None, None, None)


async def _parse(response: httpx.Response) -> AsyncIterator[Json]:
    """Server-sent events as {id, event, data} (`SseReader`), read from a response's lines."""
    reader = SseReader()
    async for line in response.aiter_lines():
        event = reader.feed(line)
        if event is not None:
            yield event
    last = reader.end()
    if last is not None:
        yield last


class SseReader:
    """Server-sent events, line by line: `feed(line)` returns the event a blank line completes, as
    {id, event, data} (data JSON when it parses, else text); `end()` the event a stream ended on
    before its blank line (the Agent API spec's own stream example ends that way), if any."""

    def __init__(self) -> None:
        self.fields: dict[str, str] = {}
        self.data: list[str] = []

    def feed(self, line: str) -> Json | None:
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

    def end(self) -> Json | None:
        return self._event() if self.data else None

    def _event(self) -> Json:
        text = "\n".join(self.data)
        try:
            value: Any = json.loads(text)
        except ValueError:
            value = text
        return {"id": self.fields.get("id"), "event": self.fields.get("event", "message"), "data": value}


def status_of(event: Json) -> str | None:
    """The run status an event's data states (`data.status`, or `data.run.status`), if any."""
    data = event.get("data")
    if not isinstance(data, dict):
        return None
    run = data.get("run")
    status = run.get("status") if isinstance(run, dict) else None
    status = status if isinstance(status, str) else data.get("status")
    return status if isinstance(status, str) else None


def ended(event: Json) -> bool:
    """Whether `event` says its run ended: a terminal event name, or a terminal status in its data."""
    return event.get("event") in TERMINAL_EVENTS or status_of(event) in TERMINAL_STATUSES


def _kept(event: Json) -> Json:
    """What a checkpoint keeps of an event: its id, name and data, without the whole run a terminal
    event carries (the caller reads the run's final state once, after the feed)."""
    data = event.get("data")
    if isinstance(data, dict) and "run" in data:
        run = data["run"] if isinstance(data["run"], dict) else {}
        data = {k: v for k, v in data.items() if k != "run"}
        if run.get("status") is not None:
            data.setdefault("status", run["status"])
    return {"id": event.get("id"), "event": event.get("event"), "data": data}


async def follow_events(
    ctx: TaskContext,
    key: str,
    run_id: str,
    deadline: float,
    on_event: Callable[[Json, int], Awaitable[None]],
) -> Json:
    """Follow run `run_id`'s events until its terminal event or `deadline` (wall time), one
    checkpoint each (see the module doc). `on_event(event, n)` after each event read
    in this run (not after a replayed one: the run that read it reported it). Returns how the feed
    ended: {end: "terminal" | "timeout" | "unavailable (...)", events: n, last: id}."""
    feed = _Feed(ctx, run_id)
    last: str | None = None
    count = 0
    live: list[int] = []  # the events read in this run (the others are replayed checkpoints)
    replayed: tuple[Json, int] | None = None  # the last replayed event, until something is read live

    async def report_replayed() -> None:
        # The earlier run may have died between this event's checkpoint and its report: report it
        # unless the task's history holds that report already (TaskContext.unless_reported).
        nonlocal replayed
        if replayed is not None:
            with ctx.unless_reported():
                await on_event(*replayed)
            replayed = None

    try:
        while True:
            count += 1

            async def next_event(after: str | None = last, n: int = count) -> Json:
                live.append(n)
                await report_replayed()
                got = await feed.next(after, deadline)
                if "end" in got:
                    return got
                status = status_of(got)
                if status is None:  # a terminal name without a status says which status it ends in
                    name = str(got.get("event"))
                    status = name.removeprefix("agent_run.") if name in TERMINAL_EVENTS else "running"
                gateway = ctx.deps.gateway
                if gateway is not None:
                    gateway.observe_run("agent", run_id, status)  # a terminal event frees its slot
                return _kept(got)

            event: Json = await ctx.step(f"{key}.event:{count}", next_event)
            if "end" in event:
                await report_replayed()
                return {"end": event["end"], "events": count - 1, "last": last}
            last = event.get("id") or last
            if count in live:  # a replayed event was reported by the run that read it
                await on_event(event, count)
            else:
                replayed = (event, count)
            if ended(event):
                await report_replayed()
                return {"end": "terminal", "events": count, "last": last}
    finally:
        await feed.aclose()
