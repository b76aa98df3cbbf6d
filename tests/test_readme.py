"""The README stays true: its configuration table matches what exa-orch reads, its flags exist."""

from __future__ import annotations

import argparse
import os
import re
import shlex
import subprocess
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path

from exa_orch.cli import build_parser
from exa_orch.config import DEFAULT_ARXIV_URL, Settings
from exa_orch.workflows import loader

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()
ROW = re.compile(r"^\| `(EXA_[A-Z_]+)` \| (.*) \| (.*) \|$")

# The Settings field each variable sets (None: read elsewhere, or no plain default to compare).
FIELDS = {
    "EXA_API_KEY": "api_key",
    "EXA_ORCH_EXA_URL": "exa_url",
    "EXA_ORCH_ARXIV_URL": None,  # its default depends on EXA_ORCH_EXA_URL; checked below
    "EXA_ORCH_DB": "db_path",
    "EXA_ORCH_TOOLS": "tools",
    "EXA_ORCH_MAX_TASKS": "max_tasks",
    "EXA_ORCH_CONCURRENCY": "concurrency",
    "EXA_ORCH_RPS": "rps",
    "EXA_ORCH_LOG_LEVEL": "log_level",
    "EXA_ORCH_HTTP_TOKEN": "http_token",
    "EXA_ORCH_HTTP_TOKENS": None,  # unset: no named tokens
    "EXA_ORCH_HTTP_TOKENS_FILE": None,
    "EXA_ORCH_TASK_TTL": "task_ttl",
    "EXA_ORCH_MAX_TASK_TTL": "max_task_ttl",
    "EXA_ORCH_PRINCIPAL": None,  # defaults to user:<login>, which depends on who runs it
    "EXA_ORCH_ENABLED_TOOLS": None,  # None (all of the profile's tools) has no plain default to compare
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
        if value is None:
            assert cell in {"unset", "required for real Exa"}, (var, default)
        elif isinstance(value, Path):
            assert Path(cell) == value, (var, default)
        elif isinstance(value, int | float):
            assert float(cell) == value, (var, default)
        else:
            assert cell == value, (var, default)
    arxiv = table()["EXA_ORCH_ARXIV_URL"]
    assert f"`{DEFAULT_ARXIV_URL}`" in arxiv and "/arxivxplorer" in arxiv
    assert defaults.arxiv_url == DEFAULT_ARXIV_URL
    assert Settings.from_env({"EXA_ORCH_EXA_URL": "http://127.0.0.1:9"}).arxiv_url.endswith("/arxivxplorer")


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
NEEDS_TASKS = ("v_tasks", "task_events", "workflow_runs", "qd_elites", "runs > 0")


def test_the_sql_section_prints_what_the_readme_shows(tmp_path: Path) -> None:
    """The commands of the SQL section that need no tasks, run in order on a new ./workflows.db."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("EXA_API_KEY", "EXA_ORCH_"))}
    ran = 0
    for block in console_blocks():
        for command, expected in block:
            argv = shlex.split(command)
            if argv[0] != "exa-orch" or any(w in command for w in NEEDS_TASKS):
                continue  # sqlite3 is checked in tests/store; task rows and runs differ per run
            out = subprocess.run(
                [sys.executable, "-m", "exa_orch", *argv[1:]],
                capture_output=True,
                text=True,
                timeout=60,
                cwd=tmp_path,
                env=env,
            )
            assert (out.stdout + out.stderr).splitlines() == expected, command
            ran += 1
    assert ran >= 5


def test_make_bench_runs_all_three_benchmarks_even_when_one_misses_a_target(tmp_path: Path) -> None:
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
        timeout=60,
    )
    assert log.read_text().split() == ["bench/store.py", "bench/gateway.py", "bench/runtime.py"]
    assert out.returncode != 0  # the miss is still reported
