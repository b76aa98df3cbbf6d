"""research.deep (seed 002, pattern 4): one research run, created crash-safely and followed to its end
through its own events (workflows/run_events.py; polled where no event feed is available).

The seed's Research API is retired: `research.*` operations run on Exa's Agent API. The run
carries its key (task:step) in its metadata, so a crash between Exa creating the run and the
checkpoint is healed on resume: the run is found in the runs list, not created again.

A timeout is a result, not a failure: the task returns the run's status (`timedOut: true`) and
whatever output there is; the run goes on at Exa (`research.get` / `research.cancel` by its id).

research.deep reaches Exa through the port only (`ctx.deps.exa_port`, typed `AgentRun`s:
workflows/runs.py), and so do rows.py, entity_research.py and synthesis.py (`start_research_run`:
a run from research.create's args, typed).
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field, model_validator

from exa_orch.exa.events import RunEvent
from exa_orch.exa.port import run_params
from exa_orch.exa.statuses import RUN_TERMINAL
from exa_orch.gateway import prices
from exa_orch.gateway.agent_runs import (
    DEFAULT_MODEL,
    MODEL_TO_EFFORT,
    OutputSchema,
    RunOptions,
    check_model_effort,
    user_identifier,
)
from exa_orch.gateway.context import current_request
from exa_orch.runtime import TaskContext
from exa_orch.runtime.deps import exa_port_of
from exa_orch.runtime.spec import WorkflowSpec
from exa_orch.store import Archetype
from exa_orch.workflows import kit, runs
from exa_orch.workflows.archive import deep_run
from exa_orch.workflows.runs import answer_of, citations_of

if TYPE_CHECKING:
    from exa_py.agent.types import AgentRun, CreateAgentRunParams

Json = dict[str, Any]
TERMINAL = RUN_TERMINAL  # the name verified.py imports (exa/statuses.py defines the set)
Report = Callable[[Json, int], Awaitable[None]]
ResearchModel = Literal["exa-research", "exa-research-pro"]


class DeepResearchArgs(kit.TaskArgs, RunOptions):
    instructions: str = Field(min_length=1, max_length=20000)
    """the research question, in natural language"""
    output_schema: OutputSchema | None = None
    """JSON Schema of the structured result; without it the result is the answer's markdown text"""
    model: ResearchModel | None = None
    """exa-research (agent effort medium, the default without `effort`) or exa-research-pro (effort
    high); `effort` names any effort directly"""
    timeout: int = Field(default=300_000, gt=0, le=86_400_000)
    """milliseconds (not seconds) to wait for the run; after that the task returns the status so far
    (timedOut)"""

    def mapped_effort(self) -> str | None:
        return MODEL_TO_EFFORT[self.model or DEFAULT_MODEL]

    @model_validator(mode="after")
    def _one_effort(self) -> DeepResearchArgs:
        check_model_effort(self.model, self.effort)
        return self

    def run_model(self) -> str | None:
        """The model the run is shown with (the default one when neither model nor effort is given)."""
        return self.model or (DEFAULT_MODEL if self.effort is None else None)


async def start_clock(ctx: TaskContext) -> float:
    """Step "start": the wall-clock time the task first started (deadlines survive restarts)."""
    started: float = await ctx.step("start", time.time)
    return started


async def start_research_run(ctx: TaskContext, key: str, args: Json) -> runs.RunSeen:
    """Step `key`: the run research.create's camelCase `args` (instructions, model, outputSchema,
    effort, budget, input, previousRunId, dataSources, systemPrompt) ask for, started once even
    across crashes and cancels (`runs.start_run`), read as exa-py's `AgentRun`. The checkpoint is a
    `runs.RunSeen`; one an older version saved as the run's research view (with its `model`) is
    read by `runs.seen_from_research_view`."""
    request = DeepResearchArgs.model_validate(args)
    return await runs.start_run(ctx, key, await run_request(request, "exa-orch research.create"))


def event_note(research_id: str, event: RunEvent) -> str:
    """A progress message for one run event: unique per event (its id), so none reads as a repeat."""
    data: Json = event.data if isinstance(event.data, dict) else {}
    detail = ""
    if data.get("completed") is not None and data.get("total"):
        detail = f" {data.get('step') or ''} {data['completed']}/{data['total']}".rstrip()
    elif data.get("status"):
        detail = f" {data['status']}"
    return f"research {research_id}: {event.event}{detail} [{event.id}]"


async def salvage(ctx: TaskContext, research_id: str, structured: bool) -> Json:
    """A stopped research.deep's salvage (ctx.on_stop): the run as it stands, with whatever output it has."""
    run = await exa_port_of(ctx.deps).get_run(research_id)
    found: Json = {"researchId": research_id, "status": run.status}
    if run.output is not None:
        found["result"] = answer_of(run, structured)
        found["citations"] = citations_of(run)
    return found


async def deep_params(ctx: TaskContext, args: DeepResearchArgs) -> CreateAgentRunParams:
    """The run research.deep asks Exa for (`run_request`)."""
    return await run_request(args, "exa-orch research.deep")


async def run_request(args: DeepResearchArgs, via: str) -> CreateAgentRunParams:
    """The run `args` ask Exa for: the question, its schema, the effort and the other run options,
    the caller's userIdentifier (a hash, never the name) and exa-orch's metadata (`via`, model)."""
    metadata: Json = {"via": via}
    if args.run_model() is not None:
        metadata["model"] = args.run_model()
    fields: Json = {"query": args.instructions, **args.run_fields(), "metadata": metadata}
    fields["userIdentifier"] = user_identifier(current_request().principal)
    if args.output_schema is not None:
        fields["outputSchema"] = args.output_schema
    return await run_params(fields)


async def deep(ctx: TaskContext, args: DeepResearchArgs) -> Json:
    started = await start_clock(ctx)
    deadline = started + args.timeout / 1000
    structured = args.output_schema is not None
    await ctx.progress("research.create", 0, 2, "starting the research run")
    created = await runs.start_run(ctx, "research.create", await deep_params(ctx, args))
    research_id = created.run.id
    remove_hook = ctx.on_cancel(lambda: runs.cancel_quietly(ctx, research_id))
    ctx.on_stop(lambda: salvage(ctx, research_id, structured))
    await ctx.partial({"researchId": research_id, "status": created.run.status, "model": args.run_model()})
    await ctx.progress("research.poll", 1, 2, f"research {research_id} started; waiting for it")

    async def report(run: AgentRun, polls: int) -> None:
        # Seconds since the run started, not this process's poll count: a report no earlier
        # run of the task made, so a long wait across server restarts reads as progress.
        note = f"research {research_id} {run.status} {kit.elapsed(created.at)}"
        await ctx.progress("research.poll", 1, 2, note)

    async def on_event(event: RunEvent, n: int) -> None:
        await ctx.progress("research.poll", 1, 2, event_note(research_id, event))

    seen = await runs.watch_run(ctx, "research.poll", research_id, deadline, on_event, report)
    run = seen.run
    if run.status in TERMINAL:
        remove_hook()
    if run.status == "failed":
        raise runs.failure_of(run, "research.deep")
    await ctx.progress("research.poll", 2, 2, f"research {research_id} {run.status}")
    stopped = {"partial": True, "stoppedBy": "timeout"} if seen.timed_out else {}
    return {
        **stopped,
        "researchId": research_id,
        "status": run.status,
        "result": answer_of(run, structured),
        "model": args.run_model(),
        "effort": args.run_effort(),
        "duration": round((seen.at - created.at) * 1000),
        "timedOut": seen.timed_out,
        "citations": citations_of(run),
    }


# Its place in the MAP-Elites archive (seed 002 section 5); written to `workflows` at start-up.
ARCHETYPE = Archetype(
    id="workflow-research-deep",
    name="Deep Research",
    description=(
        "A synthesized narrative answer to a complex question, backed by web sources: one Exa "
        "research task, polled until finished, returning a structured result."
    ),
    cell=(4, 3, 3, 3, 3),
    archetype="exploratory",
    notes=(
        "Backed by Exa Agent API (the Research API it was specified on was retired). Task type: "
        "research.deep. Thin wrapper; its value is composition with other patterns."
    ),
    steps=(
        "Create Exa research task",
        "Poll until finished",
        "Return structured result",
    ),
)


def deep_cost(args: DeepResearchArgs) -> list[prices.Part]:
    """One research run at its effort (`effort`, else the model's), a metered one at most its budget
    (tasks.create's preview)."""
    cap = args.budget.max_cost_dollars if args.budget is not None else None
    return [prices.agent_run(args.run_effort(), "research run", max_cost=cap)]


WORKFLOWS: list[WorkflowSpec] = [
    WorkflowSpec(
        "research.deep",
        DeepResearchArgs,
        deep,
        "Deep research on one question: a research run (Exa Agent API) polled until it finishes or "
        "`timeout` ms pass; returns {researchId, status, result, model, duration}.",
        archive=deep_run,
        archetype=ARCHETYPE,
        estimate=deep_cost,
    )
]
