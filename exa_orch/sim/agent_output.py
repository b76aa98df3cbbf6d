"""What a finished agent run found: its rows, structured output, grounding, usage and cost.

`outcome(run_request, world, ...)` is a pure function of the request, the world, the runs it
continues and how far it got (a stopped run keeps what it had), so the same seed gives the same
answer. The rules (sources in data-design/exa-api-notes.md):
- Rows. The outputSchema's row list is the schema itself when it is an array, else its first array
  property. With `input.data` the run returns one row per input row, in order: fields the row
  already has are kept, the others are filled from the world entity the row names (by URL or
  domain in any of its values, else by exact name); a row the world does not know is filled
  deterministically from its own fields and its grounding says so (no citations, confidence low,
  score 0). Without input rows the run lists entities ranked for its
  query: as many as the query asks ("find 25 ...") or DEFAULT_ROWS, within the schema's
  minItems/maxItems, and never more than the world has.
- `input.exclusion` records are never returned: an entity is excluded when a record names its URL,
  domain, id or (case-insensitive) name.
- `previousRunId`: the run continues the ranking of the run chain's first query and returns none of
  the entities any run of the chain returned. A listed entity is one row: a near-duplicate page of
  one already listed (the world's `duplicate_of`) is the same company, never a second row.
- Cost. A fixed effort costs its fixed price. A metered effort (auto, ultra, max) bills usage (ACU
  and searches, growing with the rows) up to its budget (`budget.maxCostDollars`, else Exa's
  default 5 for auto, 20 for ultra and max): a run whose rows would cost more returns the rows the
  budget buys (billed what they cost) and ends with stopReason `budget_reached`.
- Grounding: one entry per filled field (`companies[3].employees`), citing the row's entity.
- Verdicts (issue 25). A row field that is a string enum of yes / no (/ unclear) with a
  `description` is a criterion: the row's entity is judged on it as a webset judges a criterion
  (`websets.judge.evaluate`: the world's truths, never the query's wording; "unclear" where the enum
  has it, else no answer). A query line "Satisfies: X" or "Does not satisfy: X" asks for entities
  judged yes (no) on X: the ranking is searched for those only; how they are judged is unchanged.
  Those lines (and the lead-in line ending in ":" before them) are conditions, not search words:
  the ranking is the rest of the query's (`topic`), as a webset's search ranks its query alone.
  The kind of entity listed is the one the query names, else the one its `systemPrompt` names.
"""

from __future__ import annotations

import json
import math
import re
import weakref
from dataclasses import dataclass, field
from typing import Any

from exa_orch.sim.billing import ACU, AGENT_FIXED, USAGE_SEARCH
from exa_orch.sim.billing import AGENT_METERED_CAP as METERED_CAP
from exa_orch.sim.synth import answer_text, fill, host, ranking, stable
from exa_orch.sim.websets import judge
from exa_orch.sim.world import Entity

DEFAULT_ROWS = 10  # rows a list-building run returns when neither the query nor the schema says
MAX_ROWS = 1000
# Usage a run spends: a base, then per row (more effort, more checking per row).
BASE_ACU, BASE_SEARCHES = 0.5, 3
ROW_ACU = {"auto": 0.2, "ultra": 0.5, "max": 0.5}
ROW_SEARCHES = {"auto": 4, "ultra": 10, "max": 10}
_ASK = re.compile(r"\b(\d{1,4})\b")


@dataclass
class Outcome:
    """A finished run's answer and bill."""

    text: str
    structured: Any
    grounding: list[dict[str, Any]]
    entity_ids: list[str]  # the world entities its rows are (a follow-up repeats none of them)
    stop_reason: str
    usage: dict[str, Any]
    cost: dict[str, Any]
    extra: dict[str, Any] = field(default_factory=dict)


def canonical(entity: Entity) -> str:
    """The id of the thing an entity is (a near-duplicate page names its original's)."""
    return str(entity.attrs.get("duplicate_of") or entity.id)


def rows_path(schema: Any) -> tuple[str | None, dict[str, Any]] | None:
    """Where the row list is: (None, items) for an array schema, (key, items) for an object's first
    array property, None when the schema has no list."""
    if not isinstance(schema, dict):
        return None
    if schema.get("type") == "array" or ("items" in schema and "properties" not in schema):
        items = schema.get("items")
        return None, items if isinstance(items, dict) else {"type": "string"}
    for key, sub in (schema.get("properties") or {}).items():
        if isinstance(sub, dict) and (sub.get("type") == "array" or "items" in sub):
            items = sub.get("items")
            return key, items if isinstance(items, dict) else {"type": "string"}
    return None


def asked_count(query: str) -> int | None:
    """The number of rows a query asks for ("find 25 AI startups"), ignoring years."""
    for match in _ASK.finditer(query):
        n = int(match.group(1))
        if 1 <= n <= MAX_ROWS and not 1900 <= n <= 2100:
            return n
    return None


def _values(record: dict[str, Any]) -> list[str]:
    return [v.strip() for v in record.values() if isinstance(v, str) and v.strip()]


def _url_like(value: str) -> bool:
    return "://" in value or bool(re.fullmatch(r"(www\.)?[a-z0-9-]+(\.[a-z0-9-]+)+(/\S*)?", value.lower()))


class Matcher:
    """Finds the world entity a record names (by URL/domain, id, or exact name)."""

    def __init__(self, world: Any) -> None:
        self.world = world
        self._by_host: dict[str, Entity] = {}
        self._by_name: dict[str, Entity] = {}
        for e in world.entities:
            self._by_host.setdefault(host(e.url), e)
            self._by_name.setdefault(e.name.lower(), e)

    def entity(self, record: dict[str, Any]) -> Entity | None:
        values = _values(record)
        for value in values:
            if _url_like(value):
                hit = self._by_host.get(host(value))
                if hit is not None:
                    return hit
        for value in values:
            hit = self.world.by_id(value) or self._by_name.get(value.lower())
            if hit is not None:
                return hit
        return None

    def excludes(self, records: list[dict[str, Any]], entity: Entity) -> bool:
        for record in records:
            for value in _values(record):
                if value == entity.id or value.lower() == entity.name.lower():
                    return True
                if _url_like(value) and host(value) == host(entity.url):
                    return True
        return False


_MATCHERS: weakref.WeakKeyDictionary[Any, Matcher] = weakref.WeakKeyDictionary()


def matcher_for(world: Any) -> Matcher:
    """The Matcher of `world`, built at its first use."""
    found = _MATCHERS.get(world)
    if found is None:
        found = _MATCHERS[world] = Matcher(world)
    return found


def row_entity(row: dict[str, Any], seed: int) -> Entity:
    """A stand-in entity made of a row's own fields, for a row the world does not know."""
    text = json.dumps(row, sort_keys=True, default=str)
    values = _values(row)
    url = next((v for v in values if _url_like(v)), None)
    name = next(
        (str(row[k]) for k in row if isinstance(row[k], str) and k.lower() in ("name", "company", "title")),
        values[0] if values else f"row {stable(seed, text) % 10_000}",
    )
    if url is None:
        url = f"https://{re.sub(r'[^a-z0-9]+', '', name.lower()) or 'row'}.example"
    elif "://" not in url:
        url = f"https://{url}"
    attrs = dict(row)
    return Entity(
        id=f"row_{stable(seed, text) % 16**12:012x}",
        kind="company",
        name=name,
        url=url,
        title=name,
        text=" ".join(values) or name,
        published_date="2026-01-01",
        author=None,
        attrs=attrs,
    )


_WANTS = re.compile(r"^\W*(satisfies|does not satisfy):\s*(.+?)\s*$", re.IGNORECASE | re.MULTILINE)


def niche_request(query: str) -> list[tuple[str, str]]:
    """The query's "Satisfies: X" / "Does not satisfy: X" lines as (X, "yes" | "no")."""
    return [(m[2], "no" if m[1].lower().startswith("does") else "yes") for m in _WANTS.finditer(query)]


def topic(query: str) -> str:
    """What the query searches for: its text without the "Satisfies:" / "Does not satisfy:" lines
    (conditions the candidates are filtered by, not search words) and the lead-in line ending in
    ":" that introduced them."""
    lines = [line for line in query.splitlines() if not _WANTS.match(line)]
    while len(lines) > 1 and lines[-1].rstrip().endswith(":"):
        lines.pop()
    return "\n".join(lines).strip() or query


def _verdict_field(sub: Any) -> bool:
    enum = sub.get("enum") if isinstance(sub, dict) else None
    return (
        isinstance(enum, list)
        and {str(v).lower() for v in enum} in ({"yes", "no"}, {"yes", "no", "unclear"})
        and bool(sub.get("description"))
    )


def _verdict(world: Any, entity: Entity | None, sub: dict[str, Any]) -> str | None:
    """The entity's verdict on the criterion `sub` describes (None: unclear and the enum lacks it)."""
    said = judge.evaluate(world, entity, str(sub["description"]))["satisfied"] if entity else "unclear"
    return said if said in [str(v).lower() for v in sub["enum"]] else None


def _row_value(
    items: dict[str, Any],
    row: dict[str, Any] | None,
    entity: Entity,
    name: str,
    world: Any = None,
    in_world: Entity | None = None,
) -> Any:
    """One row: the row's own fields kept, the schema's other fields filled from `entity`
    (a verdict field judged on `in_world`, the row's world entity: see the module docstring)."""
    props = items.get("properties") if isinstance(items, dict) else None
    if not isinstance(props, dict) or not props:
        if row is not None and items.get("type") in ("object", None) and "properties" not in items:
            return dict(row)
        return fill(items, name, [entity], 0, 1)
    out: dict[str, Any] = {}
    lowered = {k.lower(): k for k in (row or {})}
    for key, sub in props.items():
        own = lowered.get(key.lower())
        if row is not None and own is not None:
            out[key] = row[own]
        elif world is not None and _verdict_field(sub):
            out[key] = _verdict(world, in_world, sub)
        else:
            out[key] = fill(sub, key, [entity], 0, 2)
    return out


def _filled_fields(items: dict[str, Any], row: dict[str, Any] | None) -> list[str]:
    props = items.get("properties") if isinstance(items, dict) else None
    if not isinstance(props, dict) or not props:
        return [""]
    have = {k.lower() for k in (row or {})}
    return [k for k in props if k.lower() not in have]


def metered_cost(effort: str, rows: int) -> tuple[float, float, int]:
    """(dollars, ACU, searches) of a metered run that returns `rows` rows."""
    acu = BASE_ACU + ROW_ACU[effort] * rows
    searches = BASE_SEARCHES + ROW_SEARCHES[effort] * rows
    return acu * ACU + searches * USAGE_SEARCH, acu, searches


def affordable_rows(effort: str, rows: int, cap: float) -> int:
    """The most rows (up to `rows`) a metered run can return within `cap` dollars."""
    per_row = ROW_ACU[effort] * ACU + ROW_SEARCHES[effort] * USAGE_SEARCH
    base = BASE_ACU * ACU + BASE_SEARCHES * USAGE_SEARCH
    return max(0, min(rows, math.floor((cap - base) / per_row + 1e-9)))


Pair = tuple[dict[str, Any] | None, Entity | None]  # an input row (None: from the ranking), its entity


def _input_pairs(
    data: list[dict[str, Any]], exclusion: list[dict[str, Any]], seed: int, matcher: Matcher
) -> list[Pair]:
    """The run's `input.data` rows, in order, each with its world entity (or none), less the rows
    `input.exclusion` names."""
    matched = [(row, matcher.entity(row)) for row in data]
    return [
        (row, e)
        for row, e in matched
        if not (e is not None and matcher.excludes(exclusion, e))
        and not matcher.excludes(exclusion, row_entity(row, seed))
    ]


def _ranked_pairs(
    request: dict[str, Any],
    world: Any,
    *,
    rank_query: str,
    seen: set[str],
    exclusion: list[dict[str, Any]],
    matcher: Matcher,
    schema: dict[str, Any] | None,
    where: tuple[str | None, dict[str, Any]] | None,
) -> list[Pair]:
    """With no input rows: the ranking's entities for `rank_query` the query asks for, none of
    `seen` (a follow-up's chain) nor excluded, one row per company, as many as the query (or the
    schema's minItems/maxItems) asks; a prose answer cites its top five."""
    query = str(request["query"])
    searched = topic(rank_query)
    # the kind the query names, else the one its system prompt names ("Each row is one company")
    kind = world.infer_kind(searched) or world.infer_kind(str(request.get("systemPrompt") or ""))
    ranked, taken = [], set(seen)
    asks = niche_request(query)
    for e in ranking(world, searched, kind):
        if asks and any(judge.evaluate(world, e, c)["satisfied"] != v for c, v in asks):
            continue  # not what the query asks for
        if canonical(e) not in taken and not matcher.excludes(exclusion, e):
            ranked.append(e)
            taken.add(canonical(e))  # one row per company: a near-duplicate is the same one
    wanted = asked_count(query) or DEFAULT_ROWS
    if where is not None:
        items_schema = schema.get("properties", {}).get(where[0]) if where[0] and schema else schema
        if isinstance(items_schema, dict):
            wanted = max(wanted, int(items_schema.get("minItems", 0)))
            wanted = min(wanted, int(items_schema.get("maxItems", MAX_ROWS)))
    else:
        wanted = min(wanted, 5)  # a prose answer (or a single object) cites its top sources
    return [(None, e) for e in ranked[:wanted]]


def _metered(
    request: dict[str, Any], n: int, share: float, has_schema: bool
) -> tuple[int, str, dict[str, Any], dict[str, Any]]:
    """How far a run of `n` candidate rows got, and what it cost: (rows kept, stopReason, usage,
    cost). A stopped run keeps its `share`; a metered effort what its budget buys; the others
    charge one fixed price. Usage and cost carry every field of the spec's AgentUsage and
    AgentCostDollars, in whole units (no emails or phone numbers are looked up here)."""
    effort = str(request.get("effort") or "auto")
    if share < 1.0:
        n = max(1 if n else 0, math.floor(n * share))
    stop_reason = "stopped" if share < 1.0 else ("schema_satisfied" if has_schema else "budget_reached")
    budget = request.get("budget") or {}
    if effort in METERED_CAP:
        cap = float(budget.get("maxCostDollars") or METERED_CAP[effort])
        afford = affordable_rows(effort, n, cap)
        if afford < n or metered_cost(effort, n)[0] > cap:
            n = afford
            stop_reason = stop_reason if share < 1.0 else "budget_reached"
        # (A budget is at least $1, more than the base, so the rows it buys always cost no more.)
        _, acu, searches = metered_cost(effort, n)
        compute, search = round(acu * ACU, 4), round(searches * USAGE_SEARCH, 4)
        cost = {"total": round(compute + search, 4), "agentCompute": compute, "search": search}
    else:
        _, acu, searches = metered_cost("auto", n)
        price = AGENT_FIXED.get(effort, AGENT_FIXED["medium"])
        cost = {"total": price, "agentCompute": price, "search": 0.0}  # one fixed price, as compute
    usage = {"agentComputeUnits": math.ceil(acu), "searches": searches, "emails": 0, "phoneNumbers": 0}
    return n, stop_reason, usage, {**cost, "emails": 0.0, "phoneNumbers": 0.0}


def _cite(entities: list[Entity]) -> list[dict[str, Any]]:
    return [{"url": e.url, "title": e.title} for e in entities]


def _rows_output(
    schema: dict[str, Any],
    where: tuple[str | None, dict[str, Any]],
    pairs: list[Pair],
    entities: list[Entity],
    world: Any,
    seed: int,
) -> tuple[Any, list[dict[str, Any]]]:
    """A list-building run's output (the rows at `where`, the schema's other fields filled) and
    its grounding: each filled field of a row cites its entity; a row not found on the web is
    grounded low, with no citation and score 0 (the spec's AgentGrounding has no field to say more)."""
    known = _known(pairs, entities)
    key, items = where
    rows = [
        _row_value(items, row, e, key or "root", world, w)
        for (row, w), e in zip(pairs, entities, strict=True)
    ]
    structured: Any = rows
    if key is not None:
        structured = {
            k: rows if k == key else fill(sub, k, known or entities or [row_entity({}, seed)], 0, 1)
            for k, sub in (schema.get("properties") or {}).items()
        }
    grounding: list[dict[str, Any]] = []
    for i, ((row, in_world), e) in enumerate(zip(pairs, entities, strict=True)):
        for f in _filled_fields(items, row):
            path = f"{key or ''}[{i}]" + (f".{f}" if f else "")
            if in_world is not None:
                grounding.append({"field": path, "citations": _cite([e]), "confidence": "high"})
            else:
                grounding.append({"field": path, "citations": [], "confidence": "low", "score": 0.0})
    return structured, grounding


def _output(
    schema: dict[str, Any] | None,
    where: tuple[str | None, dict[str, Any]] | None,
    pairs: list[Pair],
    entities: list[Entity],
    world: Any,
    seed: int,
) -> tuple[Any, list[dict[str, Any]]]:
    """The run's structured output (None without an outputSchema) and its grounding: rows
    (`_rows_output`), a single object filled from the top entities, or the text citing them."""
    known = _known(pairs, entities)
    if schema is None:
        return None, [{"field": "text", "citations": _cite(known[:3]), "confidence": "high"}]
    if where is not None:
        return _rows_output(schema, where, pairs, entities, world, seed)
    structured = fill(schema, "root", known or entities or [row_entity({}, seed)], 0, 0)
    fields = list(structured) if isinstance(structured, dict) else ["structured"]
    return structured, [{"field": f, "citations": _cite(known[:3]), "confidence": "high"} for f in fields]


def _known(pairs: list[Pair], entities: list[Entity]) -> list[Entity]:
    """The entities of the rows found in the world (not made up for an input row it doesn't know)."""
    return [e for (_, w), e in zip(pairs, entities, strict=True) if w is not None]


def _text(query: str, pairs: list[Pair], entities: list[Entity], from_input: bool) -> str:
    """The run's prose answer; a run over input rows says how many it processed and missed."""
    text = answer_text(query, _known(pairs, entities) or entities)
    if not from_input:
        return text
    missing = sum(1 for _, e in pairs if e is None)
    return (
        text
        + f" ({len(pairs)} rows processed"
        + (f"; {missing} not found on the web" if missing else "")
        + ".)"
    )


def _input_of(request: dict[str, Any]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The request's `input.data` and `input.exclusion` rows (objects only)."""
    given = request.get("input") or {}
    data = [r for r in given.get("data") or [] if isinstance(r, dict)]
    exclusion = [r for r in given.get("exclusion") or [] if isinstance(r, dict)]
    return data, exclusion


def outcome(
    request: dict[str, Any],
    world: Any,
    *,
    seed: int,
    rank_query: str,
    seen: set[str],
    matcher: Matcher,
    share: float = 1.0,
) -> Outcome:
    """The answer a run with `request` gives (`share` < 1: a run stopped that far through).

    Its candidates are its input rows, else the world's ranking for `rank_query` (less `seen`);
    `_metered` cuts them to what it got through and prices them; `_output` shapes them."""
    schema = request.get("outputSchema") if isinstance(request.get("outputSchema"), dict) else None
    data, exclusion = _input_of(request)
    where = rows_path(schema)
    if data:
        pairs = _input_pairs(data, exclusion, seed, matcher)
    else:
        pairs = _ranked_pairs(
            request,
            world,
            rank_query=rank_query,
            seen=seen,
            exclusion=exclusion,
            matcher=matcher,
            schema=schema,
            where=where,
        )
    n, stop_reason, usage, cost = _metered(request, len(pairs), share, schema is not None)
    pairs = pairs[:n]
    entities = [e if e is not None else row_entity(row or {}, seed) for row, e in pairs]
    structured, grounding = _output(schema, where, pairs, entities, world, seed)
    return Outcome(
        text=_text(str(request["query"]), pairs, entities, bool(data)),
        structured=structured,
        grounding=grounding,
        entity_ids=[canonical(e) for _, e in pairs if e is not None],
        stop_reason=stop_reason,
        usage=usage,
        cost=cost,
    )
