"""The "exa.follow" task type: start an Exa job (a webset search, an enrichment, a research run)
and follow it to its end, durably. It is what a task-augmented toolhost `start_search`,
`start_enrichment` or `start_research` runs (seed 000 section 5.2.2): the MCP task ends when the
job does, and `tasks/result` carries the finished object, where a plain call returns at creation.

Steps: `start` (the create, checkpointed: a resumed run keeps following the job it started), then
reads until the job is terminal (reads are safe to repeat). The create carries the task's key
`<task id>:start` as every create run as a task does (`operations._creates.mark_create`, found again by
`_creates`), so a run killed after Exa created the job but before the checkpoint finds it on resume
rather than starting a second one. Cancelling the task cancels the job at Exa. Operations run
through `ctx.deps.dispatch`, as the "operation" task type's do; `follow_workflow(registry)` builds
the task type over the registry that dispatch runs.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import Field

from exa_orch.errors import Conflict, NotFoundError, TaskTerminal
from exa_orch.exa.statuses import JOB_TERMINAL, RUN_TERMINAL
from exa_orch.runtime import TaskContext, WorkflowSpec

from ._creates import declared_op, mark_create
from .models import Args
from .registry import Registry

FOLLOW_TASK_TYPE = "exa.follow"
POLL_INTERVAL_S = 1.0


@dataclass(frozen=True)
class Followed:
    """One kind of job: its create, get and cancel operations, and how to name it in them."""

    create: str
    get: str
    cancel: str
    ref: Callable[[dict[str, Any], dict[str, Any]], dict[str, Any]]
    """(create args, created object) -> the args of get and cancel"""
    terminal: frozenset[str]


KINDS: dict[str, Followed] = {
    "search": Followed(
        "searches.create",
        "searches.get",
        "searches.cancel",
        lambda a, o: {"websetId": a.get("websetId") or o.get("websetId"), "searchId": o["id"]},
        JOB_TERMINAL,
    ),
    "enrichment": Followed(
        "enrichments.create",
        "enrichments.get",
        "enrichments.cancel",
        lambda a, o: {"websetId": a.get("websetId") or o.get("websetId"), "enrichmentId": o["id"]},
        JOB_TERMINAL,
    ),
    "research": Followed(
        "research.create",
        "research.get",
        "research.cancel",
        lambda a, o: {"researchId": o.get("researchId") or o["id"]},
        JOB_TERMINAL | RUN_TERMINAL,
    ),
}
# The create operation a toolhost start_* names -> the kind that follows it.
KIND_OF_CREATE: dict[str, str] = {f.create: kind for kind, f in KINDS.items()}


class FollowArgs(Args):
    """Args of exa.follow: which kind of job, and the create operation's args."""

    kind: Literal["search", "enrichment", "research"]
    """the job to start and follow: a webset search, an enrichment or a research run"""
    args: dict[str, Any] = Field(default_factory=dict)
    """the create operation's args (searches.create, enrichments.create or research.create)"""
    poll_interval: float = Field(default=POLL_INTERVAL_S, ge=0.05, le=60)
    """seconds between reads of the job"""


def is_terminal(kind: str, obj: Any) -> bool:
    """Whether `obj` (a search, enrichment or research object) has reached a terminal status."""
    return isinstance(obj, dict) and str(obj.get("status", "")).lower() in KINDS[kind].terminal


def progress_of(kind: str, obj: Any, polls: int) -> tuple[float, float | None, str]:
    """(completed, total, message) for a followed job: a search counts what it found of its count
    (and what it analyzed); the others count polls. The message names the job by its id."""
    obj = obj if isinstance(obj, dict) else {}
    name = obj.get("researchId") or obj.get("id") or "?"
    status = obj.get("status", "?")
    if kind == "search":
        progress = obj.get("progress") if isinstance(obj.get("progress"), dict) else {}
        found, analyzed, count = (int(progress.get(k) or 0) for k in ("found", "analyzed", "count"))
        count = count or int(obj.get("count") or 0)
        of = f" of {count}" if count else ""
        return found, (count or None), f"search {name} is {status}: found {found}{of}, {analyzed} analyzed"
    return polls, None, f"{kind} {name} is {status}"


async def _follow(ctx: TaskContext, args: FollowArgs, registry: Registry) -> Any:
    spec = KINDS[args.kind]

    async def progress(completed: float, total: float | None, message: str | None) -> None:
        await ctx.progress(args.kind, completed, total, message)

    async def call(name: str, call_args: dict[str, Any]) -> Any:
        return await ctx.deps.dispatch(name, call_args, progress)

    create_args = dict(args.args)
    if create_args.get("preview") is not True:
        # The create carries the task's key where its operation declares one goes, so a run resumed
        # after Exa made the job (before the checkpoint) finds it instead of starting a second.
        mark_create(declared_op(registry, spec.create), create_args, ctx.external_id("start"))

    async def start() -> Any:
        return await call(spec.create, create_args)

    created: dict[str, Any] = await ctx.step("start", start)
    ref = spec.ref(args.args, created)

    async def cancel_at_exa() -> None:
        try:
            await call(spec.cancel, ref)
        except (NotFoundError, TaskTerminal, Conflict):  # gone, or finished meanwhile (409): nothing to stop
            pass

    ctx.on_cancel(cancel_at_exa)
    polls = 0
    current = created
    while not is_terminal(args.kind, current):
        await ctx.sleep(args.poll_interval)
        current = await call(spec.get, ref)
        polls += 1
        await ctx.progress(args.kind, *progress_of(args.kind, current, polls))
    return current


def follow_workflow(registry: Registry) -> WorkflowSpec:
    """The "exa.follow" task type over `registry` (the operations `ctx.deps.dispatch` runs)."""

    async def run(ctx: TaskContext, args: FollowArgs) -> Any:
        return await _follow(ctx, args, registry)

    return WorkflowSpec(
        type=FOLLOW_TASK_TYPE,
        args_model=FollowArgs,
        fn=run,
        summary="Start a webset search, an enrichment or a research run and follow it to its end "
        "(what a task-augmented toolhost start_* runs)",
    )
