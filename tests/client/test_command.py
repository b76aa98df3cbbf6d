"""The child command is constrained (seed 004, Security): the exa-orch entry point serving stdio, or
what the host allowed explicitly; anything else is CommandNotAllowed before any process starts."""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

import pytest

from exa_orch.cli import build_parser
from exa_orch.client import CommandNotAllowed, ExaOrchClient, ExaOrchPool
from exa_orch.client.command import SERVE_FLAGS
from exa_orch.errors import ConfigError, ErrorCode, InvalidParams

from .conftest import REPO, child_env

INSTALLED = Path(sys.executable).parent / "exa-orch"  # what `pip install` put beside this Python


def refused(command: list[str], **kw: object) -> CommandNotAllowed:
    with pytest.raises(CommandNotAllowed) as caught:
        ExaOrchClient(command=command, **kw)  # type: ignore[arg-type]
    return caught.value


def test_the_entry_point_runs_by_the_absolute_path_the_host_resolved() -> None:
    default = ExaOrchClient().command
    assert default[1:] == ["-m", "exa_orch", "serve"] and os.path.samefile(default[0], sys.executable)
    flags = ["serve", "--db", "x.db", "--sim-speed=5", "--world", "w.json", "--sim"]
    assert ExaOrchClient(command=[sys.executable, "-m", "exa_orch", *flags]).command[3:] == flags
    # The installed command, named bare: found on the host's PATH or beside this Python, run by its
    # absolute path, so a PATH in the child's env cannot put another `exa-orch` in its place.
    installed = ExaOrchClient(command=["exa-orch", "serve"], env={"PATH": "/tmp"}).command
    assert os.path.isabs(installed[0]) and installed[1:] == ["serve"]
    assert ExaOrchClient(command=[str(INSTALLED), "serve"]).command == [str(INSTALLED), "serve"]


def test_any_other_program_or_subcommand_is_refused_with_a_typed_error(tmp_path: Path) -> None:
    shell = refused(["/bin/sh", "-c", "echo hi"])
    assert isinstance(shell, ConfigError) and shell.code is ErrorCode.CONFIG_ERROR
    assert "'/bin/sh' is not allowed" in str(shell) and "allowed_commands" in (shell.hint or "")

    assert "only as `-m exa_orch`" in str(refused([sys.executable, "-c", "import os"]))
    assert "must run `serve`" in str(refused([sys.executable, "-m", "exa_orch", "sim"]))
    assert "must run `serve`" in str(refused([str(INSTALLED)]))
    for flag in (["--http"], ["--port", "0"], ["--host=0.0.0.0"]):  # not stdio: the client can't speak to it
        assert "serve --" in str(refused([str(INSTALLED), "serve", *flag]))
    assert "needs a value" in str(refused([str(INSTALLED), "serve", "--db"]))
    assert "no such program" in str(refused(["no-such-exa-orch-program", "serve"]))
    with pytest.raises(CommandNotAllowed, match="list of arguments"):
        ExaOrchClient(command="exa-orch serve")  # type: ignore[arg-type]

    # A program called exa-orch is not the installed one for its name.
    impostor = tmp_path / "exa-orch"
    impostor.write_text("#!/bin/sh\nexit 0\n")
    impostor.chmod(impostor.stat().st_mode | stat.S_IXUSR)
    assert "not the installed exa-orch" in str(refused([str(impostor), "serve"]))


def test_the_host_allows_another_command_explicitly_by_prefix() -> None:
    wrapper = ["/bin/sh", "wrapper.sh"]
    assert ExaOrchClient(command=[*wrapper, "--x"], allowed_commands=[wrapper]).command == [*wrapper, "--x"]
    refused(["/bin/sh", "-c", "evil"], allowed_commands=[wrapper])  # the prefix, not the program alone
    with pytest.raises(CommandNotAllowed, match="non-empty lists of strings"):
        ExaOrchClient(command=wrapper, allowed_commands=["/bin/sh"])  # type: ignore[list-item]


def test_the_serve_flags_a_child_may_take_are_serves_own() -> None:
    parser = build_parser()
    serve = parser._subparsers._group_actions[0].choices["serve"]  # type: ignore[union-attr]
    known = {opt for action in serve._actions for opt in action.option_strings}
    assert set(SERVE_FLAGS) <= known
    assert {"--http", "--host", "--port"} <= known - set(SERVE_FLAGS)


def test_a_pool_checks_its_command_and_size_before_starting_anything(tmp_path: Path) -> None:
    with pytest.raises(CommandNotAllowed):
        ExaOrchPool(size=2, command=["/bin/sh", "-c", "true"])
    with pytest.raises(InvalidParams, match="a simulator of its own") as sim:
        ExaOrchPool(size=2, command=[sys.executable, "-m", "exa_orch", "serve", "--sim"])
    assert "exa-orch sim" in (sim.value.hint or "")
    for size in (0, -1):
        with pytest.raises(InvalidParams, match="size"):
            ExaOrchPool(size=size)


@pytest.mark.slow
async def test_the_installed_command_and_an_allowed_wrapper_both_serve(sim_url: str, tmp_path: Path) -> None:
    env = child_env(sim_url, tmp_path)
    async with ExaOrchClient(command=["exa-orch", "serve"], env=env, cwd=REPO) as client:
        assert await client.call("tasks.list", {"limit": 1}) == {"tasks": [], "nextCursor": None}
    wrapper = tmp_path / "wrapper.sh"
    wrapper.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m exa_orch serve\n')
    command = ["/bin/sh", str(wrapper)]
    async with ExaOrchClient(command=command, allowed_commands=[command], env=env, cwd=REPO) as client:
        assert await client.call("tasks.list", {"limit": 1}) == {"tasks": [], "nextCursor": None}
