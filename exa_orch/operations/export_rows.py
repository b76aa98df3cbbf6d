"""A finished task's result as a table to hand on: one row per entity, or one per claim.

`table(record)` reads the stored result (nothing else: no Exa call, no other task) and gives a
`Table`, which `export_formats` writes as CSV, JSON Lines or a Markdown report.

- **Entities** (lifecycle.harvest, research.verifiedCollection, qd.winnow, convergent.search and
  any result holding webset items): the items that are one entity (the result's own grouping where
  it kept one: harvest's `duplicates`, verifiedCollection's `sameEntityAs`, convergent.search's
  entities; else `workflows.entities.resolve`) make one row: `entityId` (the resolver's identity
  key of its first item, e.g. `site:klarna.com`), name, url, description, the ids of its items,
  one field per criterion (Exa's verdict) and per enrichment (its answers), and `sources`: every
  URL the row rests on (its items' pages, then the evaluations' and enrichments' references).
- **Claims** (research.deep, adversarial.verify): one row per claim. research.deep: each grounded
  field of the answer (`citations: [{field, urls}]`), else the answer itself; adversarial.verify:
  the synthesis's verdict, then each key supporting and countering factor and blind spot, each
  with the citations grounded on its field (or on its list).
- Any other result: one row per element of each list of objects it holds (its scalar fields).

`citationStatus` is on every row: what the task's citation check (`citationCheck`, the result's,
workflows/citations.py) found for the row's citations, its items' or its claim's (`supported`,
`not_found`, `unreachable`, `unchecked`, or the counts of each when they differ); empty for a row
with none checked and for a task not checked (`verifyCitations: false`). Nothing here guesses it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from exa_orch.operations import projections as pj
from exa_orch.operations.task_views import CHECKS, collections
from exa_orch.store import TaskRecord
from exa_orch.workflows import citations, entities

Json = dict[str, Any]
Cell = str | list[str] | None

ENTITY_COLUMNS = ("entityId", "name", "url", "description", "itemIds")
CLAIM_COLUMNS = ("claimId", "field", "claim")
CLAIM_TYPES = frozenset({"research.deep", "adversarial.verify"})


@dataclass
class Row:
    """One row: its key columns (`Table.columns`), its fields (criteria, enrichments, other values),
    the URLs it rests on, and its citation status (None until citations are checked)."""

    key: dict[str, Cell]
    fields: dict[str, Cell] = field(default_factory=dict)
    sources: list[str] = field(default_factory=list)
    citation_status: str | None = None


@dataclass
class Table:
    """What an export holds: `kind` ("entities", "claims" or "rows"), the key columns every row
    has, the field columns in first-seen order, the rows, and the synthesis a report opens with."""

    kind: str
    columns: tuple[str, ...]
    rows: list[Row]
    synthesis: Json | str | None = None
    checked: Json | None = None  # the result's citationCheck (None: citations not checked)

    @property
    def field_columns(self) -> list[str]:
        """Every field any row has, in first-seen order."""
        return list(dict.fromkeys(name for row in self.rows for name in row.fields))


def table(record: TaskRecord) -> Table:
    """The rows of a completed task's result (see the module docstring)."""
    out = _table(record)
    check = record.result.get("citationCheck") if isinstance(record.result, dict) else None
    out.checked = check if isinstance(check, dict) else None
    for row in out.rows:
        ids, path = row.key.get("itemIds"), row.key.get("field")
        claims = [path, re.sub(r"\[\d+\]$", "", path)] if isinstance(path, str) else []
        row.citation_status = citations.status_for(check, ids if isinstance(ids, list) else [], claims)
    return out


def _table(record: TaskRecord) -> Table:
    result = record.result
    if record.type in CLAIM_TYPES and isinstance(result, dict):
        if record.type == "research.deep":
            return Table("claims", CLAIM_COLUMNS, deep_claims(result), synthesis=result.get("result"))
        synthesis = result.get("synthesis") if isinstance(result.get("synthesis"), dict) else None
        return Table("claims", CLAIM_COLUMNS, verify_claims(synthesis or {}), synthesis=synthesis)
    elements = _elements(record.type, result)
    if any(_item_of(e) is not None or _entity_of(e) is not None for e in elements):
        return Table("entities", ENTITY_COLUMNS, entity_rows(record, elements))
    return Table("rows", ("at",), generic_rows(record.type, result))


# -- entities ------------------------------------------------------------------------------------


def _paths(task_type: str, result: Any) -> list[tuple[str | int, ...]]:
    """The result's item lists, not its citation verdicts (those are each row's citationStatus)."""
    return [p for p in collections(task_type, result) if p != CHECKS]


def _elements(task_type: str, result: Any) -> list[Any]:
    return [element for path in _paths(task_type, result) for element in _at(result, path)]


def _at(result: Any, path: tuple[str | int, ...]) -> list[Any]:
    for key in path:
        result = result[key]
    return list(result)


def _item_of(element: Any) -> Json | None:
    """The webset item an element is (or wraps as `item`), else None."""
    if pj.is_item(element):
        return dict(element)
    if isinstance(element, dict) and pj.is_item(element.get("item")):
        return dict(element["item"])
    return None


def _entity_of(element: Any) -> Json | None:
    """A convergent.search entity ({name, url, urls, itemIds}) an element wraps, else None."""
    entity = element.get("entity") if isinstance(element, dict) else None
    return entity if isinstance(entity, dict) and "itemIds" in entity else None


def _stored_leaders(result: Any, elements: list[Any], items: list[Json]) -> dict[int, int] | None:
    """item index -> the index of the first item of its entity, as the result grouped them (harvest's
    `duplicates`, verifiedCollection's `sameEntityAs`); None when the result kept no grouping."""
    index = {str(item.get("id")): i for i, item in enumerate(items)}
    leaders: dict[int, int] = {}
    duplicates = result.get("duplicates") if isinstance(result, dict) else None
    if isinstance(duplicates, list):
        for group in duplicates:
            ids = group.get("itemIds") if isinstance(group, dict) else None
            members = sorted(index[str(i)] for i in ids or [] if str(i) in index)
            leaders.update(dict.fromkeys(members[1:], members[0]))
        return leaders
    if not any(isinstance(e, dict) and "sameEntityAs" in e for e in elements):
        return None
    for i, element in enumerate(elements):
        same = element.get("sameEntityAs") if isinstance(element, dict) else None
        if same is not None and str(same) in index:
            leaders[i] = index[str(same)]
    return leaders


def _groups(result: Any, elements: list[Any], items: list[Json]) -> list[list[int]]:
    """The items grouped into entities, each group in item order, groups in first-seen order."""
    leaders = _stored_leaders(result, elements, items)
    if leaders is None:
        return entities.resolve(items).groups
    groups: dict[int, list[int]] = {}
    for i in range(len(items)):
        groups.setdefault(leaders.get(i, i), []).append(i)
    return list(groups.values())


def entity_rows(record: TaskRecord, elements: list[Any]) -> list[Row]:
    """One row per entity of the result's items (and per convergent.search entity)."""
    labels = _enrichment_labels(record)
    items = [item for e in elements if (item := _item_of(e)) is not None]
    rows = [_item_row([items[i] for i in group], labels) for group in _groups(record.result, elements, items)]
    rows += [_converged_row(entity) for e in elements if (entity := _entity_of(e)) is not None]
    seen: dict[str, int] = {}
    for row in rows:  # the resolver kept two entities apart that share a key: tell them apart
        key = str(row.key["entityId"])
        seen[key] = seen.get(key, 0) + 1
        if seen[key] > 1:
            row.key["entityId"] = f"{key}#{seen[key]}"
    return rows


def _enrichment_labels(record: TaskRecord) -> dict[str, str]:
    """enrichment id -> its description, from the task's args (harvest's `enrichments`, in order)."""
    asked = record.args.get("enrichments") if isinstance(record.args, dict) else None
    ids = record.result.get("enrichmentIds") if isinstance(record.result, dict) else None
    if not isinstance(asked, list) or not isinstance(ids, list) or len(asked) != len(ids):
        return {}
    return {
        str(i): str(a.get("description"))
        for i, a in zip(ids, asked, strict=True)
        if isinstance(a, dict) and a.get("description")
    }


def _refs(refs: Any) -> list[str]:
    out = []
    for ref in refs or []:
        url = ref.get("url") if isinstance(ref, dict) else ref
        if isinstance(url, str) and url:
            out.append(url)
    return out


def _text(value: Any) -> str | None:
    """A cell's text: strings as they are, lists joined by '; ', anything else as JSON."""
    if value is None or value == "":
        return None
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return "; ".join(v if isinstance(v, str) else json.dumps(v, ensure_ascii=False) for v in value)
    return json.dumps(value, ensure_ascii=False)


def _item_row(members: list[Json], labels: dict[str, str]) -> Row:
    first = members[0]
    props: Json = first["properties"] if isinstance(first.get("properties"), dict) else {}
    sources: list[str] = [u for m in members if (u := (m.get("properties") or {}).get("url"))]
    fields: dict[str, Cell] = {}
    for evaluation in first.get("evaluations") or []:
        if isinstance(evaluation, dict):
            fields[f"criterion: {evaluation.get('criterion')}"] = _text(evaluation.get("satisfied"))
    for m in members:
        for evaluation in m.get("evaluations") or []:
            sources += _refs(evaluation.get("references")) if isinstance(evaluation, dict) else []
        for n, result in enumerate(r for r in m.get("enrichments") or [] if isinstance(r, dict)):
            eid = str(result.get("enrichmentId") or f"#{n}")
            name = f"enrichment: {labels.get(eid, eid)}"
            if fields.get(name) is None:  # the entity's first answer (its first item's, else the next)
                fields[name] = _text(result.get("result"))
            sources += _refs(result.get("references"))
    return Row(
        key={
            "entityId": entities.entity_key(first),
            "name": pj.entity_name(first),
            "url": props.get("url"),
            "description": _text(props.get("description")),
            "itemIds": [str(m.get("id")) for m in members],
        },
        fields=fields,
        sources=list(dict.fromkeys(s for s in sources if isinstance(s, str))),
    )


def _converged_row(entity: Json) -> Row:
    urls = [u for u in entity.get("urls") or [] if isinstance(u, str)]
    url = entity.get("url") if isinstance(entity.get("url"), str) else None
    key_item = {"properties": {"url": url, "company": {"name": entity.get("name")}}}
    return Row(
        key={
            "entityId": entities.entity_key(key_item),
            "name": _text(entity.get("name")),
            "url": url,
            "description": _text(entity.get("description")),
            "itemIds": [str(i) for i in entity.get("itemIds") or []],
        },
        sources=list(dict.fromkeys([*([url] if url else []), *urls])),
    )


# -- claims --------------------------------------------------------------------------------------

value_at = citations.value_at  # a grounding path's value: the one reading the check uses


def _citations(value: Any) -> dict[str, list[str]]:
    """{field: urls} of a run's citations ([{field, urls}] as research views give them)."""
    out: dict[str, list[str]] = {}
    for c in value if isinstance(value, list) else []:
        if isinstance(c, dict) and isinstance(c.get("field"), str):
            urls = c.get("urls") if "urls" in c else _refs(c.get("citations"))
            out.setdefault(c["field"], []).extend(u for u in urls or [] if isinstance(u, str))
    return out


def _claim(n: int, path: str, text: Any, urls: Iterable[str]) -> Row:
    return Row(
        key={"claimId": f"c{n}", "field": path, "claim": _text(text)},
        sources=list(dict.fromkeys(urls)),
    )


def deep_claims(result: Json) -> list[Row]:
    """research.deep: a row per grounded field of its answer, else one row for the whole answer."""
    answer = result.get("result")
    cited = _citations(result.get("citations"))
    if cited:
        root = {"text": answer} if isinstance(answer, str) else answer
        return [
            _claim(
                n, path, answer if path == "text" and isinstance(answer, str) else value_at(root, path), urls
            )
            for n, (path, urls) in enumerate(cited.items(), 1)
        ]
    return [_claim(1, "result", answer, [])] if answer not in (None, "") else []


def verify_claims(synthesis: Json) -> list[Row]:
    """adversarial.verify: the verdict, then each supporting and countering factor and blind spot."""
    cited = _citations(synthesis.get("citations"))
    rows: list[Row] = []
    if synthesis.get("verdict"):
        verdict = f"{synthesis['verdict']} (confidence {synthesis.get('confidence')})"
        rows.append(_claim(1, "verdict", verdict, cited.get("verdict", [])))
    for name in ("keySupporting", "keyCountering", "blindSpots"):
        for i, text in enumerate(synthesis.get(name) or []):
            path = f"{name}[{i}]"
            rows.append(_claim(len(rows) + 1, path, text, cited.get(path) or cited.get(name, [])))
    return rows


# -- anything else -------------------------------------------------------------------------------


def generic_rows(task_type: str, result: Any) -> list[Row]:
    """A row per element of each list of objects in the result: its scalar values as fields."""
    rows = []
    for path in _paths(task_type, result):
        for i, element in enumerate(_at(result, path)):
            if not isinstance(element, dict):
                continue
            fields: dict[str, Cell] = {
                str(k): _text(v) for k, v in element.items() if not isinstance(v, dict | list)
            }
            urls = [v for k, v in element.items() if isinstance(v, str) and k.lower().endswith("url")]
            rows.append(Row(key={"at": ".".join(str(p) for p in (*path, i))}, fields=fields, sources=urls))
    return rows
