"""Fault injection as a plain httpx client sees it, and as the counters and log record it."""

from __future__ import annotations

import time
from collections import Counter

import httpx
import pytest

from exa_orch.sim.context import FaultConfig, SimConfig
from exa_orch.sim.testing import SimHandle, running_sim

KEY = {"x-api-key": "test-key"}


async def _fire(url: str, n: int) -> list[str]:
    """Send n cheap API calls; return what the client saw for each: a status or 'drop'."""
    seen: list[str] = []
    async with httpx.AsyncClient(base_url=url, headers=KEY) as client:
        for i in range(n):
            try:
                response = await client.post("/contents", json={"urls": [f"https://example.com/{i}"]})
            except httpx.TransportError:
                seen.append("drop")
                continue
            seen.append(str(response.status_code))
            assert response.headers["x-request-id"]
            if response.status_code != 200:
                body = response.json()
                assert set(body) == {"requestId", "error", "tag"}
                assert body["requestId"] == response.headers["x-request-id"]
            if response.status_code == 429:
                assert float(response.headers["retry-after"]) == pytest.approx(0.5)
                assert body["tag"] == "RATE_LIMIT_EXCEEDED"
            elif response.status_code >= 500:
                assert body["tag"] in {"INTERNAL_SERVER_ERROR", "BAD_GATEWAY", "SERVICE_UNAVAILABLE"}
    return seen


async def test_a_20_percent_fault_mix_is_visible_to_httpx_and_in_the_counters(sim: SimHandle) -> None:
    sim.set_faults(FaultConfig(rate=0.2, retry_after=0.5, seed=7))
    seen = await _fire(sim.url, 500)
    counts = Counter(seen)
    faults = sim.stats()["faults"]
    # The client saw exactly what the simulator says it injected.
    assert counts["429"] == faults["429"] and counts["drop"] == faults["drop"]
    assert (
        counts["500"] == faults["500"] and counts["502"] == faults["502"] and counts["503"] == faults["503"]
    )
    injected = sum(faults.values())
    assert 60 <= injected <= 140  # 20% of 500 = 100, with a wide margin for the draw
    assert all(faults[kind] > 0 for kind in ("429", "500", "502", "503", "drop"))
    assert counts["200"] == 500 - injected
    log = sim.log()
    assert len(log) == 500
    assert Counter(e["fault"] for e in log if e["fault"]) == Counter({k: v for k, v in faults.items() if v})
    drops = [e for e in log if e["fault"] == "drop"]
    assert all(e["status"] is None for e in drops)
    assert all(e["status"] == int(e["fault"]) for e in log if e["fault"] not in (None, "drop"))


async def test_the_fault_sequence_is_deterministic_for_a_seed() -> None:
    sequences = []
    for _ in range(2):
        async with running_sim(SimConfig(speed=100, faults=FaultConfig(rate=0.3, seed=3))) as handle:
            await _fire_quiet(handle.url, 60)
            sequences.append([e["fault"] for e in handle.log()])
    assert sequences[0] == sequences[1]
    assert any(sequences[0])


async def _fire_quiet(url: str, n: int) -> None:
    async with httpx.AsyncClient(base_url=url, headers=KEY) as client:
        for i in range(n):
            try:
                await client.post("/contents", json={"urls": [f"https://example.com/{i}"]})
            except httpx.TransportError:
                pass


async def test_a_drop_closes_the_connection_without_a_response(sim: SimHandle) -> None:
    sim.set_faults(FaultConfig(rate=1.0, kinds=("drop",)))
    async with httpx.AsyncClient(base_url=sim.url, headers=KEY) as client:
        with pytest.raises(httpx.RemoteProtocolError):
            await client.post("/search", json={"query": "ai"})
        sim.set_faults(FaultConfig())
        # The client recovers on a fresh connection.
        assert (await client.post("/search", json={"query": "ai"})).status_code == 200
    assert sim.stats()["faults"]["drop"] == 1


async def test_arxiv_faults_use_the_xplorer_error_shape(sim: SimHandle) -> None:
    sim.set_faults(FaultConfig(rate=1.0, kinds=("429",), retry_after=2))
    async with httpx.AsyncClient(base_url=sim.url) as client:
        limited = await client.get("/arxivxplorer/", params={"query": "vision"})
        sim.set_faults(FaultConfig(rate=1.0, kinds=("500",)))
        failed = await client.get("/arxivxplorer/", params={"query": "vision"})
    assert limited.status_code == 429 and limited.headers["retry-after"] == "2"
    assert limited.json() == {"error": limited.json()["error"], "code": 429}
    assert failed.status_code == 500 and failed.json()["code"] == 500


async def test_latency_is_added_to_every_api_request(sim: SimHandle) -> None:
    sim.set_faults(FaultConfig(latency_ms=150))
    async with httpx.AsyncClient(base_url=sim.url, headers=KEY) as client:
        start = time.monotonic()
        await client.post("/search", json={"query": "ai"})
        elapsed = time.monotonic() - start
    assert elapsed >= 0.14
    entry = sim.log()[-1]
    assert entry["t_end"] - entry["t"] >= 0.14
