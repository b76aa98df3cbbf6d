"""The README stays true: its configuration table matches what exa-orch reads, its flags exist."""

from __future__ import annotations

import argparse
import re
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
