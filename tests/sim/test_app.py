"""The simulator's front door: request ids, auth, error bodies, admin endpoints, counters."""

from __future__ import annotations

import asyncio

import httpx
import pytest

from exa_orch.sim.context import FaultConfig
from exa_orch.sim.testing import SimHandle

KEY = {"x-api-key": "test-key"}


async def test_every_response_has_a_request_id_matching_the_error_body(sim: SimHandle) -> None:
    async with httpx.AsyncClient(base_url=sim.url) as client:
        ok = await client.get("/_sim/stats")
        missing = await client.post("/search", json={"query": "ai"})
        unknown = await client.get("/no/such/route", headers=KEY)
    ids = [r.headers["x-request-id"] for r in (ok, missing, unknown)]
    assert len(set(ids)) == 3 and all(ids)
    assert missing.json()["requestId"] == missing.headers["x-request-id"]
    assert unknown.status_code == 404
    assert unknown.json() == {"requestId": ids[2], "error": unknown.json()["error"], "tag": "NOT_FOUND"}


@pytest.mark.parametrize(
    ("headers", "status"),
    [
        ({}, 401),
        ({"x-api-key": "invalid-key"}, 401),
        ({"Authorization": "Bearer invalid-key"}, 401),
        ({"Authorization": "Basic abc"}, 401),
        ({"x-api-key": "anything-else"}, 200),
        ({"Authorization": "Bearer some-key"}, 200),
    ],
)
async def test_auth_needs_a_key_and_refuses_the_invalid_one(
    sim: SimHandle, headers: dict, status: int
) -> None:
    async with httpx.AsyncClient(base_url=sim.url) as client:
        response = await client.post("/search", json={"query": "ai startups"}, headers=headers)
    assert response.status_code == status
    if status == 401:
        assert response.json()["tag"] == "INVALID_API_KEY"  # Exa's tag (tests/fixtures/real/)
        assert "invalid-key" not in response.text


async def test_research_api_answers_410_retired(sim: SimHandle) -> None:
    async with httpx.AsyncClient(base_url=sim.url, headers=KEY) as client:
        for method, path in [
            ("POST", "/research/v1"),
            ("GET", "/research/v1"),
            ("GET", "/research/v1/r_123"),
        ]:
            response = await client.request(
                method, path, json={"instructions": "x"} if method == "POST" else None
            )
            assert response.status_code == 410
            assert response.json()["tag"] == "RESEARCH_RETIRED"
            assert response.json()["requestId"] == response.headers["x-request-id"]


async def test_counters_and_log_record_each_request(sim: SimHandle) -> None:
    async with httpx.AsyncClient(base_url=sim.url, headers=KEY) as client:
        await client.post("/search", json={"query": "robotics"})
        await client.post("/search", json={"query": "fintech"})
        await client.post("/agent/runs", json={"query": "q"})
        run_id = (await client.get("/agent/runs")).json()["data"][0]["id"]
        await client.get(f"/agent/runs/{run_id}")
        await client.get("/arxivxplorer/", params={"query": "vision"})
        stats = (await client.get("/_sim/stats")).json()
        log = (await client.get("/_sim/log")).json()["log"]
    assert stats["requests_by_endpoint"] == {
        "POST /search": 2,
        "POST /agent/runs": 1,
        "GET /agent/runs": 1,
        "GET /agent/runs/{id}": 1,
        "GET /arxivxplorer/": 1,
    }
    assert stats["requests_by_family"] == {"search": 2, "agent": 3, "arxiv": 1}
    assert stats["total_requests"] == 6 and stats["in_flight"] == 0
    assert [e["status"] for e in log] == [200] * 6
    assert [e["family"] for e in log] == ["search", "search", "agent", "agent", "agent", "arxiv"]
    assert all(e["t"] <= e["t_end"] and e["fault"] is None for e in log)
    assert [e["t"] for e in log] == sorted(e["t"] for e in log)
    assert sim.stats() == stats  # in-process view is the same


async def test_reset_clears_counters_and_log_but_not_runs(sim: SimHandle) -> None:
    async with httpx.AsyncClient(base_url=sim.url, headers=KEY) as client:
        created = (await client.post("/agent/runs", json={"query": "q"})).json()
        assert (await client.post("/_sim/reset")).status_code == 200
        assert sim.stats()["total_requests"] == 0 and sim.log() == []
        assert (await client.get(f"/agent/runs/{created['id']}")).status_code == 200


async def test_max_in_flight_counts_concurrent_requests(sim: SimHandle) -> None:
    # Latency keeps every request open long enough for all of them to overlap.
    sim.set_faults(FaultConfig(latency_ms=300))
    async with httpx.AsyncClient(base_url=sim.url, headers=KEY) as client:
        responses = await asyncio.gather(*(client.post("/search", json={"query": f"q{i}"}) for i in range(8)))
    assert all(r.status_code == 200 for r in responses)
    assert sim.stats()["max_in_flight"] >= 6  # generous: a slow machine may not overlap them all
    assert sim.stats()["in_flight"] == 0


async def test_faults_endpoint_reads_and_updates_the_config(sim: SimHandle) -> None:
    async with httpx.AsyncClient(base_url=sim.url) as client:
        assert (await client.get("/_sim/faults")).json()["rate"] == 0.0
        updated = await client.post("/_sim/faults", json={"rate": 0.5, "kinds": "429,drop", "retry_after": 1})
        assert updated.json() == {
            "rate": 0.5,
            "kinds": ["429", "drop"],
            "retry_after": 1.0,
            "latency_ms": 0.0,
            "seed": 0,
            "after_create": 0.0,
            "webset_status": "",
        }
        bad = await client.post("/_sim/faults", json={"rate": 2})
        assert bad.status_code == 400 and bad.json()["tag"] == "INVALID_FAULTS"
        unknown = await client.post("/_sim/faults", json={"kinds": ["404"]})
        assert unknown.status_code == 400
        # Admin endpoints are never faulted, whatever the rate.
        await client.post("/_sim/faults", json={"rate": 1.0, "kinds": ["500"]})
        statuses = [(await client.get("/_sim/stats")).status_code for _ in range(10)]
        assert statuses == [200] * 10
    assert sim.ctx.config.faults.rate == 1.0


async def test_unknown_method_is_a_json_405(sim: SimHandle) -> None:
    async with httpx.AsyncClient(base_url=sim.url, headers=KEY) as client:
        response = await client.get("/search")
    assert response.status_code == 405
    assert response.json()["tag"] == "METHOD_NOT_ALLOWED"


async def test_malformed_json_body_is_a_400_that_says_so(sim: SimHandle) -> None:
    async with httpx.AsyncClient(base_url=sim.url, headers=KEY) as client:
        response = await client.post(
            "/search", content=b"{not json", headers={"content-type": "application/json"}
        )
    assert response.status_code == 400
    assert response.json()["tag"] == "INVALID_REQUEST_BODY"
    assert "JSON" in response.json()["error"]


def test_clock_speed_changes_keep_simulated_time_continuous() -> None:
    from exa_orch.sim.context import SimClock

    wall = [100.0]  # the wall clock, moved by hand: the test can't be stretched by a busy machine
    clock = SimClock(speed=1000.0, monotonic=lambda: wall[0])
    wall[0] += 0.5
    before = clock.now()
    assert before == 500.0
    clock.set_speed(0.001)
    assert clock.now() == before  # no jump back to zero, no leap forward
    wall[0] += 10.0
    assert clock.now() == before + 0.01  # the new speed from the change on
    with pytest.raises(ValueError):
        clock.set_speed(0)
    clock.advance(600.0)  # a test skips ten simulated minutes without waiting them
    assert clock.now() == before + 0.01 + 600.0
    with pytest.raises(ValueError):
        clock.advance(-1.0)
