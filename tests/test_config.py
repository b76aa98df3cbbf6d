"""Settings: read from the environment, validated, and never showing the key."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from exa_orch.config import DEFAULT_ARXIV_URL, Secret, Settings, data_dir, db_target, default_db_path
from exa_orch.errors import ConfigError, ErrorCode
from tests.support import WAIT


def test_defaults_when_environment_is_empty() -> None:
    settings = Settings.from_env({})
    assert settings.db_path == default_db_path()
    assert settings.db_path.is_absolute() and settings.db_path.name == "workflows.db"
    assert settings.exa_url == "https://api.exa.ai"
    assert settings.arxiv_url == DEFAULT_ARXIV_URL
    assert (settings.max_tasks, settings.concurrency, settings.tools) == (20, 3, "manage_websets")


def test_a_simulator_said_to_be_one_moves_the_arxiv_url_with_it() -> None:
    env = {"EXA_ORCH_EXA_URL": "http://127.0.0.1:9999/", "EXA_ORCH_SIMULATOR": "1"}
    settings = Settings.from_env(env)
    assert settings.exa_url == "http://127.0.0.1:9999"
    assert settings.arxiv_url == "http://127.0.0.1:9999/arxivxplorer"
    assert settings.simulator and not settings.uses_real_exa


@pytest.mark.parametrize(
    "url", ["http://127.0.0.1:9999", "https://exa-proxy.corp.example", "http://localhost:8080/exa"]
)
def test_a_url_alone_is_never_taken_for_a_simulator_and_no_key_is_made_up_for_it(url: str) -> None:
    settings = Settings.from_env({"EXA_ORCH_EXA_URL": url})
    assert settings.uses_real_exa and not settings.simulator
    assert settings.arxiv_url == DEFAULT_ARXIV_URL  # a proxy to Exa says nothing about ArXiv Xplorer
    with pytest.raises(ConfigError, match="EXA_API_KEY"):
        settings.require_api_key()


def test_the_simulator_setting_takes_only_yes_or_no() -> None:
    assert Settings.from_env({"EXA_ORCH_SIMULATOR": "0"}).simulator is False
    assert Settings.from_env({"EXA_ORCH_SIMULATOR": "true"}).simulator is True
    with pytest.raises(ConfigError, match="EXA_ORCH_SIMULATOR"):
        Settings.from_env({"EXA_ORCH_SIMULATOR": "maybe"})


def test_missing_key_against_real_exa_names_the_variable_and_the_simulator() -> None:
    with pytest.raises(ConfigError) as info:
        Settings.from_env({}).require_api_key()
    assert info.value.code is ErrorCode.CONFIG_ERROR
    assert "EXA_API_KEY" in info.value.message
    assert info.value.hint is not None and "exa-orch serve --sim" in info.value.hint


def test_simulator_needs_no_key() -> None:
    settings = Settings.from_env({"EXA_ORCH_EXA_URL": "http://127.0.0.1:1", "EXA_ORCH_SIMULATOR": "1"})
    assert settings.require_api_key().reveal()


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("EXA_ORCH_MAX_TASKS", "lots"),
        ("EXA_ORCH_MAX_TASKS", "0"),
        ("EXA_ORCH_RPS", "-1"),
        ("EXA_ORCH_RPS", "nan"),
        ("EXA_ORCH_RPS", "inf"),
        ("EXA_ORCH_LEASE_TTL", "5"),  # under three 2-s heartbeats
        ("EXA_ORCH_LEASE_TTL", "0"),
        ("EXA_ORCH_TOOLS", "all"),
        ("EXA_ORCH_LOG_LEVEL", "LOUD"),
        ("EXA_ORCH_ENGINE", "research"),
        ("EXA_ORCH_EXA_URL", "127.0.0.1:8080"),
        ("EXA_ORCH_ARXIV_URL", "ftp://example.com"),
    ],
)
def test_bad_values_are_refused_with_the_variable_named(name: str, value: str) -> None:
    with pytest.raises(ConfigError) as info:
        Settings.from_env({name: value})
    assert name in info.value.message


def test_key_never_shows_in_repr_or_str() -> None:
    key = "exa-secret-key-123456"
    settings = Settings.from_env({"EXA_API_KEY": key})
    assert key not in repr(settings)
    assert key not in str(settings.api_key)
    assert settings.api_key == Secret(key)
    assert settings.require_api_key().reveal() == key


def test_enabled_tools_narrow_the_profile_and_unknown_names_are_refused() -> None:
    env = {"EXA_ORCH_TOOLS": "toolhost", "EXA_ORCH_ENABLED_TOOLS": " exa-sync, exa-async ,exa-sync"}
    assert Settings.from_env(env).enabled_tools == ("exa-sync", "exa-async")
    assert Settings.from_env({}).enabled_tools is None
    with pytest.raises(ConfigError, match="EXA_ORCH_ENABLED_TOOLS") as bad:
        Settings.from_env({"EXA_ORCH_ENABLED_TOOLS": "exa-sync"})  # not a tool of manage_websets
    assert "manage_websets" in (bad.value.hint or "")


def test_import_dirs_are_absolute_folders_split_by_the_path_separator(tmp_path: Path) -> None:
    one, two = tmp_path / "one", tmp_path / "two"
    one.mkdir()
    two.mkdir()
    assert Settings.from_env({}).import_dirs == ()
    settings = Settings.from_env({"EXA_ORCH_IMPORT_DIRS": f"{one}{os.pathsep} {two}{os.pathsep}"})
    assert settings.import_dirs == (str(one), str(two))
    for wrong, said in (("relative/dir", "not absolute"), (str(tmp_path / "missing"), "not a folder")):
        with pytest.raises(ConfigError) as caught:
            Settings.from_env({"EXA_ORCH_IMPORT_DIRS": wrong})
        assert "EXA_ORCH_IMPORT_DIRS" in caught.value.message and said in caught.value.message


def test_the_test_session_never_touches_the_real_users_data_directory() -> None:
    # tests/conftest.py points XDG_DATA_HOME at a temporary directory for the whole session.
    assert Path(os.environ["XDG_DATA_HOME"]).name.startswith("exa-orch-test-data-")
    assert data_dir() == Path(os.environ["XDG_DATA_HOME"]) / "exa-orch"
    assert not default_db_path().is_relative_to(Path.home() / ".local")


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({"XDG_DATA_HOME": "/srv/data"}, "/srv/data/exa-orch/workflows.db"),
        ({"HOME": "/home/ada"}, "/home/ada/.local/share/exa-orch/workflows.db"),
        ({"HOME": "/home/ada", "EXA_ORCH_DB": "~/research.db"}, "/home/ada/research.db"),
        ({"HOME": "/home/ada", "EXA_ORCH_DB": "rel/w.db"}, "rel/w.db"),
    ],
)
def test_default_database_follows_xdg_then_home_unless_exa_orch_db_says(
    env: dict[str, str], expected: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # platformdirs reads the process environment at each call (data_dir caches nothing).
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    monkeypatch.delenv("EXA_ORCH_DB", raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert str(Settings.from_env().db_path) == expected


def test_servers_started_from_different_directories_share_one_default_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two clients spawning the server from different working directories (one of them /) reach
    the same file, so they see the same tasks: a fresh interpreter started in /, and this one
    moved into a project directory."""
    env = {k: v for k, v in os.environ.items() if k != "EXA_ORCH_DB"}
    from_root = subprocess.run(
        [sys.executable, "-c", "from exa_orch.config import Settings; print(Settings.from_env().db_path)"],
        env=env,
        cwd="/",
        capture_output=True,
        text=True,
        timeout=WAIT,
        check=True,
    ).stdout.strip()
    (tmp_path / "project").mkdir()
    monkeypatch.chdir(tmp_path / "project")
    monkeypatch.delenv("EXA_ORCH_DB", raising=False)
    assert {from_root, str(Settings.from_env().db_path)} == {str(default_db_path())}


@pytest.mark.parametrize(
    "raw", ["postgresql:exa@db/exa", "postgres:/db", "POSTGRESQL://u@h/d", "PostgreSQL://u@h/d"]
)
def test_a_database_that_starts_like_a_postgresql_url_but_is_not_one_is_refused(raw: str) -> None:
    # Not an SQLite file named 'postgresql:...' made in the working directory.
    with pytest.raises(ConfigError) as info:
        db_target(raw)
    assert "postgresql://" in (info.value.hint or "")


@pytest.mark.parametrize(
    ("raw", "expected"),
    [("postgresql://u@h/d", "postgresql://u@h/d"), ("postgres-backup.db", Path("postgres-backup.db"))],
)
def test_a_postgresql_url_or_a_file_named_like_one_is_taken_as_it_is(raw: str, expected: Path | str) -> None:
    assert db_target(raw) == expected


def test_exa_orch_engine_is_websets_unless_said() -> None:
    assert Settings.from_env({}).engine == "websets"
    assert Settings.from_env({"EXA_ORCH_ENGINE": " Agent "}).engine == "agent"
