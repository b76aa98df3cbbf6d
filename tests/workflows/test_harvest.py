"""lifecycle.harvest on the whole app and the simulator: result, bad args, resume, cancel, timeout, errors."""

from __future__ import annotations

import json
import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest

from exa_orch.app import App
from exa_orch.errors import InvalidParams, NotFoundError
from exa_orch.sim.testing import SimHandle
from exa_orch.store import TaskStatus
from exa_orch.workflows import entities
from exa_orch.workflows.harvest import ENRICHMENT_MARK
from tests.support import WAIT, until, until_steps
from tests.workflows.conftest import OpenApp, has_step, run_task

MODULE = "exa_orch.workflows.harvest"
ENRICHMENTS = [
    {"description": "Number of employees", "format": "number"},
    {"description": "Is it profitable", "format": "boolean"},
]
BASE: dict[str, Any] = {
    "query": "AI startups in Europe",
    "entity": {"type": "company"},
    "count": 4,
    "criteria": [{"description": "based in Europe"}],
    "timeout": 20_000,
}


async def start(app: App, args: dict[str, Any]) -> str:
    created = await app.run_operation("tasks.create", {"type": "lifecycle.harvest", **args})
    return str(created["taskId"])


async def sim_items(app: App, webset_id: str) -> list[dict[str, Any]]:
    page = await app.run_operation("items.getAll", {"websetId": webset_id, "fields": ["all"]})
    return list(page["data"])


async def test_harvest_creates_enriches_and_collects_every_item(research_app: OpenApp) -> None:
    async with research_app(MODULE) as app:
        done = await run_task(app, "lifecycle.harvest", {**BASE, "enrichments": ENRICHMENTS})
        assert done.status == "completed", done.error
        result = done.result
        webset = await app.run_operation("websets.get", {"id": result["websetId"]})
        held = await sim_items(app, result["websetId"])
    assert set(result) >= {
        "websetId",
        "items",
        "itemCount",
        "searchProgress",
        "enrichmentCount",
        "duration",
        "steps",
    }
    assert webset["status"] == "idle" and webset["externalId"] == f"{done.id}:create.webset"
    assert result["itemCount"] == len(result["items"]) == len(held) == 4
    assert [i["id"] for i in result["items"]] == [i["id"] for i in held]
    assert result["searchProgress"]["found"] == 4 and result["searchProgress"]["analyzed"] >= 4
    assert result["enrichmentCount"] == 2 and result["timedOut"] is False and "partial" not in result
    # One enrichment per arg (boolean became options yes/no), each marked for crash-safe lookup.
    assert [e["id"] for e in webset["enrichments"]] == result["enrichmentIds"]
    assert [e["format"] for e in webset["enrichments"]] == ["number", "options"]
    assert [e["metadata"][ENRICHMENT_MARK] for e in webset["enrichments"]] == [
        f"{done.id}:enrich.0",
        f"{done.id}:enrich.1",
    ]
    for item in result["items"]:
        results = {r["enrichmentId"]: r for r in item["enrichments"]}
        assert set(results) == set(result["enrichmentIds"])
        assert all(r["status"] == "completed" for r in results.values())
        number, yes_no = (results[i] for i in result["enrichmentIds"])
        assert number["result"]  # a yes/no question gets no answer when its verdict is unclear
        assert yes_no.get("result") in (["yes"], ["no"], None)
        assert item["evaluations"][0]["criterion"] == "based in Europe"
    assert [s["name"] for s in result["steps"]] == ["create", "search", "enrich", "enrichments", "collect"]
    assert all(s["status"] == "completed" for s in result["steps"])
    assert result["duration"] >= sum(s["duration"] for s in result["steps"]) - len(result["steps"])


async def test_cleanup_deletes_the_webset_after_collecting(research_app: OpenApp) -> None:
    async with research_app(MODULE) as app:
        done = await run_task(app, "lifecycle.harvest", {**BASE, "count": 3, "cleanup": True})
        assert done.status == "completed", done.error
        with pytest.raises(NotFoundError):
            await app.run_operation("websets.get", {"id": done.result["websetId"]})
    assert done.result["itemCount"] == 3 and done.result["deleted"] is True
    assert done.result["enrichmentCount"] == 0
    assert [s["name"] for s in done.result["steps"]] == ["create", "search", "collect", "cleanup"]


@pytest.mark.parametrize(
    ("args", "field"),
    [
        ({"entity": {"type": "company"}}, "query"),
        ({"query": "x"}, "entity"),
        ({**BASE, "entity": {"type": "paper"}}, "entity"),
        ({**BASE, "entity": {"type": "custom"}}, "entity"),
        ({**BASE, "count": 0}, "count"),
        ({**BASE, "timeout": -5}, "timeout"),
        ({**BASE, "enrichments": [{"description": "Tier", "format": "options"}]}, "enrichments.0"),
        ({**BASE, "criteria": []}, "criteria"),
        ({**BASE, "cleanUp": True}, "cleanUp"),
    ],
)
async def test_bad_args_are_refused_before_anything_is_written(
    research_app: OpenApp, sim: SimHandle, args: dict[str, Any], field: str
) -> None:
    async with research_app(MODULE) as app:
        with pytest.raises(InvalidParams) as caught:
            await app.run_operation("tasks.create", {"type": "lifecycle.harvest", **args})
        tasks, _ = await app.store.list_tasks()
    assert caught.value.code == "INVALID_PARAMS"
    assert any(f == field or f.startswith(field + ".") for f in caught.value.fields), caught.value.fields
    assert tasks == []
    assert sim.stats()["total_requests"] == 0


async def searched(app: App, sim: SimHandle, task_id: str) -> None:
    """Move the held simulated clock on until the task has checkpointed its search's wait."""

    async def done() -> bool:
        if await has_step(app, task_id, "wait.search"):
            return True
        sim.ctx.clock.advance(2.0)
        return False

    await until(done, every=0.05)


async def test_resume_after_a_restart_creates_nothing_twice(
    research_app: OpenApp, sim: SimHandle, tmp_path: Path
) -> None:
    args = {**BASE, "enrichments": ENRICHMENTS}
    # Simulated time held, and moved on by hand until the search is done: the enrichments then
    # can't finish before the restart, however late this test sees their checkpoints.
    sim.ctx.clock.set_speed(1e-9)
    async with research_app(MODULE) as app:
        task_id = await start(app, args)
        await searched(app, sim, task_id)
        await until(lambda: has_step(app, task_id, "enrich.1"))
        assert (await app.store.get_task(task_id)).status is TaskStatus.WORKING
    sim.ctx.clock.set_speed(100.0)
    # A crash right after enrichment 1 was created, before its checkpoint: drop that checkpoint.
    with sqlite3.connect(tmp_path / "workflows.db") as db:
        db.execute("DELETE FROM task_steps WHERE task_id = ? AND step_key = 'enrich.1'", (task_id,))
    async with research_app(MODULE) as app:
        assert app.supervisor is not None
        done = await app.supervisor.tasks.wait(task_id, timeout=WAIT)
        assert done.status == "completed", done.error
        websets = await app.run_operation("websets.list", {"limit": 100})
        webset = await app.run_operation("websets.get", {"id": done.result["websetId"]})
    assert [w["id"] for w in websets["data"]] == [done.result["websetId"]]
    assert sim.stats()["creates_by_external_id"] == {f"{task_id}:create.webset": 1}
    assert len(webset["enrichments"]) == 2 == done.result["enrichmentCount"]
    assert [e["id"] for e in webset["enrichments"]] == done.result["enrichmentIds"]
    assert done.result["itemCount"] == 4
    assert all(len(i["enrichments"]) == 2 for i in done.result["items"])


async def test_a_task_checkpointed_by_the_json_wait_resumes(
    research_app: OpenApp, sim: SimHandle, tmp_path: Path
) -> None:
    """A harvest whose `wait.search` checkpoint is in the shape `kit.wait_idle` saved up to
    653a7c1 ({webset, timedOut, waitedSeconds, polls}) resumes from it (`kit.from_wait_idle`)."""
    sim.ctx.clock.set_speed(1e-9)  # the enrichments can't finish before the restart
    async with research_app(MODULE) as app:
        task_id = await start(app, {**BASE, "enrichments": ENRICHMENTS})
        await searched(app, sim, task_id)
        steps = await until_steps(app.store, task_id, "enrich.1")
    sim.ctx.clock.set_speed(100.0)
    saved = steps["wait.search"]
    assert set(saved) == {"webset", "timedOut", "waited", "polls"}  # what this version saves
    old = {"webset": saved["webset"], "timedOut": False, "waitedSeconds": 2.5, "polls": 3}
    with sqlite3.connect(tmp_path / "workflows.db") as db:
        db.execute(
            "UPDATE task_steps SET result = ? WHERE task_id = ? AND step_key = 'wait.search'",
            (json.dumps(old), task_id),
        )
    async with research_app(MODULE) as app:
        assert app.supervisor is not None
        done = await app.supervisor.tasks.wait(task_id, timeout=WAIT)
        resumed = await app.store.load_steps(task_id)
    assert done.status == "completed", done.error
    assert resumed["wait.search"] == old  # read as it was, not waited again
    searches = saved["webset"]["searches"]
    assert done.result["searchProgress"] == {
        "found": sum(int(s["progress"]["found"]) for s in searches),
        "analyzed": sum(int(s["progress"]["analyzed"]) for s in searches),
    }
    assert sim.stats()["creates_by_external_id"] == {f"{task_id}:create.webset": 1}
    assert done.result["itemCount"] == 4 and done.result["enrichmentCount"] == 2


async def test_cancel_mid_search_cancels_the_webset(research_app: OpenApp, sim: SimHandle) -> None:
    sim.ctx.clock.set_speed(1.0)  # a 20-item search now takes half a minute: cancelled long before
    async with research_app(MODULE) as app:
        task_id = await start(app, {**BASE, "count": 20})
        await until(lambda: has_step(app, task_id, "create.webset"))
        await app.run_operation("tasks.cancel", {"taskId": task_id})
        assert app.supervisor is not None
        done = await app.supervisor.tasks.wait(task_id, timeout=WAIT)
        webset_id = (await app.store.load_steps(task_id))["create.webset"]["id"]
        webset = await app.run_operation("websets.get", {"id": webset_id})
    assert done.status is TaskStatus.CANCELLED
    assert webset["searches"][0]["status"] == "canceled"
    assert webset["searches"][0]["canceledReason"] == "webset_canceled"


def hold_at_item(sim: SimHandle, webset_id: str, n: int) -> None:
    """Move the held simulated clock to when the webset's search has found its `n`th item."""
    store = sim.ctx.extras["websets"]
    [sid] = store.websets[webset_id].search_ids
    found = sorted(c.at for c in store.searches[sid].plan if c.accepted)
    sim.ctx.clock.advance(max(0.0, found[n - 1] - sim.ctx.clock.now()) + 0.001)


async def test_search_timeout_returns_the_items_found_so_far(research_app: OpenApp, sim: SimHandle) -> None:
    async with research_app(MODULE) as app:
        sim.ctx.clock.set_speed(1e-9)  # held: moved by hand to where the search has found 3 of 20
        args = {**BASE, "count": 20, "enrichments": ENRICHMENTS, "timeout": 1500}
        task_id = await start(app, args)
        await until(lambda: has_step(app, task_id, "create.webset"))
        hold_at_item(sim, (await app.store.load_steps(task_id))["create.webset"]["id"], 3)
        assert app.supervisor is not None
        done = await app.supervisor.tasks.wait(task_id, timeout=WAIT)
        assert done.status == "completed", done.error
        sim.ctx.clock.set_speed(100.0)
        await app.run_operation("websets.waitUntilIdle", {"id": done.result["websetId"], "timeout": 30})
        later = await sim_items(app, done.result["websetId"])
    result = done.result
    assert result["timedOut"] is True and result["partial"] is True
    assert "search did not finish within 1500 ms" in result["timedOutNote"]
    assert result["enrichmentCount"] == 0  # a search timeout skips the enrichments
    assert result["itemCount"] == 3 == len(result["items"])
    assert {i["id"] for i in result["items"]} < {i["id"] for i in later}  # the webset went on
    assert [s["status"] for s in result["steps"]] == ["completed", "timedOut", "completed"]


async def test_enrichment_timeout_returns_the_items_with_what_results_exist(
    research_app: OpenApp, sim: SimHandle
) -> None:
    async with research_app(MODULE) as app:
        sim.ctx.clock.set_speed(1e-9)  # held: moved by hand past the search, never past the enrichments
        task_id = await start(app, {**BASE, "count": 8, "enrichments": ENRICHMENTS, "timeout": 2000})
        await until(lambda: has_step(app, task_id, "create.webset"))
        # The search was planned at create time; enrichments made from now on take 2500 s per item.
        sim.ctx.config.seconds_per_item = 10_000.0
        sim.ctx.clock.advance(1000.0)  # the search is done and its webset idle: the search wait ends
        assert app.supervisor is not None
        done = await app.supervisor.tasks.wait(task_id, timeout=WAIT)
    result = done.result
    assert done.status == "completed", done.error
    assert result["timedOut"] is True and result["partial"] is True
    assert "enrichments did not finish within 2000 ms" in result["timedOutNote"]
    assert result["itemCount"] == 8 and result["enrichmentCount"] == 2
    statuses = {r["status"] for item in result["items"] for r in item["enrichments"]}
    assert statuses == {"pending"}
    assert [s["status"] for s in result["steps"]] == [
        "completed",
        "completed",
        "completed",
        "timedOut",
        "completed",
    ]


async def test_an_exa_error_fails_the_task_naming_the_webset(research_app: OpenApp, sim: SimHandle) -> None:
    sim.ctx.clock.set_speed(1.0)  # the search is still running when its webset disappears
    async with research_app(MODULE) as app:
        task_id = await start(app, {**BASE, "count": 20})
        await until(lambda: has_step(app, task_id, "create.webset"))
        webset_id = (await app.store.load_steps(task_id))["create.webset"]["id"]
        await app.run_operation("websets.delete", {"id": webset_id})
        assert app.supervisor is not None
        done = await app.supervisor.tasks.wait(task_id, timeout=WAIT)
    assert done.status is TaskStatus.FAILED
    assert done.error is not None and done.error["code"] == "RESOURCE_NOT_FOUND"
    assert f"websets this task created, still at Exa: {webset_id}" in done.error["message"]


async def test_entity_resolution_runs_off_the_event_loop(
    research_app: OpenApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Resolving a few hundred items takes seconds of CPU on a busy machine: on the event loop it
    held off the lease renewals until the lease lapsed (a CI flake). The result's duplicates and
    the entity memory's re-resolution (`known.remember`) both run in a worker thread."""
    loop_thread = threading.get_ident()
    threads: list[int] = []
    resolve = entities.resolve

    def spied(items: list[dict[str, Any]]) -> Any:
        threads.append(threading.get_ident())
        return resolve(items)

    monkeypatch.setattr(entities, "resolve", spied)
    async with research_app(MODULE) as app:
        done = await run_task(app, "lifecycle.harvest", BASE)
    assert done.status == "completed", done.error
    assert len(threads) == 2 and loop_thread not in threads  # the memory's plan, then duplicates
