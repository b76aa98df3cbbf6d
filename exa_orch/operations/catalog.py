"""`default_registry()`: every operation exa-orch serves, gathered from the domain modules."""

from __future__ import annotations

import importlib
import importlib.util

from .meta import list_operations_op
from .registry import Operation, Registry

# Each domain module exposes OPERATIONS: list[Operation]; adding a domain is one line here.
DOMAIN_MODULES = (
    "websets",
    "searches",
    "items",
    "enrichments",
    "monitors",
    "webhooks",
    "imports",
    "events",
    "search",
    "research",
    "papers",
)


def _domain_ops(module: str, attr: str = "OPERATIONS") -> list[Operation]:
    mod = importlib.import_module(f"{__package__}.{module}")
    return list(getattr(mod, attr))


def default_registry() -> Registry:
    """A fresh registry holding every operation, list_operations and (when the runtime ships it) tasks.*."""
    registry = Registry()
    for module in DOMAIN_MODULES:
        if importlib.util.find_spec(f"{__package__}.{module}") is None:
            continue  # domain not written yet
        for op in _domain_ops(module):
            registry.register(op)
    # tasks.* belong to the runtime helper; registered once operations/tasks.py exists.
    if importlib.util.find_spec(f"{__package__}.tasks") is not None:
        for op in _domain_ops("tasks", "TASK_OPERATIONS"):
            registry.register(op)
    registry.register(list_operations_op(registry))
    return registry


async def list_operations(registry: Registry | None = None) -> list[dict[str, object]]:
    """registry.describe() of the default registry (for faces that list operations directly)."""
    return (registry or default_registry()).describe()
