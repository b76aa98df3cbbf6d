"""Agent runs in a workflow, typed: started once (`start_run`), followed to their end (`watch_run`),
read through exa-py's `AgentRun` (`ctx.deps.exa_port`, exa_orch/exa/port.py).

Each is a step whose checkpoint is a `RunSeen`: the run as Exa sent it (`run`), with its id and
status under the names a task's steps have always shown (`researchId`, `status`), when it was read
(`at`) and whether the wait for it ran out (`timedOut`).
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from exa_orch.errors import ApiError, OrchError
from exa_orch.exa.port import agent_run
from exa_orch.exa.statuses import RUN_TERMINAL
from exa_orch.runtime import TaskContext
from exa_orch.runtime.deps import exa_port_of
from exa_orch.workflows import run_events

if TYPE_CHECKING:
    from exa_py.agent.types import AgentRun, CreateAgentRunParams

Json = dict[str, Any]
RunReport = Callable[["AgentRun", int], Awaitable[None]]
"""async (run as just read, reads so far) -> None"""
FIRST_POLL_S, MAX_POLL_S = 0.2, 5.0  # polls back off from 0.2 s to every 5 s


@dataclass(frozen=True)
class RunSeen:
    """An agent run as a step saw it: the run, the wall time it was read, and whether the wait
    for it ended at its deadline with the run still going."""

    run: AgentRun
    at: float
    timed_out: bool = False

    def saved(self) -> Json:
        """The step's checkpoint (JSON)."""
        return {
            "researchId": self.run.id,
            "status": self.run.status,
            "at": self.at,
            "timedOut": self.timed_out,
            "run": self.run.model_dump(by_alias=True, exclude_none=True, mode="json"),
        }

    @classmethod
    async def load(cls, saved: Json) -> RunSeen:
        """The RunSeen a checkpoint holds (one an older version saved as a research view too:
        `seen_from_research_view`)."""
        if "run" not in saved:
            saved = seen_from_research_view(saved)
        return cls(await agent_run(saved["run"]), float(saved["at"]), bool(saved.get("timedOut")))


def seen_from_research_view(view: Json) -> Json:
    """Compat: a run step an older version checkpointed as `exa.views.research_view` shows the run
    (research.start_research's create, with `model`; research.poll_run's read, with `timedOut` and
    `at`), as `RunSeen.saved()` keeps it. The view kept the run's id (`researchId`), status, stop
    reason, times, error, cost and output (text, structured, its grounding as [{field, urls}]);
    a create's view has no `at`: it is now, as the older version took it on every replay."""
    run: Json = {"id": view["researchId"], "object": "agent_run", "status": view.get("status")}
    for key in ("stopReason", "createdAt", "completedAt", "error", "costDollars"):
        if view.get(key) is not None:
            run[key] = view[key]
    output = view.get("output")
    if isinstance(output, dict):
        grounding = [
            {"field": g.get("field"), "citations": [{"url": u} for u in g.get("urls") or [] if u]}
            for g in output.get("citations") or []
            if isinstance(g, dict) and isinstance(g.get("field"), str)
        ]
        run["output"] = {k: output[k] for k in ("text", "structured") if output.get(k) is not None}
        if grounding:
            run["output"]["grounding"] = grounding
    return {"run": run, "at": view.get("at") or time.time(), "timedOut": bool(view.get("timedOut"))}


async def start_run(ctx: TaskContext, key: str, params: CreateAgentRunParams) -> RunSeen:
    """Step `key`: the run `params` asks for, started once even across crashes and cancels.

    The run carries the task's key for the step (`ctx.external_id(key)`) in its metadata; the
    port looks it up before creating (`ExaPort.create_run`), so a resumed task gets the run its
    earlier run started. A cancel hook registered *before* the create finds and cancels a run
    whose create was in flight when the cancel came (the cancel's replay stops at this unsaved
    step, with the hook set)."""
    port = exa_port_of(ctx.deps)
    mark = ctx.external_id(key)

    async def create() -> Json:
        return RunSeen(await port.create_run(params, key=mark), time.time()).saved()

    async def cancel_if_started() -> None:
        run = await port.find_run(mark)
        if run is not None and run.status not in RUN_TERMINAL:
            await cancel_quietly(ctx, run.id)

    remove = ctx.on_cancel(cancel_if_started)
    saved: Json = await ctx.step(key, create)
    remove()  # not on failure: a cancel's replay stops here and must find the hook
    return await RunSeen.load(saved)


async def cancel_quietly(ctx: TaskContext, run_id: str) -> None:
    """Cancel the run at Exa; a run gone or finished meanwhile (404, 409) leaves nothing to stop."""
    try:
        await exa_port_of(ctx.deps).cancel_run(run_id)
    except OrchError:
        pass


async def watch_run(
    ctx: TaskContext,
    key: str,
    run_id: str,
    deadline: float,
    on_event: run_events.OnEvent,
    report: RunReport | None = None,
) -> RunSeen:
    """The run followed through its own events (each a checkpoint `{key}.event:N`, run_events.py),
    then `poll_run` (step `key`: one read once the feed saw the run end)."""
    await run_events.follow_events(ctx, key, run_id, deadline, on_event)
    return await poll_run(ctx, key, run_id, deadline, report)


async def poll_run(
    ctx: TaskContext,
    key: str,
    run_id: str,
    deadline: float,
    report: RunReport | None = None,
    *,
    most: float = MAX_POLL_S,
) -> RunSeen:
    """Step `key`: the run once terminal or at `deadline` (wall time), read until then (polls
    backing off from 0.2 s to `most` seconds apart, 5 s unless given); `report(run, polls)` after
    each read."""
    port = exa_port_of(ctx.deps)

    async def poll() -> Json:
        interval = min(FIRST_POLL_S, most)
        polls = 0
        while True:
            run = await port.get_run(run_id)
            polls += 1
            if report is not None:
                await report(run, polls)
            left = deadline - time.time()
            if run.status in RUN_TERMINAL or left <= 0:
                return RunSeen(run, time.time(), run.status not in RUN_TERMINAL).saved()
            await ctx.sleep(min(interval, left))
            interval = min(interval * 1.5, most)

    saved: Json = await ctx.step(key, poll)
    return await RunSeen.load(saved)


def answer_of(run: AgentRun, structured: bool) -> Any:
    """The run's answer: its structured output when a schema was given, else its text (None if none)."""
    output = run.output
    if output is None:
        return None
    if structured and output.structured is not None:
        return output.structured
    return output.text or None  # a run still going shows an empty text (the spec's AgentRun)


def citations_of(run: AgentRun) -> list[Json]:
    """The run's grounding as [{field, urls}], one group per grounded field."""
    grounding = (run.output.grounding if run.output is not None else None) or []
    return [{"field": g.field, "urls": [c.url for c in g.citations]} for g in grounding]


def failure_of(run: AgentRun, what: str) -> ApiError:
    """The typed error for a run that ended `failed`, naming the run so a person can look it up."""
    error = run.error
    message = error.message if error is not None else None
    return ApiError(
        f"{what}: research run {run.id} failed: {message or 'no reason given'}",
        tag=error.code if error is not None else None,
        hint=f"research.get {{researchId: {run.id!r}}} shows the run; retry with other instructions.",
    )
