"""Every create is safe to send again: a create whose answer was lost after Exa made the object is
found again (externalId for websets, the metadata mark for the rest), never made twice, never failed."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from exa_orch.config import Settings
from exa_orch.errors import NotFoundError
from exa_orch.exa.creates import find_in_pages
from exa_orch.gateway import Gateway
from exa_orch.gateway.marks import CREATE_MARK
from exa_orch.operations import OpContext, default_registry
from exa_orch.sim.context import FaultConfig
from exa_orch.sim.testing import SimHandle
from tests.gateway.test_safe_creates import LoseFirstAnswer

from .conftest import Ops

W = "/websets/v0/websets"

HOOK = {"url": "https://example.com/hook", "events": ["webset.created"]}


async def made(ops: Ops) -> dict[str, int]:
    return dict(ops.sim.stats()["creates_by_kind"])


@pytest.mark.parametrize("fault", ["503", "drop"])
async def test_each_create_survives_a_fault_after_exa_made_the_object(ops: Ops, fault: str) -> None:
    ws = await ops("websets.create", {"search": {"query": "AI startups in Europe", "count": 2}})
    assert ws["externalId"].startswith("exa-orch:")  # exa-orch's key, handed back to the caller
    webset_id = ws["id"]
    calls: list[tuple[str, str, dict[str, Any]]] = [
        ("webset", "websets.create", {"metadata": {"k": "v"}}),
        ("search", "searches.create", {"websetId": webset_id, "query": "AI startups", "count": 1}),
        ("enrichment", "enrichments.create", {"websetId": webset_id, "description": "founding year"}),
        ("monitor", "monitors.create", {"websetId": webset_id, "cadence": {"cron": "0 6 * * *"},
                                        "behavior": {"type": "search", "config": {"count": 1}}}),
        ("webhook", "webhooks.create", HOOK),
        ("import", "imports.create", {"entity": {"type": "company"}, "size": 20, "count": 1}),
        ("agent_run", "research.create", {"instructions": "who makes RISC-V chips?"}),
    ]  # fmt: skip
    for kind, name, args in calls:
        ops.sim.set_faults(FaultConfig(after_create=1.0, kinds=(fault,)))
        before = (await made(ops)).get(kind, 0)
        answer = await ops(name, args)
        ops.sim.set_faults(FaultConfig())
        assert (await made(ops)).get(kind, 0) == before + 1, f"{name}: duplicate or missing"
        assert answer.get("id") or answer.get("researchId"), (name, answer)
    assert ops.sim.stats()["faults_after_create"] == {fault: len(calls)}


async def test_a_caller_key_names_the_same_object_on_every_attempt(ops: Ops) -> None:
    ops.sim.set_faults(FaultConfig(after_create=1.0, kinds=("502",)))
    run = await ops("research.create", {"instructions": "q", "externalId": "task-9:research"})
    ops.sim.set_faults(FaultConfig())
    made = [e["created"] for e in ops.sim.log() if e.get("created")]
    assert [(c["kind"], c["id"], c["metadata"][CREATE_MARK]) for c in made] == [
        ("agent_run", run["researchId"], "task-9:research")
    ]


async def test_a_second_create_with_the_same_caller_key_returns_the_first_object(ops: Ops) -> None:
    """What a resumed workflow step relies on (research.start_research): the key finds the run its dead
    run started, so Exa is asked to make it once."""
    first = await ops("research.create", {"instructions": "q", "externalId": "task-7:research"})
    again = await ops("research.create", {"instructions": "q", "externalId": "task-7:research"})
    assert again["researchId"] == first["researchId"]
    assert ops.sim.creates_by_key(CREATE_MARK) == {"agent_run:task-7:research": 1}


async def test_a_csv_import_whose_answer_was_lost_is_made_again_with_its_upload(ops: Ops) -> None:
    # The upload URL is only in the create's answer: a found import without it is removed and made again.
    ops.sim.set_faults(FaultConfig(after_create=0.5, kinds=("500",), seed=1))
    for n in range(4):
        await ops("imports.create", {"entity": {"type": "company"}, "csv": f"url\nhttps://a{n}.com\n"})
    ops.sim.set_faults(FaultConfig())
    listed = (await ops("imports.list", {}))["data"]
    assert len(listed) == 4 and ops.sim.stats()["faults_after_create"].get("500", 0) >= 1


class LaggingRead(LoseFirstAnswer):
    """Also answers the first GET of `lagging` with 404, as a read that lags the create would."""

    def __init__(self, path: str, lagging: str) -> None:
        super().__init__(path)
        self._lagging = lagging
        self.lagged = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.method == "GET" and request.url.path == self._lagging and not self.lagged:
            self.lagged += 1
            return httpx.Response(404, json={"error": "not found"})
        return await super().handle_async_request(request)


async def lossy_ops(sim: SimHandle, inner: httpx.AsyncBaseTransport) -> AsyncIterator[Ops]:
    settings = Settings(exa_url=sim.url, simulator=True, rps=1000)
    async with Gateway(settings, inner=inner) as gw:
        yield Ops(default_registry(), OpContext(gateway=gw, settings=settings), sim)


async def test_a_webset_create_whose_answer_was_lost_is_found_by_its_external_id(sim: SimHandle) -> None:
    """The transport re-sends no create after a lost answer: websets.create looks the webset up."""
    lossy = LoseFirstAnswer(W)
    async for ops in lossy_ops(sim, lossy):
        ws = await ops(
            "websets.create", {"externalId": "task-7:create", "search": {"query": "q", "count": 1}}
        )
    assert lossy.lost == 1 and ws["externalId"] == "task-7:create"
    assert sim.stats()["creates_by_external_id"] == {"task-7:create": 1}
    assert [(e["method"], e["status"]) for e in sim.log()] == [("POST", 201), ("GET", 200)]


async def test_a_409_after_a_lost_answer_is_the_webset_an_earlier_attempt_made(sim: SimHandle) -> None:
    lossy = LaggingRead(W, f"{W}/task-8:create")
    async for ops in lossy_ops(sim, lossy):
        ws = await ops(
            "websets.create", {"externalId": "task-8:create", "search": {"query": "q", "count": 1}}
        )
    assert lossy.lost == lossy.lagged == 1 and ws["externalId"] == "task-8:create"
    assert sim.stats()["creates_by_external_id"] == {"task-8:create": 1}
    assert sim.stats()["conflicts_by_external_id"] == {"task-8:create": 1}
    assert [(e["method"], e["status"]) for e in sim.log()] == [("POST", 201), ("POST", 409), ("GET", 200)]


async def test_research_find_is_the_lookup_research_create_uses(ops: Ops) -> None:
    """One lookup (the run's metadata mark) for research.create's create-or-find and for the cancel
    hook of a task whose create was in flight (research.start_research looks it up by the same mark)."""
    ops.sim.ctx.clock.set_speed(1e-9)  # held: the run is still going when it is found
    other = await ops("research.create", {"instructions": "q", "externalId": "task-1:research"})
    run = await ops("research.create", {"instructions": "q", "externalId": "task-2:research"})
    found = await ops("research.find", {"externalId": "task-2:research"})
    assert found["researchId"] == run["researchId"] != other["researchId"]
    assert found["externalId"] == "task-2:research" and found["status"] in ("queued", "running")
    raw = await ops("research.find", {"externalId": "task-2:research", "raw": True})
    assert raw["id"] == run["researchId"] and raw["request"]["metadata"][CREATE_MARK] == "task-2:research"
    with pytest.raises(NotFoundError) as info:
        await ops("research.find", {"externalId": "task-3:research"})
    assert "task-3:research" in info.value.message and info.value.hint


async def test_find_in_pages_follows_cursors_and_reads_an_agent_runs_request_metadata() -> None:
    pages = {
        None: {"data": [{"id": "a", "metadata": {CREATE_MARK: "k1"}}], "hasMore": True, "nextCursor": "c2"},
        "c2": {"data": [{"id": "b", "request": {"metadata": {CREATE_MARK: "k2"}}}], "hasMore": False},
    }
    read: list[str | None] = []

    async def page(cursor: str | None) -> dict[str, Any]:
        read.append(cursor)
        return pages[cursor]

    assert (await find_in_pages(page, "k2") or {}).get("id") == "b"
    assert read == [None, "c2"]
    read.clear()
    assert (await find_in_pages(page, "k1") or {}).get("id") == "a" and read == [None]
    assert await find_in_pages(page, "k3") is None
