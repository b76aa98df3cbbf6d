"""`default_registry()`: every operation exa-orch serves, gathered from the domain modules."""

from __future__ import annotations

from . import (
    enrichments,
    events,
    imports,
    items,
    monitors,
    papers,
    research,
    search,
    searches,
    suggest,
    watches,
    webhooks,
    websets,
)
from .export import EXPORT_OPERATIONS
from .meta import list_operations_op
from .registry import Registry
from .tasks import TASK_OPERATIONS

# Each domain module exposes OPERATIONS: list[Operation]; adding a domain is one line here.
DOMAINS = (
    websets,
    searches,
    items,
    enrichments,
    monitors,
    webhooks,
    imports,
    events,
    search,
    research,
    papers,
    suggest,
    watches,
)


def default_registry() -> Registry:
    """A fresh registry holding every operation, the runtime's tasks.* and list_operations."""
    registry = Registry()
    for domain in DOMAINS:
        for op in domain.OPERATIONS:
            registry.register(op)
    for op in [*TASK_OPERATIONS, *EXPORT_OPERATIONS]:
        registry.register(op)
    registry.register(list_operations_op(registry))
    return registry


def list_operations(registry: Registry | None = None) -> list[dict[str, object]]:
    """registry.describe() of `registry` (default: the default registry), for faces that list directly."""
    return (registry or default_registry()).describe()
