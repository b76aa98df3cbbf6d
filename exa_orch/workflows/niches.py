"""qd.winnow's pure scoring: niches, fitness, elites and the metrics over them (MAP-Elites).

An item's niche is its verdict per criterion (key "1,0,1": bit 1 = yes, 0 = no; an item with any
unclear verdict is listed apart, in no niche); its fitness is the mean of its enrichment scores; the
archive keeps the best entity per niche. Every function here is pure, so its numbers can be checked
by hand; `Pool` holds every round's items on one scale (its `add` a coroutine: it resolves entities
in a worker thread).
"""

from __future__ import annotations

import asyncio
import math
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from exa_orch.workflows import entities, rows

if TYPE_CHECKING:
    from exa_py.websets.types import WebsetEnrichment

Json = dict[str, Any]


def niche_key(vector: list[bool]) -> str:
    """[True, True, False] -> "1,1,0"."""
    return ",".join("1" if v else "0" for v in vector)


def _number(text: str | None) -> float | None:
    if text is None:
        return None
    try:
        value = float(text.replace(",", "").replace("_", ""))
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def fitness_scores(items: list[Json], specs: list[Json]) -> list[float]:
    """Each item's fitness: the mean over `specs` of its scores, each in [0, 1].

    `specs` are [{enrichmentId, format (the arg's: boolean stays boolean), options}]. Per the seed:
    number -> the value, min-max normalized across `items` (all equal -> 1; missing -> 0; the
    workflow passes every item of every round so far, so fitness is on one scale across rounds);
    boolean -> "yes" = 1; options -> the first listed option = 1; anything else -> present = 1.
    Results not completed count as missing. No specs -> 0 for every item.
    """
    if not specs:
        return [0.0 for _ in items]
    answers = [_answers(item, specs) for item in items]
    columns = [_column(spec, [row[j] for row in answers]) for j, spec in enumerate(specs)]
    # Unrounded: averages (avgFitness) and comparisons across rounds use the exact scores.
    return [sum(col[i] for col in columns) / len(columns) for i in range(len(items))]


def _answers(item: Json, specs: list[Json]) -> list[str | None]:
    """The item's completed answer to each spec's enrichment (None: no answer)."""
    by_id = {
        r.get("enrichmentId"): rows.first_text(r.get("result"))
        for r in item.get("enrichments") or []
        if r.get("status", "completed") == "completed"
    }
    return [by_id.get(s["enrichmentId"]) for s in specs]


def _column(spec: Json, raw: list[str | None]) -> list[float]:
    """One spec's score for each item's answer `raw` (see `fitness_scores`)."""
    fmt = spec.get("format")
    if fmt == "number":
        nums = [_number(a) for a in raw]
        present = [n for n in nums if n is not None]
        lo, hi = (min(present), max(present)) if present else (0.0, 0.0)
        return [0.0 if n is None else 1.0 if hi == lo else (n - lo) / (hi - lo) for n in nums]
    if fmt in ("boolean", "options"):
        labels = spec.get("options") or ["yes"]
        good = str(labels[0]).strip().lower() if fmt == "options" else "yes"
        return [1.0 if a is not None and a.lower() == good else 0.0 for a in raw]
    return [0.0 if a is None else 1.0 for a in raw]


def keeps(niche: str, strategy: str) -> bool:
    """Whether `strategy` keeps the niche: all-criteria only all-yes, any-criteria all but all-no."""
    bits = niche.split(",")
    if strategy == "all-criteria":
        return all(b == "1" for b in bits)
    if strategy == "any-criteria":
        return any(b == "1" for b in bits)
    return True


VERDICT_OPTIONS = [{"label": "yes"}, {"label": "no"}]
NEGATION = "Does not satisfy: "
MAX_TARGETS = 8  # websets a round opens at most (one per empty niche)


def verdict_enrichments(criteria: list[str]) -> list[Json]:
    """One yes/no enrichment per criterion (its description is the criterion): where a webset's
    verdicts are, since its items all passed their search's criteria."""
    return [{"description": c, "format": "options", "options": VERDICT_OPTIONS} for c in criteria]


def verdict_ids(enrichments: Sequence[WebsetEnrichment], criteria: list[str]) -> dict[str, str]:
    """criterion -> the id of the created webset's yes/no enrichment for it (among its `enrichments`)."""
    out: dict[str, str] = {}
    for e in enrichments:
        if e.description in criteria and e.description not in out and e.format == "options":
            out[e.description] = e.id
    return out


def verdicts(item: Json, criteria: list[str], ids: dict[str, str] | None = None) -> list[str]:
    """The item's verdict per criterion, "yes" | "no" | "unclear".

    With `ids` (criterion -> yes/no enrichment id): the enrichment's answer, no answer = unclear;
    without: the item's criteria evaluations (a criterion not evaluated = unclear)."""
    if ids is not None:
        answers = {
            r.get("enrichmentId"): (rows.first_text(r.get("result")) or "").lower()
            for r in item.get("enrichments") or []
            if r.get("status", "completed") == "completed"
        }
        got = [answers.get(ids.get(c)) for c in criteria]
    else:
        evals = {str(e.get("criterion")): e.get("satisfied") for e in item.get("evaluations") or []}
        got = [evals.get(c) for c in criteria]
    return [v if v in ("yes", "no") else "unclear" for v in got]


def niche_of(verdict: list[str]) -> str | None:
    """["yes", "no"] -> "1,0"; None when any verdict is unclear (the item is listed apart)."""
    if any(v not in ("yes", "no") for v in verdict):
        return None
    return niche_key([v == "yes" for v in verdict])


def classify(
    items: list[Json], criteria: list[str], fitness: list[float], ids: dict[str, str] | None = None
) -> list[Json]:
    """Each item with a niche as a candidate elite {item, niche, fitnessScore, criteriaVector}, in
    item order; items with an unclear verdict are left out (see `unclear_ids`)."""
    out = []
    for item, score in zip(items, fitness, strict=True):
        niche = niche_of(verdicts(item, criteria, ids))
        if niche is not None:
            vector = [b == "1" for b in niche.split(",")]
            out.append({"item": item, "niche": niche, "fitnessScore": score, "criteriaVector": vector})
    return out


def unclear_ids(items: list[Json], criteria: list[str], ids: dict[str, str] | None = None) -> list[str]:
    """The ids of the items with any unclear verdict, in item order."""
    return [str(i.get("id")) for i in items if niche_of(verdicts(i, criteria, ids)) is None]


def target_niches(n_criteria: int, filled: set[str]) -> list[str]:
    """The empty niches a round asks for: every key of 2^N not in `filled`, all-yes first, at most
    MAX_TARGETS (a pure function of the archive, so a resumed round targets the same ones)."""
    keys = [
        niche_key([bool(n >> (n_criteria - 1 - i) & 1) for i in range(n_criteria)])
        for n in range(2**n_criteria)
    ]
    return [k for k in sorted(keys, reverse=True) if k not in filled][:MAX_TARGETS]


def phrased(criteria: list[str], niche: str) -> list[Json]:
    """A search's criteria for `niche`: the criterion for a 1, its negation for a 0."""
    return [
        {"description": c if bit == "1" else f"{NEGATION}{c}"}
        for c, bit in zip(criteria, niche.split(","), strict=True)
    ]


def select_elites(candidates: list[Json], strategy: str) -> list[Json]:
    """The best candidate per niche the strategy keeps (ties: the earlier item), niches sorted."""
    best: dict[str, Json] = {}
    for c in candidates:
        if keeps(c["niche"], strategy) and (
            c["niche"] not in best or c["fitnessScore"] > best[c["niche"]]["fitnessScore"]
        ):
            best[c["niche"]] = c
    return [best[n] for n in sorted(best, reverse=True)]


def success_rates(candidates: list[Json], criteria: list[str]) -> dict[str, float]:
    """criterion -> % of the items satisfying it (0 when there are no items)."""
    n = len(candidates)
    return {
        c: round(100 * sum(x["criteriaVector"][i] for x in candidates) / n, 2) if n else 0.0
        for i, c in enumerate(criteria)
    }


def distribution(candidates: list[Json]) -> dict[str, int]:
    """niche -> how many items are in it, niches sorted."""
    counts = Counter(c["niche"] for c in candidates)
    return {k: counts[k] for k in sorted(counts, reverse=True)}


def entropy(counts: dict[str, int]) -> float:
    """Shannon entropy (bits) of a niche distribution: 0 for one niche, log2(k) for k equal ones."""
    total = sum(counts.values())
    if not total:
        return 0.0
    h = -sum(n / total * math.log2(n / total) for n in counts.values() if n)
    return round(abs(h), 6)


def _ident(elite: Json, entity_of: dict[str, str] | None = None) -> tuple[str, str]:
    item = elite["item"]
    known = (entity_of or {}).get(str(item.get("id")))
    return elite["niche"], known or entities.entity_key(item)


def elite_change(before: list[Json], after: list[Json], entity_of: dict[str, str] | None = None) -> float:
    """Share of the elite set that changed: |A xor B| / |A or B| over (niche, entity); 0 if both empty.

    `entity_of` maps item ids to their resolved entity (items of two rounds' websets that are one
    company count as one); without it, each item's own `entities.entity_key`."""
    a, b = {_ident(e, entity_of) for e in before}, {_ident(e, entity_of) for e in after}
    union = a | b
    return round(len(a ^ b) / len(union), 6) if union else 0.0


def quality_metrics(
    n_criteria: int, counts: dict[str, int], elites: list[Json], found: float, analyzed: float
) -> Json:
    """{coverage: populated niches / 2^N, avgFitness over elites, diversity: entropy (bits),
    stringency: found / analyzed (0 when nothing was analyzed)}."""
    populated = sum(1 for n in counts.values() if n)
    return {
        "coverage": round(populated / 2**n_criteria, 6),
        # the mean of the unrounded scores, rounded once
        "avgFitness": round(math.fsum(e["fitnessScore"] for e in elites) / len(elites), 6) if elites else 0.0,
        "diversity": entropy(counts),
        "stringency": round(found / analyzed, 6) if analyzed else 0.0,
    }


def entities_of(items: list[Json]) -> dict[str, str]:
    """item id -> the key of its entity (`entities.resolve`: the key of the entity's first item)."""
    entity_of: dict[str, str] = {}
    for members in entities.resolve(items).groups:
        key = entities.entity_key(items[members[0]])
        for i in members:
            entity_of[str(items[i].get("id"))] = key
    return entity_of


class Pool:
    """Every item of every round so far, scored on one scale and resolved into entities.

    Each round's webset has its own enrichment ids: results are re-keyed by the arg's position, so a
    number enrichment is min-max normalised over all rounds' items (an elite of round 1 and a
    candidate of round 3 compete on the same scale). An entity found in several rounds (any of
    `entities.resolve`'s matches) counts once, in the niche of its latest round, by its fittest
    item there (ties: the earlier); the archive is the best of those per niche (ties: the earlier)."""

    def __init__(self, criteria: list[str], strategy: str) -> None:
        self.criteria = criteria
        self.strategy = strategy
        self.items: list[Json] = []
        self.canonical: list[Json] = []
        self.specs: dict[int, Json] = {}
        self.entity_of: dict[str, str] = {}
        self.niche_of: dict[str, str] = {}

    async def add(
        self, items: list[Json], specs: list[Json], ids: dict[str, str] | None = None
    ) -> tuple[list[Json], list[Json]]:
        """Add one round's items; returns (this round's candidates, the archive), on the pooled scale.

        Items with an unclear verdict are not added (they have no niche); `ids` as in `verdicts`.
        Every item so far is resolved into entities in a worker thread, before the pool changes: a
        cancel while it runs leaves the pool as it was."""
        items = [i for i in items if niche_of(verdicts(i, self.criteria, ids)) is not None]
        # Resolution is CPU work (seconds for a few hundred items on a busy machine): off the event
        # loop, which keeps renewing the task's lease. The thread gets a list of its own to read.
        entity_of = await asyncio.to_thread(entities_of, [*self.items, *items])
        for item in items:
            self.niche_of[str(item.get("id"))] = niche_of(verdicts(item, self.criteria, ids)) or ""
        self._rekey(items, specs)
        self.items.extend(items)
        scores = fitness_scores(self.canonical, [self.specs[k] for k in sorted(self.specs)])
        candidates: list[Json] = [
            {"item": item, "niche": self.niche_of[str(item.get("id"))], "fitnessScore": score,
             "criteriaVector": [b == "1" for b in self.niche_of[str(item.get("id"))].split(",")]}
            for item, score in zip(self.items, scores, strict=True)
        ]  # fmt: skip
        self.entity_of = entity_of
        return candidates[len(candidates) - len(items) :], self._archive(candidates)

    def _rekey(self, items: list[Json], specs: list[Json]) -> None:
        """Add the items' enrichment results re-keyed by the arg's position ("arg<j>")."""
        by_id = {s["enrichmentId"]: f"arg{s['arg']}" for s in specs}
        for s in specs:
            self.specs.setdefault(s["arg"], {**s, "enrichmentId": f"arg{s['arg']}"})
        for item in items:
            results = [
                {**r, "enrichmentId": by_id[r.get("enrichmentId")]}
                for r in item.get("enrichments") or []
                if r.get("enrichmentId") in by_id
            ]
            self.canonical.append({**item, "enrichments": results})

    def _archive(self, candidates: list[Json]) -> list[Json]:
        """The best entity per niche: each entity by its fittest candidate in its latest niche."""
        entity = [self.entity_of[str(c["item"].get("id"))] for c in candidates]
        niche = {e: c["niche"] for e, c in zip(entity, candidates, strict=True)}  # the latest round's
        best: dict[str, int] = {}  # entity -> its fittest candidate in that niche (ties: the earlier)
        for n, c in enumerate(candidates):
            e = entity[n]
            if c["niche"] == niche[e] and (
                e not in best or c["fitnessScore"] > candidates[best[e]]["fitnessScore"]
            ):
                best[e] = n
        ordered = [candidates[n] for n in sorted(best.values())]
        return select_elites(ordered, self.strategy)

    def niches(self) -> dict[str, int]:
        """niche -> how many entities are in it now (each in its latest round's niche)."""
        latest: dict[str, str] = {}
        for item in self.items:
            latest[self.entity_of[str(item.get("id"))]] = self.niche_of[str(item.get("id"))]
        counts = Counter(latest.values())
        return {k: counts[k] for k in sorted(counts, reverse=True)}
