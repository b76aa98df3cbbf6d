"""How the simulated Websets agent reads queries, judges criteria and fills enrichments.

Contract: every function here is pure and deterministic in (world seed, inputs): the same item and
criterion always get the same verdict, reasoning and references; the same item and enrichment the
same result. Derived choices use `world.stable_int` (sha256), never `hash()`.
- `decompose(world, query, entity)` -> (entity type, criteria) or None when the query can't be
  split into an entity and criteria (websets.preview answers 422 then).
- `evaluate(world, entity, criterion)` -> an evaluation dict (criterion, reasoning, satisfied, references).
  A verdict depends on the world and the criterion's text only (never on a search's query); a
  criterion written "Does not satisfy: X" is X's verdict turned round (yes <-> no; unclear stays).
- `enrich(world, entity, description, format, options)` -> the result strings (None when unknown).
- `properties(entity, entity_type, description)` -> the item's `properties` shaped per the spec.
"""

from __future__ import annotations

import re
from typing import Any

from exa_orch.sim.world import (
    CATEGORY_WORDS,
    INDUSTRIES,
    KIND_WORDS,
    REGION_WORDS,
    REGIONS,
    Entity,
    World,
    stable_int,
    tokens,
)

# spec entity type -> world kind (they share names; "custom" has no kind)
_TYPE_TO_KIND = {
    "company": "company",
    "person": "person",
    "research_paper": "research_paper",
    "article": "article",
}
_KIND_WORDS = {w for ws in KIND_WORDS.values() for w in ws}
_PLACES = {t for pairs in REGIONS.values() for city, country in pairs for t in tokens(f"{city} {country}")}
_MORE = re.compile(
    r"(more|over|greater|at least|fewer|less|under)\s+(than\s+)?(\d[\d,]*)\s+(employees|people|staff)"
)
_FOUNDED = re.compile(r"founded\s+(after|before|since|in)\s+(\d{4})")


def topic_words() -> dict[str, str]:
    """Every word the judge understands, mapped to the topic it names."""
    words: dict[str, str] = {}
    for industry, kws in INDUSTRIES.items():
        for w in (*tokens(industry), *kws):
            words.setdefault(w, industry)
    for region, kws in REGION_WORDS.items():
        for w in (*tokens(region), *kws):
            words.setdefault(w, region)
    for cat, kws in CATEGORY_WORDS.items():
        for w in kws:
            words.setdefault(w, cat)
    for w in _PLACES:
        words.setdefault(w, w.title())
    return words


_TOPICS = topic_words()


def entity_kind(entity_type: str | None) -> str | None:
    """The world kind for a spec entity type (None for custom / unknown)."""
    return _TYPE_TO_KIND.get(entity_type or "")


def decompose(
    world: World, query: str, entity: dict[str, Any] | None
) -> tuple[dict[str, Any], list[str]] | None:
    """The entity and the criteria a query stands for, as Exa's planner would split it."""
    meaningful = [w for w in dict.fromkeys(tokens(query)) if w not in _KIND_WORDS]
    topics = list(dict.fromkeys(_TOPICS[w] for w in meaningful if w in _TOPICS))
    kind = world.infer_kind(query)
    if entity:
        ent: dict[str, Any] = dict(entity)
    elif kind is not None:
        ent = {"type": kind}
    elif topics:
        # A bare topic ("quantum computing") most often means the companies working on it.
        ent = {"type": "research_paper" if any(t in CATEGORY_WORDS for t in topics) else "company"}
    else:
        ent = {"type": "custom", "description": query.strip()[:200]}
    if not topics and (len(meaningful) < 2 or (kind is None and not entity)):
        return None
    criteria = [_criterion_for(t) for t in topics][:4]
    # original spellings (tokens() adds singulars), minus what the topics and the entity already say
    firsts = [t[0] for t in (tokens(w) for w in query.split()) if t]
    rest = [w for w in dict.fromkeys(firsts) if w not in _TOPICS and w not in _KIND_WORDS and not w.isdigit()]
    if rest and len(criteria) < 5:
        criteria.append(f"Is relevant to {' '.join(rest[:6])}")
    return ent, criteria or [f"Matches the query: {query.strip()[:200]}"]


def _criterion_for(topic: str) -> str:
    if topic in INDUSTRIES:
        return f"Works in {topic.lower()}"
    if topic in REGION_WORDS:
        return f"Is based in {topic}"
    if topic in CATEGORY_WORDS:
        return f"Is about {', '.join(CATEGORY_WORDS[topic][:2])} ({topic})"
    return f"Is located in {topic}"


def _reference(entity: Entity) -> dict[str, Any]:
    snippet = entity.text.split(". ")[0].rstrip(".") + "."
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
    text = criterion.lower()
    truths = entity.attrs.get("criteria")
    verdict: str | None
    if isinstance(truths, dict):  # a world file's page: its criteria truths, else it is what was asked for
        verdict = str(truths.get(criterion, "yes"))
        why = f"The page of {entity.name} {'supports' if verdict == 'yes' else 'does not settle' if verdict == 'unclear' else 'contradicts'} this"
    else:
        verdict, why = _numeric(entity, text)
    if verdict is None:
        wanted = {_TOPICS[w] for w in tokens(criterion) if w in _TOPICS}
        if wanted:
            bag = {
                _TOPICS[w]
                for w in tokens(f"{entity.text} {entity.title} {_attr_text(entity)}")
                if w in _TOPICS
            }
            hit = wanted & bag
            if hit == wanted:
                verdict, why = "yes", f"{entity.name} matches {', '.join(sorted(hit))}"
            elif hit or stable_int(world.seed, "unclear", entity.id, criterion) % 5 < 2:
                verdict, why = (
                    "unclear",
                    f"The sources on {entity.name} don't establish {', '.join(sorted(wanted - hit))}",
                )
            else:
                verdict, why = "no", f"{entity.name} does not match {', '.join(sorted(wanted))}"
        else:
            roll = stable_int(world.seed, "judge", entity.id, criterion) % 20
            verdict = "yes" if roll < 15 else "unclear" if roll < 18 else "no"
            why = {
                "yes": f"The page of {entity.name} supports this",
                "unclear": f"Nothing found about {entity.name} settles this",
                "no": f"The page of {entity.name} contradicts this",
            }[verdict]
    return {
        "criterion": criterion,
        "reasoning": f'{why}: "{_reference(entity)["snippet"]}"',
        "satisfied": verdict,
        "references": [_reference(entity)] if verdict != "unclear" else [],
    }


def _attr_text(entity: Entity) -> str:
    a = entity.attrs
    return " ".join(
        str(a.get(k, "")) for k in ("industry", "region", "location", "role", "company", "publisher")
    )


def _numeric(entity: Entity, text: str) -> tuple[str | None, str]:
    """Verdicts on employee counts and founding years, which the world knows exactly."""
    m = _MORE.search(text)
    if m and isinstance(entity.attrs.get("employees"), int):
        n, emp = int(m.group(3).replace(",", "")), entity.attrs["employees"]
        ok = (
            emp > n
            if m.group(1) in ("more", "over", "greater")
            else emp >= n
            if m.group(1) == "at least"
            else emp < n
        )
        return ("yes" if ok else "no"), f"{entity.name} has about {emp} employees"
    m = _FOUNDED.search(text)
    if m and isinstance(entity.attrs.get("founded"), int):
        year, founded = int(m.group(2)), entity.attrs["founded"]
        ok = {
            "after": founded > year,
            "before": founded < year,
            "since": founded >= year,
            "in": founded == year,
        }
        return ("yes" if ok[m.group(1)] else "no"), f"{entity.name} was founded in {founded}"
    return None, ""


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
