"""What a workflow is handed besides its args: `ctx.deps`, typed, built by the composition root.

The runtime knows no operation and imports nothing above it, so what a workflow needs from the
layers above arrives here as typed values the face passes in (exa_orch/app.py builds them):
`dispatch` runs a registered operation by name (the one way a task reaches an operation);
`exa_port` is Exa's objects as typed methods (`exa_orch.exa.port.ExaPort`: how a workflow calls
Exa); `gateway` is the governed path under it (its run pool, budgets). `extras` carries
what a test or an embedding program hands its own workflows (an event to block on, a counter);
the built-in workflows never read it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Protocol

from exa_orch.errors import ConfigError
from exa_orch.exa.port import ExaPort
from exa_orch.gateway import Gateway
from exa_orch.store.memory import EntityMemory

Progress = Callable[[float, float | None, str | None], Awaitable[None]]
"""async (completed, total, message) -> None: where a dispatched operation reports its progress."""


class Dispatch(Protocol):
    """Run the registered operation `name` with `args` (validation, the gateway, typed errors and
    the agents' projection included) and return its JSON result; progress goes to `progress`."""

    async def __call__(self, name: str, args: Mapping[str, Any], progress: Progress, /) -> Any: ...


async def no_operations(name: str, args: Mapping[str, Any], progress: Progress, /) -> Any:
    """The Dispatch of a runtime started without operations (the runtime's own tests, benchmarks)."""
    raise ConfigError(
        f"this workflow calls the operation {name!r}, and the runtime was started without operations",
        hint="Run research workflows inside the MCP server (`exa-orch serve`), whose runtime has them.",
    )


@dataclass(frozen=True)
class Deps:
    """The dependencies every workflow of one runtime shares (`ctx.deps`)."""

    dispatch: Dispatch = no_operations
    gateway: Gateway | None = None
    """the governed path to Exa (None in a runtime that talks to no Exa)"""
    exa_port: ExaPort | None = None
    """Exa's websets and agent runs as typed methods over the gateway (None: no Exa);
    `exa_port_of(deps)` is the port or a typed error naming what is missing"""
    memory: EntityMemory | None = None
    """the principals' entity memory (workflows/memory.py; None: the runtime remembers nothing)"""
    extras: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    """a test's or an embedding program's own values for its own workflows, by name"""


def exa_port_of(deps: Deps) -> ExaPort:
    """`deps.exa_port`, or ConfigError when this runtime was started without Exa."""
    if deps.exa_port is None:
        raise ConfigError(
            "this workflow calls Exa, and the runtime was started without a gateway",
            hint="Run research workflows inside the MCP server (`exa-orch serve`), whose runtime has one.",
        )
    return deps.exa_port
