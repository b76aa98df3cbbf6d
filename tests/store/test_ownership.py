"""The store's side of task ownership: the principal column, owner-filtered lists, tombstones."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

from exa_orch.store import Store
from exa_orch.store.migrations import default_migrations_dir
from tests.store.conftest import FakeClock


async def test_lists_filter_by_principal_and_optionally_show_unowned_tasks(store: Store) -> None:
    alice = await store.create_task("t", {}, principal="token:alice")
    bob = await store.create_task("t", {}, principal="token:bob")
    legacy = await store.create_task("t", {})
    assert (alice.principal, bob.principal, legacy.principal) == ("token:alice", "token:bob", None)

    async def ids(principal: str | None = None, include_unowned: bool = False) -> list[str]:
        page, _ = await store.list_tasks(principal=principal, include_unowned=include_unowned)
        return [t.id for t in page]

    assert await ids(principal="token:alice") == [alice.id]
    assert await ids(principal="user:me", include_unowned=True) == [legacy.id]
    assert await ids(principal="token:alice", include_unowned=True) == [alice.id, legacy.id]
    assert await ids() == [alice.id, bob.id, legacy.id]  # the runtime's own, unscoped view
    page, cursor = await store.list_tasks(principal="token:bob", limit=1)
    assert [t.id for t in page] == [bob.id] and cursor is None


async def test_an_expired_task_leaves_a_tombstone_with_its_owner_for_a_week(
    store: Store, clock: FakeClock
) -> None:
    task = await store.create_task("t", {}, ttl_ms=1_000, principal="token:alice")
    await store.transition(task.id, "cancelled")
    clock.advance(2)
    assert await store.delete_expired() == 1
    tomb = await store.get_tombstone(task.id)
    assert tomb is not None
    assert (tomb["owner"], tomb["type"], tomb["status"]) == ("token:alice", "t", "cancelled")
    clock.advance(6 * 86_400)
    await store.delete_expired()
    assert await store.get_tombstone(task.id) is not None
    clock.advance(86_400)
    await store.delete_expired()
    assert await store.get_tombstone(task.id) is None


async def test_tasks_made_before_migration_0003_have_no_owner(tmp_path: Path) -> None:
    old = tmp_path / "old-migrations"
    old.mkdir()
    for name in ("0001_init.sql", "0002_workflow_archive.sql"):
        shutil.copy(default_migrations_dir() / name, old / name)
    db = tmp_path / "w.db"
    async with Store(db, migrations_dir=old):
        pass
    with sqlite3.connect(db) as conn:  # a row as the pre-0003 code wrote it
        conn.execute(
            "INSERT INTO tasks (id, type, status, created_at, updated_at) "
            "VALUES ('task_old', 't', 'pending', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')"
        )
    async with Store(db) as store:
        assert store.applied_migrations[0] == "0003_task_owner"  # and any later ones
        assert (await store.get_task("task_old")).principal is None
        new = await store.create_task("t", {}, principal="user:me")
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT id, owner FROM v_tasks ORDER BY created_at").fetchall()
    assert rows == [("task_old", None), (new.id, "user:me")]
