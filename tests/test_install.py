"""Each install command the README shows, run as written from the checkout, gives a working
`exa-orch`; and what `pip install .` installed works the way the README says.

The installed `exa-orch serve --sim` is spawned by the official `mcp` client over stdio from `/`
(as Claude Desktop may start it), answers `initialize` and `tools/list`, runs a `research.deep`
task to `completed`, and keeps its database in the per-user data directory, not in the cwd.

`pip install .` builds a wheel of the checkout and installs it with its dependencies into a new
venv: that takes most of a minute, so it is done once (the `installed` fixture, which both kinds of
test read) and cached under the system's temp directory, keyed by a hash of everything that goes
into the wheel (a rerun without source changes reuses it). `pipx` and `uv` install into a throwaway
home each run, and `uvx --from .` runs the checkout's command from uv's cache (kept under the same
temp directory, shared with `uv tool install .`; the checkout's build in it is redone whenever one
of its files changed: pyproject.toml's [tool.uv] cache-keys). One
module, so one xdist worker does all of it in turn (`--dist loadfile`) rather than a second one
waiting on the first's install. `make test` runs these tests (marked slow, not
skipped).
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import mcp_types as types
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters, get_default_environment, stdio_client

from exa_orch import __version__
from tests.support import WAIT, bound

ROOT = Path(__file__).resolve().parents[1]
# The README's install commands; test_each_readme_install_command_gives_a_working_exa_orch runs each.
INSTALL_COMMANDS = ("pipx install .", "uv tool install .", "pip install .", "uvx --from . exa-orch --version")
CACHE = Path(tempfile.gettempdir()) / "exa-orch-install-test"

# Installing (the session fixtures) runs inside the first test's limit.
pytestmark = [pytest.mark.slow, pytest.mark.timeout(bound(1200))]


def source_key() -> str:
    """A hash of every file the wheel is built from (a change to any of them means a new wheel)."""
    digest = hashlib.sha256()
    files = [ROOT / "pyproject.toml", ROOT / "README.md", ROOT / "LICENSE"]
    files += sorted(ROOT.glob("exa_orch/**/*.py")) + sorted(ROOT.glob("exa_orch/**/*.typed"))
    files += sorted(ROOT.glob("migrations/*.sql"))
    for path in files:
        digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def run(*argv: str | Path, cwd: Path = ROOT) -> None:
    out = subprocess.run([str(a) for a in argv], cwd=cwd, capture_output=True, text=True, timeout=bound(600))
    assert out.returncode == 0, f"{argv} failed:\n{out.stdout[-3000:]}\n{out.stderr[-3000:]}"


@dataclass(frozen=True)
class Installed:
    """A venv with this checkout installed by `pip install .`, and what that command printed."""

    bin: Path
    output: str


@pytest.fixture(scope="session")
def installed() -> Installed:
    """A venv into which the README's `pip install .` was run, as written, from the checkout: the
    wheel of this checkout and its dependencies, not editable, no source tree on its path."""
    CACHE.mkdir(parents=True, exist_ok=True)
    home = CACHE / source_key()
    venv, log = home / "venv", home / "pip-install.log"
    # A lock, so two runs (or two xdist workers) of the same source don't build into one directory
    # at once: the second waits for the first and reads its result.
    with (CACHE / f"{home.name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not ((home / "ok").exists() and log.exists()):
            shutil.rmtree(home, ignore_errors=True)
            home.mkdir()
            run(sys.executable, "-m", "venv", venv)  # built where it stays: venvs hard-code their path
            # The README's line as written, with the venv's pip, as a user who made the venv would.
            out = subprocess.run(
                [venv / "bin" / "pip", "install", "."],
                cwd=ROOT,
                capture_output=True,
                text=True,
                timeout=bound(600),
            )
            assert out.returncode == 0, f"pip install . failed:\n{out.stdout[-3000:]}\n{out.stderr[-3000:]}"
            log.write_text(out.stdout)
            (home / "ok").touch()
    return Installed(venv / "bin", log.read_text())


def test_pip_install_builds_one_pure_python_wheel_of_this_version(installed: Installed) -> None:
    wheels = re.findall(r"Created wheel for exa-orch: filename=(\S+)", installed.output)
    assert wheels == [f"exa_orch-{__version__}-py3-none-any.whl"], installed.output[-3000:]


def test_the_installed_command_reports_the_package_version(installed: Installed) -> None:
    out = subprocess.run(
        [installed.bin / "exa-orch", "--version"], capture_output=True, text=True, timeout=WAIT, cwd="/"
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == f"exa-orch {__version__}"


def result_json(result: types.CallToolResult) -> Any:
    block = result.content[0]
    assert isinstance(block, types.TextContent), block
    body = json.loads(block.text)
    assert not result.is_error, body
    return body


async def test_installed_serve_sim_from_root_runs_a_research_task_into_the_user_data_dir(
    installed: Installed, tmp_path: Path
) -> None:
    data_home = tmp_path / "data"
    env = dict(get_default_environment())  # what the mcp client passes on: PATH, HOME, ...
    for name in ("EXA_API_KEY", "EXA_ORCH_DB", "EXA_ORCH_EXA_URL", "PYTHONPATH"):
        env.pop(name, None)
    env |= {"XDG_DATA_HOME": str(data_home), "EXA_SIM_SPEED": "100"}
    # The config a README user pastes: the command, `serve --sim`, nothing else; started from /.
    params = StdioServerParameters(
        command=str(installed.bin / "exa-orch"), args=["serve", "--sim"], env=env, cwd="/"
    )
    with (tmp_path / "stderr.log").open("w") as errlog:
        async with Client(
            stdio_client(params, errlog=errlog), mode="legacy", read_timeout_seconds=bound(90)
        ) as client:  # type: ignore[arg-type]
            assert client.server_info is not None and client.server_info.name == "exa-orch"
            listed = await client.list_tools()
            assert [t.name for t in listed.tools] == ["manage_websets"]

            async def call(operation: str, args: dict[str, Any]) -> Any:
                return result_json(
                    await client.call_tool("manage_websets", {"operation": operation, "args": args})
                )

            created = await call(
                "tasks.create", {"type": "research.deep", "instructions": "Solid-state battery startups"}
            )
            task_id = created["taskId"]
            done = await call("tasks.result", {"taskId": task_id, "wait": 60})
            assert done["status"] == "completed", done
            assert done["result"]["status"] == "completed"
    log = (tmp_path / "stderr.log").read_text()
    db = data_home / "exa-orch" / "workflows.db"
    assert f"exa-orch app ready: db={db} " in log  # it says where its data is
    assert "no Exa key is used" in log
    with sqlite3.connect(f"{db.as_uri()}?mode=ro", uri=True) as conn:
        row = conn.execute("select status from tasks where id = ?", (task_id,)).fetchone()
    conn.close()
    assert row == ("completed",)


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
    command: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """The README's install line, run as written from the checkout, into a throwaway home."""
    tool, *args = command.split()
    # uv's two lines share one cache kept between runs (the dependencies' wheels: most of the time
    # of a cold `uvx`); the checkout's own build in it is redone whenever a file of the wheel
    # changed (pyproject.toml's [tool.uv] cache-keys), so it is always this checkout that runs.
    uv_cache = {"UV_CACHE_DIR": str(CACHE / "uv-cache")}
    if tool == "uvx":  # runs the checkout's command from uv's cache, installing nothing: its output
        env = {**os.environ, **uv_cache, "UV_TOOL_DIR": str(tmp_path / "uv-tools")}
        installers: Path = request.getfixturevalue("installers")
        out = subprocess.run(
            [installers / tool, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=bound(600)
        )
        assert out.returncode == 0 and out.stdout.strip() == f"exa-orch {__version__}", out.stderr[-3000:]
        assert not (ROOT / "build").exists()
        return
    if tool == "pip":  # pip installs into the environment it runs in: a new venv (see `installed`)
        done: Installed = request.getfixturevalue("installed")
        bin_dir = done.bin
        assert "Successfully installed" in done.output and "exa-orch-" in done.output, done.output[-3000:]
    else:
        bin_dir = tmp_path / "bin"
        env = {**os.environ, "PIPX_HOME": str(tmp_path / "pipx"), "PIPX_BIN_DIR": str(bin_dir)}
        env |= {"UV_TOOL_DIR": str(tmp_path / "uv-tools"), "UV_TOOL_BIN_DIR": str(bin_dir), **uv_cache}
        tools: Path = request.getfixturevalue("installers")
        out = subprocess.run(
            [tools / tool, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=bound(600)
        )
        assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    version = subprocess.run(
        [bin_dir / "exa-orch", "--version"], capture_output=True, text=True, timeout=WAIT, cwd="/"
    )
    assert version.stdout.strip() == f"exa-orch {__version__}", version.stderr
    assert not (ROOT / "build").exists()  # building from the checkout left nothing in it
