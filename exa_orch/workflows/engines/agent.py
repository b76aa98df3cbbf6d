"""The Agent engine: Exa's Agent API as a row source (`workflows.rows`: research runs whose
structured output is rows, chunked and continued by previousRunId until `count`)."""

from __future__ import annotations

from typing import TypeVar

from exa_orch.gateway import prices
from exa_orch.runtime import TaskContext
from exa_orch.workflows import rows
from exa_orch.workflows.engines.base import First, Legs

T = TypeVar("T")


class AgentCollector:
    """Exa's Agent API: each collection is `rows.start` then `rows.finish`."""

    name = "agent"
    noun = "agent run"

    def choose(self, legs: Legs[T]) -> T:
        """The workflow's row-source leg, on this engine."""
        return legs.rows(self)

    async def start(self, ctx: TaskContext, key: str, ask: rows.Ask) -> First:
        """Step `key`: the collection's first agent run (`rows.start`)."""
        return await rows.start(ctx, key, ask)

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
        """The collection's runs followed to `ask.count` rows or the deadline (`rows.finish`)."""
        return await rows.finish(ctx, key, wait_key, ask, first, deadline, what, into)

    def cost(self, count: int, what: str, collections: int = 1) -> list[prices.Part]:
        """Each collection's runs at RUN_EFFORT's price (`rows.cost`)."""
        return rows.cost(count, f"agent {what}", collections)

    def run_cost(self, what: str, runs: int = 1) -> prices.Part:
        """`runs` agent runs at RUN_EFFORT's price (the effort they are sent at)."""
        return prices.agent_run(rows.RUN_EFFORT, f"agent {what}", count=runs)
