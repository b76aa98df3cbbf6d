"""Following an agent run's own events (`GET /agent/runs/{id}/events`, server-sent events with ids).

`follow_events(ctx, key, run_id, deadline, on_event)` reads the run's feed (the port's
`ExaPort.follow_run`, exa_orch/exa/events.py) one event at a time, each event a checkpoint of its own (`{key}.event:1`, `{key}.event:2`, ...), and hands each it reads to
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

from collections.abc import Awaitable, Callable
from typing import Any

from exa_orch.exa.events import FeedEnd, RunEvent
from exa_orch.runtime import TaskContext
from exa_orch.runtime.deps import exa_port_of

Json = dict[str, Any]
OnEvent = Callable[[RunEvent, int], Awaitable[None]]
"""async (event as its checkpoint keeps it, its number) -> None: a task's report of one event."""


def _kept(event: RunEvent) -> Json:
    """What a checkpoint keeps of an event: its id, name and data, without the whole run a terminal
    event carries (the caller reads the run's final state once, after the feed)."""
    data = event.data
    if isinstance(data, dict) and "run" in data:
        data = {k: v for k, v in data.items() if k != "run"}
        status = event.status()  # the data's own status stays; else the run's
        if status is not None:
            data.setdefault("status", status)
    return {"id": event.id, "event": event.event, "data": data}


async def follow_events(
    ctx: TaskContext,
    key: str,
    run_id: str,
    deadline: float,
    on_event: OnEvent,
) -> Json:
    """Follow run `run_id`'s events until its terminal event or `deadline` (wall time), one
    checkpoint each (see the module doc). `on_event(event, n)` after each event read
    in this run (not after a replayed one: the run that read it reported it). Returns how the feed
    ended: {end: "terminal" | "timeout" | "unavailable (...)", events: n, last: id}."""
    feed = exa_port_of(ctx.deps).follow_run(run_id, ctx.sleep)
    last: str | None = None
    count = 0
    live: list[int] = []  # the events read in this run (the others are replayed checkpoints)
    replayed: tuple[RunEvent, int] | None = None  # the last replayed event, until something is read live

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
                if not isinstance(got, RunEvent):
                    return got.model_dump()
                gateway = ctx.deps.gateway
                if gateway is not None:  # a terminal event frees its slot
                    gateway.observe_run("agent", run_id, got.run_status())
                return _kept(got)

            saved: Json = await ctx.step(f"{key}.event:{count}", next_event)
            if "end" in saved:  # the checkpoint of a `FeedEnd`
                await report_replayed()
                return {"end": FeedEnd.model_validate(saved).end, "events": count - 1, "last": last}
            event = RunEvent.model_validate(saved)
            last = event.id or last
            if count in live:  # a replayed event was reported by the run that read it
                await on_event(event, count)
            else:
                replayed = (event, count)
            if event.ended():
                await report_replayed()
                return {"end": "terminal", "events": count, "last": last}
    finally:
        await feed.aclose()
