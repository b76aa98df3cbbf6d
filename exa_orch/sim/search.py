"""Exa's search family: POST /search, /findSimilar, /contents and /answer, answered from the world.

Shapes follow `exa-openapi-spec.yaml` (SearchResponse, FindSimilarResponse, ContentsResponse,
AnswerResponse) and what exa-py 2.27 reads (`resolvedSearchType`, `costDollars.total`). Results are
deterministic for a seed: ranking comes from `world.search`, and every synthesized text (highlights,
summaries, answers, structured outputs) is derived from the entities alone.
`build_output(schema, entities)` is shared with the Agent API (`sim/agent.py`).
"""

from __future__ import annotations

import hashlib
import json
import re
import weakref
from collections import OrderedDict
from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import urlsplit

from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import BaseRoute, Route

from exa_orch.sim.context import SimContext
from exa_orch.sim.faults import SimHTTPError, read_json, request_id

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


def _stable(*parts: object) -> int:
    digest = hashlib.sha256("\x1f".join(map(str, parts)).encode()).digest()
    return int.from_bytes(digest[:8], "big")


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in re.split(r"(?<=[.!?])\s+", text) if s.strip()]


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


def _host(url: str) -> str:
    host = urlsplit(url if "//" in url else f"https://{url}").hostname or ""
    return host.removeprefix("www.")


def _domain_match(url: str, domains: list[str]) -> bool:
    host = _host(url)
    return any(host == _host(d) or host.endswith("." + _host(d)) for d in domains)


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
        _sentences(entity.text),
        key=lambda s: -len(words & set(re.findall(r"[a-z0-9]+", s.lower()))),
    )
    chosen = ranked[:2]
    if max_chars:
        chosen = [s[:max_chars] for s in chosen]
    scores = [
        round(0.9 - 0.1 * i - (_stable(entity.id, query, i) % 100) / 1000, 4) for i in range(len(chosen))
    ]
    return chosen, scores


def _summary(entity: Any, options: dict[str, Any]) -> str:
    schema = options.get("schema")
    if isinstance(schema, dict):
        return json.dumps(build_output(schema, [entity]), sort_keys=True)
    first = _sentences(entity.text)[0] if entity.text else entity.title
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
    if summary:
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
    return round(raw / (raw + 4.0) if raw > 0 else 0.05 + (_stable(query, entity.id) % 100) / 10_000, 4)


def _cost(n_results: int, contents: dict[str, Any] | None, deep: bool = False) -> dict[str, Any]:
    search = 0.015 if deep else 0.005
    per_page = 0.0
    if contents:
        per_page = 0.001 * sum(1 for k in ("text", "highlights", "summary") if contents.get(k))
    content_cost = round(per_page * n_results, 6)
    return {
        "total": round(search + content_cost, 6),
        "breakDown": [{"search": search, "contents": content_cost}],
        "search": {"deep" if deep else "neural": search},
        "contents": {"text": content_cost} if content_cost else {},
    }


# ---- structured output (deep search, answer, agent runs) -------------------------------------


def _string_for(name: str, entity: Any, schema: dict[str, Any]) -> str:
    enum = schema.get("enum")
    if isinstance(enum, list) and enum:
        return str(enum[_stable(entity.id, name) % len(enum)])
    key = name.lower()
    attrs = entity.attrs
    if "url" in key or "website" in key or "link" in key:
        return str(entity.url)
    if "email" in key:
        return str(attrs.get("email", f"contact@{_host(entity.url)}"))
    if "date" in key or "published" in key:
        return str(entity.published_date)
    if "location" in key or "city" in key or "country" in key or "headquarters" in key:
        return str(attrs.get("location", "unknown"))
    if "industry" in key or "sector" in key:
        return str(attrs.get("industry", "unknown"))
    if "author" in key:
        return str(entity.author or "unknown")
    if "role" in key or "position" in key:
        return str(attrs.get("role", "unknown"))
    if "company" in key or "employer" in key:
        return str(attrs.get("company", entity.name))
    if "name" in key or "title" in key:
        return str(entity.name)
    if "categor" in key:
        return ", ".join(attrs.get("categories", [])) or str(entity.kind)
    sentences = _sentences(entity.text)
    return sentences[0] if sentences else str(entity.title)


def _number_for(name: str, entity: Any, integer: bool) -> int | float:
    key = name.lower()
    attrs = entity.attrs
    for hint, attr in (
        ("employee", "employees"),
        ("found", "founded"),
        ("year", "founded"),
        ("fund", "funding"),
    ):
        if hint in key and isinstance(attrs.get(attr), int | float):
            return attrs[attr]
    if "year" in key:
        return int(entity.published_date[:4])
    value = _stable(entity.id, name) % 1000
    return value if integer else value / 10


def _fill(schema: Any, name: str, entities: list[Any], index: int, depth: int) -> Any:
    if not isinstance(schema, dict) or not entities:
        return None
    entity = entities[index % len(entities)]
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "string")
    if kind is None:
        kind = "object" if "properties" in schema else "array" if "items" in schema else "string"
    if kind == "object":
        props = schema.get("properties") or {}
        if not props:
            return {"name": entity.name, "url": entity.url} if depth < 3 else {}
        return {key: _fill(sub, key, entities, index, depth + 1) for key, sub in props.items()}
    if kind == "array":
        count = min(len(entities), 5, int(schema.get("maxItems", 5)))
        count = max(count, int(schema.get("minItems", 0)))
        return [
            _fill(schema.get("items") or {"type": "string"}, name, entities, index + i, depth + 1)
            for i in range(count)
        ]
    if kind == "integer":
        return int(_number_for(name, entity, True))
    if kind == "number":
        return _number_for(name, entity, False)
    if kind == "boolean":
        return _stable(entity.id, name) % 2 == 0
    return _string_for(name, entity, schema)


def build_output(schema: dict[str, Any], entities: list[Any]) -> Any:
    """A value conforming to (simple) JSON `schema`, filled deterministically from `entities`.

    `{"type": "text"}` (exa-py's DeepOutputSchema for prose) gives an answer string.
    """
    if schema.get("type") == "text":
        return answer_text(str(schema.get("description") or ""), entities)
    return _fill(schema, "root", entities, 0, 0)


def answer_text(query: str, entities: list[Any]) -> str:
    """A short cited answer built from the top entities."""
    if not entities:
        return f"No sources were found for {query!r}."
    parts = [f"{e.name} ({e.url}): {(_sentences(e.text) or [e.title])[0]}" for e in entities[:3]]
    lead = f"For {query!r}, " if query else ""
    return f"{lead}the most relevant sources say: " + " ".join(f"[{i + 1}] {p}" for i, p in enumerate(parts))


def grounding(output: Any, entities: list[Any]) -> list[dict[str, Any]]:
    """Field-level grounding rows for a deep-search output."""
    fields = list(output) if isinstance(output, dict) else ["content"]
    cites = [{"url": e.url, "title": e.title} for e in entities[:3]]
    return [
        {"field": f, "citations": cites, "confidence": "high" if i == 0 else "medium"}
        for i, f in enumerate(fields)
    ]


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


_RANKINGS: weakref.WeakKeyDictionary[Any, OrderedDict[tuple[str, str | None], list[Any]]] = (
    weakref.WeakKeyDictionary()
)
RANKING_CACHE_SIZE = 512


def ranking(world: Any, query: str, kind: str | None) -> list[Any]:
    """Every entity (of `kind`) ranked for `query`; cached per world, since rankings never change."""
    cache = _RANKINGS.setdefault(world, OrderedDict())
    key = (query, kind)
    hit = cache.get(key)
    if hit is None:
        hit = cache[key] = world.search(query, kind=kind, limit=len(world.entities))
        if len(cache) > RANKING_CACHE_SIZE:
            cache.popitem(last=False)
    else:
        cache.move_to_end(key)
    return hit


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
    deep = str(kind_name).startswith("deep")
    resolved = "deep-reasoning" if kind_name == "deep-reasoning" else "deep" if deep else "neural"
    payload: dict[str, Any] = {
        "requestId": request_id(request),
        "results": results,
        "searchType": resolved,
        "resolvedSearchType": resolved,
        "costDollars": _cost(len(results), contents, deep),
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
        filters.exclude_domains.append(_host(url))
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
        if entity is None:
            statuses.append(
                {"id": url, "status": "error", "error": {"tag": "CRAWL_NOT_FOUND", "httpStatusCode": 404}}
            )
            continue
        results.append(with_contents(result_for(entity), entity, options, query or entity.title))
        statuses.append({"id": url, "status": "success"})
    return JSONResponse(
        {
            "requestId": request_id(request),
            "results": results,
            "statuses": statuses,
            "costDollars": _cost(len(results), options),
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
    cost = {"total": 0.005, "breakDown": [{"search": 0.005, "contents": 0.0}]}
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
