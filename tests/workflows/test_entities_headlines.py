"""A person's employer as Agent rows state it: a profile's headline ("President and CEO at Amazon.
Seattle, ...") and "X is [the] chief executive officer of Intel" (issue 37's fourth pass)."""

from __future__ import annotations

from exa_orch.workflows import entities
from exa_orch.workflows.rows import props_of


def person(name: str, url: str, description: str) -> entities.Record:
    item = {
        "id": url,
        "properties": props_of({"type": "person", "url": url, "description": description, "name": name}),
    }
    return entities.record(0, item)


def test_a_headline_and_a_title_of_an_employer_give_the_employer() -> None:
    headline = person(
        "Andy Jassy", "https://www.linkedin.com/in/aj", "President and CEO at Amazon. Seattle, United States."
    )
    assert headline.employer == "amazon" and headline.facts["title"] == "president and ceo"
    of = person(
        "Patrick P. Gelsinger",
        "https://www.intel.com/bio",
        "Patrick P. Gelsinger is chief executive officer of Intel.",
    )
    assert of.employer == "intel"
    # a sentence with a verb is not a headline; "a member of" is not a title
    assert person("Jane Roe", "https://x.dev/jr", "Jane Roe was CFO at Acme.").employer == ""
    assert person("Jane Roe", "https://x.dev/jr", "Jane Roe is a member of the board of Acme.").employer == ""


def test_one_name_and_one_employer_stated_two_ways_join() -> None:
    a = {"id": "a", "properties": props_of({"type": "person", "url": "https://www.linkedin.com/in/mustafa-suleyman",
         "description": "EVP and CEO at Microsoft AI. London, United Kingdom.", "name": "Mustafa Suleyman"})}  # fmt: skip
    b = {"id": "b", "properties": props_of({"type": "person", "url": "https://microsoft.ai/people/mustafa-suleyman/",
         "description": "Mustafa Suleyman is the CEO of Microsoft AI.", "name": "Mustafa Suleyman"})}  # fmt: skip
    res = entities.resolve([a, b])
    assert res.groups == [[0, 1]], entities.compare(entities.record(0, a), entities.record(1, b)).why_apart
    assert "same employer" in res.reasons[0][0]["reason"]


def row(id: str, name: str, url: str, description: str) -> dict[str, object]:
    return {
        "id": id,
        "properties": props_of({"type": "person", "url": url, "description": description, "name": name}),
    }


def _joined(a: dict[str, object], b: dict[str, object]) -> str:
    """The reason `a` and `b` were joined (asserting they were)."""
    res = entities.resolve([a, b])
    assert res.groups == [[0, 1]], entities.compare(entities.record(0, a), entities.record(1, b)).why_apart
    return str(res.reasons[0][0]["reason"])


def test_the_organisations_a_person_founded_or_leads_are_read_from_the_text() -> None:
    galperin = person("Marcos Galperin", "https://en.wikipedia.org/wiki/Marcos_Galperin",
                      "Marcos Galperin is an Argentine businessman, co-founder and CEO of MercadoLibre.")  # fmt: skip
    assert galperin.founded == {"mercadolibre"} and galperin.employer == ""
    board = person("U. S. Kotak", "https://www.kotak.com/board",
                   "U. S. Kotak, Non-Executive Director and founder, Kotak Mahindra Bank Ltd.")  # fmt: skip
    assert board.founded == {"kotak mahindra bank"}
    two = person("Tony Fernandes", "https://en.wikipedia.org/wiki/Tony_Fernandes",
                 "Tony Fernandes is a Malaysian entrepreneur, founder of Tune Group and AirAsia.")  # fmt: skip
    assert {"tune group", "airasia"} <= two.founded


def test_one_name_and_one_organisation_founded_join_and_another_stays_apart() -> None:
    wiki = row("a", "Marcos Galperin", "https://en.wikipedia.org/wiki/Marcos_Galperin",
               "Marcos Eduardo Galperin is an Argentine businessman, co-founder and CEO of MercadoLibre.")  # fmt: skip
    forbes = row("b", "Marcos Eduardo Galperin", "https://www.forbes.com/profile/marcos-galperin/",
                 "Marcos Galperin founded MercadoLibre, Latin America's largest e-commerce company, in 1999.")  # fmt: skip
    assert "founded or leads mercadolibre" in _joined(wiki, forbes)
    other = row(
        "c", "Marcos Galperin", "https://example.org/mg", "Marcos Galperin founded Acme Tiles in Rosario."
    )
    assert entities.resolve([wiki, other]).groups == [[0], [1]]


def _with_employer(id: str, name: str, url: str, description: str, employer: str) -> dict[str, object]:
    person = {"name": name, "company": {"name": employer}}
    return {
        "id": id,
        "properties": {"type": "person", "url": url, "description": description, "person": person},
    }


def test_two_employers_one_named_in_the_other_s_text_join_and_unnamed_stay_apart() -> None:
    """ "founder of Tune Group and AirAsia" beside an employer Capital A: the same name at AirAsia is
    one person holding both, not a new employer; with nothing naming the other, two employers stay two."""
    wiki = _with_employer("a", "Tony Fernandes", "https://en.wikipedia.org/wiki/Tony_Fernandes",
                          "Tony Fernandes is a Malaysian entrepreneur, founder of Tune Group and AirAsia.", "Capital A")  # fmt: skip
    forbes = _with_employer("b", "Tony Fernandes", "https://www.forbes.com/profile/tony-fernandes/",
                            "Tony Fernandes took over the airline in 2001.", "AirAsia")  # fmt: skip
    assert "names airasia, Tony Fernandes's employer" in _joined(wiki, forbes)
    other = _with_employer(
        "c", "Tony Fernandes", "https://example.org/tf", "Tony Fernandes runs a bakery.", "Acme Bakes"
    )
    assert entities.resolve([other, forbes]).groups == [[0], [1]]


def test_an_employer_named_with_its_small_words_or_run_together_is_named() -> None:
    """ "former director of the National Institute of Allergy and Infectious Diseases": a text names
    an employer with its "of" and "and" kept, and "Gojek" is the "Go-Jek" an employer wrote; an
    employer the text does not name stays a new one."""
    niaid = _with_employer("a", "Anthony S. Fauci, M.D.", "https://www.niaid.nih.gov/about/director",
                           "Anthony S. Fauci was appointed Director of NIAID in 1984.",
                           "National Institute of Allergy and Infectious Diseases")  # fmt: skip
    georgetown = _with_employer("b", "Dr. Anthony Fauci", "https://www.georgetown.edu/news/fauci-joins/",
                                "Dr. Anthony Fauci, former director of the National Institute of Allergy and "
                                "Infectious Diseases, joins Georgetown.", "Georgetown University")  # fmt: skip
    assert "names national institute of allergy and infectious diseases" in _joined(niaid, georgetown)
    wiki = _with_employer("c", "Nadiem Makarim", "https://en.wikipedia.org/wiki/Nadiem_Makarim",
                          "Nadiem Makarim is an Indonesian businessman who co-founded Gojek and served as a minister.",
                          "Ministry of Education")  # fmt: skip
    endeavor = _with_employer("d", "Nadiem Makarim", "https://endeavor.org/entrepreneur/nadiem-makarim/",
                              "Nadiem Makarim is the founder and CEO of an app.", "Go-Jek")  # fmt: skip
    assert "names go jek" in _joined(wiki, endeavor)
    elsewhere = _with_employer("e", "Dr. Anthony Fauci", "https://example.org/af",
                               "Dr. Anthony Fauci joins Georgetown.", "Georgetown University")  # fmt: skip
    assert entities.resolve([niaid, elsewhere]).groups == [[0], [1]]


def test_a_record_telling_a_career_joins_the_employers_it_names() -> None:
    """Renault Group's page and Kering's news of one name are two employers; an article that says
    "CEO of Renault Group from 2020 to 2025 and then CEO of Kering" tells one career, and all three
    are one person. Without it, or beside an employer it does not name, they stay apart."""
    renault = _with_employer("a", "Luca de Meo", "https://www.renaultgroup.com/en/governance/",
                             "Luca de Meo is Chief Executive Officer of Renault Group.", "Renault Group")  # fmt: skip
    kering = _with_employer("b", "Luca De Meo", "https://www.kering.com/en/news/",
                            "Kering announced the appointment of Luca de Meo as Chief Executive Officer.", "Kering")  # fmt: skip
    wiki = _with_employer("c", "Luca de Meo", "https://en.wikipedia.org/wiki/Luca_de_Meo",
                          "Luca de Meo is an Italian executive, CEO of Renault Group from 2020 to 2025 and then CEO of Kering.",
                          "Kering")  # fmt: skip
    assert entities.resolve([renault, kering]).groups == [[0], [1]]
    assert entities.resolve([renault, kering, wiki]).groups == [[0, 1, 2]]
    acme = _with_employer("d", "Luca de Meo", "https://acme.example/team", "Luca de Meo runs Acme Tiles.", "Acme Tiles")  # fmt: skip
    res = entities.resolve([renault, kering, wiki, acme])
    assert [3] in res.groups and any("different employers" in a["reason"] for a in res.apart)
