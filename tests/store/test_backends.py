"""The store's backend seam: a target names its backend through one registry, and the modules
that hold a backend (the Store, `exa-orch sql` and `db migrate`, the views' data) never reach for a
database driver or a backend module themselves."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from exa_orch.store import Store, backend_for
from exa_orch.store.pgbackend import PostgresBackend
from exa_orch.store.sqlite import SqliteBackend
from tests.store.memory_backend import MemoryBackend

ROOT = Path(__file__).resolve().parents[2] / "exa_orch"
HOLDERS = ["store/core.py", "store/admin.py", "view/data.py"]
DRIVERS = {
    "sqlite3",
    "aiosqlite",
    "psycopg",
    "exa_orch.store.postgres",
    "exa_orch.store.pgbackend",
    "exa_orch.store.sqlite",
}


def test_a_target_names_its_backend() -> None:
    assert isinstance(backend_for("postgresql://u@h/db"), PostgresBackend)
    assert isinstance(backend_for("postgres://u@h/db"), PostgresBackend)
    assert isinstance(backend_for("workflows.db"), SqliteBackend)
    assert isinstance(backend_for(Path("x") / "w.db"), SqliteBackend)
    assert isinstance(backend_for("memory:t"), MemoryBackend)  # registered by conftest: one line
    memory = MemoryBackend("memory:t")
    assert backend_for(memory) is memory
    assert backend_for("postgresql://u:secret@h/db").where == "postgresql://u:***@h/db"


@pytest.mark.parametrize("module", HOLDERS)
def test_the_modules_that_hold_a_backend_import_no_driver_and_no_backend(module: str) -> None:
    tree = ast.parse((ROOT / module).read_text())
    imported = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    imported |= {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    imported |= {
        f"{n.module}.{a.name}" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) for a in n.names
    }
    assert not imported & DRIVERS, module


async def test_the_in_memory_backend_is_a_whole_store_and_leaves_no_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    async with Store("memory:whole") as store, Store("memory:whole") as same:
        assert store.backend.name == "memory" and not store.notifies
        task = await store.create_task("t", {"q": 1})
        await store.save_step(task.id, "s1", {"ok": True})
        assert await same.load_steps(task.id) == {"s1": {"ok": True}}  # one database, two stores
    async with Store("memory:whole") as later:  # the last connection closed: the database is gone
        assert await later.list_tasks() == ([], None)
    assert _files(tmp_path) == []


def _files(directory: Path) -> list[Path]:
    return list(directory.iterdir())
