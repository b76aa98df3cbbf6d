"""The workflow kit on the whole app and the simulator."""

from __future__ import annotations

from exa_orch.sim.testing import SimHandle
from exa_orch.workflows import entities, kit
from tests.workflows.conftest import OpenApp, run_task


async def test_a_kit_workflow_creates_waits_and_collects_with_externalids(
    research_app: OpenApp, sim: SimHandle
) -> None:
    async with research_app("tests.workflows.kit_workflows") as app:
        done = await run_task(app, "test.kitHarvest", {"query": "AI startups in Europe", "count": 4})
        steps = await app.store.load_steps(done.id)
    assert done.status == "completed", done.error
    result = done.result
    assert result["websetId"] != result["otherId"] and not result["timedOut"]
    assert len(result["items"]) == 4 and len(set(result["keys"])) == 4
    assert all(k.startswith("site:") for k in result["keys"])  # companies: their registered domain
    assert [s["name"] for s in result["steps"]] == ["create", "collect"]
    assert result["duration"] == sum(s["duration"] for s in result["steps"])
    # Each webset carries the task's externalId for its step key: a resumed run finds it again.
    assert steps["create.webset"]["externalId"] == f"{done.id}:create.webset"
    assert steps["create.again"]["externalId"] == f"{done.id}:create.again"


async def test_a_typed_kit_workflow_creates_waits_and_reads_items_on_the_port(
    research_app: OpenApp, sim: SimHandle
) -> None:
    async with research_app("tests.workflows.kit_workflows") as app:
        done = await run_task(app, "test.kitTyped", {"query": "AI startups in Europe", "count": 3})
        steps = await app.store.load_steps(done.id)
    assert done.status == "completed", done.error
    result = done.result
    assert result["externalId"] == f"{done.id}:create.webset" and result["status"] == "idle"
    assert not result["timedOut"] and result["items"] == 3 and result["itemWebsets"] == [result["websetId"]]
    # Each step keeps Exa's own JSON: the webset's id and externalId, the items whole.
    assert steps["create.webset"]["externalId"] == f"{done.id}:create.webset"
    assert steps["wait"]["webset"]["status"] == "idle" and len(steps["collect.items"]) == 3
    assert sim.stats()["creates_by_external_id"] == {f"{done.id}:create.webset": 1}


def test_entity_keys_and_criteria_vectors() -> None:
    a = {"id": "i1", "properties": {"url": "https://www.Example.com/about/", "company": {"name": "Ex"}}}
    b = {"id": "i2", "properties": {"url": "http://example.com/about?ref=x"}}
    c = {"id": "i3", "properties": {"type": "person", "person": {"name": "  Ada   Lovelace "}}}
    assert entities.entity_key(a) == "site:example.com" and entities.entity_key(b) == "url:example.com"
    assert entities.entity_key(c) == "person:ada lovelace@" and kit.item_name(c) == "Ada   Lovelace".strip()
    assert entities.entity_key({"id": "x"}) == "id:x"
    item = {"evaluations": [{"criterion": "B", "satisfied": "yes"}, {"criterion": "A", "satisfied": "no"}]}
    assert kit.criteria_vector(item, ["A", "B", "C"]) == [False, True, False]


def test_a_wait_saved_as_the_json_wait_reads_as_the_typed_one() -> None:
    old = {"webset": {"id": "ws"}, "timedOut": True, "waitedSeconds": 4.0, "polls": 2}
    assert kit.from_wait_idle(old) == {"webset": {"id": "ws"}, "timedOut": True, "waited": 4.0, "polls": 2}
    new = {"webset": {"id": "ws"}, "timedOut": False, "waited": 1.0, "polls": 1}
    assert kit.from_wait_idle(new) is new  # this version's shape: as it is
