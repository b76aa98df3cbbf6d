"""tests/conftest.py fails a run whose tests wrote into the user's own data directory or left a
database in the working directory: checked on a throwaway HOME and working directory."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import bound

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(
    ("probe", "says"),
    [
        (
            "(Path.home() / '.local/share/exa-orch').mkdir(parents=True)\n"
            "    (Path.home() / '.local/share/exa-orch/workflows.db').touch()",
            "tests wrote into the user's own data directory",
        ),
        ("Path('workflows.db').touch()", "tests left files in the working directory"),
        ("Path('fine.txt').touch()", None),
    ],
    ids=["user-data-dir", "cwd-litter", "clean"],
)
def test_the_session_fails_when_a_test_writes_where_it_must_not(
    tmp_path: Path, probe: str, says: str | None
) -> None:
    home, cwd = tmp_path / "home", tmp_path / "cwd"
    home.mkdir()
    cwd.mkdir()
    (cwd / "test_probe.py").write_text(f"from pathlib import Path\n\ndef test_probe():\n    {probe}\n")
    env = {
        k: v for k, v in os.environ.items() if k not in ("XDG_DATA_HOME", "EXA_ORCH_TEST_USER_XDG_DATA_HOME")
    }
    env |= {"HOME": str(home), "PYTHONPATH": str(ROOT)}
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "tests.conftest",
            "-p",
            "no:cacheprovider",
            "test_probe.py",
        ],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=bound(120),
    )
    if says is None:
        assert out.returncode == 0, out.stdout[-2000:]
    else:
        assert out.returncode == 1 and says in out.stdout, out.stdout[-2000:]


def test_the_files_run_first_are_files_of_the_suite() -> None:
    """tests/conftest.py's LONG_FIRST names test files that exist (a renamed one would silently
    lose its place at the head of `make test`'s queue)."""
    from tests.conftest import LONG_FIRST

    assert len(set(LONG_FIRST)) == len(LONG_FIRST)
    assert [p for p in LONG_FIRST if not (ROOT / p).is_file() or not Path(p).name.startswith("test_")] == []
