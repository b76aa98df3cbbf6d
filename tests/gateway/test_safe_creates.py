"""No duplicated side effects: 500 mixed calls under faults, and creates whose answer is lost."""

from __future__ import annotations

import asyncio
from collections import Counter

import httpx
import pytest

from exa_orch.errors import Conflict, UpstreamTimeout
from exa_orch.gateway import Gateway, RetryPolicy
from exa_orch.operations import OpContext, default_registry, dispatch
from exa_orch.sim.context import FaultConfig
from exa_orch.sim.testing import SimHandle
from tests.gateway._util import settings_for

W = "/websets/v0/websets"


async def test_500_mixed_calls_with_20_percent_faults_all_succeed_without_duplicate_creates(
    sim: SimHandle,
) -> None:
    # URLs the simulated world knows, fetched around the gateway; then a clean slate.
    async with httpx.AsyncClient(base_url=sim.url, headers={"x-api-key": "setup"}) as setup:
        found = await setup.post("/search", json={"query": "AI startups", "numResults": 25})
    urls = [r["url"] for r in found.json()["results"]]
    sim.reset()
    faults = ("429", "500", "502", "503", "drop")
    sim.set_faults(FaultConfig(rate=0.2, kinds=faults, retry_after=0.05, seed=11))
    ids = [f"mixed-task:{i}" for i in range(100)]
    done: Counter[str] = Counter()
    settings = settings_for(sim, rps=200)
    async with Gateway(settings, retry=RetryPolicy(max_attempts=10)) as gw:
        exa = gw.exa
        ctx = OpContext(gateway=gw, settings=settings)
        registry = default_registry()

        async def create_then_get(external_id: str) -> None:
            # Creates go through their operation, which owns finding a create's object after a
            # lost answer (the transport re-sends no create after an ambiguous failure).
            args = {"externalId": external_id, "search": {"query": "AI startups", "count": 2}}
            created = await dispatch(registry, "websets.create", {**args, "raw": True}, ctx)
            fetched = await exa.websets.get(external_id)  # Exa accepts the externalId in place of the id
            assert fetched.id == created["id"] and fetched.external_id == external_id
            done["websets"] += 2

        async def search(i: int) -> None:
            result = await exa.search(f"robotics startup {i}", num_results=2)
            assert result.results
            done["search"] += 1

        async def contents(i: int) -> None:
            result = await exa.get_contents([urls[i % len(urls)]], text=True)
            assert len(result.results) == 1
            done["contents"] += 1

        async with asyncio.TaskGroup() as tg:
            for i, external_id in enumerate(ids):
                tg.create_task(create_then_get(external_id))
                tg.create_task(search(2 * i))
                tg.create_task(search(2 * i + 1))
                tg.create_task(contents(i))
        stats = gw.stats()

    assert done == {"websets": 200, "search": 200, "contents": 100}
    sim_stats = sim.stats()
    assert sim_stats["creates_by_external_id"] == dict.fromkeys(ids, 1)  # each created exactly once
    injected = sum(sim_stats["faults"].values())
    assert injected >= 60 and all(sim_stats["faults"][k] > 0 for k in faults)
    # Every request Exa saw is a call's first attempt or a transport retry; every fault was retried
    # by the transport, or (an ambiguous failure of a create) raised to websets.create, which looked
    # the webset up by its externalId (404 when the fault came before Exa made it) and found it or
    # sent the create again: made once either way (creates_by_external_id above).
    errors = dict(stats["errors_by_kind"])
    # The webset pool's one look at the team's concurrency (gateway/pool.py): a 404 on the simulator.
    teams = sum(1 for e in sim.log() if e["path"] == "/websets/v0/teams/me" and e.get("status") == 404)
    assert teams <= 1
    not_made = errors.pop("RESOURCE_NOT_FOUND", 0) - teams
    assert stats["retries"] == sim_stats["total_requests"] - stats["calls"]
    assert set(errors) <= {"API_ERROR", "UPSTREAM_TIMEOUT"}
    assert injected == stats["retries"] + sum(errors.values()) and not_made <= sum(errors.values())


class LoseFirstAnswer(httpx.AsyncBaseTransport):
    """A real transport whose first answer to POST `path` is lost on the way back, after Exa acted."""

    def __init__(self, path: str) -> None:
        self._real = httpx.AsyncHTTPTransport()
        self._path = path
        self.lost = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await self._real.handle_async_request(request)
        if request.method == "POST" and request.url.path == self._path and not self.lost:
            self.lost += 1
            await response.aread()
            await response.aclose()
            raise httpx.ReadError("connection reset while reading the response")
        return response

    async def aclose(self) -> None:
        await self._real.aclose()


async def test_the_transport_never_resends_a_keyed_create_whose_answer_was_lost(sim: SimHandle) -> None:
    """Finding the object a lost answer made is operations/_creates.py's job (tests/operations/
    test_create_or_find.py), even for a webset create with an externalId: the transport raises."""
    lossy = LoseFirstAnswer(W)
    async with Gateway(settings_for(sim), inner=lossy) as gw:
        with pytest.raises(UpstreamTimeout):
            await gw.exa.websets.create(
                {"externalId": "task-7:create", "search": {"query": "AI startups", "count": 2}}
            )
    assert lossy.lost == 1
    assert [(e["method"], e["status"]) for e in sim.log()] == [("POST", 201)]


async def test_a_first_attempt_409_is_a_conflict_error_not_a_silent_success(sim: SimHandle) -> None:
    async with Gateway(settings_for(sim)) as gw:
        await gw.exa.websets.create(
            {"externalId": "task-8:create", "search": {"query": "AI startups", "count": 1}}
        )
        with pytest.raises(Conflict) as info:
            await gw.exa.websets.create(
                {"externalId": "task-8:create", "search": {"query": "other", "count": 1}}
            )
    assert info.value.status == 409 and info.value.external_id == "task-8:create"
    assert info.value.to_dict()["externalId"] == "task-8:create"


async def test_a_create_without_external_id_whose_answer_is_lost_is_not_resent(sim: SimHandle) -> None:
    async with Gateway(settings_for(sim), inner=LoseFirstAnswer(W)) as gw:
        with pytest.raises(UpstreamTimeout):
            await gw.exa.websets.create({"search": {"query": "AI startups", "count": 1}})
    assert [(e["method"], e["path"]) for e in sim.log()] == [("POST", W)]
