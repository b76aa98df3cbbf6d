"""Fixtures shared by every test package: a real Exa simulator on loopback.

Keep this file generic; a package's own fixtures belong in its own conftest.py.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator

import pytest
from hypothesis import settings

from exa_orch.sim.context import SimConfig
from exa_orch.sim.testing import SimHandle, running_sim
from tests.pg import pg_cluster, pg_template  # noqa: F401 (fixtures: a throwaway PostgreSQL, tests/pg.py)

# In CI the property tests replay the same examples each run, so a submission lands or fails on
# its own merits; on a developer's machine they explore new examples every run.
settings.register_profile("ci", derandomize=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

# Simulated seconds per wall second in tests: a 50-item webset search finishes in well under 5 s.
TEST_SPEED = 100.0


@pytest.fixture
async def sim() -> AsyncIterator[SimHandle]:
    """A fresh simulator (seed 42, speed 100, no faults) on 127.0.0.1:<free port>."""
    async with running_sim(SimConfig(speed=TEST_SPEED)) as handle:
        yield handle
