"""research.verifiedCollection on the whole app and the simulator (speed 25: a 4-item webset is idle
in ~0.3 s, a 25-item one in ~1.2 s, a research run takes ~0.9 s)."""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from exa_orch.app import App
from exa_orch.errors import InvalidParams
from exa_orch.gateway.marks import CREATE_MARK
from exa_orch.sim.testing import SimHandle
from exa_orch.store import Store
from exa_orch.workflows import kit, rows, verified
from exa_orch.workflows.verified import fill
from tests.support import WAIT, until_steps
from tests.workflows.conftest import OpenApp, agent_runs, run_task
from tests.workflows.loop_probe import LoopProbe

MODULE = "exa_orch.workflows.verified"
TYPE = "research.verifiedCollection"
SCHEMA = {
    "type": "object",
    "required": ["summary"],
    "properties": {"summary": {"type": "string"}, "founders": {"type": "array", "items": {"type": "string"}}},
}
ARGS: dict[str, Any] = {
    "query": "AI startups in Europe",
    "entity": {"type": "company"},
    "criteria": [{"description": "based in Europe"}],
    "count": 4,
    "enrichments": [{"description": "CEO name", "format": "text"}],
    "researchPrompt": "Who founded {{name}} ({{url}})? Context: {{ description }}",
    "researchSchema": SCHEMA,
    "researchLimit": 3,
}


@pytest.fixture
def sim(slow_sim: SimHandle) -> SimHandle:
    """Slower than the shared simulator, so a run is still going while a test restarts or cancels."""
    return slow_sim


async def start(app: App, args: dict[str, Any]) -> str:
    created = await app.run_operation("tasks.create", {"type": TYPE, **args})
    return str(created["taskId"])


async def websets(app: App) -> list[dict[str, Any]]:
    page = await app.run_operation("websets.list", {})
    return list(page["data"])


async def test_items_are_collected_and_the_first_ones_researched(
    research_app: OpenApp, sim: SimHandle
) -> None:
    async with research_app(MODULE) as app:
        done = await run_task(app, TYPE, ARGS)
        held = await app.run_operation(
            "items.getAll", {"websetId": done.result["websetId"], "fields": ["all"]}
        )
    assert done.status == "completed", done.error
    result = done.result
    assert set(result) >= {"websetId", "items", "totalItems", "researchedCount", "duration"}
    assert result["totalItems"] == len(result["items"]) == len(held["data"]) == 4
    assert [m["item"]["id"] for m in result["items"]] == [i["id"] for i in held["data"]]
    assert result["researchedCount"] == 3 and result["timedOut"] is False
    assert [m["item"]["enrichments"] for m in result["items"]] == [i["enrichments"] for i in held["data"]]
    assert all(m["item"]["enrichments"][0]["status"] == "completed" for m in result["items"])
    runs = agent_runs(sim)
    assert len(runs.runs) == 3
    for entry in result["items"][:3]:
        item, research = entry["item"], entry["research"]
        run = runs.get(research["researchId"])
        # The prompt the run got is the template filled from this item.
        assert run.request["query"] == fill(ARGS["researchPrompt"], item)
        assert kit.item_name(item) in run.request["query"] and kit.item_url(item) in run.request["query"]
        assert item["properties"]["description"] in run.request["query"] and "{{" not in run.request["query"]
        assert run.request["outputSchema"] == SCHEMA and run.request["effort"] == "medium"
        assert research["status"] == "completed" and isinstance(research["result"]["summary"], str)
        # from the create's checkpoint to the run seen done: above 0, but no wall-clock floor (a busy
        # machine may hand the create's answer back after most of the run's 22 simulated seconds)
        assert research["duration"] > 0
    assert "research" not in result["items"][3]  # beyond researchLimit
    assert result["duration"] >= max(m["research"]["duration"] for m in result["items"][:3])


async def test_the_items_are_merged_by_entity_while_the_event_loop_runs_on(
    research_app: OpenApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Resolving a few hundred items takes seconds of CPU on a busy machine: on the event loop it
    holds off the lease renewals until the lease lapses. While the research phase merges the items
    by entity (and the entity memory before it resolves them), the loop runs other callbacks."""
    async with research_app(MODULE) as app:
        probe = LoopProbe.install(monkeypatch)
        done = await run_task(app, TYPE, {**ARGS, "researchLimit": 1})
    assert probe.answers == [True, True]  # the memory's plan, then the research phase's merge
    assert done.status == "completed", done.error
    assert done.result["uniqueEntities"] >= 1


async def test_at_most_three_research_runs_are_in_flight(research_app: OpenApp, sim: SimHandle) -> None:
    args = {**ARGS, "count": 5, "researchLimit": 5, "researchSchema": None, "criteria": None}
    async with research_app(MODULE) as app:
        done = await run_task(app, TYPE, args)
    assert done.status == "completed", done.error
    assert done.result["researchedCount"] == 5
    assert all(isinstance(m["research"]["result"], str) for m in done.result["items"])  # no schema: text
    runs = list(agent_runs(sim).runs.values())
    assert len(runs) == 5
    # A run is released only once seen finished, so no creation finds three others still going.
    for run in runs:
        going = [r for r in runs if r is not run and r.created <= run.created < r.finishes]
        assert len(going) <= 2, [(r.created, r.finishes) for r in runs]


async def test_bad_args_are_refused_before_any_task_is_written(research_app: OpenApp) -> None:
    async with research_app(MODULE) as app:
        for args, field in (
            ({**ARGS, "researchPrompt": "About {{title}}"}, "researchPrompt"),
            ({k: v for k, v in ARGS.items() if k != "researchPrompt"}, "researchPrompt"),
            ({k: v for k, v in ARGS.items() if k != "entity"}, "entity"),
            ({**ARGS, "entity": {"type": "companies"}}, "entity"),
            ({**ARGS, "researchLimit": -1}, "researchLimit"),
            ({**ARGS, "count": 0}, "count"),
            ({**ARGS, "researchModel": "o3"}, "researchModel"),
            ({**ARGS, "reserchLimit": 2}, "reserchLimit"),
        ):
            with pytest.raises(InvalidParams) as err:
                await start(app, args)
            assert field in err.value.fields, (field, err.value.fields)
        tasks, _ = await app.store.list_tasks()
        assert tasks == [] and await websets(app) == []


async def test_a_restart_mid_research_redoes_nothing(research_app: OpenApp, sim: SimHandle) -> None:
    args = {**ARGS, "count": 5, "researchLimit": 5}
    async with research_app(MODULE) as app:
        task_id = await start(app, args)
        # The first three runs are checkpointed; the fourth waits for one of them to finish.
        await until_steps(app.store, task_id, "research.create:0", "research.create:1", "research.create:2")
    async with research_app(MODULE) as app:
        assert app.supervisor is not None
        done = await app.supervisor.tasks.wait(task_id, timeout=WAIT)
        held = await websets(app)
    assert done.status == "completed", done.error
    assert done.result["researchedCount"] == 5 and len(held) == 1
    assert len(agent_runs(sim).runs) == 5
    assert sim.creates_by_key(CREATE_MARK) == {
        f"webset:{task_id}:webset.create": 1,
        **{f"agent_run:{task_id}:research.create:{i}": 1 for i in range(5)},
    }


async def test_cancel_while_the_webset_searches_cancels_it(research_app: OpenApp) -> None:
    async with research_app(MODULE) as app:
        assert app.supervisor is not None
        task_id = await start(app, {**ARGS, "count": 25})
        steps = await until_steps(app.store, task_id, "webset.create")
        record = await app.supervisor.tasks.cancel(task_id)
        webset = await app.run_operation("websets.get", {"id": steps["webset.create"]["id"]})
    assert record.status == "cancelled"
    assert [s["status"] for s in webset["searches"]] == ["canceled"]


async def test_cancel_while_researching_cancels_the_runs(research_app: OpenApp, sim: SimHandle) -> None:
    keys = ("research.create:0", "research.create:1", "research.create:2")
    async with research_app(MODULE) as app:
        assert app.supervisor is not None
        task_id = await start(app, {**ARGS, "researchModel": "exa-research-pro"})
        steps = await until_steps(app.store, task_id, *keys)
        record = await app.supervisor.tasks.cancel(task_id)
    assert record.status == "cancelled"
    ids = [steps[k]["researchId"] for k in keys]
    assert [agent_runs(sim).get(i).frozen_status for i in ids] == ["cancelled"] * 3


async def test_timeouts_give_partial_results(research_app: OpenApp, sim: SimHandle) -> None:
    async with research_app(MODULE) as app:
        # The research runs (pro: ~1.7 s) outlast the 1.2 s budget: items with the runs' status.
        slow = await run_task(app, TYPE, {**ARGS, "researchModel": "exa-research-pro", "timeout": 1200})
        # A 25-item search outlasts 0.3 s: the items found so far, nothing researched. Simulated time
        # held meanwhile, so a busy machine's late poll can't find the search done.
        speed = sim.ctx.clock.speed
        sim.ctx.clock.set_speed(0.001)
        early = await run_task(app, TYPE, {**ARGS, "count": 25, "timeout": 300})
        sim.ctx.clock.set_speed(speed)
    assert slow.status == "completed", slow.error
    assert slow.result["timedOut"] is True and slow.result["researchedCount"] == 0
    assert slow.result["totalItems"] == 4
    for entry in slow.result["items"][:3]:
        assert entry["research"]["timedOut"] is True and entry["research"]["status"] in ("queued", "running")
        assert entry["research"]["result"] is None
    assert early.status == "completed", early.error
    assert early.result["timedOut"] is True and early.result["researchedCount"] == 0
    assert early.result["totalItems"] < 25 and all("research" not in m for m in early.result["items"])
    assert len(agent_runs(sim).runs) == 3  # only the first task's


async def test_a_failed_run_is_reported_on_its_item_and_an_exa_error_names_the_webset(
    research_app: OpenApp,
) -> None:
    async with research_app(MODULE) as app:
        failing = await run_task(
            app, TYPE, {**ARGS, "researchPrompt": "{{name}} [sim:fail]", "researchLimit": 1}
        )
        # The webset vanishes while the task waits for it: Exa's 404 fails the task, naming it.
        task_id = await start(app, {**ARGS, "count": 25})
        steps = await until_steps(app.store, task_id, "webset.create")
        await app.run_operation("websets.delete", {"id": steps["webset.create"]["id"]})
        assert app.supervisor is not None
        gone = await app.supervisor.tasks.wait(task_id, timeout=WAIT)
    assert failing.status == "completed", failing.error
    research = failing.result["items"][0]["research"]
    assert research["status"] == "failed" and "[sim:fail]" in research["error"]
    assert failing.result["researchedCount"] == 0
    assert gone.status == "failed" and gone.error is not None
    assert gone.error["code"] == "RESOURCE_NOT_FOUND"
    assert f"webset {steps['webset.create']['id']} was created" in gone.error["message"]


async def test_a_cancel_asked_while_no_server_runs_it_cancels_the_runs_on_restart(
    research_app: OpenApp, sim: SimHandle, tmp_path: Path
) -> None:
    keys = ("research.create:0", "research.create:1", "research.create:2")
    async with research_app(MODULE) as app:
        task_id = await start(app, {**ARGS, "researchModel": "exa-research-pro"})
        steps = await until_steps(app.store, task_id, *keys)
    # Simulated time all but stops, so the runs are still going however long the restart takes
    # on a busy machine (at speed 100 a slow restart let a run finish before its cancel).
    sim.ctx.clock.set_speed(0.001)
    async with Store(tmp_path / "workflows.db") as store:
        await store.request_cancel(task_id)  # asked while the server was down
    async with research_app(MODULE) as app:
        assert app.supervisor is not None
        done = await app.supervisor.tasks.wait(task_id, timeout=WAIT)
    # The restart replays the checkpoints to find every run's cancel hook, and starts nothing new.
    assert done.status == "cancelled"
    ids = [steps[k]["researchId"] for k in keys]
    assert [agent_runs(sim).get(i).frozen_status for i in ids] == ["cancelled"] * 3
    assert len(agent_runs(sim).runs) == 3


async def test_a_restart_after_the_deadline_keeps_the_research_the_earlier_run_started(
    research_app: OpenApp, sim: SimHandle, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The quick look times out (the 4-item search takes ~0.3 s), so the earlier run went on with the
    # patient wait and started research runs. A restart that comes after the task's deadline must
    # replay that path (its checkpoints), not take the "no time left" branch and drop the runs.
    monkeypatch.setattr(f"{MODULE}.QUICK_S", 0.05)
    keys = ("webset.wait.rest", "research.create:0", "research.create:1", "research.create:2")
    # Simulated time at a tenth of the suite's speed until the runs started: the search then takes
    # ~3 s, so the 0.05 s quick look times out however late a busy machine makes its first poll.
    speed = sim.ctx.clock.speed
    sim.ctx.clock.set_speed(speed / 10)
    async with research_app(MODULE) as app:
        task_id = await start(app, {**ARGS, "researchModel": "exa-research-pro", "timeout": 600_000})
        steps = await until_steps(app.store, task_id, *keys)
    sim.ctx.clock.set_speed(speed)
    assert steps["webset.wait"]["timedOut"] is True
    with sqlite3.connect(tmp_path / "workflows.db") as conn:  # the server stayed down past the deadline
        conn.execute(
            "UPDATE task_steps SET result = ? WHERE task_id = ? AND step_key = 'start'",
            (json.dumps(time.time() - 700), task_id),
        )
    async with research_app(MODULE) as app:
        assert app.supervisor is not None
        done = await app.supervisor.tasks.wait(task_id, timeout=WAIT)
    assert done.status == "completed", done.error
    ids = [steps[f"research.create:{i}"]["researchId"] for i in range(3)]
    assert [m["research"]["researchId"] for m in done.result["items"][:3]] == ids
    assert len(agent_runs(sim).runs) == 3  # nothing new started after the deadline


# --- the agent engine (issue 25) -------------------------------------------------------------------


async def test_on_the_agent_engine_the_rows_are_researched_in_input_data_batches(
    research_app: OpenApp, sim: SimHandle, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(f"{MODULE}.RESEARCH_BATCH", 3)  # 7 entities: batches of 3, 3 and 1
    args = {**ARGS, "count": 7, "researchLimit": 7, "engine": "agent"}
    async with research_app(MODULE) as app:
        done = await run_task(app, TYPE, args)
    assert done.status == "completed", done.error
    result = done.result
    assert result["engine"] == "agent" and result["websetId"] is None
    assert set(result) == {"engine", "websetId", "runIds", "items", "totalItems", "uniqueEntities",
                           "researchedCount", "duration", "timedOut", "citationCheck"}  # fmt: skip
    assert not sim.ctx.extras["websets"].websets  # no webset at Exa
    runs = agent_runs(sim)
    [collection] = result["runIds"]
    asked = runs.get(collection).request
    assert asked["query"].startswith(ARGS["query"]) and "Satisfies: based in Europe" in asked["query"]
    assert asked["systemPrompt"] == rows.entity_prompt(ARGS["entity"])
    row_fields = asked["outputSchema"]["properties"]["rows"]["items"]["properties"]
    assert row_fields["criterion0"]["description"] == "based in Europe"
    assert row_fields["field0"]["description"] == "CEO name"
    items = [m["item"] for m in result["items"]]
    assert result["totalItems"] == len(items) == 7 == result["uniqueEntities"]
    assert all(e["satisfied"] == "yes" for i in items for e in i["evaluations"])  # kept: all yes
    assert all(i["enrichments"][0]["result"] for i in items)  # CEO name, a row field
    # Three batch runs, not seven: each got its items as input.data rows, in item order.
    batches = [m["research"]["researchId"] for m in result["items"]]
    assert batches == [batches[0]] * 3 + [batches[3]] * 3 + [batches[6]]
    assert len(runs.runs) == 1 + 3
    for k, rid in enumerate(dict.fromkeys(batches)):
        request = runs.get(rid).request
        members = items[3 * k : 3 * k + 3]
        assert request["input"]["data"] == [
            {"name": kit.item_name(i), "url": kit.item_url(i), "description": i["properties"]["description"]}
            for i in members
        ]
        assert "{{" not in request["query"] and "the row's name" in request["query"]
        rows_schema = request["outputSchema"]["properties"]["rows"]
        assert (
            rows_schema["maxItems"] == len(members)
            and rows_schema["items"]["properties"]["research"] == SCHEMA
        )
        assert request["effort"] == "medium"
    for m in result["items"]:
        assert m["research"]["status"] == "completed" and isinstance(m["research"]["result"]["summary"], str)
    assert result["researchedCount"] == 7 and result["timedOut"] is False


async def test_on_the_agent_engine_a_restart_mid_research_redoes_nothing(
    research_app: OpenApp, sim: SimHandle, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(f"{MODULE}.RESEARCH_BATCH", 2)
    args = {**ARGS, "count": 5, "researchLimit": 5, "engine": "agent"}
    async with research_app(MODULE) as app:
        task_id = await start(app, args)
        await until_steps(app.store, task_id, "rows.wait")
        speed = sim.ctx.clock.speed
        sim.ctx.clock.set_speed(0.001)  # held: no batch run can finish however slow the box
        steps = await until_steps(app.store, task_id, "research.batch:0", "research.batch:1")
        assert "research.batch.poll:0" not in await app.store.load_steps(task_id)
    before = {rid: run.request for rid, run in agent_runs(sim).runs.items()}
    sim.ctx.clock.set_speed(speed)
    async with research_app(MODULE) as app:
        assert app.supervisor is not None
        done = await app.supervisor.tasks.wait(task_id, timeout=WAIT)
    assert done.status == "completed", done.error
    after = {rid: run.request for rid, run in agent_runs(sim).runs.items()}
    assert {rid: after[rid] for rid in before} == before and len(after) == 1 + 3
    assert sim.creates_by_key(CREATE_MARK) == {
        f"agent_run:{task_id}:rows.create": 1,
        **{f"agent_run:{task_id}:research.batch:{b}": 1 for b in range(3)},
    }
    assert done.result["items"][0]["research"]["researchId"] == steps["research.batch:0"]["researchId"]
    assert done.result["researchedCount"] == 5


async def test_on_the_agent_engine_a_prompt_too_long_for_a_batch_run_is_refused(
    research_app: OpenApp,
) -> None:
    long_prompt = "Who founded {{name}}? " + "x" * 19_900
    async with research_app(MODULE) as app:
        await app.run_operation(
            "tasks.create", {"type": TYPE, **ARGS, "researchPrompt": long_prompt, "preview": True}
        )
        with pytest.raises(InvalidParams) as err:
            await start(app, {**ARGS, "researchPrompt": long_prompt, "engine": "agent"})
    assert "researchPrompt" in err.value.fields and "shorten researchPrompt" in str(err.value)


async def test_on_the_agent_engine_a_cancel_while_researching_cancels_the_batch_runs(
    research_app: OpenApp, sim: SimHandle, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(f"{MODULE}.RESEARCH_BATCH", 2)
    keys = ("research.batch:0", "research.batch:1")
    args = {**ARGS, "count": 4, "researchLimit": 4, "researchModel": "exa-research-pro", "engine": "agent"}
    async with research_app(MODULE) as app:
        assert app.supervisor is not None
        task_id = await start(app, args)
        await until_steps(app.store, task_id, "rows.wait")
        sim.ctx.clock.set_speed(0.001)  # held: the batch runs are running when the cancel comes
        steps = await until_steps(app.store, task_id, *keys)
        record = await app.supervisor.tasks.cancel(task_id)
    assert record.status == "cancelled"
    ids = [steps[k]["researchId"] for k in keys]
    assert [agent_runs(sim).get(i).frozen_status for i in ids] == ["cancelled"] * 2
    assert len(agent_runs(sim).runs) == 3  # the collection's run and the two batches


async def test_on_the_agent_engine_a_failed_batch_is_reported_on_its_items_and_a_failed_collection_fails_the_task(
    research_app: OpenApp, sim: SimHandle
) -> None:
    async with research_app(MODULE) as app:
        failing = await run_task(
            app,
            TYPE,
            {**ARGS, "researchPrompt": "{{name}} [sim:fail]", "researchLimit": 2, "engine": "agent"},
        )
        gone = await run_task(app, TYPE, {**ARGS, "query": "AI startups [sim:fail]", "engine": "agent"})
    assert failing.status == "completed", failing.error
    researched = [m["research"] for m in failing.result["items"] if "research" in m]
    assert len(researched) == 2 and len({r["researchId"] for r in researched}) == 1  # one batch
    assert all(r["status"] == "failed" and "[sim:fail]" in r["error"] for r in researched)
    assert failing.result["researchedCount"] == 0
    assert gone.status == "failed" and gone.error is not None
    [collection] = [rid for rid, run in agent_runs(sim).runs.items() if "[sim:fail]" in run.request["query"]
                    and "AI startups" in run.request["query"]]  # fmt: skip
    assert f"agent run(s) {collection} were started" in gone.error["message"]


def test_a_filled_prompt_never_passes_what_research_create_takes() -> None:
    """Websets engine: {{description}} filled from a long page could pass research.create's 20,000
    characters and fail the item's run after the webset was paid for (audit): the description is
    cut to fit, each of its placeholders an equal share, and the rest of the prompt kept whole."""
    from exa_orch.operations.research import CreateResearch

    item = {
        "properties": {
            "url": "https://acme.example",
            "description": "d" * 30_000,
            "company": {"name": "Acme"},
        }
    }
    prompt = "About {{name}} ({{url}}): {{description}} / again: {{description}}. " + "Be precise. " * 1500
    out = verified.fill(prompt, item)
    assert len(out) <= verified.MAX_INSTRUCTIONS < len(prompt.replace("{{description}}", "d" * 30_000))
    assert out.startswith("About Acme (https://acme.example): d") and out.endswith("Be precise. ")
    assert out.count("d" * 100) >= 2  # both placeholders got a share
    CreateResearch.model_validate({"instructions": out})
    short = {
        "properties": {"url": "https://acme.example", "description": "short", "company": {"name": "Acme"}}
    }
    assert verified.fill("{{name}}: {{description}}", short) == "Acme: short"
