"""A whole new workflow type in one module: args, function, archive extractor and archetype.

Registering it is one line: EXA_ORCH_EXTRA_WORKFLOWS="tests.workflows.new_workflow:WORKFLOWS"
(for a built-in, one entry in exa_orch.workflows.BUILTIN_WORKFLOWS). Its archive row comes from
ARCHETYPE at start-up; no migration.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from exa_orch.runtime import TaskContext, WorkflowSpec
from exa_orch.store import Archetype, ArchiveEntry, Elite, TaskRecord

TYPE = "test.squares"


class SquaresArgs(BaseModel):
    n: int = Field(ge=1, le=100)


async def squares(ctx: TaskContext, args: SquaresArgs) -> dict[str, Any]:
    values = [await ctx.step(f"square{i}", lambda i=i: _square(i)) for i in range(1, args.n + 1)]
    return {"squares": values}


async def _square(i: int) -> int:
    return i * i


def squares_run(task: TaskRecord) -> ArchiveEntry:
    values = (task.result or {}).get("squares", [])
    best = max(values, default=0)
    return ArchiveEntry(
        metrics={"item_count": len(values), "fitness": float(best), "coverage": 1.0 if values else 0.0},
        elites=[Elite("all", float(best), [True], {"id": f"square-{best}", "value": best})],
    )


ARCHETYPE = Archetype(
    id="workflow-test-squares",
    name="Squares",
    description="Squares the numbers 1..n, one checkpointed step each.",
    cell=(1, 1, 1, 1, 2),
    archetype="applied",
    notes="A test type: registered by EXA_ORCH_EXTRA_WORKFLOWS, filed without a migration.",
    steps=("Square each number", "Return the squares"),
)

WORKFLOWS = [
    WorkflowSpec(TYPE, SquaresArgs, squares, "Squares 1..n", archive=squares_run, archetype=ARCHETYPE)
]
