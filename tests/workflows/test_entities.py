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
        ("Vardarka Tabak AD - Veles", "vardarka tabak"),  # a Balkan form and the seat after it
        ("Вардарка Табак АД Велес", "vardarka tabak"),
        ("Vardarka Tabak d.o.o. Novi Sad", "vardarka tabak"),
        ("AD Ports Group", "ad ports group"),  # no form before the name's words
        ("PT Pelabuhan Qirana II (Persero)", "pelabuhan qirana ii"),  # an Indonesian state company's form
        # a name's own initials after it go; any other parenthesis names another company
        ("Techniker Krankenkasse (TK)", "techniker krankenkasse"),
        ("Bumrungrad Hospital PCL (BH)", "bumrungrad hospital"),
        ("Abu Dhabi National Oil Company (ADNOC)", "abu dhabi national oil"),
        ("Colgate-Palmolive (India)", "colgate palmolive india"),
        ("Bank of America (BofA)", "bank of america bofa"),
        # an exchange's symbol or code after a listed company's name goes, a country's code stays
        ("Kathmandu Bank Limited (KTMB)", "kathmandu bank"),
        ("First Yangon Investment Public Co., Ltd. (00002)", "first yangon investment"),
        ("Santander (UK)", "santander uk"),
        # forms cleanco leaves: Thailand's Public Company Limited, Corporación, S.A.B. de C.V.
        ("Siam Makro Public Company Limited", "siam makro"),
        ("Atresmedia Corporación", "atresmedia"),
        ("Corporación Favorita", "corporacion favorita"),
        ("Grupo Bimbo S.A.B. de C.V.", "grupo bimbo"),
        # a company's own page titled with what the page is
        ("Verizon Investor Relations", "verizon"),
        ("Acme Newsroom", "acme"),
        ("The Newsroom", "the newsroom"),  # a name that is only the page word keeps it
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


# --- issue 37: the evidence model on the kinds of names it got wrong ------------------------------


def loc(item: Json, location: str) -> Json:
    item["properties"]["company"]["location"] = location
    return item


@pytest.mark.parametrize(
    ("a", "b", "why"),
    [
        (  # one brand, unrelated owners in two countries
            loc(co("a", "Woolworths", "https://www.woolworths.com.au/"), "Bella Vista, Australia"),
            loc(co("b", "Woolworths", "https://www.woolworths.co.za/"), "Cape Town, South Africa"),
            "different countries (australia / south africa)",
        ),
        (
            co("a", "Kmart", "https://www.kmart.com/"),
            co("b", "Kmart", "https://www.kmart.com.au/"),
            "not enough evidence (same brand on country domains kmart.com / kmart.com.au)",
        ),
        (  # app store pages: the host is not the company
            co("a", "Grab", "https://play.google.com/store/apps/details?id=com.grabtaxi.passenger"),
            co("b", "Gojek", "https://play.google.com/store/apps/details?id=com.gojek.app"),
            "different profiles on play.google.com",
        ),
        (
            co("a", "Noahpinion", "https://noahpinion.substack.com/"),
            co("b", "The Generalist", "https://thegeneralist.substack.com/"),
            "different profiles on substack.com",
        ),
        (  # a subsidiary's page on its parent's site is the subsidiary
            co("a", "Ayala Corporation", "https://www.ayala.com/"),
            co("b", "Ayala Land", "https://www.ayala.com/ayala-land", "Ayala Land is a property developer."),
            "Ayala Land adds 'land' to the other's name on ayala.com/ayala-land",
        ),
        (  # a word of two letters, named by the path as the whole name; "Et" (meat) is no legal form
            co("a", "Yayla", "https://www.yayla.com.tr/"),
            co("b", "Yayla Et", "https://www.yayla.com.tr/kurumsal/yayla-et"),
            "Yayla Et adds 'et' to the other's name on yayla.com.tr/kurumsal/yayla-et",
        ),
        (  # a company the group's site lists among its businesses, its names both shortened to one
            co("a", "Keelwood Group", "https://www.keelwood.com/"),
            co("b", "Keelwood PLC", "https://www.keelwood.com/our-businesses/keelwood-plc"),
            "Keelwood PLC is on a page keelwood.com lists its owner's units under: a unit",
        ),
        (
            co("a", "LATAM Airlines Group", "https://www.latamairlines.com/"),
            co(
                "b",
                "LATAM Airlines Brasil",
                "https://www.latamairlines.com/br/pt",
                "It is part of LATAM Airlines Group.",
            ),
            "LATAM Airlines Brasil names LATAM Airlines Group as its owner",
        ),
        (
            co("a", "Hyundai Motor Group", "https://www.hyundai.com/worldwide/en/company"),
            co(
                "b", "Hyundai Motor Company", "https://www.hyundai.com/", "It is part of Hyundai Motor Group."
            ),
            "Hyundai Motor Company names Hyundai Motor Group as its owner",
        ),
    ],
)
def test_a_brand_a_platform_or_a_subsidiary_is_not_the_same_company(a: Json, b: Json, why: str) -> None:
    res = entities.resolve([a, b])
    assert res.groups == [[0], [1]]
    ev = entities.compare(entities.record(0, a), entities.record(1, b))
    assert why in ev.why_apart


@pytest.mark.parametrize(
    ("a", "b", "reason"),
    [
        (co("a", "BMW", "https://www.bmw.com/"), co("b", "Bayerische Motoren Werke AG", "https://www.bmwgroup.com/"), "abbreviation"),
        (co("a", "Marks and Spencer Group plc", "https://corporate.marksandspencer.com/"), co("b", "M&S", "https://www.marksandspencer.com/"), "abbreviation"),
        (co("a", "P&G", "https://www.pg.com/"), co("b", "The Procter & Gamble Company", "https://us.pg.com/"), "abbreviation"),
        (co("a", "Lufthansa", "https://www.lufthansa.com/"), co("b", "Lufthansa Group", "https://www.lufthansagroup.com/"), "sites of one family lufthansa.com / lufthansagroup.com"),
        (
            co("a", "Turkish Airlines", "https://www.turkishairlines.com/"),
            co("b", "Turkish Airlines", "https://www.thy.com/", "Book at turkishairlines.com."),
            "Turkish Airlines names turkishairlines.com",
        ),
        (
            co("a", "Meta Platforms, Inc.", "https://about.meta.com/", "Meta Platforms, Inc. (formerly Facebook, Inc.) builds social technology."),
            co("b", "Facebook, Inc.", "https://about.facebook.com/"),
            "'Meta Platforms, Inc. (formerly Facebook, Inc.) builds social technology.'",
        ),
        (
            loc(co("a", "Robert Bosch GmbH", "https://www.bosch.com/"), "Gerlingen, Germany"),
            loc(co("b", "Bosch", "https://www.bosch.de/"), "Gerlingen, Germany"),
            "both say they are based in germany",
        ),
        (
            co("a", "Ayala Land", "https://www.ayala.com/ayala-land"),
            co("b", "Ayala Land, Inc.", "https://www.ayalaland.com.ph/"),
            "on its own site ayalaland.com.ph",
        ),
        (
            loc(co("a", "Grab", "https://www.grab.com/"), "Singapore"),
            loc(co("b", "Grab", "https://play.google.com/store/apps/details?id=com.grabtaxi.passenger"), "Singapore"),
            "the app Grab is named as Grab is",
        ),
    ],
)  # fmt: skip
def test_abbreviations_several_domains_and_rebrands_join_with_their_evidence(
    a: Json, b: Json, reason: str
) -> None:
    res = entities.resolve([a, b])
    assert res.groups == [[0, 1]], entities.compare(entities.record(0, a), entities.record(1, b)).why_apart
    assert reason in res.reasons[0][0]["reason"]


def person(id: str, name: str, url: str, employer: str | None, desc: str = "") -> Json:
    item = pe(id, name, url, employer or "")
    if employer is None:
        del item["properties"]["person"]["company"]
    item["properties"]["description"] = desc
    return item


@pytest.mark.parametrize(
    ("a", "b", "reason"),
    [
        (person("a", "Bob Iger", "https://thewaltdisneycompany.com/bob-iger/", "The Walt Disney Company"),
         person("b", "Robert A. Iger", "https://www.forbes.com/profile/robert-iger/", "Disney"), "nickname table"),
        (person("a", "Mo Salah", "https://www.liverpoolfc.com/mo-salah", "Liverpool FC"),
         person("b", "Mohamed Salah", "https://www.premierleague.com/mohamed-salah", "Liverpool F.C."), "mo and mohamed are one name"),
        (person("a", "Son Heung-min", "https://www.tottenhamhotspur.com/son", "Tottenham Hotspur"),
         person("b", "Heung-min Son", "https://www.premierleague.com/son", "Tottenham Hotspur F.C."), "same given names, same family name"),
        (person("a", "K. M. Birla", "https://www.forbes.com/profile/km-birla/", "Aditya Birla Group"),
         person("b", "Kumar Mangalam Birla", "https://www.adityabirla.com/chairman", "Aditya Birla Group"), "initials of the given names"),
        (person("a", "Robin Li", "https://ir.baidu.com/robin-li", "Baidu", "Robin Li (李彦宏) is the chief executive of Baidu."),
         person("b", "李彦宏", "https://baike.baidu.com/item/liyanhong", "Baidu"), "Robin Li is also written 'li yanhong'"),
        (person("a", "Mira Murati", "https://www.linkedin.com/in/mira-murati", "Thinking Machines Lab"),
         person("b", "Mira Murati", "https://openai.com/mira", "OpenAI", "See linkedin.com/in/mira-murati."), "same profile URL linkedin.com/in/mira-murati"),
    ],
)  # fmt: skip
def test_people_join_across_nicknames_orders_initials_scripts_and_a_shared_profile(
    a: Json, b: Json, reason: str
) -> None:
    res = entities.resolve([a, b])
    assert res.groups == [[0, 1]], entities.compare(entities.record(0, a), entities.record(1, b)).why_apart
    assert reason in res.reasons[0][0]["reason"]


@pytest.mark.parametrize(
    ("a", "b"),
    [
        # a kanji no name of the dictionary writes (破), no identifier, no stated alias: never guessed
        (person("a", "Shigeru Ishiba", "https://www.kantei.go.jp/ishiba", "Liberal Democratic Party"),
         person("b", "石破茂", "https://ja.wikipedia.org/wiki/x", "Liberal Democratic Party")),
        # a new employer with no identifier
        (person("a", "Mira Murati", "https://thinkingmachines.ai/mira", "Thinking Machines Lab"),
         person("b", "Mira Murati", "https://openai.com/mira", "OpenAI")),
        # the same name and no employer at all
        (person("a", "Chris Evans", "https://www.imdb.com/name/nm0262635/", None),
         person("b", "Chris Evans", "https://virginradio.co.uk/chris-evans", None)),
    ],
)  # fmt: skip
def test_people_without_an_identifier_or_employer_stay_apart(a: Json, b: Json) -> None:
    assert entities.resolve([a, b]).groups == [[0], [1]]


def test_two_numbered_senses_of_one_name_on_baidu_baike_are_two_people() -> None:
    """Baidu Baike numbers each person a name is shared by (item/NAME/ID): two numbers, two people,
    however alike the rest; one number twice is one profile."""
    a = person("a", "张立衡", "https://baike.baidu.com/item/张立衡/4417021", "Rongniang Liquor")
    b = person("b", "张立衡", "https://baike.baidu.com/item/张立衡/9902213", "Rongniang Liquor")
    c = person("c", "张立衡", "https://baike.baidu.com/item/张立衡/4417021?fromModule=search", "Jadefall")
    assert entities.site(a["properties"]["url"]).profile == "baike.baidu.com/item/张立衡/4417021"  # type: ignore[union-attr]
    assert entities.resolve([a, b]).groups == [[0], [1]]
    assert entities.resolve([a, c]).groups == [[0, 1]]


def test_the_hosts_table_keys_a_profile_by_its_path_never_the_host() -> None:
    from exa_orch.workflows.entities.hosts import HOSTS

    assert all(h.source for h in HOSTS) and len({h.name for h in HOSTS}) == len(HOSTS)
    play = entities.site("https://play.google.com/store/apps/details?id=com.gojek.app&hl=en")
    assert play is not None and play.platform and play.profile == "play.google.com/id=com.gojek.app"
    app = entities.site("https://apps.apple.com/us/app/uber-request-a-ride/id368677368")
    assert app is not None and app.profile == "apps.apple.com/app/id368677368"
    assert entities.site("https://noahpinion.substack.com/p/x").profile == "substack.com/noahpinion"  # type: ignore[union-attr]
    own = entities.site("https://www.notion.so/about")  # the host's own site is its owner's
    assert own is not None and not own.platform and own.domain == "notion.so"
