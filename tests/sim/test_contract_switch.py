"""The contract switch (tests/contract.py) catches what departs from Exa's specs: a simulator answer
with a required field removed or a field's type changed, and a request exa-orch sends with a body
field of the wrong type or without the Agent API's beta header. Each case mutates the real thing
(the simulator's answer, the gateway's request), sees the violation recorded, and then clears it
(the autouse `_contract` fixture would fail the test on it, as it fails any other)."""

from __future__ import annotations

import json
import urllib.parse
from typing import Any

import httpx
import pytest

import exa_orch.gateway.keying
from exa_orch.config import Settings
from exa_orch.errors import ApiError, UpstreamInvalidParams
from exa_orch.gateway import Gateway
from exa_orch.sim.agent import AgentRuns
from exa_orch.sim.exchanges import Exchange
from exa_orch.sim.testing import SimHandle
from tests import contract


def _mutated_to_json(mutate: Any) -> Any:
    original = AgentRuns.to_json

    def to_json(self: AgentRuns, run: Any) -> dict[str, Any]:
        body = original(self, run)
        mutate(body)
        return body

    return to_json


@pytest.mark.parametrize(
    ("mutate", "said"),
    [
        (lambda body: body.pop("stopReason"), "'stopReason' is a required property"),
        (lambda body: body.update(createdAt=1764633600), "is not of type 'string'"),
        (lambda body: body["usage"].update(searches="3"), "is not of type 'integer'"),
    ],
    ids=["required field removed", "createdAt a number", "usage.searches a string"],
)
async def test_a_mutated_simulator_answer_fails_the_contract(
    sim: SimHandle, monkeypatch: pytest.MonkeyPatch, mutate: Any, said: str
) -> None:
    async with httpx.AsyncClient(base_url=sim.url, headers={"x-api-key": "k"}) as http:
        run = (await http.post("/agent/runs", json={"query": "robotics", "effort": "low"})).json()
        before = len(contract.VIOLATIONS)
        monkeypatch.setattr(AgentRuns, "to_json", _mutated_to_json(mutate))
        await http.get(f"/agent/runs/{run['id']}")
        found = contract.VIOLATIONS[before:]
        del contract.VIOLATIONS[before:]
    assert found and any(said in v and f"GET /agent/runs/{run['id']} -> 200" in v for v in found), found


async def test_a_mutated_request_fails_the_contract(sim: SimHandle, monkeypatch: pytest.MonkeyPatch) -> None:
    settings = Settings(exa_url=sim.url, simulator=True, rps=1000, concurrency=4)
    async with Gateway(settings) as gw:
        before = len(contract.VIOLATIONS)
        await gw.http.get("/agent/runs", params={"limit": 2})  # as exa-orch sends it: conforms
        assert contract.VIOLATIONS[before:] == []
        with pytest.raises(UpstreamInvalidParams):  # a type changed: the simulator refuses it too
            await gw.http.post("/agent/runs", json={"query": 42})
        monkeypatch.setattr(exa_orch.gateway.keying, "with_beta", lambda sent: sent or "")
        with pytest.raises(ApiError) as no_beta:  # the beta header left empty: the simulator refuses it
            await gw.http.get("/agent/runs", params={"limit": 3})
        assert no_beta.value.to_dict()["exaCode"] == "MISSING_BETA_HEADER"
        monkeypatch.undo()
        with pytest.raises(UpstreamInvalidParams):  # an undeclared query parameter: refused too
            await gw.http.get("/agent/runs", params={"limit": 3, "status": "running"})
        caught = contract.VIOLATIONS[before:]
        del contract.VIOLATIONS[before:]
    assert any("POST /agent/runs: body query: 42 is not of type 'string'" in v for v in caught), caught
    assert any("no Exa-Beta: agent-2026-05-07" in v for v in caught), caught
    assert any("query parameter 'status' is not one the operation declares" in v for v in caught), caught


def test_an_event_without_the_runs_status_or_with_an_unknown_name_fails() -> None:
    good = 'id: 1\nevent: agent_run.started\ndata: {"id": "agent_run_1", "status": "running"}\n\n'
    no_status = 'id: 1\nevent: agent_run.started\ndata: {"id": "agent_run_1"}\n\n'
    unknown = 'id: 1\nevent: run.progress\ndata: {"id": "agent_run_1", "status": "running"}\n\n'

    def answer(text: str) -> list[str]:
        exchange = Exchange("GET", "/agent/runs/agent_run_1/events", "", {}, status=200)
        exchange.content_type, exchange.answer = "text/event-stream", bytearray(text.encode())
        return contract.check_answer(exchange)

    assert answer(good) == []
    assert any("carries the run's id and status" in p for p in answer(no_status))
    assert any("'run.progress' is not one of" in p for p in answer(unknown))


def test_exa_pys_golden_requests_meet_the_spec_but_for_the_beta_header_it_does_not_send() -> None:
    """exa-py's own golden requests (tests/fixtures/exa/) pass the request checks, the beta header
    aside: exa-py's agent.runs sends none, where exa-orch sends it on every Agent API request."""
    lines = (contract.EXA / "exa-py-requests.agent-runs.jsonl").read_text(encoding="utf-8").splitlines()
    for line in lines:
        golden = json.loads(line)
        url = urllib.parse.urlsplit(golden["url"])
        exchange = Exchange(golden["method"], url.path, url.query, dict(golden["headers"]))
        exchange.body, exchange.body_read = bytearray((golden["body"] or "").encode()), True
        problems = contract.check_request(exchange)
        assert [p for p in problems if "Exa-Beta" not in p] == [], (golden["url"], problems)
        assert any("Exa-Beta" in p for p in problems)
        exchange.headers["exa-beta"] = "agent-2026-05-07"
        assert contract.check_request(exchange) == []


def test_an_answer_nobody_received_is_not_checked() -> None:
    # a client that went away mid-request: the simulator logs a 499 that never reaches anyone
    closed = Exchange("POST", "/agent/runs", "", {}, status=499)
    closed.content_type, closed.answer = "application/json", bytearray(b'{"error": {"code": "x"}}')
    assert contract.check_answer(closed) == []
    # any other undeclared status on the Agent API is still checked
    other = Exchange("POST", "/agent/runs", "", {}, status=418)
    other.content_type, other.answer = "application/json", bytearray(b'{"error": {"code": "x"}}')
    assert contract.check_answer(other)
