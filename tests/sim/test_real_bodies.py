"""Real Exa answers (tests/fixtures/real/, each with its source) parse into exa-orch's typed errors
and projections, and the simulator answers the same calls with the same shape (issue 29)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from exa_orch.errors import ErrorCode
from exa_orch.gateway.errors import error_from_response
from exa_orch.operations.projections import compact_item, webset
from exa_orch.sim.context import FaultConfig
from exa_orch.sim.testing import SimHandle

REAL = Path(__file__).resolve().parents[1] / "fixtures" / "real"
KEY = {"x-api-key": "test-key"}


def real(name: str) -> Any:
    return json.loads((REAL / name).read_text())


def shape(value: Any) -> Any:
    """The JSON's shape: objects' keys with their values' shapes, a list's first element's shape,
    and the type name of scalars (an id's value differs, its place and type must not)."""
    if isinstance(value, dict):
        return {k: shape(v) for k, v in value.items()}
    if isinstance(value, list):
        return [shape(value[0])] if value else []
    return type(value).__name__


def test_every_real_body_names_where_it_was_found() -> None:
    files = sorted(p.name for p in REAL.glob("*.json"))
    assert len(files) >= 5
    for name in files:
        doc = real(name)
        assert doc["source"] and doc["how_real"], name


@pytest.mark.parametrize(
    ("name", "code", "tag"),
    [
        ("401_invalid_api_key.json", ErrorCode.AUTHENTICATION_ERROR, "INVALID_API_KEY"),
        ("400_invalid_request_body.json", ErrorCode.INVALID_PARAMS, "INVALID_REQUEST_BODY"),
        ("402_no_more_credits.json", ErrorCode.CREDITS_EXHAUSTED, "NO_MORE_CREDITS"),
    ],
)
def test_real_error_bodies_parse_into_typed_errors(name: str, code: ErrorCode, tag: str) -> None:
    doc = real(name)
    err = error_from_response(
        doc["status"],
        httpx.Headers(),
        json.dumps(doc["body"]).encode(),
        method=doc["request"]["method"],
        path=doc["request"]["path"],
    )
    assert err.code is code and err.tag == tag and err.status == doc["status"]
    assert err.request_id == doc["body"]["requestId"]
    assert doc["body"]["error"] in err.message or doc["body"]["error"] in (err.hint or "")
    if doc["status"] == 402:  # says what to do: top up, not retry
        assert "dashboard.exa.ai" in (err.hint or "") and "credits" in err.message


async def test_the_simulator_answers_a_wrong_key_as_exa_does(sim: SimHandle) -> None:
    doc = real("401_invalid_api_key.json")
    async with httpx.AsyncClient(base_url=sim.url) as client:
        answer = await client.post("/search", json={"query": "ai"}, headers={"x-api-key": "invalid-key"})
    assert answer.status_code == doc["status"]
    assert shape(answer.json()) == shape(doc["body"])
    assert {k: v for k, v in answer.json().items() if k != "requestId"} == {
        k: v for k, v in doc["body"].items() if k != "requestId"
    }


async def test_the_simulator_answers_a_missing_query_with_exas_shape(sim: SimHandle) -> None:
    doc = real("400_invalid_request_body.json")
    async with httpx.AsyncClient(base_url=sim.url, headers=KEY) as client:
        answer = await client.post("/search", json=doc["request"]["body"])
    assert answer.status_code == doc["status"]
    assert shape(answer.json()) == shape(doc["body"]) and answer.json()["tag"] == doc["body"]["tag"]


async def test_the_402_fault_mode_answers_exas_body(sim: SimHandle) -> None:
    doc = real("402_no_more_credits.json")
    sim.set_faults(FaultConfig(rate=1.0, kinds=("402",)))
    async with httpx.AsyncClient(base_url=sim.url, headers=KEY) as client:
        answer = await client.post("/search", json={"query": "ai"})
        upload = await client.put("/websets/v0/uploads/nothing", content=b"x")  # no key, no account
    assert answer.status_code == 402
    assert shape(answer.json()) == shape(doc["body"])
    assert {k: v for k, v in answer.json().items() if k != "requestId"} == {
        k: v for k, v in doc["body"].items() if k != "requestId"
    }
    assert upload.status_code != 402


async def test_the_simulator_reads_a_webset_with_the_real_fields_and_refuses_unknown_query_keys(
    sim: SimHandle,
) -> None:
    doc = real("webset_read.json")
    real_webset = doc["webset_get"]["body"]
    async with httpx.AsyncClient(base_url=sim.url, headers=KEY) as client:
        made = (
            await client.post(
                "/websets/v0/websets", json={"search": {"query": "AI startups in Europe", "count": 3}}
            )
        ).json()
        sim.ctx.clock.advance(120)  # the search is done and the webset idle
        got = (await client.get(f"/websets/v0/websets/{made['id']}", params={"expand": "items"})).json()
        page = (await client.get(f"/websets/v0/websets/{made['id']}/items", params={"limit": 2})).json()
        unknown = await client.get(
            f"/websets/v0/websets/{made['id']}/items",
            params=doc["unknown_query_parameter"]["request"]["query"],
        )
    assert set(real_webset) <= set(got)  # streams included
    assert got["status"] == "idle" and isinstance(got["streams"], list)
    progress = got["searches"][0]["progress"]
    assert set(real_webset["searches"][0]["progress"]) <= set(progress)
    assert progress["analyzed"] > progress["found"]  # analyzed > kept, as with a real key
    assert set(doc["items_page"]["body_keys"]) <= set(page)
    assert page["hasMore"] and page["nextCursor"].startswith("witem_")  # the cursor is an item id
    assert unknown.status_code == doc["unknown_query_parameter"]["status"]
    assert doc["unknown_query_parameter"]["error_says"] in unknown.json()["error"]
    assert "'query'" in unknown.json()["error"] and "'limit'" not in unknown.json()["error"]
    # exa-orch keeps what Exa sent: the projection agents read keeps `streams`.
    assert webset(real_webset)["streams"] == [] and webset(got)["streams"] == []


async def test_the_agent_and_search_endpoints_refuse_unknown_query_keys_too(sim: SimHandle) -> None:
    """The one observed 400 is on Websets; the simulator reads every Exa family as strictly."""
    async with httpx.AsyncClient(base_url=sim.url, headers=KEY) as client:
        run = (await client.post("/agent/runs", json={"query": "AI startups in Europe"})).json()
        answers = {
            "runs page": await client.get("/agent/runs", params={"limit": 2, "cursor": run["id"]}),
            "runs status": await client.get("/agent/runs", params={"status": "running"}),
            "events page": await client.get(f"/agent/runs/{run['id']}/events", params={"limit": 5}),
            "events since": await client.get(f"/agent/runs/{run['id']}/events", params={"after": "x"}),
            "run expand": await client.get(f"/agent/runs/{run['id']}", params={"expand": "output"}),
            "search": await client.post("/search", params={"stream": "true"}, json={"query": "exa"}),
            "plain search": await client.post("/search", json={"query": "exa"}),
        }
    codes = {name: answer.status_code for name, answer in answers.items()}
    assert codes == {
        "runs page": 200,
        "runs status": 400,
        "events page": 200,
        "events since": 400,
        "run expand": 400,
        "search": 400,
        "plain search": 200,
    }, {name: answer.text[:200] for name, answer in answers.items()}
    assert "Unrecognized key(s) in object: 'status'" in answers["runs status"].json()["error"]["message"]


def test_enrichment_results_without_an_enrichment_id_do_not_overwrite_each_other() -> None:
    result = real("enrichment_result.json")["result"]
    assert "enrichmentId" not in result
    other = {**result, "format": "text", "result": ["Seed"]}
    item = {"id": "witem_1", "properties": {"url": "https://a.example"}, "enrichments": [result, other]}
    values = compact_item(item, ["enrichments"])["enrichments"]
    assert sorted(values.values()) == [["2022"], ["Seed"]]
    assert "None" not in values
