"""adversarial.verify on the whole app and the simulator: shapes, synthesis, resume, cancel, timeouts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from exa_orch.errors import InvalidParams
from exa_orch.exa.port import agent_run
from exa_orch.gateway import agent_runs
from exa_orch.operations.research import CreateResearch
from exa_orch.sim.testing import SimHandle
from exa_orch.store import Store
from exa_orch.workflows import adversarial, rows
from exa_orch.workflows.adversarial import SIDES
from tests.support import WAIT, until_steps
from tests.workflows.conftest import OpenApp, run_task

MODULE = "exa_orch.workflows.adversarial"
TYPE = "adversarial.verify"
ARGS: dict[str, Any] = {
    "thesis": "European AI startups are well funded",
    "thesisQuery": "well funded AI startups in Europe",
    "antithesisQuery": "AI startups in Europe that struggled to raise funding",
    "entity": {"type": "company"},
    "count": 3,
    "timeout": 20_000,
}


def _websets(sim: SimHandle) -> Any:
    return sim.ctx.extras["websets"]


def _runs(sim: SimHandle) -> dict[str, Any]:
    runs: dict[str, Any] = sim.ctx.extras["agent"].runs
    return runs


async def test_both_sides_and_a_synthesis_from_a_research_run(research_app: OpenApp, sim: SimHandle) -> None:
    enrich = [{"description": "total funding raised in USD", "format": "number"}]
    async with research_app(MODULE) as app:
        done = await run_task(app, TYPE, {**ARGS, "enrichments": enrich, "synthesize": True})
    assert done.status == "completed", done.error
    result = done.result
    assert set(result) == {"engine", "thesis", "antithesis", "synthesis", "duration", "citationCheck"}
    assert result["engine"] == "websets"
    store = _websets(sim)
    assert result["thesis"]["websetId"] != result["antithesis"]["websetId"]
    for side, query in (("thesis", ARGS["thesisQuery"]), ("antithesis", ARGS["antithesisQuery"])):
        got = result[side]
        webset = store.websets[got["websetId"]]  # a real webset at the sim, with that side's query
        assert webset.external_id == f"{done.id}:{side}.webset"
        assert store.searches[webset.search_ids[0]].query == query
        assert got["itemCount"] == len(got["items"]) == len(webset.items) == 3
        assert [i["id"] for i in got["items"]] == [i.id for i in webset.items]
        assert all(i["enrichments"][0]["format"] == "number" for i in got["items"])
        assert "timedOut" not in got
    assert isinstance(result["duration"], int) and result["duration"] > 0

    synthesis = result["synthesis"]
    run = _runs(sim)[synthesis["researchId"]]  # the one agent run the task started
    assert len(_runs(sim)) == 1
    prompt = run.request["query"]
    assert prompt.startswith(f'Given supporting evidence for the thesis "{ARGS["thesis"]}":')
    assert "And counter-evidence:" in prompt and "identified blind spots." in prompt
    for side in ("thesis", "antithesis"):  # every item is summarized on its side of the prompt
        assert all(i["properties"]["url"] in prompt for i in result[side]["items"])
    schema = run.request["outputSchema"]
    assert set(schema["required"]) == {
        "verdict",
        "confidence",
        "keySupporting",
        "keyCountering",
        "blindSpots",
    }
    assert synthesis["verdict"] in adversarial.VERDICTS
    assert 0 <= synthesis["confidence"] <= 1
    for key in ("keySupporting", "keyCountering", "blindSpots"):
        assert synthesis[key] and all(isinstance(s, str) for s in synthesis[key])
    assert "error" not in synthesis
    assert done.progress is not None
    assert (done.progress["step"], done.progress["completed"], done.progress["total"]) == ("synthesis", 5, 5)
    assert done.progress["message"] == f"synthesis: {synthesis['verdict']}"


async def test_bad_args_are_refused_before_any_task_is_written(research_app: OpenApp) -> None:
    async with research_app(MODULE) as app:
        bad: list[tuple[dict[str, Any], str]] = [
            ({k: v for k, v in ARGS.items() if k != "antithesisQuery"}, "antithesisQuery"),
            ({**ARGS, "count": 0}, "count"),
            ({**ARGS, "thesisquery": "typo"}, "thesisquery"),
            ({**ARGS, "enrichments": [{"description": "stage", "format": "options"}]}, "enrichments"),
            ({**ARGS, "timeout": -5}, "timeout"),
            # Exa takes a custom entity's description of 2-200 characters: refused here, not at Exa
            ({**ARGS, "entity": {"type": "custom", "description": "x" * 201}}, "entity.description"),
            ({**ARGS, "entity": {"type": "custom", "description": " x "}}, "entity"),
        ]
        for args, field in bad:
            with pytest.raises(InvalidParams) as caught:
                await app.run_operation("tasks.create", {"type": TYPE, **args})
            assert field in str(caught.value.to_dict()), (field, caught.value.to_dict())
        assert (await app.run_operation("tasks.list", {}))["tasks"] == []


async def test_a_restart_mid_synthesis_resumes_without_duplicates(
    research_app: OpenApp, sim: SimHandle
) -> None:
    sim.ctx.clock.set_speed(20)  # a research run takes ~1 s of wall time: room to stop in it
    async with research_app(MODULE) as app:
        created = await app.run_operation("tasks.create", {"type": TYPE, **ARGS, "synthesize": True})
        task_id = created["taskId"]
        await until_steps(app.store, task_id, "synthesis.create")
        record = await app.store.get_task(task_id)
        assert record.status == "working"
        # Both sides are readable (tasks.get's partial result) while the synthesis runs.
        assert record.partial["partial"] is True and "synthesis" not in record.partial
        assert record.partial["thesis"]["itemCount"] == record.partial["antithesis"]["itemCount"] == 3
        assert "synthesis.poll" not in await app.store.load_steps(task_id)  # stopped mid-synthesis
    runs_before = set(_runs(sim))
    websets_before = set(_websets(sim).websets)
    assert len(runs_before) == 1 and len(websets_before) == 2

    async with research_app(MODULE) as app:
        assert app.supervisor is not None
        done = await app.supervisor.tasks.wait(task_id, timeout=WAIT)
    assert done.status == "completed", done.error
    assert set(_runs(sim)) == runs_before and set(_websets(sim).websets) == websets_before
    assert done.result["synthesis"]["researchId"] in runs_before
    assert done.result["thesis"]["itemCount"] == 3 and done.result["antithesis"]["itemCount"] == 3
    creates = sim.stats()["creates_by_external_id"]
    assert all(n == 1 for n in creates.values()) and len(creates) == 2  # the websets
    assert sim.stats()["creates_by_kind"] == {"webset": 2, "agent_run": 1}


async def test_cancel_mid_run_cancels_both_websets_at_the_sim(research_app: OpenApp, sim: SimHandle) -> None:
    sim.ctx.clock.set_speed(1)  # searches take seconds: the task is surely waiting when cancelled
    async with research_app(MODULE) as app:
        created = await app.run_operation("tasks.create", {"type": TYPE, **ARGS, "count": 20})
        task_id = created["taskId"]
        await until_steps(app.store, task_id, "antithesis.webset")
        cancelled = await app.run_operation("tasks.cancel", {"taskId": task_id})
        assert app.supervisor is not None
        done = await app.supervisor.tasks.wait(task_id, timeout=WAIT)
    assert done.status == "cancelled", (cancelled, done.error)
    store = _websets(sim)
    assert len(store.websets) == 2
    for webset in store.websets.values():
        search = store.searches[webset.search_ids[0]]
        assert search.canceled_reason == "webset_canceled"


async def test_a_cancel_while_nobody_runs_the_task_cancels_its_research_run(
    research_app: OpenApp, sim: SimHandle, tmp_path: Path
) -> None:
    sim.ctx.clock.set_speed(20)
    async with research_app(MODULE) as app:
        created = await app.run_operation("tasks.create", {"type": TYPE, **ARGS, "synthesize": True})
        task_id = created["taskId"]
        await until_steps(app.store, task_id, "synthesis.create")
        sim.ctx.clock.set_speed(1)  # the run now needs ~20 s more: it is running when cancelled
    (run,) = _runs(sim).values()
    async with Store(tmp_path / "workflows.db") as store:  # the server is down: the request waits
        await store.request_cancel(task_id)
    # The next server replays the checkpoints to the first live step, so the hook that cancels the
    # research run is registered again (it is registered right after the synthesis.create step).
    async with research_app(MODULE) as app:
        assert app.supervisor is not None
        done = await app.supervisor.tasks.wait(task_id, timeout=WAIT)
    assert done.status == "cancelled"
    assert run.frozen_status == "cancelled"
    assert len(_runs(sim)) == 1 and len(_websets(sim).websets) == 2


async def test_timeouts_return_partial_sides_and_a_synthesis_error(
    research_app: OpenApp, sim: SimHandle
) -> None:
    sim.ctx.clock.set_speed(1)  # nothing finishes within the 300 ms waits
    async with research_app(MODULE) as app:
        done = await run_task(app, TYPE, {**ARGS, "count": 20, "timeout": 300, "synthesize": True})
    assert done.status == "completed", done.error
    result = done.result
    assert result["partial"] is True
    store = _websets(sim)
    for side in ("thesis", "antithesis"):
        got = result[side]
        assert got["timedOut"] is True and got["itemCount"] == len(got["items"]) < 20
        assert store.websets[got["websetId"]].busy  # still searching at Exa
    synthesis = result["synthesis"]
    assert synthesis["researchId"] in _runs(sim)
    assert synthesis["timedOut"] is True and synthesis["error"]["code"] == "SYNTHESIS_TIMEOUT"
    assert synthesis["researchId"] in synthesis["error"]["message"]


async def test_a_failed_synthesis_keeps_both_sides(research_app: OpenApp, sim: SimHandle) -> None:
    args = {**ARGS, "thesis": "AI startups thrive [sim:fail]", "synthesize": True}
    async with research_app(MODULE) as app:
        done = await run_task(app, TYPE, args)
    assert done.status == "completed", done.error
    synthesis = done.result["synthesis"]
    assert synthesis["researchId"] in _runs(sim) and synthesis["status"] == "failed"
    assert synthesis["error"]["code"] == "SERVER_ERROR" and "[sim:fail]" in synthesis["error"]["message"]
    assert done.result["thesis"]["itemCount"] == 3 and done.result["antithesis"]["itemCount"] == 3


async def test_an_exa_error_fails_the_task_naming_the_websets(research_app: OpenApp, sim: SimHandle) -> None:
    sim.ctx.clock.set_speed(1)
    async with research_app(MODULE) as app:
        created = await app.run_operation("tasks.create", {"type": TYPE, **ARGS, "count": 20})
        task_id = created["taskId"]
        await until_steps(app.store, task_id, "antithesis.webset")
        ids = [w.id for w in _websets(sim).websets.values()]
        await app.run_operation("websets.delete", {"id": ids[0]})  # the thesis wait now gets a 404
        assert app.supervisor is not None
        done = await app.supervisor.tasks.wait(task_id, timeout=WAIT)
    assert done.status == "failed"
    assert done.error is not None and done.error["code"] == "RESOURCE_NOT_FOUND"
    assert all(i in done.error["message"] for i in ids)


async def _run(run_id: str, output: dict[str, Any]) -> Any:
    return await agent_run({"id": run_id, "object": "agent_run", "status": "completed", "output": output})


async def test_confidence_and_lists_are_normalized() -> None:
    run = await _run("r1", {"structured": {"verdict": "refuted", "confidence": 72, "keySupporting": "one"}})
    got = adversarial.synthesis_from_run(run)
    assert got["researchId"] == "r1" and got["confidence"] == 0.72
    assert got["keySupporting"] == ["one"] and got["blindSpots"] == []
    assert got["verdict"] == "refuted" and "verdictUnrecognized" not in got
    odd = adversarial.synthesis_from_run(
        await _run("r3", {"structured": {"verdict": "Mostly True", "confidence": 150}})
    )
    assert odd["verdict"] == "inconclusive" and odd["verdictUnrecognized"] == "Mostly True"
    assert odd["confidence"] is None  # 150 is on no scale
    scale = adversarial.confidence_0_1
    assert [scale(v) for v in (0, 0.35, 1, 1.0, 35, 100, "72%", " 0.4 ", "0.5%")] == [
        0.0, 0.35, 1.0, 1.0, 0.35, 1.0, 0.72, 0.4, 0.005,
    ]  # fmt: skip
    assert [scale(v) for v in (-0.1, 100.5, float("nan"), True, None, "high", [0.5])] == [None] * 7
    prompt = adversarial.synthesis_prompt("t", [], [])
    assert adversarial.CONFIDENCE_SCALE in prompt
    assert (
        adversarial.CONFIDENCE_SCALE
        in adversarial.SYNTHESIS_SCHEMA["properties"]["confidence"]["description"]
    )
    prose = adversarial.synthesis_from_run(await _run("r2", {"text": "prose"}))
    assert prose["error"]["code"] == "SYNTHESIS_UNSTRUCTURED" and prose["text"] == "prose"
    items = [
        {"id": f"i{n}", "properties": {"url": f"https://x{n}.com", "description": "d" * 500}}
        for n in range(90)
    ]
    text = adversarial.summarize(items)
    assert len(text) <= adversarial.SIDE_PROMPT_CHARS + 100 and "more items not shown" in text


# --- the agent engine (issue 25) -------------------------------------------------------------------


async def test_on_the_agent_engine_each_side_is_a_collection_and_the_synthesis_reads_every_row(
    research_app: OpenApp, sim: SimHandle
) -> None:
    # 30 rows a side: more than one run's chunk (25), and far more than the 8,000 characters a side
    # the Websets prompt keeps; the synthesis gets every row whole, as input.data.
    enrich = [{"description": "total funding raised in USD", "format": "number"}]
    args = {**ARGS, "count": 30, "enrichments": enrich, "synthesize": True, "engine": "agent"}
    async with research_app(MODULE) as app:
        done = await run_task(app, TYPE, args)
    assert done.status == "completed", done.error
    result = done.result
    assert set(result) == {"engine", "thesis", "antithesis", "synthesis", "duration", "citationCheck"}
    assert result["engine"] == "agent" and not _websets(sim).websets  # no webset at Exa
    runs = _runs(sim)
    urls: dict[str, list[str]] = {}
    for side, query in (("thesis", ARGS["thesisQuery"]), ("antithesis", ARGS["antithesisQuery"])):
        got = result[side]
        assert got["websetId"] is None and set(got) == {"websetId", "runIds", "items", "itemCount"}
        first, *more = got["runIds"]
        assert more, "30 rows are asked of more than one run"
        assert runs[first].request["query"] == query
        assert runs[first].request["systemPrompt"] == rows.entity_prompt(ARGS["entity"])  # what a row is
        assert runs[first].request["outputSchema"]["properties"]["rows"]["maxItems"] == 25
        for previous, rid in zip(got["runIds"], more, strict=False):  # continued, rows held excluded
            assert runs[rid].request["previousRunId"] == previous
        assert got["itemCount"] == len(got["items"]) == 30
        urls[side] = [i["properties"]["url"] for i in got["items"]]
        assert all(urls[side]) and len(set(urls[side])) == 30
        assert all(i["enrichments"][0]["enrichmentId"] == "field0" for i in got["items"])
    synthesis = result["synthesis"]
    run = runs[synthesis["researchId"]]
    data = run.request["input"]["data"]
    assert [(r["side"], r["url"]) for r in data] == [("thesis", u) for u in urls["thesis"]] + [
        ("antithesis", u) for u in urls["antithesis"]
    ]
    assert all(r["fields"]["total funding raised in USD"] for r in data if "fields" in r)
    prompt = run.request["query"]
    assert f'"{ARGS["thesis"]}"' in prompt and '30 rows with side "thesis"' in prompt
    assert not any(u in prompt for u in urls["thesis"])  # the rows are data, not prompt text
    assert run.request["outputSchema"] == adversarial.SYNTHESIS_SCHEMA
    assert synthesis["verdict"] in adversarial.VERDICTS and 0 <= synthesis["confidence"] <= 1
    assert "error" not in synthesis
    total = len(result["thesis"]["runIds"]) + len(result["antithesis"]["runIds"]) + 1
    assert len(runs) == total


async def test_on_the_agent_engine_a_restart_mid_synthesis_sends_nothing_twice(
    research_app: OpenApp, sim: SimHandle
) -> None:
    sim.ctx.clock.set_speed(20)
    args = {**ARGS, "synthesize": True, "engine": "agent"}
    async with research_app(MODULE) as app:
        created = await app.run_operation("tasks.create", {"type": TYPE, **args})
        task_id = created["taskId"]
        await until_steps(app.store, task_id, "antithesis.wait")
        sim.ctx.clock.set_speed(0.001)  # held: the synthesis run can't finish however slow the box
        steps = await until_steps(app.store, task_id, "synthesis.create")
        record = await app.store.get_task(task_id)
        assert record.partial["engine"] == "agent" and record.partial["thesis"]["websetId"] is None
        assert "synthesis.poll" not in await app.store.load_steps(task_id)
    before = {rid: run.request for rid, run in _runs(sim).items()}
    assert len(before) == 3  # a run a side and the synthesis
    sim.ctx.clock.set_speed(20)
    async with research_app(MODULE) as app:
        assert app.supervisor is not None
        done = await app.supervisor.tasks.wait(task_id, timeout=WAIT)
    assert done.status == "completed", done.error
    assert {rid: run.request for rid, run in _runs(sim).items()} == before  # nothing sent again
    assert done.result["synthesis"]["researchId"] == steps["synthesis.create"]["researchId"]
    assert done.result["thesis"]["runIds"] == [steps["thesis.run"]["researchId"]]
    assert sim.stats()["creates_by_kind"] == {"agent_run": 3}


async def test_on_the_agent_engine_a_failed_run_fails_the_task_naming_the_runs(
    research_app: OpenApp, sim: SimHandle
) -> None:
    args = {**ARGS, "antithesisQuery": "AI startups that struggled [sim:fail]", "engine": "agent"}
    async with research_app(MODULE) as app:
        done = await run_task(app, TYPE, args)
    assert done.status == "failed" and done.error is not None
    assert all(rid in done.error["message"] for rid in _runs(sim))
    assert "research.get" in done.error["message"]


async def test_on_the_agent_engine_timeouts_return_the_rows_so_far_and_a_synthesis_error(
    research_app: OpenApp, sim: SimHandle
) -> None:
    sim.ctx.clock.set_speed(1)  # no run finishes within the 300 ms waits
    args = {**ARGS, "count": 20, "timeout": 300, "synthesize": True, "engine": "agent"}
    async with research_app(MODULE) as app:
        done = await run_task(app, TYPE, args)
    assert done.status == "completed", done.error
    result = done.result
    assert result["partial"] is True and result["engine"] == "agent"
    for side in ("thesis", "antithesis"):
        got = result[side]
        assert got["timedOut"] is True and got["itemCount"] == len(got["items"]) == 0
        [rid] = got["runIds"]
        assert _runs(sim)[rid].frozen_status is None  # still running at Exa
    synthesis = result["synthesis"]
    assert synthesis["timedOut"] is True and synthesis["error"]["code"] == "SYNTHESIS_TIMEOUT"
    assert "input" not in _runs(sim)[synthesis["researchId"]].request  # no rows to weigh


def test_synthesis_evidence_past_one_runs_input_is_cut_a_side_at_a_time() -> None:
    """Agent engine: both sides' rows go whole as the synthesis's input.data while they fit one run's
    input (agent_runs.MAX_INPUT_CHARS); past it, the sides give rows in turn and the prompt says how
    many were left out, so a long collection never turns the synthesis into a refused request."""
    small = [
        {"side": side, "name": f"{side} {i}", "url": f"https://{side}{i}.example"}
        for side in SIDES
        for i in range(3)
    ]
    assert adversarial.fit_evidence(small) == small
    big = [{"side": "thesis", "description": "t" * 300_000, "url": f"https://t{i}.example"} for i in range(5)]
    big += [
        {"side": "antithesis", "description": "a" * 300_000, "url": f"https://a{i}.example"} for i in range(2)
    ]
    sent = adversarial.fit_evidence(big)
    assert [r["url"] for r in sent] == ["https://t0.example", "https://t1.example", "https://a0.example"]
    assert agent_runs.input_chars({"data": sent}) <= agent_runs.MAX_INPUT_CHARS
    CreateResearch.model_validate({"instructions": "x", "input": {"data": sent}})  # research.create takes it
    many = [
        {"side": SIDES[i % 2], "url": f"https://r{i}.example"} for i in range(2 * agent_runs.MAX_INPUT_ROWS)
    ]
    assert len(adversarial.fit_evidence(many)) == agent_runs.MAX_INPUT_ROWS
    prompt = adversarial.rows_prompt("T", sent, len(big) - len(sent))
    assert "2 rows with side" in prompt and "4 more rows were found but left out" in prompt
