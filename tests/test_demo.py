"""`make demo`: research tasks run as durable tasks on the simulator, then the archive they filled."""

from __future__ import annotations

import os
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import bound

ARCHETYPES = (
    "workflow-webset-lifecycle",
    "workflow-webset-convergent",
    "workflow-webset-adversarial",
    "workflow-webset-verified",
    "workflow-webset-qd-winnow",
    "workflow-research-deep",
)


def test_demo_runs_research_tasks_to_completion_then_shows_the_archive_and_how_to_look(
    tmp_path: Path,
) -> None:
    """One run of the demo as `make demo` starts it (no EXA_ORCH_DEMO_DB: its database goes into the
    user data directory, and the cwd stays empty; the test of a bad EXA_ORCH_DEMO_DB reads that)."""
    cwd, data_home = tmp_path / "cwd", tmp_path / "data"
    cwd.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("EXA_API_KEY", "EXA_ORCH_"))}
    out = subprocess.run(
        [sys.executable, "-m", "exa_orch.demo"],
        capture_output=True,
        text=True,
        timeout=bound(90),
        cwd=cwd,
        env={**env, "XDG_DATA_HOME": str(data_home)},
    )
    assert out.returncode == 0, out.stderr
    db = data_home / "exa-orch" / "demo.db"
    assert f"exa-orch db migrate --db {db}" in out.stdout
    assert db.is_file() and list(cwd.iterdir()) == []
    assert all(workflow_id in out.stdout for workflow_id in ARCHETYPES)
    assert (
        out.stdout.index("research task") < out.stdout.index("qd.winnow task") < out.stdout.index("v_archive")
    )
    match = re.search(r"tasks\.create\s+-> (task_[0-9a-f-]+)", out.stdout)
    assert match, out.stdout
    assert "tasks.get      -> completed" in out.stdout
    # The task's row is in the file the demo names, finished, with its research result.
    with sqlite3.connect(db) as conn:
        status, result = conn.execute(
            "select status, json_extract(result, '$.status') from tasks where id = ?", (match.group(1),)
        ).fetchone()
        filed = conn.execute(
            "select task_type, status from workflow_runs where task_id = ?", (match.group(1),)
        ).fetchall()
    assert (status, result) == ("completed", "completed")
    # Finishing it filed one run in the MAP-Elites archive, which the demo shows last.
    assert filed == [("research.deep", "completed")]
    assert out.stdout.index("tasks.result") < out.stdout.index("from workflow_runs")
    winnow = conn_rows(db, "select status from tasks where type = 'qd.winnow'")
    assert winnow == [("completed",)] and "qd.winnow" in out.stdout.split("v_archive", 1)[1]
    # It ends with how to look at what it ran, in commands the install provides.
    closing = out.stdout.split("== look at what it ran ==", 1)[1]
    for command in (
        f"exa-orch tasks --db {db}",
        f"exa-orch view --db {db}",
        f'exa-orch sql --db {db} "select',
    ):
        assert command in closing, closing


def conn_rows(db: Path, sql: str) -> list[tuple[object, ...]]:
    with sqlite3.connect(db) as conn:
        return conn.execute(sql).fetchall()


def test_demo_on_a_file_that_is_not_a_database_says_what_to_do(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The demo's entry point in this process (`python -m exa_orch.demo` calls it; run above)."""
    from exa_orch.demo import main

    notes = tmp_path / "notes.txt"
    notes.write_text("not a database\n" * 50)
    for name in [k for k in os.environ if k.startswith(("EXA_API_KEY", "EXA_ORCH_"))]:
        monkeypatch.delenv(name)
    monkeypatch.setenv("EXA_ORCH_DEMO_DB", str(notes))
    monkeypatch.chdir(tmp_path)
    assert main() == 1
    stderr = capsys.readouterr().err
    lines = stderr.splitlines()
    assert lines[0].startswith("error [STORE_ERROR]: cannot open the database"), stderr
    assert lines[1].startswith("hint: "), stderr
    assert notes.read_text() == "not a database\n" * 50
