"""The simulator's Agent API runs as data: each run's status in simulated time, its JSON, its events.

`AgentRuns` (one per simulator, `ctx.extras["agent"]`) holds the runs `sim/agent.py`'s routes
make and read. A run's status is computed on read from the simulated clock: queued for
QUEUE_SECONDS, then running for its effort's EFFORT_SECONDS, then completed (failed when its query
holds FAIL_MARKER); cancel and stop freeze it. Its output is `sim/agent_output.py`'s, built once
when it completes. Nothing here speaks HTTP.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from exa_orch.sim.agent_output import Matcher, Outcome, matcher_for, outcome
from exa_orch.sim.context import SimContext
from exa_orch.sim.faults import SimHTTPError

QUEUE_SECONDS = 2.0
# Simulated seconds a run spends running, by effort.
EFFORT_SECONDS = {
    "minimal": 5.0,
    "low": 10.0,
    "medium": 20.0,
    "high": 40.0,
    "xhigh": 60.0,
    "auto": 30.0,
    "ultra": 120.0,
    "max": 120.0,
}
FAIL_MARKER = "[sim:fail]"
TERMINAL = frozenset({"completed", "failed", "cancelled"})
ACTIVE = frozenset({"queued", "running"})
TOO_MANY_ACTIVE = (
    "Too many active agent runs: your team has {n} queued or running (the limit is {cap}). "
    "Wait for one to finish, or cancel one, then create the run again"
)


@dataclass
class Run:
    """One agent run; everything but `frozen_*` is fixed at creation."""

    id: str
    created: float  # simulated seconds
    request: dict[str, Any]
    run_seconds: float
    external_id: str | None
    frozen_status: str | None = None  # set by cancel / stop
    frozen_at: float | None = None
    stop_reason: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def started(self) -> float:
        return self.created + QUEUE_SECONDS

    @property
    def finishes(self) -> float:
        return self.started + self.run_seconds

    def status(self, now: float) -> str:
        if self.frozen_status is not None:
            return self.frozen_status
        if now < self.started:
            return "queued"
        if now < self.finishes:
            return "running"
        return "failed" if FAIL_MARKER in self.request["query"] else "completed"

    def ended_at(self, now: float) -> float | None:
        if self.frozen_at is not None:
            return self.frozen_at
        return self.finishes if now >= self.finishes else None


class AgentRuns:
    """The simulator's agent runs (kept in `ctx.extras["agent"]`)."""

    # Class defaults, so an account file saved before they existed still loads.
    peak_active = 0  # the most runs ever queued or running at once (tests of a run pool read it)
    refused_active = 0  # creates answered 429 for too many active runs

    def __init__(self, ctx: SimContext) -> None:
        self.ctx = ctx
        self.runs: dict[str, Run] = {}

    def get(self, run_id: str) -> Run:
        run = self.runs.get(run_id)
        if run is None:
            raise SimHTTPError(404, f"Agent run {run_id!r} not found", "RUN_NOT_FOUND")
        return run

    def active(self) -> int:
        """Runs queued or running now (what the team's concurrency limit counts)."""
        now = self.ctx.clock.now()
        return sum(1 for run in self.runs.values() if run.status(now) in ACTIVE)

    def check_capacity(self) -> None:
        """429 when the team already has `max_active_agent_runs` active (Exa: 50 a team). Exa does
        not document this answer's body or a Retry-After: its rate-limit 429 shape, no header."""
        cap = self.ctx.config.max_active_agent_runs
        active = self.active()
        if active >= cap:
            self.refused_active += 1
            raise SimHTTPError(429, TOO_MANY_ACTIVE.format(n=active, cap=cap), "CONCURRENCY_LIMIT_REACHED")
        self.peak_active = max(self.peak_active, active + 1)  # counting the run about to be made

    def to_json(self, run: Run) -> dict[str, Any]:
        """The `AgentRun` object of the Agent API spec (every field it requires, none it does not
        list): output, usage and costDollars are empty (zeros) until the run completes."""
        now = self.ctx.clock.now()
        status = run.status(now)
        ended = run.ended_at(now)
        body: dict[str, Any] = {
            "id": run.id,
            "object": "agent_run",
            "status": status,
            "stopReason": None,
            "createdAt": self.ctx.clock.iso(run.created),
            "completedAt": self.ctx.clock.iso(ended) if status in TERMINAL and ended is not None else None,
            "request": run.request,
            "output": {"text": "", "structured": None, "grounding": []},
            "usage": dict(NO_USAGE),
            "costDollars": dict(NO_COST),
        }
        if status == "completed":
            result = self.outcome(run)
            body["stopReason"] = result.stop_reason
            body["output"] = {
                "text": result.text,
                "structured": result.structured,
                "grounding": result.grounding,
            }
            body["usage"] = result.usage
            body["costDollars"] = result.cost
        elif status == "failed":  # exa-py 2.28's AgentRun reads `error` (the spec lists no such field)
            body["stopReason"], body["error"] = "error", self.failure(run)
        elif status == "cancelled":
            body["stopReason"] = "cancelled"
        return body

    def failure(self, run: Run) -> dict[str, Any]:
        """Why a failed run failed, as an AgentError (on the run as exa-py reads it, and in its
        `agent_run.failed` event)."""
        return {
            "type": "SERVER_ERROR",
            "code": "SERVER_ERROR",
            "message": f"The run failed because its query contains {FAIL_MARKER} (simulator)",
        }

    def matcher(self) -> Matcher:
        """The world's record matcher (built once per world; kept out of the account file)."""
        return matcher_for(self.ctx.world)

    def outcome(self, run: Run) -> Outcome:
        """What the (completed) run found: computed once, at its first finished read."""
        cached = run.extra.get("outcome")
        if isinstance(cached, Outcome):
            return cached
        share = 1.0
        if run.stop_reason == "stopped" and run.frozen_at is not None:
            share = min(1.0, max(0.0, (run.frozen_at - run.started) / run.run_seconds))
        result = outcome(
            run.request,
            self.ctx.world,
            seed=self.ctx.config.seed,
            rank_query=str(run.extra.get("rank_query") or run.request["query"]).replace(FAIL_MARKER, ""),
            seen=set(run.extra.get("seen") or ()),
            matcher=self.matcher(),
            share=share,
        )
        run.extra["outcome"] = result
        return result

    def events(self, run: Run) -> list[dict[str, Any]]:
        """Every event of `run` that has happened by now, oldest first, as Exa names them (the Agent
        API spec's examples and Exa's MCP server, tests/fixtures/exa/): `agent_run.created`,
        `agent_run.started`, the kinds a run emits while it works, then its terminal event. Each
        event's data carries the run's `id` and `status`."""
        now = self.ctx.clock.now()
        status = run.status(now)
        cut = run.frozen_at if run.frozen_at is not None else now
        timeline: list[tuple[float, str, dict[str, Any]]] = [
            (
                run.created,
                "agent_run.created",
                {"status": "queued", "createdAt": self.ctx.clock.iso(run.created)},
            )
        ]
        if cut >= run.started:
            timeline.append((run.started, "agent_run.started", {"status": "running"}))
        for step, kinds in enumerate(_working_events(run), start=1):
            at = run.started + run.run_seconds * step / 3
            if at <= cut:
                timeline.extend((at, name, {"status": "running", **data}) for name, data in kinds)
        ended = run.ended_at(now)
        if status in TERMINAL and ended is not None:
            final = self.to_json(run)
            data = {k: final[k] for k in ("object", "status", "stopReason", "completedAt")}
            if status == "failed":
                data["error"] = self.failure(run)
            timeline.append((ended, f"agent_run.{status}", data))
        return [
            {
                "id": f"{run.id}_evt_{i + 1:03d}",
                "event": name,
                "data": {"id": run.id, **data},
                "createdAt": self.ctx.clock.iso(at),
            }
            for i, (at, name, data) in enumerate(timeline)
        ]


NO_USAGE = {"agentComputeUnits": 0, "searches": 0, "emails": 0, "phoneNumbers": 0}
NO_COST = {"total": 0.0, "agentCompute": 0.0, "search": 0.0, "emails": 0.0, "phoneNumbers": 0.0}


def _working_events(run: Run) -> list[list[tuple[str, dict[str, Any]]]]:
    """What a run says while it works, a third and two thirds of the way through: the kinds Exa's
    MCP server handles (a search trace, a source found, a preliminary list, an output item)."""
    query = str(run.request.get("query", ""))[:80]
    call = {"callId": "call_1", "tool": "web_search"}
    item = {"id": "item_1", "name": "answer", "type": "message"}
    return [
        [
            ("agent_run.search_trace", {**call, "text": f"Searching the web: {query}"}),
            (
                "agent_run.source.added",
                {"source": {"url": f"https://example.com/sim/{run.id}/1", "callId": "call_1"}},
            ),
        ],
        [
            ("agent_run.preliminary_list", {"preliminaryList": {"round": 1, "answer": "", "entryKeys": []}}),
            ("agent_run.output_item.added", {"item": item}),
        ],
    ]
