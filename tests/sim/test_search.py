"""Contract tests for /search, /findSimilar, /contents and /answer: through exa-py's AsyncExa, with
every response body validated against exa-openapi-spec.yaml; plus filters, errors and determinism."""

from __future__ import annotations

import json
import warnings
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

import httpx
import pytest

from exa_orch.sim.context import SimConfig
from exa_orch.sim.testing import SimHandle, running_sim
from tests.sim.sdk import async_exa
from tests.specs import validate_response

if TYPE_CHECKING:
    from exa_py import AsyncExa

KEY = {"x-api-key": "test-key"}


class Recorder:
    """Keeps every (method, path, status, JSON body) the SDK's httpx client received."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, str, int, Any]] = []

    async def __call__(self, response: httpx.Response) -> None:
        if "json" in response.headers.get("content-type", ""):
            await response.aread()
            self.calls.append(
                (response.request.method, response.url.path, response.status_code, response.json())
            )


@pytest.fixture
async def exa(sim: SimHandle) -> AsyncIterator[tuple[AsyncExa, Recorder]]:
    recorder = Recorder()
    client = async_exa("test-key", sim.url)
    client._client = httpx.AsyncClient(headers=client.headers, event_hooks={"response": [recorder]})
    async with client:
        yield client, recorder


def _validate_all(recorder: Recorder) -> None:
    assert recorder.calls
    for method, path, status, body in recorder.calls:
        validate_response("search", method, path, status, body)


async def test_search_through_exa_py_conforms_to_the_spec(exa: tuple[AsyncExa, Recorder]) -> None:
    client, recorder = exa
    default = await client.search("AI startups in Europe", num_results=5)
    rich = await client.search(
        "machine learning research",
        num_results=3,
        category="research paper",
        contents={"text": {"max_characters": 120}, "highlights": True, "summary": {"query": "main result"}},
    )
    deep = await client.search(
        "fintech companies",
        type="deep-reasoning",
        num_results=3,
        output_schema={
            "type": "object",
            "properties": {
                "companies": {
                    "type": "array",
                    "items": {"type": "object", "properties": {"name": {"type": "string"}}},
                }
            },
        },
    )
    companies = await client.search("fintech startups", category="company", num_results=3, contents=False)
    people = await client.search("engineers", category="people", num_results=3, contents=False)
    _validate_all(recorder)
    assert all(r.entities and r.entities[0].type == "company" for r in companies.results)
    assert all(r.entities and r.entities[0].properties.workforce.total > 0 for r in companies.results)
    assert all(r.entities and r.entities[0].type == "person" for r in people.results)
    assert len(default.results) == 5 and all(r.text for r in default.results)
    assert all(r.url.startswith("https://") and r.id == r.url for r in default.results)
    assert all(r.url.startswith("https://arxiv.org/") for r in rich.results)
    assert all(len(r.text or "") <= 120 and r.highlights and r.summary for r in rich.results)
    assert deep.output is not None and isinstance(deep.output.content, dict)
    assert [c["name"] for c in deep.output.content["companies"]]
    assert default.cost_dollars is not None and default.cost_dollars.total > 0


async def test_contents_find_similar_and_answer_conform_to_the_spec(exa: tuple[AsyncExa, Recorder]) -> None:
    client, recorder = exa
    found = await client.search("robotics companies", num_results=2, contents=False)
    url = found.results[0].url
    contents = await client.get_contents([url, "https://not-in-the-world.example/page"], text=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # exa-py deprecates find_similar
        similar = await client.find_similar(url, num_results=4)
    answer = await client.answer("Which robotics companies are in Europe?", text=True)
    structured = await client.answer(
        "robotics companies",
        output_schema={
            "type": "object",
            "properties": {"company": {"type": "string"}, "employees": {"type": "integer"}},
        },
    )
    _validate_all(recorder)
    assert [s.status for s in contents.statuses] == ["success", "error"]
    assert contents.statuses[1].error is not None and contents.statuses[1].error.tag == "CRAWL_NOT_FOUND"
    assert len(contents.results) == 1 and contents.results[0].text
    assert len(similar.results) == 4 and url not in [r.url for r in similar.results]
    assert isinstance(answer.answer, str) and answer.citations and all(c.text for c in answer.citations)
    assert isinstance(structured.answer, dict) and isinstance(structured.answer["employees"], int)


async def test_answer_streams_server_sent_events(exa: tuple[AsyncExa, Recorder]) -> None:
    client, _ = exa
    stream = await client.stream_answer("climate tech companies")
    chunks = [chunk async for chunk in stream]
    text = "".join(c.content or "" for c in chunks)
    plain = await client.answer("climate tech companies")
    assert text == plain.answer
    assert any(c.citations for c in chunks)
    assert stream.cost_dollars is not None


async def test_search_filters_are_applied(sim: SimHandle) -> None:
    async with httpx.AsyncClient(base_url=sim.url, headers=KEY) as http:
        body = {
            "query": "artificial intelligence",
            "numResults": 20,
            "category": "news",
            "startPublishedDate": "2023-01-01T00:00:00.000Z",
            "endPublishedDate": "2024-12-31T23:59:59.000Z",
            "excludeDomains": ["techcrunch.com"],
        }
        results = (await http.post("/search", json=body)).json()["results"]
        only = (await http.post("/search", json={"query": "ai", "includeDomains": ["arxiv.org"]})).json()[
            "results"
        ]
        text = (await http.post("/search", json={"query": "ai", "includeText": ["benchmarks"]})).json()[
            "results"
        ]
    assert results
    assert all("2023-01-01" <= r["publishedDate"][:10] <= "2024-12-31" for r in results)
    assert all("techcrunch.com" not in r["url"] for r in results)
    assert only and all(r["url"].startswith("https://arxiv.org/") for r in only)
    assert text and all("arxiv.org" in r["url"] for r in text)  # only papers mention benchmarks


async def test_a_domain_filter_that_is_not_a_domain_matches_nothing_instead_of_a_500(sim: SimHandle) -> None:
    async with httpx.AsyncClient(base_url=sim.url, headers=KEY) as http:
        only = await http.post("/search", json={"query": "ai", "includeDomains": ["[not a domain"]})
        but = await http.post("/search", json={"query": "ai", "excludeDomains": ["[::1"], "numResults": 3})
    assert only.status_code == 200 and only.json()["results"] == []
    assert but.status_code == 200 and len(but.json()["results"]) == 3


@pytest.mark.parametrize(
    ("path", "body", "needle"),
    [
        ("/search", {}, "query"),
        ("/search", {"query": "ai", "numResults": 500}, "numResults"),
        ("/search", {"query": "ai", "type": "psychic"}, "type"),
        ("/search", {"query": "ai", "category": "recipes"}, "category"),
        ("/search", {"query": "ai", "startPublishedDate": "last week"}, "startPublishedDate"),
        ("/findSimilar", {}, "url"),
        ("/contents", {"urls": []}, "urls"),
        ("/answer", {"query": ""}, "query"),
    ],
)
async def test_bad_requests_get_400_naming_the_field(
    sim: SimHandle, path: str, body: dict, needle: str
) -> None:
    async with httpx.AsyncClient(base_url=sim.url, headers=KEY) as http:
        response = await http.post(path, json=body)
    assert response.status_code == 400
    assert response.json()["tag"] == "INVALID_REQUEST_BODY"
    assert needle in response.json()["error"]


async def _bodies(seed: int) -> list[str]:
    requests = [
        ("/search", {"query": "AI startups in Europe", "numResults": 10, "contents": {"highlights": True}}),
        ("/search", {"query": "vision", "type": "deep", "category": "research paper"}),
        ("/answer", {"query": "fintech in Berlin"}),
    ]
    out: list[str] = []
    async with running_sim(SimConfig(seed=seed, speed=100)) as handle:
        async with httpx.AsyncClient(base_url=handle.url, headers=KEY) as http:
            for path, body in requests:
                data = (await http.post(path, json=body)).json()
                data.pop("requestId")
                out.append(json.dumps(data, sort_keys=True))
    return out


async def test_the_same_seed_gives_byte_identical_results_and_another_seed_differs() -> None:
    first, second, other = await _bodies(11), await _bodies(11), await _bodies(12)
    assert first == second
    assert first != other
