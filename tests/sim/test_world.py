"""The simulator's world: deterministic, searchable, with near-duplicates as ground truth."""

from __future__ import annotations

import subprocess
import sys

from exa_orch.sim.world import CATEGORIES, World


def test_same_seed_builds_the_same_world_and_another_seed_does_not() -> None:
    assert World(7).entities == World(7).entities
    assert World(7).entities != World(8).entities


def test_world_is_identical_across_processes_despite_hash_randomisation() -> None:
    code = "from exa_orch.sim.world import World; w = World(3); print([e.url for e in w.search('fintech in Europe', limit=20)])"
    runs = {
        subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            check=True,
            env={"PYTHONHASHSEED": str(h)},
        ).stdout
        for h in (1, 2)
    }
    assert len(runs) == 1


def test_world_has_a_few_hundred_entities_of_each_kind_with_their_attributes() -> None:
    w = World(42)
    for kind in ("company", "person", "research_paper", "article"):
        assert len(w.of_kind(kind)) >= 100
    company = w.of_kind("company")[0]
    assert {"industry", "location", "employees", "founded", "funding", "email", "phone", "website"} <= set(
        company.attrs
    )
    person = w.of_kind("person")[0]
    assert {"role", "company", "location"} <= set(person.attrs)
    paper = w.of_kind("research_paper")[0]
    assert set(paper.attrs["categories"]) <= set(CATEGORIES) and paper.attrs["authors"]
    assert w.of_kind("article")[0].attrs["publisher"]
    assert len({e.id for e in w.entities}) == len(w.entities)
    assert len({e.url for e in w.entities}) == len(w.entities)


def test_duplicates_are_entities_that_point_back_to_their_canonical_company() -> None:
    w = World(42)
    assert len(w.duplicates) >= 10
    for canonical, dup in w.duplicates:
        a, b = w.by_url(canonical), w.by_url(dup)
        assert a is not None and b is not None and a.id != b.id
        assert b.attrs["duplicate_of"] == a.id
        assert a.attrs["industry"] == b.attrs["industry"]


def test_search_ranks_topic_and_region_matches_first_with_stable_ties() -> None:
    w = World(42)
    hits = w.search("AI startups in Europe", kind="company", limit=10)
    assert len(hits) == 10
    for e in hits:
        assert e.attrs["industry"] == "Artificial Intelligence" and e.attrs["region"] == "Europe"
    assert hits == w.search("AI startups in Europe", kind="company", limit=10)
    scores = [w.score("AI startups in Europe", e) for e in hits]
    assert scores == sorted(scores, reverse=True)


def test_search_never_comes_back_empty_and_honours_kind_and_limit() -> None:
    w = World(42)
    hits = w.search("zzqx nothing matches", kind="research_paper", limit=5)
    assert len(hits) == 5 and {e.kind for e in hits} == {"research_paper"}
    assert w.search("anything", limit=0) == []


def test_infer_kind_reads_the_query() -> None:
    w = World(1)
    assert w.infer_kind("AI startups in Europe") == "company"
    assert w.infer_kind("engineers working on compilers") == "person"
    assert w.infer_kind("papers on quality-diversity") == "research_paper"
    assert w.infer_kind("news about battery storage") == "article"
    assert w.infer_kind("zzqx") is None
    assert w.infer_kind("CTOs at fintech startups") == "person"
    assert w.infer_kind("papers about startups") == "research_paper"
