"""A third engine is one module plus one registry line (issue 38): the suite's fixed-rows engine
(tests/workflows/fixed_engine.py), registered here, runs every collection workflow, and the rows it
returns are what comes out; its name is accepted by the args, never offered to agents."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import exa_orch
from exa_orch.sim.testing import SimHandle
from exa_orch.workflows import engines
from exa_orch.workflows.harvest import HarvestArgs, harvest_cost
from exa_orch.workflows.winnow import WinnowArgs, winnow_cost
from tests.workflows.conftest import OpenApp, agent_runs, run_tasks
from tests.workflows.fixed_engine import PRICE, TABLE, FixedRows

ENTITY = {"type": "company"}
C0, C1 = "builds hardware", "based in Europe"
URLS = [url for _, url, _, _, _ in TABLE]


@pytest.fixture
def fixed() -> Iterator[FixedRows]:
    engine = FixedRows()
    engines.register(engine)  # the one registry line
    yield engine
    engines.unregister(engine.name)


def urls(items: list[dict[str, Any]]) -> list[str]:
    return [i["properties"]["url"] for i in items]


async def test_the_fixed_engine_runs_every_collection_workflow(
    research_app: OpenApp, sim: SimHandle, fixed: FixedRows
) -> None:
    count = len(TABLE)
    number = [{"description": "Number of employees", "format": "number"}]
    tasks = [
        ("lifecycle.harvest", {"query": "robot makers", "entity": ENTITY, "count": count,
                               "criteria": [{"description": C0}], "enrichments": number}),
        ("convergent.search", {"queries": ["robot makers", "hardware startups"], "entity": ENTITY,
                               "count": count, "criteria": [{"description": C0}, {"description": C1}]}),
        ("qd.winnow", {"query": "robot makers", "entity": ENTITY, "count": count, "maxRounds": 2,
                       "criteria": [{"description": C0}, {"description": C1}], "enrichments": number}),
        ("research.verifiedCollection", {"query": "robot makers", "entity": ENTITY, "count": count,
                                         "criteria": [{"description": C0}], "researchPrompt": "Who runs {{name}}?",
                                         "researchLimit": 2}),
        ("adversarial.verify", {"thesis": "Robots pay off", "thesisQuery": "robots pay off",
                                "antithesisQuery": "robots do not pay off", "count": 2, "enrichments": number}),
    ]  # fmt: skip
    async with research_app() as app:
        done = await run_tasks(app, *((kind, {**args, "engine": "fixed"}) for kind, args in tasks))
    assert [t.status for t in done] == ["completed"] * 5, [t.error for t in done]
    harvest, convergent, winnow, verified, adversarial = (t.result for t in done)
    assert all(r["engine"] == "fixed" for r in (harvest, convergent, winnow, verified, adversarial))
    assert not sim.ctx.extras["websets"].websets  # no webset made anywhere

    # harvest: the rows judged yes on the criterion (not Gamma), the other one counted as analyzed
    assert urls(harvest["items"]) == [URLS[0], URLS[1], URLS[3]]
    assert harvest["searchProgress"] == {"found": 3, "analyzed": 4} and harvest["websetId"] is None
    assert [e["result"] for e in harvest["items"][0]["enrichments"]] == [["120"]]
    assert harvest["runIds"] == [r for r in fixed.started if f":{done[0].id}:" in r]

    # convergent: both queries found the two rows passing both criteria
    assert convergent["totalUniqueEntities"] == 2 and convergent["itemCounts"] == [2, 2]
    assert sorted(e["entity"]["url"] for e in convergent["intersection"]) == sorted([URLS[0], URLS[3]])
    assert all(e["confidence"] == 1.0 for e in convergent["intersection"]) and len(convergent["runIds"]) == 2

    # winnow: each row in its niche, the fittest (most employees) the elite of the full one; round 2
    # asked for the one empty niche and found nothing new
    elites = {e["niche"]: e["item"]["properties"]["url"] for e in winnow["finalElites"]}
    assert elites == {"1,1": URLS[3], "1,0": URLS[1], "0,1": URLS[2]}
    assert [r["targetNiches"] for r in winnow["rounds"]] == [None, ["0,0"]]
    assert winnow["convergenceReached"] is True and all(len(r["runIds"]) == 1 for r in winnow["rounds"])

    # verified: the passing rows, the first two researched together as one run's input rows (at the
    # simulator: the research is Exa's, only the collection is fixed)
    assert urls([m["item"] for m in verified["items"]]) == [URLS[0], URLS[1], URLS[3]]
    research_ids = {m["research"]["researchId"] for m in verified["items"][:2]}
    assert len(research_ids) == 1 and "research" not in verified["items"][2]
    [batch] = [agent_runs(sim).get(rid).request for rid in research_ids]
    assert [row["url"] for row in batch["input"]["data"]] == URLS[:2]

    # adversarial: each side the first two rows, their field sent to no synthesis (none asked)
    for side in ("thesis", "antithesis"):
        assert urls(adversarial[side]["items"]) == URLS[:2] and adversarial[side]["websetId"] is None
        assert len(adversarial[side]["runIds"]) == 1


def test_the_fixed_engine_prices_the_preview_and_is_never_offered(fixed: FixedRows) -> None:
    args: dict[str, Any] = {"query": "robot makers", "entity": ENTITY, "criteria": [{"description": C0}]}
    [part] = harvest_cost(HarvestArgs.model_validate({**args, "engine": "fixed"}))
    assert (part.what, part.each, part.certain) == ("fixed collection run", PRICE, True)
    parts = winnow_cost(
        WinnowArgs.model_validate({**args, "enrichments": [], "maxRounds": 3, "engine": "fixed"})
    )
    assert [(p.what, p.count) for p in parts] == [
        ("fixed run, round 1", 1),
        ("fixed runs, rounds 2-3 at most", 4),
    ]
    assert not parts[1].certain  # the later rounds depend on what round 1 fills
    schema = HarvestArgs.model_json_schema(by_alias=True)["properties"]["engine"]
    assert schema["enum"] == ["websets", "agent"]  # agents are offered the product engines only
    engines.unregister("fixed")
    with pytest.raises(ValueError, match="engine must be one of 'websets', 'agent', got 'fixed'"):
        HarvestArgs.model_validate({**args, "engine": "fixed"})


def test_no_engine_name_is_tested_outside_the_registry() -> None:
    package = Path(exa_orch.__file__).parent
    registry = package / "workflows" / "engines"
    found = [
        f"{path.relative_to(package)}:{n}"
        for path in package.rglob("*.py")
        if registry not in path.parents
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if re.search(r"\bengine\s*[!=]=\s", line)
    ]
    assert found == []


def _by_name(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """(line, what) for each way `tree` reaches an operation by name: `dispatch`, `kit.call` (called
    or handed on), `call` imported from kit or named in it. (An operation's name as a string is no
    sign: step keys such as "research.create" are named after operations.)"""
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr == "dispatch":
            yield node.lineno, "dispatch"
        if isinstance(node, ast.Attribute) and node.attr == "call" and ast.unparse(node.value) == "kit":
            yield node.lineno, "kit.call"
        if isinstance(node, ast.Name) and node.id == "call":
            yield node.lineno, "call"
        if isinstance(node, ast.ImportFrom) and (node.module or "").endswith("kit"):
            yield from ((node.lineno, "call") for alias in node.names if alias.name == "call")


def test_no_workflow_reaches_exa_by_operation_name() -> None:
    """Issue 38's acceptance: the workflows call Exa through the typed port only. kit.call, the
    one place that runs an operation by name (for a task type built to), is the only dispatch:
    the operation-by-name task types (`operation`, `exa.follow`) live in operations/, not here."""
    package = Path(exa_orch.__file__).parent / "workflows"
    found = []
    for path in sorted(package.rglob("*.py")):
        tree = ast.parse(path.read_text())
        if path.name == "kit.py":  # all of kit but its `call`, the by-name path
            tree = ast.Module(
                body=[n for n in tree.body if not (isinstance(n, ast.AsyncFunctionDef) and n.name == "call")],
                type_ignores=[],
            )
        found += [f"{path.relative_to(package)}:{line}: {what}" for line, what in _by_name(tree)]
    assert found == []


def test_the_by_name_check_sees_each_way_in() -> None:
    """The check above finds what it forbids (so its empty answer means something)."""
    source = """
from exa_orch.workflows.kit import call
async def f(ctx):
    await kit.call(ctx, "websets.cancel", {"id": "w"})
    ctx.on_cancel(partial(kit.call, ctx, "x", {}))
    await ctx.deps.dispatch("exa.getContents", {}, None)
    await call(ctx, "research.get", {})
    await ctx.step("research.create", make)
"""
    found = sorted(_by_name(ast.parse(source)))
    assert found == [(2, "call"), (4, "kit.call"), (5, "kit.call"), (6, "dispatch"), (7, "call")]
