"""A pytest plugin that refuses file access outside the repository (`-p tests.selfcontained_audit`).

tests/test_selfcontained.py runs a subset of the suite with it. An audit hook (PEP 578) sees every
`open`, `os.listdir` and `os.scandir` in the process; a path outside the repository root and
outside what any Python process needs (its own install, pytest's temp directories, the temp
directory, /dev, /proc, /sys, /etc, /usr) raises PermissionError there and is reported at the end
of the run, which then fails. Anything beside the repository (a sibling such as "shared") is refused even when
the repository itself sits in the temp directory.
"""

from __future__ import annotations

import os
import sys
import sysconfig
import tempfile
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
# What any test process may read wherever the repository is: the interpreter and its packages
# (a venv may live beside the repository), pytest's temporary directories, the test data home.
OWN = [
    ROOT,
    *(Path(p).resolve() for p in {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix}),
    *(Path(p).resolve() for p in sysconfig.get_paths().values()),
    *Path(tempfile.gettempdir()).resolve().glob("pytest-of-*"),
]
if os.environ.get("XDG_DATA_HOME"):
    OWN.append(Path(os.environ["XDG_DATA_HOME"]).resolve())
# A temp directory that doesn't hold the repository is this run's own (test_selfcontained.py points
# TMPDIR into pytest's temp tree, so that a repository cloned straight into /tmp still has one).
if not ROOT.is_relative_to(Path(tempfile.gettempdir()).resolve()):
    OWN.append(Path(tempfile.gettempdir()).resolve())
# Beside the repository (a sibling directory or checkout) is refused even inside the places below.
BESIDE = ROOT.parent
SYSTEM = [
    Path(tempfile.gettempdir()).resolve(),
    *(Path(p) for p in ("/dev", "/proc", "/sys", "/etc", "/usr", "/lib", "/lib64")),
]
refused: list[str] = []


def _outside(raw: Any) -> str | None:
    if isinstance(raw, int) or raw is None:
        return None  # a file descriptor: opened earlier, already checked
    path = Path(os.fsdecode(raw))
    full = Path(os.path.abspath(path))  # not resolve(): it would open things itself
    if any(full.is_relative_to(a) for a in OWN):
        return None
    if not full.is_relative_to(BESIDE) and any(full.is_relative_to(a) for a in SYSTEM):
        return None
    return str(full)


def _hook(event: str, args: tuple[Any, ...]) -> None:
    if event not in ("open", "os.listdir", "os.scandir") or not args:
        return
    outside = _outside(args[0])
    if outside is not None:
        refused.append(f"{event} {outside}")
        raise PermissionError(f"self-contained check: {event} outside the repository: {outside}")


def pytest_configure(config: pytest.Config) -> None:
    sys.addaudithook(_hook)  # cannot be removed: this plugin is for a run of its own


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if refused:
        print("\nSELF-CONTAINED CHECK: refused access outside the repository:")
        for line in sorted(set(refused)):
            print(f"  {line}")
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
