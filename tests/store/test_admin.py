"""`exa-orch db migrate` and `exa-orch sql`, run as a user would: through the CLI's main() in this
process (tests.support.run_cli), and once in a subprocess that finds its database in its environment."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from exa_orch.store.admin import format_table
from tests.support import WAIT, run_cli

ARCHETYPES = {
    "workflow-webset-lifecycle": (3, 2, 3, 2, 3, "applied"),
    "workflow-webset-convergent": (4, 3, 4, 2, 4, "confirmatory"),
    "workflow-webset-adversarial": (2, 2, 4, 2, 5, "generative"),
    "workflow-webset-verified": (4, 3, 4, 3, 4, "exploratory"),
    "workflow-webset-qd-winnow": (3, 2, 4, 2, 5, "analytical"),
    "workflow-research-deep": (4, 3, 3, 3, 3, "exploratory"),
}
ACCEPTANCE_QUERY = (
    "select id, coord_scope, coord_domain_structure, coord_evidence_type, coord_time_horizon, "
    "coord_fidelity, archetype from workflows"
)


@pytest.fixture(scope="module")
def migrated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("admin") / "workflows.db"
    first = run_cli("db", "migrate", "--db", str(db))
    assert first.returncode == 0, first.stderr
    assert "0001_init" in first.stdout and "0002_workflow_archive" in first.stdout
    return db


def test_migrate_creates_the_file_and_a_second_run_changes_nothing(migrated: Path) -> None:
    assert migrated.is_file()
    with sqlite3.connect(migrated) as conn:
        before = conn.execute("SELECT * FROM sqlite_master ORDER BY name").fetchall()
        rows = conn.execute(ACCEPTANCE_QUERY).fetchall()
    assert {r[0]: tuple(r[1:]) for r in rows} == ARCHETYPES
    again = run_cli("db", "migrate", "--db", str(migrated))
    assert again.returncode == 0 and "up to date" in again.stdout
    with sqlite3.connect(migrated) as conn:
        assert conn.execute("SELECT * FROM sqlite_master ORDER BY name").fetchall() == before
        assert conn.execute("SELECT count(*) FROM workflows").fetchone()[0] == 6


def test_sqlite3_cli_shows_the_six_archetypes(migrated: Path) -> None:
    sqlite3_cli = shutil.which("sqlite3")
    if sqlite3_cli is None:
        pytest.skip("the sqlite3 command-line shell is not installed")  # the Python check above covers it
    out = subprocess.run(
        [sqlite3_cli, str(migrated), ACCEPTANCE_QUERY], capture_output=True, text=True, timeout=WAIT
    )
    assert out.returncode == 0, out.stderr
    lines = sorted(out.stdout.split())
    assert lines == sorted("|".join(map(str, (k, *v))) for k, v in ARCHETYPES.items())


def test_sql_prints_an_aligned_table(migrated: Path) -> None:
    out = run_cli("sql", "--db", str(migrated), ACCEPTANCE_QUERY)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].split() == [
        "id", "coord_scope", "coord_domain_structure", "coord_evidence_type",
        "coord_time_horizon", "coord_fidelity", "archetype",
    ]  # fmt: skip
    assert set(lines[1]) <= {"-", " "}
    assert lines[-1] == "(6 rows)"
    body = {line.split()[0]: line.split()[1:] for line in lines[2:-1]}
    assert {k: (*map(int, v[:5]), v[5]) for k, v in body.items()} == ARCHETYPES
    # Aligned: every row's archetype column starts at the same offset as its header.
    offset = lines[0].index("archetype")
    assert all(line[offset - 1] == " " and line[offset] != " " for line in lines[2:-1])


def test_sql_json_output_and_db_from_environment(migrated: Path) -> None:
    out = subprocess.run(  # a real process: the database is the one its environment names
        [sys.executable, "-m", "exa_orch", "sql", "--json", "select * from v_archive"],
        capture_output=True,
        text=True,
        timeout=WAIT,
        env={**os.environ, "EXA_ORCH_DB": str(migrated)},
    )
    assert out.returncode == 0, out.stderr
    rows = json.loads(out.stdout)
    assert {r["workflow_id"] for r in rows} == set(ARCHETYPES)
    assert all(r["runs"] == 0 and r["best_run_id"] is None for r in rows)
    assert sorted(r["cell"] for r in rows) == [r["cell"] for r in rows]


@pytest.mark.parametrize(
    "statement",
    [
        "INSERT INTO tasks (id, type, created_at, updated_at) VALUES ('task_x', 't', 'a', 'a')",
        "UPDATE workflows SET name = 'renamed'",
        "DELETE FROM workflows",
        "DROP TABLE workflows",
        "ATTACH DATABASE 'other.db' AS other",
        "CREATE TABLE scratch (a)",
        "PRAGMA user_version = 7",
        "VACUUM",
    ],
)
def test_sql_refuses_statements_that_write(migrated: Path, statement: str) -> None:
    with sqlite3.connect(migrated) as conn:
        before = conn.execute("SELECT name FROM workflows ORDER BY id").fetchall()
    out = run_cli("sql", "--db", str(migrated), statement)
    assert out.returncode == 1
    assert "error [INVALID_PARAMS]" in out.stderr and "read-only" in out.stderr
    assert out.stdout == ""
    with sqlite3.connect(migrated) as conn:
        assert conn.execute("SELECT name FROM workflows ORDER BY id").fetchall() == before
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 0
    assert not (migrated.parent / "other.db").exists()


def test_sql_explains_bad_queries_and_missing_databases(migrated: Path, tmp_path: Path) -> None:
    bad = run_cli("sql", "--db", str(migrated), "select * from nope")
    assert bad.returncode == 1 and "no such table: nope" in bad.stderr and "v_tasks" in bad.stderr
    two = run_cli("sql", "--db", str(migrated), "select 1; select 2")
    assert two.returncode == 1 and "one statement" in two.stderr
    missing = run_cli("sql", "--db", str(tmp_path / "absent.db"), "select 1")
    assert missing.returncode == 1 and "exa-orch db migrate" in missing.stderr
    assert not (tmp_path / "absent.db").exists()


def test_read_only_pragmas_and_table_functions_are_allowed(migrated: Path) -> None:
    out = run_cli("sql", "--db", str(migrated), "--json", "select name from pragma_table_info('tasks')")
    assert out.returncode == 0, out.stderr
    assert "lease_owner" in {r["name"] for r in json.loads(out.stdout)}
    check = run_cli("sql", "--db", str(migrated), "PRAGMA integrity_check")
    assert check.returncode == 0 and "ok" in check.stdout


def test_format_table_right_aligns_numbers_and_blanks_nulls() -> None:
    text = format_table(["name", "n"], [("a", 1), ("long name", None), ("b", 100)])
    assert text.splitlines() == [
        "name         n",
        "---------  ---",
        "a            1",
        "long name",
        "b          100",
        "(3 rows)",
    ]


def test_migrate_refuses_a_missing_directory_and_makes_nothing(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    for missing in (tmp_path / "no" / "such" / "dir", blocker / "sub"):
        out = run_cli("db", "migrate", "--db", str(missing / "x.db"))
        assert out.returncode == 1
        assert out.stderr.startswith(
            f"error [CONFIG_ERROR]: the directory of the database {missing / 'x.db'} does not exist"
        )
        assert f"`mkdir -p {missing}`" in out.stderr and "Traceback" not in out.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-file"]  # no directory was made


def test_the_default_database_directory_is_made_when_missing(tmp_path: Path) -> None:
    data = tmp_path / "xdg"  # the per-user data directory is exa-orch's own to make
    out = run_cli("db", "migrate", env={"XDG_DATA_HOME": str(data)})
    assert out.returncode == 0, out.stderr
    assert (data / "exa-orch" / "workflows.db").is_file()


@pytest.mark.parametrize(
    ("query", "function"),
    [
        ("select hex(fts3_tokenizer('simple'))", "fts3_tokenizer"),
        ("select fts3_tokenizer('mine', x'0000000000000000')", "fts3_tokenizer"),
        ("select load_extension('/tmp/nothing')", "load_extension"),
        ("select id from tasks where writefile('/tmp/x', 'y')", "writefile"),
    ],
)
async def test_sql_on_sqlite_calls_only_functions_that_compute(
    migrated: Path, query: str, function: str
) -> None:
    from exa_orch.errors import InvalidParams
    from exa_orch.store.admin import run_query

    with pytest.raises(InvalidParams) as refused:
        await run_query(migrated, query)
    # Refused by the authorizer (named), or unknown to this SQLite build: never run.
    said = str(refused.value)
    assert f"refused the function {function}()" in said or f"no such function: {function}" in said, said


async def test_sql_on_sqlite_keeps_the_functions_a_question_needs(migrated: Path) -> None:
    from exa_orch.store.admin import run_query

    columns, rows = await run_query(
        migrated,
        "select count(*), max(length(id)), json_extract('{\"a\": 2}', '$.a'), upper('x'),"
        " strftime('%Y', '2026-01-02'), coalesce(null, 1), abs(-3), row_number() over () from workflows"
        " group by archetype limit 1",
    )
    assert len(columns) == 8 and rows[0][2:7] == (2, "X", "2026", 1, 3)


async def test_sql_on_sqlite_stops_a_query_at_its_time_limit(migrated: Path) -> None:
    from exa_orch.errors import InvalidParams
    from exa_orch.store.admin import run_query

    endless = "with recursive n(i) as (select 1 union all select i + 1 from n) select count(*) from n"
    with pytest.raises(InvalidParams, match=r"time limit \(0.2 s\)"):
        await run_query(migrated, endless, timeout_s=0.2)
    columns, _ = await run_query(migrated, "select count(*) from tasks", timeout_s=0.2)
    assert columns == ["count(*)"]


@pytest.mark.parametrize(
    ("query", "what"),
    [
        ("select length(printf('%.*c', 999999999, 'x'))", "a value it made"),  # SQLite's printf: 27 s of CPU
        ("select length(format('%999999999d', 1))", "a value it made"),  # SQLite answers NULL past the limit
        ("select length(zeroblob(999999999))", "a value it made"),
        ("select length(replace(hex(zeroblob(20000000)), '0', 'xx'))", "a value it made"),
        (
            "with recursive n(i) as (select 1 union all select i + 1 from n limit 3000000)"
            " select i, 'abcdefghij' from n",
            "its result",
        ),
    ],
)
def test_sql_on_sqlite_stops_a_huge_value_or_result_and_names_the_limit(
    migrated: Path, query: str, what: str
) -> None:
    """Measured by hand (issue 36's report): the printf query ends in ~0.5 s at ~28 MB peak RSS."""
    out = run_cli("sql", "--db", str(migrated), query)
    assert out.returncode == 1 and out.stdout == ""
    assert out.stderr.startswith(
        f"error [INVALID_PARAMS]: the query was stopped: {what} went past exa-orch sql's limit of 32 MB"
    ), out.stderr


def test_sql_on_sqlite_printf_still_formats_under_the_limit(migrated: Path) -> None:
    out = run_cli(
        "sql",
        "--json",
        "--db",
        str(migrated),
        "select printf('%.2f|%5d|%-3s|%%|%.*c', 3.14159, 42, 'ab', 3, 'z') as p, format('%s-%d', 'a', 7) as f,"
        " length(printf('%.*c', 1000000, 'y')) as n, printf(null) as z",
    )
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == [{"p": "3.14|   42|ab |%|zzz", "f": "a-7", "n": 1000000, "z": None}]
