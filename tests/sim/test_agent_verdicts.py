"""Agent runs judge criteria as websets do (issue 25): a row's yes/no field whose description is a
criterion gets the world's verdict, and "Satisfies: X" / "Does not satisfy: X" lines in a run's
query pick which entities are searched, never how they are judged."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import httpx

from exa_orch.sim.agent_output import niche_request, topic
from exa_orch.sim.context import SimConfig
from exa_orch.sim.testing import running_sim
from exa_orch.sim.websets import judge

CRITERIA = ["Is based in Europe", "Works in fintech", "Has more than 100 employees"]
VERDICT = {"type": "string", "enum": ["yes", "no", "unclear"]}
SCHEMA = {
    "type": "object",
    "properties": {
        "companies": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "name": {"type": "string"},
                    "url": {"type": "string"},
                    **{f"c{i}": {**VERDICT, "description": c} for i, c in enumerate(CRITERIA)},
                },
            },
        }
    },
}


def world_file(tmp_path: Path) -> Path:
    """3 companies in each niche of CRITERIA, with one page unclear on fintech."""
    entities = []
    for n, bits in enumerate(itertools.product("10", repeat=3)):
        for k in range(3):
            truths = {c: "yes" if b == "1" else "no" for c, b in zip(CRITERIA, bits, strict=True)}
            if n == 0 and k == 0:
                truths["Works in fintech"] = "unclear"
            entities.append({"id": f"co{n}{k}", "name": f"Company {n}-{k}", "url": f"https://co{n}{k}.com",
                             "queries": ["software companies"], "criteria": truths})  # fmt: skip
    path = tmp_path / "w.json"
    path.write_text(json.dumps({"name": "niches", "entities": entities}), encoding="utf-8")
    return path


async def test_row_verdicts_are_the_worlds_and_niche_lines_pick_the_entities(tmp_path: Path) -> None:
    assert niche_request("x\n- Satisfies: A\n- Does not satisfy: B") == [("A", "yes"), ("B", "no")]
    async with (
        running_sim(SimConfig(speed=100.0, world_file=str(world_file(tmp_path)))) as sim,
        httpx.AsyncClient(base_url=sim.url, headers={"x-api-key": "k"}) as http,
    ):

        async def done(body: dict[str, Any]) -> dict[str, Any]:
            created = await http.post("/agent/runs", json={"effort": "low", "outputSchema": SCHEMA, **body})
            assert created.status_code == 200, created.text
            sim.ctx.clock.advance(3600)
            run: dict[str, Any] = (await http.get(f"/agent/runs/{created.json()['id']}")).json()
            assert run["status"] == "completed", run
            return run

        first = await done({"query": "software companies"})  # 10 rows: the file's first 10 pages
        wanted = "software companies\n- Satisfies: Is based in Europe\n- Does not satisfy: Works in fintech"
        targeted = await done({"query": wanted, "previousRunId": first["id"]})
        world = sim.ctx.world
    rows = first["output"]["structured"]["companies"]
    assert [r["url"] for r in rows] == [f"https://co{n}{k}.com" for n in range(4) for k in range(3)][:10]
    for row in rows:
        entity = world.by_url(row["url"])
        assert entity is not None
        assert [row[f"c{i}"] for i in range(3)] == [
            judge.evaluate(world, entity, c)["satisfied"] for c in CRITERIA
        ]
    assert rows[0]["c1"] == "unclear"  # the page unclear on fintech says so
    picked = targeted["output"]["structured"]["companies"]
    assert picked and {r["url"] for r in picked}.isdisjoint(
        {r["url"] for r in rows}
    )  # the chain repeats none
    for row in picked:  # only entities judged yes on Europe and no on fintech, judged as ever
        assert (row["c0"], row["c1"]) == ("yes", "no")
        assert [row[f"c{i}"] for i in range(3)] == [
            judge.evaluate(world, world.by_url(row["url"]), c)["satisfied"]
            for c in CRITERIA  # type: ignore[arg-type]
        ]
    # niches 1,0,1 and 1,0,0 hold co20-co22 and co30-co32; the first run listed all but two
    assert [r["url"] for r in picked] == ["https://co31.com", "https://co32.com"]


async def test_niche_lines_filter_the_ranking_of_the_query_they_follow_never_reorder_it(
    tmp_path: Path,
) -> None:
    assert (
        topic("software companies\nOnly these:\n- Satisfies: A\n- Does not satisfy: B")
        == "software companies"
    )
    assert topic("software companies") == "software companies"
    async with (
        running_sim(SimConfig(speed=100.0, world_file=str(world_file(tmp_path)))) as sim,
        httpx.AsyncClient(base_url=sim.url, headers={"x-api-key": "k"}) as http,
    ):

        async def urls(query: str) -> list[str]:
            body = {"effort": "low", "outputSchema": SCHEMA, "query": query}
            created = await http.post("/agent/runs", json=body)
            assert created.status_code == 200, created.text
            sim.ctx.clock.advance(3600)
            run: dict[str, Any] = (await http.get(f"/agent/runs/{created.json()['id']}")).json()
            return [r["url"] for r in run["output"]["structured"]["companies"]]

        plain = await urls("software companies")
        # the world's declared ranking for "software companies", filtered: the lines add no search
        # words (they would otherwise rank pages naming Europe first), and the rows judged yes on
        # Europe come in the plain ranking's order
        europe = await urls(
            "software companies\nOnly entities that meet all of these:\n- Satisfies: Is based in Europe"
        )
        world = sim.ctx.world
    ranked = [e.url for e in world.search("software companies", limit=len(world.entities))]
    assert plain == ranked[:10]
    in_europe = [
        u for u in ranked if judge.evaluate(world, world.by_url(u), CRITERIA[0])["satisfied"] == "yes"
    ]
    assert europe == in_europe[:10]


async def test_a_query_naming_no_kind_lists_the_kind_its_system_prompt_names() -> None:
    schema = {"type": "object", "properties": {"rows": {"type": "array", "minItems": 5, "maxItems": 5,
              "items": {"type": "object", "properties": {"name": {"type": "string"}, "url": {"type": "string"}}}}}}  # fmt: skip
    async with (
        running_sim(SimConfig(speed=100.0)) as sim,
        httpx.AsyncClient(base_url=sim.url, headers={"x-api-key": "k"}) as http,
    ):

        async def kinds(**body: Any) -> list[str]:
            created = await http.post("/agent/runs", json={"effort": "low", "outputSchema": schema, **body})
            assert created.status_code == 200, created.text
            sim.ctx.clock.advance(3600)
            run: dict[str, Any] = (await http.get(f"/agent/runs/{created.json()['id']}")).json()
            world = sim.ctx.world
            return [world.by_url(r["url"]).kind for r in run["output"]["structured"]["rows"]]  # type: ignore[union-attr]

        anything = await kinds(query="Europe")  # no kind word: the best pages, whatever they are
        people = await kinds(
            query="Europe", systemPrompt="Each row is one person; its url is their profile page."
        )
        papers = await kinds(query="papers about Europe", systemPrompt="Each row is one person.")
    assert set(anything) != {"person"}
    assert people == ["person"] * 5
    assert papers == ["research_paper"] * 5  # the query's own kind word comes first
