"""The per-request context (gateway/context.py): a task's run and each of its steps say whose
request it is, so the gateway can pick the principal's key and account cost to the task and step."""

from __future__ import annotations

import asyncio
from pathlib import Path

from exa_orch.gateway.context import RequestContext, current_request, request_scope
from exa_orch.runtime import Principal
from exa_orch.store import Store, TaskStatus
from tests.runtime.conftest import supervisor
from tests.support import WAIT


def test_a_scope_narrows_the_one_around_it_and_is_undone_after() -> None:
    assert current_request() == RequestContext()
    with request_scope(principal="token:alice", task_id="t1"):
        with request_scope(step="s0") as inner:
            assert inner == RequestContext("token:alice", "t1", "s0")
            assert current_request() is inner
        assert current_request() == RequestContext("token:alice", "t1", None)
        with request_scope(task_id=None):
            assert current_request() == RequestContext("token:alice", None, None)
    assert current_request() == RequestContext()


async def test_concurrent_scopes_do_not_leak_into_each_other() -> None:
    seen: dict[str, RequestContext] = {}

    async def call(name: str) -> None:
        with request_scope(principal=name):
            await asyncio.sleep(0)
            seen[name] = current_request()

    await asyncio.gather(call("user:a"), call("token:b"))
    assert seen == {"user:a": RequestContext("user:a"), "token:b": RequestContext("token:b")}


async def test_each_step_of_a_task_runs_in_its_owners_task_and_step_scope(tmp_path: Path) -> None:
    scopes: list[RequestContext] = []

    def effect(_external_id: str) -> None:
        scopes.append(current_request())

    async with Store(tmp_path / "w.db") as store, supervisor(store, {"effect": effect}) as sup:
        task = await sup.tasks.create("rt.steps", {"steps": 2}, principal=Principal("token:alice"))
        done = await sup.tasks.wait(task.id, timeout=WAIT)
    assert done.status is TaskStatus.COMPLETED
    assert scopes == [
        RequestContext("token:alice", task.id, "s0"),
        RequestContext("token:alice", task.id, "s1"),
    ]
