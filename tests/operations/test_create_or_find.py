"""Every create is safe to send again: a create whose answer was lost after Exa made the object is
found again (externalId for websets, the metadata mark for the rest), never made twice, never failed."""

from __future__ import annotations

from typing import Any

import pytest

from exa_orch.gateway.marks import CREATE_MARK
from exa_orch.sim.context import FaultConfig

from .conftest import Ops

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
    """What a resumed workflow step relies on (kit.create_research): the key finds the run its dead
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
