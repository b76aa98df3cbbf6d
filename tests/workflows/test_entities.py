"""Entity resolution: the pairs the issue names, legal forms, URLs, people, and no chaining."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from exa_orch.app import open_app
from exa_orch.config import Settings
from exa_orch.sim.context import SimConfig
from exa_orch.sim.testing import running_sim
from exa_orch.workflows import entities
from tests.conftest import TEST_SPEED
from tests.support import WAIT
from tests.workflows.conftest import run_task

Json = dict[str, Any]


def co(id: str, name: str | None, url: str | None, desc: str = "", industry: str | None = None) -> Json:
    props: Json = {"type": "company", "description": desc}
    if url:
        props["url"] = url
    if name:
        props["company"] = {"name": name, "industry": industry}
    return {"id": id, "properties": props}


def pe(id: str, name: str, url: str, employer: str) -> Json:
    person = {"name": name, "company": {"name": employer}}
    return {"id": id, "properties": {"type": "person", "url": url, "person": person}}


def groups(items: list[Json]) -> list[list[str]]:
    res = entities.resolve(items)
    return [[items[i]["id"] for i in g] for g in res.groups]


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (co("a", "Klarna", "https://klarna.com"), co("b", "Klara", "https://klara.ch")),
        (co("a", "Revolut Ltd", "https://revolut.com"), co("b", "Revolt", "https://revoltmotors.com")),
        (co("a", "Helsing", "https://helsing.ai"), co("b", "Helsinn", "https://helsinn.com")),
        (co("a", "sennder", "https://sennder.com"), co("b", "Sender", "https://sender.net")),
        (co("a", "Wayve", "https://wayve.ai"), co("b", "Wave", "https://wave.com")),
        (co("a", "Flink SE", "https://goflink.com"), co("b", "Flinks", "https://flinks.com")),
        (co("a", "SAP SE", "https://sap.com"), co("b", "Snap Inc.", "https://snap.com")),
        (co("a", "Merck & Co., Inc.", "https://merck.com"), co("b", "Merck KGaA", "https://merckgroup.com")),
        (
            co("a", "Bolt", "https://bolt.eu", industry="Transportation"),
            co("b", "Bolt", "https://bolt.com", industry="Fintech"),
        ),
        (co("a", "Nova Labs", "https://novalabs.com"), co("b", "Nova Labs", "https://novalabs.io")),
        (
            co("a", "Banco Santander", "https://santander.com"),
            co("b", "Santander UK plc", "https://santander.co.uk"),
        ),
        (
            pe("a", "John Smith", "https://linkedin.com/in/js-db", "Deutsche Bank"),
            pe("b", "John Smith", "https://johnsmith.dev", "Stripe"),
        ),
    ],
)
def test_different_entities_with_near_or_equal_names_never_merge(a: Json, b: Json) -> None:
    assert groups([a, b]) == [["a"], ["b"]]


@pytest.mark.parametrize(
    ("a", "b", "reason"),
    [
        (
            co("a", "Klarna", "https://www.klarna.com/se/"),
            co("b", "Klarna Bank AB (publ)", "https://klarna.com/us/about-us/"),
            "same registered domain klarna.com",
        ),
        (
            co("a", "Société Générale S.A.", "https://societegenerale.com/fr"),
            co("b", "Societe Generale", "https://www.societegenerale.com/en"),
            "equal names",
        ),
        (
            co("a", "International Business Machines Corporation", "https://ibm.com/us-en"),
            co("b", "IBM", "https://www.ibm.com/de-de"),
            "abbreviation",
        ),
        (
            co("a", "H&M", "https://hm.com"),
            co("b", "H and M", "https://www2.hm.com/en_gb/index.html"),
            "equal names",
        ),
        (
            co(
                "a",
                "Equinor ASA",
                "https://equinor.com",
                "Equinor ASA (formerly Statoil) is an energy company.",
            ),
            co("b", "Statoil ASA", "https://statoil.com"),
            "Equinor ASA names Statoil ASA: 'Equinor ASA (formerly Statoil) is an energy company.'",
        ),
        (
            co("a", "Nova Labs", "https://novalabs.com", "Nova Labs (also at novalabs.io) builds robots."),
            co("b", "Nova Labs", "https://novalabs.io"),
            "also at novalabs.io",
        ),
        (
            co("a", "Zalando SE", "https://corporate.zalando.com", "Shop at zalando.de or zalando.co.uk."),
            co("b", "Zalando", "https://www.zalando.de", industry="E-commerce"),
            "same name on country domains zalando.com / zalando.de, and one names the other's site",
        ),
        (
            pe("a", "Sebastian Siemiątkowski", "https://linkedin.com/in/ss", "Klarna"),
            pe("b", "Sebastian Siemiatkowski", "https://crunchbase.com/person/ss", "Klarna Bank AB"),
            "same given names, same family name; same employer (klarna)",
        ),
        (
            pe("a", "John Smith", "https://www.linkedin.com/in/js", "Deutsche Bank AG"),
            pe("b", "John Smith", "https://de.linkedin.com/in/js/", "Deutsche Bank"),
            "same profile URL linkedin.com/in/js",
        ),
    ],
)
def test_the_same_entity_merges_with_its_reason(a: Json, b: Json, reason: str) -> None:
    res = entities.resolve([a, b])
    assert res.groups == [[0, 1]]
    assert reason in res.reasons[0][0]["reason"] and res.reasons[0][0]["items"] == ["a", "b"]


def test_one_weak_link_cannot_chain_two_entities() -> None:
    # The MSD page says "also known as Merck & Co., Inc.": it names Merck & Co., not Merck KGaA,
    # whose cleaned name is the same "merck".
    items = [
        co("us", "Merck & Co., Inc.", "https://www.merck.com"),
        co(
            "msd",
            "MSD",
            "https://www.msd.com",
            "MSD, also known as Merck & Co., Inc. in the United States, makes medicines.",
        ),
        co("de", "Merck KGaA", "https://www.merckgroup.com"),
        co(
            "emd",
            "EMD Group",
            "https://emdgroup.com",
            "EMD Group, also known as Merck KGaA, Darmstadt, Germany, is a science company.",
        ),
    ]
    assert groups(items) == [["us", "msd"], ["de", "emd"]]


def test_people_need_their_employer_or_profile() -> None:
    items = [
        pe("a", "Maria Garcia", "https://linkedin.com/in/mg-bbva", "BBVA"),
        pe("b", "María García", "https://linkedin.com/in/mg-santander", "Santander UK plc"),
        pe("c", "Maria Garcia", "https://mariagarcia.es", "BBVA"),
    ]
    assert groups(items) == [["a", "c"], ["b"]]


def test_legal_forms_urls_and_folding() -> None:
    for name, clean in [
        ("Samsung Electronics Co., Ltd.", "samsung electronics"),
        ("Nordea Bank Abp", "nordea bank"),
        ("Koninklijke Philips N.V.", "koninklijke philips"),
        ("Eni S.p.A.", "eni"),
        ("Nokia Oyj", "nokia"),
        ("Atlassian Pty Ltd", "atlassian"),
        ("Merck KGaA", "merck"),
        ("L'Oréal S.A.", "loreal"),
        ("A.P. Møller - Mærsk A/S", "a p moller maersk"),
        ("Procter & Gamble", "procter and gamble"),
        ("Santander UK plc", "santander uk"),
    ]:
        assert entities.clean_name(name) == clean, name
    assert entities.canonical_url("https://www.Klarna.com/en-us/about/?x=1#y") == "klarna.com"
    assert entities.canonical_url("de.linkedin.com/in/jsmith/") == "linkedin.com/in/jsmith"
    assert entities.site("https://shop.amazon.co.uk/x").domain == "amazon.co.uk"  # type: ignore[union-attr]
    assert entities.site("https://foo.github.io").domain == "foo.github.io"  # type: ignore[union-attr]


# --- the workflows on a world file: harvest and verifiedCollection see entities -------------------

WORLD: Json = {
    "name": "two-pages",
    "entities": [
        {
            "id": "klarna", "kind": "company", "name": "Klarna",
            "attributes": {"industry": "Financial Services", "location": "Stockholm, Sweden"},
            "pages": [
                {"name": "Klarna", "url": "https://www.klarna.com/se/", "queries": ["payments companies"]},
                {"name": "Klarna Bank AB (publ)", "url": "https://klarna.com/us/about-us/", "queries": ["payments companies"]},
            ],
        },
        {
            "id": "klara", "kind": "company", "name": "Klara",
            "attributes": {"industry": "Software", "location": "Zurich, Switzerland"},
            "pages": [{"name": "Klara", "url": "https://www.klara.ch", "queries": ["payments companies"]}],
        },
    ],
}  # fmt: skip


async def test_harvest_and_verified_collection_resolve_entities_on_a_world_file(tmp_path: Path) -> None:
    world = tmp_path / "world.json"
    world.write_text(json.dumps(WORLD), encoding="utf-8")
    async with running_sim(SimConfig(speed=TEST_SPEED, world_file=str(world))) as sim:
        settings = Settings(
            exa_url=sim.url, db_path=tmp_path / "w.db", rps=1000.0, concurrency=8, simulator=True
        )
        async with open_app(settings, tmp_path / "w.db") as app:
            base = {"query": "payments companies", "entity": {"type": "company"}, "count": 10}
            harvest = await run_task(app, "lifecycle.harvest", base)
            verified = await run_task(
                app, "research.verifiedCollection", {**base, "researchPrompt": "Who founded {{name}}?"}
            )
    assert harvest.status == "completed", harvest.error
    result = harvest.result
    assert result["itemCount"] == 3 and result["uniqueEntities"] == 2
    [dup] = result["duplicates"]
    names = {i["id"]: i["properties"]["company"]["name"] for i in result["items"]}
    assert sorted(names[i] for i in dup["itemIds"]) == ["Klarna", "Klarna Bank AB (publ)"]
    assert "same registered domain klarna.com" in dup["mergeReasons"][0]["reason"]
    assert verified.status == "completed", verified.error
    merged = verified.result["items"]
    assert verified.result["uniqueEntities"] == 2
    assert sum("research" in m for m in merged) == 2  # one run per entity, not per item
    [second] = [m for m in merged if "sameEntityAs" in m]
    assert second["sameEntityAs"] == next(
        m["item"]["id"] for m in merged if "research" in m and names_of(m) == "Klarna"
    )
    assert "research" not in second


def names_of(entry: Json) -> str:
    return str(entry["item"]["properties"]["company"]["name"])


def test_the_public_suffix_list_is_the_bundled_one_and_nothing_is_cached(tmp_path: Path) -> None:
    # tldextract's defaults fetch the list and cache it under the user's home: neither happens.
    home = tmp_path / "home"
    home.mkdir()
    code = (
        "from exa_orch.workflows import entities as e;"
        "assert e.site('https://news.bbc.co.uk/x').domain == 'bbc.co.uk';"
        "x = e._extractor(); assert x.suffix_list_urls == () and x._cache.enabled is False"
    )
    env = {**os.environ, "HOME": str(home), "XDG_CACHE_HOME": str(home / ".cache")}
    env.pop("TLDEXTRACT_CACHE", None)
    subprocess.run([sys.executable, "-c", code], env=env, check=True, timeout=WAIT)
    assert list(home.rglob("*")) == []
