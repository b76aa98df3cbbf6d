"""How the simulated Websets agent reads queries, judges criteria and fills enrichments.

Contract: every function here is pure and deterministic in (world seed, inputs): the same item and
criterion always get the same verdict, reasoning and references; the same item and enrichment the
same result. Derived choices use `world.stable_int` (sha256), never `hash()`.
- `decompose(world, query, entity)` -> (entity type, criteria) or None when the query can't be
  split into an entity and criteria (websets.preview answers 422 then): one criterion per facet of
  the query (sim/facets.py: an industry, a place of one or more words, a round, ...), and one
  "Is relevant to ..." for the words naming nothing the world knows.
- `evaluate(world, entity, criterion)` -> an evaluation dict (criterion, reasoning, satisfied, references).
  A verdict depends on the world and the criterion's text only (never on a search's query): from
  the entity's facts when the criterion names facets, else a paper category, else a seeded guess
  whose reasoning says it is one (`guessed(criterion)`); a criterion written "Does not satisfy: X"
  is X's verdict turned round (yes <-> no; unclear stays).
- `enrich(world, entity, description, format, options)` -> the result strings (None when unknown).
- `properties(entity, entity_type, description)` -> the item's `properties` shaped per the spec.
"""

from __future__ import annotations

from typing import Any

from exa_orch.sim import facets
from exa_orch.sim.vocab import KIND_WORDS, tokens
from exa_orch.sim.world import CATEGORY_WORDS, Entity, World, stable_int

# spec entity type -> world kind (they share names; "custom" has no kind)
_TYPE_TO_KIND = {
    "company": "company",
    "person": "person",
    "research_paper": "research_paper",
    "article": "article",
}
_KIND_WORDS = {w for ws in KIND_WORDS.values() for w in ws}
# a paper category's words -> the category (read among the words no facet took)
_CATEGORY_OF = {w: cat for cat, kws in CATEGORY_WORDS.items() for w in kws}
KNOWN = (
    "industries, places (city, country, region), funding rounds and their years, head counts, "
    "founding years, total funding, technologies and paper categories"
)


def entity_kind(entity_type: str | None) -> str | None:
    """The world kind for a spec entity type (None for custom / unknown)."""
    return _TYPE_TO_KIND.get(entity_type or "")


def decompose(
    world: World, query: str, entity: dict[str, Any] | None
) -> tuple[dict[str, Any], list[str]] | None:
    """The entity and the criteria a query stands for, as Exa's planner would split it: one
    criterion per thing the query asks (an industry, a place of one or more words, a funding
    round and its year, a head count, a founding year, a technology); words naming nothing the
    world knows become one "Is relevant to ..." criterion, judged by a seeded guess."""
    want = facets.read(query)
    cats = list(dict.fromkeys(_CATEGORY_OF[w] for w in want.leftover if w in _CATEGORY_OF))
    rest = [w for w in want.leftover if w not in _CATEGORY_OF and not w.isdigit()]
    kind = world.infer_kind(query)
    if entity:
        ent: dict[str, Any] = dict(entity)
    elif kind is not None:
        ent = {"type": kind}
    elif not want.empty or cats:
        # A bare topic ("quantum computing") most often means the companies working on it.
        ent = {"type": "research_paper" if cats and want.empty else "company"}
    else:
        ent = {"type": "custom", "description": query.strip()[:200]}
    if want.empty and not cats and (len(rest) < 2 or (kind is None and not entity)):
        return None
    criteria = [*criteria_for(want), *(_category_criterion(c) for c in cats)][:5]
    if rest and len(criteria) < 5:
        criteria.append(f"Is relevant to {' '.join(rest[:6])}")
    return ent, criteria or [f"Matches the query: {query.strip()[:200]}"]


def criteria_for(want: facets.Facets) -> list[str]:
    """One criterion per facet, worded so that `facets.read` reads it back to the same facet."""
    out = ["Builds AI infrastructure" if want.any_of else ""]
    out += [
        f"Works in {i.lower()}"
        for i in want.industries
        if not (want.any_of and i == "Artificial Intelligence")
    ]
    out += [f"Is based in {p}" for p in want.places]
    if want.round:
        out.append(f"Raised a {want.round} round" + (f" in {want.round_year}" if want.round_year else ""))
    if want.employees:
        lo, hi = want.employees
        out.append(
            f"Has more than {lo - 1} employees" if hi >= 10**9
            else f"Has fewer than {hi + 1} employees" if lo == 0
            else f"Has between {lo} and {hi} employees"
        )  # fmt: skip
    if want.founded:
        lo, hi = want.founded
        out.append(
            f"Was founded after {lo - 1}" if hi >= 9999
            else f"Was founded before {hi + 1}" if lo == 0
            else f"Was founded in {lo}" if lo == hi
            else f"Was founded between {lo} and {hi}"
        )  # fmt: skip
    if want.funded:
        lo, hi = want.funded
        out.append(
            "Is well funded" if lo >= facets.WELL_FUNDED
            else "Is venture-backed" if lo > 0
            else "Is bootstrapped" if hi == 0
            else "Struggled to raise funding"
        )  # fmt: skip
    out += [f"Builds with {t}" for t in want.technologies]
    return [c for c in out if c]


def _category_criterion(cat: str) -> str:
    return f"Is about {', '.join(CATEGORY_WORDS[cat][:2])} ({cat})"


def _reference(entity: Entity) -> dict[str, Any]:
    # A world file's page may say what its citations quote (a seeded wrong one: not on the page).
    snippet = entity.attrs.get("quote") or entity.text.split(". ")[0].rstrip(".") + "."
    return {"title": entity.title, "snippet": snippet, "url": entity.url}


NEGATION = "Does not satisfy: "
_FLIP = {"yes": "no", "no": "yes", "unclear": "unclear"}


def evaluate(world: World, entity: Entity, criterion: str) -> dict[str, Any]:
    """Judge `criterion` for `entity`: yes/no from what the world knows, else a stable guess."""
    if criterion[: len(NEGATION)].lower() == NEGATION.lower():
        inner = evaluate(world, entity, criterion[len(NEGATION) :].strip())
        return {
            **inner,
            "criterion": criterion,
            "satisfied": _FLIP[inner["satisfied"]],
            "reasoning": f"Judged on the criterion it negates: {inner['reasoning']}",
        }
    truths = entity.attrs.get("criteria")
    if isinstance(truths, dict):  # a world file's page: its criteria truths, else it is what was asked for
        verdict = str(truths.get(criterion, "yes"))
        why = f"The page of {entity.name} {'supports' if verdict == 'yes' else 'does not settle' if verdict == 'unclear' else 'contradicts'} this"
    else:
        verdict, why = _judge(world, entity, criterion)
    return {
        "criterion": criterion,
        "reasoning": f'{why}: "{_reference(entity)["snippet"]}"',
        "satisfied": verdict,
        "references": [_reference(entity)] if verdict != "unclear" else [],
    }


def _judge(world: World, entity: Entity, criterion: str) -> tuple[str, str]:
    """A seeded world's verdict: from the facts it holds (sim/facets.py), else a paper category
    read from the page, else a seeded guess that says it is one."""
    want = facets.read(criterion)
    known = facets.check(entity, want)
    if known is not None:
        return known
    cats = {_CATEGORY_OF[w] for w in want.leftover if w in _CATEGORY_OF}
    if cats:
        have = set(entity.attrs.get("categories") or ()) | {
            _CATEGORY_OF[w] for w in tokens(f"{entity.text} {entity.title}") if w in _CATEGORY_OF
        }
        if cats <= have:
            return "yes", f"{entity.name} is about {', '.join(sorted(cats))}"
        if cats & have or stable_int(world.seed, "unclear", entity.id, criterion) % 5 < 2:
            return "unclear", f"The sources on {entity.name} don't establish {', '.join(sorted(cats - have))}"
        return "no", f"{entity.name} is not about {', '.join(sorted(cats))}"
    roll = stable_int(world.seed, "judge", entity.id, criterion) % 20
    verdict = "yes" if roll < 15 else "unclear" if roll < 18 else "no"
    return verdict, (
        f"A guess: the simulated world holds no facts about {criterion!r} (it knows {KNOWN}); "
        f"{entity.name} is judged {verdict} by its seed"
    )


def guessed(criterion: str) -> bool:
    """True when a seeded world can only guess `criterion` (it names no fact the world holds)."""
    want = facets.read(criterion)
    return want.empty and not any(w in _CATEGORY_OF for w in want.leftover)


def _attr_text(entity: Entity) -> str:
    a = entity.attrs
    return " ".join(
        str(a.get(k, "")) for k in ("industry", "region", "location", "role", "company", "publisher")
    )


def enrich(
    world: World, entity: Entity, description: str, fmt: str, options: list[dict[str, str]] | None
) -> list[str] | None:
    """The enrichment result strings for `entity` (None when the world has no answer)."""
    a, d = entity.attrs, description.lower()
    pick = stable_int(world.seed, "enrich", entity.id, description, fmt)
    domain = str(a.get("website", entity.url)).split("//")[-1].split("/")[0]
    if fmt == "email":
        return [str(a.get("email") or f"info@{domain}")]
    if fmt == "phone":
        return [str(a.get("phone") or f"+1 555 {pick % 9000000 + 1000000}")]
    if fmt == "url":
        return [str(a.get("website") or entity.url)]
    if fmt == "date":
        return [entity.published_date if "found" not in d or "founded" not in a else f"{a['founded']}-01-01"]
    if fmt == "number":
        for key in ("employees", "funding", "founded"):
            if key[:5] in d and isinstance(a.get(key), int):
                return [str(a[key])]
        return [str(pick % 1000)]
    if fmt == "options":
        labels = [o["label"] for o in options or []]
        if not labels:
            return None
        if sorted(lab.strip().lower() for lab in labels) == ["no", "yes"]:
            # A yes/no question is a criterion asked as an enrichment: the same verdict the
            # criterion gets (the world's truths), no answer when that verdict is unclear.
            verdict = evaluate(world, entity, description)["satisfied"]
            return (
                None
                if verdict == "unclear"
                else [next(lab for lab in labels if lab.strip().lower() == verdict)]
            )
        bag = set(tokens(f"{entity.text} {_attr_text(entity)}"))
        scored = sorted(labels, key=lambda lab: (-len(set(tokens(lab)) & bag), stable_int(pick, lab)))
        return [scored[0]]
    # text
    if any(w in d for w in ("ceo", "founder", "person", "who")) and entity.kind == "company":
        people = [e for e in world.of_kind("person") if e.attrs.get("company_id") == entity.id]
        return [people[0].name] if people else None
    if "location" in d or "headquarter" in d or "city" in d:
        return [str(a.get("location"))] if a.get("location") else None
    if "industry" in d or "sector" in d:
        return [str(a.get("industry"))] if a.get("industry") else None
    sentences = entity.text.split(". ")
    return [sentences[pick % len(sentences)].rstrip(".") + "."]


def enrichment_reasoning(entity: Entity, result: list[str] | None) -> str:
    if result is None:
        return f"No source about {entity.name} gives this"
    return f"Read from {entity.url}: {result[0]}"


def reference(entity: Entity) -> dict[str, Any]:
    """The reference an evaluation or enrichment cites for `entity`."""
    return _reference(entity)


def properties(entity: Entity, entity_type: str, description: str) -> dict[str, Any]:
    """The item's `properties` for `entity`, in the shape of `entity_type` (spec WebsetItem*Properties)."""
    base: dict[str, Any] = {"type": entity_type, "url": entity.url, "description": description}
    a = entity.attrs
    if entity_type == "person":
        company = {"name": a["company"], "location": a.get("location")} if a.get("company") else None
        base["person"] = {"name": entity.name, "location": a.get("location"), "position": a.get("role"),
                          "company": company, "pictureUrl": None}  # fmt: skip
        return base
    base["content"] = entity.text
    if entity_type == "company":
        base["company"] = {
            "name": entity.name, "location": a.get("location"), "employees": a.get("employees"),
            "industry": a.get("industry"), "about": entity.text.split(". ")[0] + ".",
            "logoUrl": f"{str(a.get('website') or entity.url).rstrip('/')}/logo.png" if entity.kind == "company" else None,
        }  # fmt: skip
        return base
    key = {"article": "article", "research_paper": "researchPaper"}.get(entity_type, "custom")
    base[key] = {
        "title": entity.title,
        "author": entity.author,
        "publishedAt": f"{entity.published_date}T00:00:00.000Z",
    }
    return base
