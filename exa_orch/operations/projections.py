"""Result projections: what an agent needs from an Exa object, without the bulk.

Kept: ids, statuses, progress, counts, properties, evaluations, enrichment results with their
enrichmentId, timestamps. Dropped: repeated `object` tags, the crawled page `content` of items
(its size is reported), webhook attempts' response bodies, and a webhook's `secret` (returned
only by `webhook_created`, once). Lists keep Exa's pagination ({data, hasMore, nextCursor});
nothing is cut without saying so. Every function takes the full JSON and returns a new dict;
`raw: true` on a call skips them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

Json = dict[str, Any]
RAW_HINT = "call again with raw: true for the full object"


def _pick(obj: Json, *keys: str) -> Json:
    return {k: obj[k] for k in keys if k in obj and obj[k] is not None}


def _refs(refs: Any) -> list[str]:
    return [str(r["url"]) for r in refs or [] if isinstance(r, dict) and r.get("url")]


def search(obj: Json) -> Json:
    """A webset search: status, progress, query, criteria, recall."""
    out = _pick(
        obj, "id", "status", "websetId", "query", "count", "behavior", "progress", "recall", "metadata"
    )
    if obj.get("entity"):
        out["entity"] = obj["entity"].get("type") if isinstance(obj["entity"], dict) else obj["entity"]
    if obj.get("criteria"):
        out["criteria"] = [c.get("description") for c in obj["criteria"] if isinstance(c, dict)]
    out.update(_pick(obj, "canceledAt", "canceledReason", "createdAt", "updatedAt"))
    return out


def enrichment(obj: Json) -> Json:
    """A webset enrichment definition."""
    out = _pick(obj, "id", "status", "websetId", "title", "description", "format", "instructions", "metadata")
    if obj.get("options"):
        out["options"] = [o.get("label") for o in obj["options"] if isinstance(o, dict)]
    out.update(_pick(obj, "createdAt", "updatedAt"))
    return out


def monitor(obj: Json) -> Json:
    """A monitor: cadence, behavior, last run."""
    out = _pick(obj, "id", "status", "websetId", "cadence", "behavior", "nextRunAt", "metadata")
    if isinstance(obj.get("lastRun"), dict):
        out["lastRun"] = monitor_run(obj["lastRun"])
    out.update(_pick(obj, "createdAt", "updatedAt"))
    return out


def monitor_run(obj: Json) -> Json:
    """One monitor run."""
    return _pick(
        obj,
        "id",
        "status",
        "monitorId",
        "type",
        "completedAt",
        "failedAt",
        "failedReason",
        "canceledAt",
        "createdAt",
        "updatedAt",
    )


def import_(obj: Json) -> Json:
    """An import; the upload URL is kept when present (create answers with it)."""
    out = _pick(
        obj,
        "id",
        "status",
        "format",
        "title",
        "count",
        "metadata",
        "failedReason",
        "failedAt",
        "failedMessage",
        "uploadUrl",
        "uploadValidUntil",
        "createdAt",
        "updatedAt",
    )
    if isinstance(obj.get("entity"), dict):
        out["entity"] = obj["entity"].get("type")
    return out


def enrichment_values(results: list[Json]) -> Json:
    """{enrichmentId: result} of an item's enrichment results. A result without an enrichmentId (a
    real note has one) is keyed by its place, `#<n>`, so two such results never overwrite each other."""
    out: Json = {}
    for n, r in enumerate(results):
        key = r.get("enrichmentId")
        out[str(key) if key else f"#{n}"] = r.get("result")
    return out


def webset(obj: Json, fields: Any = None) -> Json:
    """A webset with its searches, enrichments, monitors and imports summarised; its expanded items
    compact (compact_item with `fields`)."""
    out = _pick(obj, "id", "status", "externalId", "title", "metadata", "createdAt", "updatedAt")
    out["searches"] = [search(s) for s in obj.get("searches") or []]
    out["enrichments"] = [enrichment(e) for e in obj.get("enrichments") or []]
    if obj.get("monitors"):
        out["monitors"] = [monitor(m) for m in obj["monitors"]]
    if obj.get("imports"):
        out["imports"] = [import_(i) for i in obj["imports"]]
    if obj.get("excludes"):
        out["excludes"] = obj["excludes"]
    if "streams" in obj:  # a real webset read carries it (tests/fixtures/real/): kept as Exa sent it
        out["streams"] = obj["streams"]
    if isinstance(obj.get("items"), list):
        out["items"] = [compact_item(item(i), fields) for i in obj["items"]]
    return out


def item(obj: Json) -> Json:
    """An item: properties (page content replaced by its size), evaluations, enrichment results."""
    out = _pick(obj, "id", "source", "sourceId", "websetId")
    props = dict(obj.get("properties") or {})
    content = props.pop("content", None)
    if isinstance(content, str) and content:
        props["contentOmitted"] = {"chars": len(content), "how": RAW_HINT}
    out["properties"] = props
    out["evaluations"] = [
        {**_pick(e, "criterion", "satisfied", "reasoning"), "references": _refs(e.get("references"))}
        for e in obj.get("evaluations") or []
    ]
    out["enrichments"] = [
        {
            **_pick(r, "enrichmentId", "status", "format", "result", "reasoning"),
            "references": _refs(r.get("references")),
        }
        for r in obj.get("enrichments") or []
        if isinstance(r, dict)
    ]
    out.update(_pick(obj, "createdAt", "updatedAt"))
    return out


def all_satisfied(obj: Json) -> bool:
    """True when the item has evaluations and every one of them is satisfied == 'yes'."""
    evals = obj.get("evaluations") or []
    return bool(evals) and all(e.get("satisfied") == "yes" for e in evals)


def webhook(obj: Json) -> Json:
    """A webhook without its secret (Exa only shows it on create; see webhook_created)."""
    return _pick(obj, "id", "status", "events", "url", "metadata", "createdAt", "updatedAt")


def webhook_created(obj: Json) -> Json:
    """The webhook create answer: the one time the signing secret is handed to the caller."""
    out = webhook(obj)
    if obj.get("secret"):
        out["secret"] = obj["secret"]
        out["secretNote"] = (
            "Exa shows this signing secret only now and exa-orch does not keep it: store it to verify "
            "the Exa-Signature header (HMAC-SHA256 of '{t}.{body}')."
        )
    return out


def webhook_attempt(obj: Json) -> Json:
    """A delivery attempt, without the receiver's response headers and body."""
    return _pick(
        obj,
        "id",
        "eventId",
        "eventType",
        "webhookId",
        "url",
        "successful",
        "responseStatusCode",
        "attempt",
        "attemptedAt",
    )


_BY_OBJECT: dict[str, Callable[[Json], Json]] = {
    "webset": webset,
    "webset_item": item,
    "webset_search": search,
    "webset_enrichment": enrichment,
    "monitor": monitor,
    "monitor_run": monitor_run,
    "import": import_,
    "webhook": webhook,
}


def event(obj: Json) -> Json:
    """An event with its data projected by the data's `object` kind."""
    out = _pick(obj, "id", "type", "createdAt")
    data = obj.get("data")
    if isinstance(data, dict):
        fn = _BY_OBJECT.get(str(data.get("object")))
        out["data"] = fn(data) if fn else data
    return out


def page(obj: Json, fn: Callable[[Json], Json]) -> Json:
    """A list page: each element projected, pagination kept, the count said."""
    data = [fn(x) for x in obj.get("data") or [] if isinstance(x, dict)]
    out: Json = {"count": len(data), "data": data, "hasMore": bool(obj.get("hasMore"))}
    if obj.get("nextCursor"):
        out["nextCursor"] = obj["nextCursor"]
        out["next"] = "call again with cursor set to nextCursor for the next page"
    return out


def one(fn: Callable[[Json], Json]) -> Callable[[Json, Any], Json]:
    """An Operation's projection (result, args) for an answer that is one object: `fn` of it."""

    def project(result: Json, args: Any) -> Json:
        return fn(result)

    return project


def paged(fn: Callable[[Json], Json]) -> Callable[[Json, Any], Json]:
    """An Operation's projection (result, args) for an answer that is a list page: `page` with `fn`."""

    def project(result: Json, args: Any) -> Json:
        return page(result, fn)

    return project


def preview(obj: Json) -> Json:
    """websets.preview: the decomposed search and preview items."""
    out = {k: v for k, v in obj.items() if k != "items"}
    if isinstance(obj.get("items"), list):
        out["items"] = [
            {**x, "properties": item({"properties": x.get("properties") or {}})["properties"]}
            if isinstance(x, dict)
            else x
            for x in obj["items"]
        ]
    return out


def search_results(obj: Json) -> Json:
    """exa.search / findSimilar / getContents: results with long texts left whole, metadata trimmed."""
    out = {k: v for k, v in obj.items() if k not in ("results", "costDollars", "resolvedSearchType")}
    keep = (
        "id",
        "url",
        "title",
        "publishedDate",
        "author",
        "score",
        "text",
        "highlights",
        "summary",
        "highlightScores",
        "subpages",
        "extras",
    )
    out["results"] = [_pick(r, *keep) for r in obj.get("results") or [] if isinstance(r, dict)]
    out.update(_pick(obj, "resolvedSearchType"))
    return out


def answer(obj: Json) -> Json:
    """exa.answer: the answer and its citations (url, title)."""
    out = _pick(obj, "answer", "requestId")
    out["citations"] = [_pick(c, "id", "url", "title", "publishedDate") for c in obj.get("citations") or []]
    return out


# -- compact items: what an agent reads first, the rest on request ------------------------------

DEFAULT_ITEM_FIELDS = ("name", "url", "criteria", "enrichments")
"""What a compact item carries besides its id: the entity's name and URL, each criterion's verdict,
each enrichment's value."""

ITEM_FIELDS: dict[str, str] = {
    "name": "the entity's name (company, person, paper title)",
    "url": "the entity's URL",
    "criteria": "{criterion: yes|no|unclear}",
    "enrichments": "{enrichmentId: result}",
    "description": "the entity's description",
    "properties": "every property Exa returned (company, person, article ... details)",
    "evaluations": "the criteria evaluations in full: verdict, reasoning, references",
    "enrichmentResults": "the enrichment results in full: status, format, result, reasoning, references",
    "reasoning": "shorthand for evaluations + enrichmentResults (they carry the reasoning)",
    "references": "shorthand for evaluations + enrichmentResults (they carry the references)",
    "source": "source, sourceId, websetId",
    "timestamps": "createdAt, updatedAt",
    "all": "the item exactly as the full answer has it",
}
"""The `fields` an item may be asked for, with what each adds."""

ItemField = Literal[
    "name",
    "url",
    "criteria",
    "enrichments",
    "description",
    "properties",
    "evaluations",
    "enrichmentResults",
    "reasoning",
    "references",
    "source",
    "timestamps",
    "all",
]
"""One of ITEM_FIELDS, as a type (an args model's `fields` lists these)."""


def is_item(obj: Any) -> bool:
    """True for a webset item (raw or projected): it has properties and evaluations."""
    return isinstance(obj, dict) and isinstance(obj.get("properties"), dict) and "evaluations" in obj


def entity_name(obj: Json) -> str | None:
    """The entity's name: the company's, person's or paper's name or title, whichever the item has."""
    props = obj.get("properties") or {}
    for kind in ("company", "person", "article", "researchPaper", "custom"):
        sub = props.get(kind)
        if isinstance(sub, dict):
            for key in ("name", "title"):
                if isinstance(sub.get(key), str) and sub[key].strip():
                    return str(sub[key]).strip()
    return None


def compact_item(obj: Json, fields: Any = None) -> Json:
    """A projected item cut to `fields` (default DEFAULT_ITEM_FIELDS; 'all' keeps it whole); id always.

    Every byte of the item is reachable: `properties`, `evaluations`, `enrichmentResults`, `source`
    and `timestamps` together are the whole item.
    """
    want = set(fields or DEFAULT_ITEM_FIELDS)
    if "all" in want:
        return obj
    if want & {"reasoning", "references"}:
        want |= {"evaluations", "enrichmentResults"}
    props: Json = obj["properties"] if isinstance(obj.get("properties"), dict) else {}
    evals = [e for e in obj.get("evaluations") or [] if isinstance(e, dict)]
    results = [r for r in obj.get("enrichments") or [] if isinstance(r, dict)]
    out: Json = _pick(obj, "id")
    if "name" in want and entity_name(obj):
        out["name"] = entity_name(obj)
    if "url" in want and props.get("url"):
        out["url"] = props["url"]
    if "description" in want and props.get("description"):
        out["description"] = props["description"]
    if "criteria" in want and evals:
        out["criteria"] = {str(e.get("criterion")): e.get("satisfied") for e in evals}
    if "enrichments" in want and results:
        out["enrichments"] = enrichment_values(results)
    if "properties" in want and "properties" in obj:
        out["properties"] = obj["properties"]
    if "evaluations" in want and "evaluations" in obj:
        out["evaluations"] = obj["evaluations"]
    if "enrichmentResults" in want and "enrichments" in obj:
        out["enrichmentResults"] = obj["enrichments"]
    if "source" in want:
        out.update(_pick(obj, "source", "sourceId", "websetId"))
    if "timestamps" in want:
        out.update(_pick(obj, "createdAt", "updatedAt"))
    return out
