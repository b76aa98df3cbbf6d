"""The after-create fault mode: the object is made, then the answer is a fault or a dropped line."""

from __future__ import annotations

import httpx
import pytest

from exa_orch.sim.context import FaultConfig
from exa_orch.sim.testing import SimHandle

KEY = {"x-api-key": "test"}
W = "/websets/v0"


@pytest.mark.parametrize("kind", ["503", "drop"])
async def test_a_create_answered_with_a_fault_after_the_object_was_made(sim: SimHandle, kind: str) -> None:
    sim.set_faults(FaultConfig(after_create=1.0, kinds=(kind,)))
    async with httpx.AsyncClient(base_url=sim.url, headers=KEY) as http:
        if kind == "drop":
            with pytest.raises(httpx.TransportError):
                await http.post(f"{W}/websets", json={"externalId": "made-1"})
        else:
            answer = await http.post(f"{W}/websets", json={"externalId": "made-1"})
            assert answer.status_code == 503
        sim.set_faults(FaultConfig())
        got = await http.get(f"{W}/websets/made-1")
        assert got.status_code == 200 and got.json()["externalId"] == "made-1"
        # A read or a refused create is never turned into a fault (nothing was made).
        sim.set_faults(FaultConfig(after_create=1.0, kinds=(kind,)))
        assert (await http.post("/search", json={"query": "ai"})).status_code == 200
        assert (await http.post(f"{W}/websets", json={"externalId": "made-1"})).status_code == 409
    stats = sim.stats()
    assert stats["faults_after_create"] == {kind: 1} and stats["creates_by_kind"] == {"webset": 1}


async def test_after_create_is_a_share_of_creates(sim: SimHandle) -> None:
    sim.set_faults(FaultConfig(after_create=0.5, kinds=("500",), seed=3))
    async with httpx.AsyncClient(base_url=sim.url, headers=KEY) as http:
        codes = [(await http.post(f"{W}/websets", json={"title": f"t{n}"})).status_code for n in range(40)]
    assert sorted(set(codes)) == [201, 500] and 8 <= codes.count(500) <= 32
    assert sim.stats()["creates_by_kind"] == {"webset": 40}
