"""research.deep follows its run's own events (workflows/run_events.py): one checkpoint and one
progress report per event, the feed reopened with Last-Event-ID when it ends before the run does,
and polling where the endpoint serves no feed. (The kill -9 case: tests/client/test_events_crash.py.)"""

from __future__ import annotations

import functools
from typing import Any

import httpx
import pytest

import exa_orch.app
from exa_orch.gateway import Gateway
from exa_orch.sim.testing import SimHandle
from tests.workflows.conftest import OpenApp, run_task

MODULE = "exa_orch.workflows.research"


@pytest.fixture
def sim(slow_sim: SimHandle) -> SimHandle:
    return slow_sim


class Recording(httpx.AsyncBaseTransport):
    """The real HTTP transport, remembering each events request's Last-Event-ID; with `no_feed`,
    the events endpoint answers 404 as an API without it would (nothing reaches the simulator)."""

    def __init__(self, no_feed: bool = False) -> None:
        self._inner = httpx.AsyncHTTPTransport(retries=0)
        self.no_feed = no_feed
        self.asked: list[str | None] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/events"):
            self.asked.append(request.headers.get("last-event-id"))
            if self.no_feed:
                body = {"requestId": "r", "error": "Not found", "tag": "NOT_FOUND"}
                return httpx.Response(404, json=body, request=request)
        return await self._inner.handle_async_request(request)

    async def aclose(self) -> None:
        await self._inner.aclose()


def progress_messages(events: list[dict[str, Any]]) -> list[str]:
    return [str(e["data"].get("message")) for e in events if e["kind"] == "progress"]


async def test_each_event_is_a_checkpoint_and_a_report_and_the_feed_resumes_from_the_last_id(
    research_app: OpenApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    wire = Recording()
    monkeypatch.setattr(exa_orch.app, "Gateway", functools.partial(Gateway, inner=wire))
    async with research_app(MODULE) as app:
        done = await run_task(app, "research.deep", {"instructions": "Who makes EV batteries?"})
        steps = await app.store.load_steps(done.id)
        history = await app.store.events(done.id)
    assert done.status == "completed", done.error
    feed = [steps[f"research.poll.event:{n}"] for n in range(1, 6)]
    assert [e["event"] for e in feed] == [
        "run.created",
        "run.started",
        "run.progress",
        "run.progress",
        "run.completed",
    ]
    assert "research.poll.event:6" not in steps
    assert (
        "run" not in feed[-1]["data"] and feed[-1]["data"]["status"] == "completed"
    )  # the run itself is not kept
    ids = [e["id"] for e in feed]
    reports = [m for m in progress_messages(history) if m.endswith("]")]
    assert reports == [m for m in reports if any(m.endswith(f"[{i}]") for i in ids)] and len(reports) == 5
    # The simulator replays what happened so far and closes: each reopening asked from the last id.
    assert wire.asked[0] is None and len(wire.asked) >= 2
    assert set(wire.asked[1:]) <= set(ids) and wire.asked[1:] == sorted(wire.asked[1:])


async def test_without_a_feed_the_task_polls_the_run_as_before(
    research_app: OpenApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    wire = Recording(no_feed=True)
    monkeypatch.setattr(exa_orch.app, "Gateway", functools.partial(Gateway, inner=wire))
    async with research_app(MODULE) as app:
        done = await run_task(app, "research.deep", {"instructions": "Who makes EV batteries?"})
        steps = await app.store.load_steps(done.id)
    assert done.status == "completed", done.error
    assert wire.asked == [None]  # asked once, then polled
    assert steps["research.poll.event:1"] == {"end": "unavailable (RESOURCE_NOT_FOUND)"}
    assert steps["research.poll"]["status"] == "completed" and done.result["status"] == "completed"
