"""Each layer's public API: `__all__` is sorted and lists exactly what the package exports."""

from __future__ import annotations

import importlib
import types

import pytest

PACKAGES = [
    "exa_orch",
    "exa_orch.client",
    "exa_orch.gateway",
    "exa_orch.operations",
    "exa_orch.runtime",
    "exa_orch.store",
    "exa_orch.view",
    "exa_orch.workflows",
]


@pytest.mark.parametrize("name", PACKAGES)
def test_all_is_sorted_and_complete(name: str) -> None:
    package = importlib.import_module(name)
    exported = package.__all__
    assert exported == sorted(exported)
    assert len(set(exported)) == len(exported)
    for attr in exported:
        assert hasattr(package, attr), f"{name}.__all__ names {attr}, which it does not define"
    # Every public class or function the package imports from exa_orch is exported.
    public = {
        attr
        for attr, value in vars(package).items()
        if not attr.startswith("_")
        and not isinstance(value, types.ModuleType)
        and getattr(value, "__module__", "").startswith("exa_orch")
    }
    assert public <= set(exported), sorted(public - set(exported))
