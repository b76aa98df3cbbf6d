"""Websets are paced by a pool of their own (gateway/pool.py): a create past the limit waits until
an answer shows a webset idle; Exa's `GET /websets/v0/teams/me` is asked once (the simulator
answers 404, so the configured limit holds)."""

from __future__ import annotations

import asyncio

from exa_orch.gateway import Gateway
from exa_orch.gateway.context import request_scope
from exa_orch.sim.testing import SimHandle
from tests.gateway._util import settings_for
from tests.support import until

BODY = {"search": {"query": "AI startups in Europe", "count": 2}}


async def test_a_webset_create_past_the_limit_waits_for_an_idle_webset(sim: SimHandle) -> None:
    said: list[str] = []

    async def notice(message: str) -> None:
        said.append(message)

    async with Gateway(settings_for(sim, max_running_websets=1)) as gw:
        pool = gw.pools["webset"]
        first = (await gw.http.post("/websets/v0/websets", json=BODY)).json()

        async def second_create() -> dict[str, object]:
            with request_scope(principal="user:b", task_id="task-b", notice=notice):
                answer = await gw.http.post("/websets/v0/websets", json=BODY)
            return dict(answer.json())

        second = asyncio.create_task(second_create())
        await until(lambda: said, what="the second create says it waits")
        assert not second.done() and pool.stats.last_active == 1
        assert said == ["waiting for a webset slot: 1st in line"]

        async def idle() -> bool:
            return (await gw.http.get(f"/websets/v0/websets/{first['id']}")).json()["status"] == "idle"

        await until(idle, what="the first webset idle")  # that answer frees its slot
        made = await second
        assert made["id"] != first["id"]
        assert pool.stats.granted == 2 and pool.stats.waited == 1
    teams = [e for e in sim.log() if e["path"] == "/websets/v0/teams/me"]
    assert [e["status"] for e in teams] == [404]
    creates = sorted(
        e["t"] for e in sim.log() if e["method"] == "POST" and e["path"] == "/websets/v0/websets"
    )
    gets = [
        e for e in sim.log() if e["method"] == "GET" and e["path"] == f"/websets/v0/websets/{first['id']}"
    ]
    assert len(creates) == 2 and creates[1] > max(e["t"] for e in gets)  # sent only after the idle answer
