"""What a query or a criterion asks for, read as facets the world can check, and whether an entity
has them.

Contract:
- `read(text)` -> `Facets`: the industries, places, funding round (and its year), head counts,
  founding year and technologies `text` names, and the meaningful words it names nothing the world
  knows of (`leftover`). A place of several words ("San Francisco", "New York", "United Kingdom")
  is one place; "US" in capitals is the United States. Pure and cached (texts repeat a lot).
- `check(entity, facets)` -> ("yes" | "no" | "unclear", why) or None when `facets` names nothing:
  "yes" when the entity has every facet, "no" when the world knows it lacks one, "unclear" when
  the world holds no such fact for an entity of its kind (a paper's funding round).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from exa_orch.sim.synth import stable
from exa_orch.sim.vocab import (
    ALL_KIND_WORDS,
    INDUSTRIES,
    INDUSTRY_PHRASES,
    PLACE_ALIASES,
    REGIONS,
    technology_names,
    tokens,
)

# words that carry no requirement of their own once the facets are read ("builds", "based in")
FILLER = frozenset(
    "builds build building builder makes making develops developing offers offering provides providing "
    "works working focus focuses focused focusing company companie raised raising raise round rounds "
    "funding financing funded located headquartered headquarter hq operate operates operating "
    "space sector industry industrie field area region country city has have having had was were "
    "does do use uses using built employs employee employees people staff founded since after before "
    "more less fewer greater least over under between than year years satisfies".split()
)


def _place_table() -> dict[str, str]:
    table: dict[str, str] = {}
    for region, pairs in REGIONS.items():
        table[region.lower()] = region
        for city, country in pairs:
            table[city.lower()] = city
            table[country.lower()] = country
    table.update(PLACE_ALIASES)
    return table


PLACES = _place_table()
# place -> the places it lies in (a city is in its country and region; a country in its region)
WITHIN: dict[str, frozenset[str]] = {}
for _region, _pairs in REGIONS.items():
    WITHIN.setdefault(_region, frozenset({_region}))
    for _city, _country in _pairs:
        WITHIN[_city] = frozenset({_city, _country, _region})
        WITHIN[_country] = WITHIN.get(_country, frozenset()) | {_country, _region}


def _alternation(phrases: list[str]) -> str:
    return "|".join(re.escape(p) for p in sorted(phrases, key=lambda p: (-len(p), p)))


_PLACE_RE = re.compile(rf"(?<![\w.])({_alternation(list(PLACES))})(?![\w])")
_US_RE = re.compile(r"(?<![\w.])(US|U\.S\.)(?![\w])")  # capitals only: "us" is a pronoun
_TECHS = technology_names()
_TECH_RE = re.compile(rf"(?<![\w.+])({_alternation([t.lower() for t in _TECHS])})(?![\w+])")
_TECH_NAME = {t.lower(): t for t in _TECHS}
_INDUSTRY_PHRASE_RE = re.compile(rf"\b({_alternation(list(INDUSTRY_PHRASES))})\b")
_ROUND_RE = re.compile(
    r"\b(pre-seed|preseed|seed|series\s+([a-e]))\b(?:\s+(?:round|funding|financing|stage))*"
    r"(?:\s+(?:funding|round))?(?:\s+(?:in|during)\s+((?:19|20)\d\d))?"
)
# "AI infrastructure" is what AI is built on: compute, tooling or chips (one of them, with AI)
AI_STACK = ("Cloud Infrastructure", "Developer Tools", "Semiconductors")
_AI_INFRA_RE = re.compile(
    r"\b(?:(?:ai|ml|llm|machine learning|genai)\s+infrastructure"
    r"|infrastructure\s+for\s+(?:ai|ml|llms?|machine learning|genai)(?:\s+models?)?)\b"
)
WELL_FUNDED = 20_000_000  # dollars raised in all that "well funded" takes
UNDERFUNDED = 5_000_000  # at most this raised in all: "struggled to raise funding"
# phrase -> (at least, at most) dollars raised in all
FUNDING_PHRASES: dict[str, tuple[int, int]] = {
    "well funded": (WELL_FUNDED, 10**13), "well-funded": (WELL_FUNDED, 10**13),
    "heavily funded": (WELL_FUNDED, 10**13), "venture-backed": (1, 10**13), "venture backed": (1, 10**13),
    "vc-backed": (1, 10**13), "vc backed": (1, 10**13), "bootstrapped": (0, 0), "underfunded": (0, UNDERFUNDED),
    "struggled to raise": (0, UNDERFUNDED), "struggling to raise": (0, UNDERFUNDED),
    "failed to raise": (0, UNDERFUNDED), "unable to raise": (0, UNDERFUNDED),
}  # fmt: skip
_FUNDED_RE = re.compile(rf"\b({_alternation(list(FUNDING_PHRASES))})\b")
_EMPLOYEES_RANGE = re.compile(
    r"(?:between\s+)?(\d[\d,]*)\s*(?:-|–|to|and)\s*(\d[\d,]*)\s+(?:employees|people|staff)"
)
_EMPLOYEES_MORE = re.compile(
    r"(more|over|greater|at least|fewer|less|under)\s+(?:than\s+)?(\d[\d,]*)\s+(?:employees|people|staff)"
)
_FOUNDED = re.compile(r"founded\s+(after|before|since|in)\s+((?:19|20)\d\d)")


def _keyword_industries() -> dict[str, str]:
    words: dict[str, str] = {}
    for industry, kws in INDUSTRIES.items():
        for w in (*tokens(industry), *kws):
            words.setdefault(w, industry)
    return words


INDUSTRY_WORDS = _keyword_industries()


@dataclass(frozen=True)
class Facets:
    """What one text asks for; empty fields ask nothing."""

    industries: tuple[str, ...] = ()
    any_of: tuple[str, ...] = ()  # at least one of these industries besides `industries`
    places: tuple[str, ...] = ()
    round: str | None = None  # "Series B", ...
    round_year: int | None = None
    employees: tuple[int, int] | None = None  # inclusive bounds
    founded: tuple[int, int] | None = None  # inclusive bounds
    funded: tuple[int, int] | None = None  # dollars raised in all ("well funded", "bootstrapped")
    technologies: tuple[str, ...] = ()
    leftover: tuple[str, ...] = ()  # meaningful words naming nothing the world knows

    @property
    def empty(self) -> bool:
        return not (
            self.industries
            or self.places
            or self.round
            or self.employees
            or self.founded
            or self.funded
            or self.technologies
        )


def _num(text: str) -> int:
    return int(text.replace(",", ""))


def _cut(text: str, match: re.Match[str]) -> str:
    return text[: match.start()] + " " * (match.end() - match.start()) + text[match.end() :]


class _Text:
    """A lower-cased text from which each facet read is blanked out, so no word counts twice."""

    def __init__(self, text: str) -> None:
        self.low = text.lower()

    def take(self, pattern: re.Pattern[str]) -> re.Match[str] | None:
        m = pattern.search(self.low)
        if m is not None:
            self.low = _cut(self.low, m)
        return m

    def take_all(self, pattern: re.Pattern[str]) -> list[re.Match[str]]:
        found = list(pattern.finditer(self.low))
        self.low = pattern.sub(lambda m: " " * len(m.group(0)), self.low)
        return found


_YEAR_RE = re.compile(r"\b(?:in|during)\s+((?:19|20)\d\d)\b")
_MORE = {"more": 1, "over": 1, "greater": 1, "at least": 0}


def _round(t: _Text) -> dict[str, Any]:
    m = t.take(_ROUND_RE)
    if m is None:
        return {}
    name = f"Series {m.group(2).upper()}" if m.group(2) else ("Seed" if m.group(1) == "seed" else "Pre-seed")
    year = int(m.group(3)) if m.group(3) else None
    if year is None and "founded" not in t.low:  # "raised a Series B ... in 2025"
        later = t.take(_YEAR_RE)
        year = int(later.group(1)) if later else None
    return {"round": name, "round_year": year}


def _numbers(t: _Text) -> dict[str, Any]:
    found: dict[str, Any] = {}
    m = t.take(_EMPLOYEES_RANGE)
    if m:
        found["employees"] = (_num(m.group(1)), _num(m.group(2)))
    m = t.take(_EMPLOYEES_MORE)
    if m:
        n = _num(m.group(2))
        found["employees"] = (n + _MORE[m.group(1)], 10**9) if m.group(1) in _MORE else (0, n - 1)
    m = t.take(_FOUNDED)
    if m:
        y = int(m.group(2))
        found["founded"] = {"after": (y + 1, 9999), "before": (0, y - 1), "since": (y, 9999), "in": (y, y)}[
            m.group(1)
        ]
    return found


def _words(t: _Text, industries: list[str]) -> list[str]:
    """Adds the industries single words name to `industries`; returns the words left over."""
    leftover: list[str] = []
    for word in re.findall(r"[a-z0-9][a-z0-9.\-]*", t.low):
        forms = tokens(word.strip(".-"))
        if not forms:
            continue
        hit = next((INDUSTRY_WORDS[f] for f in forms if f in INDUSTRY_WORDS), None)
        if hit is not None:
            industries.append(hit)
        elif not any(f in ALL_KIND_WORDS or f in FILLER for f in forms) and not forms[0].isdigit():
            leftover.append(forms[0])
    return leftover


@functools.lru_cache(maxsize=8192)
def read(text: str) -> Facets:
    """The facets `text` asks for (module docstring)."""
    t = _Text(text)
    places = ["United States" for _ in _US_RE.finditer(text)]
    t.low = _US_RE.sub(lambda m: " " * len(m.group(0)), text).lower()
    places += [PLACES[m.group(1)] for m in t.take_all(_PLACE_RE)]
    found = {**_round(t), **_numbers(t)}
    m = t.take(_FUNDED_RE)
    if m:
        found["funded"] = FUNDING_PHRASES[m.group(1)]
    any_of: tuple[str, ...] = ()
    industries: list[str] = []
    if t.take_all(_AI_INFRA_RE):
        industries, any_of = ["Artificial Intelligence"], AI_STACK
    techs = [_TECH_NAME[m.group(1)] for m in t.take_all(_TECH_RE)]
    industries += [INDUSTRY_PHRASES[m.group(1)] for m in t.take_all(_INDUSTRY_PHRASE_RE)]
    leftover = _words(t, industries)
    return Facets(
        industries=tuple(dict.fromkeys(industries)),
        any_of=() if set(any_of) & set(industries[1:]) else any_of,
        places=tuple(dict.fromkeys(places)),
        technologies=tuple(dict.fromkeys(techs)),
        leftover=tuple(dict.fromkeys(leftover)),
        **found,
    )


def met(want: Facets, entity: Any, known: tuple[frozenset[str], frozenset[str]]) -> int:
    """How many of the query's facets (each industry, place, the round ...) `entity` has, read from
    its facts (`known`: its industries and places) alone: the judge's unsourced "unclear" is not a
    ranking's business, and a search scores every entity, so this stays cheap."""
    industries, places = known
    a = entity.attrs
    met = sum(1 for i in want.industries if i in industries) + sum(1 for p in want.places if p in places)
    met += bool(want.any_of and industries & set(want.any_of))
    rounds = a.get("funding_rounds") or ()
    met += bool(
        want.round and any(r["round"] == want.round and want.round_year in (None, r["year"]) for r in rounds)
    )
    for key, bounds in (("employees", want.employees), ("founded", want.founded), ("funding", want.funded)):
        value = a.get(key)
        met += bool(bounds and isinstance(value, int) and bounds[0] <= value <= bounds[1])
    return met + sum(1 for t in want.technologies if t in (a.get("technologies") or ()))


# ---- what an entity has ----------------------------------------------------------------------------
def has_industries(entity: Any) -> set[str] | None:
    """The entity's industries (None: the world holds none for it, a paper say)."""
    a = entity.attrs
    if a.get("industries"):
        return set(a["industries"])
    if a.get("industry"):
        return {str(a["industry"])}
    said = read(entity.text).industries  # a page with no attributes: what its text says
    return set(said) or None


def has_places(entity: Any) -> set[str] | None:
    """Every place the entity is in: its city, country and region."""
    a = entity.attrs
    out: set[str] = set()
    for key in ("city", "country", "region"):
        if a.get(key):
            out |= WITHIN.get(str(a[key]), frozenset({str(a[key])}))
    if a.get("location"):
        for part in str(a["location"]).split(","):
            out |= WITHIN.get(part.strip(), frozenset())
    if not out:
        for place in read(entity.text).places:
            out |= WITHIN.get(place, frozenset({place}))
    return out or None


def _range_ok(value: Any, bounds: tuple[int, int]) -> bool | None:
    return bounds[0] <= value <= bounds[1] if isinstance(value, int) else None


UNSOURCED = 25  # one (entity, facet) pair in this many has no source saying it: "unclear"

Verdict = tuple[bool | None, str]  # (has it: None when the world can't say, why)


def _industry(entity: Any, f: Facets) -> Verdict:
    have = has_industries(entity)
    ok = None if have is None else set(f.industries) <= have and (not f.any_of or bool(have & set(f.any_of)))
    return ok, f"{entity.name} works in {', '.join(sorted(have)) if have else 'no industry the sources name'}"


def _place(entity: Any, f: Facets) -> Verdict:
    where = has_places(entity)
    said = entity.attrs.get("location") or entity.attrs.get("region") or "no place the sources name"
    return (None if where is None else set(f.places) <= where), f"{entity.name} is based in {said}"


def _funding(entity: Any, f: Facets) -> Verdict:
    rounds = entity.attrs.get("funding_rounds")
    if not isinstance(rounds, list):
        return None, f"No source gives the funding rounds of {entity.name}"
    ok = any(r["round"] == f.round and f.round_year in (None, r["year"]) for r in rounds)
    said = ", ".join(f"{r['round']} ({r['year']})" for r in rounds) or "no round"
    return ok, f"{entity.name} raised {said}"


def _employees(entity: Any, f: Facets) -> Verdict:
    n = entity.attrs.get("employees")
    return _range_ok(n, f.employees or (0, 0)), f"{entity.name} has about {n} employees"


def _founded(entity: Any, f: Facets) -> Verdict:
    y = entity.attrs.get("founded")
    return _range_ok(y, f.founded or (0, 0)), f"{entity.name} was founded in {y}"


def _funded(entity: Any, f: Facets) -> Verdict:
    total = entity.attrs.get("funding")
    ok = _range_ok(total, f.funded or (0, 0))
    return ok, f"{entity.name} has raised ${total or 0:,} in all"


def _technologies(entity: Any, f: Facets) -> Verdict:
    techs = entity.attrs.get("technologies")
    ok = None if techs is None else set(f.technologies) <= set(techs)
    return ok, f"{entity.name} builds with {', '.join(techs or []) or 'nothing the sources name'}"


# (label, the Facets field that asks it, its check)
_CHECKS: tuple[tuple[str, str, Callable[[Any, Facets], Verdict]], ...] = (
    ("industry", "industries", _industry),
    ("place", "places", _place),
    ("round", "round", _funding),
    ("employees", "employees", _employees),
    ("founded", "founded", _founded),
    ("funding", "funded", _funded),
    ("technology", "technologies", _technologies),
)


def check(entity: Any, facets: Facets) -> tuple[str, str] | None:
    """The entity's verdict on `facets` and why (module docstring); None when they name nothing.
    As at Exa, a fact the world holds is not always on a page the judge reads: for a stable one
    (entity, facet) pair in `UNSOURCED` the verdict on that facet is "unclear"."""
    if facets.empty:
        return None
    results: list[Verdict] = []
    for label, field, judge in _CHECKS:
        if getattr(facets, field):
            ok, why = judge(entity, facets)
            if ok is not None and stable("unsourced", entity.id, label, ok) % UNSOURCED == 0:
                ok, why = None, f"No source about {entity.name} settles its {label}"
            results.append((ok, why))
    why = "; ".join(w for _, w in results)
    if any(ok is False for ok, _ in results):
        return "no", why
    if any(ok is None for ok, _ in results):
        return "unclear", why
    return "yes", why
