"""`exa-orch tasks`: the task list in a terminal, once and live."""

from __future__ import annotations

import asyncio
import contextlib
import io
import os
import pty
import re
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from rich.console import Console

from exa_orch.runtime import Principal
from exa_orch.store import Store
from exa_orch.store.migrations import default_migrations_dir
from exa_orch.store.pgbackend import PostgresBackend
from exa_orch.view.data import Viewer
from exa_orch.view.terminal import short_id, show_tasks
from tests.support import WAIT, CliRun, readable, run_cli, until
from tests.view.conftest import target

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")  # what Live writes to move the cursor and redraw
LOCAL = Viewer(Principal("user:tester", sees_unowned=True))


def recording_console() -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, width=200, force_terminal=True, color_system=None), out


async def test_the_list_shows_status_phase_progress_bar_and_message(store: Store) -> None:
    working = await store.create_task("qd.winnow", {"query": "AI startups in Europe"})
    await store.transition(working.id, "working")
    await store.set_progress(
        working.id, {"step": "searching", "completed": 3.0, "total": 4.0, "message": "[bold]x"}
    )
    done = await store.create_task("operation", {"operation": "websets.get", "args": {"id": "ws_1"}})
    await store.complete(done.id, {"ok": True})
    failed = await store.create_task("research.deep", {"instructions": "What do they build?"})
    await store.transition(failed.id, "working")
    await store.set_progress(failed.id, {"step": "research", "completed": 1, "total": 2, "message": "half"})
    await store.fail(
        failed.id, {"step": "poll", "message": "agent run timed out", "code": "UPSTREAM_TIMEOUT"}
    )
    console, out = recording_console()
    assert await show_tasks(target(store), LOCAL, console=console) == 0
    text = out.getvalue()
    lines = {
        t.id: next(line for line in text.splitlines() if short_id(t.id) in line)
        for t in (working, done, failed)
    }
    assert "working" in lines[working.id] and "searching" in lines[working.id]
    assert "AI startups in Europe" in lines[working.id] and "qd.winnow" in lines[working.id]
    assert " 3/4 " in lines[working.id] and "3.0" not in text  # whole numbers, not 3.0/4.0
    assert "[bold]x" in text  # markup in a message is shown, not obeyed
    assert "━" in lines[working.id]  # the bar
    assert "completed" in lines[done.id] and "100%" in lines[done.id] and "websets.get" in lines[done.id]
    # A failed task: its error's code where the bar was (no bar stopped half-way) and its message.
    assert "UPSTREAM_TIMEOUT" in lines[failed.id] and "agent run timed out" in lines[failed.id]
    assert "━" not in lines[failed.id] and "half" not in lines[failed.id]
    assert text.index(short_id(working.id)) < text.index(short_id(done.id))  # unfinished tasks first

    console, out = recording_console()
    await show_tasks(target(store), LOCAL, console=console, status="completed")
    assert short_id(done.id) in out.getvalue() and short_id(working.id) not in out.getvalue()
    console, out = recording_console()
    await show_tasks(target(store), LOCAL, console=console, type="research.deep")
    assert short_id(failed.id) in out.getvalue() and short_id(done.id) not in out.getvalue()
    console, out = recording_console()
    await show_tasks(target(store), LOCAL, console=console, text="EUROPE")  # the title, any case
    assert short_id(working.id) in out.getvalue() and short_id(failed.id) not in out.getvalue()
    console, out = recording_console()
    await show_tasks(target(store), LOCAL, console=console, text="100%")  # LIKE's % taken literally
    assert "no tasks" in out.getvalue()


TITLES = [
    "Which European AI startups work on developer tools, and what do they build for them?",
    "Climate technology companies in Berlin with more than fifty employees and a public API",
]


@pytest.mark.parametrize("width", [80, 120])
async def test_the_list_reads_at_80_and_120_columns_without_a_split_word(store: Store, width: int) -> None:
    """Each row on one line of at most `width` cells, showing an id prefix, its title (cut after a
    whole word, with an ellipsis), status and progress; no word of any cell cut in two lines."""
    tasks = []
    for title in TITLES:
        task = await store.create_task("lifecycle.harvest", {"query": title})
        await store.transition(task.id, "working")
        await store.set_progress(
            task.id, {"step": "searching", "completed": 33.0, "total": 150.0, "message": "found 33 of 400"}
        )
        tasks.append(task)
    await store.fail(tasks[1].id, {"step": "search", "message": "too many 429s", "code": "RATE_LIMITED"})
    out = io.StringIO()
    console = Console(file=out, width=width, force_terminal=True, color_system=None)
    await show_tasks(target(store), LOCAL, console=console)
    text = out.getvalue()
    lines = text.splitlines()
    assert all(len(line) <= width for line in lines), text
    words = {w for title in TITLES for w in title.split()} | {"lifecycle.harvest", "working", "failed"}
    words |= {"RATE_LIMITED", "33/150", "searching:", "found", "task", "title", "status", "progress"}
    for task, title in zip(tasks, TITLES, strict=True):
        [row] = [line for line in lines if short_id(task.id) in line]  # one line per task, never folded
        assert task.id not in row  # the id is shortened
        shown = row.split(short_id(task.id), 1)[1].strip().split("  ")[0]
        assert shown.endswith("…") and title.startswith(shown[:-1])  # cut, not folded
        assert shown[:-1].split() == title.split()[: len(shown[:-1].split())]  # after a whole word
        assert len(shown) >= 20
        for token in row.split():
            if token.endswith("…") or token in words or token.startswith("━") or set(token) <= set("━─"):
                continue
            # Anything else is a number, a time or an id: never a piece of one of the words.
            assert not any(token != w and (w.startswith(token) or w.endswith(token)) for w in words), (
                token,
                row,
            )
    assert "working" in text and "33/150" in text and "━" in text
    assert "failed" in text and "RATE_LIMITED" in text
    if width == 120:
        assert "lifecycle.harvest" in text  # a wider terminal shows more columns


async def test_a_wide_terminal_shows_a_failed_tasks_whole_error_message_beside_a_long_title(
    store: Store,
) -> None:
    message = "agent run timed out after 600 s, give it more time"
    for title in TITLES:
        task = await store.create_task("lifecycle.harvest", {"query": title})
        await store.transition(task.id, "working")
    await store.fail(task.id, {"step": "poll", "message": message, "code": "UPSTREAM_TIMEOUT"})
    out = io.StringIO()
    console = Console(file=out, width=200, force_terminal=True, color_system=None)
    await show_tasks(target(store), LOCAL, console=console)
    [row] = [line for line in out.getvalue().splitlines() if short_id(task.id) in line]
    assert message in row and "UPSTREAM_TIMEOUT" in row and len(row) <= 200, row
    assert "Climate technology companies" in row  # the title keeps its head


async def test_watch_redraws_as_progress_moves(store: Store) -> None:
    task = await store.create_task("lifecycle.harvest", {"query": "European developer tools startups"})
    await store.transition(task.id, "working")
    await store.set_progress(task.id, {"step": "collect", "completed": 1, "total": 8, "message": "first"})
    console, out = recording_console()
    watcher = asyncio.create_task(
        show_tasks(target(store), LOCAL, console=console, watch=True, interval=0.05)
    )
    try:
        await until(lambda: "1/8" in out.getvalue(), within=WAIT)
        await store.set_progress(task.id, {"step": "collect", "completed": 6, "total": 8, "message": "later"})
        await until(lambda: "6/8" in out.getvalue() and "later" in out.getvalue(), within=WAIT)
    finally:
        watcher.cancel()
        with pytest.raises(asyncio.CancelledError):
            await watcher
    # At 80 columns too: each redraw one line a task, the title whole, no line wider than 80.
    narrow = Console(file=io.StringIO(), width=80, force_terminal=True, color_system=None)
    await show_tasks(target(store), LOCAL, console=narrow, watch=True, interval=0.01, rounds=2)
    text = narrow.file.getvalue()  # type: ignore[attr-defined]
    rows = [line for line in text.splitlines() if short_id(task.id) in line]
    assert len(rows) >= 2 and all("European developer tools startups" in row and "6/8" in row for row in rows)
    assert all(len(line) <= 80 for line in ANSI.sub("", text).splitlines())


async def test_watch_stops_after_the_rounds_asked(store: Store) -> None:
    console, out = recording_console()
    assert await show_tasks(target(store), LOCAL, console=console, watch=True, interval=0.01, rounds=3) == 0
    assert out.getvalue().count("no tasks") >= 2  # drawn more than once


async def _migrate_to_0002(db: Path, tmp_path: Path) -> None:
    """A database as it was before migration 0003 added tasks.owner."""
    old = tmp_path / "old-migrations"
    old.mkdir()
    for name in ("0001_init.sql", "0002_workflow_archive.sql"):
        (old / name).write_bytes((default_migrations_dir() / name).read_bytes())
    async with Store(db, migrations_dir=old):
        pass


def test_the_command_prints_the_table_and_shows_the_owner_column_when_there_is_one(tmp_path: Path) -> None:
    db = tmp_path / "w.db"
    env = {"COLUMNS": "160"}  # rich's width when stdout is not a terminal
    asyncio.run(_migrate_to_0002(db, tmp_path))
    with sqlite3.connect(db) as conn:
        conn.execute(
            "INSERT INTO tasks (id, type, status, args, created_at, updated_at) VALUES"
            " ('task_00000001-0000-4000-8000-000000000001', 'qd.winnow', 'pending', '{}',"
            " '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')"
        )
    out = run_cli("tasks", "--db", str(db), env=env)
    assert out.returncode == 0 and "status" in out.stdout and "owner" not in out.stdout, out.stderr
    assert run_cli("db", "migrate", "--db", str(db)).returncode == 0
    with sqlite3.connect(db) as conn:  # migration 0003 added the owner column
        conn.execute(
            "INSERT INTO tasks (id, type, status, args, created_at, updated_at, owner) VALUES"
            " ('task_00000002-0000-4000-8000-000000000002', 'qd.winnow', 'pending', '{}',"
            " '2026-01-01T00:00:01.000Z', '2026-01-01T00:00:01.000Z', 'token:alice')"
        )
    mine = run_cli("tasks", "--db", str(db), env=env)
    assert mine.returncode == 0 and "owner" in mine.stdout, mine.stderr
    # The local user's list: its own and unowned tasks, not token:alice's; --all-owners shows all.
    assert "0001" in mine.stdout and "0002" not in mine.stdout and "token:alice" not in mine.stdout
    # A list with none of the caller's tasks says whose it looked for, and how to see every owner's.
    none_mine = run_cli("tasks", "--status", "working", "--db", str(db), env=env)
    assert none_mine.returncode == 0 and "--all-owners shows every owner's" in none_mine.stdout, (
        none_mine.stderr
    )
    out = run_cli("tasks", "--all-owners", "--db", str(db), env=env)
    assert out.returncode == 0 and "0001" in out.stdout and "0002" in out.stdout, out.stderr
    assert "token:alice" in out.stdout
    missing = run_cli("tasks", "--db", str(tmp_path / "none.db"), env=env)
    assert missing.returncode == 1 and missing.stderr.startswith("error [STORE_ERROR]: no database at")
    assert not (tmp_path / "none.db").exists()


def test_view_command_prints_its_url_serves_and_stops_on_sigterm(tmp_path: Path) -> None:
    db = tmp_path / "w.db"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("EXA_API_KEY", "EXA_ORCH_"))}
    run = [sys.executable, "-m", "exa_orch"]
    assert run_cli("db", "migrate", "--db", str(db)).returncode == 0
    with subprocess.Popen(
        [*run, "view", "--db", str(db), "--port", "0"], stderr=subprocess.PIPE, text=True, env=env
    ) as proc:
        try:
            assert proc.stderr is not None
            line = proc.stderr.readline()
            assert "(read-only): http://127.0.0.1:" in line, line
            url = line.rsplit(" ", 1)[1].strip()
            assert httpx.get(url + "api/tasks", timeout=WAIT).json() == {
                "tasks": [],
                "hasOwner": True,
            }  # 0003
            assert httpx.post(url, timeout=WAIT).status_code == 405
        finally:
            proc.send_signal(signal.SIGTERM)
            assert proc.wait(timeout=WAIT) == 0
    refused = run_cli("view", "--db", str(db), "--host", "0.0.0.0")  # refused before serving
    assert refused.returncode == 1 and refused.stderr.startswith("error [CONFIG_ERROR]: refusing to serve")


@pytest.mark.parametrize("backend", ["postgres"])
async def test_both_commands_read_a_postgresql_database_and_the_list_is_live(store: Store) -> None:
    """`exa-orch tasks` and `exa-orch view` (a process) on a postgresql:// URL: the list, the
    owner filter, the web list following a task's progress as the server writes it, and the
    URL's password shown nowhere (the test cluster trusts local connections: it goes unchecked)."""
    assert isinstance(store.backend, PostgresBackend)
    plain = store.backend.url
    url = plain.replace("@", ":pw-never-shown@", 1)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("EXA_API_KEY", "EXA_ORCH_"))}
    env["COLUMNS"] = "160"
    run = [sys.executable, "-m", "exa_orch"]
    mine = await store.create_task("qd.winnow", {}, principal=None)  # unowned: the local user's to see
    await store.transition(mine.id, "working")
    await store.set_progress(mine.id, {"step": "searching", "completed": 1, "total": 4, "message": "first"})
    theirs = await store.create_task("operation", {}, principal="token:alice")

    def tasks(*flags: str) -> CliRun:
        return run_cli("tasks", "--db", url, *flags, env={"COLUMNS": "160"})

    listed, every = await asyncio.to_thread(tasks), await asyncio.to_thread(tasks, "--all-owners")
    assert listed.returncode == 0 and short_id(mine.id) in listed.stdout, listed.stderr
    assert " 1/4 " in listed.stdout and "searching: first" in listed.stdout
    assert short_id(theirs.id) not in listed.stdout and "token:alice" not in listed.stdout
    assert every.returncode == 0 and short_id(theirs.id) in every.stdout and "token:alice" in every.stdout
    assert "pw-never-shown" not in listed.stdout + listed.stderr and "***@" in listed.stdout

    proc = await asyncio.create_subprocess_exec(
        *run, "view", "--db", url, "--port", "0", stderr=asyncio.subprocess.PIPE, env=env
    )
    try:
        assert proc.stderr is not None
        line = (await asyncio.wait_for(proc.stderr.readline(), WAIT)).decode()
        shown = plain.replace("@", ":***@", 1)
        assert f"exa-orch view of {shown} (read-only): http://127.0.0.1:" in line, line
        base = line.rsplit(" ", 1)[1].strip()
        async with httpx.AsyncClient(base_url=base, timeout=WAIT) as c:
            listed_api = (await c.get("api/tasks")).json()
            assert [t["id"] for t in listed_api["tasks"]] == [mine.id] and listed_api["hasOwner"]
            assert (await c.get(f"tasks/{theirs.id}")).status_code == 404
            page = await c.get(f"tasks/{mine.id}")
            assert page.status_code == 200 and "searching" in page.text
            database = plain.rsplit("/", 1)[1]
            assert f"{database} · read-only" in page.text and "pw-never-shown" not in page.text
            await store.set_progress(
                mine.id, {"step": "analyzing", "completed": 3, "total": 4, "message": "later"}
            )

            async def moved() -> bool:
                [row] = (await c.get("api/tasks")).json()["tasks"]
                return bool(row["phase"] == "analyzing" and row["completed"] == 3 and row["fraction"] == 0.75)

            await until(moved, within=WAIT, what="the polled list to show the new progress")
            assert (await c.post("")).status_code == 405
    finally:
        proc.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(proc.wait(), WAIT) == 0


def test_tasks_watch_stops_on_sigterm_with_the_cursor_back_and_exit_0(tmp_path: Path) -> None:
    db = tmp_path / "w.db"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("EXA_API_KEY", "EXA_ORCH_"))}
    run = [sys.executable, "-m", "exa_orch"]
    assert run_cli("db", "migrate", "--db", str(db)).returncode == 0
    leader, follower = pty.openpty()  # a terminal, so that the live table draws (and hides the cursor)
    with subprocess.Popen(
        [*run, "tasks", "--watch", "--interval", "0.2", "--db", str(db)],
        stdout=follower,
        stderr=subprocess.PIPE,
        env=env,
    ) as proc:
        os.close(follower)
        seen = b""
        try:
            deadline = time.monotonic() + WAIT
            while b"no tasks" not in seen:  # until the first table is on the screen
                ready = readable(leader, deadline - time.monotonic())
                assert ready, f"no table within 30 s: {seen!r}"
                seen += os.read(leader, 65536)
        finally:
            proc.send_signal(signal.SIGTERM)
            code = proc.wait(timeout=WAIT)
        err = proc.stderr.read() if proc.stderr else b""
        with contextlib.suppress(OSError):  # the rest of what it wrote, until the pty closes
            while chunk := os.read(leader, 65536):
                seen += chunk
        os.close(leader)
    assert code == 0, err
    assert seen.rfind(b"\x1b[?25h") > seen.rfind(b"\x1b[?25l")  # the cursor is shown again


async def test_the_list_says_why_a_task_waits_for_input(store: Store) -> None:
    task = await store.create_task("operation", {"operation": "imports.create"}, principal="user:tester")
    await store.claim_runnable(store.owner_id, 30.0, 10)
    await store.set_progress(task.id, {"step": "upload", "message": "busy"})
    await store.park(task.id, {"kind": "root", "path": "/data/rows.csv"}, owner=store.owner_id)
    console, out = recording_console()
    assert await show_tasks(target(store), LOCAL, console=console) == 0
    line = next(line for line in out.getvalue().splitlines() if short_id(task.id) in line)
    assert "input_required" in line and "waiting for a file" in line and "/data/rows.csv" in line
    assert "busy" not in line
