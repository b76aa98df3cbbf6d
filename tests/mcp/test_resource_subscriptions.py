"""resources.Subscriptions on its own: notifications go out in the background, changes made while
one is on its way fold into one more after it, and nothing follows a task once it has ended.

The connection is a stand-in whose sends the test holds (the real path, over stdio with the
official client, is in test_resources_prompts.py)."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses

from exa_orch.mcp.resources import Subscriptions
from exa_orch.runtime import TaskEvent
from exa_orch.store import TaskStatus
from tests.operations.test_export_rows import record
from tests.support import WAIT


class HeldConnection:
    """Records each resources/updated it is asked to send; each send waits for `release`."""

    def __init__(self) -> None:
        self.exit_stack = contextlib.AsyncExitStack()
        self.sent: list[str] = []
        self.release = asyncio.Event()
        self.started = asyncio.Event()

    async def send_resource_updated(self, uri: str) -> None:
        self.sent.append(uri)
        self.started.set()
        await self.release.wait()


async def test_changes_during_a_send_fold_into_one_more_and_the_end_is_announced() -> None:
    subs = Subscriptions()
    conn = HeldConnection()
    task = dataclasses.replace(record("mcp_test.steps", None), status=TaskStatus.WORKING)
    uri = f"exa-orch://tasks/{task.id}"
    subs.add(conn, task.id, uri)
    await subs.on_event(TaskEvent("progress", task, {"completed": 1}))  # returns at once
    await asyncio.wait_for(conn.started.wait(), WAIT)
    for n in (2, 3):
        await subs.on_event(TaskEvent("progress", task, {"completed": n}))
    done = dataclasses.replace(task, status=TaskStatus.COMPLETED)
    await subs.on_event(TaskEvent("status", done))
    conn.release.set()
    await asyncio.wait_for(asyncio.gather(*subs._jobs), WAIT)
    assert conn.sent == [uri, uri]  # the first, then one for everything after it (the end included)
    await subs.on_event(TaskEvent("progress", done, {"completed": 4}))
    assert not subs._jobs and conn.sent == [uri, uri]  # nothing follows an ended task
