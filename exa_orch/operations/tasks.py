"""tasks.* operations (create, get, result, list, cancel) and the "operation" task type.

They reach the runtime through `ctx.tasks` (a runtime TaskService), set by the face (exa_orch.app)
when the runtime is up. `operation_workflow(registry)` lets a face run ANY operation of `registry`
as a durable task (MCP Tasks' task-augmented calls): its single step runs the operation through
`ctx.deps.dispatch`, the one way a task runs an operation (runtime/deps.py); the registry tells it
what the operation declares (its create key, the operation that finds a create again).
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Mapping
from functools import partial
from typing import Any

from pydantic import ConfigDict, Field

from exa_orch.errors import ConfigError, InvalidParams
from exa_orch.operations.projections import ItemField
from exa_orch.runtime import Principal, TaskContext, TaskService, WorkflowSpec
from exa_orch.runtime.dedupe import find_or_create
from exa_orch.store import TaskRecord, TaskStatus

from ._creates import declared_op, mark_create
from .context import OpContext
from .dispatch import validate
from .follow import FOLLOW_TASK_TYPE, KINDS
from .models import Args
from .registry import Operation, Registry
from .task_views import DEFAULT_PAGE, MAX_PAGE, result_page, task_view
from .watch_views import task_watch

MAX_WAIT_S = 60.0  # tasks.result's wait is bounded so a tool call can't hang an agent's turn
OPERATION_TASK_TYPE = "operation"  # the task type that runs one registered operation durably


def _service(ctx: OpContext) -> TaskService:
    service = ctx.tasks
    if service is None:
        raise ConfigError(
            "the task runtime is not running in this process",
            hint="Run tasks.* inside the MCP server (`exa-orch serve`), which starts the runtime.",
        )
    return service


def _principal(ctx: OpContext) -> Principal:
    """The caller: the face's principal, else the local user (who also sees tasks with no owner)."""
    return ctx.principal or Principal(ctx.settings.principal, sees_unowned=True)


def ttl_note(requested: int | None, granted: int) -> str | None:
    """What an answer says when a task's ttl was clamped (None when it was granted as asked)."""
    if requested is None or granted >= requested:
        return None
    return (
        f"asked for a ttl of {requested} ms; granted {granted} ms, this server's maximum "
        "(EXA_ORCH_MAX_TASK_TTL)"
    )


class CreateArgs(Args):
    """tasks.create: {type, ...the task type's args} (the task type's own fields sit beside `type`)."""

    model_config = ConfigDict(extra="allow")
    type: str = Field(min_length=1)
    """task type, e.g. 'qd.winnow'; 'list_operations' describes each type's args"""
    ttl: int | None = Field(default=None, ge=1_000)
    """milliseconds to keep the finished task (default 1 hour; at most 24 hours unless the server
    allows more: a longer ttl is clamped, and the answer's ttl is what was granted)"""
    budgetUsd: float | None = Field(default=None, gt=0, le=10_000)  # noqa: N815 (the wire name)
    """dollars the task may spend at Exa: before each paid request its worst case is checked against
    what remains, and the task stops (completed, partial: true, stoppedBy: "budget") rather than pass it"""


class TaskIdArgs(Args):
    task_id: str = Field(min_length=1)
    """the id tasks.create returned"""


class GetArgs(TaskIdArgs):
    full: bool = False
    """include the whole partial result and args (by default a short summary of each)"""


class ResultArgs(GetArgs):
    wait: float | None = Field(default=None, ge=0, le=MAX_WAIT_S)
    """seconds to wait for the task to finish before answering (at most 60)"""
    cursor: str | None = None
    """nextCursor of the previous page of items"""
    limit: int = Field(default=DEFAULT_PAGE, ge=1, le=MAX_PAGE)
    """items per page (a page also stops at about 12 KB)"""
    fields: list[ItemField] | None = None
    """what each item carries (default name, url, criteria, enrichments); ['all'] for everything"""
    full: bool = False
    """the whole stored result in one answer, unpaged (or, while running, the whole partial result)"""


class ListArgs(Args):
    status: str | list[str] | None = None
    """pending, working, input_required, completed, failed or cancelled (or a list of them)"""
    type: str | None = None
    """only tasks of this type"""
    cursor: str | None = None
    """nextCursor of the previous page"""
    limit: int = Field(default=50, ge=1, le=200)
    full: bool = False
    """include each task's whole partial result (by default a short summary of it)"""


def parse_create(registry: Any, args: Any) -> tuple[str, dict[str, Any], int | None, dict[str, Any]]:
    """(task type, the type's own args, ttl in ms or None, the task's meta: its budget) from
    tasks.create's args, read exactly as the tasks.create operation reads them (the registry's
    validation, then `CreateArgs`), so a task-augmented call and a plain one accept the same
    arguments. Raises InvalidParams."""
    model, _ = validate(registry.get("tasks.create"), args)
    assert isinstance(model, CreateArgs)
    return model.type, dict(model.model_extra or {}), model.ttl, create_meta(model)


def create_meta(args: CreateArgs) -> dict[str, Any]:
    """What tasks.create keeps beside the task's args: its budget (`budgetUsd`, read by the runtime)."""
    return {} if args.budgetUsd is None else {"budgetUsd": args.budgetUsd}


async def with_costs(service: TaskService, views: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each task view with `cost: {usd, billed, estimated}`: what its requests to Exa cost so far
    (the ledger, data-design/prices.md)."""
    costs = await service.costs([v["taskId"] for v in views])
    for view in views:
        view["cost"] = costs[view["taskId"]]
    return views


async def _create(args: CreateArgs, ctx: OpContext) -> dict[str, Any]:
    extra = _service(ctx).with_engine(args.type, dict(args.model_extra or {}), ctx.settings.engine)
    registry = ctx.registry
    if registry is not None:
        check_task_args(registry, args.type, extra)
    record = await _service(ctx).create(
        args.type, extra, meta=create_meta(args) or None, ttl_ms=args.ttl, principal=_principal(ctx)
    )
    out = {
        "taskId": record.id,
        "type": record.type,
        "status": str(record.status),
        "createdAt": record.created_at,
        "ttl": record.ttl_ms,
    }
    note = ttl_note(args.ttl, record.ttl_ms)
    if note is not None:
        out["ttlNote"] = note
    if args.budgetUsd is not None:
        out["budgetUsd"] = args.budgetUsd
    return out


async def _get(args: GetArgs, ctx: OpContext) -> dict[str, Any]:
    service = _service(ctx)
    record = await service.get(args.task_id, principal=_principal(ctx))
    view = task_view(record, full=args.full, args=True)
    watch = await task_watch(ctx.watches, record)  # a watch's run: its diff and cost (watches.py)
    if watch is not None:
        view["watch"] = watch
    return (await with_costs(service, [view]))[0]


async def _result(args: ResultArgs, ctx: OpContext) -> dict[str, Any]:
    service = _service(ctx)
    if args.wait:
        # A task that stops to wait for its owner's input answers then: waiting on longer helps nobody.
        record = await service.wait(
            args.task_id, timeout=args.wait, principal=_principal(ctx), until_input=True
        )
    else:
        record = await service.get(args.task_id, principal=_principal(ctx))
    if record.status is TaskStatus.CANCELLED and record.partial is not None:
        # A cancelled task's answer is what it found before the cancel (partial, stoppedBy cancel).
        record = dataclasses.replace(record, result=record.partial)
    if record.status is TaskStatus.COMPLETED or record.result is not None:
        if args.full:
            page = {"taskId": record.id, "status": str(record.status), "result": record.result}
        else:
            page = result_page(record, cursor=args.cursor, limit=args.limit, fields=args.fields)
        if record.stopped_by is not None:
            page.update(partial=True, stoppedBy=record.stopped_by)
        return (await with_costs(service, [page]))[0]
    view = task_view(record, full=args.full)
    if record.status is TaskStatus.INPUT_REQUIRED:
        view["hint"] = "The task waits for its owner's input: see inputRequired."
    elif not record.terminal:
        view["hint"] = "The task is still running; call tasks.result again (optionally with wait: <seconds>)."
    return (await with_costs(service, [view]))[0]


async def _list(args: ListArgs, ctx: OpContext) -> dict[str, Any]:
    statuses = [args.status] if isinstance(args.status, str) else args.status
    for status in statuses or []:
        if status not in TaskStatus.__members__.values():
            allowed = ", ".join(s.value for s in TaskStatus)
            raise InvalidParams(
                f"status: unknown task status {status!r}; use one of: {allowed}", fields=["status"]
            )
    records, cursor = await _service(ctx).list(
        status=statuses, type=args.type, cursor=args.cursor, limit=args.limit, principal=_principal(ctx)
    )
    views = await with_costs(_service(ctx), [task_view(r, full=args.full) for r in records])
    return {"tasks": views, "nextCursor": cursor}


async def _cancel(args: TaskIdArgs, ctx: OpContext) -> dict[str, Any]:
    return task_view(await _service(ctx).cancel(args.task_id, principal=_principal(ctx)))


TASK_OPERATIONS: list[Operation] = [
    Operation(
        "tasks.create",
        CreateArgs,
        _create,
        "Start a long-running task {type, ...args}; returns its taskId at once",
    ),
    Operation(
        "tasks.get",
        GetArgs,
        _get,
        "A task's status, progress, error, timestamps, args and a summary of its partial result (full: true for "
        "all of both)",
        read_only=True,
    ),
    Operation(
        "tasks.result",
        ResultArgs,
        _result,
        "A finished task's result: a summary and its items in pages (cursor, limit, fields; full: true for all "
        "at once); while running, its status and progress (optional wait seconds)",
        read_only=True,
    ),
    Operation(
        "tasks.list", ListArgs, _list, "Tasks, filtered by status and type, with a cursor", read_only=True
    ),
    Operation("tasks.cancel", TaskIdArgs, _cancel, "Cancel a task (and the Exa work it started)"),
]


# -- any operation as a durable task ---------------------------------------------------------


class OperationTaskArgs(Args):
    """Args of the "operation" task type: run `operation` with `args` once, durably."""

    operation: str = Field(min_length=1)
    """the operation to run, e.g. 'websets.waitUntilIdle' (list_operations lists them)"""
    args: dict[str, Any] = Field(default_factory=dict)
    """the operation's args (its own units: an operation's timeout is in seconds)"""


STEP_KEY = "operation"


async def _run_operation(ctx: TaskContext, args: OperationTaskArgs, registry: Registry) -> Any:
    started = time.monotonic()

    async def progress(completed: float, total: float | None, message: str | None) -> None:
        await ctx.progress(args.operation, completed, total, message)

    if args.operation in registry:
        # Every face checks this before writing the row; a row written another way must still never
        # put a secret in the result column.
        refuse_secret_result(registry.get(args.operation))

    async def call(name: str, call_args: dict[str, Any]) -> Any:
        return await ctx.deps.dispatch(name, call_args, progress)

    call_args = dict(args.args)
    op = declared_op(registry, args.operation)
    getter = op.found_with if op is not None else None
    external_id: str | None = None
    if call_args.get("preview") is not True:
        given = mark_create(op, call_args, ctx.external_id(STEP_KEY))
        external_id = given if getter is not None else None

    async def find(external_id: str) -> Any:
        """The object a previous run of this task created, or None."""
        assert getter is not None
        lookup: dict[str, Any] = {"id": external_id}
        lookup.update({k: call_args[k] for k in ("mode", "raw") if k in call_args})
        return await call(getter, lookup)

    async def run() -> Any:
        if external_id is None:
            return await call(args.operation, dict(call_args))
        # Our own externalId: an earlier attempt made it. The caller's own one: only a resumed run
        # can tell that the object may be its own doing; a first run reports the conflict.
        own = external_id == ctx.external_id(STEP_KEY)
        create = partial(call, args.operation, dict(call_args))
        return await find_or_create(ctx, external_id, create, find, ours=own)

    # One step: a call interrupted before its checkpoint runs again on resume (reads are safe;
    # creates with `found_with` are looked up by externalId first).
    result = await ctx.step(STEP_KEY, run)
    await ctx.progress(args.operation, 1, 1, f"done in {time.monotonic() - started:.1f} s")
    return result


def operation_workflow(registry: Registry) -> WorkflowSpec:
    """The "operation" task type over `registry`, the operations its tasks may run (the registry
    `ctx.deps.dispatch` runs them from)."""

    async def run(ctx: TaskContext, args: OperationTaskArgs) -> Any:
        return await _run_operation(ctx, args, registry)

    return WorkflowSpec(
        type=OPERATION_TASK_TYPE,
        args_model=OperationTaskArgs,
        fn=run,
        summary="Run one operation {operation, args} as a durable task (used for MCP task-augmented calls)",
    )


def check_task_args(registry: Any, task_type: str, task_args: Mapping[str, Any]) -> None:
    """Refuse, before any row is written, a task whose operation would refuse its args when it
    runs: an `operation` task (check_operation_task), and an `exa.follow` (a toolhost start_*: the
    args of its create operation). Other task types are checked by their args model."""
    if task_type == OPERATION_TASK_TYPE:
        check_operation_task(registry, str(task_args.get("operation", "")), task_args.get("args"))
    elif task_type == FOLLOW_TASK_TYPE:
        kind, inner = task_args.get("kind"), task_args.get("args")
        if isinstance(kind, str) and kind in KINDS and (inner is None or isinstance(inner, dict)):
            check_operation_task(registry, KINDS[kind].create, inner)


def check_operation_task(registry: Any, name: str, args: Any) -> None:
    """Refuse, before any row is written, an operation that can't run as a durable task.

    Raises InvalidParams / UnknownOperation for bad input, and InvalidParams for an operation whose
    result holds a secret: a task's result is saved in SQLite, and exa-orch never stores secrets.
    """
    if not name:
        raise InvalidParams(
            "operation: required: the name of the operation to run as a task",
            hint='Example: {"type": "operation", "operation": "websets.waitUntilIdle", "args": {"id": "..."}}',
            fields=["operation"],
        )
    op = registry.get(name)
    if name.startswith("tasks."):
        # A task's run has no task runtime to call (and a task that starts or awaits tasks would
        # nest durability): refuse now rather than fail when it runs.
        raise InvalidParams(
            f"{name} can't run as a task: the tasks.* operations manage tasks and run only as direct calls",
            hint=f"Call {name} directly; to run a long operation as a task, name that operation here.",
            fields=["operation"],
        )
    refuse_secret_result(op)
    if args is not None and not isinstance(args, dict):
        raise InvalidParams("args: expected an object", fields=["args"])
    model, _ = validate(op, dict(args or {}))
    if op.plan is not None:
        op.plan(model)  # pure: an id no URL can carry ('..', 'a/b') is refused now, not when it runs


def refuse_secret_result(op: Operation) -> None:
    """InvalidParams for an operation whose result holds a secret (it must not run as a task)."""
    name = op.name
    if op.secret_result:
        raise InvalidParams(
            f"{name} can't run as a task: its result carries a secret that Exa returns only once, "
            "and task results are saved in the database, where exa-orch never stores secrets",
            hint=f"Call {name} directly (not as a task) and keep the secret it returns.",
            fields=["operation"],
        )


async def create_operation_task(
    tasks: TaskService,
    registry: Any,
    name: str,
    args: dict[str, Any] | None,
    *,
    meta: dict[str, Any] | None = None,
    ttl_ms: int | None = None,
    principal: Principal | None = None,
) -> TaskRecord:
    """Validate `args` for operation `name` (InvalidParams / UnknownOperation) and start it as a task
    owned by `principal`."""
    check_operation_task(registry, name, args)
    return await tasks.create(
        "operation",
        {"operation": name, "args": dict(args or {})},
        meta=meta,
        ttl_ms=ttl_ms,
        principal=principal,
    )
