"""exa.*, papers.search and research.* against the simulator."""

from __future__ import annotations

import datetime as dt

import pytest

from exa_orch.errors import ErrorCode, InvalidParams
from exa_orch.operations.research import BACKEND_NOTE

from .conftest import Ops


async def test_exa_search_returns_projected_results(ops: Ops) -> None:
    out = await ops("exa.search", {"query": "AI startups", "numResults": 3, "contents": {"text": True}})
    assert 1 <= len(out["results"]) <= 3
    first = out["results"][0]
    assert first["url"].startswith("http") and "title" in first and "text" in first
    assert ops.sim.stats()["requests_by_family"]["search"] == 1


async def test_exa_search_raw_keeps_everything(ops: Ops) -> None:
    raw = await ops("exa.search", {"query": "robotics", "numResults": 2, "raw": True})
    projected = await ops("exa.search", {"query": "robotics", "numResults": 2})
    assert set(projected) <= set(raw) | {"results"}
    assert [r["url"] for r in raw["results"]] == [r["url"] for r in projected["results"]]


async def test_find_similar_contents_and_answer(ops: Ops) -> None:
    hits = await ops("exa.search", {"query": "climate tech startup", "numResults": 2})
    url = hits["results"][0]["url"]
    similar = await ops("exa.findSimilar", {"url": url, "numResults": 2})
    assert similar["results"]
    contents = await ops("exa.getContents", {"urls": url, "text": True})
    assert contents["results"][0]["url"] == url and contents["results"][0]["text"]
    assert contents["normalized"][0]["field"] == "urls"
    answer = await ops("exa.answer", {"question": "Which climate tech startups exist?"})
    assert answer["answer"] and answer["citations"][0]["url"].startswith("http")


async def test_get_contents_needs_urls(ops: Ops) -> None:
    with pytest.raises(InvalidParams) as err:
        await ops("exa.getContents", {"text": True})
    assert "urls" in err.value.message


async def test_papers_search_returns_the_seed_shape(ops: Ops) -> None:
    out = await ops("papers.search", {"query": "neural networks", "categories": ["cs.LG", "cs.AI"]})
    assert set(out) == {"results", "total_count", "query", "filters"}
    assert out["filters"]["categories"] == ["cs.LG", "cs.AI"]
    assert out["results"], "the simulated world has machine-learning papers"
    paper = out["results"][0]
    assert {
        "id",
        "title",
        "authors",
        "abstract",
        "categories",
        "published_date",
        "arxiv_url",
        "pdf_url",
    } <= set(paper)
    assert set(paper["categories"]) & {"cs.LG", "cs.AI"}


async def test_papers_search_validation(ops: Ops) -> None:
    before = ops.requests()
    year = dt.date.today().year
    cases = [
        ({}, "query: required field is missing"),
        ({"query": "   "}, "query: must not be blank"),
        ({"query": "x", "categories": ["cs.XX"]}, "categories[0]"),
        ({"query": "x", "years": [2006]}, f"years: each year must be between 2007 and {year}, got 2006"),
        ({"query": "x", "years": [year + 1]}, f"got {year + 1}"),
    ]
    for args, expected in cases:
        with pytest.raises(InvalidParams) as err:
            await ops("papers.search", args)
        assert expected in err.value.message, err.value.message
        assert err.value.code == ErrorCode.INVALID_PARAMS
    assert ops.requests() == before, "bad args never reach ArXiv Xplorer"


async def test_research_runs_on_the_agent_api(ops: Ops) -> None:
    created = await ops(
        "research.create",
        {"instructions": "compare vector databases", "model": "exa-research-fast",
         "outputSchema": {"type": "object", "properties": {"names": {"type": "array"}}}},
    )  # fmt: skip
    assert created["backend"] == "agent" and created["note"] == BACKEND_NOTE
    assert created["effort"] == "low" and created["status"] in ("queued", "running")
    rid = created["researchId"]
    assert ops.sim.stats()["requests_by_endpoint"].get("POST /agent/runs") == 1
    got = await ops("research.get", {"researchId": rid})
    assert got["researchId"] == rid
    listed = await ops("research.list", {"limit": 10})
    assert rid in [r["researchId"] for r in listed["data"]]
    done = await ops("research.pollUntilFinished", {"researchId": rid, "pollInterval": 0.05, "timeout": 60})
    assert done["status"] == "completed" and done["timedOut"] is False
    assert done["output"]["text"]
    # A listed run comes without its output (it can be as big as its input.data); get and raw have it.
    entry = next(r for r in (await ops("research.list", {"limit": 10}))["data"] if r["researchId"] == rid)
    assert entry["status"] == "completed" and "output" not in entry, entry
    raw = await ops("research.list", {"limit": 10, "raw": True})
    assert any(r.get("output") for r in raw["data"]), "raw: true lists runs whole"
    assert ops.progress and ops.progress[-1][2] == f"research {rid} completed"
    # The beta header the Agent API spec declares, on every Agent API request exa-orch sends.
    assert {e["beta"] for e in ops.sim.log() if e["path"].startswith("/agent/")} == {"agent-2026-05-07"}


async def test_research_poll_times_out_and_says_so(ops: Ops) -> None:
    ops.sim.ctx.clock.set_speed(1e-9)  # held: the run is still going however late the poll ends
    created = await ops("research.create", {"instructions": "slow deep dive", "model": "exa-research-pro"})
    out = await ops("research.pollUntilFinished", {"researchId": created["researchId"], "timeout": 0.2,
                                                   "pollInterval": 0.05})  # fmt: skip
    assert out["timedOut"] is True and out["status"] in ("queued", "running")
    cancelled = await ops("research.cancel", {"researchId": created["researchId"]})
    assert cancelled["status"] == "cancelled"
    assert ops.sim.stats()["requests_by_endpoint"].get("POST /agent/runs/{id}/cancel") == 1


async def test_research_model_must_be_a_seed_model(ops: Ops) -> None:
    with pytest.raises(InvalidParams) as err:
        await ops("research.create", {"instructions": "x", "model": "gpt-9"})
    assert err.value.fields == ["model"]
