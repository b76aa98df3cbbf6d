"""Result projections: what an agent needs from an Exa object, without the bulk.

Kept: ids, statuses, progress, counts, properties, evaluations, enrichment results with their
enrichmentId, timestamps. Dropped: repeated `object` tags, the crawled page `content` of items
(its size is reported), webhook attempts' response bodies, and a webhook's `secret` (returned
only by `webhook_created`, once). Lists keep Exa's pagination ({data, hasMore, nextCursor});
nothing is cut without saying so. Every function takes the full JSON and returns a new dict;
`raw: true` on a call skips them.

Each projection has an output JSON Schema naming the keys of what it returns (`SCHEMAS`, built
from the same key lists the functions pick); `one`, `paged` and `shaped` attach it to an
Operation's projection, and `output_schema(project)` reads it back (list_operations shows it as an
operation's `outputSchema`). A schema is closed (`additionalProperties: false`) where the
projection picks its keys, open where it passes Exa's own keys through.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from exa_orch.exa.views import ITEM_KEYS, item_view, reference_urls

Json = dict[str, Any]


def _pick(obj: Json, *keys: str) -> Json:
    return {k: obj[k] for k in keys if k in obj and obj[k] is not None}


# -- output schemas ------------------------------------------------------------------------------

OUTPUT_ATTR = "output_schema"
_STR: Json = {"type": "string"}
_BOOL: Json = {"type": "boolean"}
_INT: Json = {"type": "integer", "minimum": 0}
_OBJ: Json = {"type": "object"}
_STRS: Json = {"type": "array", "items": _STR}
# The type of a key wherever it appears; a key not named here may hold any JSON value.
_TYPED: dict[str, Json] = {
    "id": _STR,
    "status": _STR,
    "createdAt": _STR,
    "updatedAt": _STR,
    "metadata": _OBJ,
    "websetId": _STR,
    "count": _INT,
    "hasMore": _BOOL,
    "nextCursor": {"type": ["string", "null"]},
    "next": _STR,
    "url": _STR,
    "title": _STR,
}


def schema(
    required: tuple[str, ...] = (), optional: tuple[str, ...] = (), *, more: bool = False, **types: Json
) -> Json:
    """An object schema naming its keys: `required` always present, `optional` sometimes; `types`
    gives a key's schema (else _TYPED's, else any value). `more`: other keys pass through."""
    props = {k: types.get(k, _TYPED.get(k, {})) for k in (*required, *optional, *types)}
    out: Json = {"type": "object", "properties": props, "additionalProperties": more}
    if required:
        out["required"] = list(required)
    return out


def array(items: Json) -> Json:
    """An array of `items`."""
    return {"type": "array", "items": items}


def page_schema(element: Json, *extra: str) -> Json:
    """The schema of `page` over elements of `element` (plus `extra` optional keys)."""
    return schema(("count", "data", "hasMore"), ("nextCursor", "next", *extra), data=array(element))


def shaped(output: Json) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Decorator: mark a projection (result, args) -> answer with its output schema."""

    def mark(fn: Callable[..., Any]) -> Callable[..., Any]:
        setattr(fn, OUTPUT_ATTR, output)
        return fn

    return mark


def output_schema(project: Any) -> Json | None:
    """The output schema attached to a projection (None: it declares none)."""
    found = getattr(project, OUTPUT_ATTR, None)
    return found if isinstance(found, dict) else None


_refs = reference_urls


_SEARCH_KEYS = ("id", "status", "websetId", "query", "count", "behavior", "progress", "recall", "metadata")
_SEARCH_TAIL = ("canceledAt", "canceledReason", "createdAt", "updatedAt")


def search(obj: Json) -> Json:
    """A webset search: status, progress, query, criteria, recall."""
    out = _pick(obj, *_SEARCH_KEYS)
    if obj.get("entity"):
        out["entity"] = obj["entity"].get("type") if isinstance(obj["entity"], dict) else obj["entity"]
    if obj.get("criteria"):
        out["criteria"] = [c.get("description") for c in obj["criteria"] if isinstance(c, dict)]
    out.update(_pick(obj, *_SEARCH_TAIL))
    return out


SEARCH = schema(optional=(*_SEARCH_KEYS, *_SEARCH_TAIL), entity={}, criteria=array({}))


_ENRICHMENT_KEYS = ("id", "status", "websetId", "title", "description", "format", "instructions", "metadata")
_TIMES = ("createdAt", "updatedAt")


def enrichment(obj: Json) -> Json:
    """A webset enrichment definition."""
    out = _pick(obj, *_ENRICHMENT_KEYS)
    if obj.get("options"):
        out["options"] = [o.get("label") for o in obj["options"] if isinstance(o, dict)]
    out.update(_pick(obj, *_TIMES))
    return out


ENRICHMENT = schema(optional=(*_ENRICHMENT_KEYS, *_TIMES), options=array({}))


_MONITOR_KEYS = ("id", "status", "websetId", "cadence", "behavior", "nextRunAt", "metadata")
_RUN_KEYS = (
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


def monitor(obj: Json) -> Json:
    """A monitor: cadence, behavior, last run."""
    out = _pick(obj, *_MONITOR_KEYS)
    if isinstance(obj.get("lastRun"), dict):
        out["lastRun"] = monitor_run(obj["lastRun"])
    out.update(_pick(obj, *_TIMES))
    return out


def monitor_run(obj: Json) -> Json:
    """One monitor run."""
    return _pick(obj, *_RUN_KEYS)


MONITOR_RUN = schema(optional=_RUN_KEYS)
MONITOR = schema(optional=(*_MONITOR_KEYS, *_TIMES), lastRun=MONITOR_RUN)


_IMPORT_KEYS = (
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


def import_(obj: Json) -> Json:
    """An import; the upload URL is kept when present (create answers with it)."""
    out = _pick(obj, *_IMPORT_KEYS)
    if isinstance(obj.get("entity"), dict):
        out["entity"] = obj["entity"].get("type")
    return out


IMPORT = schema(optional=_IMPORT_KEYS, entity={})


def enrichment_values(results: list[Json]) -> Json:
    """{enrichmentId: result} of an item's enrichment results. A result without an enrichmentId (a
    real note has one) is keyed by its place, `#<n>`, so two such results never overwrite each other."""
    out: Json = {}
    for n, r in enumerate(results):
        key = r.get("enrichmentId")
        out[str(key) if key else f"#{n}"] = r.get("result")
    return out


_WEBSET_KEYS = ("id", "status", "externalId", "title", "metadata", "createdAt", "updatedAt")


def webset(obj: Json, fields: Any = None) -> Json:
    """A webset with its searches, enrichments, monitors and imports summarised; its expanded items
    compact (compact_item with `fields`)."""
    out = _pick(obj, *_WEBSET_KEYS)
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


_ITEM_KEYS = ITEM_KEYS
item = item_view  # one definition: the workflows keep their items in this shape (exa/views.py)


ITEM = schema(
    ("properties", "evaluations", "enrichments"),
    (*_ITEM_KEYS, *_TIMES),
    properties=_OBJ,
    evaluations=array(schema(("references",), ("criterion", "satisfied", "reasoning"), references=_STRS)),
    enrichments=array(
        schema(("references",), ("enrichmentId", "status", "format", "result", "reasoning"), references=_STRS)
    ),
)


def all_satisfied(obj: Json) -> bool:
    """True when the item has evaluations and every one of them is satisfied == 'yes'."""
    evals = obj.get("evaluations") or []
    return bool(evals) and all(e.get("satisfied") == "yes" for e in evals)


_WEBHOOK_KEYS = ("id", "status", "events", "url", "metadata", "createdAt", "updatedAt")


def webhook(obj: Json) -> Json:
    """A webhook without its secret (Exa only shows it on create; see webhook_created)."""
    return _pick(obj, *_WEBHOOK_KEYS)


WEBHOOK = schema(optional=_WEBHOOK_KEYS, events=_STRS)
WEBHOOK_CREATED = schema(optional=(*_WEBHOOK_KEYS, "secret", "secretNote"), events=_STRS)


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


_ATTEMPT_KEYS = (
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


def webhook_attempt(obj: Json) -> Json:
    """A delivery attempt, without the receiver's response headers and body."""
    return _pick(obj, *_ATTEMPT_KEYS)


WEBHOOK_ATTEMPT = schema(optional=_ATTEMPT_KEYS)


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
    out = _pick(obj, *_EVENT_KEYS)
    data = obj.get("data")
    if isinstance(data, dict):
        fn = _BY_OBJECT.get(str(data.get("object")))
        out["data"] = fn(data) if fn else data
    return out


_EVENT_KEYS = ("id", "type", "createdAt")
EVENT = schema(optional=(*_EVENT_KEYS, "data"), data=_OBJ)


def page(obj: Json, fn: Callable[[Json], Json]) -> Json:
    """A list page: each element projected, pagination kept, the count said."""
    data = [fn(x) for x in obj.get("data") or [] if isinstance(x, dict)]
    out: Json = {"count": len(data), "data": data, "hasMore": bool(obj.get("hasMore"))}
    if obj.get("nextCursor"):
        out["nextCursor"] = obj["nextCursor"]
        out["next"] = "call again with cursor set to nextCursor for the next page"
    return out


def one(fn: Callable[[Json], Json]) -> Callable[[Json, Any], Json]:
    """An Operation's projection (result, args) for an answer that is one object: `fn` of it (with
    `fn`'s output schema, when SCHEMAS has one)."""

    def project(result: Json, args: Any) -> Json:
        return fn(result)

    if fn in SCHEMAS:
        shaped(SCHEMAS[fn])(project)
    return project


def paged(fn: Callable[[Json], Json]) -> Callable[[Json, Any], Json]:
    """An Operation's projection (result, args) for an answer that is a list page: `page` with `fn`."""

    def project(result: Json, args: Any) -> Json:
        return page(result, fn)

    if fn in SCHEMAS:
        shaped(page_schema(SCHEMAS[fn]))(project)
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
    out["results"] = [_pick(r, *_RESULT_KEYS) for r in obj.get("results") or [] if isinstance(r, dict)]
    out.update(_pick(obj, "resolvedSearchType"))
    return out


_RESULT_KEYS = (
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
SEARCH_RESULTS = schema(
    ("results",), ("resolvedSearchType", "requestId"), more=True, results=array(schema(optional=_RESULT_KEYS))
)


def answer(obj: Json) -> Json:
    """exa.answer: the answer and its citations (url, title)."""
    out = _pick(obj, "answer", "requestId")
    out["citations"] = [_pick(c, *_CITATION_KEYS) for c in obj.get("citations") or []]
    return out


_CITATION_KEYS = ("id", "url", "title", "publishedDate")
ANSWER = schema(("citations",), ("answer", "requestId"), citations=array(schema(optional=_CITATION_KEYS)))


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


_COMPACT_KEYS = (
    "id",
    "name",
    "url",
    "description",
    "criteria",
    "enrichments",
    "properties",
    "evaluations",
    "enrichmentResults",
    "source",
    "sourceId",
    "websetId",
    "createdAt",
    "updatedAt",
)
COMPACT_ITEM = schema(
    optional=_COMPACT_KEYS, criteria=_OBJ, enrichments={"type": ["object", "array"]}, properties=_OBJ
)
"""An item as `compact_item` gives it (with any `fields`; fields ['all'] gives an ITEM)."""
WEBSET = schema(
    ("searches", "enrichments"),
    (*_WEBSET_KEYS, "monitors", "imports", "excludes", "streams", "items"),
    searches=array(SEARCH),
    enrichments=array(ENRICHMENT),
    monitors=array(MONITOR),
    imports=array(IMPORT),
    items=array(COMPACT_ITEM),
)
PREVIEW = schema(optional=("items",), more=True, items=array({}))

SCHEMAS: dict[Callable[..., Json], Json] = {
    search: SEARCH,
    enrichment: ENRICHMENT,
    monitor: MONITOR,
    monitor_run: MONITOR_RUN,
    import_: IMPORT,
    webset: WEBSET,
    item: ITEM,
    webhook: WEBHOOK,
    webhook_created: WEBHOOK_CREATED,
    webhook_attempt: WEBHOOK_ATTEMPT,
    event: EVENT,
    preview: PREVIEW,
    search_results: SEARCH_RESULTS,
    answer: ANSWER,
}
"""Each projection's output schema (what `one` and `paged` attach)."""
