"""What a collection workflow asks of an engine: the `Collector` protocol and its legs.

A collection workflow (lifecycle.harvest, convergent.search, qd.winnow,
research.verifiedCollection, adversarial.verify) finds entities on an engine. The workflow holds
what is the same on every engine (its args, its analysis, its result); the engine holds where the
entities come from. Engines come in two kinds, and a workflow writes one leg for each (`Legs`):

- `websets`: Exa's Websets, whose items carry their own criteria evaluations and enrichments, so
  each workflow drives a webset its own way (create, wait, add enrichments, collect).
- `rows`: any engine that returns rows (`workflows.rows`): a collection is `start` then `finish`
  on a `RowSource` (Exa's Agent API today; a test's fixed rows; a future API). A third engine of
  this kind is one module with a `RowSource` plus one `register` line (engines/__init__.py).

The engine picks the leg (`Collector.choose`): no workflow tests an engine's name. Most legs are a
function each: `Pair(partial(on_websets, ...), partial(on_rows, ...))`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from exa_orch.gateway import prices
from exa_orch.runtime import TaskContext
from exa_orch.workflows import rows
from exa_orch.workflows.rows import First as First  # one definition (rows.py), named here too

T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)


class RowSource(Protocol):
    """An engine that collects rows: one collection is `start` (step `key`) then `finish`."""

    name: str
    """the engine's name: the `engine` arg, the result's and the archive's `engine`"""
    noun: str
    """what one of its runs is called in progress messages and notes ("agent run")"""

    async def start(self, ctx: TaskContext, key: str, ask: rows.Ask) -> First:
        """Step `key`: the collection's first run, started once even across crashes."""
        ...

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
        """Follow the collection `start` began until `ask.count` rows or `deadline` (wall time),
        filling `into` as it goes (steps under `wait_key`, follow-up runs under `key`)."""
        ...

    def cost(self, count: int, what: str, collections: int = 1) -> list[prices.Part]:
        """What `collections` collections of `count` rows cost at most (tasks.create's preview);
        `what` names the part after the engine's name ("collection run": "agent collection run")."""
        ...

    def run_cost(self, what: str, runs: int = 1) -> prices.Part:
        """What `runs` single runs cost (a workflow that sends one run per ask), `what` as in `cost`."""
        ...


class Legs(Protocol[T_co]):
    """One workflow's two legs: what it does on Websets and on a row source."""

    def websets(self) -> T_co:
        """The leg on Exa's Websets."""
        ...

    def rows(self, source: RowSource) -> T_co:
        """The leg on a row source."""
        ...


@dataclass(frozen=True)
class Pair(Generic[T]):
    """Legs made of two callables (a workflow's legs are mostly a function each)."""

    on_websets: Callable[[], T]
    on_rows: Callable[[RowSource], T]

    def websets(self) -> T:
        return self.on_websets()

    def rows(self, source: RowSource) -> T:
        return self.on_rows(source)


class Collector(Protocol):
    """An engine as a collection workflow sees it: its name, and which leg it runs."""

    name: str
    """the engine's name: the `engine` arg, the result's and the archive's `engine`"""

    def choose(self, legs: Legs[T_co]) -> T_co:
        """The value of the leg this engine runs (`legs.websets()` or `legs.rows(self)`)."""
        ...
