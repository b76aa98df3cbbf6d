"""The registry of collection engines: which `Collector` (engines/base.py) an `engine` arg names.

Adding an engine is one module that implements the protocol and one line in `ENGINES` (or, for an
engine outside this package, such as a test's, one `register` call). A workflow asks for its engine
once (`begin`, its first checkpoints) and lets the collector choose the leg; nothing else tests an
engine's name.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Annotated

from pydantic import AfterValidator, WithJsonSchema

from exa_orch.runtime import TaskContext
from exa_orch.workflows.engines.agent import AgentCollector
from exa_orch.workflows.engines.base import Collector, First, Legs, Pair, RowSource
from exa_orch.workflows.engines.websets import WebsetsCollector

ENGINES: dict[str, Collector] = {c.name: c for c in (WebsetsCollector(), AgentCollector())}
# The engines agents are offered (the args' JSON Schema enum, EXA_ORCH_ENGINE's values): a
# registered test engine is accepted by the args, never advertised.
OFFERED = ("websets", "agent")


def register(collector: Collector) -> None:
    """Accept `collector.name` as an engine from now on."""
    ENGINES[collector.name] = collector


def unregister(name: str) -> None:
    """Forget a registered engine (a test's, when it is done); the offered ones stay."""
    if name not in OFFERED:
        ENGINES.pop(name, None)


def collector(name: str) -> Collector:
    """The engine named `name` (an args model accepted it, so it is registered)."""
    return ENGINES[name]


def _registered(name: str) -> str:
    if name not in ENGINES:
        raise ValueError(f"engine must be one of {', '.join(repr(n) for n in OFFERED)}, got {name!r}")
    return name


# A collection workflow's `engine` arg: any registered engine, shown to agents as the offered ones.
Engine = Annotated[
    str, AfterValidator(_registered), WithJsonSchema({"enum": list(OFFERED), "type": "string"})
]


@dataclass(frozen=True)
class Begun:
    """A collection task's first checkpoints: when it first started, and its engine."""

    started: float
    engine: Collector


async def begin(ctx: TaskContext, engine: str, clock: str = "started") -> Begun:
    """Steps `clock` (the wall time the task first started: `duration` and deadlines span restarts)
    and "engine" (the engine it runs on: a resumed task never switches, whatever the server's
    EXA_ORCH_ENGINE is now)."""
    started: float = await ctx.step(clock, time.time)
    name: str = await ctx.step("engine", lambda: engine)
    return Begun(started, collector(name))


__all__ = [
    "ENGINES",
    "OFFERED",
    "Begun",
    "Collector",
    "Engine",
    "First",
    "Legs",
    "Pair",
    "RowSource",
    "begin",
    "collector",
    "register",
    "unregister",
]
