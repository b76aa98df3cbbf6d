"""A third collection engine, for the suite only: fixed rows, no Exa (issue 38).

It is what a new engine of the rows kind takes (workflows/engines/base.py's `RowSource`): this one
module, and one `engines.register(FixedRows())` line (the test that uses it makes that call). Each
collection's "run" is a checkpointed step whose id is its key; its rows are the first `ask.count`
of `TABLE`, each judged on the ask's criteria as the table says and carrying the ask's fields.
"""

from __future__ import annotations

from typing import Any, TypeVar

from exa_orch.gateway import prices
from exa_orch.runtime import TaskContext
from exa_orch.workflows import rows
from exa_orch.workflows.engines import First, Legs

T = TypeVar("T")
Json = dict[str, Any]
PRICE = 0.5  # dollars a fixed run costs, so a preview shows this engine priced them

# name, url, description, verdict per criterion (index), the value of every field
TABLE: list[tuple[str, str, str, tuple[str, ...], str]] = [
    ("Acme Robotics", "https://acme-robotics.example", "Warehouse robots, Berlin", ("yes", "yes"), "120"),
    ("Beta Vision", "https://beta-vision.example", "Camera models, Paris", ("yes", "no"), "40"),
    ("Gamma Labs", "https://gamma-labs.example", "Lab automation, Boston", ("no", "yes"), "75"),
    ("Delta Drones", "https://delta-drones.example", "Drone fleets, Madrid", ("yes", "yes"), "300"),
]


def output(ask: rows.Ask) -> Json:
    """The structured output a fixed run returns for `ask` (as an agent run's `{rows: [...]}`)."""
    out = []
    for name, url, description, verdicts, value in TABLE[: ask.count]:
        row: Json = {"name": name, "url": url, "description": description}
        for i, _ in enumerate(ask.criteria):
            row[f"criterion{i}"] = verdicts[i % len(verdicts)]
        for j, _ in enumerate(ask.fields):
            row[f"field{j}"] = value
        out.append(row)
    return {"rows": out}


class FixedRows:
    """The fixed-rows engine: a row source whose runs return `TABLE` at once."""

    name = "fixed"
    noun = "fixed run"

    def __init__(self) -> None:
        self.started: list[str] = []  # run ids, in the order the workflows started them (this process)

    def choose(self, legs: Legs[T]) -> T:
        return legs.rows(self)

    async def start(self, ctx: TaskContext, key: str, ask: rows.Ask) -> First:
        run_id: str = await ctx.step(key, lambda: f"fixed:{ctx.task_id}:{key}")
        self.started.append(run_id)
        return run_id, lambda: None

    async def finish(
        self,
        ctx: TaskContext,
        key: str,
        wait_key: str,
        ask: rows.Ask,
        first: First,
        deadline: float,
        what: str,
        into: rows.Collected | None = None,
    ) -> rows.Collected:
        got = into if into is not None else rows.Collected()
        run_id = first[0]
        got.run_ids.append(run_id)
        returned: Json = await ctx.step(wait_key, lambda: output(ask))
        for row in rows.from_agent(run_id, returned, ask.criteria, len(ask.fields), ask.entity_type):
            (got.rows if not ask.keep_passing or rows.passes(row) else got.rejected).append(row)
        return got

    def cost(self, count: int, what: str, collections: int = 1) -> list[prices.Part]:
        return [prices.Part(f"fixed {what}", collections, PRICE, certain=True)]

    def run_cost(self, what: str, runs: int = 1) -> prices.Part:
        return prices.Part(f"fixed {what}", runs, PRICE, certain=True)
