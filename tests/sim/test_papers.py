"""ArXiv Xplorer search (seed 003) at /arxivxplorer/."""

from __future__ import annotations

import httpx
import pytest

from exa_orch.sim.testing import SimHandle

PAPER_FIELDS = {
    "id",
    "title",
    "authors",
    "abstract",
    "categories",
    "published_date",
    "updated_date",
    "arxiv_url",
    "pdf_url",
}


async def test_search_returns_papers_within_the_filters(sim: SimHandle) -> None:
    params = {"query": "language models", "categories": ["cs.CL", "cs.AI"], "years": [2022, 2023, 2024, 2025]}
    async with httpx.AsyncClient(base_url=f"{sim.url}/arxivxplorer") as client:  # public: no key
        response = await client.get("/", params=params)
    assert response.status_code == 200
    body = response.json()
    assert set(body) == {"results", "total_count", "query", "filters"}
    assert body["query"] == "language models"
    assert body["filters"] == {"categories": ["cs.CL", "cs.AI"], "years": [2022, 2023, 2024, 2025]}
    assert body["results"] and body["total_count"] >= len(body["results"])
    for paper in body["results"]:
        assert set(paper) == PAPER_FIELDS
        assert set(paper["categories"]) & {"cs.CL", "cs.AI"}
        assert 2022 <= int(paper["published_date"][:4]) <= 2025
        assert paper["updated_date"] >= paper["published_date"]
        assert paper["arxiv_url"] == f"https://arxiv.org/abs/{paper['id']}"
        assert paper["pdf_url"] == f"https://arxiv.org/pdf/{paper['id']}"
        assert paper["authors"] and all(isinstance(a, str) for a in paper["authors"])


async def test_plus_separated_queries_comma_lists_and_no_trailing_slash(sim: SimHandle) -> None:
    async with httpx.AsyncClient(base_url=sim.url) as client:
        plus = await client.get("/arxivxplorer?query=neural+networks&categories=cs.LG,cs.NE")
        spaced = await client.get(
            "/arxivxplorer/", params={"query": "neural networks", "categories": ["cs.LG", "cs.NE"]}
        )
    assert plus.status_code == 200
    assert plus.json() == spaced.json()
    assert plus.json()["filters"]["categories"] == ["cs.LG", "cs.NE"]


async def test_a_query_that_matches_nothing_finds_nothing(sim: SimHandle) -> None:
    async with httpx.AsyncClient(base_url=sim.url) as client:
        body = (await client.get("/arxivxplorer/", params={"query": "zzqx wvvb"})).json()
    assert body["results"] == [] and body["total_count"] == 0


@pytest.mark.parametrize(
    "params",
    [
        {},
        {"query": "   "},
        {"query": "llm", "categories": "cs.XX"},
        {"query": "llm", "years": "2006"},
        {"query": "llm", "years": "recent"},
        {"query": "llm", "limit": "0"},
    ],
)
async def test_invalid_parameters_get_400_error_response(sim: SimHandle, params: dict) -> None:
    async with httpx.AsyncClient(base_url=sim.url) as client:
        response = await client.get("/arxivxplorer/", params=params)
    assert response.status_code == 400
    body = response.json()
    assert set(body) == {"error", "code"} and body["code"] == 400 and body["error"]
