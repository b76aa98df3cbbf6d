"""A new workflow type is one module plus one line, and its runs are filed in v_archive."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tests.workflows import new_workflow
from tests.workflows.conftest import OpenApp, run_task


def v_archive(db: Path, cell: str) -> list[tuple[object, ...]]:
    with sqlite3.connect(db) as conn:
        return conn.execute(
            "SELECT workflow_id, name, task_type, runs, task_id, fitness, coverage FROM v_archive WHERE cell = ?",
            (cell,),
        ).fetchall()


async def test_a_workflow_registered_in_one_line_runs_and_is_filed_in_v_archive(
    research_app: OpenApp, tmp_path: Path
) -> None:
    db = tmp_path / "workflows.db"
    async with research_app("tests.workflows.new_workflow") as app:  # the one line
        assert v_archive(db, "1,1,1,1,2") == [  # its row is there before any run, from its spec
            ("workflow-test-squares", "Squares", new_workflow.TYPE, 0, None, None, None)
        ]
        done = await run_task(app, new_workflow.TYPE, {"n": 4})
    assert done.status == "completed", done.error
    assert done.result == {"squares": [1, 4, 9, 16]}
    assert v_archive(db, "1,1,1,1,2") == [
        ("workflow-test-squares", "Squares", new_workflow.TYPE, 1, done.id, 16.0, 1.0)
    ]
    with sqlite3.connect(db) as conn:
        steps = conn.execute(
            "SELECT description FROM workflow_steps WHERE workflow_id = 'workflow-test-squares' ORDER BY position"
        ).fetchall()
        [(niche, item_id)] = conn.execute(
            "SELECT e.niche, e.item_id FROM qd_elites e JOIN workflow_runs r ON r.id = e.run_id "
            "WHERE r.task_id = ?",
            (done.id,),
        ).fetchall()
    assert [s for (s,) in steps] == list(new_workflow.ARCHETYPE.steps)
    assert (niche, item_id) == ("all", "square-16")
    # Opened again without it, the row stays (its run points at it) and nothing else changes.
    async with research_app() as app:
        assert new_workflow.TYPE not in app.workflows
    assert v_archive(db, "1,1,1,1,2")[0][3:5] == (1, done.id)
