"""The Exa port (exa_orch/exa/port.py) on the simulator, real HTTP on loopback: typed exa-py models
out, every create safe to retry (found again by its externalId or metadata mark, never made twice)."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator

import httpx
import pytest

from exa_orch.exa.events import RunEvent
from exa_orch.exa.port import ExaPort, run_params, webset_params
from exa_orch.gateway import Gateway
from exa_orch.gateway.marks import CREATE_MARK
from exa_orch.sim.testing import SimHandle
from tests.gateway._util import settings_for
from tests.gateway.test_safe_creates import LoseFirstAnswer
from tests.support import WAIT

W = "/websets/v0/websets"
SEARCH = {"search": {"query": "AI startups in Europe", "count": 3, "entity": {"type": "company"}}}


@pytest.fixture
async def port(sim: SimHandle) -> AsyncIterator[ExaPort]:
    async with Gateway(settings_for(sim, rps=1000, concurrency=8)) as gw:
        yield ExaPort(gw)


async def test_a_webset_is_created_waited_for_and_read_as_exa_py_models(
    port: ExaPort, sim: SimHandle
) -> None:
    from exa_py.websets.types import Webset, WebsetItem

    made = await port.create_webset(await webset_params(SEARCH), external_id="port-test:1")
    assert isinstance(made, Webset) and made.external_id == "port-test:1"
    reads: list[str] = []

    async def progress(webset: Webset, polls: int) -> None:
        reads.append(str(webset.status))

    idle = await port.wait_idle(made.id, within=WAIT, interval=0.05, progress=progress)
    assert not idle.timed_out and idle.webset.status == "idle" and reads[-1] == "idle"
    assert idle.polls == len(reads)
    items = [item async for item in port.items(made.id)]
    assert len(items) == 3 and all(isinstance(i, WebsetItem) and i.webset_id == made.id for i in items)
    assert [i.id async for i in port.items(made.id, max_items=2)] == [i.id for i in items[:2]]
    assert (await port.get_webset("port-test:1")).id == made.id  # found by its externalId too


async def test_a_webset_create_retried_after_a_crash_finds_the_first(sim: SimHandle) -> None:
    """A process that died after Exa made the webset (its answer never read) is replaced; the
    replacement's create with the same externalId returns the first webset, and Exa made one."""
    async with Gateway(settings_for(sim)) as first:
        made = await ExaPort(first).create_webset(await webset_params(SEARCH), external_id="task-9:create")
    async with Gateway(settings_for(sim)) as restarted:
        again = await ExaPort(restarted).create_webset(
            await webset_params(SEARCH), external_id="task-9:create"
        )
    assert again.id == made.id
    assert sim.stats()["creates_by_external_id"] == {"task-9:create": 1}


async def test_a_webset_create_whose_answer_was_lost_is_found_by_its_external_id(sim: SimHandle) -> None:
    lossy = LoseFirstAnswer(W)
    async with Gateway(settings_for(sim), inner=lossy) as gw:
        made = await ExaPort(gw).create_webset(await webset_params(SEARCH), external_id="task-7:create")
    assert lossy.lost == 1 and made.external_id == "task-7:create"
    assert sim.stats()["creates_by_external_id"] == {"task-7:create": 1}


async def test_an_enrichment_and_a_search_are_made_once_per_key(port: ExaPort, sim: SimHandle) -> None:
    from exa_py.websets.types import CreateEnrichmentParameters, CreateWebsetSearchParameters

    webset = await port.create_webset(await webset_params(SEARCH), external_id="port-test:2")
    enrich = CreateEnrichmentParameters.model_validate({"description": "Year founded", "format": "number"})
    first = await port.create_enrichment(webset.id, enrich, key="task-3:enrich")
    again = await port.create_enrichment(webset.id, enrich, key="task-3:enrich")
    assert again.id == first.id and first.webset_id == webset.id
    assert (await port.get_enrichment(webset.id, first.id)).id == first.id
    await port.wait_idle(webset.id, within=WAIT, interval=0.05)
    search = CreateWebsetSearchParameters.model_validate(
        {"query": "fintech startups", "count": 1, "behavior": "append"}
    )
    made = await port.create_search(webset.id, search, key="task-3:search")
    assert (await port.create_search(webset.id, search, key="task-3:search")).id == made.id
    assert (await port.get_search(webset.id, made.id)).query == "fintech startups"
    assert sim.creates_by_key(CREATE_MARK) == {"enrichment:task-3:enrich": 1, "search:task-3:search": 1} | {
        "webset:port-test:2": 1
    }


async def test_a_cancelled_webset_settles_and_a_deleted_one_is_gone(port: ExaPort, sim: SimHandle) -> None:
    sim.ctx.clock.set_speed(1e-9)  # the search stays running until it is cancelled
    webset = await port.create_webset(await webset_params(SEARCH), external_id="port-test:3")
    assert (await port.get_webset(webset.id)).status == "running"
    assert (await port.cancel_webset(webset.id)).id == webset.id
    settled = await port.wait_idle(webset.id, within=WAIT, interval=0.05)
    assert settled.webset.status == "idle" and not settled.timed_out
    deleted = await port.delete_webset(webset.id)
    assert deleted.id == webset.id and await port.find_webset(webset.id) is None


async def test_a_run_is_created_once_per_key_followed_and_read(port: ExaPort, sim: SimHandle) -> None:
    from exa_py.agent.types import AgentRun

    params = await run_params({"query": "Who makes RISC-V laptops?", "effort": "low"})
    run = await port.create_run(params, key="task-5:run")
    assert isinstance(run, AgentRun) and run.status in ("queued", "running", "completed")
    assert (await port.create_run(params, key="task-5:run")).id == run.id  # looked up first
    assert sim.creates_by_key(CREATE_MARK) == {"agent_run:task-5:run": 1}
    feed = port.follow_run(run.id)
    events: list[RunEvent] = []
    try:
        while not (events and events[-1].ended()):
            got = await feed.next(events[-1].id if events else None, time.time() + WAIT)
            assert isinstance(got, RunEvent), got
            events.append(got)
    finally:
        await feed.aclose()
    assert events[-1].run_status() == "completed" and events[0].event == "agent_run.created"
    done = await port.get_run(run.id)
    assert done.status == "completed" and done.output is not None and done.output.text
    assert (await port.find_run("task-5:run") or done).id == run.id
    assert (await port.cancel_run(run.id)).status == "completed"  # a finished run is answered as it is


async def test_a_run_create_whose_answer_was_lost_is_found_by_its_mark(sim: SimHandle) -> None:
    lossy = LoseFirstAnswer("/agent/runs")
    async with Gateway(settings_for(sim), inner=lossy) as gw:
        params = await run_params({"query": "RISC-V laptops", "effort": "low"})
        run = await ExaPort(gw).create_run(params, key="task-6:run", find_first=False)
    assert lossy.lost == 1 and run.id
    assert sim.creates_by_key(CREATE_MARK) == {"agent_run:task-6:run": 1}


async def test_wire_errors_are_typed(port: ExaPort) -> None:
    from exa_orch.errors import InvalidParams, NotFoundError

    with pytest.raises(NotFoundError):
        await port.get_webset("no-such-webset")
    with pytest.raises(InvalidParams):
        await port.get_webset("..")
    assert isinstance(port.http, httpx.AsyncClient)
