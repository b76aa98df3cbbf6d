"""memory's import steps read exa-py's `Import`, and read what an older version kept ({id, status})."""

from __future__ import annotations

from typing import Any

from exa_orch.workflows import import_steps

EXA_IMPORT: dict[str, Any] = {
    "id": "import_1", "object": "import", "status": "completed", "format": "csv",
    "entity": {"type": "company"}, "title": "exa-orch: entities already known", "count": 2,
    "metadata": {"exaOrchKey": "task_1:known.import"},
    "createdAt": "2026-01-01T00:00:00Z", "updatedAt": "2026-01-01T00:00:05Z",
}  # fmt: skip


async def test_an_import_is_kept_as_exa_sent_it_and_read_back_typed() -> None:
    imp = await import_steps.load_import(EXA_IMPORT)
    assert (imp.id, imp.status, imp.count) == ("import_1", "completed", 2)
    saved = import_steps.IMPORT.dump(imp)
    assert (
        saved["createdAt"].startswith("2026-01-01T00:00:00") and saved["metadata"] == EXA_IMPORT["metadata"]
    )
    assert await import_steps.IMPORT.load(saved) == imp
    wait = import_steps.WAIT.dump(import_steps.ImportWait(imp, timed_out=True))
    assert set(wait) == {"import", "timedOut"} and wait["timedOut"] is True
    again = await import_steps.WAIT.load(wait)
    assert (again.imp, again.timed_out) == (imp, True)


async def test_an_older_versions_summary_reads_as_an_import_with_its_id_and_status() -> None:
    """memory.webset_exclude saved `{id, status}` (known.import) and `{import: {id, status},
    timedOut}` (known.import.wait) before it kept Exa's JSON."""
    made = await import_steps.IMPORT.load({"id": "import_1", "status": "pending"})
    assert (made.id, made.status) == ("import_1", "pending")
    waited = await import_steps.WAIT.load(
        {"import": {"id": "import_1", "status": "failed"}, "timedOut": False}
    )
    assert (waited.imp.id, waited.imp.status, waited.timed_out) == ("import_1", "failed", False)
    unfinished = await import_steps.WAIT.load(
        {"import": {"id": "import_1", "status": "processing"}, "timedOut": True}
    )
    assert unfinished.imp.status == "processing" and unfinished.timed_out
