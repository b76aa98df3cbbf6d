"""research.deep with the Agent API's input rows, follow-ups and budgets (issue 24), on the whole app
and the simulator (which is as strict as Exa)."""

from __future__ import annotations

from typing import Any

import pytest

from exa_orch.app import App
from exa_orch.errors import InvalidParams
from exa_orch.gateway.agent_runs import user_identifier
from exa_orch.sim.testing import SimHandle
from tests.workflows.conftest import OpenApp, agent_runs, run_task

SCHEMA = {
    "type": "object",
    "required": ["companies"],
    "properties": {
        "companies": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "name": {"type": "string"},
                    "website": {"type": "string"},
                    "employees": {"type": "integer"},
                    "industry": {"type": "string"},
                },
            },
        }
    },
}
FIELDS = {"name", "website", "employees", "industry"}


def rows(result: dict[str, Any]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = result["result"]["companies"]
    return out


async def test_ten_input_rows_come_back_with_the_asked_fields_and_a_follow_up_repeats_none(
    research_app: OpenApp, sim: SimHandle
) -> None:
    world = sim.ctx.world.of_kind("company")[:8]
    data = [{"name": e.name} for e in world] + [{"name": "Acme Rockets"}, {"name": "Initech"}]
    async with research_app() as app:
        first = await run_task(
            app,
            "research.deep",
            {
                "instructions": "enrich these companies",
                "outputSchema": SCHEMA,
                "effort": "low",
                "input": {"data": data},
            },
        )
        assert first.status == "completed", first.error
        got = rows(first.result)
        assert [r["name"] for r in got] == [d["name"] for d in data]  # those 10 rows, in order
        assert all(set(r) == FIELDS for r in got)
        assert [r["employees"] for r in got[:8]] == [e.attrs["employees"] for e in world]
        assert [r["website"] for r in got[:8]] == [e.url for e in world]
        assert first.result["effort"] == "low" and first.result["model"] is None
        run = agent_runs(sim).get(first.result["researchId"])
        assert run.request["input"] == {"data": data}
        # The task's principal (the local user here) reaches Exa only as a stable hash of its name.
        assert run.request["userIdentifier"] == user_identifier(app.settings.principal)

        # A follow-up is a new task naming the first run: no row of the first comes back.
        listed = await run_task(
            app,
            "research.deep",
            {"instructions": "AI startups in Europe", "outputSchema": SCHEMA, "effort": "low"},
        )
        more = await run_task(
            app,
            "research.deep",
            {
                "instructions": "ten more like these",
                "outputSchema": SCHEMA,
                "effort": "low",
                "previousRunId": listed.result["researchId"],
            },
        )
    assert listed.status == "completed" and more.status == "completed", (listed.error, more.error)
    before = {r["website"] for r in rows(listed.result)}
    after = {r["website"] for r in rows(more.result)}
    assert len(before) == len(after) == 10 and not before & after
    follow = agent_runs(sim).get(more.result["researchId"])
    assert follow.request["previousRunId"] == listed.result["researchId"]


async def start(app: App, args: dict[str, Any]) -> None:
    await app.run_operation("tasks.create", {"type": "research.deep", **args})


@pytest.mark.parametrize(
    ("args", "field"),
    [
        ({"effort": "high", "budget": {"maxCostDollars": 5}}, "budget"),
        ({"model": "exa-research-pro", "budget": {"maxCostDollars": 5}}, "budget"),
        ({"effort": "auto", "budget": {"maxCostDollars": 101}}, "budget.maxCostDollars"),
        ({"effort": "auto", "budget": {"maxDurationSeconds": 900}}, "budget.maxDurationSeconds"),
        ({"model": "exa-research", "effort": "ultra"}, "model"),
        ({"previousRunId": "../x"}, "previousRunId"),  # escape-probe: a bad run id, not a path
    ],
)
async def test_a_budget_exa_would_refuse_is_refused_before_any_task_is_written(
    research_app: OpenApp, sim: SimHandle, args: dict[str, Any], field: str
) -> None:
    async with research_app() as app:
        with pytest.raises(InvalidParams) as err:
            await start(app, {"instructions": "AI startups", **args})
        assert field in err.value.fields, (err.value.fields, err.value.message)
        tasks, _ = await app.store.list_tasks()
    assert tasks == [] and agent_runs(sim).runs == {}
