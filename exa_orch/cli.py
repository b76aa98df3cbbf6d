"""The `exa-orch` command: serve, sim, eval, db migrate, sql, view, tasks, export.

Each subcommand parses its flags here and hands off to the layer that owns the work; nothing in
this module talks to SQLite, Exa or MCP itself. Exit codes: 0 ok, 1 failed, 2 bad usage.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import hashlib
import logging
import math
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, NoReturn

from exa_orch import __version__, coldstart
from exa_orch.cli_help import HELP
from exa_orch.config import Settings, data_dir, db_target
from exa_orch.errors import InvalidParams, OrchError
from exa_orch.log import QUIET_LOGGERS, configure_logging
from exa_orch.store.records import TaskStatus

log = logging.getLogger("exa_orch.cli")


def _db_path(args: argparse.Namespace, settings: Settings) -> Path | str:
    if not args.db:
        return settings.db_path
    return db_target(str(args.db))


def _add_db_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--db",
        help="SQLite file or postgresql:// URL (default: $EXA_ORCH_DB, else workflows.db in the per-user data directory)",
    )


class _Parser(argparse.ArgumentParser):
    """argparse, with usage errors printed like every other error: `error [CODE]:` and a hint."""

    def error(self, message: str) -> NoReturn:
        self.exit(
            2,
            f"error [INVALID_PARAMS]: {message}\n"
            f"hint: {' '.join(self.format_usage().split())} (see `{self.prog} --help`)\n",
        )


def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number, got {text!r}") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"must be 0-65535 (0 picks a free port), got {port}")
    return port


STATUSES = tuple(s.value for s in TaskStatus)  # every status a task can have, for --status
MAX_TASKS_SHOWN = 10_000  # a bound the database's integers hold (PostgreSQL's LIMIT is a bigint)


def _tasks_shown(text: str) -> int:
    try:
        limit = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number, got {text!r}") from None
    if not 1 <= limit <= MAX_TASKS_SHOWN:
        raise argparse.ArgumentTypeError(f"must be 1-{MAX_TASKS_SHOWN}, got {limit}")
    return limit


def _finite(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number, got {text!r}") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"must be a finite number, got {text!r}")
    return value


# `serve --sim` is for trying exa-orch out: a research run then takes seconds rather than a minute.
SERVE_SIM_SPEED = 10.0


def _add_serve(sub: Any) -> None:  # `sub`: the parser's subparsers action
    serve = sub.add_parser(
        "serve", help="run the MCP server (stdio by default)", **HELP["serve"].parser_kwargs()
    )
    serve.add_argument("--http", action="store_true", help="serve streamable HTTP instead of stdio")
    serve.add_argument("--host", default="127.0.0.1", help="HTTP bind address (default 127.0.0.1)")
    serve.add_argument("--port", type=_port, default=8765, help="HTTP port (default 8765; 0 picks one)")
    serve.add_argument(
        "--sim",
        action="store_true",
        help="run the built-in Exa simulator in this process and use it (no API key needed)",
    )
    serve.add_argument(
        "--sim-speed",
        type=_finite,
        default=None,
        help=f"with --sim: simulated seconds per wall second (default $EXA_SIM_SPEED or {SERVE_SIM_SPEED:g})",
    )
    serve.add_argument("--world", default=None, help="with --sim: a world file (docs/simulator.md)")
    _add_db_flag(serve)


def _add_sim(sub: Any) -> None:
    sim = sub.add_parser(
        "sim", help="run the built-in Exa simulator on loopback", **HELP["sim"].parser_kwargs()
    )
    sim.add_argument("--host", default="127.0.0.1")
    sim.add_argument("--port", type=_port, default=0, help="port (default 0: pick a free one)")
    sim.add_argument("--seed", type=int, default=None, help="world seed (default 42, or $EXA_SIM_SEED)")
    sim.add_argument("--speed", type=_finite, default=None, help="time factor (default 1.0)")
    sim.add_argument(
        "--timing",
        choices=("real", "quick"),
        default=None,
        help="webset durations: real (default, as Exa's; docs/simulator.md) or quick (about half)",
    )
    sim.add_argument(
        "--world", default=None, help="a world file (JSON, docs/simulator.md) instead of --seed's"
    )
    sim.add_argument(
        "--fault-rate", type=_finite, default=None, help="share of requests answered with a fault"
    )
    sim.add_argument("--fault-kinds", default=None, help="comma list: 401,402,429,500,502,503,drop")
    sim.add_argument("--retry-after", type=_finite, default=None, help="Retry-After seconds on injected 429s")
    sim.add_argument("--latency-ms", type=_finite, default=None, help="added latency per request")


def _add_eval(sub: Any) -> None:
    ev = sub.add_parser(
        "eval",
        help="score the research workflows on golden worlds (entity resolution)",
        **HELP["eval"].parser_kwargs(),
    )
    ev.add_argument(
        "--profile",
        choices=("short", "full", "public"),
        default="short",
        help="worlds to run (default short); public: the resolver on FEBRL, Fodors-Zagats, DBLP-ACM",
    )
    ev.add_argument("--world", action="append", default=None, help="a world file to run instead (repeatable)")
    ev.add_argument("--json", action="store_true", help="print the report as JSON")
    ev.add_argument(
        "--verbose", action="store_true", help="list every pair the resolver missed, with why it stayed apart"
    )
    ev.add_argument(
        "--baseline",
        default=None,
        help="a report to compare with: exit 1 on a drop of 0.05 F1 or a false merge",
    )
    ev.add_argument(
        "--resolver-only",
        action="store_true",
        help="score the entity resolver alone on every page, both engines' items (seconds, no workflow run)",
    )


def _add_store_commands(sub: Any) -> None:
    """`db migrate` and `sql`: the database's own commands."""
    db = sub.add_parser("db", help="database maintenance", **HELP["db"].parser_kwargs())
    db_sub = db.add_subparsers(dest="db_command", required=True)
    migrate = db_sub.add_parser(
        "migrate", help="create the database or bring it up to date", **HELP["migrate"].parser_kwargs()
    )
    _add_db_flag(migrate)

    sql = sub.add_parser(
        "sql", help="run a read-only SQL query and print the rows", **HELP["sql"].parser_kwargs()
    )
    sql.add_argument("query", help="one SELECT (or other read-only) statement")
    sql.add_argument("--json", action="store_true", help="print JSON rows instead of a table")
    sql.add_argument(
        "--all-owners",
        action="store_true",
        help="every principal's entity memory (default: the local user's)",
    )
    _add_db_flag(sql)


def _add_view_commands(sub: Any) -> None:
    """`view` (the web view) and `tasks` (the terminal list): the read-only views."""
    view = sub.add_parser(
        "view", help="serve a read-only web view of tasks and the archive", **HELP["view"].parser_kwargs()
    )
    view.add_argument("--host", default="127.0.0.1", help="bind address (default 127.0.0.1)")
    view.add_argument("--port", type=_port, default=8766, help="port (default 8766; 0 picks one)")
    view.add_argument(
        "--all-owners",
        action="store_true",
        help="operator mode: show every principal's tasks (default: only the caller's)",
    )
    _add_db_flag(view)

    tasks = sub.add_parser(
        "tasks", help="list tasks with progress bars (--watch: live)", **HELP["tasks"].parser_kwargs()
    )
    tasks.add_argument("--watch", action="store_true", help="redraw until Ctrl-C")
    tasks.add_argument("--interval", type=_finite, default=1.0, help="seconds between redraws (default 1)")
    tasks.add_argument("--limit", type=_tasks_shown, default=50, help="newest tasks shown (default 50)")
    tasks.add_argument("--status", choices=STATUSES, help="only this status")
    tasks.add_argument("--type", help="only this task type (e.g. qd.winnow)")
    tasks.add_argument("--search", metavar="TEXT", help="only tasks whose title or id holds TEXT (any case)")
    tasks.add_argument(
        "--all-owners", action="store_true", help="every principal's tasks (default: the local user's)"
    )
    _add_db_flag(tasks)


def _add_export(sub: Any) -> None:
    export = sub.add_parser(
        "export",
        help="write a finished task's result as CSV, JSON Lines or Markdown",
        **HELP["export"].parser_kwargs(),
    )
    export.add_argument("task_id", metavar="TASK_ID", help="the task's id (task_<uuid4>)")
    export.add_argument("--format", choices=("csv", "jsonl", "md"), default="csv", help="default csv")
    export.add_argument("--out", metavar="FILE", help="write to FILE (default: stdout)")
    _add_db_flag(export)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser for every subcommand (one `_add_*` function per command or family)."""
    parser = _Parser(prog="exa-orch", **HELP["exa-orch"].parser_kwargs())
    parser.add_argument("--version", action="version", version=f"exa-orch {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    for add in (_add_serve, _add_sim, _add_eval, _add_store_commands, _add_view_commands, _add_export):
        add(sub)
    return parser


def sim_account_path(db_path: Path | str) -> Path:
    """Where `serve --sim` keeps its simulator's account: beside an SQLite database
    (`workflows.db.sim-account`), else (PostgreSQL) in the data directory, named by the URL."""
    if isinstance(db_path, Path):
        return db_path.with_name(db_path.name + ".sim-account")
    digest = hashlib.sha256(db_path.encode()).hexdigest()[:16]
    return data_dir() / f"sim-account-{digest}"


@contextlib.contextmanager
def _simulator(args: argparse.Namespace, db_path: Path | str) -> Iterator[str | None]:
    """With `serve --sim`: the built-in simulator on 127.0.0.1:<free port> in a thread of this
    process for the duration of the block (started at its first request), yielding its URL; else
    None. Its account is kept in
    `sim_account_path(db_path)`, so a restarted server finds the websets its tasks made."""
    if not args.sim:
        yield None
        return
    from exa_orch.sim.server import config_from
    from exa_orch.sim.testing import SimOnDemand

    try:
        config = config_from(argparse.Namespace(speed=args.sim_speed, world=args.world))
    except ValueError as exc:
        raise InvalidParams(str(exc), hint="Fix or unset the EXA_SIM_* variable it names.") from None
    if args.sim_speed is None and not os.environ.get("EXA_SIM_SPEED", "").strip():
        config = dataclasses.replace(config, speed=SERVE_SIM_SPEED)
    config = dataclasses.replace(config, account_file=str(sim_account_path(db_path)))
    if config.world_file:
        from exa_orch.sim.world import World

        try:  # refused here, with the file's problem, rather than inside the simulator's thread
            World.from_file(config.world_file)
        except ValueError as exc:
            raise InvalidParams(str(exc), hint="See docs/simulator.md for the world file format.") from None
    with SimOnDemand(config) as sim:  # started at the first request: a cold start pays nothing for it
        log.info("exa simulator (--sim) on %s, speed %g: no Exa key is used", sim.url, config.speed)
        yield sim.url


@contextlib.contextmanager
def _logging(level: str) -> Iterator[None]:
    """exa-orch's stderr logging (configure_logging) for one command, on the sys.stderr of the
    moment; afterwards the root logger's handlers and the levels it set are as they were. So
    main() called in a process that goes on (a test, a program embedding the CLI) leaves no
    handler behind writing to a stream it does not own, and each call logs where it prints."""
    root = logging.getLogger()
    handlers = {h: h.level for h in root.handlers}
    levels = {name: logging.getLogger(name).level for name in ("", *QUIET_LOGGERS)}
    configure_logging(level)
    try:
        yield
    finally:
        for handler in root.handlers[:]:
            if handler not in handlers:
                root.removeHandler(handler)
                handler.close()
        for handler, handler_level in handlers.items():
            handler.setLevel(handler_level)
        for name, logger_level in levels.items():
            logging.getLogger(name).setLevel(logger_level)


def main(argv: Sequence[str] | None = None) -> int:
    """Run one subcommand; print errors to stderr as `error [CODE]: message`.

    As the process's entry point (`argv` None: the command line), the garbage collector is paused
    while the command imports what it needs (`coldstart`); a caller in its own process (a test)
    passes `argv` and keeps its collector as it is."""
    if argv is None:
        coldstart.pause()
    try:
        return _main(argv)
    finally:
        coldstart.ready()  # where the command did not say it was ready (or failed first)


def _main(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "sim_speed", None) is not None and not args.sim:
        parser.error("serve --sim-speed needs --sim")
    if getattr(args, "world", None) is not None and args.command == "serve" and not args.sim:
        parser.error("serve --world needs --sim")
    try:
        settings = Settings.from_env()
        with _logging(settings.log_level):
            return _dispatch(args, settings)
    except OrchError as exc:
        print(f"error [{exc.code}]: {exc.message}", file=sys.stderr)
        if exc.hint:
            print(f"hint: {exc.hint}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (`exa-orch sql ... | head`): stop quietly, as other Unix tools do.
        # Python would flush stdout again at exit and fail there, so point it at /dev/null first.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141  # 128 + SIGPIPE: what a shell reports for a command stopped by a closed pipe


def _without_httpx_cli() -> None:
    """Keep httpx from importing its command-line tool, which it does on import whenever click and
    rich are installed (rich is ours): ~50 ms of a cold start (bench/startup.py) for a tool the
    server never runs. httpx then defines a `main` that says its CLI extras are missing."""
    if "httpx" not in sys.modules:
        sys.modules.setdefault("httpx._main", None)  # type: ignore[arg-type]


def _run_serve(args: argparse.Namespace, settings: Settings) -> int:
    """`exa-orch serve`: the MCP server until stdin closes or a signal stops it; with --sim, on
    the built-in simulator. What can be refused (extra workflows, an unsafe bind) is refused first."""
    _without_httpx_cli()
    from exa_orch.net import require_token_beyond_loopback
    from exa_orch.workflows import load_extra_workflows

    # A bad setting is refused before the MCP machinery (most of a start's CPU) is imported.
    extra = load_extra_workflows(os.environ)  # task types a deployment (or a test) adds
    # Absolute, so the start-up log line (`exa-orch app ready: db=...`) says where the data is.
    db = _db_path(args, settings)
    db_path = db if isinstance(db, str) else db.absolute()  # a postgresql:// URL stays as given
    if args.http:  # an unsafe bind is refused before a simulator starts
        require_token_beyond_loopback(settings, args.host, "MCP over HTTP")
    from exa_orch.mcp.transport import serve

    with _simulator(args, db_path) as sim_url:
        if sim_url is not None:
            settings = dataclasses.replace(
                settings,
                exa_url=sim_url,
                arxiv_url=f"{sim_url}/arxivxplorer",
                api_key=None,
                simulator=True,
            )
        return serve(
            settings,
            db_path=db_path,
            http=args.http,
            host=args.host,
            port=args.port,
            extra_workflows=extra,
        )


def _run_sim(args: argparse.Namespace, settings: Settings) -> int:
    from exa_orch.sim.server import run_sim

    coldstart.ready()  # the long-running commands collect garbage as they go
    return run_sim(args)


def _run_eval(args: argparse.Namespace, settings: Settings) -> int:
    from exa_orch.evals import run as run_eval

    coldstart.ready()
    return run_eval(
        args.profile,
        [Path(w) for w in args.world] if args.world else None,
        as_json=args.json,
        baseline=Path(args.baseline) if args.baseline else None,
        verbose=args.verbose,
        resolver_only=args.resolver_only,
    )


def _run_db(args: argparse.Namespace, settings: Settings) -> int:
    from exa_orch.store.admin import migrate_command

    return asyncio.run(migrate_command(_db_path(args, settings)))


def _run_sql(args: argparse.Namespace, settings: Settings) -> int:
    from exa_orch.store.admin import sql_command

    viewer = "*" if args.all_owners else settings.principal  # store/viewer.py
    return asyncio.run(sql_command(_db_path(args, settings), args.query, as_json=args.json, viewer=viewer))


def _run_view(args: argparse.Namespace, settings: Settings) -> int:
    from exa_orch.view.server import run_view

    coldstart.ready()
    return run_view(
        settings,
        db_path=_db_path(args, settings),
        host=args.host,
        port=args.port,
        all_owners=args.all_owners,
    )


def _run_tasks(args: argparse.Namespace, settings: Settings) -> int:
    from exa_orch.runtime import local_principal
    from exa_orch.view.data import Viewer
    from exa_orch.view.terminal import show_tasks

    coldstart.ready()

    viewer = Viewer.all_owners() if args.all_owners else Viewer(local_principal(settings))

    return asyncio.run(
        show_tasks(
            _db_path(args, settings),
            viewer,
            watch=args.watch,
            interval=max(0.1, args.interval),
            limit=args.limit,
            status=args.status,
            type=args.type,
            text=args.search,
        )
    )


def _run_export(args: argparse.Namespace, settings: Settings) -> int:
    from exa_orch.operations.export import export_command
    from exa_orch.runtime import local_principal

    return asyncio.run(
        export_command(
            _db_path(args, settings), args.task_id, args.format, args.out, local_principal(settings)
        )
    )


# Each subcommand's runner; each imports what it needs when it runs (a cold start pays for one).
_COMMANDS: dict[str, Callable[[argparse.Namespace, Settings], int]] = {
    "serve": _run_serve,
    "sim": _run_sim,
    "eval": _run_eval,
    "db": _run_db,
    "sql": _run_sql,
    "view": _run_view,
    "tasks": _run_tasks,
    "export": _run_export,
}


def _dispatch(args: argparse.Namespace, settings: Settings) -> int:
    """Run the parsed subcommand (`_COMMANDS`)."""
    run = _COMMANDS.get(args.command)
    if run is None:
        raise AssertionError(f"unhandled command {args.command}")
    return run(args, settings)
