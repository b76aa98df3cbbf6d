"""The world speaks the language of real queries (issue 35): companies with several attributes,
conjunctive criteria of the kind Exa's docs show, multi-word places, and a search that says when
the world can only guess. Through the real HTTP simulator where a webset is involved."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from exa_orch.sim import facets
from exa_orch.sim.context import SimConfig
from exa_orch.sim.testing import SimHandle, running_sim
from exa_orch.sim.websets import judge
from exa_orch.sim.websets.timing import PROFILES, REAL_TIMELINE, busy_until
from exa_orch.sim.world import World
from tests.support import WAIT

W = "/websets/v0"
REAL = Path(__file__).resolve().parents[1] / "fixtures" / "real"


def client(sim: SimHandle) -> httpx.AsyncClient:
    return httpx.AsyncClient(base_url=sim.url, headers={"x-api-key": "test"}, timeout=WAIT)


async def idle_webset(sim: SimHandle, http: httpx.AsyncClient, body: dict[str, Any]) -> dict[str, Any]:
    """Create a webset with the clock held, move the clock past its end, read it with its items."""
    sim.ctx.clock.set_speed(1e-9)
    created = (await http.post(f"{W}/websets", json=body)).json()
    ws = sim.ctx.extras["websets"].websets[created["id"]]
    sim.ctx.clock.advance(busy_until(sim.ctx.extras["websets"], ws) - sim.ctx.clock.now() + 1)
    got = (await http.get(f"{W}/websets/{created['id']}", params={"expand": "items"})).json()
    assert got["status"] == "idle"
    return dict(got)


async def test_a_count_12_webset_with_two_criteria_of_the_docs_kind_finds_12(sim: SimHandle) -> None:
    criteria = ["raised a Series B round", "builds infrastructure for AI models"]
    body = {"search": {"query": "AI infrastructure startups", "count": 12, "entity": {"type": "company"},
                       "criteria": [{"description": c} for c in criteria]}}  # fmt: skip
    async with client(sim) as http:
        got = await idle_webset(sim, http, body)
    items = got["items"]
    assert len(items) == 12
    world = sim.ctx.world
    for item in items:
        assert [e["satisfied"] for e in item["evaluations"]] == ["yes", "yes"]
        entity = world.by_url(item["properties"]["url"])
        assert any(r["round"] == "Series B" for r in entity.attrs["funding_rounds"])
        assert "Artificial Intelligence" in entity.attrs["industries"]
        assert set(entity.attrs["industries"]) & set(facets.AI_STACK)


@pytest.mark.parametrize(
    ("query", "place"),
    [
        ("AI startups in San Francisco", "San Francisco"),
        ("fintech companies in New York founded after 2018", "New York"),
        ("startups in the United Kingdom building with Rust", "United Kingdom"),
        ("Marketing agencies based in the US, that focus on consumer products", "United States"),
    ],
)
async def test_a_place_of_several_words_stays_one_criterion(sim: SimHandle, query: str, place: str) -> None:
    async with client(sim) as http:
        preview = (await http.post(f"{W}/websets/preview", json={"search": {"query": query}})).json()
    criteria = [c["description"] for c in preview["search"]["criteria"]]
    assert f"Is based in {place}" in criteria, criteria
    others = [c for c in criteria if c != f"Is based in {place}"]
    assert not any(word in c for c in others for word in place.split()), criteria


def test_the_docs_example_queries_become_the_facets_they_name() -> None:
    got = facets.read("AI startups in Europe that raised Series A funding in 2024")
    assert (got.industries, got.places, got.round, got.round_year) == (
        ("Artificial Intelligence",), ("Europe",), "Series A", 2024,
    )  # fmt: skip
    got = facets.read("SaaS companies with 50-200 employees in the fintech space")
    assert got.industries == ("Fintech",) and got.employees == (50, 200) and got.leftover == ("saas",)
    got = facets.read("AI infrastructure startups that raised Series B in 2025")
    assert got.any_of == facets.AI_STACK and (got.round, got.round_year) == ("Series B", 2025)
    # Each criterion decompose writes reads back to the facet it came from.
    for criterion in judge.criteria_for(
        facets.read("fintech startups in New York with more than 40 employees")
    ):
        assert not facets.read(criterion).empty, criterion


def test_a_company_has_the_attributes_a_real_one_has_and_its_page_says_them() -> None:
    world = World.seeded(42)
    companies = [e for e in world.of_kind("company") if "duplicate_of" not in e.attrs]
    assert len(companies) >= 1000
    several = sum(len(c.attrs["industries"]) > 1 for c in companies)
    assert several > len(companies) / 3  # many work in more than one industry
    for c in companies[:50]:
        a = c.attrs
        assert a["location"] == f"{a['city']}, {a['country']}" and a["region"] and a["technologies"]
        assert all(a["founded"] <= r["year"] <= 2025 for r in a["funding_rounds"])
        assert a["funding"] == sum(r["amount"] for r in a["funding_rounds"])
        for fact in (a["city"], a["country"], *a["technologies"], *(r["round"] for r in a["funding_rounds"])):
            assert fact in c.text, (fact, c.text)


async def test_a_query_the_world_can_only_guess_says_so_in_the_search(sim: SimHandle) -> None:
    body = {"search": {"query": "companies with a dog-friendly office", "count": 5}}
    async with client(sim) as http:
        got = await idle_webset(sim, http, body)
    [search] = got["searches"]
    assert search["recall"] is not None and "seeded guesses" in search["recall"]["reasoning"]
    assert "funding rounds" in search["recall"]["reasoning"]  # what it would know
    assert all(e["reasoning"].startswith("A guess") for i in got["items"] for e in i["evaluations"])
    # a query the world knows carries no such note unless recall is asked for
    async with client(sim) as http:
        known = await idle_webset(sim, http, {"search": {"query": "fintech startups in Berlin", "count": 3}})
    assert known["searches"][0]["recall"] is None


async def test_a_search_nothing_in_the_world_meets_says_so() -> None:
    body = {
        "search": {"query": "quantum computing startups in Lagos that raised a Series E round", "count": 5}
    }
    async with running_sim(SimConfig(speed=100)) as sim, client(sim) as http:
        got = await idle_webset(sim, http, body)
    assert got["items"] == []
    assert "No page of the simulated world met every criterion" in got["searches"][0]["recall"]["reasoning"]


async def test_the_real_timing_follows_the_real_timeline() -> None:
    """The simulator's own schedule for the count-5 webset of the real timeline, under "real"."""
    body = {"search": {"query": "AI startups in San Francisco", "count": 5, "entity": {"type": "company"}}}
    async with running_sim(SimConfig(timing="real")) as sim, client(sim) as http:
        sim.ctx.clock.set_speed(1e-9)
        created = (await http.post(f"{W}/websets", json=body)).json()
        store = sim.ctx.extras["websets"]
        ws = store.websets[created["id"]]
        [search] = [store.searches[s] for s in ws.search_ids]
        assert round(search.done_at - search.created_at, 1) == REAL_TIMELINE["search completed"]
        assert round(busy_until(store, ws) - ws.created_at, 1) == REAL_TIMELINE["webset idle"]
    assert PROFILES["real"].per_candidate > PROFILES["quick"].per_candidate  # quick stays the suite's
    recorded = json.loads((REAL / "enrichment_result.json").read_text(encoding="utf-8"))["timeline_seconds"]
    assert list(REAL_TIMELINE.values()) == [  # the figures the profile is fitted to are the recorded ones
        recorded["first_items_while_running"], recorded["enrichment_done"],
        recorded["search_completed"], recorded["webset_idle"],
    ]  # fmt: skip
