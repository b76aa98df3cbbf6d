"""Websets items of companies and people, as the resolver's tests build them, and one pair weighed."""

from __future__ import annotations

from typing import Any

from exa_orch.workflows import entities

Json = dict[str, Any]


def co(id: str, name: str, url: str, location: str, industry: str, desc: str = "") -> Json:
    """A company item: its name, page, location and industry, and the page's description."""
    company = {"name": name, "location": location, "industry": industry}
    return {"id": id, "properties": {"type": "company", "url": url, "description": desc, "company": company}}


def person(id: str, name: str, url: str, employer: str, location: str, title: str = "") -> Json:
    """A person item: name, page, employer (none when ""), location and title (none when "")."""
    props: Json = {"name": name, "location": location}
    if employer:
        props["company"] = {"name": employer}
    if title:
        props["position"] = title
    return {"id": id, "properties": {"type": "person", "url": url, "description": "", "person": props}}


def weigh(a: Json, b: Json) -> entities.Evidence:
    """The evidence for and against two items being one entity."""
    return entities.compare(entities.record(0, a), entities.record(1, b))
