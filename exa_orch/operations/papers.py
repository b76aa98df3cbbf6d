"""papers.search (seed 003): ArXiv papers from ArXiv Xplorer, GET / with query parameters."""

from __future__ import annotations

import datetime as dt
from typing import Any, Literal

import httpx
from pydantic import Field, field_validator

from exa_orch.errors import ApiError

from ._http import invalid_url, raise_for_status
from .context import OpContext
from .models import Args
from .registry import Operation

CATEGORIES = ("cs.AI", "cs.LG", "cs.CL", "cs.CV", "cs.IR", "cs.NE", "stat.ML", "math.ST", "physics.data-an")
FIRST_YEAR = 2007
Category = Literal[
    "cs.AI", "cs.LG", "cs.CL", "cs.CV", "cs.IR", "cs.NE", "stat.ML", "math.ST", "physics.data-an"
]
YEAR_RANGE = "years: each year must be between 2007 and {current}, got {year}"


class SearchPapers(Args):
    query: str = Field(min_length=1)
    """search terms, space- or plus-separated, e.g. 'llm evaluation framework'"""
    categories: list[Category] | None = None
    """arXiv categories to filter by"""
    years: list[int] | None = None
    """publication years, 2007 to the current year"""

    @field_validator("query")
    @classmethod
    def _not_blank(cls, query: str) -> str:
        if not query.strip():
            raise ValueError("query: must not be blank")
        return query

    @field_validator("years")
    @classmethod
    def _in_range(cls, years: list[int] | None) -> list[int] | None:
        current = dt.date.today().year
        for year in years or []:
            if not FIRST_YEAR <= year <= current:
                raise ValueError(YEAR_RANGE.format(current=current, year=year))
        return years


def plan(args: SearchPapers) -> dict[str, Any]:
    """GET / with query, categories and years as repeated parameters."""
    query: dict[str, Any] = {"query": args.query}
    if args.categories:
        query["categories"] = list(args.categories)
    if args.years:
        query["years"] = list(args.years)
    return {"method": "GET", "path": "/", "query": query}


async def search_papers(args: SearchPapers, ctx: OpContext) -> dict[str, Any]:
    req = plan(args)
    try:
        resp = await ctx.arxiv.get(req["path"], params=req["query"])
    except httpx.InvalidURL as exc:
        raise invalid_url("GET", "(ArXiv Xplorer)", req["query"], exc) from None
    raise_for_status(resp)
    try:
        body = resp.json()
    except ValueError as exc:
        raise ApiError(
            "ArXiv Xplorer answered with a body that is not JSON", status=resp.status_code
        ) from exc
    # The seed's SearchResponse: results, total_count, query, filters {categories, years}.
    return {
        "results": body.get("results", []),
        "total_count": body.get("total_count", len(body.get("results", []))),
        "query": body.get("query", args.query),
        "filters": body.get("filters") or {"categories": args.categories or [], "years": args.years or []},
    }


OPERATIONS: list[Operation] = [
    Operation("papers.search", SearchPapers, search_papers, "Search arXiv papers (query; categories from "
              f"{', '.join(CATEGORIES)}; years {FIRST_YEAR}..now).", plan=plan),
]  # fmt: skip
