"""Settings read from the environment once, at start-up.

| variable              | meaning                                                   | default          |
|-----------------------|-----------------------------------------------------------|------------------|
| EXA_API_KEY           | Exa API key; required unless EXA_ORCH_SIMULATOR=1         | -                |
| EXA_ORCH_DB           | the SQLite file, or a postgresql:// URL (or --db)         | workflows.db in the per-user data directory (`default_db_path()`) |
| EXA_ORCH_EXA_URL      | Exa's base URL (a proxy, or `exa-orch sim`'s URL)         | https://api.exa.ai |
| EXA_ORCH_SIMULATOR    | 1: EXA_ORCH_EXA_URL is an `exa-orch sim` (no key needed)  | 0 (real Exa)     |
| EXA_ORCH_ARXIV_URL    | ArXiv Xplorer base URL for papers.search                  | the sim's /arxivxplorer when EXA_ORCH_SIMULATOR=1, else https://search.arxivxplorer.com |
| EXA_ORCH_TOOLS        | tool profile: manage_websets or toolhost                  | manage_websets   |
| EXA_ORCH_MAX_TASKS    | tasks working at once                                     | 20               |
| EXA_ORCH_CONCURRENCY  | Exa calls in flight at once                               | 3                |
| EXA_ORCH_RPS          | Exa requests per second, per endpoint family              | 10               |
| EXA_ORCH_MAX_AGENT_RUNS | agent runs active at Exa at once, for every server on the database | 50     |
| EXA_ORCH_MAX_RUNNING_WEBSETS | websets at work at once (when Exa's teams/me does not say) | 50     |
| EXA_ORCH_LOG_LEVEL    | log level (logs go to stderr)                             | INFO             |
| EXA_ORCH_HTTP_TOKEN   | bearer token required when --http binds beyond loopback   | -                |
| EXA_ORCH_HTTP_TOKENS  | named bearer tokens `alice=tok1,bob=tok2`; each name is a principal | -      |
| EXA_ORCH_HTTP_TOKENS_FILE | a file of `name=token` lines (`#` comments), same meaning | -             |
| EXA_ORCH_TASK_TTL     | seconds a finished task is kept when tasks.create gives no ttl | 3600        |
| EXA_ORCH_MAX_TASK_TTL | the longest ttl granted, in seconds (longer asks are clamped) | 86400        |
| EXA_ORCH_LEASE_TTL    | seconds a server's lease on a task lasts unrenewed (renewed every 2 s; at least 6): how long a stalled server's tasks wait before another takes them | 15 |
| EXA_ORCH_PRINCIPAL    | FOR TESTS ONLY: the local principal's name, instead of `user:<login>` | -      |
| EXA_ORCH_ENABLED_TOOLS | comma-separated tools to serve (of the profile's tools)  | all of them      |
| EXA_ORCH_VIEW_SECRET  | key of the view's sign-in cookies (16+ chars); unset, a new one each start (sign in again) | random per start |
| EXA_ORCH_HTTP_MAX_SESSIONS | MCP sessions open at once over HTTP; a full table refuses new ones (503) | 10000 |
| EXA_ORCH_HTTP_MAX_SESSIONS_PER_PRINCIPAL | MCP sessions one token's principal may hold at once (503 beyond) | 1000 |
| EXA_ORCH_IMPORT_DIRS  | folders (os.pathsep-separated, absolute) that clients over HTTP may import CSV files from by `path`; unset, HTTP path imports are refused (stdio clients read inside their own roots) | - |

Principals (who owns a task; see README "Who can see a task"): the local user `user:<login>` on
stdio and on HTTP without tokens; `token:<name>` for a named token over HTTP; the unnamed
EXA_ORCH_HTTP_TOKEN is `token:default`. Once any token is set, every HTTP request must present one.
"""

from __future__ import annotations

import getpass
import math
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import platformdirs

from exa_orch.errors import ConfigError

DEFAULT_EXA_URL = "https://api.exa.ai"
DEFAULT_ARXIV_URL = "https://search.arxivxplorer.com"
TOOL_PROFILES = ("manage_websets", "toolhost")
PROFILE_TOOLS: dict[str, tuple[str, ...]] = {
    "manage_websets": ("manage_websets",),
    "toolhost": ("websets-sync", "websets-async", "exa-sync", "exa-async"),
}
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


MIN_LEASE_TTL = 6.0  # three of the supervisor's 2-s heartbeats: one late renewal loses no lease


def _lease_ttl(env: Mapping[str, str]) -> float:
    """EXA_ORCH_LEASE_TTL: a shorter lease lets another server take a stalled one's tasks sooner,
    and asks the heartbeat to be on time; below three heartbeats a busy machine would lose leases."""
    value = _float(env, "EXA_ORCH_LEASE_TTL", 15.0)
    if value < MIN_LEASE_TTL:
        raise ConfigError(
            f"EXA_ORCH_LEASE_TTL must be at least {MIN_LEASE_TTL:g} s (three 2-s heartbeats), got {value:g}",
            hint="Set EXA_ORCH_LEASE_TTL=15 (the default) or more.",
        )
    return value


def _daily_budgets(env: Mapping[str, str]) -> tuple[tuple[str, float], ...]:
    """EXA_ORCH_DAILY_BUDGETS="alice=25,bob=5" as (name, dollars) pairs."""
    raw = env.get("EXA_ORCH_DAILY_BUDGETS", "").strip()
    out: list[tuple[str, float]] = []
    for part in filter(None, (p.strip() for p in raw.split(","))):
        name, _, amount = part.partition("=")
        try:
            value = float(amount)
        except ValueError:
            value = -1.0
        if not name.strip() or not math.isfinite(value) or value < 0:
            raise ConfigError(
                f"EXA_ORCH_DAILY_BUDGETS: {part!r} is not name=dollars",
                hint='Set it like EXA_ORCH_DAILY_BUDGETS="alice=25,bob=5" (dollars per UTC day).',
            )
        out.append((name.strip(), value))
    return tuple(out)


def _url(env: Mapping[str, str], name: str, default: str) -> str:
    url = (env.get(name, "").strip() or default).rstrip("/")
    if not url.lower().startswith(("http://", "https://")):
        raise ConfigError(
            f"{name} must be an http:// or https:// URL, got {url!r}",
            hint=f"Unset it for {default}, or give the full URL, e.g. http://127.0.0.1:PORT.",
        )
    return url


def db_target(raw: str) -> Path | str:
    """What `--db` or EXA_ORCH_DB names: a PostgreSQL URL as text (Path would fold its '//'), else a
    SQLite file, `~` expanded (client configs such as Claude Desktop's JSON pass it unexpanded)."""
    if raw.startswith(("postgresql://", "postgres://")):
        return raw
    if re.match(r"(?i)postgres(ql)?:", raw):  # meant as a URL, but not one: never an SQLite file
        raise ConfigError(
            f"--db / EXA_ORCH_DB starts like a PostgreSQL URL but is not one: {raw.split(':', 1)[0]}:...",
            hint="Write it as postgresql://USER[:PASSWORD]@HOST[:PORT]/DATABASE (lower-case, with '//').",
        )
    return Path(raw).expanduser()


def _db_path(env: Mapping[str, str]) -> Path | str:
    raw = env.get("EXA_ORCH_DB", "").strip()
    return db_target(raw) if raw else default_db_path()


def _flag(env: Mapping[str, str], name: str) -> bool:
    raw = env.get(name, "").strip().lower()
    if raw in ("", "0", "false", "no", "off"):
        return False
    if raw in ("1", "true", "yes", "on"):
        return True
    raise ConfigError(f"{name} must be 1 or 0, got {raw!r}", hint=f"Set {name}=1 or unset it.")


def _log_level(env: Mapping[str, str]) -> str:
    level = (env.get("EXA_ORCH_LOG_LEVEL", "").strip() or "INFO").upper()
    if level not in LOG_LEVELS:
        raise ConfigError(
            f"EXA_ORCH_LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, got {level!r}",
            hint="Set EXA_ORCH_LOG_LEVEL=INFO.",
        )
    return level


ENGINES = ("websets", "agent")


def _engine(env: Mapping[str, str]) -> str:
    engine = env.get("EXA_ORCH_ENGINE", "").strip().lower() or "websets"
    if engine not in ENGINES:
        raise ConfigError(
            f"EXA_ORCH_ENGINE must be one of {', '.join(ENGINES)}, got {engine!r}",
            hint="Set EXA_ORCH_ENGINE=websets (Exa's Websets) or EXA_ORCH_ENGINE=agent (its Agent API).",
        )
    return engine


def _enabled_tools(env: Mapping[str, str], profile: str) -> tuple[str, ...] | None:
    raw = env.get("EXA_ORCH_ENABLED_TOOLS", "").strip()
    if not raw:
        return None
    names = tuple(dict.fromkeys(n.strip() for n in raw.split(",") if n.strip()))
    known = PROFILE_TOOLS[profile]
    unknown = [n for n in names if n not in known]
    if unknown or not names:
        raise ConfigError(
            f"EXA_ORCH_ENABLED_TOOLS names tools the {profile!r} profile does not have: "
            f"{', '.join(repr(n) for n in unknown) or raw!r}",
            hint=f"Use a comma-separated subset of {', '.join(known)} (EXA_ORCH_TOOLS picks the profile), "
            "or unset it to serve them all.",
        )
    return names


def _import_dirs(env: Mapping[str, str]) -> tuple[str, ...]:
    """EXA_ORCH_IMPORT_DIRS: absolute folders, os.pathsep-separated; ConfigError naming one that
    is relative or not a folder (a typo would otherwise refuse every import, silently)."""
    dirs = tuple(d.strip() for d in env.get("EXA_ORCH_IMPORT_DIRS", "").split(os.pathsep) if d.strip())
    for folder in dirs:
        if not Path(folder).is_absolute() or not Path(folder).is_dir():
            raise ConfigError(
                f"EXA_ORCH_IMPORT_DIRS: {folder!r} is not {'a folder' if Path(folder).is_absolute() else 'absolute'}",
                hint=f"Name existing folders by their full paths, separated by {os.pathsep!r}; "
                "unset it to refuse path imports over HTTP.",
            )
    return dirs


DEFAULT_TOKEN_NAME = "default"  # the principal name of the unnamed EXA_ORCH_HTTP_TOKEN
_TOKEN_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._@-]{0,63}")


def local_principal() -> str:
    """`user:<login name>` of the user running this process (`user:uid<N>` if it has no name)."""
    try:
        return f"user:{getpass.getuser()}"
    except (KeyError, OSError):  # no USER/LOGNAME and no passwd entry (some containers)
        return f"user:uid{os.getuid()}"


def _token_pairs(text: str, where: str, separator: str) -> list[tuple[str, Secret]]:
    """`name=token` entries split by `separator`; ConfigError naming the entry (never the token)."""
    pairs: list[tuple[str, Secret]] = []
    for number, entry in enumerate(text.split(separator), start=1):
        entry = entry.strip()
        if not entry or entry.startswith("#"):
            continue
        name, eq, token = (part.strip() for part in entry.partition("="))
        if not eq or not token or not _TOKEN_NAME.fullmatch(name) or any(c.isspace() for c in token):
            shown = name if _TOKEN_NAME.fullmatch(name) else "?"
            raise ConfigError(
                f"{where}: entry {number} (name {shown!r}) is not `name=token`",
                hint="Give each token as name=token: the name is 1-64 letters, digits or ._@- "
                "(it names the principal that owns the tasks made with the token), the token has no spaces.",
            )
        pairs.append((name, Secret(token)))
    return pairs


def _http_tokens(env: Mapping[str, str]) -> tuple[tuple[str, Secret], ...]:
    pairs: list[tuple[str, Secret]] = []
    single = env.get("EXA_ORCH_HTTP_TOKEN", "").strip()
    if single:
        pairs.append((DEFAULT_TOKEN_NAME, Secret(single)))
    pairs += _token_pairs(env.get("EXA_ORCH_HTTP_TOKENS", ""), "EXA_ORCH_HTTP_TOKENS", ",")
    path = env.get("EXA_ORCH_HTTP_TOKENS_FILE", "").strip()
    if path:
        try:
            text = Path(path).read_text()
        except (OSError, UnicodeDecodeError) as exc:
            raise ConfigError(
                f"EXA_ORCH_HTTP_TOKENS_FILE: cannot read {path}: {getattr(exc, 'strerror', None) or exc}",
                hint="Point it at a readable text file of name=token lines, or unset it.",
            ) from None
        pairs += _token_pairs(text, f"EXA_ORCH_HTTP_TOKENS_FILE {path}", "\n")
    names = [name for name, _ in pairs]
    if len(set(names)) != len(names):
        twice = sorted({n for n in names if names.count(n) > 1})
        raise ConfigError(
            f"HTTP token name(s) {', '.join(twice)} given twice",
            hint=f"Each token needs its own name ('{DEFAULT_TOKEN_NAME}' is EXA_ORCH_HTTP_TOKEN's).",
        )
    if len({secret.reveal() for _, secret in pairs}) != len(pairs):
        raise ConfigError(
            "two HTTP token names share one token: a request could not tell which principal it is",
            hint="Give every name its own token.",
        )
    return tuple(pairs)


def _view_secret(env: Mapping[str, str]) -> Secret | None:
    raw = env.get("EXA_ORCH_VIEW_SECRET", "").strip()
    if not raw:
        return None
    if len(raw) < 16:
        raise ConfigError(
            f"EXA_ORCH_VIEW_SECRET must be at least 16 characters, got {len(raw)}",
            hint="Set it to a long random string, e.g. `python -c 'import secrets; print(secrets.token_hex(32))'`, "
            "or unset it for a new key at every start.",
        )
    return Secret(raw)


def _seconds(env: Mapping[str, str], name: str, default: int) -> int:
    return _int(env, name, default, minimum=1)


@dataclass(frozen=True)
class Settings:
    """Everything exa-orch reads from its environment. Build it with `Settings.from_env()`."""

    api_key: Secret | None = None
    db_path: Path | str = field(default_factory=default_db_path)  # a str for a postgresql:// URL
    exa_url: str = DEFAULT_EXA_URL
    simulator: bool = False
    """exa_url is an exa-orch simulator (said by `serve --sim` or EXA_ORCH_SIMULATOR=1, never
    guessed from the URL): the only case in which no key is needed and a made-up one is sent"""
    arxiv_url: str = DEFAULT_ARXIV_URL
    tools: str = "manage_websets"
    max_tasks: int = 20
    concurrency: int = 3
    max_agent_runs: int = 50
    max_running_websets: int = 50
    rps: float = 10.0
    log_level: str = "INFO"
    http_token: Secret | None = field(default=None)
    http_tokens: tuple[tuple[str, Secret], ...] = ()  # (name, token), EXA_ORCH_HTTP_TOKEN as 'default'
    task_ttl: int = 3600  # seconds
    max_task_ttl: int = 86_400  # seconds
    lease_ttl: float = 15.0  # seconds; the supervisor renews every 2 s
    principal: str = field(default_factory=local_principal)
    enabled_tools: tuple[str, ...] | None = None
    """the profile's tools to serve (seed 000 section 9.1 enabledTools); None serves them all"""
    http_max_sessions: int = 10_000
    """MCP sessions open at once over HTTP; while that many live, a new one is refused (503)"""
    http_max_sessions_per_principal: int = 1_000
    """MCP sessions one bearer token's principal may hold at once (so none can fill the table)"""
    view_key: Secret | None = None
    """the key of the view's sign-in cookies; None: a random one per start"""
    daily_budget_usd: float | None = None
    """EXA_ORCH_DAILY_BUDGET_USD: what each principal may spend at Exa per UTC day (None: no cap)"""
    daily_budgets: tuple[tuple[str, float], ...] = ()
    """EXA_ORCH_DAILY_BUDGETS="alice=25,bob=5": caps one principal at a time"""
    engine: str = "websets"
    """EXA_ORCH_ENGINE: the engine of a task whose args name none (a workflow that takes `engine`)"""
    import_dirs: tuple[str, ...] = ()
    """EXA_ORCH_IMPORT_DIRS: the server's folders a client over HTTP may import files from by path"""

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
        task_ttl = _seconds(env, "EXA_ORCH_TASK_TTL", 3600)
        max_task_ttl = _seconds(env, "EXA_ORCH_MAX_TASK_TTL", 86_400)
        if task_ttl > max_task_ttl:
            raise ConfigError(
                f"EXA_ORCH_TASK_TTL ({task_ttl} s) is longer than EXA_ORCH_MAX_TASK_TTL ({max_task_ttl} s)",
                hint="Lower EXA_ORCH_TASK_TTL or raise EXA_ORCH_MAX_TASK_TTL.",
            )
        principal = env.get("EXA_ORCH_PRINCIPAL", "").strip()
        exa_url = _url(env, "EXA_ORCH_EXA_URL", DEFAULT_EXA_URL)
        simulator = _flag(env, "EXA_ORCH_SIMULATOR")
        arxiv_default = f"{exa_url}/arxivxplorer" if simulator else DEFAULT_ARXIV_URL
        return cls(
            api_key=Secret(key) if key else None,
            db_path=_db_path(env),
            exa_url=exa_url,
            simulator=simulator,
            arxiv_url=_url(env, "EXA_ORCH_ARXIV_URL", arxiv_default),
            tools=tools,
            max_tasks=_int(env, "EXA_ORCH_MAX_TASKS", 20),
            concurrency=_int(env, "EXA_ORCH_CONCURRENCY", 3),
            max_agent_runs=_int(env, "EXA_ORCH_MAX_AGENT_RUNS", 50),
            max_running_websets=_int(env, "EXA_ORCH_MAX_RUNNING_WEBSETS", 50),
            rps=_float(env, "EXA_ORCH_RPS", 10.0),
            log_level=_log_level(env),
            http_token=Secret(token) if token else None,
            http_tokens=_http_tokens(env),
            task_ttl=task_ttl,
            max_task_ttl=max_task_ttl,
            lease_ttl=_lease_ttl(env),
            principal=principal or local_principal(),
            enabled_tools=_enabled_tools(env, tools),
            http_max_sessions=_int(env, "EXA_ORCH_HTTP_MAX_SESSIONS", 10_000),
            http_max_sessions_per_principal=_int(env, "EXA_ORCH_HTTP_MAX_SESSIONS_PER_PRINCIPAL", 1_000),
            view_key=_view_secret(env),
            daily_budget_usd=_float(env, "EXA_ORCH_DAILY_BUDGET_USD", 0.0) or None,
            daily_budgets=_daily_budgets(env),
            engine=_engine(env),
            import_dirs=_import_dirs(env),
        )

    @property
    def http_auth(self) -> bool:
        """True when HTTP requests must carry one of the configured bearer tokens."""
        return bool(self.http_tokens or self.http_token)

    def token_principals(self) -> dict[str, Secret]:
        """Principal name (`token:<name>`) -> its bearer token, for every configured HTTP token."""
        pairs = self.http_tokens
        if not pairs and self.http_token:  # a Settings built directly, not from the environment
            pairs = ((DEFAULT_TOKEN_NAME, self.http_token),)
        return {f"token:{name}": secret for name, secret in pairs}

    @property
    def uses_real_exa(self) -> bool:
        """True unless a simulator was said to be used (`serve --sim`, EXA_ORCH_SIMULATOR=1): any
        other URL (Exa, a company's proxy to it) may be Exa and is never sent a made-up key."""
        return not self.simulator

    def require_api_key(self) -> Secret:
        """The key to send to Exa. Only a simulator said to be one is sent a made-up key."""
        if self.api_key:
            return self.api_key
        if self.simulator:
            return Secret("sim-key")
        raise ConfigError(
            "EXA_API_KEY is not set: exa-orch needs an Exa API key to call Exa",
            hint="Set EXA_API_KEY in the server's environment (get one at dashboard.exa.ai), "
            "or run without a key against the built-in simulator: `exa-orch serve --sim` (or start "
            "`exa-orch sim` and set the EXA_ORCH_EXA_URL and EXA_ORCH_SIMULATOR=1 lines it prints).",
        )
