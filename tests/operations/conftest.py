"""An operations harness: the default registry and a real Gateway on the in-process simulator."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from exa_orch.config import Settings
from exa_orch.gateway import Gateway
from exa_orch.operations import OpContext, Registry, default_registry, dispatch
from exa_orch.sim.testing import SimHandle


@dataclass
class Ops:
    """Call operations the way a face does: `await ops("websets.get", {...})`."""

    registry: Registry
    ctx: OpContext
    sim: SimHandle
    progress: list[tuple[float, float | None, str | None]] = field(default_factory=list)

    async def __call__(self, name: str, args: dict[str, Any] | None = None, **kw: Any) -> Any:
        return await dispatch(self.registry, name, args, self.ctx, **kw)

    def requests(self) -> int:
        return int(self.sim.stats()["total_requests"])


@pytest.fixture
async def ops(sim: SimHandle) -> AsyncIterator[Ops]:
    settings = Settings(
        exa_url=sim.url, simulator=True, arxiv_url=f"{sim.url}/arxivxplorer", rps=1000, concurrency=8
    )
    async with Gateway(settings) as gw:
        harness = Ops(default_registry(), OpContext(gateway=gw, settings=settings), sim)

        async def progress(completed: float, total: float | None, message: str | None) -> None:
            harness.progress.append((completed, total, message))

        harness.ctx.progress = progress
        yield harness
