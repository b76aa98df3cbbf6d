"""qd.winnow: the scoring on hand-made items, then the whole task on the simulator."""

from __future__ import annotations

import asyncio
import itertools
import json
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from exa_py.websets.types import WebsetEnrichment

from exa_orch.app import App, open_app
from exa_orch.config import Settings
from exa_orch.errors import InvalidParams
from exa_orch.mcp import resources
from exa_orch.runtime import local_principal
from exa_orch.runtime.deps import exa_port_of
from exa_orch.sim.context import FaultConfig, SimConfig
from exa_orch.sim.testing import SimHandle, running_sim
from exa_orch.store import TaskRecord
from exa_orch.workflows import kit
from exa_orch.workflows import winnow as w
from tests.conftest import TEST_SPEED
from tests.support import WAIT, until
from tests.workflows.conftest import OpenApp, agent_runs, run_task, run_tasks
from tests.workflows.loop_probe import LoopProbe

MODULE = "exa_orch.workflows.winnow"
SPECS = [
    {"enrichmentId": "e1", "format": "number", "options": []},
    {"enrichmentId": "e2", "format": "boolean", "options": []},
    {"enrichmentId": "e3", "format": "text", "options": []},
]


def _item(name: str, c1: str, c2: str, e1: str | None, e2: str | None, e3: str | None) -> dict[str, Any]:
    def res(eid: str, value: str | None, status: str = "completed") -> dict[str, Any]:
        return {"enrichmentId": eid, "status": status, "result": [value] if value is not None else None}

    return {
        "id": name,
        "properties": {"url": f"https://{name}.example.com"},
        "evaluations": [{"criterion": "c1", "satisfied": c1}, {"criterion": "c2", "satisfied": c2}],
        "enrichments": [res("e1", e1), res("e2", e2), res("e3", e3)],
    }


A = _item("a", "yes", "yes", "10", "yes", "x")
B = _item("b", "yes", "no", "30", "no", None)
C = _item("c", "no", "unclear", "20", "yes", "y")
D = _item("d", "yes", "yes", None, "yes", "z")  # no number: scores 0 on it


def _candidates() -> list[dict[str, Any]]:
    items = [A, B, C, D]
    return w.classify(items, ["c1", "c2"], w.fitness_scores(items, SPECS))


def test_fitness_normalizes_numbers_and_maps_booleans_and_presence() -> None:
    # number: (v - 10) / (30 - 10) -> A 0, B 1, C 0.5, D missing 0; boolean yes = 1; text present = 1
    assert w.fitness_scores([A, B, C, D], SPECS) == pytest.approx([2 / 3, 1 / 3, 5 / 6, 2 / 3], abs=1e-12)
    pending = {**A, "enrichments": [{**A["enrichments"][1], "status": "pending"}]}
    assert w.fitness_scores([pending], SPECS[1:2]) == [0.0]  # not completed = missing
    assert w.fitness_scores([A, B], SPECS[:1][:0]) == [0.0, 0.0]  # no enrichments: no fitness
    same = [_item(n, "yes", "yes", "7", None, None) for n in "xy"]
    assert w.fitness_scores(same, SPECS[:1]) == [1.0, 1.0]  # all equal numbers: all best
    options = [{"enrichmentId": "e2", "format": "options", "options": ["High", "Low"]}]
    hi, lo = _item("h", "yes", "yes", None, "high", None), _item("l", "yes", "yes", None, "Low", None)
    assert w.fitness_scores([hi, lo], options) == [1.0, 0.0]  # the first listed option = 1


def test_niches_elites_rates_and_strategies() -> None:
    cands = _candidates()
    # bit 1 = yes, 0 = no; C's unclear verdict puts it in no niche: it is listed apart
    assert [c["niche"] for c in cands] == ["1,1", "1,0", "1,1"]
    assert w.unclear_ids([A, B, C, D], ["c1", "c2"]) == ["c"]
    assert cands[1]["criteriaVector"] == [True, False]
    assert w.niche_of(["yes", "no"]) == "1,0" and w.niche_of(["no", "unclear"]) is None
    assert w.niche_key([True, False, True]) == "1,0,1"
    diverse = w.select_elites(cands, "diverse")
    assert [(e["niche"], e["item"]["id"]) for e in diverse] == [("1,1", "a"), ("1,0", "b")]
    no = _item("n", "no", "no", "10", None, None)
    assert [
        e["item"]["id"]
        for e in w.select_elites(w.classify([A, no], ["c1", "c2"], [0.5, 0.5]), "any-criteria")
    ] == ["a"]
    assert [e["item"]["id"] for e in w.select_elites(cands, "all-criteria")] == ["a"]  # a ties d: the earlier
    assert w.success_rates(cands, ["c1", "c2"]) == {"c1": 100.0, "c2": 66.67}
    assert w.distribution(cands) == {"1,1": 2, "1,0": 1}


def _enrichment(id: str, description: str, format: str) -> WebsetEnrichment:
    """A webset enrichment as Exa answers it (exa-py's model)."""
    at = "2026-01-01T00:00:00Z"
    return WebsetEnrichment.model_validate({
        "id": id, "object": "webset_enrichment", "status": "completed", "websetId": "ws", "description": description,
        "format": format, "createdAt": at, "updatedAt": at,
    })  # fmt: skip


def test_verdicts_come_from_the_yes_no_enrichment_per_criterion_when_the_webset_has_them() -> None:
    enrichments = [
        _enrichment("v1", "c1", "options"), _enrichment("v2", "c2", "options"),
        _enrichment("e1", "Number of employees", "number"),
    ]  # fmt: skip
    ids = w.verdict_ids(enrichments, ["c1", "c2"])
    assert ids == {"c1": "v1", "c2": "v2"}
    item = {"id": "x", "evaluations": [{"criterion": "c1", "satisfied": "yes"}], "enrichments": [
        {"enrichmentId": "v1", "status": "completed", "result": ["no"]},
        {"enrichmentId": "v2", "status": "completed", "result": None},  # no answer: unclear
    ]}  # fmt: skip
    assert w.verdicts(item, ["c1", "c2"], ids) == ["no", "unclear"]  # never the search's evaluations
    assert w.verdicts(item, ["c1", "c2"]) == ["yes", "unclear"]  # without ids: the evaluations
    assert w.target_niches(2, {"1,1", "0,0"}) == ["1,0", "0,1"]
    assert w.phrased(["c1", "c2"], "1,0") == [{"description": "c1"}, {"description": "Does not satisfy: c2"}]


def test_entropy_change_archive_and_quality_metrics() -> None:
    assert w.entropy({"1,1": 2, "1,0": 1, "0,0": 1}) == 1.5  # -(.5 log2 .5 + 2 * .25 log2 .25)
    assert w.entropy({"1": 5}) == 0.0 and w.entropy({}) == 0.0
    assert w.entropy({"a": 1, "b": 1, "c": 1, "d": 1}) == 2.0
    a, b, d = _candidates()
    assert w.elite_change([a, b], [d, b]) == 0.666667  # a -> d in niche 1,1: 2 changed of 3
    assert w.elite_change([a, b], [a, b]) == 0.0 and w.elite_change([], []) == 0.0
    assert w.elite_change([], [a]) == 1.0
    metrics = w.quality_metrics(2, {"1,1": 2, "1,0": 1, "0,0": 1}, [a, b, d], found=4, analyzed=16)
    assert metrics == {"coverage": 0.75, "avgFitness": 0.555556, "diversity": 1.5, "stringency": 0.25}
    assert w.quality_metrics(3, {}, [], 0, 0) == {
        "coverage": 0.0,
        "avgFitness": 0.0,
        "diversity": 0.0,
        "stringency": 0.0,
    }


def _company(id: str, name: str, url: str, c1: str, employees: str) -> dict[str, Any]:
    return {
        "id": id,
        "properties": {"type": "company", "url": url, "company": {"name": name}},
        "evaluations": [{"criterion": "c1", "satisfied": c1}],
        "enrichments": [{"enrichmentId": f"{id[:2]}-emp", "status": "completed", "result": [employees]}],
    }


async def test_rounds_that_return_different_items_score_on_one_scale() -> None:
    # Round 1 finds 10..20 employees, round 2 15..100: normalised per round, round 2's 15 would score
    # 0 and round 1's 20 would score 1. On the pooled scale (10..100) the 100 wins niche "1", and
    # Acme found again in round 2 under another URL of its site is one entity (latest niche: "0").
    pool = w.Pool(["c1"], "diverse")
    spec1 = [{"arg": 0, "enrichmentId": "r1-emp", "format": "number", "options": []}]
    spec2 = [{"arg": 0, "enrichmentId": "r2-emp", "format": "number", "options": []}]
    round1 = [
        _company("r1-acme", "Acme", "https://acme.com", "yes", "10"),
        _company("r1-bolt", "Bolt", "https://bolt.eu", "yes", "20"),
    ]
    cands1, archive1 = await pool.add(round1, spec1)
    assert [c["fitnessScore"] for c in cands1] == [0.0, 1.0]
    assert [e["item"]["id"] for e in archive1] == ["r1-bolt"]
    round2 = [
        _company("r2-kite", "Kite", "https://kite.io", "yes", "15"),
        _company("r2-big", "Bigco", "https://bigco.com", "yes", "100"),
        _company("r2-acme", "Acme Inc.", "https://www.acme.com/en/about", "no", "10"),
    ]
    cands2, archive2 = await pool.add(round2, spec2)
    assert [round(c["fitnessScore"], 6) for c in cands2] == [round(5 / 90, 6), 1.0, 0.0]
    assert [(e["niche"], e["item"]["id"]) for e in archive2] == [("1", "r2-big"), ("0", "r2-acme")]
    assert pool.entity_of["r1-acme"] == pool.entity_of["r2-acme"] != pool.entity_of["r1-bolt"]
    assert pool.niches() == {"1": 3, "0": 1}  # Acme counted once, in its latest niche
    assert w.elite_change(archive1, archive2, pool.entity_of) == 1.0
    metrics = w.quality_metrics(1, pool.niches(), archive2, found=5, analyzed=10)
    assert metrics["avgFitness"] == 0.5 and metrics["coverage"] == 1.0


def test_avg_fitness_is_the_mean_of_unrounded_scores() -> None:
    elites = [{"fitnessScore": 1 / 3}, {"fitnessScore": 1 / 3}, {"fitnessScore": 1 / 3}]
    # Rounded scores first (0.333333 * 3 / 3) would give 0.333333 too; 2/3's show the difference:
    twos = [{"fitnessScore": 2 / 3}] * 3 + [{"fitnessScore": 0.0000004}] * 3
    assert w.quality_metrics(1, {}, elites, 0, 0)["avgFitness"] == 0.333333
    assert w.quality_metrics(1, {}, twos, 0, 0)["avgFitness"] == round((2 / 3 + 0.0000004) / 2, 6) == 0.333334


# --- the task on the simulator ------------------------------------------------------------------

CRITERIA = ["Is based in Europe", "Has a strong engineering culture", "Works in healthcare"]
ARGS: dict[str, Any] = {
    "query": "AI startups",
    "entity": {"type": "company"},
    "criteria": [{"description": c} for c in CRITERIA],
    "enrichments": [
        {"description": "Number of employees", "format": "number"},
        {"description": "Is it profitable", "format": "boolean"},
        {"description": "CEO name", "format": "text"},
    ],
    "count": 6,
}


async def _searching(app: App, task_id: str, sim: SimHandle) -> TaskRecord:
    """The task's record once it reports its first search with at least one item found.

    The simulator's clock is held and moved on only until that search has found an item at the
    simulator, then held still until the task reports it: the search cannot end meanwhile, however
    slowly this machine polls (a busy one saw the search already over). The clock then runs at the
    speed it had."""
    speed = sim.ctx.clock.speed
    sim.ctx.clock.set_speed(1e-9)

    async def found_one() -> bool:
        rec = await app.store.get_task(task_id)
        wid = (rec.partial or {}).get("websetId")
        if wid is None:
            return False
        webset = await app.run_operation("websets.get", {"id": wid, "fields": ["all"]})
        if any((s.get("progress") or {}).get("found", 0) >= 1 for s in webset.get("searches") or []):
            return True
        sim.ctx.clock.advance(0.2)
        return False

    seen: list[TaskRecord] = []

    async def reported() -> bool:
        rec = await app.store.get_task(task_id)
        seen[:] = [rec]
        partial, progress = rec.partial or {}, rec.progress or {}
        return (
            partial.get("step") == "searching"
            and partial["found"] >= 1
            and progress.get("step") == "searching"
        )

    await until(found_one, what="the search to find an item")
    await until(reported, what="the task to report the search's first item")
    sim.ctx.clock.set_speed(speed)
    return seen[0]


async def _items(app: App, webset_id: str) -> list[dict[str, Any]]:
    page = await app.run_operation(
        "items.getAll", {"websetId": webset_id, "maxItems": 1000, "fields": ["all"]}
    )
    items: list[dict[str, Any]] = page["data"]
    return items


async def test_winnow_rounds_niches_elites_and_metrics_match_the_simulator(
    research_app: OpenApp, sim: SimHandle
) -> None:
    async with research_app(MODULE) as app:
        done = await run_task(app, "qd.winnow", {**ARGS, "maxRounds": 3, "explore": False})
        assert done.status == "completed", done.error
        result = done.result
        first = result["rounds"][0]
        webset = await app.run_operation("websets.get", {"id": first["websetId"]})
        typed = await exa_port_of(app.deps).get_webset(first["websetId"])  # exa-py's Webset
        items = await _items(app, first["websetId"])
    assert set(result) >= {"rounds", "finalElites", "convergenceReached", "qualityMetrics", "totalDuration"}
    assert webset["status"] == "idle" and first["itemCount"] == len(items) == 6
    assert not set(webset["searches"][0].get("criteria") or []) & set(
        CRITERIA
    )  # round 1 searches the query alone: a webset keeps only items passing its criteria
    found, analyzed = w.search_counts(typed)
    assert (first["found"], first["analyzed"]) == (found, analyzed) and analyzed > found
    # Niches as the yes/no enrichment per criterion says (yes 1, no 0); unclear items apart.
    ids = w.verdict_ids(typed.enrichments, CRITERIA)
    assert sorted(ids) == sorted(CRITERIA)
    niches = [w.niche_of(w.verdicts(i, CRITERIA, ids)) for i in items]
    clear = [(i, n) for i, n in zip(items, niches, strict=True) if n is not None]
    dist = Counter(n for _, n in clear)
    assert first["nicheDistribution"] == dict(dist) and len(dist) >= 2
    assert first["unclearCount"] == niches.count(None) == len(first["unclearItemIds"])
    assert first["criteriaSuccessRates"] == {
        c: round(100 * sum(n.split(",")[k] == "1" for _, n in clear) / len(clear), 2)
        for k, c in enumerate(CRITERIA)
    }
    # One elite per niche (diverse keeps all), the fittest item of its niche among the clear ones.
    fitness_enrichments = [e for e in typed.enrichments if e.id not in ids.values()]
    specs = w.enrichment_specs(fitness_enrichments, [kit.EnrichmentArg(**e) for e in ARGS["enrichments"]])
    assert [s["format"] for s in specs] == ["number", "boolean", "text"]
    fitness = dict(
        zip([i["id"] for i, _ in clear], w.fitness_scores([i for i, _ in clear], specs), strict=True)
    )
    assert sorted(e["niche"] for e in first["elites"]) == sorted(dist)
    for e in first["elites"]:
        peers = [fitness[i["id"]] for i, n in clear if n == e["niche"]]
        assert e["fitnessScore"] == fitness[e["item"]["id"]] == max(peers)
        assert e["criteriaVector"] == [b == "1" for b in e["niche"].split(",")]
    # explore: false repeats the search: round 2 finds the same entities, so the task stops there.
    assert len(result["rounds"]) == 2 and result["convergenceReached"] is True
    assert result["rounds"][1]["eliteChange"] == 0.0 and first["eliteChange"] == 1.0
    assert result["rounds"][1]["websetId"] != first["websetId"]
    assert sim.stats()["creates_by_external_id"] == {
        f"{done.id}:round1.create": 1,
        f"{done.id}:round2.create": 1,
    }
    elites = result["finalElites"]
    assert [e["item"]["id"] for e in elites] == [e["item"]["id"] for e in first["elites"]]
    assert result["qualityMetrics"] == {
        "coverage": round(len(dist) / 8, 6),
        "avgFitness": round(sum(e["fitnessScore"] for e in elites) / len(elites), 6),
        "diversity": w.entropy(dict(dist)),
        "stringency": round(found / analyzed, 6),  # both rounds found and analyzed the same
    }
    assert result["timedOut"] is False and result["totalDuration"] > 0


# A world where all 8 niches of three criteria have members (3 companies each), in file order by
# niche, so the query's first results fill only two niches: what repeated rounds keep finding.
EIGHT_CRITERIA = ["Is based in Europe", "Works in fintech", "Has more than 100 employees"]
TREES = "Alder Birch Cedar Dogwood Elm Fir Ginkgo Hazel Ivy Juniper Larch Maple Nutmeg Oak Pine Quince Rowan Spruce Teak Umbra Willow Yew Zelkova Acacia"


def eight_niche_world() -> dict[str, Any]:
    names = iter(TREES.split())
    entities = []
    for bits in itertools.product("10", repeat=3):
        for _ in range(3):
            n = next(names)
            entities.append({
                "id": n.lower(), "name": f"{n} Systems", "url": f"https://{n.lower()}-systems.com",
                "queries": ["software companies"], "attributes": {"employees": 50 + 37 * len(entities)},
                "criteria": {c: "yes" if b == "1" else "no" for c, b in zip(EIGHT_CRITERIA, bits, strict=True)},
            })  # fmt: skip
    return {"name": "eight-niches", "entities": entities}


EIGHT_ARGS: dict[str, Any] = {
    "query": "software companies", "entity": {"type": "company"},
    "criteria": [{"description": c} for c in EIGHT_CRITERIA],
    "enrichments": [{"description": "Number of employees", "format": "number"}],
    "count": 6, "maxRounds": 3, "convergenceThreshold": 0.0,
}  # fmt: skip


@asynccontextmanager
async def eight_niche_app(
    tmp_path: Path, speed: float = TEST_SPEED, engine: str = "websets"
) -> AsyncIterator[tuple[App, SimHandle]]:
    world = tmp_path / "eight.json"
    world.write_text(json.dumps(eight_niche_world()), encoding="utf-8")
    async with running_sim(SimConfig(speed=speed, world_file=str(world))) as handle:
        settings = Settings(
            exa_url=handle.url,
            simulator=True,
            db_path=tmp_path / "w.db",
            rps=1000.0,
            concurrency=8,
            engine=engine,
        )
        async with open_app(settings, tmp_path / "w.db") as app:
            yield app, handle


async def test_the_pool_and_the_export_resolve_entities_while_the_event_loop_runs_on(
    research_app: OpenApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Resolving a few hundred items takes seconds of CPU on a busy machine: on the event loop it
    holds off the lease renewals until the lease lapses. While each round's pool resolves its items,
    and while tasks.export and the export resource group the result's elites (it kept no grouping),
    the loop runs other callbacks."""
    async with research_app(MODULE) as app:
        probe = LoopProbe.install(monkeypatch)
        done = await run_task(app, "qd.winnow", {**ARGS, "maxRounds": 2, "explore": False})
        pooled = list(probe.answers)
        assert all(pooled), f"a resolution held the event loop: {pooled}"
        assert done.status == "completed", done.error
        await app.run_operation("tasks.export", {"taskId": done.id, "format": "csv"})
        assert app.tasks is not None
        uri = f"exa-orch://tasks/{done.id}/export.md"
        read = await resources.read(app.tasks, uri, local_principal(app.settings))
    rounds = len(done.result["rounds"])
    assert pooled == [True] * (rounds + 1)  # each round's pool, then the entity memory
    assert probe.answers == [True] * (rounds + 3)  # then tasks.export, then the resource
    assert read.text.startswith("#") and done.result["finalElites"]


async def test_exploring_rounds_fill_the_empty_niches_that_repeated_rounds_never_reach(
    tmp_path: Path,
) -> None:
    async with eight_niche_app(tmp_path) as (app, sim):
        explored, repeated = await run_tasks(
            app, ("qd.winnow", EIGHT_ARGS), ("qd.winnow", {**EIGHT_ARGS, "explore": False})
        )
        assert explored.status == repeated.status == "completed", (explored.error, repeated.error)
        second = explored.result["rounds"][1]
        bodies = [await app.run_operation("websets.get", {"id": wid}) for wid in second["websetIds"]]
        first_items = await _items(app, explored.result["rounds"][0]["websetId"])
        first_ids = {i["id"] for i in first_items}
        second_items = [i for wid in second["websetIds"] for i in await _items(app, wid)]
    cover = explored.result["qualityMetrics"]["coverage"], repeated.result["qualityMetrics"]["coverage"]
    print(f"qd.winnow coverage on the eight-niche world: exploring {cover[0]} vs repeated rounds {cover[1]}")
    assert cover[0] * 8 >= 6 and len(explored.result["rounds"]) <= 3
    assert cover[1] == 0.25  # repeated rounds find the first six pages again: niches 1,1,1 and 1,1,0
    # Round 2 asked for exactly the empty niches, one webset each, phrased for its niche and
    # excluding round 1's webset; it returned other items than round 1 (each in its niche).
    assert second["targetNiches"] == ["1,0,1", "1,0,0", "0,1,1", "0,1,0", "0,0,1", "0,0,0"]
    for niche, ws in zip(second["targetNiches"], bodies, strict=True):
        [search] = ws["searches"]
        assert search["criteria"] == [
            c if bit == "1" else f"Does not satisfy: {c}"
            for c, bit in zip(EIGHT_CRITERIA, niche.split(","), strict=True)
        ]
        store = sim.ctx.extras["websets"]
        [sid] = store.websets[ws["id"]].search_ids
        assert store.searches[sid].exclude == [
            {"source": "webset", "id": explored.result["rounds"][0]["websetId"]}
        ]
    assert second_items and not first_ids & {i["id"] for i in second_items}
    assert {i["properties"]["url"] for i in second_items}.isdisjoint(
        {e["item"]["properties"]["url"] for e in explored.result["rounds"][0]["elites"]}
    )
    # Fitness on one scale over both rounds: the employees enrichment min-max normalised over every
    # clear item of rounds 1 and 2 (not per round: round 2's best would score 1 in its own round).
    numbers = {i["id"]: float(i["enrichments"][-1]["result"][0]) for i in [*first_items, *second_items]}
    lo, hi = min(numbers.values()), max(numbers.values())
    for e in explored.result["finalElites"]:
        assert e["fitnessScore"] == pytest.approx((numbers[e["item"]["id"]] - lo) / (hi - lo), abs=1e-12)


async def hold_in_round_two(app: App, sim: SimHandle, task_id: str) -> None:
    """With the simulator's clock frozen (speed ~0) before the task started: move it by hand until
    round 2 begins creating, then leave it frozen, so every round-2 search is still running when
    this returns (its first partial result says round 2 is searching)."""
    store = sim.ctx.extras["websets"]
    for _ in range(int(WAIT / 0.01)):
        # Stop moving time as soon as the simulator holds a round-2 webset (the simulator answers
        # only while this loop sleeps), not when the task's checkpoint says so: on a busy machine
        # that comes later, and the time moved meanwhile could let a small search end.
        steps = await app.store.load_steps(task_id)
        if any(":round2." in str(w.external_id) for w in store.websets.values()):
            break  # checked with no await before the advance: the simulator can't act in between
        if any(k.startswith("round2.") for k in steps):
            break
        sim.ctx.clock.advance(1.0)
        await asyncio.sleep(0.01)
    else:
        raise AssertionError("round 2 never started")

    async def searching() -> bool:
        rec = await app.store.get_task(task_id)
        return bool(rec.partial and rec.partial.get("round") == 2 and rec.partial.get("step") == "searching")

    await until(searching)


async def test_a_restart_mid_exploring_round_sends_the_same_bodies_under_the_same_keys(
    tmp_path: Path,
) -> None:
    world = tmp_path / "eight.json"
    world.write_text(json.dumps(eight_niche_world()), encoding="utf-8")
    async with running_sim(SimConfig(speed=TEST_SPEED, world_file=str(world))) as sim:
        settings = Settings(
            exa_url=sim.url, simulator=True, db_path=tmp_path / "w.db", rps=1000.0, concurrency=8
        )
        async with open_app(settings, tmp_path / "w.db") as app:
            sim.ctx.clock.set_speed(1e-9)  # moved by hand: round 2's websets search while the app stops
            created = await app.run_operation("tasks.create", {"type": "qd.winnow", **EIGHT_ARGS})
            task_id = created["taskId"]
            await hold_in_round_two(app, sim, task_id)
            before = dict(sim.stats()["creates_by_external_id"])
            mid = await app.store.get_task(task_id)
        assert mid.status == "working"  # stopped mid round 2; the next app resumes it
        sim.ctx.clock.set_speed(TEST_SPEED)
        async with open_app(settings, tmp_path / "w.db") as app:
            assert app.supervisor is not None
            done = await app.supervisor.tasks.wait(task_id, timeout=WAIT)
        after = sim.stats()["creates_by_external_id"]
    assert done.status == "completed", done.error
    second = done.result["rounds"][1]
    keys = [f"{task_id}:round1.create"] + [
        f"{task_id}:round2.create.n{n.replace(',', '')}" for n in second["targetNiches"]
    ]
    assert f"{task_id}:round1.create" in before and any(k.startswith(f"{task_id}:round2.") for k in before)
    assert after == dict.fromkeys(keys, 1)  # each body sent once, under its key, across the restart
    assert done.result["qualityMetrics"]["coverage"] == 1.0


async def test_cancel_mid_exploring_round_cancels_every_webset_of_the_round(tmp_path: Path) -> None:
    async with eight_niche_app(tmp_path) as (app, sim):
        sim.ctx.clock.set_speed(1e-9)  # moved by hand: all six round-2 searches still run at the cancel
        created = await app.run_operation("tasks.create", {"type": "qd.winnow", **EIGHT_ARGS})
        task_id = created["taskId"]
        await hold_in_round_two(app, sim, task_id)
        await app.run_operation("tasks.cancel", {"taskId": task_id})
        assert app.supervisor is not None
        done = await app.supervisor.tasks.wait(task_id, timeout=WAIT)
        listed = await app.run_operation("websets.list", {})
    assert done.status == "cancelled"
    store = sim.ctx.extras["websets"]
    round_two = [w["id"] for w in listed["data"] if ":round2." in str(store.websets[w["id"]].external_id)]
    assert len(round_two) == 6  # one per empty niche, every one cancelled (not only the one polled)
    for wid in round_two:
        assert [store.searches[s].canceled_at is not None for s in store.websets[wid].search_ids] == [True]


async def test_on_the_agent_engine_exploring_runs_fill_the_niches_with_the_same_result_shape(
    tmp_path: Path,
) -> None:
    async with eight_niche_app(tmp_path) as (app, sim):
        explored, repeated, on_websets = await run_tasks(
            app,
            ("qd.winnow", {**EIGHT_ARGS, "engine": "agent"}),
            ("qd.winnow", {**EIGHT_ARGS, "engine": "agent", "explore": False}),
            ("qd.winnow", EIGHT_ARGS),
        )
    assert explored.status == repeated.status == on_websets.status == "completed", explored.error
    result = explored.result
    cover = result["qualityMetrics"]["coverage"], repeated.result["qualityMetrics"]["coverage"]
    print(
        f"qd.winnow on the agent engine, eight-niche world: exploring {cover[0]} vs repeated rounds {cover[1]}"
    )
    assert cover[0] * 8 >= 6 and len(result["rounds"]) <= 3 and cover[0] > cover[1]
    # The same shape as on Websets, plus engine; no webset ids, the runs listed instead.
    assert result["engine"] == "agent" and on_websets.result["engine"] == "websets"
    assert set(result) == set(on_websets.result)
    for r, ws in zip(result["rounds"], on_websets.result["rounds"], strict=False):
        assert set(r) - {"runIds"} == set(ws) and r["websetId"] is None and r["websetIds"] is None
        assert r["runIds"] and all(i["item"]["properties"]["url"] for i in r["elites"])
    assert not any(":round" in str(w.external_id) and explored.id in str(w.external_id)
                   for w in sim.ctx.extras["websets"].websets.values())  # fmt: skip
    # Round 2: one run per empty niche, continuing round 1's run, its elites excluded.
    runs = agent_runs(sim)
    [first] = result["rounds"][0]["runIds"]
    second = result["rounds"][1]
    assert second["targetNiches"] == ["1,0,1", "1,0,0", "0,1,1", "0,1,0", "0,0,1", "0,0,0"]
    held = {e["item"]["properties"]["url"] for e in result["rounds"][0]["elites"]}
    for niche, rid in zip(second["targetNiches"], second["runIds"], strict=True):
        request = runs.get(rid).request
        assert request["previousRunId"] == first
        assert request["systemPrompt"] == "Each row is one company; its url is the company's own website."
        assert {x["url"] for x in request["input"]["exclusion"]} == held
        assert "Does not satisfy: " in request["query"] or niche == "1,1,1"
    for e in result["finalElites"]:  # every elite sits in the niche its row's answers say
        assert e["niche"] == ",".join(
            "1" if x["result"] == ["yes"] else "0" for x in e["item"]["enrichments"][:3]
        )


async def test_exa_orch_engine_sets_the_engine_a_task_gets_when_its_args_name_none(tmp_path: Path) -> None:
    async with eight_niche_app(tmp_path, engine="agent") as (app, _):
        default, said = await run_tasks(
            app,
            ("qd.winnow", {**EIGHT_ARGS, "maxRounds": 1}),
            ("qd.winnow", {**EIGHT_ARGS, "maxRounds": 1, "engine": "websets"}),
        )
    assert default.status == said.status == "completed", (default.error, said.error)
    assert default.args["engine"] == "agent" and default.result["engine"] == "agent"  # stored with the task
    import sqlite3

    with sqlite3.connect(tmp_path / "w.db") as conn:
        filed = dict(conn.execute("SELECT task_id, engine FROM workflow_runs").fetchall())
    assert filed == {default.id: "agent", said.id: "websets"}  # the archive compares engines
    assert said.result["engine"] == "websets" and said.result["rounds"][0]["websetId"]


async def test_a_restart_mid_round_on_the_agent_engine_starts_no_run_twice(tmp_path: Path) -> None:
    world = tmp_path / "eight.json"
    world.write_text(json.dumps(eight_niche_world()), encoding="utf-8")
    async with running_sim(SimConfig(speed=TEST_SPEED, world_file=str(world))) as sim:
        settings = Settings(
            exa_url=sim.url, simulator=True, db_path=tmp_path / "w.db", rps=1000.0, concurrency=8
        )
        async with open_app(settings, tmp_path / "w.db") as app:
            created = await app.run_operation(
                "tasks.create", {"type": "qd.winnow", **EIGHT_ARGS, "engine": "agent"}
            )
            task_id = created["taskId"]

            async def round_two_started() -> bool:
                steps = await app.store.load_steps(task_id)
                if any(k.startswith("round2.run") for k in steps):
                    sim.ctx.clock.set_speed(1)  # round 2's runs stay running while the app stops
                    return True
                return False

            await until(round_two_started)
            mid = await app.store.get_task(task_id)
        assert mid.status == "working"
        sim.ctx.clock.set_speed(TEST_SPEED)
        async with open_app(settings, tmp_path / "w.db") as app:
            assert app.supervisor is not None
            done = await app.supervisor.tasks.wait(task_id, timeout=WAIT)
        made = list(agent_runs(sim).runs)
    assert done.status == "completed", done.error
    # round 1's run and round 2's six, each started once: the resumed round found its runs
    assert sorted(made) == sorted(done.result["rounds"][0]["runIds"] + done.result["rounds"][1]["runIds"])
    assert len(made) == 7
    assert done.result["qualityMetrics"]["coverage"] == 1.0


async def test_selection_strategies_keep_the_niches_they_name(tmp_path: Path) -> None:
    async with eight_niche_app(tmp_path) as (app, _):
        base = {**EIGHT_ARGS, "count": 24, "maxRounds": 1}  # all 24 pages: every niche populated
        anyc, allc = await run_tasks(
            app,
            ("qd.winnow", {**base, "selectionStrategy": "any-criteria"}),
            ("qd.winnow", {**base, "selectionStrategy": "all-criteria"}),
        )
    assert anyc.status == allc.status == "completed"
    dist = anyc.result["rounds"][0]["nicheDistribution"]
    assert len(dist) == 8 and dist["0,0,0"] == 3
    assert sorted(e["niche"] for e in anyc.result["finalElites"]) == sorted(set(dist) - {"0,0,0"})
    assert [e["niche"] for e in allc.result["finalElites"]] == ["1,1,1"]
    assert allc.result["convergenceReached"] is False  # one round: nothing to converge on


@pytest.mark.parametrize(
    ("bad", "field"),
    [
        ({"maxRounds": 0}, "maxRounds"),
        ({"selectionStrategy": "best"}, "selectionStrategy"),
        ({"critera": []}, "critera"),
        ({"criteria": []}, "criteria"),
        ({"enrichments": [{"description": "Tier", "format": "options"}]}, "enrichments"),
        ({"convergenceThreshold": 2}, "convergenceThreshold"),
        # every item answering an option repeats its label: a 1 MB label stalled the server (audit)
        (
            {
                "enrichments": [
                    {"description": "Tier", "format": "options", "options": [{"label": "x" * 1001}]}
                ]
            },
            "enrichments.0.options.0.label",
        ),
    ],
)
async def test_bad_args_are_refused_before_any_task_exists(
    research_app: OpenApp, sim: SimHandle, bad: dict[str, Any], field: str
) -> None:
    async with research_app(MODULE) as app:
        with pytest.raises(InvalidParams) as refused:
            await app.run_operation("tasks.create", {"type": "qd.winnow", **ARGS, **bad})
        listed, _ = await app.store.list_tasks()
    assert any(field in f for f in refused.value.fields), refused.value.to_dict()
    assert listed == [] and sim.stats()["creates_by_external_id"] == {}


async def test_a_restarted_server_resumes_the_round_without_a_second_webset(
    research_app: OpenApp, sim: SimHandle
) -> None:
    sim.ctx.clock.set_speed(10)  # slow enough to stop the app mid-search
    async with research_app(MODULE) as app:
        created = await app.run_operation("tasks.create", {"type": "qd.winnow", **ARGS})
        mid = await _searching(app, created["taskId"], sim)
    assert mid.status == "working" and mid.progress and mid.progress["step"] == "searching"
    partial = mid.partial
    assert partial["round"] == 1 and partial["analyzed"] >= partial["found"] >= 1
    assert partial["stringency"] == round(partial["found"] / partial["analyzed"], 6)
    assert f"found {partial['found']} of {partial['analyzed']} analyzed" in mid.progress["message"]
    sim.ctx.clock.set_speed(100)
    async with research_app(MODULE) as app:
        assert app.supervisor is not None
        done = await app.supervisor.tasks.wait(created["taskId"], timeout=WAIT)
        listed = await app.run_operation("websets.list", {})
    assert done.status == "completed", done.error
    assert done.result["rounds"][0]["websetId"] == partial["websetId"]
    assert done.result["rounds"][0]["itemCount"] == 6
    assert sim.stats()["creates_by_external_id"] == {f"{done.id}:round1.create": 1}
    assert len(listed["data"]) == 1


async def test_cancel_mid_search_cancels_the_webset(research_app: OpenApp, sim: SimHandle) -> None:
    sim.ctx.clock.set_speed(10)
    async with research_app(MODULE) as app:
        created = await app.run_operation("tasks.create", {"type": "qd.winnow", **ARGS})
        mid = await _searching(app, created["taskId"], sim)
        await app.run_operation("tasks.cancel", {"taskId": created["taskId"]})
        assert app.supervisor is not None
        done = await app.supervisor.tasks.wait(created["taskId"], timeout=WAIT)
        webset = await app.run_operation("websets.get", {"id": mid.partial["websetId"]})
    assert done.status == "cancelled"
    assert [s["status"] for s in webset["searches"]] == ["canceled"]


async def test_a_timeout_scores_the_items_found_so_far(research_app: OpenApp, sim: SimHandle) -> None:
    # Simulated time held: the search can't finish however late a busy machine notices the 0.6 s
    # timeout; once the webset is made, the clock moves 4 simulated seconds: some items, not all.
    sim.ctx.clock.set_speed(1e-9)
    async with research_app(MODULE) as app:
        created = await app.run_operation(
            "tasks.create", {"type": "qd.winnow", **ARGS, "maxRounds": 2, "timeout": 600}
        )

        def webset_made() -> bool:
            return any(
                e["method"] == "POST" and e["path"] == "/websets/v0/websets" and e["t_end"] is not None
                for e in sim.log()
            )

        await until(webset_made)
        sim.ctx.clock.advance(4.0)
        assert app.supervisor is not None
        done = await app.supervisor.tasks.wait(created["taskId"], timeout=WAIT)
        assert done.status == "completed", done.error
        first = done.result["rounds"][0]
        webset = await app.run_operation("websets.get", {"id": first["websetId"]})
        items = await _items(app, first["websetId"])
    result = done.result
    assert result["timedOut"] is True and first["timedOut"] is True and len(result["rounds"]) == 1
    assert first["websetId"] in result["timedOutNote"] and webset["status"] == "running"
    assert first["itemCount"] < 6 and first["itemCount"] <= len(items)
    assert sum(first["nicheDistribution"].values()) + first["unclearCount"] == first["itemCount"]


async def test_a_paused_webset_ends_the_round_with_a_typed_error_naming_it(
    research_app: OpenApp, sim: SimHandle
) -> None:
    sim.ctx.clock.set_speed(1e-6)  # simulated time moves only when the test moves it
    async with research_app(MODULE) as app:
        created = await app.run_operation("tasks.create", {"type": "qd.winnow", **ARGS})
        mid = await _searching(app, created["taskId"], sim)
        sim.set_faults(FaultConfig(webset_status="paused"))  # Exa paused it: no idle by itself
        assert app.supervisor is not None
        done = await app.supervisor.tasks.wait(created["taskId"], timeout=WAIT)
    assert done.status == "failed" and done.error
    assert done.error["code"] == "WEBSET_NOT_RUNNING" and "paused" in done.error["message"]
    assert mid.partial["websetId"] in done.error["message"]


async def test_an_exa_error_fails_the_task_naming_the_webset(research_app: OpenApp, sim: SimHandle) -> None:
    sim.ctx.clock.set_speed(10)
    async with research_app(MODULE) as app:
        created = await app.run_operation("tasks.create", {"type": "qd.winnow", **ARGS})
        mid = await _searching(app, created["taskId"], sim)
        await app.run_operation("websets.delete", {"id": mid.partial["websetId"]})  # gone at Exa
        assert app.supervisor is not None
        done = await app.supervisor.tasks.wait(created["taskId"], timeout=WAIT)
    assert done.status == "failed" and done.error
    assert done.error["code"] == "RESOURCE_NOT_FOUND"
    assert mid.partial["websetId"] in done.error["message"]
