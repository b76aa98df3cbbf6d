"""Each install command the README shows, run as written from the checkout into a throwaway home,
gives a working `exa-orch` (tests/test_install.py tests the wheel itself).

A file of its own so that pytest-xdist (`--dist loadfile`) runs it beside tests/test_install.py:
together they were the slowest chain of the suite on one worker.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from exa_orch import __version__
from tests.support import WAIT, bound
from tests.test_install import CACHE, INSTALL_COMMANDS, ROOT, run

# Filling the installers' venv (the session fixture) runs inside the first test's limit.
pytestmark = [pytest.mark.slow, pytest.mark.timeout(bound(1200))]


@pytest.fixture(scope="session")
def installers() -> Path:
    """The bin directory of a venv holding pipx and uv (tools to test with, not dependencies)."""
    CACHE.mkdir(parents=True, exist_ok=True)
    tools = CACHE / "installers"
    with (CACHE / "installers.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (tools / "ok").exists():
            shutil.rmtree(tools, ignore_errors=True)
            run(sys.executable, "-m", "venv", tools)
            run(tools / "bin" / "python", "-m", "pip", "install", "--quiet", "pip", "pipx", "uv")
            (tools / "ok").touch()
    return tools / "bin"


@pytest.mark.parametrize("command", INSTALL_COMMANDS)
def test_each_readme_install_command_gives_a_working_exa_orch(
    command: str, installers: Path, tmp_path: Path
) -> None:
    """The README's install line, run as written from the checkout, into a throwaway home."""
    tool, *args = command.split()
    bin_dir = tmp_path / "bin"
    env = {**os.environ, "PIPX_HOME": str(tmp_path / "pipx"), "PIPX_BIN_DIR": str(bin_dir)}
    env |= {"UV_TOOL_DIR": str(tmp_path / "uv-tools"), "UV_TOOL_BIN_DIR": str(bin_dir)}
    if tool == "pip":  # pip installs into the environment it runs in: a new venv, as a user would
        run(sys.executable, "-m", "venv", tmp_path / "venv")
        program, bin_dir = tmp_path / "venv" / "bin" / "pip", tmp_path / "venv" / "bin"
    else:
        program = installers / tool
    out = subprocess.run(
        [program, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=bound(600)
    )
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    version = subprocess.run(
        [bin_dir / "exa-orch", "--version"], capture_output=True, text=True, timeout=WAIT, cwd="/"
    )
    assert version.stdout.strip() == f"exa-orch {__version__}", version.stderr
    assert not (ROOT / "build").exists()  # building from the checkout left nothing in it
