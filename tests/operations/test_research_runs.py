"""research.* speaks exa-py 2.28's whole run surface (issue 24): every effort, budget, input rows and
exclusions, previousRunId, dataSources, systemPrompt, stop, and userIdentifier from the principal;
Exa's rules are checked before any request is sent."""

from __future__ import annotations

import json
from typing import Any

import pytest

from exa_orch.errors import ErrorCode, InvalidParams, OrchError
from exa_orch.gateway.agent_runs import EFFORTS, user_identifier
from exa_orch.gateway.context import request_scope
from exa_orch.sim.agent import AgentRuns
from exa_orch.workflows import default_workflows
from tests.operations.conftest import Ops

SCHEMA = {
    "type": "object",
    "properties": {
        "companies": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"name": {"type": "string"}, "employees": {"type": "integer"}},
            },
        }
    },
}


# 2.4 MB of schema: a field each, described at length (exa-orch bounds a schema at 100,000 characters).
BIG_SCHEMA = {
    "type": "object",
    "properties": {f"f{i}": {"type": "string", "description": "d" * 230} for i in range(10_000)},
}


async def test_a_hostile_output_schema_is_refused_wherever_one_is_given(ops: Ops) -> None:
    before = ops.requests()
    for name, args in [
        ("exa.search", {"query": "x", "type": "deep", "outputSchema": BIG_SCHEMA}),
        ("exa.answer", {"query": "x", "outputSchema": BIG_SCHEMA}),
    ]:
        with pytest.raises(InvalidParams) as err:
            await ops(name, args)
        assert err.value.code == ErrorCode.INVALID_PARAMS and "outputSchema" in err.value.fields, name
        assert "100,000" in err.value.message, err.value.message
    assert ops.requests() == before, "nothing was sent"
    # A task's args are stored and echoed: refused as tasks.create validates them, before storing.
    workflows = default_workflows()
    for task_type, args, field in [
        ("research.deep", {"instructions": "x", "outputSchema": BIG_SCHEMA}, "outputSchema"),
        (
            "research.verifiedCollection",
            {"query": "x", "researchPrompt": "p", "researchSchema": BIG_SCHEMA},
            "researchSchema",
        ),
    ]:
        with pytest.raises(InvalidParams) as err:
            workflows.get(task_type).validate(args)
        assert err.value.code == ErrorCode.INVALID_PARAMS and field in err.value.fields, err.value.fields
        assert "100,000" in err.value.message


def sent(ops: Ops, research_id: str) -> dict[str, Any]:
    """The request body the simulator received for the run."""
    store = ops.sim.ctx.extras["agent"]
    assert isinstance(store, AgentRuns)
    return store.get(research_id).request


async def finished(ops: Ops, research_id: str) -> dict[str, Any]:
    ops.sim.ctx.clock.advance(3600)
    run: dict[str, Any] = await ops("research.get", {"researchId": research_id})
    assert run["status"] == "completed", run
    return run


@pytest.mark.parametrize("effort", EFFORTS)
async def test_every_effort_is_sent_as_given(ops: Ops, effort: str) -> None:
    created = await ops("research.create", {"instructions": "AI startups", "effort": effort})
    assert created["effort"] == effort and sent(ops, created["researchId"])["effort"] == effort
    assert "model" not in created  # an effort given alone names no legacy model


async def test_the_whole_run_surface_reaches_exa_and_user_identifier_is_a_hash_of_the_principal(
    ops: Ops,
) -> None:
    args = {
        "instructions": "enrich these companies",
        "outputSchema": SCHEMA,
        "effort": "ultra",
        "budget": {"maxCostDollars": 12.5, "maxDurationSeconds": 900},
        "input": {"data": [{"name": "Acme"}, {"name": "Globex"}], "exclusion": [{"website": "initech.com"}]},
        "dataSources": [{"provider": "crunchbase"}],
        "systemPrompt": "Prefer official sources.",
    }
    with request_scope(principal="user:alice"):
        created = await ops("research.create", args)
    body = sent(ops, created["researchId"])
    assert body["effort"] == "ultra" and body["budget"] == {"maxCostDollars": 12.5, "maxDurationSeconds": 900}
    assert body["input"] == args["input"] and body["dataSources"] == [{"provider": "crunchbase"}]
    assert body["systemPrompt"] == "Prefer official sources." and body["outputSchema"] == SCHEMA
    ident = body["userIdentifier"]
    assert ident == user_identifier("user:alice") and len(ident) == 32 and "alice" not in ident
    assert user_identifier("user:alice") == user_identifier("user:alice") != user_identifier("user:bob")
    # Outside any principal's scope nothing is sent.
    plain = await ops("research.create", {"instructions": "x", "effort": "low"})
    assert "userIdentifier" not in sent(ops, plain["researchId"])
    # The legacy model still maps to an effort (the seeds' contract), with the model in the answer.
    legacy = await ops("research.create", {"instructions": "x", "model": "exa-research-pro"})
    assert legacy["model"] == "exa-research-pro" and sent(ops, legacy["researchId"])["effort"] == "high"
    default = await ops("research.create", {"instructions": "x"})
    assert default["model"] == "exa-research" and sent(ops, default["researchId"])["effort"] == "medium"
    same = await ops("research.create", {"instructions": "x", "model": "exa-research-fast", "effort": "low"})
    assert same["effort"] == "low"


async def test_a_follow_up_names_the_previous_run_and_gets_none_of_its_rows(ops: Ops) -> None:
    ops.sim.ctx.clock.set_speed(0.01)  # the first run is still going however slow this machine is
    base = {"outputSchema": SCHEMA, "effort": "low"}
    first = await ops("research.create", {"instructions": "AI startups in Europe", **base})
    with pytest.raises(OrchError) as early:  # Exa continues only from a completed run
        await ops("research.create", {"instructions": "more", **base, "previousRunId": first["researchId"]})
    assert "completed" in early.value.message
    done = await finished(ops, first["researchId"])
    follow = await ops(
        "research.create", {"instructions": "more", **base, "previousRunId": first["researchId"]}
    )
    assert follow["previousRunId"] == first["researchId"]
    again = await finished(ops, follow["researchId"])
    names = [[r["name"] for r in run["output"]["structured"]["companies"]] for run in (done, again)]
    assert len(names[1]) == 10 and not set(names[0]) & set(names[1])


@pytest.mark.parametrize(
    ("args", "field", "words"),
    [
        ({"effort": "low", "budget": {"maxCostDollars": 5}}, "budget", ["auto or ultra", "'low'"]),
        ({"model": "exa-research-pro", "budget": {"maxCostDollars": 5}}, "budget", ["'high'"]),
        ({"budget": {"maxCostDollars": 5}}, "budget", ["'medium'"]),  # the default model's effort
        ({"effort": "max", "budget": {"maxCostDollars": 5}}, "budget", ["'max'"]),
        ({"effort": "auto", "budget": {"maxCostDollars": 500}}, "budget.maxCostDollars", ["100"]),
        ({"effort": "ultra", "budget": {"maxCostDollars": 0.5}}, "budget.maxCostDollars", ["1"]),
        (
            {"effort": "auto", "budget": {"maxDurationSeconds": 600}},
            "budget.maxDurationSeconds",
            ["maxDurationSeconds", "ultra"],
        ),
        ({"effort": "ultra", "budget": {"maxDurationSeconds": 100}}, "budget.maxDurationSeconds", ["300"]),
        ({"effort": "ultra", "budget": {"maxCost": 5}}, "budget.maxCost", ["unknown field"]),
        ({"effort": "turbo"}, "effort", []),
        ({"model": "exa-research-pro", "effort": "low"}, "model", ["give one of them"]),
        ({"previousRunId": "a/b"}, "previousRunId", []),
        ({"input": {"data": []}}, "input.data", []),
        ({"input": {"rows": [{"name": "x"}]}}, "input.rows", ["unknown field"]),
        ({"dataSources": [{}]}, "dataSources[0].provider", []),
        ({"userIdentifier": "u1"}, "userIdentifier", ["unknown field"]),  # set from the principal only
        # exa-orch's bounds where Exa documents none (agent_runs.MAX_INPUT_ROWS / _CHARS / MAX_PROMPT_CHARS)
        ({"input": {"data": [{"n": i} for i in range(2001)]}}, "input.data", ["2000"]),
        ({"input": {"exclusion": [{"url": f"u{i}"} for i in range(2001)]}}, "input.exclusion", ["2000"]),
        ({"input": {"data": [{"d": "x" * 1_000_000}]}}, "input", ["1,000,000", "fewer or shorter rows"]),
        ({"systemPrompt": "s" * 20_001}, "systemPrompt", ["20000"]),
        ({"outputSchema": BIG_SCHEMA}, "outputSchema", ["100,000", "characters"]),
    ],
)
async def test_exa_rules_are_checked_before_any_request(
    ops: Ops, args: dict[str, Any], field: str, words: list[str]
) -> None:
    before = ops.requests()
    with pytest.raises(InvalidParams) as err:
        await ops("research.create", {"instructions": "AI startups", **args})
    assert err.value.code == ErrorCode.INVALID_PARAMS
    assert field in err.value.fields, (err.value.fields, err.value.message)
    assert all(w in err.value.message for w in words), err.value.message
    assert ops.requests() == before, "nothing was sent"


async def test_stop_ends_an_ultra_run_with_what_it_found_and_exa_refuses_other_efforts(ops: Ops) -> None:
    ops.sim.ctx.clock.set_speed(0.01)  # simulated time moves only as the test says
    ultra = await ops(
        "research.create", {"instructions": "Find 40 AI startups", "outputSchema": SCHEMA, "effort": "ultra"}
    )
    ops.sim.ctx.clock.advance(60)  # half way through its 120 simulated seconds
    stopped = await ops("research.stop", {"researchId": ultra["researchId"]})
    assert stopped["status"] == "completed" and stopped["stopReason"] == "stopped"
    assert 0 < len(stopped["output"]["structured"]["companies"]) < 40
    low = await ops("research.create", {"instructions": "x", "effort": "low"})
    with pytest.raises(Exception, match="ultra"):
        await ops("research.stop", {"researchId": low["researchId"]})


async def test_a_big_output_is_agent_sized_by_default_and_whole_on_request(ops: Ops) -> None:
    # 400 input rows come back as 400 structured rows with their grounding: hundreds of KB.
    rows = [{"name": f"Company {i}", "website": f"https://c{i}.example"} for i in range(400)]
    created = await ops(
        "research.create", {"instructions": "enrich", "outputSchema": SCHEMA, "input": {"data": rows}}
    )
    rid = created["researchId"]
    whole = await finished(ops, rid)
    assert "outputHint" in whole and "structured" not in whole["output"]
    assert len(json.dumps(whole)) < 24_000, len(json.dumps(whole))
    assert whole["output"]["structuredSummary"]["companies"] == {"count": 400}
    full = await ops("research.get", {"researchId": rid, "full": True})
    raw = await ops("research.get", {"researchId": rid, "raw": True})
    assert len(full["output"]["structured"]["companies"]) == 400 and "outputHint" not in full
    assert full["output"]["structured"] == raw["output"]["structured"]
    assert len(full["output"]["citations"]) == len(raw["output"]["grounding"]) > 20
    assert len(whole["output"]["citations"]) == 20
    assert whole["output"]["moreCitations"] == len(full["output"]["citations"]) - 20
    # The text reads in parts: each answer says where the next starts, until the last.
    text, offset = "", 0
    while True:
        part = await ops("research.get", {"researchId": rid, "maxChars": 40, "textOffset": offset})
        assert len(part["output"]["text"]) <= 40
        text += part["output"]["text"]
        if "nextTextOffset" not in part["output"]:
            break
        offset = part["output"]["nextTextOffset"]
        assert "textOffset: " in part["outputHint"]
    assert text == full["output"]["text"] and part["output"]["textChars"] == len(text) > 40
    polled = await ops("research.pollUntilFinished", {"researchId": rid})
    assert "structured" not in polled["output"] and len(json.dumps(polled)) < 24_000


@pytest.mark.parametrize("args", [{"maxChars": 0}, {"maxChars": 200_001}, {"textOffset": -1}])
async def test_output_bounds_are_checked(ops: Ops, args: dict[str, Any]) -> None:
    with pytest.raises(InvalidParams) as caught:
        await ops("research.get", {"researchId": "run_x", **args})
    assert caught.value.code is ErrorCode.INVALID_PARAMS and list(args) == [
        f.split(".")[-1] for f in caught.value.fields
    ]
