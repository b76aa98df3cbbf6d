"""The `exa-orch` command on bad input: `error [CODE]: ...`, a `hint:` line, a non-zero exit, no traceback.

Most commands run in this process (tests.support.run_cli: what the command does); a test starts a
real process where the process is the point (a pipe closed early, a signal, argv's bytes, a server
a client talks to), and one real process stands beside each group of in-process variants.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import signal
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from exa_orch.cli import main
from exa_orch.log import QUIET_LOGGERS
from tests.support import WAIT, CliRun, run_cli


def exa_orch_process(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """`python -m exa_orch ARGS` as a real process (stdin empty), with no EXA_API_KEY* or EXA_ORCH_*
    variable but those in `env`: run_cli's environment."""
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("EXA_API_KEY", "EXA_ORCH_"))}
    return subprocess.run(
        [sys.executable, "-m", "exa_orch", *args],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=WAIT,
        env={**environ, **(env or {})},
    )


def assert_clean_error(stderr: str, code: str) -> None:
    lines = stderr.splitlines()
    assert lines and lines[0].startswith(f"error [{code}]: "), stderr
    assert any(line.startswith("hint: ") for line in lines[1:]), stderr
    assert "Traceback" not in stderr and "Exception in thread" not in stderr, stderr


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["frobnicate"], "invalid choice: 'frobnicate'"),
        ([], "required: command"),
        (["db"], "required"),
        (["sql"], "required: query"),
        (["sql", "--db"], "--db: expected one argument"),
        (["serve", "--port", "99999"], "--port: must be 0-65535"),
        (["sim", "--port", "-1"], "--port: must be 0-65535"),
        (["serve", "--port", "http"], "--port: must be a whole number"),
        (["tasks", "--limit", "99999999999999999999"], "--limit: must be 1-10000"),
        (["tasks", "--limit", "0"], "--limit: must be 1-10000"),
        (["tasks", "--limit", "ten"], "--limit: must be a whole number"),
        (["sim", "--speed", "nan"], "--speed: must be a finite number"),
        (["sim", "--fault-rate", "inf"], "--fault-rate: must be a finite number"),
        (["serve", "--sim-speed", "5"], "--sim-speed needs --sim"),
        (["serve", "--world", "w.json"], "--world needs --sim"),
        (["serve", "--sim", "--sim-speed", "inf"], "--sim-speed: must be a finite number"),
    ],
)
def test_bad_usage_is_an_error_line_a_hint_and_exit_2(
    argv: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert_clean_error(err, "INVALID_PARAMS")
    assert says in err.splitlines()[0]
    assert "--help" in err  # the hint says where the usage is


def test_main_logs_where_it_prints_and_leaves_logging_as_it_found_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """main() called in a process that goes on (a test, a program embedding it): each call logs to
    the sys.stderr of its moment, and no handler or level it set outlives it."""
    monkeypatch.setenv("EXA_ORCH_LOG_LEVEL", "INFO")
    root = logging.getLogger()
    before = (list(root.handlers), root.level, [logging.getLogger(n).level for n in QUIET_LOGGERS])
    other = tmp_path / "other.sqlite"
    another_apps_database(other)
    for _ in range(2):  # the second call's log line is on the stderr of its moment too
        assert main(["serve", "--sim", "--db", str(other)]) == 1  # logs the simulator's URL, then stops
        err = capsys.readouterr().err
        assert "INFO exa_orch.cli: exa simulator (--sim) on http://127.0.0.1:" in err, err
        assert "error [FOREIGN_DATABASE]" in err
        after = (list(root.handlers), root.level, [logging.getLogger(n).level for n in QUIET_LOGGERS])
        assert after == before


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("cli") / "workflows.db"
    assert run_cli("db", "migrate", "--db", str(path)).returncode == 0
    return path


@pytest.mark.parametrize(
    ("query", "says"),
    [
        ("", "no statement to run"),
        ("  ;  ", "no statement to run"),
        ("-- only a comment", "no statement to run"),
        ("select 1; select 2", "exactly one statement"),
        ("delete from tasks", "read-only; refused DELETE tasks"),
        ("selec * from tasks", 'near "selec": syntax error'),
        ("select * from nope", "no such table: nope"),
        ("select '\udcff'", "not valid text"),  # what a non-UTF-8 byte in argv becomes
    ],
)
def test_sql_refuses_bad_queries_with_a_hint(db: Path, query: str, says: str) -> None:
    # The non-UTF-8 byte goes through a real argv (Python's surrogateescape); the rest run in-process.
    argv = ["sql", "--db", str(db), query]
    out = exa_orch_process(*argv) if "\udcff" in query else run_cli(*argv)
    assert out.returncode == 1 and out.stdout == ""
    assert_clean_error(out.stderr, "INVALID_PARAMS")
    assert says in out.stderr.splitlines()[0]


def test_sql_on_an_empty_file_says_to_migrate(tmp_path: Path) -> None:
    empty = tmp_path / "empty.db"
    empty.touch()
    out = run_cli("sql", "--db", str(empty), "select * from v_tasks")
    assert out.returncode == 1
    assert_clean_error(out.stderr, "INVALID_PARAMS")
    assert "exa-orch db migrate" in out.stderr


def test_db_that_is_a_directory_or_not_sqlite_is_a_store_error(tmp_path: Path) -> None:
    directory = tmp_path / "a-directory.db"
    directory.mkdir()
    not_sqlite = tmp_path / "notes.db"
    not_sqlite.write_text("these are my notes, not a database\n" * 20)
    for path in (directory, not_sqlite):
        for argv in (["sql", "--db", str(path), "select * from tasks"], ["db", "migrate", "--db", str(path)]):
            out = run_cli(*argv)
            assert out.returncode == 1, (argv, out.stdout)
            assert_clean_error(out.stderr, "STORE_ERROR")
            assert str(path) in out.stderr
    migrate = run_cli("db", "migrate", "--db", str(not_sqlite))
    assert "not an SQLite database" in migrate.stderr
    assert not_sqlite.read_text().startswith("these are my notes")  # left as it was


def test_sql_on_a_file_that_cannot_be_opened_is_a_store_error(tmp_path: Path) -> None:
    # A UNIX socket exists but can't be opened, by root too (chmod 000 stops only other users).
    path = tmp_path / "socket.db"
    with socket.socket(socket.AF_UNIX) as sock:
        sock.bind(str(path))
        out = run_cli("sql", "--db", str(path), "select 1")
    assert out.returncode == 1
    assert_clean_error(out.stderr, "STORE_ERROR")
    assert "cannot read the database" in out.stderr


@pytest.mark.parametrize(
    ("entry", "says"),
    [
        ("no-colon", "must look like 'package.module:ATTRIBUTE'"),
        ("json:dumps", "must name a list of WorkflowSpec"),
        ("no_such_module_here:SPECS", "ModuleNotFoundError"),
        ("broken_workflows:SPECS", "RuntimeError: half-configured"),
    ],
)
def test_serve_with_a_bad_extra_workflows_entry_is_a_config_error(
    tmp_path: Path, entry: str, says: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "broken_workflows.py").write_text("raise RuntimeError('half-configured')\n")
    env = {
        "EXA_ORCH_EXA_URL": "http://127.0.0.1:9",  # never called: the server stops before serving
        "EXA_ORCH_DB": str(tmp_path / "w.db"),
        "EXA_ORCH_EXTRA_WORKFLOWS": entry,
    }
    if entry.startswith("broken_workflows"):  # a real server process, its module on PYTHONPATH
        out: subprocess.CompletedProcess[str] | CliRun = exa_orch_process(
            "serve", env={**env, "PYTHONPATH": str(tmp_path)}
        )
    else:  # refused before the MCP machinery is imported: the same code path in this process
        monkeypatch.syspath_prepend(str(tmp_path))
        out = run_cli("serve", env=env)
    assert out.returncode == 1 and out.stdout == ""
    error = next(line for line in out.stderr.splitlines() if line.startswith("error ["))
    assert error.startswith("error [CONFIG_ERROR]: EXA_ORCH_EXTRA_WORKFLOWS entry") and says in error
    assert "hint: " in out.stderr and "Traceback" not in out.stderr


def another_apps_database(path: Path) -> bytes:
    """An SQLite file of some other application (one table named like exa-orch's); its bytes."""
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE tasks (title TEXT)")  # a name exa-orch uses, another shape
        conn.execute("CREATE TABLE notes (body TEXT)")
        conn.execute("INSERT INTO tasks VALUES ('buy milk')")
    conn.close()
    return path.read_bytes()


@pytest.mark.parametrize(
    "argv",
    [
        ["db", "migrate"],
        ["sql", "select * from tasks"],
        ["serve"],
        ["serve", "--sim"],
        ["serve", "--http"],
        ["tasks"],
        ["view", "--port", "0"],
    ],
    ids=["migrate", "sql", "serve", "serve-sim", "serve-http", "tasks", "view"],
)
def test_another_apps_sqlite_file_is_refused_and_left_byte_identical(tmp_path: Path, argv: list[str]) -> None:
    other = tmp_path / "some-other-app.sqlite"
    before = another_apps_database(other)
    args = [*argv, "--db", str(other), *(["--port", "0"] if "--http" in argv else [])]
    env = {"EXA_ORCH_EXA_URL": "http://127.0.0.1:9"}  # never called: it stops before
    # `serve` on stdio as a real process (its stdout is the MCP stream); the others in this process.
    out = exa_orch_process(*args, env=env) if argv == ["serve"] else run_cli(*args, env=env)
    assert out.returncode == 1 and out.stdout == "", out
    error = next(line for line in out.stderr.splitlines() if line.startswith("error ["))
    assert error.startswith(f"error [FOREIGN_DATABASE]: {other} is not an exa-orch database"), out.stderr
    assert "tasks" in error and "notes" in error  # it names what it found
    assert "hint: " in out.stderr and "Traceback" not in out.stderr
    assert other.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [other.name]  # no -wal, -shm or journal left


@pytest.mark.parametrize(
    "argv", [["--fault-kinds", "418"], ["--speed", "0"], ["--fault-rate", "2"], ["--retry-after", "-1"]]
)
def test_sim_with_a_bad_setting_stops_with_a_hint(argv: list[str]) -> None:
    out = exa_orch_process("sim", *argv) if "418" in argv else run_cli("sim", *argv)  # one real process
    assert out.returncode == 2 and out.stdout == ""  # no URL printed: nothing is served
    assert_clean_error(out.stderr, "INVALID_PARAMS")


@pytest.mark.parametrize("as_json", [False, True])
def test_sql_into_a_pipe_closed_early_stops_quietly(db: Path, as_json: bool) -> None:
    """`exa-orch sql ... | head -1`: no BrokenPipeError traceback, the shell's SIGPIPE status."""
    rows = "with recursive c(x) as (select 1 union all select x + 1 from c where x < 100000) select x from c"
    argv = [sys.executable, "-m", "exa_orch", "sql", "--db", str(db), *(["--json"] if as_json else []), rows]
    with subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as child:
        assert child.stdout is not None and child.stderr is not None
        assert child.stdout.readline()  # the first line came; the reader now goes away (>64 KB remain)
        child.stdout.close()
        stderr = child.stderr.read()
        assert child.wait(timeout=WAIT) == 141
    assert stderr == ""


def test_serve_sim_over_http_needs_no_key_no_second_process_and_no_port(tmp_path: Path) -> None:
    """`exa-orch serve --sim --http --port 0 --world FILE`: one process, its own simulator searching
    the file's pages in its order, an MCP URL printed. (`sim --world` is tested below.)"""
    world = tmp_path / "bnpl.json"
    world.write_text(json.dumps(BNPL_WORLD), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("EXA_API_KEY", "EXA_ORCH_", "EXA_SIM_"))}
    env |= {"XDG_DATA_HOME": str(tmp_path / "data"), "EXA_API_KEY": "sk-must-not-be-sent"}
    with (tmp_path / "stderr.log").open("w") as errlog:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "exa_orch",
                "serve",
                "--sim",
                "--http",
                "--port",
                "0",
                "--world",
                str(world),
            ],
            env=env,
            cwd=tmp_path,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=errlog,
            text=True,
        )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline().strip()  # blocks until the URL is printed (or the process exits)
        assert line.startswith("EXA_ORCH_MCP_URL=http://127.0.0.1:"), (tmp_path / "stderr.log").read_text()
        assert asyncio.run(_mcp_search_urls(line.split("=", 1)[1])) == BNPL_URLS
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=WAIT) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stdout.close() if proc.stdout else None
    log = (tmp_path / "stderr.log").read_text()
    assert "exa simulator (--sim) on http://127.0.0.1:" in log and "sk-must-not-be-sent" not in log
    assert "HTTP Request:" not in log  # httpx's line per request is kept out of the server's log
    assert f"db={tmp_path / 'data' / 'exa-orch' / 'workflows.db'} " in log
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "bnpl.json",
        "data",
        "stderr.log",
    ]  # nothing in the cwd


def test_serve_sim_beyond_loopback_without_a_token_is_refused_before_the_simulator_starts(
    tmp_path: Path,
) -> None:
    out = run_cli(
        "serve", "--sim", "--http", "--host", "0.0.0.0", "--port", "0", env={"XDG_DATA_HOME": str(tmp_path)}
    )
    assert out.returncode == 1 and out.stdout == "", out
    assert_clean_error(out.stderr, "CONFIG_ERROR")
    assert "beyond loopback needs a bearer token" in out.stderr
    assert "exa simulator" not in out.stderr  # refused first: no simulator was started


@pytest.mark.parametrize(
    "url",
    [
        "postgresql://exa:hunter2-pw@[::1/exa",  # the driver quotes an unparsable URL back
        "postgresql:///exa?host=/nonexistent-socket-dir&password=hunter2-pw",
        "postgresql://exa@127.0.0.1:1/exa?sslmode=disable&PASSWORD=hunter2-pw",
    ],
)
@pytest.mark.parametrize(
    "argv",
    [["sql", "DB", "select 1"], ["tasks", "DB"], ["view", "DB", "--port", "0"], ["db", "migrate", "DB"]],
)
def test_a_bad_postgres_url_is_a_store_error_that_never_shows_its_password(url: str, argv: list[str]) -> None:
    pytest.importorskip("psycopg")
    args = [f"--db={url}" if arg == "DB" else arg for arg in argv]
    # One real process (the driver, libpq, could write to the process's stderr itself); the others in this one.
    out = exa_orch_process(*args) if argv[0] == "sql" and "[" in url else run_cli(*args)
    assert out.returncode == 1, out.stderr
    assert_clean_error(out.stderr, "STORE_ERROR")
    assert "hunter2" not in out.stderr + out.stdout, out.stderr


def test_sim_with_a_broken_world_file_stops_saying_where(tmp_path: Path) -> None:
    bad = tmp_path / "w.json"
    bad.write_text('{"entities": [{"name": "A"}]}', encoding="utf-8")
    out = run_cli("sim", "--world", str(bad))
    assert out.returncode == 2 and out.stdout == ""  # nothing is served
    assert_clean_error(out.stderr, "INVALID_PARAMS")
    assert "entities[0].pages[0]: each page needs a 'url'" in out.stderr


# A world file as a person writes it (docs/simulator.md): no page of the seeded worlds has these URLs.
BNPL_WORLD = {
    "name": "bnpl",
    "entities": [
        {"id": "klarna", "name": "Klarna", "attributes": {"industry": "Fintech"},
         "pages": [{"url": "https://www.klarna.com/se/", "queries": ["buy now pay later"]},
                   {"name": "Klarna Bank AB (publ)", "url": "https://klarna.com/us/about-us/",
                    "queries": ["buy now pay later"]}]},
        {"id": "affirm", "name": "Affirm, Inc.", "url": "https://www.affirm.com", "queries": ["buy now pay later"]},
    ],
}  # fmt: skip
BNPL_URLS = ["https://www.klarna.com/se/", "https://klarna.com/us/about-us/", "https://www.affirm.com"]


def _search_urls(url: str) -> list[str]:
    """The result URLs of the simulator's POST /search for the world's query (it listens once printed)."""
    import httpx

    got = httpx.post(
        f"{url}/search", json={"query": "buy now pay later", "numResults": 10}, headers={"x-api-key": "k"}
    )
    assert got.status_code == 200, got.text
    return [r["url"] for r in got.json()["results"]]


async def _mcp_search_urls(url: str) -> list[str]:
    """exa.search through `serve --sim`'s MCP face on streamable HTTP: the result URLs."""
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    async with Client(streamable_http_client(url), mode="legacy") as client:
        result = await client.call_tool(
            "manage_websets",
            {"operation": "exa.search", "args": {"query": "buy now pay later", "numResults": 10}},
        )
    assert not result.is_error, result
    return [r["url"] for r in json.loads(result.content[0].text)["results"]]  # type: ignore[union-attr]


def test_a_world_file_is_what_sim_serves(tmp_path: Path) -> None:
    """`exa-orch sim --world FILE` searches the file's pages, in its order. (`serve --sim --world`:
    test_serve_sim_over_http_needs_no_key_no_second_process_and_no_port.)"""
    world = tmp_path / "bnpl.json"
    world.write_text(json.dumps(BNPL_WORLD), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("EXA_API_KEY", "EXA_ORCH_", "EXA_SIM_"))}
    env |= {"XDG_DATA_HOME": str(tmp_path / "data")}
    with (tmp_path / "stderr.log").open("w") as errlog:
        proc = subprocess.Popen(
            [sys.executable, "-m", "exa_orch", "sim", "--port", "0", "--world", str(world)],
            env=env,
            cwd=tmp_path,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=errlog,
            text=True,
        )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline().strip()  # printed once the port listens
        assert "=http://127.0.0.1:" in line, (tmp_path / "stderr.log").read_text()
        url = line.split("=", 1)[1]
        assert _search_urls(url) == BNPL_URLS
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=WAIT) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stdout.close() if proc.stdout else None
