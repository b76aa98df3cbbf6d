"""scripts/ensure-chromium.sh: nothing to do when chromium is there; a message, not apt, when not root."""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.support import WAIT

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "ensure-chromium.sh"


def fake_bin(tmp_path: Path, **tools: str) -> Path:
    """A PATH directory holding only the given tools, as shell scripts (the script needs no others)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name, body in tools.items():
        tool = bin_dir / name
        tool.write_text(f"#!/bin/sh\n{body}\n")
        tool.chmod(0o755)
    return bin_dir


def run(bin_dir: Path) -> subprocess.CompletedProcess[str]:
    """The script with only `bin_dir` on PATH (so `command -v chromium` sees only what is there)."""
    env = {"PATH": str(bin_dir), "EXA_ORCH_CHROMIUM": str(bin_dir / "no-such-chromium")}
    return subprocess.run(["/bin/sh", str(SCRIPT)], capture_output=True, text=True, env=env, timeout=WAIT)


def test_a_chromium_on_the_path_is_enough(tmp_path: Path) -> None:
    log = tmp_path / "apt.log"
    bin_dir = fake_bin(tmp_path, chromium="exit 0", **{"apt-get": f'echo "$@" >> {log}'})
    done = run(bin_dir)
    assert done.returncode == 0 and done.stderr == "" and not log.exists()


def test_without_chromium_and_not_root_it_says_what_to_do_and_installs_nothing(tmp_path: Path) -> None:
    log = tmp_path / "apt.log"
    bin_dir = fake_bin(tmp_path, id="echo 1000", **{"apt-get": f'echo "$@" >> {log}'})
    done = run(bin_dir)
    assert done.returncode == 0 and "chromium is missing" in done.stderr and not log.exists()


def test_without_chromium_as_root_it_installs_debians_package(tmp_path: Path) -> None:
    log = tmp_path / "apt.log"
    bin_dir = fake_bin(tmp_path, id="echo 0", **{"apt-get": f'echo "$@" >> {log}'})
    done = run(bin_dir)
    assert done.returncode == 0, done.stderr
    assert log.read_text().splitlines() == ["update -qq", "install -y -qq chromium"]
