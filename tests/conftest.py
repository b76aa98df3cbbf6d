"""Fixtures shared by every test package: a real Exa simulator on loopback.

Keep this file generic; a package's own fixtures belong in its own conftest.py.
"""

from __future__ import annotations

import gc
import os
import shutil
import tempfile
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import settings

from exa_orch.sim.context import SimConfig
from exa_orch.sim.exchanges import EXCHANGE_HOOKS
from exa_orch.sim.testing import SimHandle, running_sim
from tests import contract
from tests.pg import pg_cluster, pg_template  # noqa: F401 (fixtures: a throwaway PostgreSQL, tests/pg.py)
from tests.support import SLOWDOWN

# In CI the property tests replay the same examples each run, so a submission lands or fails on
# its own merits; on a developer's machine they explore new examples every run.
settings.register_profile("ci", derandomize=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


_REAL_XDG = "EXA_ORCH_TEST_USER_XDG_DATA_HOME"  # the user's XDG_DATA_HOME ("" if unset), for xdist workers


# The per-user data directory (exa-orch's default database) is a temporary one for the whole
# session, set before any test and inherited by every child process, so no test writes into the
# real user's ~/.local/share/exa-orch. HOME stays: child tools (pip, uv) keep their caches.
def _real_data_dirs() -> set[Path]:
    """The user's own exa-orch data directories: where XDG_DATA_HOME said, and the HOME default
    a child gets when its client passes HOME but not XDG_DATA_HOME (the mcp SDK's default)."""
    import platformdirs

    # Under pytest-xdist a worker inherits the controller's temporary XDG_DATA_HOME: look where the
    # user's own one (kept in _REAL_XDG by the first process) points, so every process checks it.
    real = os.environ.get(_REAL_XDG, os.environ.get("XDG_DATA_HOME", ""))
    with mock.patch.dict(os.environ, {"XDG_DATA_HOME": real}):  # platformdirs reads "" as unset
        mine = Path(platformdirs.user_data_dir("exa-orch", appauthor=False, roaming=True))
    return {mine, Path.home() / ".local" / "share" / "exa-orch"}


def _state(directory: Path) -> int | None:
    """The directory's mtime: opening a database there creates its -wal and -shm files, which
    changes it. (A stat, not a listing, so a run under tests/selfcontained_audit.py may do it.)"""
    return directory.stat().st_mtime_ns if directory.is_dir() else None


_REAL_BEFORE = {d: _state(d) for d in _real_data_dirs()}
os.environ.setdefault(_REAL_XDG, os.environ.get("XDG_DATA_HOME", ""))
# One temporary directory per process (each xdist worker makes its own), removed at its session end.
_DATA_HOME = Path(tempfile.mkdtemp(prefix="exa-orch-test-data-"))
os.environ["XDG_DATA_HOME"] = str(_DATA_HOME)
# Every simulator a test spawns (`exa-orch sim`, `serve --sim`) runs the quick webset timing the
# suite is calibrated on, as the in-process ones (SimConfig's default) do; the command line's
# default, "real", is twice as slow (docs/simulator.md).
os.environ["EXA_SIM_TIMING"] = "quick"
_ROOT = Path(__file__).resolve().parents[1]


def _litter(where: Path) -> set[str]:
    """SQLite files (and their -wal/-shm) directly in `where`: what a test must not leave there."""
    return {p.name for p in where.glob("*.db*")} if where.is_dir() else set()


_LITTER_BEFORE = {where: _litter(where) for where in {Path.cwd(), _ROOT}}


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    """pytest-timeout's per-test limit (pyproject's `timeout`) scales with EXA_ORCH_TEST_SLOWDOWN,
    like every wait of the suite (tests/support.py); `--timeout` or PYTEST_TIMEOUT still win."""
    if config.getoption("timeout", None) is None and not os.environ.get("PYTEST_TIMEOUT"):
        ini = config.getini("timeout")
        if ini:
            config.option.timeout = float(ini) * SLOWDOWN


# The modules that take longest (each file's summed `--durations`, two runs on 2 busy cores,
# 2026-11-27), longest first.
# `make test` hands whole files to its xdist workers (`--dist loadfile`) in collection order
# (`--no-loadscope-reorder`; xdist's own order puts files with few tests last, which made the
# one-test end-to-end files the run's tail): these go first, so the run ends on short files.
# Measure again when the slowest tests change: `pytest -n 2 --dist loadfile --durations=0`.
LONG_FIRST = (
    "tests/test_cli.py",
    "tests/runtime/test_postgres_servers.py",
    "tests/store/test_crash.py",
    "tests/mcp/test_serve_stdio.py",
    "tests/test_eval.py",
    "tests/client/test_client.py",
    "tests/pool/test_pool.py",
    "tests/pool/test_pool_servers.py",
    "tests/test_install.py",
    "tests/mcp/test_task_ownership_http.py",
    "tests/test_chaos.py",
    "tests/store/test_postgres.py",
    "tests/mcp/test_malformed_calls.py",
    "tests/workflows/test_run_events.py",
    "tests/workflows/test_verified.py",
    "tests/runtime/test_types.py",
    "tests/workflows/test_rows.py",
    "tests/store/test_leases.py",
    "tests/mcp/test_tasks_stdio.py",
    "tests/mcp/test_session_binding.py",
    "tests/client/test_events_crash.py",
    "tests/view/test_terminal.py",
    "tests/money/test_mixed_day.py",
    "tests/mcp/test_tasks_http.py",
    "tests/mcp/test_operations_e2e.py",
    "tests/mcp/test_toolhost_e2e.py",
    "tests/mcp/test_keys_http.py",
    "tests/client/test_verified_agent_crash.py",
    "tests/workflows/test_winnow.py",
    "tests/workflows/test_engines.py",
    "tests/workflows/test_harvest.py",
    "tests/test_selfcontained.py",
    "tests/gateway/test_pacing.py",
    "tests/mcp/test_restart.py",
    "tests/runtime/test_serve_crash.py",
    "tests/view/test_browser.py",
)


@pytest.hookimpl(trylast=True)
def pytest_collection_finish(session: pytest.Session) -> None:
    # Every test module, the MCP SDK and the package are loaded now and stay for the whole run:
    # out of the garbage collector's sight, its full passes during the run scan less.
    gc.freeze()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The files of LONG_FIRST first, in its order; every other test keeps its place after them."""
    rank = {path: i for i, path in enumerate(LONG_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::", 1)[0], len(rank)))


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Fail the run if a test left a database in the working directory or the repository root
    (a default that is relative to the cwd, or a test that forgot its tmp_path), or wrote into the
    user's own data directory (a child spawned without XDG_DATA_HOME and without EXA_ORCH_DB)."""
    shutil.rmtree(_DATA_HOME, ignore_errors=True)
    _write_contract_stats()
    touched = sorted(str(d) for d, before in _REAL_BEFORE.items() if _state(d) != before)
    if touched:
        print(f"\nerror: tests wrote into the user's own data directory: {', '.join(touched)}")
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
    left = sorted(
        f"{where}/{name}" for where, before in _LITTER_BEFORE.items() for name in _litter(where) - before
    )
    if left:
        print(f"\nerror: tests left files in the working directory or repository root: {', '.join(left)}")
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


# The contract switch (tests/contract.py): every simulator answer in this process is validated against
# Exa's specs, and every request exa-orch sends against the spec's request schema, for the whole
# session. It is put in place here, before any test runs, and `_contract` fails a test during which
# a violation happened; no fixture or test turns it off.
EXCHANGE_HOOKS.append(contract.observe)
_CONTRACT_STATS = "EXA_ORCH_CONTRACT_STATS"  # a file each process appends what the checks cost to


@pytest.fixture(autouse=True)
def _contract() -> Iterator[None]:
    before = len(contract.VIOLATIONS)
    yield
    found = contract.VIOLATIONS[before:]
    if found:
        del contract.VIOLATIONS[before:]
        pytest.fail("Exa's spec is not met (tests/contract.py):\n" + "\n".join(found[:20]), pytrace=False)


def _write_contract_stats() -> None:
    target = os.environ.get(_CONTRACT_STATS)
    if target:
        stats = contract.STATS
        with open(target, "a", encoding="utf-8") as fh:
            fh.write(
                f"{os.getpid()} {stats.exchanges} {stats.validated} {stats.seconds:.3f} {stats.skipped}\n"
            )


# Simulated seconds per wall second in tests: a 50-item webset search finishes in well under 5 s.
TEST_SPEED = 100.0


@pytest.fixture
async def sim() -> AsyncIterator[SimHandle]:
    """A fresh simulator (seed 42, speed 100, no faults) on 127.0.0.1:<free port>."""
    async with running_sim(SimConfig(speed=TEST_SPEED)) as handle:
        yield handle
