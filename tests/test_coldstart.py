"""The entry point pauses the garbage collector while a command starts (exa_orch/coldstart.py):
on again, with the start's objects frozen, once the command is set up; untouched for a caller
that runs `main(argv)` in its own process."""

from __future__ import annotations

import argparse
import gc
import json
import subprocess
import sys
from pathlib import Path

import pytest

from exa_orch import cli
from exa_orch.config import Settings
from tests.support import WAIT

# Runs `exa-orch <argv>` as the process's entry point, with a spy where the command starts work.
PROBE = """
import gc, json, sys
import pytest

from exa_orch import cli
from exa_orch.config import Settings
from exa_orch.mcp import transport

seen = []
dispatch = cli._dispatch

def spy_dispatch(args, settings):
    seen.append(("dispatch", gc.isenabled()))
    return dispatch(args, settings)

async def spy_stdio(server, stop):  # the server is built: it would answer from here on
    seen.append(("serving", gc.isenabled(), gc.get_freeze_count() > 0))

cli._dispatch = spy_dispatch
transport._serve_stdio = spy_stdio
sys.argv = ["exa-orch", *json.loads(sys.argv[1])]
code = cli.main()
print(json.dumps({"code": code, "seen": seen, "enabled": gc.isenabled()}))
"""


def probe(tmp_path: Path, *argv: str) -> dict[str, object]:
    out = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(argv)],
        capture_output=True, text=True, timeout=WAIT, cwd=tmp_path,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr[-2000:]
    result: dict[str, object] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def test_serve_starts_without_the_collector_and_serves_with_it(tmp_path: Path) -> None:
    got = probe(tmp_path, "serve", "--db", str(tmp_path / "w.db"))
    assert got == {"code": 0, "seen": [["dispatch", False], ["serving", True, True]], "enabled": True}


def test_a_short_command_runs_paused_and_leaves_the_collector_on(tmp_path: Path) -> None:
    got = probe(tmp_path, "db", "migrate", "--db", str(tmp_path / "w.db"))
    assert got == {"code": 0, "seen": [["dispatch", False]], "enabled": True}


def test_main_given_argv_leaves_the_callers_collector_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[bool] = []
    dispatch = cli._dispatch

    def spy(args: argparse.Namespace, settings: Settings) -> int:
        seen.append(gc.isenabled())
        return dispatch(args, settings)

    froze: list[bool] = []
    monkeypatch.setattr(cli, "_dispatch", spy)
    monkeypatch.setattr(gc, "freeze", lambda: froze.append(True))
    assert cli.main(["db", "migrate", "--db", str(tmp_path / "w.db")]) == 0
    assert seen == [True] and gc.isenabled() and froze == []
