"""Exports (operations/export.py): a finished task's result as CSV, JSON Lines or Markdown, from
`exa-orch export` and `tasks.export`, one builder, owner-checked."""

from __future__ import annotations

import asyncio
import csv
import dataclasses
import io
import json
from pathlib import Path
from typing import Any

import pytest

from exa_orch.config import Secret
from exa_orch.errors import InvalidParams, TaskNotFound
from exa_orch.operations.export import export_of
from exa_orch.runtime import Principal
from exa_orch.store import TaskStatus
from tests.support import WAIT, run_cli
from tests.workflows.conftest import OpenApp, run_task

HARVEST: dict[str, Any] = {
    "query": "AI startups in Europe",
    "entity": {"type": "company"},
    "count": 6,
    "criteria": [{"description": "based in Europe"}],
    "enrichments": [{"description": "Number of employees", "format": "number"}],
    "timeout": 20_000,
}
MODULE = "exa_orch.workflows.harvest"


async def cli(*argv: str) -> tuple[int, str, str]:
    run = await asyncio.to_thread(run_cli, *argv)
    return run.returncode, run.stdout, run.stderr


async def test_export_of_a_harvest_reads_back_as_one_csv_row_per_entity_with_its_sources(
    research_app: OpenApp, tmp_path: Path
) -> None:
    db = tmp_path / "workflows.db"
    async with research_app(MODULE) as app:
        done = await run_task(app, "lifecycle.harvest", HARVEST)
        assert done.status == "completed", done.error
        answer = await app.run_operation("tasks.export", {"taskId": done.id, "format": "csv"})
    result = done.result
    code, out, err = await cli("export", done.id, "--db", str(db))
    assert code == 0, err
    rows = list(csv.DictReader(io.StringIO(out, newline="")))
    assert len(rows) == result["uniqueEntities"] >= 1
    items = {i["id"]: i for i in result["items"]}
    # Every item sits in exactly one row; a row's sources hold each of its items' pages.
    ids = [i for row in rows for i in row["itemIds"].split()]
    assert sorted(ids) == sorted(items)
    for row in rows:
        sources = row["sources"].split()
        assert row["entityId"] and row["url"] == sources[0]
        for item_id in row["itemIds"].split():
            assert items[item_id]["properties"]["url"] in sources
        assert row["criterion: based in Europe"] in ("yes", "no", "unclear")
        assert "enrichment: Number of employees" in row
        assert row["citationStatus"] == "supported"  # the simulator's references quote their pages
    # The operation answers the same export, by its resource URI.
    assert answer["uri"] == f"exa-orch://tasks/{done.id}/export.csv"
    assert answer["size"] == len(out.encode()) and answer["rows"] == len(rows)


async def test_jsonl_and_markdown_hold_the_same_rows_and_out_writes_a_file(
    research_app: OpenApp, tmp_path: Path
) -> None:
    async with research_app(MODULE) as app:
        done = await run_task(app, "lifecycle.harvest", HARVEST)
    db = str(tmp_path / "workflows.db")
    code, out, err = await cli("export", done.id, "--format", "jsonl", "--db", db)
    assert code == 0, err
    lines = [json.loads(line) for line in out.splitlines()]
    assert len(lines) == done.result["uniqueEntities"]
    assert all(set(x) >= {"entityId", "url", "fields", "sources", "citationStatus"} for x in lines)
    assert all(x["citationStatus"] == "supported" and x["url"] in x["sources"] for x in lines)
    report = tmp_path / "report.md"
    code, out, err = await cli("export", done.id, "--format", "md", "--out", str(report), "--db", db)
    assert code == 0 and out == "", err
    text = report.read_text()
    assert text.index("# lifecycle.harvest") < text.index("## Entities") < text.index("## Sources")
    for line in lines:
        assert line["url"] in text.split("## Sources", 1)[1]


async def test_another_principals_task_is_not_found_and_the_key_is_never_exported(
    research_app: OpenApp, tmp_path: Path
) -> None:
    key = "exa-key-that-must-not-leak-0123456789"
    async with research_app(MODULE, api_key=Secret(key)) as app:
        created = await app.run_operation(
            "tasks.create", {"type": "lifecycle.harvest", **HARVEST}, principal=Principal("bob")
        )
        assert app.supervisor is not None
        done = await app.supervisor.tasks.wait(created["taskId"], timeout=WAIT)
        with pytest.raises(TaskNotFound) as caught:
            await app.run_operation("tasks.export", {"taskId": done.id}, principal=Principal("alice"))
        assert caught.value.code == "TASK_NOT_FOUND"
        own = await app.run_operation("tasks.export", {"taskId": done.id}, principal=Principal("bob"))
    assert own["rows"] == done.result["uniqueEntities"]
    code, out, err = await cli("export", done.id, "--db", str(tmp_path / "workflows.db"))
    assert code == 1 and out == "" and "error [TASK_NOT_FOUND]" in err  # the local user is not bob
    for fmt in ("csv", "jsonl", "md"):
        assert key.encode() not in export_of(done, fmt).data


async def test_out_refuses_a_directory_and_a_missing_folder_before_reading_anything(tmp_path: Path) -> None:
    task_id = "task_0b6c9a52-1c9e-4c1e-9b8e-2f1d3c4b5a69"
    missing_db = str(tmp_path / "none.db")
    code, out, err = await cli("export", task_id, "--out", str(tmp_path), "--db", missing_db)
    assert code == 1 and "error [INVALID_PARAMS]" in err and "is a directory" in err
    code, out, err = await cli("export", task_id, "--out", str(tmp_path / "no" / "x.csv"), "--db", missing_db)
    assert code == 1 and "does not exist" in err
    code, out, err = await cli("export", "task_1/../x", "--db", missing_db)
    assert code == 1 and "is not a task id" in err
    assert not (tmp_path / "none.db").exists()  # the database is only read, never created


async def test_a_task_not_completed_and_an_unknown_format_are_refused(research_app: OpenApp) -> None:
    async with research_app(MODULE) as app:
        done = await run_task(app, "lifecycle.harvest", {**HARVEST, "count": 2})
        with pytest.raises(InvalidParams) as bad:
            await app.run_operation("tasks.export", {"taskId": done.id, "format": "xlsx"})
    assert bad.value.fields == ["format"]
    for status in (TaskStatus.WORKING, TaskStatus.FAILED):
        with pytest.raises(InvalidParams) as caught:
            export_of(dataclasses.replace(done, status=status), "csv")
        assert "only a completed task" in caught.value.message
