"""`exa-orch tasks`: the task list in a terminal, once or live (`--watch`), drawn with rich.

Reads the database (SQLite or PostgreSQL) read-only through `ViewDB`, like the web view. Printing
goes to stdout (this is a query command, like `exa-orch sql`); when stdout is not a terminal rich
prints plain text.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
from pathlib import Path
from typing import Any

from rich import box
from rich.console import Console
from rich.live import Live
from rich.progress_bar import ProgressBar
from rich.table import Table
from rich.text import Text

from exa_orch.view.data import ViewDB, Viewer, age_text

STATUS_STYLE = {
    "pending": "yellow",
    "working": "bold blue",
    "completed": "green",
    "failed": "bold red",
    "cancelled": "dim",
}


def _bar(task: dict[str, Any]) -> Table | Text:
    completed, total = task["completed"], task["total"]
    count = ""
    if completed is not None:
        count = f" {completed}/{total}" if total is not None else f" {completed}"
    if task["fraction"] is None:
        return Text(count.strip() or "-", style="dim")
    cell = Table.grid(padding=(0, 1))
    cell.add_row(
        ProgressBar(total=1.0, completed=task["fraction"], width=8),
        Text(f"{round(task['fraction'] * 100)}%{count}", style="dim"),
    )
    return cell


def tasks_table(
    tasks: list[dict[str, Any]], *, has_owner: bool, title: str | None = None, empty: str = "no tasks"
) -> Table:
    """The tasks as a rich Table: id, type, status, progress bar, phase and message, age (and owner);
    `empty` is its caption when there are none."""
    table = Table(title=title, box=box.SIMPLE_HEAD, pad_edge=False, header_style="bold")
    # Minimum widths keep the short columns readable on an 80-column terminal (or a pipe, which
    # rich takes as 80 wide); the task id and the message fold onto more lines instead.
    table.add_column("task", overflow="fold", min_width=13)
    table.add_column("type", overflow="fold", min_width=8)
    table.add_column("status", no_wrap=True, min_width=9)
    table.add_column("progress", no_wrap=True, min_width=15)
    table.add_column("phase: message", overflow="fold", ratio=1, min_width=8)
    table.add_column("age", no_wrap=True, min_width=4)
    if has_owner:
        table.add_column("owner", overflow="fold", min_width=6)
    for t in tasks:
        message = (t["message"] or t["error_message"] or "")[:120]
        row: list[Any] = [
            t["id"],
            t["type"],
            Text(t["status"], style=STATUS_STYLE.get(t["status"], "")),
            _bar(t),
            # Text, not markup: a message like "[bold]" is shown as it is.
            Text.assemble((f"{t['phase']}: " if t["phase"] else "", "bold"), message),
            age_text(t["age"]),
        ]
        if has_owner:
            row.append(t["owner"] or "")
        table.add_row(*(Text(c) if isinstance(c, str) else c for c in row))
    if not tasks:
        table.caption = empty
    return table


async def show_tasks(
    db_path: Path | str,
    viewer: Viewer,
    *,
    console: Console | None = None,
    watch: bool = False,
    interval: float = 1.0,
    limit: int = 50,
    status: str | None = None,
    rounds: int | None = None,
) -> int:
    """Print the tasks `viewer` may see once, or redraw them every `interval` s until interrupted
    (`rounds`: stop after that many redraws, for tests). Returns 0."""
    console = console or Console()
    async with ViewDB(db_path) as db:
        tasks = await db.tasks(viewer, limit=limit, status=status)
        title = f"exa-orch tasks in {db.where}"
        empty = _empty_caption(viewer, db.has_owner)
        if not watch:
            console.print(tasks_table(tasks, has_owner=db.has_owner, title=title, empty=empty))
            return 0
        drawn = 1
        # SIGTERM ends the watch as Ctrl-C does: Live's exit shows the cursor again and prints the
        # last table (a pipe gets it only then), and the command exits 0. Set before the first draw.
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        with contextlib.suppress(NotImplementedError, RuntimeError):  # no signals off the main thread
            loop.add_signal_handler(signal.SIGTERM, stop.set)
        try:
            with Live(
                tasks_table(tasks, has_owner=db.has_owner, title=title, empty=empty),
                console=console,
                auto_refresh=False,
                transient=False,
            ) as live:
                live.refresh()
                while rounds is None or drawn < rounds:
                    with contextlib.suppress(TimeoutError):  # the redraw period, unless told to stop
                        await asyncio.wait_for(stop.wait(), interval)
                    if stop.is_set():
                        break
                    tasks = await db.tasks(viewer, limit=limit, status=status)
                    live.update(
                        tasks_table(tasks, has_owner=db.has_owner, title=title, empty=empty), refresh=True
                    )
                    drawn += 1
        finally:
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.remove_signal_handler(signal.SIGTERM)
    return 0


def _empty_caption(viewer: Viewer, has_owner: bool) -> str:
    """What an empty list says: whose tasks it looked for, when the database has owners (an operator
    whose servers run tasks for tokens sees none of them as the local user)."""
    if viewer.principal is None or not has_owner:
        return "no tasks"
    return f"no tasks of {viewer.principal.name} (--all-owners shows every owner's)"
