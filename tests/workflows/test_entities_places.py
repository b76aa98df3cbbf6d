"""Entity resolution, issue 37's fourth pass: where a company is (a location or a sentence read to
one country, countries.py), and a profile page on a shared host joined to the site it is about."""

from __future__ import annotations

from typing import Any

import pytest

from exa_orch.workflows import entities
from exa_orch.workflows.entities.countries import country_of, known, stated_country
from exa_orch.workflows.rows import props_of

Json = dict[str, Any]


def co(id: str, name: str, url: str, location: str | None = None, desc: str = "", industry: str = "") -> Json:
    company = {"name": name, "location": location, "industry": industry}
    return {"id": id, "properties": {"type": "company", "url": url, "description": desc, "company": company}}


def row(id: str, name: str, url: str, description: str) -> Json:
    """An Agent row as the workflows hand it to the resolver (name, url, description; no location)."""
    return {
        "id": id,
        "properties": props_of({"type": "company", "url": url, "description": description, "name": name}),
    }


def apart(a: Json, b: Json) -> str:
    return entities.compare(entities.record(0, a), entities.record(1, b)).why_apart


@pytest.mark.parametrize(
    ("location", "country"),
    [
        ("Stuttgart, Baden-Württemberg", "germany"),  # a province, spelt "Baden-Wuerttemberg" in the data
        ("Fujian Province", "china"),
        ("Fujian", "china"),
        ("Minato, Tokyo", "japan"),  # a capital
        ("Dubai, UAE", "united arab emirates"),
        ("London, England", "united kingdom"),
        ("Gothenburg, Sweden, owned by Geely", "sweden"),
    ],
)
def test_a_location_reads_as_its_country(location: str, country: str) -> None:
    assert country_of(location) == country
    assert known(country)


def test_a_place_no_data_names_or_two_countries_hold_is_unknown() -> None:
    assert country_of("Dhahran") == "dhahran" and not known("dhahran")
    assert country_of("Atlanta, Georgia") == ""  # a US state and a country


@pytest.mark.parametrize(
    ("text", "country"),
    [
        ("Vale S.A., formerly Companhia Vale do Rio Doce, is a Brazilian multinational.", "brazil"),
        ("Samsung is a South Korean conglomerate.", "south korea"),
        ("Nebius is an Amsterdam-headquartered technology company.", "netherlands"),
        ("MercadoLibre is a Latin American e-commerce company.", ""),  # a region, not a country
        ("Vale is a global mining company.", ""),
    ],
)
def test_a_sentence_states_a_country_by_demonym_or_place(text: str, country: str) -> None:
    assert stated_country(text) == country


def test_a_city_and_its_country_are_not_different_countries() -> None:
    a = row("a", "Aramco", "https://www.aramco.com/en", "Aramco is an energy company based in Saudi Arabia.")
    b = row(
        "b", "Aramco", "https://www.aramco.com/about", "Aramco is an oil company headquartered in Dhahran."
    )
    assert entities.resolve([a, b]).groups == [[0, 1]], apart(a, b)


def test_a_former_name_in_another_country_stays_apart() -> None:
    """ "Nebius Group N.V., formerly Yandex N.V., is a Dutch ..." names Yandex, but the Russian Yandex
    is another company: a stated former name does not outweigh two known countries."""
    a = row(
        "a",
        "Nebius Group",
        "https://nebius.com/",
        "Nebius Group N.V., formerly Yandex N.V., is a Dutch technology company.",
    )
    b = row(
        "b",
        "Yandex",
        "https://yandex.com/company/",
        "Yandex is a Russian technology company that runs a search engine.",
    )
    assert entities.resolve([a, b]).groups == [[0], [1]]
    assert "different countries (netherlands / russia)" in apart(a, b)
