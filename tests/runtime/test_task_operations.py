"""tasks.* through the operation registry, and any operation run as a durable task."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Mapping
from typing import Any

import pytest

from exa_orch.config import Settings
from exa_orch.errors import ErrorCode, InvalidParams, OrchError, UnknownOperation
from exa_orch.operations import OpContext, default_registry, dispatch
from exa_orch.operations.context import ProgressFn
from exa_orch.operations.follow import follow_workflow
from exa_orch.operations.tasks import create_operation_task, operation_workflow
from exa_orch.runtime import Deps, Dispatch, Supervisor, WorkflowRegistry
from exa_orch.store import Store
from tests.runtime.conftest import FAST, bump
from tests.runtime.workflows import WORKFLOWS
from tests.support import WAIT, until

REGISTRY = default_registry()


def dispatcher(gateway: Any = None, settings: Settings | None = None) -> Dispatch:
    """REGISTRY's operations as a task runs them (what App.deps does with app.run_operation)."""

    async def run(name: str, args: Mapping[str, Any], progress: ProgressFn, /) -> Any:
        ctx = OpContext(
            gateway=gateway, settings=settings or Settings(), progress=progress, registry=REGISTRY
        )
        return await dispatch(REGISTRY, name, dict(args), ctx)

    return run


def runtime(store: Store, extras: dict[str, Any], dispatch_fn: Dispatch | None = None) -> Supervisor:
    workflows = [*WORKFLOWS, operation_workflow(REGISTRY), follow_workflow(REGISTRY)]
    deps = Deps(dispatch=dispatch_fn or dispatcher(), extras=extras)
    return Supervisor(store, WorkflowRegistry(workflows), deps, **FAST)


async def call(sup: Any, name: str, args: dict[str, Any]) -> Any:
    return await dispatch(REGISTRY, name, args, OpContext(gateway=None, tasks=sup.tasks))


async def refused_before_any_row(store: Store, args: dict[str, Any]) -> InvalidParams:
    """The INVALID_PARAMS `tasks.create` with `args` ends in, having written no task."""
    async with runtime(store, {}) as sup:
        with pytest.raises(InvalidParams) as info:
            await dispatch(
                REGISTRY, "tasks.create", args, OpContext(gateway=None, tasks=sup.tasks, registry=REGISTRY)
            )
        listed, _ = await sup.tasks.list()
    assert listed == []
    return info.value


async def test_create_then_result_with_wait_returns_the_result(store: Store, effects: Counter[str]) -> None:
    async with runtime(store, {"effect": bump(effects)}) as sup:
        created = await call(sup, "tasks.create", {"type": "rt.steps", "steps": 3})
        assert created["status"] == "pending" and created["taskId"].startswith("task_")
        out = await call(sup, "tasks.result", {"taskId": created["taskId"], "wait": 30})
        view = await call(sup, "tasks.get", {"taskId": created["taskId"]})
    assert out == {
        "taskId": created["taskId"],
        "status": "completed",
        "result": {"squares": [0, 1, 4]},
        "cost": {"usd": 0.0, "billed": 0.0, "estimated": 0.0},  # rt.steps calls no Exa
    }
    assert view["status"] == "completed"
    assert view["args"]["steps"] == 3 and "argsHint" not in view  # what it was asked (with defaults)
    assert "args" not in out  # tasks.result keeps its shape
    assert view["progress"] == {"step": "steps", "completed": 3, "total": 3}
    assert view["createdAt"] <= view["updatedAt"] <= view["expiresAt"]
    assert view["error"] is None


async def test_create_with_bad_args_names_the_field_and_writes_no_row(store: Store) -> None:
    async with runtime(store, {}) as sup:
        with pytest.raises(InvalidParams) as info:
            await call(sup, "tasks.create", {"type": "rt.steps", "steps": 0})
        assert info.value.fields == ["steps"]
        listed = await call(sup, "tasks.list", {})
    assert listed == {"tasks": [], "nextCursor": None}


async def test_result_of_a_running_task_gives_status_progress_and_partial(store: Store) -> None:
    gate = asyncio.Event()
    async with runtime(store, {"gate": gate}) as sup:
        created = await call(sup, "tasks.create", {"type": "rt.steps", "steps": 3, "block_at": 2})
        task_id = created["taskId"]

        async def two_steps() -> bool:
            return len(await store.load_steps(task_id)) == 2

        await until(two_steps)
        await store.set_partial(task_id, {"squares": [0, 1]})
        out = await call(sup, "tasks.result", {"taskId": task_id, "wait": 0.2})
        assert out["status"] == "working"
        assert out["progress"]["completed"] == 2
        assert out["partialSummary"] == {"squares": {"count": 2}} and "partialResult" not in out
        assert "hint" in out
        whole = await call(sup, "tasks.result", {"taskId": task_id, "full": True})
        assert whole["partialResult"] == {"squares": [0, 1]}
        cancelled = await call(sup, "tasks.cancel", {"taskId": task_id})
        assert cancelled["status"] == "cancelled"
        with pytest.raises(OrchError) as again:
            await call(sup, "tasks.cancel", {"taskId": task_id})
        assert again.value.code is ErrorCode.TASK_TERMINAL
        with pytest.raises(OrchError) as missing:
            await call(sup, "tasks.get", {"taskId": "task_nope"})
        assert missing.value.code is ErrorCode.TASK_NOT_FOUND


async def test_list_filters_by_status_and_type_with_a_cursor(store: Store) -> None:
    async with runtime(store, {}) as sup:
        ids = [
            (await call(sup, "tasks.create", {"type": "rt.steps", "steps": 1}))["taskId"] for _ in range(3)
        ]
        for task_id in ids:
            await call(sup, "tasks.result", {"taskId": task_id, "wait": 30})
        first = await call(sup, "tasks.list", {"status": "completed", "type": "rt.steps", "limit": 2})
        rest = await call(
            sup, "tasks.list", {"status": ["completed"], "cursor": first["nextCursor"], "limit": 2}
        )
        assert len(first["tasks"]) == 2 and len(rest["tasks"]) == 1
        assert sorted(t["taskId"] for t in first["tasks"] + rest["tasks"]) == sorted(ids)
        assert rest["nextCursor"] is None
        for status in ("pending", "working", "failed", "cancelled"):
            assert (await call(sup, "tasks.list", {"status": status}))["tasks"] == []
        with pytest.raises(InvalidParams) as bad:
            await call(sup, "tasks.list", {"status": "done"})
        assert bad.value.fields == ["status"]


async def test_any_operation_runs_as_a_durable_task(store: Store) -> None:
    async with runtime(store, {}) as sup:
        with pytest.raises(UnknownOperation):
            await create_operation_task(sup.tasks, REGISTRY, "list_operationz", {})
        task = await create_operation_task(sup.tasks, REGISTRY, "list_operations", {})
        done = await sup.tasks.wait(task.id, timeout=WAIT)
    assert done.status == "completed", done.error
    assert done.args == {"operation": "list_operations", "args": {}}
    names = {f"tasks.{verb}" for verb in done.result["domains"]["tasks"]}
    assert {"tasks.create", "tasks.get", "tasks.result", "tasks.list", "tasks.cancel"} <= names


async def test_an_operation_whose_result_holds_a_secret_is_refused_as_a_task(store: Store) -> None:
    hook = {"url": "https://example.com/hook", "events": ["webset.created"]}
    async with runtime(store, {}) as sup:
        with pytest.raises(InvalidParams) as direct:
            await create_operation_task(sup.tasks, REGISTRY, "webhooks.create", hook)
        with pytest.raises(InvalidParams) as via_tasks_create:
            await dispatch(
                REGISTRY,
                "tasks.create",
                {"type": "operation", "operation": "webhooks.create", "args": hook},
                OpContext(gateway=None, tasks=sup.tasks, registry=REGISTRY),
            )
        listed, _ = await sup.tasks.list()
    assert direct.value.fields == via_tasks_create.value.fields == ["operation"]
    assert "secret" in direct.value.message and direct.value.hint
    assert listed == []


@pytest.mark.parametrize("name", ["tasks.create", "tasks.result", "tasks.cancel"])
async def test_a_tasks_operation_is_refused_as_a_task_before_any_row_is_written(
    store: Store, name: str
) -> None:
    # It has no task runtime to call when it runs (and a task awaiting tasks would nest them).
    info = await refused_before_any_row(
        store, {"type": "operation", "operation": name, "args": {"type": "operation"}}
    )
    assert info.fields == ["operation"] and name in info.message and info.hint


@pytest.mark.parametrize(
    ("name", "args", "field"),
    [
        ("items.delete", {"websetId": "webset_1", "itemId": ".."}, "itemId"),
        ("websets.get", {"id": "../x"}, "id"),  # escape-probe: a hostile id, not a path
        ("searches.cancel", {"websetId": "a/b", "searchId": "s"}, "websetId"),
    ],
)
async def test_an_operation_task_with_an_id_no_url_can_carry_is_refused_before_any_row_is_written(
    store: Store, name: str, args: dict[str, Any], field: str
) -> None:
    # Accepted, it would be written, claimed and run only to fail with the same INVALID_PARAMS.
    info = await refused_before_any_row(store, {"type": "operation", "operation": name, "args": args})
    assert info.fields == [field], info.message


async def test_an_exa_follow_whose_create_args_are_refused_is_refused_before_any_row_is_written(
    store: Store,
) -> None:
    # What a toolhost start_search made task-augmented runs: accepted, it would fail once claimed.
    info = await refused_before_any_row(
        store, {"type": "exa.follow", "kind": "search", "args": {"websetId": "webset_1"}}
    )
    assert "searches.create" in info.message and "query" in info.message


async def test_list_operations_describes_every_task_type_tasks_create_runs(store: Store) -> None:
    async with runtime(store, {}) as sup:
        full = await call(sup, "list_operations", {"prefix": "tasks.", "schemas": True})
        names = await call(sup, "list_operations", {"namesOnly": True})
        other = await call(sup, "list_operations", {"prefix": "websets."})
        one = await call(sup, "list_operations", {"taskType": "rt.steps"})
        every = await call(sup, "list_operations", {"taskType": "*"})
        default = await call(sup, "list_operations", {})
        with pytest.raises(InvalidParams) as unknown:
            await call(sup, "list_operations", {"taskType": "rt.stepz"})
    types = {t["type"]: t for t in full["taskTypes"]}
    assert one["taskTypes"] == [types["rt.steps"]]
    assert {t["type"] for t in every["taskTypes"]} == set(types)
    assert default["taskTypes"] == {t: types[t]["summary"] for t in types}
    assert unknown.value.fields == ["taskType"] and "rt.steps" in unknown.value.message
    assert set(types) == set(sup.workflows.types()) >= {"rt.steps", "operation"}
    assert types["operation"]["args"]["required"] == ["operation"]
    assert "steps" in types["rt.steps"]["args"]["properties"]
    assert all(set(t) == {"type", "summary"} for t in names["taskTypes"])
    assert "taskTypes" not in other


async def test_an_operation_task_without_an_operation_names_the_missing_field(store: Store) -> None:
    info = await refused_before_any_row(store, {"type": "operation", "args": {}})
    assert info.fields == ["operation"] and "required" in info.message


async def test_a_create_run_as_a_task_keeps_exa_orchs_409_rule(store: Store, sim: Any) -> None:
    """websets.create as a task: without an externalId it carries the task's own key; with the
    caller's own key that Exa already holds, a first run reports the conflict (it is not its own)."""
    from exa_orch.gateway import Gateway

    settings = Settings(exa_url=sim.url, simulator=True, rps=1000, concurrency=8)
    search = {"search": {"query": "AI startups in Europe", "count": 1}}
    async with Gateway(settings) as gw:
        async with runtime(store, {}, dispatcher(gw, settings)) as sup:
            keyed = await create_operation_task(sup.tasks, REGISTRY, "websets.create", search)
            taken = await dispatch(REGISTRY, "websets.create", {**search, "externalId": "mine-1"},
                                   OpContext(gateway=gw, settings=settings))  # fmt: skip
            clash = await create_operation_task(
                sup.tasks, REGISTRY, "websets.create", {**search, "externalId": "mine-1"}
            )
            done = await sup.tasks.wait(keyed.id, timeout=WAIT)
            refused = await sup.tasks.wait(clash.id, timeout=WAIT)
    assert done.status == "completed", done.error
    assert done.result["externalId"] == f"{keyed.id}:operation"
    assert taken["externalId"] == "mine-1"
    assert refused.status == "failed" and refused.error is not None
    assert refused.error["code"] == ErrorCode.CONFLICT
