"""`python -m exa_orch.demo` (what `make demo` runs): a tour of exa-orch on a local database.

The demo is a list of steps run in order on one DemoContext; later features append theirs
(e.g. a research task on the built-in simulator) without changing the ones before. Today it
creates or updates `./demo.db` (or $EXA_ORCH_DEMO_DB) and prints the MAP-Elites archive through
the same code path as `exa-orch sql`. It is a CLI: it prints to stdout.
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from exa_orch.errors import OrchError
from exa_orch.store.admin import migrate_command, sql_command


@dataclass
class DemoContext:
    """What the steps share: the database path and anything a step leaves for the next."""

    db: Path
    notes: dict[str, Any] = field(default_factory=dict)


DemoStep = Callable[[DemoContext], Awaitable[None]]

ARCHIVE_QUERY = (
    "select cell, workflow_id, archetype, task_type, runs, fitness, coverage, diversity from v_archive"
)


def section(title: str) -> None:
    """Print a step heading."""
    print(f"\n== {title} ==", flush=True)


async def migrate(ctx: DemoContext) -> None:
    """Create the database (or bring it up to date)."""
    section(f"exa-orch db migrate --db {ctx.db}")
    await migrate_command(ctx.db)


async def show_archive(ctx: DemoContext) -> None:
    """Print the MAP-Elites archive: the best run of each cell."""
    section(f'exa-orch sql --db {ctx.db} "{ARCHIVE_QUERY}"')
    await sql_command(ctx.db, ARCHIVE_QUERY, as_json=False)


STEPS: list[DemoStep] = [migrate, show_archive]


async def run(db: Path, steps: list[DemoStep] | None = None) -> int:
    """Run the demo steps in order on `db`."""
    ctx = DemoContext(db=db)
    for step in steps or STEPS:
        await step(ctx)
    print(f"\nInspect it yourself: sqlite3 {ctx.db} 'select * from v_archive'")
    return 0


def main() -> int:
    """Entry point: run the demo, print errors as `error [CODE]: message`."""
    db = Path(os.environ.get("EXA_ORCH_DEMO_DB", "demo.db"))
    try:
        return asyncio.run(run(db))
    except OrchError as exc:
        print(f"error [{exc.code}]: {exc.message}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    raise SystemExit(main())
