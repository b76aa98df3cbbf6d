"""Exa's search family: POST /search, /findSimilar, /contents and /answer, answered from the world.

Shapes follow `exa-openapi-spec.yaml` (SearchResponse, FindSimilarResponse, ContentsResponse,
AnswerResponse) and what exa-py 2.27 reads (`resolvedSearchType`, `costDollars.total`). Results are
deterministic for a seed: ranking comes from `world.search`, and every synthesized text (highlights,
summaries, answers, structured outputs) is derived from the entities alone.
Synthesized values come from `sim/synth.py`, shared with the Agent API.
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import BaseRoute, Route

from exa_orch.sim.billing import ANSWER, search_cost
from exa_orch.sim.context import SimContext
from exa_orch.sim.faults import SimHTTPError, read_json, request_id
from exa_orch.sim.synth import (
    answer_text,
    build_output,
    entity_object,
    grounding,
    host,
    ranking,
    sentences,
    stable,
)

SEARCH_TYPES = ("auto", "neural", "fast", "deep", "deep-lite", "deep-reasoning", "instant", "keyword", "lite")
# Exa's categories -> the world's entity kinds (None: any kind).
CATEGORY_KINDS: dict[str, str | None] = {
    "company": "company",
    "research paper": "research_paper",
    "news": "article",
    "pdf": "research_paper",
    "github": "company",
    "personal site": "person",
    "people": "person",
    "financial report": "article",
}
MAX_RESULTS = 100


def _bad(message: str) -> SimHTTPError:
    return SimHTTPError(400, message, "INVALID_REQUEST_BODY")


def _iso(date: str) -> str:
    return f"{date}T00:00:00.000Z"


# ---- request fields --------------------------------------------------------------------------


def _str_list(body: dict[str, Any], name: str) -> list[str]:
    value = body.get(name)
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _bad(f"{name} must be an array of strings")
    return value


def _date_field(body: dict[str, Any], name: str) -> str | None:
    value = body.get(name)
    if value is None:
        return None
    if not isinstance(value, str) or not re.match(r"^\d{4}-\d{2}-\d{2}", value):
        raise _bad(f"{name} must be an ISO 8601 date-time such as 2024-01-01T00:00:00.000Z, got {value!r}")
    return value[:10]


def _num_results(body: dict[str, Any]) -> int:
    n = body.get("numResults", 10)
    if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= MAX_RESULTS:
        raise _bad(f"numResults must be an integer from 1 to {MAX_RESULTS}, got {n!r}")
    return n


def _query(body: dict[str, Any], name: str = "query") -> str:
    query = body.get(name)
    if not isinstance(query, str) or not query.strip():
        raise _bad(f"{name} is required and must be a non-empty string")
    return query


def _domain_match(url: str, domains: list[str]) -> bool:
    name = host(url)
    return any(name == host(d) or name.endswith("." + host(d)) for d in domains)


class Filters:
    """The CommonRequest filters of a search or findSimilar body."""

    def __init__(self, body: dict[str, Any]) -> None:
        self.include_domains = _str_list(body, "includeDomains")
        self.exclude_domains = _str_list(body, "excludeDomains")
        self.include_text = [t.lower() for t in _str_list(body, "includeText")]
        self.exclude_text = [t.lower() for t in _str_list(body, "excludeText")]
        self.start = _date_field(body, "startPublishedDate")
        self.end = _date_field(body, "endPublishedDate")

    def keep(self, entity: Any) -> bool:
        if self.include_domains and not _domain_match(entity.url, self.include_domains):
            return False
        if self.exclude_domains and _domain_match(entity.url, self.exclude_domains):
            return False
        text = f"{entity.title} {entity.text}".lower()
        if any(t not in text for t in self.include_text) or any(t in text for t in self.exclude_text):
            return False
        if self.start and entity.published_date < self.start:
            return False
        return not (self.end and entity.published_date > self.end)


# ---- contents --------------------------------------------------------------------------------


def _highlights(entity: Any, query: str, max_chars: int | None) -> tuple[list[str], list[float]]:
    words = {w for w in re.findall(r"[a-z0-9]+", query.lower()) if len(w) > 2}
    ranked = sorted(
        sentences(entity.text),
        key=lambda s: -len(words & set(re.findall(r"[a-z0-9]+", s.lower()))),
    )
    chosen = ranked[:2]
    if max_chars:
        chosen = [s[:max_chars] for s in chosen]
    scores = [
        round(0.9 - 0.1 * i - (stable(entity.id, query, i) % 100) / 1000, 4) for i in range(len(chosen))
    ]
    return chosen, scores


def _summary(entity: Any, options: dict[str, Any]) -> str:
    schema = options.get("schema")
    if isinstance(schema, dict):
        return json.dumps(build_output(schema, [entity]), sort_keys=True)
    first = sentences(entity.text)[0] if entity.text else entity.title
    return f"{entity.title}: {first}"


def with_contents(result: dict[str, Any], entity: Any, options: dict[str, Any], query: str) -> dict[str, Any]:
    """Add the text / highlights / summary that `options` (a ContentsRequest) asks for."""
    text = options.get("text")
    if text:
        max_chars = text.get("maxCharacters") if isinstance(text, dict) else None
        result["text"] = (
            entity.text[:max_chars] if isinstance(max_chars, int) and max_chars > 0 else entity.text
        )
    highlights = options.get("highlights")
    if highlights:
        opts = highlights if isinstance(highlights, dict) else {}
        max_chars = opts.get("maxCharacters")
        result["highlights"], result["highlightScores"] = _highlights(
            entity, str(opts.get("query") or query), max_chars if isinstance(max_chars, int) else None
        )
    summary = options.get("summary")
    if summary or summary == {}:  # {} asks for the default summary (the spec: an object)
        result["summary"] = _summary(entity, summary if isinstance(summary, dict) else {})
    extras = options.get("extras")
    if isinstance(extras, dict) and extras.get("links"):
        result["extras"] = {"links": [entity.url]}
    return result


def result_for(entity: Any, score: float | None = None) -> dict[str, Any]:
    """An Exa Result (id is the URL, as Exa's are) without contents."""
    result: dict[str, Any] = {
        "id": entity.url,
        "url": entity.url,
        "title": entity.title,
        "publishedDate": _iso(entity.published_date),
        "author": entity.author,
    }
    if score is not None:
        result["score"] = score
    return result


def _score(world: Any, query: str, entity: Any) -> float:
    raw = world.score(query, entity)
    return round(raw / (raw + 4.0) if raw > 0 else 0.05 + (stable(query, entity.id) % 100) / 10_000, 4)


def _cost(n_results: int, contents: dict[str, Any] | None, kind: str | None = None) -> dict[str, Any]:
    """`costDollars` at Exa's prices (sim/billing.py)."""
    return search_cost(n_results, contents, kind)


# ---- routes ----------------------------------------------------------------------------------


def _world(request: Request) -> Any:
    world = request.app.state.sim.world
    if world is None:
        raise SimHTTPError(503, "The simulator has no world loaded", "SERVICE_UNAVAILABLE")
    return world


def _contents_options(body: dict[str, Any]) -> dict[str, Any] | None:
    contents = body.get("contents")
    if contents is None or contents is False:
        return None
    if not isinstance(contents, dict):
        raise _bad("contents must be an object of contents options (text, highlights, summary)")
    return contents


def _ranked(
    world: Any, query: str, kind: str | None, filters: Filters, n: int, skip: str | None = None
) -> list[Any]:
    pool = ranking(world, query, kind)
    return [e for e in pool if e.url != skip and filters.keep(e)][:n]


async def search(request: Request) -> Response:
    body = await read_json(request)
    world = _world(request)
    query = _query(body)
    n = _num_results(body)
    kind_name = body.get("type", "auto")
    if kind_name not in SEARCH_TYPES:
        raise _bad(f"type must be one of {list(SEARCH_TYPES)}, got {kind_name!r}")
    category = body.get("category")
    if category is not None and category not in CATEGORY_KINDS:
        raise _bad(f"category must be one of {list(CATEGORY_KINDS)}, got {category!r}")
    # Without a category, a query that names a kind ("AI startups") gets that kind, as Exa tends to.
    kind = CATEGORY_KINDS[category] if category else world.infer_kind(query)
    contents = _contents_options(body)
    entities = _ranked(world, query, kind, Filters(body), n)
    results = [
        with_contents(result_for(e, _score(world, query, e)), e, contents or {}, query) for e in entities
    ]
    if category in ("company", "people"):  # Exa attaches structured entities for these categories
        for result, entity in zip(results, entities, strict=True):
            obj = entity_object(entity)
            if obj is not None:
                result["entities"] = [obj]
    deep = str(kind_name).startswith("deep")
    resolved = "deep-reasoning" if kind_name == "deep-reasoning" else "deep" if deep else "neural"
    payload: dict[str, Any] = {
        "requestId": request_id(request),
        "results": results,
        "searchType": resolved,
        "resolvedSearchType": resolved,
        "costDollars": _cost(len(results), contents, resolved),
    }
    schema = body.get("outputSchema")
    if schema is not None and not isinstance(schema, dict):
        raise _bad("outputSchema must be a JSON Schema object")
    if deep or schema:
        content = build_output(schema, entities) if schema else answer_text(query, entities)
        payload["output"] = {"content": content, "grounding": grounding(content, entities)}
    return JSONResponse(payload)


async def find_similar(request: Request) -> Response:
    body = await read_json(request)
    world = _world(request)
    url = _query(body, "url")
    n = _num_results(body)
    source = world.by_url(url)
    if source is not None:
        topic = source.attrs.get("industry") or " ".join(source.attrs.get("categories", []))
        query, kind = f"{source.title} {topic}", source.kind
    else:  # an unknown page: its address is all there is to go on
        query, kind = " ".join(re.findall(r"[A-Za-z]{3,}", url)), None
    filters = Filters(body)
    if body.get("excludeSourceDomain"):
        filters.exclude_domains.append(host(url))
    contents = _contents_options(body)
    entities = _ranked(world, query, kind, filters, n, skip=source.url if source else url)
    results = [
        with_contents(result_for(e, _score(world, query, e)), e, contents or {}, query) for e in entities
    ]
    return JSONResponse(
        {"requestId": request_id(request), "results": results, "costDollars": _cost(len(results), contents)}
    )


async def contents(request: Request) -> Response:
    body = await read_json(request)
    world = _world(request)
    urls = body.get("urls", body.get("ids"))
    if isinstance(urls, str):
        urls = [urls]
    if not isinstance(urls, list) or not urls or not all(isinstance(u, str) for u in urls):
        raise _bad("urls is required: a non-empty array of URL strings")
    if len(urls) > MAX_RESULTS:
        raise _bad(f"at most {MAX_RESULTS} urls per request, got {len(urls)}")
    options: dict[str, Any] = {k: body[k] for k in ("text", "highlights", "summary", "extras") if k in body}
    if not options:
        options = {"text": True}
    query = (
        str((body.get("highlights") or {}).get("query", ""))
        if isinstance(body.get("highlights"), dict)
        else ""
    )
    results: list[dict[str, Any]] = []
    statuses: list[dict[str, Any]] = []
    for url in urls:
        entity = world.by_url(url) or world.by_id(url)
        if entity is None or entity.attrs.get("unreachable"):  # a world file's page may be unreadable
            bad = entity.attrs["unreachable"] if entity is not None else True
            tag = bad if isinstance(bad, str) else "CRAWL_NOT_FOUND"
            code = {"CRAWL_NOT_FOUND": 404, "SOURCE_NOT_AVAILABLE": 403}.get(tag)
            statuses.append({"id": url, "status": "error", "error": {"tag": tag, "httpStatusCode": code}})
            continue
        results.append(with_contents(result_for(entity), entity, options, query or entity.title))
        statuses.append({"id": url, "status": "success"})
    return JSONResponse(
        {
            "requestId": request_id(request),
            "results": results,
            "statuses": statuses,
            "costDollars": _cost(len(results), options, "contents"),
        }
    )


def _citation(entity: Any, with_text: bool) -> dict[str, Any]:
    citation = {
        "id": entity.url,
        "url": entity.url,
        "title": entity.title,
        "author": entity.author,
        "publishedDate": _iso(entity.published_date),
    }
    if with_text:
        citation["text"] = entity.text
    return citation


async def answer(request: Request) -> Response:
    body = await read_json(request)
    world = _world(request)
    query = _query(body)
    schema = body.get("outputSchema")
    if schema is not None and not isinstance(schema, dict):
        raise _bad("outputSchema must be a JSON Schema object")
    entities = world.search(query, kind=world.infer_kind(query), limit=5)
    answer_value: Any = build_output(schema, entities) if schema else answer_text(query, entities)
    citations = [_citation(e, bool(body.get("text"))) for e in entities]
    cost = {"total": ANSWER, "breakDown": [{"search": ANSWER, "contents": 0.0}]}
    if body.get("stream"):
        return StreamingResponse(
            _answer_events(answer_value, citations, cost),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-cache"},
        )
    return JSONResponse(
        {
            "requestId": request_id(request),
            "answer": answer_value,
            "citations": citations,
            "costDollars": cost,
        }
    )


async def _answer_events(
    answer_value: Any, citations: list[dict[str, Any]], cost: dict[str, Any]
) -> AsyncIterator[str]:
    """Server-sent events as Exa streams an answer: content deltas, then citations, then cost."""
    text = answer_value if isinstance(answer_value, str) else json.dumps(answer_value, sort_keys=True)
    for start in range(0, len(text), 80):
        chunk = {"choices": [{"delta": {"content": text[start : start + 80]}}]}
        yield f"data: {json.dumps(chunk)}\n\n"
    yield f"data: {json.dumps({'citations': citations})}\n\n"
    yield f"data: {json.dumps({'costDollars': cost})}\n\n"


def build_routes(ctx: SimContext) -> list[BaseRoute]:
    """The search family's routes."""
    return [
        Route("/search", search, methods=["POST"]),
        Route("/findSimilar", find_similar, methods=["POST"]),
        Route("/contents", contents, methods=["POST"]),
        Route("/answer", answer, methods=["POST"]),
    ]
