"""Migrations: applied in order, once, atomically; edited files are detected."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from exa_orch.errors import ErrorCode, MigrationError
from exa_orch.store import Store, postgres
from exa_orch.store.migrations import apply, default_migrations_dir, load_migrations, split_statements
from exa_orch.store.pgcluster import Cluster
from tests.pg import fresh_database


def schema(path: Path) -> list[tuple[str, str]]:
    with sqlite3.connect(path) as conn:
        return conn.execute("SELECT type, name FROM sqlite_master ORDER BY type, name").fetchall()


def applied_rows(path: Path) -> list[tuple[int, str, str]]:
    with sqlite3.connect(path) as conn:
        return conn.execute(
            "SELECT version, name, checksum FROM schema_migrations ORDER BY version"
        ).fetchall()


@pytest.fixture
def migrations_dir(tmp_path: Path) -> Path:
    target = tmp_path / "migrations"
    shutil.copytree(default_migrations_dir(), target)
    return target


async def test_fresh_database_gets_every_migration(db_path: Path) -> None:
    async with Store(db_path) as store:
        assert store.applied_migrations == [
            "0001_init",
            "0002_workflow_archive",
            "0003_task_owner",
            "0004_notify_takeover",
            "0005_task_checks_on_write",
            "0006_archive_nulls_last",
            "0007_step_count_in_the_statement",
            "0008_cost_ledger",
            "0009_run_cost",
            "0010_run_slots",
            "0011_input_required",
            "0012_archive_cost",
            "0013_lean_ledger",
            "0014_run_engine",
            "0015_task_cost_totals",
            "0016_archetype_engines",
            "0017_harvest_convergent_engines",
            "0018_steps_cascade_by_trigger",
            "0019_task_heads",
            "0020_entity_memory",
            "0021_watches",
            "0022_memory_searches",
            "0023_watch_outbox",
        ]
    names = {name for _, name in schema(db_path)}
    for table in (
        "tasks",
        "task_steps",
        "task_events",
        "workflows",
        "workflow_steps",
        "workflow_runs",
        "qd_elites",
        "costs",
        "run_slots",
        "memory_entities",
        "memory_sightings",
        "memory_searches",
        "task_heads",
        "watches",
        "watch_runs",
        "watch_outbox",
    ):
        assert table in names
    assert {"v_tasks", "v_archive", "schema_migrations"} <= names
    rows = applied_rows(db_path)
    assert [(v, n) for v, n, _ in rows] == [
        (1, "init"),
        (2, "workflow_archive"),
        (3, "task_owner"),
        (4, "notify_takeover"),
        (5, "task_checks_on_write"),
        (6, "archive_nulls_last"),
        (7, "step_count_in_the_statement"),
        (8, "cost_ledger"),
        (9, "run_cost"),
        (10, "run_slots"),
        (11, "input_required"),
        (12, "archive_cost"),
        (13, "lean_ledger"),
        (14, "run_engine"),
        (15, "task_cost_totals"),
        (16, "archetype_engines"),
        (17, "harvest_convergent_engines"),
        (18, "steps_cascade_by_trigger"),
        (19, "task_heads"),
        (20, "entity_memory"),
        (21, "watches"),
        (22, "memory_searches"),
        (23, "watch_outbox"),
    ]
    assert all(len(checksum) == 64 for *_, checksum in rows)


async def test_second_open_changes_nothing(db_path: Path) -> None:
    async with Store(db_path):
        pass
    before = (schema(db_path), applied_rows(db_path))
    with sqlite3.connect(db_path) as conn:
        workflows_before = conn.execute("SELECT * FROM workflows ORDER BY id").fetchall()
    async with Store(db_path) as store:
        assert store.applied_migrations == []
    assert (schema(db_path), applied_rows(db_path)) == before
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("SELECT * FROM workflows ORDER BY id").fetchall() == workflows_before


async def test_failed_migration_stays_pending(db_path: Path, migrations_dir: Path) -> None:
    good = [m.version for m in load_migrations(migrations_dir)]
    broken = migrations_dir / f"{len(good) + 1:04d}_broken.sql"  # the next number: versions have no gaps
    broken.write_text(
        "CREATE TABLE half_done (a INTEGER);\nINSERT INTO half_done VALUES (1);\nINSERT INTO no_such_table VALUES (1);\n"
    )
    with pytest.raises(MigrationError) as caught:
        async with Store(db_path, migrations_dir=migrations_dir):
            pass
    assert caught.value.code == ErrorCode.MIGRATION_FAILED
    assert caught.value.version == len(good) + 1
    # The hint fits both backends: a PostgreSQL URL is no file to replace.
    assert (
        caught.value.hint
        and "PostgreSQL database" in caught.value.hint
        and "another file" not in caught.value.hint
    )
    names = {name for _, name in schema(db_path)}
    assert "half_done" not in names
    assert [v for v, _, _ in applied_rows(db_path)] == good  # the good ones stay applied
    # The message says what was kept and what was not: not "nothing was changed".
    labels = [m.label for m in load_migrations(migrations_dir)]
    assert caught.value.applied == labels[:-1]
    assert "rolled back whole" in caught.value.message and broken.stem in caught.value.message
    assert (
        f"Applied before it, and kept: {', '.join(labels[:-1])}; not applied: {broken.stem}"
        in caught.value.hint
    )
    assert "Nothing was changed" not in caught.value.hint

    # Fixed, it applies on the next open.
    broken.write_text("CREATE TABLE half_done (a INTEGER);\n")
    async with Store(db_path, migrations_dir=migrations_dir) as store:
        assert store.applied_migrations == [broken.stem]
    assert "half_done" in {name for _, name in schema(db_path)}


async def test_edited_migration_is_detected(db_path: Path, migrations_dir: Path) -> None:
    async with Store(db_path, migrations_dir=migrations_dir):
        pass
    init = migrations_dir / "0001_init.sql"
    init.write_text(init.read_text() + "\n-- an innocent-looking edit\n")
    with pytest.raises(MigrationError) as caught:
        async with Store(db_path, migrations_dir=migrations_dir):
            pass
    assert caught.value.version == 1
    assert "edited" in caught.value.message


async def test_database_newer_than_code_is_refused(db_path: Path, migrations_dir: Path) -> None:
    version = len(load_migrations(migrations_dir)) + 1
    extra = migrations_dir / f"{version:04d}_extra.sql"
    extra.write_text("CREATE TABLE extra (a INTEGER);\n")
    async with Store(db_path, migrations_dir=migrations_dir):
        pass
    extra.unlink()
    with pytest.raises(MigrationError) as caught:
        async with Store(db_path, migrations_dir=migrations_dir):
            pass
    assert caught.value.version == version


def test_badly_named_or_gapped_files_are_rejected(tmp_path: Path) -> None:
    (tmp_path / "0001_ok.sql").write_text("SELECT 1;")
    (tmp_path / "0004_gap.sql").write_text("SELECT 1;")
    with pytest.raises(MigrationError):
        load_migrations(tmp_path)
    (tmp_path / "0004_gap.sql").unlink()
    (tmp_path / "2-bad name.sql").write_text("SELECT 1;")
    with pytest.raises(MigrationError):
        load_migrations(tmp_path)


def test_statement_splitter_keeps_triggers_and_quoted_semicolons_whole() -> None:
    sql = (
        "-- a comment; with a semicolon\n"
        "CREATE TABLE a (x TEXT DEFAULT 'p;q');\n"
        "CREATE TRIGGER t AFTER INSERT ON a BEGIN UPDATE a SET x = 'y;z'; DELETE FROM a WHERE 0; END;\n"
        "-- trailing comment\n"
    )
    statements = split_statements(sql)
    assert len(statements) == 2
    assert statements[1].startswith("CREATE TRIGGER") and statements[1].endswith("END;")
    with pytest.raises(ValueError):
        split_statements("CREATE TABLE b (x")


def test_repository_migrations_are_found() -> None:
    labels = [m.label for m in load_migrations()]
    assert labels[:2] == ["0001_init", "0002_workflow_archive"]


def test_both_backends_have_the_same_numbered_migrations() -> None:
    sqlite_side = load_migrations()
    pg_side = load_migrations(postgres.migrations_dir(default_migrations_dir()))
    assert [m.label for m in pg_side] == [m.label for m in sqlite_side]


async def test_postgres_migrations_apply_once_and_an_edited_file_is_refused(
    pg_cluster: Cluster, tmp_path: Path
) -> None:
    url = fresh_database(pg_cluster)
    async with Store(url) as first:
        assert first.applied_migrations == [m.label for m in load_migrations()]
    async with Store(url) as second:
        assert second.applied_migrations == []
    edited = tmp_path / "migrations"
    shutil.copytree(default_migrations_dir(), edited)
    init = edited / "postgres" / "0001_init.sql"
    init.write_text(init.read_text() + "\n-- edited\n")
    with pytest.raises(MigrationError, match="edited after it was applied"):
        async with Store(url, migrations_dir=edited):
            pass


async def test_0011_widens_the_status_check_and_keeps_every_row(db_path: Path) -> None:
    """A database made before 0011, with a task and its checkpoint: 0011 (a schema text edit, not a
    rebuild that would cascade to the steps) keeps both, allows input_required, refuses the rest."""
    migrations = load_migrations()
    conn = sqlite3.connect(db_path, isolation_level=None)
    conn.execute("PRAGMA foreign_keys = ON")
    try:
        apply(conn, migrations[:10])
        conn.execute(
            "INSERT INTO tasks (id, type, status, created_at, updated_at) VALUES ('task_a', 't', 'working', 'x', 'x')"
        )
        conn.execute(
            "INSERT INTO task_steps (task_id, step_key, seq, result, saved_at) VALUES ('task_a', 's', 1, '1', 'x')"
        )
        with pytest.raises(sqlite3.IntegrityError):
            conn.execute("UPDATE tasks SET status = 'input_required' WHERE id = 'task_a'")
        assert [m.label for m in apply(conn, migrations[:11])] == ["0011_input_required"]
        conn.execute("UPDATE tasks SET status = 'input_required' WHERE id = 'task_a'")
        with pytest.raises(sqlite3.IntegrityError):
            conn.execute("UPDATE tasks SET status = 'asleep' WHERE id = 'task_a'")
        assert conn.execute("SELECT count(*) FROM task_steps").fetchone() == (1,)
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    finally:
        conn.close()


def test_a_full_disk_midway_keeps_each_migration_whole_and_says_which_were_applied(tmp_path: Path) -> None:
    """A disk that fills during a later migration (SQLite's max_page_count gives SQLITE_FULL, as a
    full disk does): those before it stay applied whole, it leaves nothing, and the error says so."""
    migrations = load_migrations()
    scratch = sqlite3.connect(tmp_path / "scratch.db", isolation_level=None)
    apply(scratch, migrations[:1])
    (pages_after_init,) = scratch.execute("PRAGMA page_count").fetchone()
    scratch.close()

    conn = sqlite3.connect(tmp_path / "full.db", isolation_level=None)
    try:
        conn.execute(f"PRAGMA max_page_count = {pages_after_init + 1}")
        with pytest.raises(MigrationError) as caught:
            apply(conn, migrations)
        error = caught.value
        assert "full" in error.message
        assert error.version > 1 and error.applied == [m.label for m in migrations[: error.version - 1]]
        assert "Nothing was changed" not in (error.hint or "")
        assert "0001_init" in (
            error.hint or ""
        ) and f"not applied: {migrations[error.version - 1].label}" in (error.hint or "")
        rows = conn.execute("SELECT version FROM schema_migrations ORDER BY version").fetchall()
        assert [v for (v,) in rows] == list(range(1, error.version))
        assert not conn.in_transaction
        # Nothing of the failed one is left: the schema is exactly that of the ones before it.
        reference = sqlite3.connect(tmp_path / "reference.db", isolation_level=None)
        apply(reference, migrations[: error.version - 1])
        listing = "SELECT type, name, sql FROM sqlite_master ORDER BY type, name"
        assert conn.execute(listing).fetchall() == reference.execute(listing).fetchall()
        reference.close()
        # With room again, the rest applies.
        conn.execute("PRAGMA max_page_count = 1073741823")
        assert [m.version for m in apply(conn, migrations)] == list(range(error.version, len(migrations) + 1))
    finally:
        conn.close()


def test_a_migration_that_cannot_start_says_nothing_was_applied(tmp_path: Path) -> None:
    broken = tmp_path / "migrations"
    broken.mkdir()
    (broken / "0001_first.sql").write_text("CREATE TABLE t (a INTEGER);\nINSERT INTO nowhere VALUES (1);\n")
    conn = sqlite3.connect(tmp_path / "x.db", isolation_level=None)
    try:
        with pytest.raises(MigrationError) as caught:
            apply(conn, load_migrations(broken))
        assert caught.value.applied == []
        assert "No migration was applied: 0001_first was the first pending one" in (caught.value.hint or "")
        assert conn.execute("SELECT count(*) FROM sqlite_master WHERE name = 't'").fetchone() == (0,)
    finally:
        conn.close()


async def test_postgres_keeps_the_migrations_before_a_failing_one_and_says_which(
    pg_cluster: Cluster, tmp_path: Path
) -> None:
    """One transaction per migration on PostgreSQL too: a failing migration rolls back alone."""
    url = fresh_database(pg_cluster)
    directory = tmp_path / "migrations"
    shutil.copytree(default_migrations_dir(), directory)
    good = [m.label for m in load_migrations(postgres.migrations_dir(directory))]
    broken = postgres.migrations_dir(directory) / f"{len(good) + 1:04d}_broken.sql"
    broken.write_text("CREATE TABLE half_done (a INTEGER);\nINSERT INTO no_such_table VALUES (1);\n")
    with pytest.raises(MigrationError) as caught:
        async with Store(url, migrations_dir=directory):
            pass
    assert caught.value.applied == good
    assert f"Applied before it, and kept: {', '.join(good)}; not applied: {broken.stem}" in (
        caught.value.hint or ""
    )
    import psycopg

    with psycopg.connect(url) as conn:
        rows = conn.execute(b"SELECT version FROM schema_migrations ORDER BY version").fetchall()
        assert [v for (v,) in rows] == list(range(1, len(good) + 1))
        assert conn.execute(b"SELECT to_regclass('half_done')").fetchone() == (None,)
    # Fixed, it applies alone on the next open, and the reading role `exa-orch sql` needs is set up.
    broken.write_text("CREATE TABLE half_done (a INTEGER);\n")
    async with Store(url, migrations_dir=directory) as store:
        assert store.applied_migrations == [broken.stem]
    with psycopg.connect(url) as conn:
        assert conn.execute(f"SELECT to_regprocedure('{postgres.SQL_FUNCTION}')".encode()).fetchone() != (
            None,
        )
