"""Agent API runs through exa-py's `AsyncExa.agent.runs`: its pydantic models are the contract
(the Agent API has no spec file here), so every call going through the SDK validates the body."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import TYPE_CHECKING

import httpx
import pytest

from exa_orch.sim.agent import EFFORT_SECONDS, QUEUE_SECONDS
from exa_orch.sim.context import SimConfig
from exa_orch.sim.testing import SimHandle, running_sim
from tests.sim.sdk import async_exa

if TYPE_CHECKING:
    from exa_py import AsyncExa

SCHEMA = {
    "type": "object",
    "properties": {
        "companies": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "name": {"type": "string"},
                    "website": {"type": "string"},
                    "employees": {"type": "integer"},
                },
            },
        }
    },
}


@pytest.fixture
async def exa(sim: SimHandle) -> AsyncIterator[AsyncExa]:
    async with async_exa("test-key", sim.url) as client:
        yield client


async def test_a_run_goes_queued_running_completed_with_a_structured_output(
    exa: AsyncExa, sim: SimHandle
) -> None:
    # Simulated time held and moved by hand: each phase is read inside it, however slow the polls.
    speed = sim.ctx.clock.speed
    sim.ctx.clock.set_speed(1e-9)
    run = await exa.agent.runs.create(query="AI startups in Europe", output_schema=SCHEMA, effort="low")
    assert run.status == "queued" and run.object == "agent_run"
    sim.ctx.clock.advance(QUEUE_SECONDS)
    run = await exa.agent.runs.get(run.id)
    assert run.status == "running" and run.completed_at is None
    sim.ctx.clock.advance(EFFORT_SECONDS["low"])
    run = await exa.agent.runs.get(run.id)
    assert run.status == "completed"
    assert run.stop_reason == "schema_satisfied" and run.completed_at is not None
    assert run.output is not None and run.output.text
    companies = run.output.structured["companies"]
    assert companies and all(
        c["website"].startswith("https://") and isinstance(c["employees"], int) for c in companies
    )
    assert run.output.grounding and run.output.grounding[0].citations
    assert run.usage is not None and run.cost_dollars is not None and run.cost_dollars.total > 0
    # Same query, same seed: the same answer.
    sim.ctx.clock.set_speed(speed)
    again = await exa.agent.runs.create_and_wait(
        query="AI startups in Europe", output_schema=SCHEMA, effort="low", poll_interval=20
    )
    assert again.output is not None and again.output.structured == run.output.structured


async def test_cancel_stops_a_run_and_create_and_wait_reports_failures(exa: AsyncExa) -> None:
    run = await exa.agent.runs.create(query="robotics companies", effort="high")
    cancelled = await exa.agent.runs.cancel(run.id)
    assert cancelled.status == "cancelled" and cancelled.stop_reason == "cancelled"
    assert (await exa.agent.runs.get(run.id)).status == "cancelled"
    from exa_py.agent.types import AgentRunFailedError

    with pytest.raises(AgentRunFailedError) as failed:
        await exa.agent.runs.create_and_wait(query="[sim:fail] robotics", effort="minimal", poll_interval=20)
    error = failed.value.run.error
    assert error is not None and error.code == "SERVER_ERROR" and "[sim:fail]" in error.message
    # A finished run's cancel answers the run as it is (the spec: "returns the existing run").
    again = await exa.agent.runs.cancel(failed.value.run.id)
    assert again.status == "failed" and again.stop_reason == "error"


async def test_stop_completes_an_ultra_run_early_and_refuses_others(exa: AsyncExa) -> None:
    ultra = await exa.agent.runs.create(query="quantum computing companies", effort="ultra")
    stopped = await exa.agent.runs.stop(ultra.id)
    assert stopped.status == "completed" and stopped.stop_reason == "stopped"
    assert stopped.output is not None and stopped.output.text
    plain = await exa.agent.runs.create(query="quantum computing companies", effort="low")
    with pytest.raises(ValueError, match="400"):
        await exa.agent.runs.stop(plain.id)


async def test_list_pages_newest_first_and_delete_removes(exa: AsyncExa) -> None:
    ids = [(await exa.agent.runs.create(query=f"query {i}", effort="minimal")).id for i in range(5)]
    page = await exa.agent.runs.list(limit=2)
    assert page.has_more and page.next_cursor and len(page.data) == 2
    every = await exa.agent.runs.get_all(limit=2)
    assert sorted(r.id for r in every) == sorted(ids)
    assert len({r.id for r in every}) == 5
    deleted = await exa.agent.runs.delete(ids[0])
    assert deleted.deleted and deleted.id == ids[0]
    with pytest.raises(ValueError, match="404"):
        await exa.agent.runs.get(ids[0])
    assert len(await exa.agent.runs.get_all()) == 4


async def test_events_list_and_stream(exa: AsyncExa, sim: SimHandle) -> None:
    stream = await exa.agent.runs.create(query="fintech in Berlin", effort="minimal", stream=True)
    names = [event.event async for event in stream]
    assert names[0] == "agent_run.created" and names[-1] == "agent_run.completed"
    assert "agent_run.started" in names and "agent_run.search_trace" in names
    run_id = (await exa.agent.runs.list(limit=1)).data[0].id
    first = await exa.agent.runs.events.list(run_id, limit=2)
    rest = await exa.agent.runs.events.list(run_id, cursor=first.next_cursor)
    assert first.has_more and not rest.has_more
    assert [e.event for e in first.data + rest.data] == names
    async with httpx.AsyncClient(
        base_url=sim.url, headers={"x-api-key": "k", "accept": "text/event-stream"}
    ) as http:
        replay = await http.get(f"/agent/runs/{run_id}/events")
    assert replay.headers["content-type"].startswith("text/event-stream")
    assert replay.text.count("event: ") == len(names)


async def test_creates_are_counted_by_external_id(exa: AsyncExa, sim: SimHandle) -> None:
    await exa.agent.runs.create(query="q", metadata={"externalId": "task-1:research"})
    await exa.agent.runs.create(query="q", extra_body={"externalId": "task-2:research"})
    await exa.agent.runs.create(query="q")
    assert sim.stats()["creates_by_external_id"] == {"task-1:research": 1, "task-2:research": 1}
    entries = [e for e in sim.log() if e["path"] == "/agent/runs" and e["method"] == "POST"]
    assert [e["external_id"] for e in entries] == ["task-1:research", "task-2:research", None]


@pytest.mark.parametrize(
    "body",
    [{}, {"query": ""}, {"query": "q", "effort": "maximum"}, {"query": "q", "outputSchema": "json"}],
)
async def test_bad_creates_get_400(sim: SimHandle, body: dict) -> None:
    async with httpx.AsyncClient(base_url=sim.url, headers={"x-api-key": "k"}) as http:
        response = await http.post("/agent/runs", json=body)
    error = response.json()["error"]  # the Agent API's nested envelope
    assert response.status_code == 400 and (error["type"], error["code"]) == (
        "INVALID_REQUEST",
        "INVALID_REQUEST",
    )


async def test_every_finished_run_has_a_stop_reason_even_without_an_output_schema(
    exa: AsyncExa, sim: SimHandle
) -> None:
    run = await exa.agent.runs.create(query="AI chip startups", effort="low")
    assert run.stop_reason is None  # queued: null until it finishes
    sim.ctx.clock.advance(600)
    done = await exa.agent.runs.get(run.id)
    assert done.status == "completed" and done.stop_reason == "budget_reached"


async def test_with_or_without_the_exa_beta_header_a_run_is_served_and_the_header_logged(
    exa: AsyncExa, sim: SimHandle
) -> None:
    """exa-py 2.28's `agent.runs` sends no Exa-Beta header (what exa-orch does); its deprecated
    `beta.agent.runs` sends the one Exa's docs ask for: the simulator serves both, as Exa does."""
    sim.ctx.clock.set_speed(1e-9)  # held: both runs are still queued when their answers are read
    plain = await exa.agent.runs.create(query="AI chip startups", effort="low")
    beta = await exa.beta.agent.runs.create(
        betas=["agent-2026-05-07"], query="AI chip startups", effort="low"
    )
    assert (await exa.beta.agent.runs.get(beta.id, betas=["agent-2026-05-07"])).id == beta.id
    creates = [e for e in sim.log() if e["method"] == "POST" and e["path"] == "/agent/runs"]
    assert [e["beta"] for e in creates] == [None, "agent-2026-05-07"]
    assert {plain.status, beta.status} == {"queued"}


async def test_the_51st_active_run_gets_429_and_a_finished_run_frees_a_slot(
    exa: AsyncExa, sim: SimHandle
) -> None:
    """Exa allows 50 active (queued or running) agent runs a team; the simulator answers the next
    create 429 CONCURRENCY_LIMIT_REACHED (the Agent API's code) and makes no run. Cancelling or finishing one frees a slot."""
    sim.ctx.clock.set_speed(0.01)  # no run finishes while the 50 are being created
    ids = [(await exa.agent.runs.create(query=f"run {i}", effort="high")).id for i in range(50)]
    async with httpx.AsyncClient(base_url=sim.url, headers={"x-api-key": "k"}) as http:
        refused = await http.post("/agent/runs", json={"query": "run 51", "effort": "high"})
        assert refused.status_code == 429
        body = refused.json()["error"]
        assert (body["type"], body["code"]) == ("RATE_LIMIT_ERROR", "CONCURRENCY_LIMIT_REACHED")
        assert "50" in body["message"] and refused.headers["x-request-id"]
        assert len((await http.get("/agent/runs", params={"limit": 100})).json()["data"]) == 50
        await exa.agent.runs.cancel(ids[0])
        assert (await http.post("/agent/runs", json={"query": "run 51", "effort": "high"})).status_code == 200
        assert (await http.post("/agent/runs", json={"query": "run 52", "effort": "high"})).status_code == 429
        sim.ctx.clock.advance(3600)  # every run finishes: all slots free
        assert (await http.post("/agent/runs", json={"query": "run 52", "effort": "high"})).status_code == 200
    store = sim.ctx.extras["agent"]
    assert store.peak_active == 50 and store.refused_active == 2


async def test_the_active_run_cap_is_configurable() -> None:
    async with running_sim(SimConfig(speed=1.0, max_active_agent_runs=2)) as small:
        async with httpx.AsyncClient(base_url=small.url, headers={"x-api-key": "k"}) as http:
            codes = [
                (await http.post("/agent/runs", json={"query": f"q{i}", "effort": "low"})).status_code
                for i in range(3)
            ]
    assert codes == [200, 200, 429]
