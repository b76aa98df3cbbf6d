"""A clone stands alone: nothing in the package, tests, benchmarks or scripts reads outside the repo.

Two checks. A static one reads every source file for paths that climb out of the repository
(`Path(__file__).parents[N]` past the root, `../` in a string, absolute paths to the machine it
was written on). A dynamic one runs the tests that read files of the repository (the Exa specs in
data-design/, the migrations, the data model's prose) under an audit hook that refuses and reports
any file opened outside it (tests/selfcontained_audit.py).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from tests.support import bound

ROOT = Path(__file__).resolve().parents[1]
CODE_DIRS = ("exa_orch", "tests", "bench", "scripts", ".ci")
CODE_FILES = ("Makefile", "pyproject.toml")
PARENTS = re.compile(r"__file__\)(?:\.resolve\(\))?\.parents\[(\d+)\]")
PARENT_CHAIN = re.compile(r"__file__\)(?:\.resolve\(\))?((?:\.parent)+)\b")
# A string that climbs out of the repository, or names the machine's own directories.
ESCAPES = re.compile(r"""["'](?:\.\./|[^"'\n]*/\.\./\.\./)|\.\./shared|/work/""")


# A line that names an outside path on purpose (a test that checks a check) carries this comment.
PROBE = "# escape-probe"


def sources() -> list[Path]:
    """Every code file the project runs: package, tests, benchmarks, scripts, CI and build files."""
    found = [ROOT / name for name in CODE_FILES]
    for folder in CODE_DIRS:
        found += [
            p
            for p in (ROOT / folder).rglob("*")
            if p.is_file()
            and p.suffix in {".py", ".sh", ".toml", ".cfg", ""}
            and "__pycache__" not in p.parts
        ]
    return sorted(found)


def escapes(path: Path, root: Path = ROOT) -> list[str]:
    """The lines of `path` that reach outside `root`, as 'file:line: text'."""
    rel = path.relative_to(root)
    deepest = len(rel.parts) - 1  # parents[deepest] of ROOT/a/b/f.py is ROOT itself
    found = []
    for number, line in enumerate(path.read_text(errors="replace").splitlines(), start=1):
        climbs = [int(n) for n in PARENTS.findall(line)]
        climbs += [chain.count(".parent") - 1 for chain in PARENT_CHAIN.findall(line)]
        if (any(n > deepest for n in climbs) or ESCAPES.search(line)) and PROBE not in line:
            found.append(f"{rel}:{number}: {line.strip()}")
    return found


def test_no_source_file_names_a_path_outside_the_repository() -> None:
    files = sources()
    assert len(files) > 100 and ROOT / "tests" / "specs.py" in files  # the scan sees the tree
    assert [line for path in files if path != Path(__file__) for line in escapes(path)] == []


def test_the_scan_catches_each_way_out(tmp_path: Path) -> None:
    # Files laid out like the tree's (tests/x.py, exa_orch/x.py) in a stand-in root.
    cases = {
        "tests/_escape_probe_1.py": 'SPEC = Path(__file__).resolve().parents[2] / "exa-api"',
        "tests/_escape_probe_2.py": 'NOTES = Path(__file__).parent.parent.parent / "elsewhere"',
        "tests/_escape_probe_3.py": 'SPEC = "../elsewhere/exa-websets-spec.yaml"',
        "tests/_escape_probe_4.py": 'SPEC = "/work/elsewhere/exa-websets-spec.yaml"',
        "exa_orch/store/_escape_probe_5.py": 'HERE = Path(__file__).resolve().parents[3] / "migrations"',
    }
    fine = {
        "tests/_escape_probe_6.py": 'ROOT = Path(__file__).resolve().parents[1] / "data-design"',
        "exa_orch/store/_escape_probe_7.py": 'HERE = Path(__file__).resolve().parents[2] / "migrations"',
    }
    for rel, text in (cases | fine).items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text + "\n")
    assert {rel for rel in cases | fine if escapes(tmp_path / rel, tmp_path)} == set(cases)


# The tests that read the repository's own files: the Exa specs, migrations, data-design prose.
READERS = [
    "tests/operations/test_registry.py",
    "tests/store/test_data_design.py",
    "tests/store/test_migrations.py",
    "tests/sim/test_websets_contract.py",
    "tests/test_config.py",
]


def test_the_tests_that_read_files_open_nothing_outside_the_repository(tmp_path: Path) -> None:
    # Their temp files go under pytest's temp tree: a clone straight in /tmp has /tmp beside it.
    (tmp_path / "tmp").mkdir()
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "tests.selfcontained_audit",
            "-p",
            "no:cacheprovider",
            # A PostgreSQL cluster runs as the postgres user, who can't enter pytest's temp tree;
            # the PostgreSQL cases read the same files as the SQLite ones.
            "-k",
            "not postgres",
            *READERS,
        ],
        cwd=ROOT,
        env={**os.environ, "TMPDIR": str(tmp_path / "tmp")},
        capture_output=True,
        text=True,
        timeout=bound(300),
    )
    assert "SELF-CONTAINED CHECK" not in out.stdout, out.stdout[-4000:]
    assert out.returncode == 0, out.stdout[-4000:] + out.stderr[-2000:]
    assert re.search(r"\b\d{2,} passed\b", out.stdout), out.stdout[-2000:]


def test_the_audit_hook_refuses_a_file_outside_the_repository(tmp_path: Path) -> None:
    # A probe test that reads a file beside the repository: the plugin must refuse it and fail.
    probe = tmp_path / "test_audit_probe.py"
    outside = ROOT.parent / "elsewhere" / "exa-websets-spec.yaml"  # a sibling of the repository
    probe.write_text(
        f"from pathlib import Path\n\ndef test_reads_beside_the_repo():\n    Path({str(outside)!r}).read_text()\n"
    )
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "tests.selfcontained_audit",
            "-p",
            "no:cacheprovider",
            f"--rootdir={tmp_path}",  # else pytest scans the probe's and the repository's common parent
            str(probe),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=bound(120),
    )
    assert out.returncode != 0
    assert "SELF-CONTAINED CHECK" in out.stdout and str(outside) in out.stdout, out.stdout[-3000:]
