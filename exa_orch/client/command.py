"""Which program the host client may start (seed 004, Security: constrain the child's binary and
arguments).

Without the host's say-so a child is the exa-orch entry point serving stdio: this process's own
Python running `-m exa_orch serve`, or the installed `exa-orch serve` (the one beside this Python,
else the one on the host's PATH), with only the `serve` flags that keep it a stdio server. The program
is resolved here, on the host, and run by its absolute path, so the child's own PATH (its `env`) can
not swap it. Anything else runs only when the host lists it in `allowed_commands`.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

from exa_orch.client.errors import CommandNotAllowed

ENTRY_MODULE = "exa_orch"
ENTRY_SCRIPT = "exa-orch"
# `serve`'s flags a stdio child may take (exa_orch/cli.py), and whether each takes a value.
# --http, --host and --port are left out: the client speaks MCP over the child's stdin/stdout.
SERVE_FLAGS = {"--db": True, "--sim": False, "--sim-speed": True, "--world": True}


def default_command() -> list[str]:
    """`python -m exa_orch serve` with the Python running this host (it has exa_orch: it imports it)."""
    return [sys.executable, "-m", ENTRY_MODULE, "serve"]


def child_command(command: Sequence[str] | None, allowed: Iterable[Sequence[str]] = ()) -> list[str]:
    """The argv to start: `command` (default: `default_command()`) checked, its program made absolute.

    A command the host allowed (it begins with one of `allowed`, compared item by item) is returned
    as given. Otherwise it must be the exa-orch entry point serving stdio; raises CommandNotAllowed.
    """
    if isinstance(command, str):
        raise CommandNotAllowed(
            "command must be a list of arguments, not one string",
            hint='Write command=["exa-orch", "serve"], not command="exa-orch serve".',
        )
    argv = list(command) if command else default_command()
    prefixes = [_prefix(entry) for entry in allowed]
    if any(argv[: len(p)] == p for p in prefixes):
        return argv
    program, rest = _entry_point(argv)
    _check_serve_args(rest)
    return [program, *argv[1:]]


def _prefix(entry: Sequence[str]) -> list[str]:
    if isinstance(entry, str) or not entry or not all(isinstance(a, str) for a in entry):
        raise CommandNotAllowed(
            f"allowed_commands entries are non-empty lists of strings, got {entry!r}",
            hint='Write allowed_commands=[["/opt/bin/my-wrapper"]] to allow that program with any arguments.',
        )
    return list(entry)


def _entry_point(argv: list[str]) -> tuple[str, list[str]]:
    """(the absolute program, the arguments after the entry point), or CommandNotAllowed."""
    name = argv[0]
    program = _resolve(name)
    if program is not None and _same(program, sys.executable):
        if argv[1:3] == ["-m", ENTRY_MODULE]:
            return program, argv[3:]
        raise _refused(name, "this Python runs exa-orch only as `-m exa_orch`")
    if os.path.basename(name) == ENTRY_SCRIPT and program is not None:
        installed = [Path(sys.executable).parent / ENTRY_SCRIPT, shutil.which(ENTRY_SCRIPT)]
        if any(p is not None and _same(program, os.fspath(p)) for p in installed):
            return program, argv[1:]
        raise _refused(name, "it is not the installed exa-orch (beside this Python, or on PATH)")
    if program is None:
        raise _refused(name, "no such program (not found on the host's PATH)")
    raise _refused(name, "it is not the exa-orch entry point")


def _check_serve_args(rest: list[str]) -> None:
    if not rest or rest[0] != "serve":
        raise CommandNotAllowed(
            f"command: the exa-orch child must run `serve` (the stdio MCP server), not {rest[:1]}",
            hint='Write [..., "serve"] after the entry point; settings go in env={...}.',
        )
    args = iter(rest[1:])
    for arg in args:
        flag = arg.split("=", 1)[0]
        if flag not in SERVE_FLAGS:
            raise CommandNotAllowed(
                f"command: `serve {flag}` is not allowed for a host client's child (it serves MCP over stdio)",
                hint=f"Use only {', '.join(sorted(SERVE_FLAGS))}; settings go in env={{...}}.",
            )
        if SERVE_FLAGS[flag] and "=" not in arg and next(args, None) is None:
            raise CommandNotAllowed(f"command: `serve {flag}` needs a value", hint=f"Write {flag} VALUE.")


def _resolve(name: str) -> str | None:
    """`name` as an absolute path. A bare name is looked up on the host's PATH; bare `exa-orch` first
    beside this Python (a venv's own, which the host's PATH may not name)."""
    if os.sep in name:
        found: str | None = name if os.path.exists(name) else None
    elif name == ENTRY_SCRIPT and os.path.exists(beside := Path(sys.executable).parent / ENTRY_SCRIPT):
        found = os.fspath(beside)
    else:
        found = shutil.which(name)
    return os.path.abspath(found) if found else None


def _same(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def _refused(program: str, why: str) -> CommandNotAllowed:
    return CommandNotAllowed(
        f"command: {program!r} is not allowed as the exa-orch child: {why}",
        hint="Leave command unset (this Python's `-m exa_orch serve`), or run the installed "
        '`["exa-orch", "serve"]`; to run another program the host must allow it: '
        'allowed_commands=[["/path/to/program"]].',
    )
