"""Exa's Agent API runs, as exa-py 2.27 `AsyncExa.agent.runs` calls them.

Routes (base `/agent/runs`): POST create (JSON run, or SSE lifecycle events with
`Accept: text/event-stream`), GET list (newest first; `limit`, `cursor`), GET one, POST
`{id}/cancel` (a finished run is answered as it is, 200, as the spec says), POST `{id}/stop`
(ultra effort only, as exa-py documents), DELETE, GET `{id}/events` (JSON pages, or SSE: the events
so far after `Last-Event-ID`, then, for a run still going, each new event as it happens, until its
terminal event; the stream ends early when the run is deleted or the simulator stops). Events are
Exa's (`agent_run.created`, `agent_run.started`, `agent_run.search_trace`, `agent_run.source.added`,
`agent_run.preliminary_list`, `agent_run.output_item.added`, `agent_run.completed|failed|cancelled`),
each with the run's `id` and `status` in its data. Answers follow the Agent API spec's schemas
(tests/fixtures/exa/exa-agent-api-openapi.yml; the test suite validates every one).

The runs themselves (status, JSON, events) are `sim/agent_runs.py`'s; this module is the HTTP
face. A run's status is a function of simulated time, computed on read: queued for QUEUE_SECONDS, then
running for its effort's duration, then completed (or failed when its query contains
`[sim:fail]`, so clients can exercise failures). Cancel and stop freeze it. The output is
deterministic for a seed (sim/agent_output.py): a cited text answer and, given an `outputSchema`,
rows built from world entities: `input.data` rows filled, `input.exclusion` honoured, as many rows
as the query and schema ask, a `previousRunId` follow-up continuing its chain's ranking without
repeats, a metered run cut at its budget (stopReason `budget_reached`).

Strict as Exa (data-design/exa-api-notes.md has each rule's source), in the Agent API's error
envelope `{"error": {"type", "code", "message"}}`: 400 `INVALID_REQUEST` for a `budget` on an
effort other than auto or ultra, `maxCostDollars` outside 1-100, `maxDurationSeconds` outside
300-10800 or on an effort other than ultra, a malformed `userIdentifier`; 400
`PREVIOUS_RUN_NOT_FOUND` / `PREVIOUS_RUN_NOT_COMPLETED` for a `previousRunId` of no run / of a run
not completed; 404 `RUN_NOT_FOUND`; 429 `CONCURRENCY_LIMIT_REACHED` for a create while
`max_active_agent_runs` (50) runs are queued or running.

Exa's spec declares `Exa-Beta: agent-2026-05-07` on every operation; exa-py 2.28's `agent.runs`
sends none (only `stop` sends `agent-max-effort-2026-07-27`) and Exa's MCP server none, and Exa
serves them: the simulator accepts a request without the header, or with one listing a token it
knows (`KNOWN_BETAS`), answers 400 `MISSING_BETA_HEADER` to one listing none it knows, and logs
what was sent (`beta` in `/_sim/log`). See data-design/exa-api-notes.md.

The Agent API has no externalId. A create that carries one (top-level `externalId`, e.g. through
exa-py's `extra_body`, or `metadata.externalId`) is counted in `creates_by_external_id`; no 409.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import BaseRoute, Route

from exa_orch.sim.agent_runs import ACTIVE, EFFORT_SECONDS, TERMINAL, AgentRuns, Run
from exa_orch.sim.agent_runs import QUEUE_SECONDS as QUEUE_SECONDS  # re-exported
from exa_orch.sim.context import SimContext
from exa_orch.sim.faults import SimHTTPError, note_create, read_json

DEFAULT_EFFORT = "auto"
BUDGET_EFFORTS = frozenset({"auto", "ultra"})
RUN_ID = re.compile(r"[A-Za-z0-9_.:-]{1,200}")
USER_IDENTIFIER = re.compile(r"[A-Za-z0-9_-]{1,64}")
LIST_DEFAULT, LIST_MAX = 25, 100


KNOWN_BETAS = frozenset({"agent-2026-05-07", "agent-max-effort-2026-07-27"})
"""The Exa-Beta tokens the simulator knows: the Agent API's, and exa-py 2.28's for an ultra stop."""


def _check_beta(request: Request) -> None:
    """A request may send no `Exa-Beta` (exa-py 2.28 and Exa's MCP server send none); one that lists
    only tokens the simulator does not know is refused, 400 MISSING_BETA_HEADER."""
    sent = request.headers.get("exa-beta")
    if sent is None:
        return
    tokens = {t.strip() for t in sent.split(",") if t.strip()}
    if not tokens & KNOWN_BETAS:
        raise SimHTTPError(
            400,
            f"Exa-Beta lists {sorted(tokens)}, none of them a beta this API knows: send Exa-Beta: agent-2026-05-07",
            "MISSING_BETA_HEADER",
        )


def _runs(request: Request) -> AgentRuns:
    _check_beta(request)
    ctx: SimContext = request.app.state.sim
    store = ctx.extras.get("agent")
    if store is None:
        store = ctx.extras["agent"] = AgentRuns(ctx)
    assert isinstance(store, AgentRuns)
    return store


def _bad(message: str, at: str | None = None) -> SimHTTPError:
    """Exa's 400 for a body it refuses (tests/fixtures/real/400_invalid_request_body.json's shape)."""
    where = f' at "{at}"' if at else ""
    return SimHTTPError(400, f"Invalid request body | Validation error: {message}{where}", "INVALID_REQUEST")


def _page(items: list[dict[str, Any]], request: Request) -> dict[str, Any]:
    raw_limit = request.query_params.get("limit", str(LIST_DEFAULT))
    if not raw_limit.isdigit() or not 1 <= int(raw_limit) <= LIST_MAX:
        raise SimHTTPError(400, f"limit must be an integer from 1 to {LIST_MAX}", "INVALID_REQUEST")
    limit = int(raw_limit)
    cursor = request.query_params.get("cursor")
    start = 0
    if cursor:
        ids = [item["id"] for item in items]
        if cursor not in ids:
            raise SimHTTPError(
                400, f"cursor {cursor!r} is not valid; use nextCursor from a page", "INVALID_REQUEST"
            )
        start = ids.index(cursor)
    page = items[start : start + limit]
    more = start + limit < len(items)
    return {
        "object": "list",
        "data": page,
        "hasMore": more,
        "nextCursor": items[start + limit]["id"] if more else None,
    }


def _wants_sse(request: Request) -> bool:
    return "text/event-stream" in request.headers.get("accept", "")


def _sse(event: dict[str, Any]) -> str:
    return f"id: {event['id']}\nevent: {event['event']}\ndata: {json.dumps(event['data'])}\n\n"


def _records(value: Any, at: str) -> None:
    if value is None:
        return
    if not isinstance(value, list) or not value or not all(isinstance(r, dict) for r in value):
        raise _bad("expected a non-empty array of objects", at)


def _check_budget(body: dict[str, Any], effort: str) -> None:
    """Exa's budget rules (exa-py 2.28 AgentBudget; data-design/exa-api-notes.md)."""
    budget = body.get("budget")
    if budget is None:
        return
    if not isinstance(budget, dict):
        raise _bad("budget must be an object", "budget")
    if effort not in BUDGET_EFFORTS:
        raise _bad(f"budget is only accepted for effort auto or ultra, got effort {effort!r}", "budget")
    cost = budget.get("maxCostDollars")
    if cost is not None:
        if isinstance(cost, bool) or not isinstance(cost, int | float) or not 1 <= cost <= 100:
            raise _bad(
                f"maxCostDollars must be a number from 1 to 100, got {cost!r}", "budget.maxCostDollars"
            )
    duration = budget.get("maxDurationSeconds")
    if duration is not None:
        if effort != "ultra":
            raise _bad(
                f"maxDurationSeconds is only accepted for effort ultra, got effort {effort!r}",
                "budget.maxDurationSeconds",
            )
        if isinstance(duration, bool) or not isinstance(duration, int) or not 300 <= duration <= 10_800:
            raise _bad(
                f"maxDurationSeconds must be an integer from 300 to 10800, got {duration!r}",
                "budget.maxDurationSeconds",
            )


def _validate(body: dict[str, Any], store: AgentRuns) -> Run | None:
    """Refuse what Exa refuses; the run `previousRunId` names (completed), if any."""
    query = body.get("query")
    if not isinstance(query, str) or not query.strip():
        raise _bad("query is required and must be a non-empty string", "query")
    effort = body.get("effort", DEFAULT_EFFORT)
    if effort not in EFFORT_SECONDS:
        raise _bad(f"effort must be one of {list(EFFORT_SECONDS)}, got {effort!r}", "effort")
    for name in ("outputSchema", "metadata", "input"):
        if name in body and not isinstance(body[name], dict):
            raise _bad(f"{name} must be an object", name)
    given = body.get("input") or {}
    _records(given.get("data"), "input.data")
    _records(given.get("exclusion"), "input.exclusion")
    _check_budget(body, str(effort))
    prompt = body.get("systemPrompt")
    if prompt is not None and (not isinstance(prompt, str) or not prompt):
        raise _bad("systemPrompt must be a non-empty string", "systemPrompt")
    sources = body.get("dataSources")
    if sources is not None and (
        not isinstance(sources, list)
        or not all(
            isinstance(d, dict) and isinstance(d.get("provider"), str) and d["provider"] for d in sources
        )
    ):
        raise _bad("dataSources must be an array of {provider: string}", "dataSources")
    user = body.get("userIdentifier")
    if user is not None and (not isinstance(user, str) or not USER_IDENTIFIER.fullmatch(user)):
        raise _bad("userIdentifier must be 1 to 64 letters, digits, '_' or '-'", "userIdentifier")
    previous = body.get("previousRunId")
    if previous is None:
        return None
    if not isinstance(previous, str) or not RUN_ID.fullmatch(previous):
        raise _bad("previousRunId must be 1 to 200 of [A-Za-z0-9_.:-]", "previousRunId")
    prior = store.runs.get(previous)
    if prior is None:
        raise SimHTTPError(400, f"Previous run {previous!r} not found", "PREVIOUS_RUN_NOT_FOUND")
    status = prior.status(store.ctx.clock.now())
    if status != "completed":
        raise SimHTTPError(
            400,
            f"previousRunId must name a completed run; run {previous} is {status}",
            "PREVIOUS_RUN_NOT_COMPLETED",
        )
    return prior


async def create_run(request: Request) -> Response:
    store = _runs(request)
    body = await read_json(request)
    prior = _validate(body, store)
    store.check_capacity()
    ctx = store.ctx
    metadata = body.get("metadata") or {}
    external_id = body.get("externalId") or metadata.get("externalId")
    run = Run(
        id=ctx.ids.new("agent_run"),
        created=ctx.clock.now(),
        request=body,
        run_seconds=EFFORT_SECONDS[body.get("effort", DEFAULT_EFFORT)],
        external_id=str(external_id) if external_id is not None else None,
    )
    if prior is not None:
        # A follow-up continues the chain's ranking and repeats none of its rows; it inherits the
        # userIdentifier it omits (exa-py 2.28 runs.create docstring).
        done = store.outcome(prior)
        run.extra["rank_query"] = prior.extra.get("rank_query") or prior.request["query"]
        run.extra["seen"] = sorted(set(prior.extra.get("seen") or ()) | set(done.entity_ids))
        if "userIdentifier" not in body and prior.request.get("userIdentifier"):
            body["userIdentifier"] = prior.request["userIdentifier"]
    store.runs[run.id] = run
    note_create(request, run.external_id, kind="agent_run", obj_id=run.id, metadata=metadata)
    if _wants_sse(request):
        return StreamingResponse(_follow(store, run), media_type="text/event-stream")
    return JSONResponse(store.to_json(run))


FOLLOW_TICK_S = 0.1
"""The longest a live feed sleeps before it looks at its run again (real seconds)."""


async def _follow(store: AgentRuns, run: Run, last: str | None = None) -> AsyncIterator[str]:
    """`run`'s events after `last` (all of them when `last` is not one of its ids), then each new
    one as it happens, until its terminal event, its deletion or the simulator's stop."""
    sent = last
    while True:
        events = store.events(run)
        ids = [e["id"] for e in events]
        for event in events[ids.index(sent) + 1 if sent in ids else 0 :]:
            yield _sse(event)
            sent = event["id"]
        ended = bool(events) and events[-1]["event"].removeprefix("agent_run.") in TERMINAL
        if ended or store.runs.get(run.id) is not run or store.ctx.closing:
            return
        # Sleep until the next scheduled event, in wall seconds (bounded, so a cancel, a deletion
        # or the simulator's stop is seen soon).
        now = store.ctx.clock.now()
        third = run.run_seconds / 3
        upcoming = [
            t for t in (run.started, run.started + third, run.started + 2 * third, run.finishes) if t > now
        ]
        wait = (min(upcoming) - now) / store.ctx.clock.speed if upcoming and store.ctx.clock.speed else 0.05
        await asyncio.sleep(min(max(wait, 0.005), FOLLOW_TICK_S))


async def list_runs(request: Request) -> Response:
    store = _runs(request)
    newest_first = sorted(store.runs.values(), key=lambda r: (-r.created, r.id))
    return JSONResponse(_page([store.to_json(r) for r in newest_first], request))


async def get_run(request: Request) -> Response:
    store = _runs(request)
    return JSONResponse(store.to_json(store.get(request.path_params["id"])))


async def cancel_run(request: Request) -> Response:
    store = _runs(request)
    run = store.get(request.path_params["id"])
    now = store.ctx.clock.now()
    if (
        run.status(now) in ACTIVE
    ):  # a finished run is answered as it is (the spec: "returns the existing run")
        run.frozen_status, run.frozen_at, run.stop_reason = "cancelled", now, "cancelled"
    return JSONResponse(store.to_json(run))


async def stop_run(request: Request) -> Response:
    store = _runs(request)
    run = store.get(request.path_params["id"])
    if run.request.get("effort") != "ultra":
        raise SimHTTPError(
            400, "Only runs with effort 'ultra' can be stopped; use cancel for other runs", "INVALID_REQUEST"
        )
    now = store.ctx.clock.now()
    status = run.status(now)
    if status in TERMINAL:
        raise SimHTTPError(409, f"Agent run {run.id} already {status}", "RUN_FINISHED")
    run.frozen_status, run.frozen_at, run.stop_reason = "completed", now, "stopped"
    return JSONResponse(store.to_json(run))


async def delete_run(request: Request) -> Response:
    store = _runs(request)
    run = store.get(request.path_params["id"])
    del store.runs[run.id]
    return JSONResponse({"id": run.id, "object": "agent_run.deleted", "deleted": True})


async def run_events(request: Request) -> Response:
    store = _runs(request)
    run = store.get(request.path_params["id"])
    if _wants_sse(request):
        return StreamingResponse(
            _follow(store, run, request.headers.get("last-event-id")), media_type="text/event-stream"
        )
    return JSONResponse(_page(store.events(run), request))


def build_routes(ctx: SimContext) -> list[BaseRoute]:
    """The Agent API routes."""
    ctx.extras.setdefault("agent", AgentRuns(ctx))
    return [
        Route("/agent/runs", create_run, methods=["POST"]),
        Route("/agent/runs", list_runs, methods=["GET"]),
        Route("/agent/runs/{id}", get_run, methods=["GET"]),
        Route("/agent/runs/{id}", delete_run, methods=["DELETE"]),
        Route("/agent/runs/{id}/cancel", cancel_run, methods=["POST"]),
        Route("/agent/runs/{id}/stop", stop_run, methods=["POST"]),
        Route("/agent/runs/{id}/events", run_events, methods=["GET"]),
    ]
