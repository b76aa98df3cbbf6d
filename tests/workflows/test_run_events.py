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
    the events endpoint answers 404 as an API without it would (nothing reaches the simulator);
    with `one_event`, each feed ends after its first event, as a dropped connection ends it."""

    def __init__(self, no_feed: bool = False, one_event: bool = False) -> None:
        self._inner = httpx.AsyncHTTPTransport(retries=0)
        self.no_feed, self.one_event = no_feed, one_event
        self.asked: list[str | None] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/events"):
            self.asked.append(request.headers.get("last-event-id"))
            if self.no_feed:
                body = {"requestId": "r", "error": "Not found", "tag": "NOT_FOUND"}
                return httpx.Response(404, json=body, request=request)
            if self.one_event:
                response = await self._inner.handle_async_request(request)
                first = b""
                async for chunk in response.stream:  # type: ignore[union-attr]
                    first += chunk
                    if b"\n\n" in first:
                        break
                await response.aclose()
                cut = first[: first.index(b"\n\n") + 2] if b"\n\n" in first else first
                return httpx.Response(
                    response.status_code, headers=response.headers, content=cut, request=request
                )
        return await self._inner.handle_async_request(request)

    async def aclose(self) -> None:
        await self._inner.aclose()


def progress_messages(events: list[dict[str, Any]]) -> list[str]:
    return [str(e["data"].get("message")) for e in events if e["kind"] == "progress"]


async def test_each_event_is_a_checkpoint_and_a_report_and_the_feed_resumes_from_the_last_id(
    research_app: OpenApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    wire = Recording(one_event=True)
    monkeypatch.setattr(exa_orch.app, "Gateway", functools.partial(Gateway, inner=wire))
    async with research_app(MODULE) as app:
        done = await run_task(app, "research.deep", {"instructions": "Who makes EV batteries?"})
        steps = await app.store.load_steps(done.id)
        history = await app.store.events(done.id)
    assert done.status == "completed", done.error
    feed = [steps[f"research.poll.event:{n}"] for n in range(1, 8)]
    assert [e["event"] for e in feed] == [  # Exa's names (tests/fixtures/exa/)
        "agent_run.created",
        "agent_run.started",
        "agent_run.search_trace",
        "agent_run.source.added",
        "agent_run.preliminary_list",
        "agent_run.output_item.added",
        "agent_run.completed",
    ]
    assert "research.poll.event:8" not in steps
    assert {e["data"]["id"] for e in feed} == {feed[0]["data"]["id"]}  # each names its run
    assert "output" not in feed[-1]["data"] and feed[-1]["data"]["status"] == "completed"  # small checkpoints
    ids = [e["id"] for e in feed]
    reports = [m for m in progress_messages(history) if m.endswith("]")]
    assert reports == [m for m in reports if any(m.endswith(f"[{i}]") for i in ids)] and len(reports) == 7
    # Each feed ended after one event: each reopening asked from the last id, none twice.
    assert wire.asked == [None, *ids[:6]]


async def test_the_live_feed_is_read_in_one_request(
    research_app: OpenApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The simulator's feed stays open and sends each event as it happens (as Exa's does)."""
    wire = Recording()
    monkeypatch.setattr(exa_orch.app, "Gateway", functools.partial(Gateway, inner=wire))
    async with research_app(MODULE) as app:
        done = await run_task(app, "research.deep", {"instructions": "Who makes EV batteries?"})
        steps = await app.store.load_steps(done.id)
    assert done.status == "completed", done.error
    assert wire.asked == [None]
    assert (
        steps["research.poll.event:7"]["event"] == "agent_run.completed"
        and "research.poll.event:8" not in steps
    )


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
