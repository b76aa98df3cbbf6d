"""store.reading.read_task: one task read on a read-only connection, as the store itself reads it,
on SQLite and PostgreSQL; a database that does not exist is never created."""

from __future__ import annotations

from pathlib import Path

import pytest

from exa_orch.errors import InvalidParams, StoreError, TaskNotFound
from exa_orch.store import Store
from exa_orch.store.reading import read_task


async def test_read_task_gives_the_record_the_store_gives(db: str) -> None:
    async with Store(db) as store:
        made = await store.create_task("x.type", {"q": "é ✓"}, meta={"budgetUsd": 1.5}, principal="token:bob")
        stored = await store.get_task(made.id)
    read = await read_task(db, made.id, "exa-orch test")
    assert read == stored and read.principal == "token:bob"
    with pytest.raises(TaskNotFound):
        await read_task(db, "task_0b6c9a52-1c9e-4c1e-9b8e-2f1d3c4b5a69", "exa-orch test")
    with pytest.raises(InvalidParams):
        await read_task(db, "task_1' OR '1'='1", "exa-orch test")


async def test_a_missing_sqlite_file_is_refused_and_not_created(tmp_path: Path) -> None:
    path = tmp_path / "none.db"
    with pytest.raises(StoreError):
        await read_task(path, "task_0b6c9a52-1c9e-4c1e-9b8e-2f1d3c4b5a69", "exa-orch test")
    assert not path.exists()
