"""Archetype rows come from the WorkflowSpecs and are written at start-up (Store.sync_archetypes)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from exa_orch.errors import ConfigError
from exa_orch.store import Archetype, Store
from exa_orch.workflows import BUILTIN_WORKFLOWS, WorkflowRegistry

from .conftest import connect, dict_rows

BUILTIN_ARCHETYPES = WorkflowRegistry(BUILTIN_WORKFLOWS).archetypes()


def archive_rows(store: Store) -> tuple[list[dict[str, Any]], list[tuple[Any, ...]]]:
    """Every workflows row (without its created_at) and every step, in a stable order (either backend)."""
    workflows = dict_rows(store, "SELECT * FROM workflows ORDER BY id")
    with connect(store) as conn:
        steps = [
            tuple(r)
            for r in conn.execute("SELECT * FROM workflow_steps ORDER BY workflow_id, position").fetchall()
        ]
    for row in workflows:
        row.pop("created_at")
    return workflows, steps


def test_every_builtin_type_that_files_runs_declares_its_archetype() -> None:
    assert {s.type for s in BUILTIN_WORKFLOWS if s.archive is not None} == set(BUILTIN_ARCHETYPES)
    assert len(BUILTIN_ARCHETYPES) == 6


async def test_the_specs_archetypes_equal_the_rows_the_migration_seeded(store: Store) -> None:
    seeded = archive_rows(store)
    assert len(seeded[0]) == 6 and len(seeded[1]) == 28
    assert await store.sync_archetypes(BUILTIN_ARCHETYPES) == 0  # nothing to change
    assert archive_rows(store) == seeded
    # Written from scratch by the specs alone, the rows are the migration's, to the character.
    with connect(store) as conn:
        if store.backend.dialect.name == "sqlite":
            conn.execute("PRAGMA foreign_keys = ON")
        conn.execute("DELETE FROM workflows")  # cascades to workflow_steps
        if store.backend.dialect.name == "sqlite":
            conn.commit()
    assert archive_rows(store) == ([], [])
    assert await store.sync_archetypes(BUILTIN_ARCHETYPES) == 6
    assert archive_rows(store) == seeded


async def test_a_changed_archetype_updates_its_row_and_steps_and_keeps_created_at(store: Store) -> None:
    old = BUILTIN_ARCHETYPES["research.deep"]
    with connect(store) as conn:
        [(created,)] = conn.execute("SELECT created_at FROM workflows WHERE id = ?", (old.id,)).fetchall()
    new = dataclasses.replace(old, name="Deeper Research", cell=(5, 3, 3, 3, 3), steps=("Ask", "Answer"))
    assert await store.sync_archetypes({"research.deep": new}) == 1
    assert await store.sync_archetypes({"research.deep": new}) == 0
    with connect(store) as conn:
        row = conn.execute(
            "SELECT name, coord_scope, created_at, task_type FROM workflows WHERE id = ?", (old.id,)
        ).fetchone()
        steps = conn.execute(
            "SELECT position, description FROM workflow_steps WHERE workflow_id = ? ORDER BY position",
            (old.id,),
        ).fetchall()
    assert row == ("Deeper Research", 5, created, "research.deep")
    assert steps == [(1, "Ask"), (2, "Answer")]


async def test_a_new_archetype_is_inserted_and_bad_ones_are_refused(store: Store) -> None:
    new = Archetype(
        "workflow-test-new", "New", "A test workflow", (1, 1, 1, 1, 1), "applied", steps=("Do it",)
    )
    assert await store.sync_archetypes({"test.new": new}) == 1
    workflows, steps = archive_rows(store)
    assert {"id": "workflow-test-new", "task_type": "test.new", "status": "seed"}.items() <= next(
        w for w in workflows if w["id"] == "workflow-test-new"
    ).items()
    assert ("workflow-test-new", 1, "Do it") in steps
    # Another row already has the task type: refused, naming both.
    with pytest.raises(ConfigError, match="workflow-webset-qd-winnow"):
        await store.sync_archetypes({"qd.winnow": new})
    with pytest.raises(ConfigError, match="five integers from 1 to 5"):
        await store.sync_archetypes({"test.new": dataclasses.replace(new, cell=(0, 1, 1, 1, 1))})
    assert archive_rows(store) == (workflows, steps)  # a refused sync wrote nothing
