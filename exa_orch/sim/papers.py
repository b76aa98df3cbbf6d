"""ArXiv Xplorer search (seed 003) at `/arxivxplorer/`, answered from the world's research papers.

`GET /arxivxplorer/?query=llm+evaluation&categories=cs.AI&categories=cs.LG&years=2024&years=2025`
returns `SearchResponse {results: Paper[], total_count, query, filters {categories, years}}`.
Repeated parameters, `name[]=` and comma lists are all accepted for categories and years.
Invalid parameters get 400 with the seed's `ErrorResponse {error, code}`; 429 and 500 come from
fault injection (the app writes them in the same shape for this family). The API is public: no
Exa key is needed. Only papers that match the query are results (a nonsense query finds none);
`limit` (default 10, at most 100) caps `results`, while `total_count` counts every match.
"""

from __future__ import annotations

import hashlib
from datetime import date, timedelta
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from exa_orch.sim.context import SimContext
from exa_orch.sim.synth import ranking

ALLOWED_CATEGORIES = (
    "cs.AI",
    "cs.LG",
    "cs.CL",
    "cs.CV",
    "cs.IR",
    "cs.NE",
    "stat.ML",
    "math.ST",
    "physics.data-an",
)
FIRST_YEAR, LAST_YEAR = 2007, 2026
DEFAULT_LIMIT, MAX_LIMIT = 10, 100


class PapersError(Exception):
    """A 400 with the seed's ErrorResponse body."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _multi(request: Request, name: str) -> list[str]:
    values = request.query_params.getlist(name) + request.query_params.getlist(f"{name}[]")
    return [part.strip() for value in values for part in value.split(",") if part.strip()]


def _params(request: Request) -> tuple[str, list[str], list[int], int]:
    query = request.query_params.get("query", "").replace("+", " ").strip()
    if not query:
        raise PapersError("query is required: pass search terms, e.g. ?query=llm+evaluation")
    categories = _multi(request, "categories")
    unknown = [c for c in categories if c not in ALLOWED_CATEGORIES]
    if unknown:
        raise PapersError(f"unknown categories {unknown}; allowed: {list(ALLOWED_CATEGORIES)}")
    years: list[int] = []
    for raw in _multi(request, "years"):
        if not raw.isdigit() or not FIRST_YEAR <= int(raw) <= LAST_YEAR:
            raise PapersError(f"years must be integers from {FIRST_YEAR} to {LAST_YEAR}, got {raw!r}")
        years.append(int(raw))
    raw_limit = request.query_params.get("limit", str(DEFAULT_LIMIT))
    if not raw_limit.isdigit() or not 1 <= int(raw_limit) <= MAX_LIMIT:
        raise PapersError(f"limit must be an integer from 1 to {MAX_LIMIT}, got {raw_limit!r}")
    return query, categories, years, int(raw_limit)


def _updated(published: str, paper_id: str) -> str:
    # A revision some days after publication, deterministic per paper.
    offset = int.from_bytes(hashlib.sha256(paper_id.encode()).digest()[:2], "big") % 240
    return (date.fromisoformat(published) + timedelta(days=offset)).isoformat()


def paper_json(entity: Any) -> dict[str, Any]:
    """A seed-003 Paper from a world research_paper entity."""
    arxiv_id = entity.attrs.get("arxiv_id") or entity.url.rsplit("/", 1)[-1]
    authors = entity.attrs.get("authors") or (
        [a.strip() for a in entity.author.split(",")] if entity.author else []
    )
    return {
        "id": arxiv_id,
        "title": entity.title,
        "authors": list(authors),
        "abstract": entity.text,
        "categories": list(entity.attrs.get("categories", [])),
        "published_date": entity.published_date,
        "updated_date": _updated(entity.published_date, arxiv_id),
        "arxiv_url": f"https://arxiv.org/abs/{arxiv_id}",
        "pdf_url": f"https://arxiv.org/pdf/{arxiv_id}",
    }


def find_papers(world: Any, query: str, categories: list[str], years: list[int]) -> list[Any]:
    """Research papers matching `query`, best first, within the category and year filters."""
    ranked = ranking(world, query, "research_paper")
    return [
        e
        for e in ranked
        if world.score(query, e) > 0
        and (not categories or set(categories) & set(e.attrs.get("categories", [])))
        and (not years or int(e.published_date[:4]) in years)
    ]


async def search_papers(request: Request) -> Response:
    try:
        query, categories, years, limit = _params(request)
    except PapersError as exc:
        return JSONResponse({"error": exc.message, "code": 400}, status_code=400)
    world = request.app.state.sim.world
    matches = find_papers(world, query, categories, years)
    return JSONResponse(
        {
            "results": [paper_json(e) for e in matches[:limit]],
            "total_count": len(matches),
            "query": query,
            "filters": {"categories": categories, "years": years},
        }
    )


def build_routes(ctx: SimContext) -> list[BaseRoute]:
    """ArXiv Xplorer's one endpoint, with and without the trailing slash (no redirect)."""
    return [
        Route("/arxivxplorer/", search_papers, methods=["GET"]),
        Route("/arxivxplorer", search_papers, methods=["GET"]),
    ]
