"""`exa-orch --help` and each subcommand's help: what it does, an example, the variables it reads."""

from __future__ import annotations

import argparse
import re

import pytest

from exa_orch import config
from exa_orch.cli import build_parser
from exa_orch.cli_help import HELP, settings_variables


def _commands(parser: argparse.ArgumentParser, path: list[str]) -> list[list[str]]:
    """`path` and every subcommand under it, as the parser has them (a new one is checked too)."""
    out = [path]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                out += _commands(sub, [*path, name])
    return out


COMMANDS = _commands(build_parser(), [])
assert len(COMMANDS) >= 9, COMMANDS


def help_of(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as exited:
        build_parser().parse_args([*argv, "--help"])
    assert exited.value.code == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("argv", COMMANDS, ids=lambda a: " ".join(a) or "exa-orch")
def test_each_help_says_what_the_command_does_shows_an_example_and_its_variables(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    text = help_of(argv, capsys)
    spec = HELP[argv[-1] if argv else "exa-orch"]
    assert spec.description.splitlines()[0] in text
    examples = text.split("examples:\n", 1)[1]
    assert re.match(r"\s+(\S+=\S+ )?exa-orch ", examples), examples
    if argv not in (["sim"], ["eval"]):
        assert "EXA_ORCH_DB" in text.split("environment", 1)[1]


def test_serve_help_lists_every_variable_the_settings_read(capsys: pytest.CaptureFixture[str]) -> None:
    text = help_of(["serve"], capsys).split("environment", 1)[1]
    documented = re.findall(r"^\| (EXA_\w+) ", config.__doc__ or "", re.MULTILINE)
    assert len(documented) >= 15 and list(settings_variables()) == documented
    for name in [*documented, "EXA_ORCH_EXTRA_WORKFLOWS", "EXA_SIM_SPEED"]:
        assert re.search(rf"^  {name} +\S", text, re.MULTILINE), name  # with its meaning
    sim = help_of(["sim"], capsys)
    assert all(v in sim for v in ("EXA_SIM_SEED", "EXA_SIM_FAULT_RATE", "EXA_SIM_LATENCY_MS"))
