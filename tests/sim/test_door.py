"""The simulator's door (sim/door.py): closed, it holds new requests unprocessed and unbilled; a
request whose client left meanwhile is never processed; opened, the others go in."""

from __future__ import annotations

import asyncio

import httpx

from exa_orch.sim.billing import Billing
from exa_orch.sim.door import Door
from exa_orch.sim.testing import SimHandle
from tests.support import WAIT, until


async def test_a_closed_door_holds_requests_and_drops_those_whose_client_left(sim: SimHandle) -> None:
    door: Door = sim.ctx.extras["door"]
    account: Billing = sim.ctx.extras["billing"]
    door.close()
    async with httpx.AsyncClient(base_url=sim.url, headers={"x-api-key": "k"}, timeout=WAIT) as client:
        waiting = asyncio.create_task(client.post("/search", json={"query": "AI startups"}))
        await until(lambda: door.held == 1, what="the request to wait at the door")
        assert door.quiet and sim.stats()["total_requests"] == 0  # not processed, not logged
        async with httpx.AsyncClient(base_url=sim.url, headers={"x-api-key": "k"}, timeout=WAIT) as gone:
            leaving = asyncio.create_task(gone.post("/answer", json={"query": "who?"}))
            await until(lambda: door.held == 2, what="a second request at the door")
            leaving.cancel()  # its client gives up and closes the connection
        await until(lambda: door.dropped == 1 and door.held == 1, what="the left request to be dropped")
        assert (await client.get("/_sim/billing")).json()["answers"] == 0  # /_sim/* never waits
        door.open()
        answer = await waiting
    assert answer.status_code == 200 and answer.json()["costDollars"]["total"] > 0
    assert account.answers == 1 and account.charged == [answer.json()["requestId"]]
    assert [e["path"] for e in sim.log()] == ["/search"]
    assert not door.quiet and door.inside == 0
