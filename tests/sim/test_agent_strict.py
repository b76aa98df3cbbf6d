"""The simulator's Agent API is as strict as Exa (issue 24): input rows, exclusions, row counts,
follow-ups by previousRunId, budget rules, stop reasons, grounding per field, events replay."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

import httpx
import pytest

from exa_orch.sim.agent import AgentRuns
from exa_orch.sim.testing import SimHandle
from tests.sim.sdk import async_exa

if TYPE_CHECKING:
    from exa_py import AsyncExa

ROW_SCHEMA = {
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
                    "headquarters": {"type": "string"},
                },
            },
        }
    },
}


@pytest.fixture
async def exa(sim: SimHandle) -> AsyncIterator[AsyncExa]:
    async with async_exa("test-key", sim.url) as client:
        yield client


@pytest.fixture
async def http(sim: SimHandle) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=sim.url, headers={"x-api-key": "k"}) as client:
        yield client


def finish(sim: SimHandle) -> None:
    sim.ctx.clock.advance(3600)  # every run is done an hour later


async def done(http: httpx.AsyncClient, sim: SimHandle, body: dict[str, Any]) -> dict[str, Any]:
    created = await http.post("/agent/runs", json=body)
    assert created.status_code == 200, created.text
    finish(sim)
    run: dict[str, Any] = (await http.get(f"/agent/runs/{created.json()['id']}")).json()
    assert run["status"] == "completed" and run["stopReason"], run
    return run


def companies(sim: SimHandle) -> list[Any]:
    return list(sim.ctx.world.of_kind("company"))


async def test_input_rows_come_back_with_the_asked_fields_filled_from_the_world(
    exa: AsyncExa, sim: SimHandle
) -> None:
    known = companies(sim)[:7]
    rows: list[dict[str, Any]] = [{"name": e.name} for e in known[:4]]
    rows += [{"website": e.url.removeprefix("https://")} for e in known[4:]]  # a bare domain names it too
    rows += [
        {"name": "Acme Rockets"},
        {"name": "Globex", "website": "globex.example.org"},
        {"name": "Initech"},
    ]
    run = await exa.agent.runs.create(
        query="enrich these companies", output_schema=ROW_SCHEMA, input={"data": rows}, effort="low"
    )
    finish(sim)
    run = await exa.agent.runs.get(run.id)
    assert run.status == "completed" and run.stop_reason == "schema_satisfied"
    assert run.output is not None
    out = run.output.structured["companies"]
    assert len(out) == 10  # every row, in order, not five world companies
    for row, entity in zip(out[:7], known, strict=True):
        assert set(row) == {"name", "website", "employees", "headquarters"}
        assert row["employees"] == entity.attrs["employees"]
        assert row["headquarters"] == entity.attrs["location"]
    assert [r["name"] for r in out[:4]] == [e.name for e in known[:4]]
    assert [r["website"] for r in out[4:7]] == [e.url.removeprefix("https://") for e in known[4:7]]  # kept
    assert [r["name"] for r in out[7:]] == ["Acme Rockets", "Globex", "Initech"]
    assert out[8]["website"] == "globex.example.org"
    assert all(isinstance(r["employees"], int) for r in out[7:])
    # Grounding per field: world rows cite their entity; unknown rows are marked, with no citations.
    grounding = {g.field: g for g in run.output.grounding or []}
    assert grounding["companies[0].employees"].citations[0].url == known[0].url
    assert "companies[0].name" not in grounding  # the row gave it: nothing to ground
    marked = grounding["companies[7].employees"]
    assert marked.citations == [] and marked.confidence == "low" and marked.score == 0
    assert not marked.model_extra  # only the spec's AgentGrounding fields
    # Deterministic: the same rows give the same answer.
    again = await exa.agent.runs.create(
        query="enrich these companies", output_schema=ROW_SCHEMA, input={"data": rows}, effort="low"
    )
    finish(sim)
    assert (await exa.agent.runs.get(again.id)).output.structured == run.output.structured  # type: ignore[union-attr]


async def test_row_counts_follow_the_ask_and_the_schema_and_exclusions_are_honoured(
    http: httpx.AsyncClient, sim: SimHandle
) -> None:
    asked = await done(
        http, sim, {"query": "Find 25 AI startups in Europe", "outputSchema": ROW_SCHEMA, "effort": "low"}
    )
    assert len(asked["output"]["structured"]["companies"]) == 25
    plain = await done(
        http, sim, {"query": "AI startups in Europe", "outputSchema": ROW_SCHEMA, "effort": "low"}
    )
    listed = plain["output"]["structured"]["companies"]
    assert len(listed) == 10  # neither the query nor the schema says: the default, not 5
    capped_schema = {"type": "array", "maxItems": 3, "items": ROW_SCHEMA["properties"]["companies"]["items"]}
    capped = await done(http, sim, {"query": "Find 25 AI startups", "outputSchema": capped_schema})
    assert len(capped["output"]["structured"]) == 3
    # Exclusions by website and by name: neither comes back, the next ones take their places.
    exclusion = [{"website": listed[0]["website"]}, {"name": listed[1]["name"].upper()}]
    body = {"query": "AI startups in Europe", "outputSchema": ROW_SCHEMA, "effort": "low"}
    kept = await done(http, sim, {**body, "input": {"exclusion": exclusion}})
    names = [r["name"] for r in kept["output"]["structured"]["companies"]]
    assert len(names) == 10 and listed[0]["name"] not in names and listed[1]["name"] not in names
    assert names[:8] == [r["name"] for r in listed[2:]]


async def test_a_follow_up_needs_a_completed_run_and_repeats_none_of_its_rows(
    http: httpx.AsyncClient, sim: SimHandle
) -> None:
    sim.ctx.clock.set_speed(0.01)  # the first run is still going however slow this machine is
    body = {"query": "AI startups in Europe", "outputSchema": ROW_SCHEMA, "effort": "low"}
    running = (await http.post("/agent/runs", json=body)).json()
    refused = await http.post("/agent/runs", json={**body, "previousRunId": running["id"]})
    said = refused.json()["error"]
    assert refused.status_code == 400 and said["code"] == "PREVIOUS_RUN_NOT_COMPLETED"
    assert "completed" in said["message"] and "previousRunId" in said["message"]
    missing = await http.post("/agent/runs", json={**body, "previousRunId": "agent_run_nope"})
    assert missing.status_code == 400 and missing.json()["error"]["code"] == "PREVIOUS_RUN_NOT_FOUND"
    bad = await http.post("/agent/runs", json={**body, "previousRunId": "a/b"})
    assert bad.status_code == 400
    cancelled = (await http.post("/agent/runs", json=body)).json()
    await http.post(f"/agent/runs/{cancelled['id']}/cancel")
    assert (
        await http.post("/agent/runs", json={**body, "previousRunId": cancelled["id"]})
    ).status_code == 400
    finish(sim)
    first = (await http.get(f"/agent/runs/{running['id']}")).json()
    second = await done(http, sim, {**body, "query": "more please", "previousRunId": first["id"]})
    third = await done(http, sim, {**body, "query": "and more", "previousRunId": second["id"]})
    seen = [[r["name"] for r in run["output"]["structured"]["companies"]] for run in (first, second, third)]
    assert all(len(names) == 10 for names in seen)
    assert len(set(seen[0]) | set(seen[1]) | set(seen[2])) == 30  # no row twice along the chain
    # It continues the first run's ranking: the next ten of "AI startups in Europe".
    twenty = await done(http, sim, {**body, "query": "Find 20 AI startups in Europe"})
    assert [r["name"] for r in twenty["output"]["structured"]["companies"]] == seen[0] + seen[1]


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"effort": "low", "budget": {"maxCostDollars": 5}}, ["budget", "auto or ultra", "'low'"]),
        ({"effort": "xhigh", "budget": {}}, ["budget", "'xhigh'"]),
        ({"effort": "max", "budget": {"maxCostDollars": 5}}, ["budget", "'max'"]),
        ({"effort": "auto", "budget": {"maxCostDollars": 500}}, ["maxCostDollars", "1 to 100"]),
        ({"budget": {"maxCostDollars": 0.5}}, ["maxCostDollars", "1 to 100"]),  # no effort: auto
        ({"effort": "auto", "budget": {"maxDurationSeconds": 600}}, ["maxDurationSeconds", "ultra"]),
        ({"effort": "ultra", "budget": {"maxDurationSeconds": 60}}, ["maxDurationSeconds", "300"]),
        ({"userIdentifier": "alice@example.com"}, ["userIdentifier"]),
        ({"input": {"data": []}}, ["input.data"]),
        ({"input": {"exclusion": ["acme.com"]}}, ["input.exclusion"]),
        ({"dataSources": [{"name": "x"}]}, ["dataSources"]),
    ],
)
async def test_budgets_and_fields_exa_refuses_get_its_400(
    http: httpx.AsyncClient, sim: SimHandle, body: dict[str, Any], words: list[str]
) -> None:
    response = await http.post("/agent/runs", json={"query": "AI startups", **body})
    assert response.status_code == 400, response.text
    error = response.json()["error"]  # the Agent API's nested envelope
    assert (error["type"], error["code"]) == ("INVALID_REQUEST", "INVALID_REQUEST")
    assert error["message"].startswith("Invalid request body | Validation error: ")
    assert all(w in error["message"] for w in words), error
    assert agent_store(sim).runs == {}


def agent_store(sim: SimHandle) -> AgentRuns:
    store = sim.ctx.extras["agent"]
    assert isinstance(store, AgentRuns)
    return store


async def test_a_metered_run_stops_at_its_budget_and_is_billed_no_more(
    http: httpx.AsyncClient, sim: SimHandle
) -> None:
    body = {"query": "Find 200 AI startups", "outputSchema": ROW_SCHEMA, "effort": "ultra"}
    capped = await done(http, sim, {**body, "budget": {"maxCostDollars": 1, "maxDurationSeconds": 3600}})
    assert capped["stopReason"] == "budget_reached"
    rows = capped["output"]["structured"]["companies"]
    assert 0 < len(rows) < 200 and capped["costDollars"]["total"] <= 1.0
    default = await done(http, sim, body)  # ultra's default cap is $20
    assert (
        default["stopReason"] == "budget_reached"
        and len(rows) < len(default["output"]["structured"]["companies"]) < 200
    )
    assert default["costDollars"]["total"] <= 20.0
    small = await done(
        http, sim, {**body, "query": "Find 5 AI startups", "effort": "auto", "budget": {"maxCostDollars": 1}}
    )
    assert small["stopReason"] == "schema_satisfied" and len(small["output"]["structured"]["companies"]) == 5
    fixed = await done(http, sim, {**body, "effort": "medium"})  # a fixed effort costs its price
    assert fixed["costDollars"]["total"] == 0.10 and fixed["stopReason"] == "schema_satisfied"
    text = await done(http, sim, {"query": "AI startups", "effort": "minimal"})
    assert text["stopReason"] == "budget_reached" and text["output"]["grounding"][0]["field"] == "text"


async def test_a_follow_up_inherits_the_user_identifier_it_omits(
    http: httpx.AsyncClient, sim: SimHandle
) -> None:
    first = await done(http, sim, {"query": "AI startups", "effort": "low", "userIdentifier": "u_123-abc"})
    second = await done(http, sim, {"query": "more", "effort": "low", "previousRunId": first["id"]})
    assert second["request"]["userIdentifier"] == "u_123-abc"


async def test_events_have_ids_and_replay_after_last_event_id(
    http: httpx.AsyncClient, sim: SimHandle
) -> None:
    run = await done(http, sim, {"query": "fintech in Berlin", "effort": "minimal"})
    events = (await http.get(f"/agent/runs/{run['id']}/events")).json()["data"]
    ids = [e["id"] for e in events]
    assert len(ids) == len(set(ids)) >= 4 and events[-1]["event"] == "agent_run.completed"
    sse = {"accept": "text/event-stream"}
    whole = await http.get(f"/agent/runs/{run['id']}/events", headers=sse)
    assert [line[4:] for line in whole.text.splitlines() if line.startswith("id: ")] == ids
    rest = await http.get(f"/agent/runs/{run['id']}/events", headers={**sse, "last-event-id": ids[1]})
    assert [line[4:] for line in rest.text.splitlines() if line.startswith("id: ")] == ids[2:]


async def test_the_event_stream_follows_a_running_run_live_until_its_terminal_event(
    http: httpx.AsyncClient, sim: SimHandle
) -> None:
    """One request: the events so far, then each new one as simulated time reaches it (the clock
    is held, and moved by hand once the first event is read, so the rest can only come live)."""
    sim.ctx.clock.set_speed(1e-9)  # at speed 100 a busy machine read the first event after the end
    created = (
        await http.post("/agent/runs", json={"query": "fintech in Berlin", "effort": "minimal"})
    ).json()
    names: list[str] = []
    sse = {"accept": "text/event-stream"}
    async with http.stream("GET", f"/agent/runs/{created['id']}/events", headers=sse) as feed:
        async for line in feed.aiter_lines():
            if line.startswith("event: "):
                names.append(line[7:])
                if len(names) == 1:
                    status = (await http.get(f"/agent/runs/{created['id']}")).json()["status"]
                    assert status in ("queued", "running"), status
                    finish(sim)
    assert names[0] == "agent_run.created" and names[-1] == "agent_run.completed"
    assert names.count("agent_run.search_trace") == 1 and "agent_run.started" in names
    assert "agent_run.preliminary_list" in names and "agent_run.output_item.added" in names
    # Asked again after its end, the stream replays and closes at once.
    again = await http.get(f"/agent/runs/{created['id']}/events", headers=sse)
    assert again.text.count("event: ") == len(names)
