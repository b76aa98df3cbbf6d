"""Runtime fixtures: a real SQLite store in tmp_path and a fast-ticking supervisor factory."""

from __future__ import annotations

from collections import Counter
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from exa_orch.runtime import Deps, Supervisor, WorkflowRegistry
from exa_orch.store import Store
from tests.runtime.workflows import WORKFLOWS

FAST = {"heartbeat": 0.1, "claim_interval": 0.1, "lease_ttl": 5.0, "cleanup_interval": 0.5}


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "workflows.db"


@pytest.fixture
async def store(db_path: Path) -> AsyncIterator[Store]:
    async with Store(db_path) as s:
        yield s


@pytest.fixture
def effects() -> Counter[str]:
    """Side effects of rt.steps, by externalId."""
    return Counter()


def registry() -> WorkflowRegistry:
    return WorkflowRegistry(WORKFLOWS)


def supervisor(store: Store, extras: dict[str, Any], **kw: Any) -> Supervisor:
    """A fast-ticking Supervisor of the test workflows, `extras` their hooks (ctx.deps.extras)."""
    return Supervisor(store, registry(), Deps(extras=extras), **{**FAST, **kw})


def bump(counter: Counter[str]) -> Callable[[str], None]:
    """The `effect` extra of rt.steps: count one side effect under its externalId."""

    def effect(external_id: str) -> None:
        counter[external_id] += 1

    return effect
