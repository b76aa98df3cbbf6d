"""Task TTL through tasks.*: the default, the clamp to the maximum, and TASK_EXPIRED after removal.

The store runs on a clock the test moves, and the test runs the sweeper (`delete_expired`)
itself, so nothing sleeps until a TTL runs out.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from exa_orch.errors import ErrorCode, OrchError
from exa_orch.operations import OpContext, default_registry, dispatch
from exa_orch.runtime import Principal, Supervisor, TtlPolicy, WorkflowRegistry
from exa_orch.store import Store
from tests.runtime.conftest import FAST
from tests.runtime.workflows import WORKFLOWS

REGISTRY = default_registry()
HOUR_MS = 3_600_000
ALICE, BOB = Principal("token:alice"), Principal("token:bob")


class Clock:
    """A wall clock the test moves forward."""

    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


async def call(sup: Supervisor, name: str, args: dict[str, Any], principal: Principal | None = None) -> Any:
    ctx = OpContext(gateway=None, tasks=sup.tasks, principal=principal)
    return await dispatch(REGISTRY, name, args, ctx)


async def code_of(sup: Supervisor, name: str, args: dict[str, Any], principal: Principal) -> ErrorCode:
    with pytest.raises(OrchError) as caught:
        await call(sup, name, args, principal)
    return caught.value.code


async def test_a_ttl_past_the_maximum_is_clamped_and_the_answer_says_so(tmp_path: Path) -> None:
    async with (
        Store(tmp_path / "w.db") as store,
        Supervisor(store, WorkflowRegistry(WORKFLOWS), **FAST) as sup,
    ):
        asked = await call(sup, "tasks.create", {"type": "rt.steps", "steps": 1, "ttl": 48 * HOUR_MS})
        plain = await call(sup, "tasks.create", {"type": "rt.steps", "steps": 1})
        kept = await call(sup, "tasks.create", {"type": "rt.steps", "steps": 1, "ttl": 2 * HOUR_MS})
        assert asked["ttl"] == 24 * HOUR_MS  # the default maximum
        assert "86400000" in asked["ttlNote"] and "EXA_ORCH_MAX_TASK_TTL" in asked["ttlNote"]
        assert (await store.get_task(asked["taskId"])).ttl_ms == 24 * HOUR_MS
        assert plain["ttl"] == HOUR_MS and "ttlNote" not in plain  # the default, 1 h
        assert kept["ttl"] == 2 * HOUR_MS and "ttlNote" not in kept


async def test_a_configured_policy_sets_the_default_and_the_maximum(tmp_path: Path) -> None:
    policy = TtlPolicy(default_ms=5_000, max_ms=60_000)
    async with (
        Store(tmp_path / "w.db") as store,
        Supervisor(store, WorkflowRegistry(WORKFLOWS), ttl=policy, **FAST) as sup,
    ):
        plain = await call(sup, "tasks.create", {"type": "rt.steps", "steps": 1})
        asked = await call(sup, "tasks.create", {"type": "rt.steps", "steps": 1, "ttl": HOUR_MS})
    assert (plain["ttl"], asked["ttl"]) == (5_000, 60_000)
    assert "60000" in asked["ttlNote"]


async def test_an_expired_task_reads_task_expired_to_its_owner_only(tmp_path: Path) -> None:
    clock = Clock()
    policy = TtlPolicy(default_ms=2_000, max_ms=10_000)  # a short configured TTL
    async with (
        Store(tmp_path / "w.db", clock=clock) as store,
        # The test runs the sweeper itself (delete_expired): the supervisor's own pass would race it.
        Supervisor(
            store, WorkflowRegistry(WORKFLOWS), ttl=policy, **{**FAST, "cleanup_interval": 3600}
        ) as sup,
    ):
        created = await call(sup, "tasks.create", {"type": "rt.steps", "steps": 2}, ALICE)
        task_id = created["taskId"]
        assert created["ttl"] == 2_000
        done = await call(sup, "tasks.result", {"taskId": task_id, "wait": 30}, ALICE)
        assert done["status"] == "completed"

        assert await store.delete_expired() == 0  # not yet: its TTL runs from when it finished
        assert (await call(sup, "tasks.get", {"taskId": task_id}, ALICE))["status"] == "completed"
        clock.now += 3.0
        assert await store.delete_expired() == 1  # the sweeper's pass

        for name, args in (
            ("tasks.get", {"taskId": task_id}),
            ("tasks.result", {"taskId": task_id}),
            ("tasks.result", {"taskId": task_id, "wait": 5}),
            ("tasks.cancel", {"taskId": task_id}),
        ):
            assert await code_of(sup, name, args, ALICE) is ErrorCode.TASK_EXPIRED, name
            assert await code_of(sup, name, args, BOB) is ErrorCode.TASK_NOT_FOUND, name
        assert (await call(sup, "tasks.list", {}, ALICE))["tasks"] == []

        # A week on, the tombstone is gone too: the id is just unknown.
        clock.now += 8 * 86_400
        await store.delete_expired()
        assert await code_of(sup, "tasks.get", {"taskId": task_id}, ALICE) is ErrorCode.TASK_NOT_FOUND


async def test_the_local_user_sees_tasks_with_no_owner_and_a_token_does_not(tmp_path: Path) -> None:
    async with (
        Store(tmp_path / "w.db") as store,
        Supervisor(store, WorkflowRegistry(WORKFLOWS), **FAST) as sup,
    ):
        legacy = await store.create_task("rt.steps", {"steps": 1})  # as written before migration 0003
        local = Principal("user:someone", sees_unowned=True)
        assert (await sup.tasks.get(legacy.id, principal=local)).id == legacy.id
        assert [t.id for t in (await sup.tasks.list(principal=local))[0]] == [legacy.id]
        assert await code_of(sup, "tasks.get", {"taskId": legacy.id}, ALICE) is ErrorCode.TASK_NOT_FOUND
        assert (await call(sup, "tasks.list", {}, ALICE))["tasks"] == []
        # With no principal given, an operation acts as the local user of its settings.
        assert (await call(sup, "tasks.get", {"taskId": legacy.id}))["taskId"] == legacy.id
