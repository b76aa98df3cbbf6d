"""Settings read from the environment once, at start-up.

| variable              | meaning                                                   | default          |
|-----------------------|-----------------------------------------------------------|------------------|
| EXA_API_KEY           | Exa API key; required unless EXA_ORCH_EXA_URL is the sim  | -                |
| EXA_ORCH_DB           | the SQLite file (or --db)                                 | workflows.db in the per-user data directory (`default_db_path()`) |
| EXA_ORCH_EXA_URL      | Exa's base URL (point it at `exa-orch sim`)               | https://api.exa.ai |
| EXA_ORCH_ARXIV_URL    | ArXiv Xplorer base URL for papers.search                  | the sim's /arxivxplorer when EXA_ORCH_EXA_URL is a sim, else https://search.arxivxplorer.com |
| EXA_ORCH_TOOLS        | tool profile: manage_websets or toolhost                  | manage_websets   |
| EXA_ORCH_MAX_TASKS    | tasks working at once                                     | 20               |
| EXA_ORCH_CONCURRENCY  | Exa calls in flight at once                               | 3                |
| EXA_ORCH_RPS          | Exa requests per second, per endpoint family              | 10               |
| EXA_ORCH_LOG_LEVEL    | log level (logs go to stderr)                             | INFO             |
| EXA_ORCH_HTTP_TOKEN   | bearer token required when --http binds beyond loopback   | -                |
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import platformdirs

from exa_orch.errors import ConfigError

DEFAULT_EXA_URL = "https://api.exa.ai"
DEFAULT_ARXIV_URL = "https://search.arxivxplorer.com"
TOOL_PROFILES = ("manage_websets", "toolhost")
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
APP_NAME = "exa-orch"
DB_FILE = "workflows.db"


def data_dir() -> Path:
    """The per-user data directory exa-orch keeps its database in.

    Linux and other Unixes: `$XDG_DATA_HOME/exa-orch`, else `~/.local/share/exa-orch`; macOS:
    `~/Library/Application Support/exa-orch`; Windows: `%APPDATA%\\exa-orch`. Read from the process
    environment each call (not cached), so a test that points XDG_DATA_HOME elsewhere is obeyed.
    """
    # roaming=True is %APPDATA% on Windows (platformdirs' default would be %LOCALAPPDATA%).
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False, roaming=True))


def default_db_path() -> Path:
    """`workflows.db` in `data_dir()`: one absolute path whatever the working directory, so a server
    an MCP client starts from `/` (or a read-only directory) works, and two clients started from
    different directories share their tasks."""
    return data_dir() / DB_FILE


class Secret:
    """A string that never shows itself in repr, str or logs; `.reveal()` is the only way out."""

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        self._value = value

    def reveal(self) -> str:
        """The secret itself, for the one place that sends it (the gateway's request header)."""
        return self._value

    def __repr__(self) -> str:
        return "Secret('********')"

    __str__ = __repr__

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Secret) and other._value == self._value

    def __hash__(self) -> int:
        return hash(self._value)

    def __bool__(self) -> bool:
        return bool(self._value)


def _int(env: Mapping[str, str], name: str, default: int, minimum: int = 1) -> int:
    raw = env.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ConfigError(
            f"{name} must be a whole number, got {raw!r}", hint=f"Set {name}={default}."
        ) from None
    if value < minimum:
        raise ConfigError(f"{name} must be at least {minimum}, got {value}", hint=f"Set {name}={default}.")
    return value


def _float(env: Mapping[str, str], name: str, default: float) -> float:
    raw = env.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ConfigError(f"{name} must be a number, got {raw!r}", hint=f"Set {name}={default}.") from None
    if not math.isfinite(value) or value <= 0:
        raise ConfigError(f"{name} must be a positive number, got {raw!r}", hint=f"Set {name}={default}.")
    return value


def _url(env: Mapping[str, str], name: str, default: str) -> str:
    url = (env.get(name, "").strip() or default).rstrip("/")
    if not url.lower().startswith(("http://", "https://")):
        raise ConfigError(
            f"{name} must be an http:// or https:// URL, got {url!r}",
            hint=f"Unset it for {default}, or give the full URL, e.g. http://127.0.0.1:PORT.",
        )
    return url


def _db_path(env: Mapping[str, str]) -> Path:
    raw = env.get("EXA_ORCH_DB", "").strip()
    # `~` is expanded because client configs (Claude Desktop's JSON) pass env values unexpanded.
    return Path(raw).expanduser() if raw else default_db_path()


def _log_level(env: Mapping[str, str]) -> str:
    level = (env.get("EXA_ORCH_LOG_LEVEL", "").strip() or "INFO").upper()
    if level not in LOG_LEVELS:
        raise ConfigError(
            f"EXA_ORCH_LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, got {level!r}",
            hint="Set EXA_ORCH_LOG_LEVEL=INFO.",
        )
    return level


@dataclass(frozen=True)
class Settings:
    """Everything exa-orch reads from its environment. Build it with `Settings.from_env()`."""

    api_key: Secret | None = None
    db_path: Path = field(default_factory=default_db_path)
    exa_url: str = DEFAULT_EXA_URL
    arxiv_url: str = DEFAULT_ARXIV_URL
    tools: str = "manage_websets"
    max_tasks: int = 20
    concurrency: int = 3
    rps: float = 10.0
    log_level: str = "INFO"
    http_token: Secret | None = field(default=None)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        """Read the settings; raise ConfigError naming the variable that is wrong."""
        env = os.environ if env is None else env
        key = env.get("EXA_API_KEY", "").strip()
        tools = env.get("EXA_ORCH_TOOLS", "manage_websets").strip() or "manage_websets"
        if tools not in TOOL_PROFILES:
            raise ConfigError(
                f"EXA_ORCH_TOOLS must be one of {', '.join(TOOL_PROFILES)}, got {tools!r}",
                hint="Unset it for the default single 'manage_websets' tool.",
            )
        token = env.get("EXA_ORCH_HTTP_TOKEN", "").strip()
        exa_url = _url(env, "EXA_ORCH_EXA_URL", DEFAULT_EXA_URL)
        arxiv_default = DEFAULT_ARXIV_URL if exa_url == DEFAULT_EXA_URL else f"{exa_url}/arxivxplorer"
        return cls(
            api_key=Secret(key) if key else None,
            db_path=_db_path(env),
            exa_url=exa_url,
            arxiv_url=_url(env, "EXA_ORCH_ARXIV_URL", arxiv_default),
            tools=tools,
            max_tasks=_int(env, "EXA_ORCH_MAX_TASKS", 20),
            concurrency=_int(env, "EXA_ORCH_CONCURRENCY", 3),
            rps=_float(env, "EXA_ORCH_RPS", 10.0),
            log_level=_log_level(env),
            http_token=Secret(token) if token else None,
        )

    @property
    def uses_real_exa(self) -> bool:
        """True when calls go to Exa itself rather than a simulator on loopback."""
        return self.exa_url == DEFAULT_EXA_URL or "exa.ai" in self.exa_url

    def require_api_key(self) -> Secret:
        """The key to send to Exa. A simulator accepts any key, so one is made up for it."""
        if self.api_key:
            return self.api_key
        if not self.uses_real_exa:
            return Secret("sim-key")
        raise ConfigError(
            "EXA_API_KEY is not set: exa-orch needs an Exa API key to call Exa",
            hint="Set EXA_API_KEY in the server's environment (get one at dashboard.exa.ai), "
            "or run without a key against the built-in simulator: `exa-orch serve --sim` (or start "
            "`exa-orch sim` and set EXA_ORCH_EXA_URL to the URL it prints).",
        )
