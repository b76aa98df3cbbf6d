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
