"""`exa-orch tasks`: the task list in a terminal, once or live (`--watch`), drawn with rich.

Reads the database (SQLite or PostgreSQL) read-only through `ViewDB`, like the web view. Printing
goes to stdout (this is a query command, like `exa-orch sql`); when stdout is not a terminal rich
prints plain text, 80 wide unless `COLUMNS` says otherwise.

The table is laid out for the width it is drawn at, never folded: every cell is one line. Each
row always shows an id prefix, the task's title, its status and its progress (a failed task's
error code in place of a bar); the other columns (duration, type, start, end, phase and message,
owner) join in that order while they fit. A title too long for its column is cut after a whole
word, with an ellipsis; beside the message column, a long title gives way to the message down to
TITLE_KEPT cells (a failed task's error message reads whole). A new column (the cost of a task,
say) is one `Column` in `COLUMNS`.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich import box
from rich.console import Console, RenderableType
from rich.live import Live
from rich.progress_bar import ProgressBar
from rich.table import Table
from rich.text import Text

from exa_orch.view.data import ViewDB, Viewer, age_text
from exa_orch.view.present import clock, dollars, status_word

STATUS_STYLE = {
    "pending": "yellow",
    "working": "bold blue",
    "input_required": "bold magenta",  # waits for its owner's input (the API key, say)
    "completed": "green",
    "failed": "bold red",
    "cancelled": "dim",
}
ELLIPSIS = "…"
BAR = 6  # cells of a progress bar
SEPARATOR = 3  # what rich puts between two columns of this table: a space, a rule's gap, a space
TITLE_MIN = 16  # the narrowest title column, on the narrowest terminal
TITLE_KEPT = 36  # an optional column joins only if the title keeps this much (or all it needs)
FLEX_MIN = 14  # the same for the phase and message column


def short_id(task_id: str) -> str:
    """The first 8 hex digits of a task id (`task_3bab975a-...` -> `3bab975a`): enough to tell a
    day's tasks apart, and what `exa-orch sql "... where id like 'task_3bab975a%'"` finds."""
    return task_id.removeprefix("task_")[:8]


def cut(text: str, width: int) -> str:
    """`text` in at most `width` cells: whole, or cut after its last whole word that fits, with an
    ellipsis (a single word longer than the width is cut inside it, as nothing else would fit)."""
    if len(text) <= width:
        return text
    if width <= 1:
        return ELLIPSIS[:width]
    head = text[: width - 1]
    if text[width - 1] != " " and " " in head:
        head = head[: head.rindex(" ")]
    return head.rstrip(" ,;:-") + ELLIPSIS


def count_text(task: dict[str, Any]) -> str:
    """`3/4`, `3` or empty: a task's progress as whole numbers (a workflow's `33.0` reads `33`)."""
    completed, total = task["completed"], task["total"]
    if completed is None:
        return ""
    return f"{completed}/{total}" if total is not None else f"{completed}"


def _progress(task: dict[str, Any]) -> RenderableType:
    if task["status"] == "failed":  # its error code, in place of a bar stopped half-way
        return Text(task.get("error_code") or "error", style="red")
    if task["status"] == "cancelled" or task.get("stopped_by"):  # no bar: it stopped short
        return Text(count_text(task) or "-", style="dim")
    if task["fraction"] is None:
        return Text(count_text(task) or "-", style="dim")
    cell = Table.grid(padding=(0, 1))
    cell.add_row(
        ProgressBar(total=1.0, completed=task["fraction"], width=BAR),
        Text(count_text(task) or f"{round(task['fraction'] * 100)}%", style="dim"),
    )
    return cell


def _progress_width(task: dict[str, Any]) -> int:
    if task["status"] == "failed":
        return len(task.get("error_code") or "error")
    if task["status"] == "cancelled" or task["fraction"] is None:
        return len(count_text(task) or "-")
    return BAR + 1 + len(count_text(task) or f"{round(task['fraction'] * 100)}%")


def _message(task: dict[str, Any]) -> Text:
    if task["status"] == "failed":
        return Text(" ".join(str(task.get("error_message") or "").split()), style="red")
    # Text, not markup: a message like "[bold]" is shown as it is.
    message = " ".join(str(task["message"] or "").split())
    return Text.assemble((f"{task['phase']}: " if task["phase"] else "", "bold"), message)


@dataclass(frozen=True)
class Column:
    """One column of the list: its header, what a cell shows, and how wide it has to be.

    `width(tasks)` is the widest cell (None: flexible, it shares what is left, at least `least`).
    Columns are listed in the order they give way when the terminal is narrow: the first four stay.
    """

    header: str
    cell: Callable[[dict[str, Any]], RenderableType]
    width: Callable[[list[dict[str, Any]]], int] | None
    least: int = 0
    style: str = ""


def _widest(texts: Callable[[dict[str, Any]], str], floor: int) -> Callable[[list[dict[str, Any]]], int]:
    return lambda tasks: max([floor, *(len(texts(t)) for t in tasks)])


def _status(task: dict[str, Any]) -> Text:
    # A completed task its budget or deadline stopped has its own word ("budget reached").
    style = "yellow" if task.get("stopped_by") else STATUS_STYLE.get(task["status"], "")
    return Text(_word(task), style=style)


def _word(task: dict[str, Any]) -> str:
    return status_word(task) if task.get("stopped_by") else str(task["status"])


# Always shown, in this order of place: id, title, status, progress.
ESSENTIAL = 4
COLUMNS: list[Column] = [
    Column("task", lambda t: Text(short_id(t["id"]), style="cyan"), _widest(lambda t: short_id(t["id"]), 4)),
    Column("title", lambda t: Text(t["title"] or "-"), None, TITLE_MIN),
    Column("status", _status, _widest(_word, 6)),
    Column("progress", _progress, lambda tasks: max([8, *(_progress_width(t) for t in tasks)])),
    # The optional ones, in the order they join as the terminal widens.
    Column("took", lambda t: Text(age_text(t["duration"])), _widest(lambda t: age_text(t["duration"]), 4)),
    Column("type", lambda t: Text(t["type"]), _widest(lambda t: t["type"], 4)),
    Column("started", lambda t: Text(clock(t["created_at"])), _widest(lambda t: clock(t["created_at"]), 7)),
    Column("ended", lambda t: Text(clock(t["ended_at"])), _widest(lambda t: clock(t["ended_at"]), 5)),
    Column(
        "cost", lambda t: Text(dollars(t.get("cost_usd"))), _widest(lambda t: dollars(t.get("cost_usd")), 4)
    ),
    Column("phase: message", _message, None, FLEX_MIN),
]
OWNER = Column("owner", lambda t: Text(t["owner"] or ""), _widest(lambda t: t["owner"] or "", 5))


def layout(tasks: list[dict[str, Any]], width: int, *, has_owner: bool) -> list[tuple[Column, int]]:
    """The columns that fit in `width` cells, each with its width: the essential ones always, then
    each optional one in turn while what is left keeps the title TITLE_KEPT wide (or as wide as
    its longest); the flexible columns (title, message) share the rest."""
    columns = COLUMNS + ([OWNER] if has_owner else [])
    longest = max([TITLE_MIN, *(len(t["title"] or "-") for t in tasks)])
    kept = min(longest, TITLE_KEPT) - TITLE_MIN  # what the title keeps beyond its least
    chosen: list[Column] = []
    for i, column in enumerate(columns):
        trial = [*chosen, column]
        need = _fixed(trial, tasks) + _flex_least(trial) + kept + SEPARATOR * (len(trial) - 1)
        if i >= ESSENTIAL and need > width:
            continue  # a later, narrower column may still fit
        chosen = trial
    spare = max(0, width - _fixed(chosen, tasks) - SEPARATOR * (len(chosen) - 1))
    flexible = [c for c in chosen if c.width is None]
    widths: dict[str, int] = {}
    if flexible:
        # The title gets what it needs (up to its longest), but beside the message only while that
        # leaves the message its longest too, or the title keeps TITLE_KEPT: a failed task's error
        # message is not cut to make room for a long title. The message gets the rest.
        rest = spare - sum(c.least for c in flexible[1:])
        if len(flexible) > 1:
            said = max([0, *(_message(t).cell_len for t in tasks)])
            rest = min(rest, max(TITLE_KEPT, spare - said))
        widths[flexible[0].header] = max(flexible[0].least, min(longest, rest))
        left = spare - widths[flexible[0].header]
        for column in flexible[1:]:
            widths[column.header] = max(column.least, left)
    return [(c, widths[c.header] if c.width is None else c.width(tasks)) for c in chosen]


def _fixed(columns: list[Column], tasks: list[dict[str, Any]]) -> int:
    return sum(max(len(c.header), c.width(tasks)) for c in columns if c.width is not None)


def _flex_least(columns: list[Column]) -> int:
    return sum(c.least for c in columns if c.width is None)


def tasks_table(
    tasks: list[dict[str, Any]],
    *,
    has_owner: bool,
    width: int = 80,
    title: str | None = None,
    empty: str = "no tasks",
) -> Table:
    """The tasks as a rich Table `width` cells wide (see the module docstring for what shows);
    `empty` is its caption when there are none."""
    table = Table(
        title=title, box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False, header_style="bold", width=None
    )
    placed = layout(tasks, width, has_owner=has_owner)
    for column, w in placed:
        w = max(w, len(column.header)) if column.width is not None else w
        table.add_column(column.header, width=w, min_width=w, max_width=w, no_wrap=True, overflow="ellipsis")
    for t in tasks:
        row: list[RenderableType] = []
        for column, w in placed:
            content = column.cell(t)
            if isinstance(content, Text) and content.cell_len > w:
                # Cut after a whole word, not inside one; the style of the cell kept.
                content = Text(cut(content.plain, w), style=content.style)
            row.append(content)
        table.add_row(*row)
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
    type: str | None = None,
    text: str | None = None,
    rounds: int | None = None,
) -> int:
    """Print the tasks `viewer` may see once, or redraw them every `interval` s until interrupted
    (`rounds`: stop after that many redraws, for tests); only those of `status` and `type`, and
    whose title or id holds `text`, when given. Returns 0. Each redraw fits the terminal's width
    at that moment."""
    console = console or Console()
    async with ViewDB(db_path) as db:
        empty = _empty_caption(viewer, db.has_owner)

        async def draw() -> Table:
            tasks = await db.tasks(viewer, limit=limit, status=status, type=type, text=text)
            width = console.width
            title = cut(f"exa-orch tasks in {db.where}", width)
            table = tasks_table(tasks, has_owner=db.has_owner, width=width, title=title, empty=empty)
            days = await db.daily_costs(viewer)
            if days:  # what the viewer's requests to Exa cost, per UTC day
                spent = "cost per day: " + ", ".join(f"{day} {dollars(usd) or '$0'}" for day, usd in days)
                table.caption = cut(spent if tasks else f"{empty}; {spent}", width)
            return table

        if not watch:
            console.print(await draw())
            return 0
        drawn = 1
        # SIGTERM ends the watch as Ctrl-C does: Live's exit shows the cursor again and prints the
        # last table (a pipe gets it only then), and the command exits 0. Set before the first draw.
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        with contextlib.suppress(NotImplementedError, RuntimeError):  # no signals off the main thread
            loop.add_signal_handler(signal.SIGTERM, stop.set)
        try:
            with Live(await draw(), console=console, auto_refresh=False, transient=False) as live:
                live.refresh()
                while rounds is None or drawn < rounds:
                    with contextlib.suppress(TimeoutError):  # the redraw period, unless told to stop
                        await asyncio.wait_for(stop.wait(), interval)
                    if stop.is_set():
                        break
                    live.update(await draw(), refresh=True)
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
