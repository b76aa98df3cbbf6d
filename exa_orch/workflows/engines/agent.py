"""The Agent engine: Exa's Agent API as a row source (`workflows.rows`: research runs whose
structured output is rows, chunked and continued by previousRunId until `count`)."""

from __future__ import annotations

from typing import TypeVar

from exa_orch.gateway import prices
from exa_orch.workflows import rows
from exa_orch.workflows.engines.base import Legs

T = TypeVar("T")


class AgentCollector:
    """Exa's Agent API: each collection is `rows.start` then `rows.finish`."""

    name = "agent"
    noun = "agent run"

    def choose(self, legs: Legs[T]) -> T:
        """The workflow's row-source leg, on this engine."""
        return legs.rows(self)

    # Each collection is `rows.start` (its first run, step `key`) then `rows.finish` (its runs
    # followed to `ask.count` rows or the deadline).
    start = staticmethod(rows.start)
    finish = staticmethod(rows.finish)

    def cost(self, count: int, what: str, collections: int = 1) -> list[prices.Part]:
        """Each collection's runs at RUN_EFFORT's price (`rows.cost`)."""
        return rows.cost(count, f"agent {what}", collections)

    def run_cost(self, what: str, runs: int = 1) -> prices.Part:
        """`runs` agent runs at RUN_EFFORT's price (the effort they are sent at)."""
        return prices.agent_run(rows.RUN_EFFORT, f"agent {what}", count=runs)
