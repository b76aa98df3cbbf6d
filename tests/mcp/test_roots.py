"""Roots (seed 000 section 5.6): imports.create {path} reads a local CSV only inside the client's
roots (symlinks and `..` resolved first), asks roots/list again after roots/list_changed, and is
refused with what to do instead when the client has no roots."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
import pytest
from mcp import Client
from mcp.client.context import ClientRequestContext

from exa_orch.mcp.server import build_server
from exa_orch.sim.testing import SimHandle
from tests.support import WAIT, until

from .tasks_support import app_for, structured

# The client's roots API is deprecated for 2026-07-28; 2025-11-25 clients (these) use it.
pytestmark = pytest.mark.filterwarnings("ignore::mcp.shared.exceptions.MCPDeprecationWarning")

CSV = "url,name\nhttps://a.example,A\nhttps://b.example,B\n"


class Roots:
    def __init__(self, *paths: Path) -> None:
        self.paths = list(paths)
        self.asked = 0

    async def __call__(self, ctx: ClientRequestContext) -> types.ListRootsResult:
        self.asked += 1
        return types.ListRootsResult(roots=[types.Root(uri=p.as_uri(), name=p.name) for p in self.paths])


class GatedRoots(Roots):
    """Roots whose first request waits for `gate`."""

    def __init__(self, gate: anyio.Event, *paths: Path) -> None:
        super().__init__(*paths)
        self.gate = gate

    async def __call__(self, ctx: ClientRequestContext) -> types.ListRootsResult:
        if not self.asked:
            await self.gate.wait()
        return await super().__call__(ctx)


def shared_and_private(tmp_path: Path) -> tuple[Path, Path]:
    """tmp_path/shared with rows.csv and link.csv (a link to the other), tmp_path/private with secret.csv."""
    shared, private = tmp_path / "shared", tmp_path / "private"
    shared.mkdir()
    private.mkdir()
    (shared / "rows.csv").write_text(CSV)
    (private / "secret.csv").write_text(CSV)
    (shared / "link.csv").symlink_to(private / "secret.csv")
    return shared, private


def _import(path: Path | str) -> dict[str, Any]:
    return {"operation": "imports.create", "args": {"entity": {"type": "company"}, "path": str(path)}}


async def test_a_csv_inside_a_root_is_imported_and_anything_else_refused(
    sim: SimHandle, tmp_path: Path
) -> None:
    shared, private = shared_and_private(tmp_path)
    roots = Roots(shared)
    async with app_for(sim.url, tmp_path / "w.db") as app:
        server = build_server(app)
        async with Client(server, mode="legacy", list_roots_callback=roots) as client:
            ok = await client.call_tool("manage_websets", _import(shared / "rows.csv"))
            refused = [
                await client.call_tool("manage_websets", _import(p))
                for p in (private / "secret.csv", shared / "link.csv", f"{shared}/../private/secret.csv")
            ]
            assert roots.asked == 1  # cached per connection
            roots.paths.append(private)
            await client.send_roots_list_changed()
            await client.send_ping()
            now_ok = await client.call_tool("manage_websets", _import(private / "secret.csv"))
            assert roots.asked == 2
        async with Client(server, mode="legacy") as no_roots:
            no_roots_result = await no_roots.call_tool("manage_websets", _import(shared / "rows.csv"))
    body = structured(ok)
    assert not ok.is_error, body
    assert body["uploaded"]["rows"] == 2 and body["uploaded"]["bytes"] == len(CSV)
    for result in refused:
        err = structured(result)
        assert (
            result.is_error
            and err["code"] == "INVALID_PARAMS"
            and "outside the client's roots" in err["message"]
        )
    assert not now_ok.is_error, structured(now_ok)
    err = structured(no_roots_result)
    assert no_roots_result.is_error and "roots" in err["message"] and "'csv'" in err["hint"]


async def test_a_fifo_or_a_directory_inside_a_root_is_refused_at_once_and_blocks_nothing(
    sim: SimHandle, tmp_path: Path
) -> None:
    # Opening a FIFO for reading blocks until a writer comes: the file is opened without blocking
    # and refused as not a regular file. Ten of them hold no worker thread, so a CSV still imports.
    shared = tmp_path / "shared"
    shared.mkdir()
    fifos = []
    for n in range(10):
        os.mkfifo(shared / f"pipe{n}.csv")
        fifos.append(shared / f"pipe{n}.csv")
    (shared / "rows.csv").write_text(CSV)
    (shared / "folder.csv").mkdir()
    async with app_for(sim.url, tmp_path / "w.db") as app:
        async with Client(build_server(app), mode="legacy", list_roots_callback=Roots(shared)) as client:
            with anyio.fail_after(WAIT):  # a generous bound: without the fix the first call never answers
                refused = [await client.call_tool("manage_websets", _import(p)) for p in fifos]
                folder = await client.call_tool("manage_websets", _import(shared / "folder.csv"))
                ok = await client.call_tool("manage_websets", _import(shared / "rows.csv"))
    for result in [*refused, folder]:
        err = structured(result)
        assert result.is_error and err["code"] == "INVALID_PARAMS" and err["fields"] == ["path"]
        assert "not a regular file" in err["message"]
    assert not ok.is_error and structured(ok)["uploaded"]["rows"] == 2


async def test_a_path_import_run_as_a_task_waits_for_its_owners_roots(sim: SimHandle, tmp_path: Path) -> None:
    """Task status input_required for a root (seed 000 section 5.2.1): a task has no client to read
    a local file with, so a path import run as a task waits for its owner's client; the session that
    made it is asked for its roots (roots/list tied to the task), the file is read inside them (the
    same checks as a plain call) and the task resumes with its text. A file outside the roots leaves
    the task waiting, and tasks/result says what it needs."""
    from mcp.client._memory import InMemoryTransport

    from .tasks_support import legacy_client

    shared, private = tmp_path / "shared", tmp_path / "private"
    shared.mkdir()
    private.mkdir()
    (shared / "rows.csv").write_text(CSV)
    (private / "secret.csv").write_text(CSV)
    roots = Roots(shared)
    async with app_for(sim.url, tmp_path / "w.db") as app:
        server = build_server(app)
        async with (
            InMemoryTransport(server) as (read, write),
            legacy_client(read, write, list_roots_callback=roots) as client,
        ):
            inside = await client.call_task("manage_websets", _import(shared / "rows.csv"))
            done = await client.result(inside["task"]["taskId"])
            outside = await client.call_task("manage_websets", _import(private / "secret.csv"))
            waiting = await client.result(outside["task"]["taskId"])
            record = await app.tasks.get(outside["task"]["taskId"])  # type: ignore[union-attr]
    body = structured(done)
    assert not done.is_error and body["count"] == 2, body
    assert roots.asked >= 1
    statuses = [s.status for s in client.statuses if s.task_id == inside["task"]["taskId"]]
    assert "input_required" in statuses and statuses[-1] == "completed", statuses
    refused = structured(waiting)
    assert waiting.is_error and refused["error"] == "input_required" and refused["kind"] == "root"
    assert str(private / "secret.csv") in refused["message"] and "'csv'" in refused["instruction"]
    assert str(record.status) == "input_required" and record.args["args"]["path"] == str(
        private / "secret.csv"
    )


async def test_a_task_resumed_by_another_ask_while_tasks_result_looked_is_waited_on_not_answered(
    sim: SimHandle, tmp_path: Path
) -> None:
    """The race CI met under load: tasks/result read the task input_required, then the ask of the
    session that made it (started by the status change) read the file and resumed the task before
    tasks/result asked; its own ask found nothing waiting. It answered the running task as if it
    had failed (INTERNAL_ERROR "the task failed without a message"); it waits on for the result."""
    from mcp.client._memory import InMemoryTransport

    from exa_orch.sim.context import FaultConfig
    from exa_orch.store.records import TaskStatus

    from .tasks_support import legacy_client

    shared = tmp_path / "shared"
    shared.mkdir()
    (shared / "rows.csv").write_text(CSV)
    async with app_for(sim.url, tmp_path / "w.db") as app:
        service = app.tasks
        assert service is not None
        real_wait = service.wait
        held: list[str] = []
        # The session's own ask (its roots request, the first) waits until tasks/result has read the
        # task input_required: on a loaded machine it could otherwise resume the task first, and
        # tasks/result would never see the state the race needs.
        read_input = anyio.Event()
        roots = GatedRoots(read_input, shared)

        async def stale_wait(task_id: str, timeout: float | None = None, **kw: Any) -> Any:  # noqa: ASYNC109
            record = await real_wait(task_id, timeout, **kw)
            if kw.get("until_input") and record.status is TaskStatus.INPUT_REQUIRED and not held:
                held.append(task_id)  # answer with what was read, once the other ask resumed it
                read_input.set()
                # The resumed run's upload then takes a second, so tasks/result's own ask finds it
                # running (not already completed): the state the bug answered as a failure.
                sim.set_faults(FaultConfig(latency_ms=1000))

                async def resumed() -> bool:
                    return (await service.get(task_id)).status is not TaskStatus.INPUT_REQUIRED

                await until(resumed, what="the other ask resuming the task")
            return record

        service.wait = stale_wait  # type: ignore[method-assign]
        server = build_server(app)
        async with (
            InMemoryTransport(server) as (read, write),
            legacy_client(read, write, list_roots_callback=roots) as client,
        ):
            task = await client.call_task("manage_websets", _import(shared / "rows.csv"))
            done = await client.result(task["task"]["taskId"])
    assert held == [task["task"]["taskId"]]  # the race was forced
    body = structured(done)
    assert not done.is_error and body["count"] == 2, body
