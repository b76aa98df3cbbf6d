"""The row: what a collection workflow reads of an entity, whichever engine found it (issue 25).

A `Row` has named fields: {id, engine, type, name, url, description, the identity fields of its
type (`IDENTITY_FIELDS`: a company's location and industry, a person's employer, role and location;
None when unknown), verdicts: [Verdict], fields: [RowField], and where it came from: `item` (a
webset row: the item as agents read it) or `run` (an agent row: the run, the row's place in its
output, and the row as the run returned it, the user's structured fields kept as a mapping)}. One adapter per engine builds it: `from_item` (a Websets
item) and `from_agent` (an agent run's structured output, cited by the run's grounding, exa-py's
`AgentGroundingEntry`). `as_item(row)` is the Websets-item view a row keeps for results and for
`entities.resolve` (a webset row: its item untouched; an agent row: properties, evaluations and
enrichments built from the row, its identity fields where a Websets item has them:
properties.company.location / .industry, properties.person.location / .position / .company.name),
so a result has the same shape on both engines and the resolver reads both alike.

Rows are never checkpointed: a collection rebuilds them from its runs' checkpoints
(workflows/runs.py `RunSeen`), so they carry no JSON compat of their own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict

from exa_orch.workflows import kit

if TYPE_CHECKING:
    from exa_py.agent.types import AgentGroundingEntry

ItemJson = dict[str, Any]
"""An item as agents read it (`exa.views.item_view`, or `as_item`'s view of an agent row): what
results return and `entities.resolve` reads."""
VerdictValue = Literal["yes", "no", "unclear"]
_ROW = ConfigDict(frozen=True, defer_build=True)

# What an agent row of a type is asked for besides name, url and description (`rows.rows_schema`,
# these descriptions) and carries into the Websets shape (`props_of`): the evidence
# `entities.resolve` reads of a Websets item (a company's country and industry, a person's
# employer, title and country), which an agent row otherwise leaves to its description's wording.
# None of these names is `criterion{i}` / `field{j}`, so the user's own fields never collide.
IDENTITY_FIELDS: dict[str, dict[str, str]] = {
    "company": {
        "location": 'Where the company is headquartered, as "City, Country"; empty if not found.',
        "industry": "What the company does (its industry), in a few words; empty if not found.",
    },
    "person": {
        "employer": "The name of the organisation the person works for or leads now; empty if not found.",
        "role": "The person's current title at that employer; empty if not found.",
        "location": 'Where the person is based, as "City, Country"; empty if not found.',
    },
}
# Answers that say nothing (any case): no value, so they are never evidence of a match or a clash.
PLACEHOLDERS = frozenset({"", "unknown", "n/a", "none", "-", "null"})
IDENTITY_NAMES = frozenset(n for named in IDENTITY_FIELDS.values() for n in named)


class Verdict(BaseModel):
    """A row's answer on one criterion, with the URLs that back it."""

    model_config = _ROW
    criterion: str
    verdict: VerdictValue
    reasoning: str | None = None
    evidence: list[str] = []


class RowField(BaseModel):
    """One value asked of a row (an enrichment's answer, or an agent row's `field{j}`), cited."""

    model_config = _ROW
    name: str
    value: str | None = None
    citations: list[str] = []


class RunRow(BaseModel):
    """Where an agent row came from: its run, its place in the run's output, the row as returned."""

    model_config = _ROW
    run_id: str
    index: int
    row: dict[str, Any]  # the user's structured fields, as the run returned them


class Row(BaseModel):
    """One entity as a collection workflow reads it (see the module docstring)."""

    model_config = _ROW
    id: str
    engine: str
    type: str | None = None
    name: str | None = None
    url: str | None = None
    description: str | None = None
    # Identity fields (`IDENTITY_FIELDS`), an agent row's only; None for a webset row (its item
    # has them) and for a row of a run made before they were asked (or a row dumped then).
    location: str | None = None
    industry: str | None = None  # a company's
    employer: str | None = None  # a person's
    role: str | None = None  # a person's
    verdicts: list[Verdict] = []
    fields: list[RowField] = []
    item: ItemJson | None = None  # a webset row's item, returned untouched by `as_item`
    run: RunRow | None = None  # an agent row's source

    def passes(self) -> bool:
        """Whether every verdict is yes (what a webset keeps: data-design/exa-api-notes.md)."""
        return all(v.verdict == "yes" for v in self.verdicts)

    def properties(self) -> ItemJson:
        """Websets-style properties of the row (`props_of`)."""
        return props_of(self.model_dump(include={"type", "url", "description", "name", *IDENTITY_NAMES}))


def _urls(refs: Any) -> list[str]:
    """URLs of Exa references ([{url, title, snippet}]) or citation lists ([url]), first-seen order."""
    out: list[str] = []
    for ref in refs if isinstance(refs, list) else []:
        url = ref.get("url") if isinstance(ref, dict) else ref
        if isinstance(url, str) and url and url not in out:
            out.append(url)
    return out


def first_text(result: Any) -> str | None:
    """An enrichment result's text: its first non-blank string (Exa sends a list), else None."""
    if isinstance(result, list) and result and isinstance(result[0], str) and result[0].strip():
        return result[0].strip()
    if isinstance(result, str) and result.strip():
        return result.strip()
    return None


def verdict_of(value: Any) -> VerdictValue:
    """ "yes" / "no" as given (any case); anything else is "unclear"."""
    said = str(value or "").strip().lower()
    return "yes" if said == "yes" else "no" if said == "no" else "unclear"


def _judged(criterion: str, said: Mapping[str, Any], answer: Any) -> Verdict:
    """A verdict from an evaluation or enrichment result (item JSON): its answer, reasoning, references."""
    reasoning = said.get("reasoning")
    return Verdict(
        criterion=criterion,
        verdict=verdict_of(answer),
        reasoning=reasoning if isinstance(reasoning, str) else None,
        evidence=_urls(said.get("references")),
    )


def _item_verdicts(
    item: ItemJson, criteria: Sequence[str], done: list[ItemJson], verdict_ids: dict[str, str] | None
) -> list[Verdict]:
    """A Websets item's verdict per criterion: from its yes/no enrichments' answers (`verdict_ids`),
    else from its criteria evaluations."""
    if verdict_ids is not None:
        by_id = {r.get("enrichmentId"): r for r in done}
        answers = [by_id.get(verdict_ids.get(c)) or {} for c in criteria]
        return [_judged(c, r, first_text(r.get("result"))) for c, r in zip(criteria, answers, strict=True)]
    evals = {str(e.get("criterion")): e for e in item.get("evaluations") or [] if isinstance(e, dict)}
    return [_judged(c, evals.get(c) or {}, (evals.get(c) or {}).get("satisfied")) for c in criteria]


def _item_fields(
    done: list[ItemJson], verdict_ids: dict[str, str] | None, field_ids: dict[str, str] | None
) -> list[RowField]:
    """A Websets item's other completed enrichment results as fields (see `from_item`)."""
    asked = set((verdict_ids or {}).values())
    return [
        RowField(
            name=(field_ids or {}).get(str(r.get("enrichmentId")), str(r.get("enrichmentId"))),
            value=first_text(r.get("result")),
            citations=_urls(r.get("references")),
        )
        for r in done
        if r.get("enrichmentId") not in asked
        and (field_ids is None or str(r.get("enrichmentId")) in field_ids)
    ]


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def from_item(
    item: ItemJson,
    criteria: Sequence[str],
    verdict_ids: dict[str, str] | None = None,
    field_ids: dict[str, str] | None = None,
) -> Row:
    """A Websets item (as agents read it) as a row.

    Verdicts come from the item's criteria evaluations, or, with `verdict_ids` (criterion -> the id
    of a yes/no enrichment asking it), from those enrichments' answers. Fields are the item's other
    enrichment results, named by `field_ids` (enrichment id -> field name) when given, else by
    enrichment id; their citations are the results' references."""
    given = item.get("properties")
    props: ItemJson = given if isinstance(given, dict) else {}
    results = [r for r in item.get("enrichments") or [] if isinstance(r, dict)]
    done = [r for r in results if r.get("status", "completed") == "completed"]
    return Row(
        id=str(item.get("id")),
        engine="websets",
        type=_text(props.get("type")),
        name=kit.item_name(item),
        url=kit.item_url(item),
        description=_text(props.get("description")),
        verdicts=_item_verdicts(item, criteria, done, verdict_ids),
        fields=_item_fields(done, verdict_ids, field_ids),
        item=item,
    )


def _output_rows(output: Any) -> list[Any]:
    rows = output.get("rows") if isinstance(output, dict) else output
    return rows if isinstance(rows, list) else []


def identity_value(value: Any) -> str | None:
    """An identity field's answer: its stripped text, None when not a string or a placeholder
    (`PLACEHOLDERS`, any case)."""
    if not isinstance(value, str):
        return None
    text = value.strip()
    return None if text.lower() in PLACEHOLDERS else text


def _identity(row: Mapping[str, Any], entity_type: str) -> dict[str, str]:
    """The identity fields `entity_type` has (`IDENTITY_FIELDS`) that `row` answers."""
    got = {n: v for n in IDENTITY_FIELDS.get(entity_type, {}) if (v := identity_value(row.get(n)))}
    name = row.get("name")
    # A person is not their own employer: an agent echoing the name states no organisation, and
    # as evidence it would only repeat the name match.
    said = got.get("employer")
    if said is not None and isinstance(name, str) and said.casefold() == name.strip().casefold():
        del got["employer"]
    return got


def from_agent(
    run_id: str,
    output: Any,
    criteria: Sequence[str],
    fields: int,
    entity_type: str,
    grounding: Sequence[AgentGroundingEntry] | None = None,
) -> list[Row]:
    """An agent run's structured output (`{rows: [...]}`, see `rows.rows_schema`) as rows, ids
    "<runId>:<k>" (k: the row's place in the output). Each criterion's answer is the row's
    `criterion{i}` (anything but yes/no is unclear), each field its `field{j}` (None when empty);
    evidence and citations are the run's grounding for that row field (`rows[3].field0`). The
    identity fields of `entity_type` (`IDENTITY_FIELDS`) are read by name, a placeholder or a
    person's own name as employer being no value (None, as for a row that lacks them)."""
    cites = {g.field: list(dict.fromkeys(c.url for c in g.citations if c.url)) for g in grounding or []}
    out: list[Row] = []
    for k, row in enumerate(_output_rows(output)):
        if not isinstance(row, dict):
            continue

        def cited(name: str, at: int = k) -> list[str]:
            return cites.get(f"rows[{at}].{name}", [])

        values = [row.get(f"field{j}") for j in range(fields)]
        said = _identity(row, entity_type)
        out.append(
            Row(
                id=f"{run_id}:{k}",
                engine="agent",
                type=entity_type,
                name=_text(row.get("name")),
                url=_text(row.get("url")) or None,
                description=_text(row.get("description")),
                location=said.get("location"),
                industry=said.get("industry"),
                employer=said.get("employer"),
                role=said.get("role"),
                verdicts=[
                    Verdict(
                        criterion=c,
                        verdict=verdict_of(row.get(f"criterion{i}")),
                        evidence=cited(f"criterion{i}"),
                    )
                    for i, c in enumerate(criteria)
                ],
                fields=[
                    RowField(
                        name=f"field{j}",
                        value=None if v in (None, "") else str(v),
                        citations=cited(f"field{j}"),
                    )
                    for j, v in enumerate(values)
                ],
                run=RunRow(run_id=run_id, index=k, row=row),
            )
        )
    return out


def passes(row: Row) -> bool:
    """Whether every verdict of the row is yes (`Row.passes`)."""
    return row.passes()


def props_of(row: Mapping[str, Any]) -> ItemJson:
    """Websets-style properties of an agent row's {type, url, description, name} and identity
    fields (a `Row`'s, or a benchmark's record mapped onto it): {type, url, description, <kind>:
    {name}}, where a company adds what it has of {location, industry} and a person of {location,
    position (its role), company: {name (its employer)}}, as a Websets item carries them; the other
    kinds are `custom: {name}`. What `from_agent` reads as no value is left out."""
    kind = str(row.get("type") or "custom")
    props: ItemJson = {"type": kind, "url": row.get("url"), "description": row.get("description")}
    sub: ItemJson = {"name": row.get("name")}
    given = _identity(row, kind)
    if kind == "company":
        sub.update(given)
    elif kind == "person":
        sub.update({k: given[n] for n, k in (("location", "location"), ("role", "position")) if n in given})
        if "employer" in given:
            sub["company"] = {"name": given["employer"]}
    props[kind if kind in ("company", "person") else "custom"] = sub
    return props


def as_item(row: Row, enrichment_ids: Sequence[str] | None = None) -> ItemJson:
    """The Websets-item view of a row: a webset row's item as Exa returned it; an agent row as
    {id, source: "agent", runId, properties, evaluations (one per verdict), enrichments (one per
    field, enrichmentId = `enrichment_ids[j]` or the field's name)}."""
    if row.item is not None:
        return row.item
    evaluations = [
        {"criterion": v.criterion, "satisfied": v.verdict, "reasoning": v.reasoning,
         "references": [{"url": u} for u in v.evidence]}
        for v in row.verdicts
    ]  # fmt: skip
    enrichments = [
        {"enrichmentId": enrichment_ids[j] if enrichment_ids else f.name, "status": "completed",
         "result": None if f.value is None else [f.value], "references": [{"url": u} for u in f.citations]}
        for j, f in enumerate(row.fields)
    ]  # fmt: skip
    return {
        "id": row.id,
        "source": "agent",
        "runId": row.run.run_id if row.run is not None else None,
        "properties": row.properties(),
        "evaluations": evaluations,
        "enrichments": enrichments,
    }
