"""`python -m exa_orch.demo` (what `make demo` runs): a tour of exa-orch on a local database.

The demo is a list of steps run in order on one DemoContext; later features append theirs
without changing the ones before. It creates or updates `demo.db` in the per-user data directory
(or $EXA_ORCH_DEMO_DB), starts the built-in Exa simulator and runs a research.deep task through
the same operations an agent calls (`tasks.create`, `tasks.get`, `tasks.result`), then a
qd.winnow task, shows the research task in `v_tasks`, the run it filed, and the MAP-Elites archive
those runs filled (through the same code path as `exa-orch sql`), and ends with the commands that
show all of it (`exa-orch tasks`, `exa-orch view`). No Exa key is needed. It is a CLI: it prints
to stdout.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from exa_orch.config import data_dir
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


RESEARCH_QUESTION = "Which European AI startups work on developer tools, and what do they build?"


def excerpt(value: Any, limit: int = 400) -> str:
    """`value` as compact JSON, cut to `limit` characters."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 3] + "..."


async def research_task(ctx: DemoContext) -> None:
    """Run a research.deep task (a research run on Exa's Agent API) on the simulator, as an agent would."""
    from exa_orch.app import open_app
    from exa_orch.config import Settings
    from exa_orch.sim.context import SimConfig
    from exa_orch.sim.testing import running_sim

    section("a research task on the built-in Exa simulator")
    async with running_sim(SimConfig(speed=50)) as sim:
        print(f"simulator: {sim.url}")
        settings = Settings.from_env({"EXA_ORCH_EXA_URL": sim.url, "EXA_ORCH_SIMULATOR": "1"})
        async with open_app(settings, ctx.db) as app:
            call = app.run_operation
            created = await call(
                "tasks.create",
                {"type": "research.deep", "instructions": RESEARCH_QUESTION, "timeout": 120_000},
            )
            task_id = created["taskId"]
            ctx.notes["task_id"] = task_id
            print(f"tasks.create   -> {task_id} ({created['status']}): research.deep, a durable task")
            seen = None
            while True:
                view = await call("tasks.get", {"taskId": task_id})
                progress = (view.get("progress") or {}).get("message")
                if (view["status"], progress) != seen:
                    seen = (view["status"], progress)
                    print(f"tasks.get      -> {view['status']}" + (f": {progress}" if progress else ""))
                if view["status"] in ("completed", "failed", "cancelled"):
                    break
                await asyncio.sleep(0.1)  # an agent polls tasks.get; the demo does the same
            result = await call("tasks.result", {"taskId": task_id})
            print(f"tasks.result   -> {excerpt(result.get('result') or result)}")
    query = f"select id, type, status, progress, steps from v_tasks where id = '{task_id}'"
    section(f'exa-orch sql --db {ctx.db} "{query}"')
    await sql_command(ctx.db, query, as_json=False)


WINNOW_CRITERIA = [
    {"description": "Is based in Europe"},
    {"description": "Has raised a Series A or later"},
    {"description": "Ships an open-source product"},
]
WINNOW = {
    "type": "qd.winnow",
    "query": "AI startups building developer tools",
    "entity": {"type": "company"},
    "criteria": WINNOW_CRITERIA,
    "enrichments": [{"description": "Number of employees", "format": "number"}],
    "count": 8,
    "maxRounds": 2,
}


async def winnow_task(ctx: DemoContext) -> None:
    """Run a qd.winnow task (MAP-Elites over websets: one elite per niche of criteria met)."""
    from exa_orch.app import open_app
    from exa_orch.config import Settings
    from exa_orch.sim.context import SimConfig
    from exa_orch.sim.testing import running_sim

    section("a qd.winnow task: the best company in each niche of three criteria")
    async with running_sim(SimConfig(speed=50)) as sim:
        settings = Settings.from_env({"EXA_ORCH_EXA_URL": sim.url, "EXA_ORCH_SIMULATOR": "1"})
        async with open_app(settings, ctx.db) as app:
            created = await app.run_operation("tasks.create", WINNOW)
            print(f"tasks.create   -> {created['taskId']}: qd.winnow over {len(WINNOW_CRITERIA)} criteria")
            assert app.supervisor is not None
            await app.supervisor.tasks.wait(created["taskId"], timeout=120)
            view = await app.run_operation("tasks.get", {"taskId": created["taskId"]})
            message = (view.get("progress") or {}).get("message")
            print(f"tasks.get      -> {view['status']}" + (f": {message}" if message else ""))


async def show_filed_run(ctx: DemoContext) -> None:
    """Print the archive run the research task filed when it finished."""
    query = (
        "select id, task_type, status, duration_ms, item_count, metrics from workflow_runs "
        f"where task_id = '{ctx.notes['task_id']}'"
    )
    section(f'exa-orch sql --db {ctx.db} "{query}"')
    await sql_command(ctx.db, query, as_json=False)


async def how_to_look(ctx: DemoContext) -> None:
    """Say how to look at what the demo ran: in the terminal, in a browser, in SQL."""
    section("look at what it ran")
    exe = ".venv/bin/exa-orch"
    print(f"{exe} tasks --db {ctx.db}      # the task list here (--watch: live)")
    print(f"{exe} view --db {ctx.db}       # in a browser: results, the archive, the niche grid")
    print(f'{exe} sql --db {ctx.db} "select * from v_tasks"')


STEPS: list[DemoStep] = [migrate, research_task, winnow_task, show_filed_run, show_archive, how_to_look]


async def run(db: Path, steps: list[DemoStep] | None = None) -> int:
    """Run the demo steps in order on `db`."""
    ctx = DemoContext(db=db)
    for step in steps or STEPS:
        await step(ctx)
    return 0


def main() -> int:
    """Entry point: run the demo, print errors as `error [CODE]: message`."""
    db = Path(os.environ.get("EXA_ORCH_DEMO_DB", "").strip() or data_dir() / "demo.db").expanduser()
    try:
        return asyncio.run(run(db))
    except OrchError as exc:
        print(f"error [{exc.code}]: {exc.message}", file=sys.stderr)
        if exc.hint:
            print(f"hint: {exc.hint}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    raise SystemExit(main())
