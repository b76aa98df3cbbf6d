"""The README stays true: its configuration table matches what exa-orch reads, its flags exist,
every command it shows is run by a test, and every path it (or the contributor docs) names exists."""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import subprocess
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest

from exa_orch.cli import build_parser
from exa_orch.config import DEFAULT_ARXIV_URL, Settings
from exa_orch.workflows import loader
from tests.support import WAIT, run_cli

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()
ROW = re.compile(r"^\| `(EXA_[A-Z_]+)` \| (.*) \| (.*) \|$")

# The Settings field each variable sets (None: read elsewhere, or no plain default to compare).
FIELDS = {
    "EXA_API_KEY": "api_key",
    "EXA_ORCH_EXA_URL": "exa_url",
    "EXA_ORCH_SIMULATOR": None,  # a flag: 0 (real Exa) by default; checked below
    "EXA_ORCH_ARXIV_URL": None,  # its default depends on EXA_ORCH_SIMULATOR; checked below
    "EXA_ORCH_DB": None,  # its default is a per-user directory; checked below
    "EXA_ORCH_TOOLS": "tools",
    "EXA_ORCH_MAX_TASKS": "max_tasks",
    "EXA_ORCH_CONCURRENCY": "concurrency",
    "EXA_ORCH_RPS": "rps",
    "EXA_ORCH_MAX_AGENT_RUNS": "max_agent_runs",
    "EXA_ORCH_MAX_RUNNING_WEBSETS": "max_running_websets",
    "EXA_ORCH_LOG_LEVEL": "log_level",
    "EXA_ORCH_HTTP_TOKEN": "http_token",
    "EXA_ORCH_HTTP_TOKENS": None,  # unset: no named tokens
    "EXA_ORCH_HTTP_TOKENS_FILE": None,
    "EXA_ORCH_TASK_TTL": "task_ttl",
    "EXA_ORCH_MAX_TASK_TTL": "max_task_ttl",
    "EXA_ORCH_LEASE_TTL": "lease_ttl",
    "EXA_ORCH_PRINCIPAL": None,  # defaults to user:<login>, which depends on who runs it
    "EXA_ORCH_ENABLED_TOOLS": None,  # None (all of the profile's tools) has no plain default to compare
    "EXA_ORCH_HTTP_MAX_SESSIONS": "http_max_sessions",
    "EXA_ORCH_HTTP_MAX_SESSIONS_PER_PRINCIPAL": "http_max_sessions_per_principal",
    "EXA_ORCH_VIEW_SECRET": "view_key",
    "EXA_ORCH_DAILY_BUDGET_USD": "daily_budget_usd",
    "EXA_ORCH_DAILY_BUDGETS": None,  # a list; unset is ()
    "EXA_ORCH_ENGINE": "engine",
    "EXA_ORCH_IMPORT_DIRS": "import_dirs",
    loader.ENV_VAR: None,
}


def table() -> dict[str, str]:
    """Variable -> default cell of the README's configuration table."""
    section = README.split("## Configuration", 1)[1].split("\n## ", 1)[0]
    rows = {m[1]: m[3] for line in section.splitlines() if (m := ROW.match(line))}
    assert len(rows) >= 10, "the table parser found too little: did the table's format change?"
    return rows


class Recording(Mapping[str, str]):
    """An empty environment that remembers every name asked for."""

    def __init__(self) -> None:
        self.asked: set[str] = set()

    def __getitem__(self, key: str) -> str:
        self.asked.add(key)
        raise KeyError(key)

    def get(self, key: str, default: object = None) -> object:  # type: ignore[override]
        self.asked.add(key)
        return default

    def __iter__(self) -> Iterator[str]:
        return iter(())

    def __len__(self) -> int:
        return 0


def test_the_table_lists_exactly_the_variables_exa_orch_reads() -> None:
    env = Recording()
    Settings.from_env(env)
    read = env.asked | {loader.ENV_VAR}
    assert sorted(read - set(table())) == [], "read by exa-orch but missing from the README's table"
    assert sorted(set(table()) - read) == [], "in the README's table but read by nothing"
    assert set(FIELDS) == read, "FIELDS in this test needs the new variable"


def test_the_table_defaults_are_the_code_defaults() -> None:
    defaults = Settings.from_env({})
    for var, default in table().items():
        field = FIELDS[var]
        if field is None:
            continue
        value = getattr(defaults, field)
        cell = default.strip("`")
        if value is None or value == ():
            assert cell in {"unset", "required for real Exa"}, (var, default)
        elif isinstance(value, Path):
            assert Path(cell) == value, (var, default)
        elif isinstance(value, int | float):
            assert float(cell) == value, (var, default)
        else:
            assert cell == value, (var, default)
    db = table()["EXA_ORCH_DB"]
    assert "`workflows.db`" in db and "per-user data directory" in db
    assert defaults.db_path.name == "workflows.db" and defaults.db_path.parent.name == "exa-orch"
    arxiv = table()["EXA_ORCH_ARXIV_URL"]
    assert f"`{DEFAULT_ARXIV_URL}`" in arxiv and "/arxivxplorer" in arxiv
    assert defaults.arxiv_url == DEFAULT_ARXIV_URL
    assert table()["EXA_ORCH_SIMULATOR"] == "`0` (real Exa)" and not defaults.simulator
    sim = Settings.from_env({"EXA_ORCH_EXA_URL": "http://127.0.0.1:9", "EXA_ORCH_SIMULATOR": "1"})
    assert sim.arxiv_url.endswith("/arxivxplorer")
    # A URL alone never makes a simulator (a company's proxy to Exa): the real ArXiv Xplorer.
    assert Settings.from_env({"EXA_ORCH_EXA_URL": "http://127.0.0.1:9"}).arxiv_url == DEFAULT_ARXIV_URL


def test_every_cli_flag_and_subcommand_is_in_the_readme() -> None:
    parser = build_parser()
    missing = []
    stack: list[tuple[str, argparse.ArgumentParser]] = [("exa-orch", parser)]
    while stack:
        name, current = stack.pop()
        for action in current._actions:
            if isinstance(action, argparse._SubParsersAction):
                for sub_name, sub in action.choices.items():
                    if f"{name} {sub_name}".removeprefix("exa-orch ") not in README:
                        missing.append(f"{name} {sub_name}")
                    stack.append((f"{name} {sub_name}", sub))
            missing.extend(
                f"{name} {flag}"
                for flag in action.option_strings
                if flag.startswith("--") and flag not in ("--help", "--version") and flag not in README
            )
    assert missing == []


def console_blocks() -> list[list[tuple[str, list[str]]]]:
    """Each ```console block of the README as (command, output lines) pairs."""
    blocks = []
    for body in re.findall(r"```console\n(.*?)```", README, re.S):
        pairs: list[tuple[str, list[str]]] = []
        for line in body.splitlines():
            if line.startswith("$ "):
                pairs.append((line[2:], []))
            else:
                pairs[-1][1].append(line)
        blocks.append(pairs)
    return blocks


def test_every_exa_orch_command_shown_parses() -> None:
    shown = [cmd for block in console_blocks() for cmd, _ in block if cmd.startswith("exa-orch ")]
    shown += [cmd for cmd in re.findall(r"`(exa-orch [a-z][^`]*)`", README) if "[" not in cmd]
    assert len(shown) >= 10
    for command in shown:
        argv = shlex.split(command.split("<")[0].split("|")[0])[1:]
        build_parser().parse_args(argv)  # exits 2 on a command that doesn't exist


# Examples shown after tasks ran (tasks, their events, archived runs): not reproducible on a new file.
NEEDS_TASKS = ("v_tasks", "task_events", "workflow_runs", "qd_elites", "runs > 0", "exa-orch tasks")


def test_the_sql_section_prints_what_the_readme_shows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The commands of the SQL section that need no tasks, run in order on a new ./workflows.db
    (through the CLI's main() in this process; the installed command is run below)."""
    assert "export EXA_ORCH_DB=workflows.db" in README  # what the section says its examples assume
    monkeypatch.chdir(tmp_path)
    ran = 0
    for block in console_blocks():
        for command, expected in block:
            argv = shlex.split(command)
            if argv[0] != "exa-orch" or any(w in command for w in NEEDS_TASKS):
                continue  # sqlite3 is checked in tests/store; task rows and runs differ per run
            out = run_cli(*argv[1:], env={"EXA_ORCH_DB": "workflows.db"})
            assert (out.stdout + out.stderr).splitlines() == expected, command
            ran += 1
    assert ran >= 5


def test_make_bench_runs_every_benchmark_even_when_one_misses_a_target(tmp_path: Path) -> None:
    # A stand-in venv whose python records each benchmark and misses store.py's targets (exit 1).
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    log = tmp_path / "ran.txt"
    fake = venv / "bin" / "python"
    fake.write_text(f'#!/bin/sh\necho "$1" >> {log}\n[ "$1" != bench/store.py ]\n')
    fake.chmod(0o755)
    (venv / ".installed").touch()  # newer than pyproject.toml: no install
    out = subprocess.run(
        ["make", "--no-print-directory", "bench", f"VENV={venv}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=WAIT,
    )
    assert log.read_text().split() == [
        "bench/store.py",
        "bench/gateway.py",
        "bench/runtime.py",
        "bench/startup.py",
        "bench/simtiming.py",
        "bench/watches.py",
    ]
    assert out.returncode != 0  # the miss is still reported


# --- every command shown is run ------------------------------------------------------------------

DOCS = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").glob("*.md"))]
EXA_ORCH = Path(sys.executable).parent / "exa-orch"  # the command `pip install` put beside python


def shell_commands() -> list[str]:
    """Each command line of the README's ```sh blocks (a trailing `# comment` dropped)."""
    lines = []
    for body in re.findall(r"```sh\n(.*?)```", README, re.S):
        lines += [line.split("  #")[0].strip() for line in body.splitlines() if line.strip()]
    return lines


def client_configs() -> list[dict[str, object]]:
    """The `mcpServers.exa-orch` entry of each JSON client config the README shows."""
    return [
        json.loads(body)["mcpServers"]["exa-orch"] for body in re.findall(r"```json\n(.*?)```", README, re.S)
    ]


def spawned(command: str) -> list[str] | None:
    """The server command a client command starts (`claude mcp add NAME -- CMD`, `npx
    @modelcontextprotocol/inspector CMD`), or None for a command that is not a client's."""
    argv = shlex.split(command)
    if argv[:3] == ["claude", "mcp", "add"]:
        return argv[argv.index("--") + 1 :]
    if argv[:2] == ["npx", "@modelcontextprotocol/inspector"]:
        return argv[2:]
    return None


def test_every_shell_command_shown_is_one_the_tests_run() -> None:
    from tests.test_install import INSTALL_COMMANDS

    commands = shell_commands()
    assert {"pipx install .", "uv tool install .", "pip install .", "exa-orch --version"} <= set(commands)
    unchecked = [
        c
        for c in commands
        if c not in INSTALL_COMMANDS and not c.startswith("exa-orch ") and spawned(c) is None
    ]
    assert unchecked == [], "shown in the README but run by no test: add it to the test that runs its kind"


def test_every_client_config_starts_exa_orch_serve_sim() -> None:
    servers = [[str(c["command"]), *map(str, c["args"])] for c in client_configs()]  # type: ignore[call-overload]
    servers += [argv for c in shell_commands() if (argv := spawned(c)) is not None]
    assert len(servers) >= 4  # Claude Desktop, Cursor, Claude Code, the Inspector
    assert all(argv == ["exa-orch", "serve", "--sim"] for argv in servers), servers


async def initialize_and_list(argv: list[str], env: dict[str, str], cwd: Path) -> list[str]:
    """Spawn `argv` as a stdio MCP server the way a client does; the names of its tools."""
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters, stdio_client

    params = StdioServerParameters(command=str(EXA_ORCH), args=argv[1:], env=env, cwd=str(cwd))
    with (cwd / "server-stderr.log").open("w") as errlog:
        async with Client(
            stdio_client(params, errlog=errlog), mode="legacy", read_timeout_seconds=WAIT
        ) as client:  # type: ignore[arg-type]
            return [tool.name for tool in (await client.list_tools()).tools]


def test_the_readme_shell_commands_run_in_order_as_shown(tmp_path: Path) -> None:
    """What a new user types, in the README's order, in a fresh data directory: the client configs'
    server (`exa-orch serve --sim`) answers, then every `exa-orch ...` line of the ```sh blocks."""
    import asyncio

    data_home, cwd = tmp_path / "data", tmp_path / "cwd"
    cwd.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("EXA_API_KEY", "EXA_ORCH_", "EXA_SIM_"))}
    env |= {"XDG_DATA_HOME": str(data_home), "PATH": f"{EXA_ORCH.parent}{os.pathsep}{env.get('PATH', '')}"}
    assert asyncio.run(initialize_and_list(["exa-orch", "serve", "--sim"], env, cwd)) == ["manage_websets"]
    assert (data_home / "exa-orch" / "workflows.db").is_file()  # where "Where your data is" says
    ran = []
    for command in shell_commands():
        argv = shlex.split(command)
        if argv[0] != "exa-orch":
            continue
        if argv[1:3] == ["serve", "--sim"] and "--http" in argv:
            with subprocess.Popen(
                [EXA_ORCH, *argv[1:]], env=env, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL, text=True,
            ) as proc:  # fmt: skip
                assert proc.stdout is not None
                line = proc.stdout.readline()  # the URL a client connects to
                proc.terminate()
                assert proc.wait(timeout=WAIT) == 0
            assert line.startswith("EXA_ORCH_MCP_URL=http://127.0.0.1:") and line.rstrip().endswith("/mcp")
        else:
            out = subprocess.run(
                [EXA_ORCH, *argv[1:]], env=env, cwd=cwd, capture_output=True, text=True, timeout=WAIT
            )
            assert out.returncode == 0, (command, out.stderr)
            if argv[1] == "--version":
                assert out.stdout.startswith("exa-orch ")
            if argv[1] == "sql":
                assert out.stdout.splitlines()[-1] == "(0 rows)", out.stdout  # a new user has no tasks yet
        ran.append(command)
    assert len(ran) >= 3 and sorted(p.name for p in cwd.iterdir()) == ["server-stderr.log"], ran


# --- every path named exists -------------------------------------------------------------------

LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")
# A backticked word that looks like a repository path: a known top-level folder or file.
TOP = ("exa_orch/", "tests/", "bench/", "scripts/", "docs/", "data-design/", "migrations/", ".ci/")
PATHISH = re.compile(
    r"`((?:" + "|".join(re.escape(t) for t in TOP) + r")[\w./*-]*|[\w-]+\.(?:md|py|sh|toml|sql|yaml))`"
)


def named_paths(doc: Path) -> list[tuple[str, Path]]:
    """(as written, where it points) for each relative link and each path-like `code` in `doc`."""
    text = doc.read_text()
    found = [
        (m, doc.parent / m) for m in LINK.findall(text) if "://" not in m and not m.startswith("mailto:")
    ]
    return found + [(m, ROOT / m) for m in PATHISH.findall(text) if "/" in m]


def test_every_relative_link_and_path_in_the_docs_exists() -> None:
    checked, missing = 0, []
    for doc in DOCS:
        for written, target in named_paths(doc):
            checked += 1
            exists = any(target.parent.glob(target.name)) if "*" in target.name else target.exists()
            if not exists:
                missing.append(f"{doc.relative_to(ROOT)}: {written}")
    assert checked >= 30
    assert missing == []


def test_the_path_check_catches_a_missing_file(tmp_path: Path) -> None:
    beside = "../elsewhere/spec.yaml"  # escape-probe
    doc = tmp_path / "x.md"
    doc.write_text(f"See [the spec]({beside}) and `exa_orch/nothing_here.py`.")
    assert [w for w, t in named_paths(doc) if not t.exists()] == [beside, "exa_orch/nothing_here.py"]
