"""adversarial.verify (seed 002 pattern 3): a thesis side, an antithesis side, an optional synthesis.

On `engine: "websets"` (the default) each side is a webset; on `engine: "agent"` each side is an
Agent API collection (`rows.collect`: runs whose rows carry the enrichments as fields, chunked by
previousRunId + input.exclusion until `count`). Both sides are started up front (each its own step,
found again by its key after a crash) so Exa works on them in parallel; the task then waits for
each, collects its items (on the agent engine, its rows in their Websets-item view, `rows.as_item`),
and, with `synthesize: true`, asks a research run (Exa's Agent API behind `research.*`) for a
verdict with a structured output schema: on Websets over a prompt summarizing each side's items (at
most SIDE_PROMPT_CHARS a side); on the agent engine over both sides' rows, sent as `input.data`
(each row tagged with its side; whole when they fit one run's input, agent_runs.MAX_INPUT_CHARS, else
`fit_evidence` takes the sides' rows in turn and the prompt says how many were left out). The engine is fixed in the task's checkpoint "engine";
on the agent engine each side's `websetId` is null and its runs are listed in `runIds`.

Failure handling (the seed's): a wait that times out keeps the items found so far (the side says
`timedOut: true`, the result `partial: true`); a synthesis that fails or times out leaves the two
sides intact and puts `{error}` in `synthesis`; an Exa error elsewhere fails the task with its typed
error, the message naming the websets already created.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any

from pydantic import Field

from exa_orch.errors import OrchError
from exa_orch.gateway import prices
from exa_orch.runtime import TaskContext
from exa_orch.runtime.spec import WorkflowSpec
from exa_orch.store import Archetype
from exa_orch.workflows import engines, kit, rows, webset_steps
from exa_orch.workflows.archive import adversarial_run
from exa_orch.workflows.synthesis import (
    CONFIDENCE_SCALE,
    SIDE_PROMPT_CHARS,
    SIDES,
    SYNTHESIS_SCHEMA,
    VERDICTS,
    confidence_0_1,
    evidence_rows,
    fit_evidence,
    poll_seconds,
    rows_prompt,
    summarize,
    synthesis_from_run,
    synthesis_prompt,
    synthesize,
)

ResultJson = dict[str, Any]
"""The task's result (each side, the synthesis), as agents read it."""
EvidenceRow = dict[str, Any]
"""A row the synthesis run gets as input.data (synthesis.evidence_rows: a side's row, tagged)."""

# The synthesis (synthesis.py) names that are read here too.
__all__ = [
    "CONFIDENCE_SCALE",
    "SIDES",
    "SIDE_PROMPT_CHARS",
    "SYNTHESIS_SCHEMA",
    "VERDICTS",
    "WORKFLOWS",
    "VerifyArgs",
    "confidence_0_1",
    "fit_evidence",
    "rows_prompt",
    "summarize",
    "synthesis_from_run",
    "synthesis_prompt",
    "verify",
    "verify_cost",
]


class VerifyArgs(kit.TaskArgs):
    """The seed's task args; `timeout` is per wait, in ms."""

    thesis: str = Field(min_length=1, max_length=2000)
    """the claim being tested"""
    thesis_query: str = Field(min_length=1, max_length=5000)
    """query to find supporting evidence"""
    antithesis_query: str = Field(min_length=1, max_length=5000)
    """query to find counter-evidence"""
    entity: kit.EntityArg | None = None
    """what kind of thing each side's webset collects (default: inferred from the queries)"""
    count: int = Field(default=25, ge=1, le=1000)
    """items each side's webset looks for"""
    enrichments: list[kit.EnrichmentArg] | None = Field(default=None, max_length=10)
    """enrichments added to both websets (up to 10)"""
    synthesize: bool = False
    """synthesize a verdict with a research run (Agent API)"""
    engine: engines.Engine = "websets"
    """where each side's items come from: websets, or Exa's Agent API (research runs returning rows,
    chunked by previousRunId until `count`; the synthesis then gets both sides' rows as input.data);
    fixed in the task's first checkpoint;
    omitted or null: the server's EXA_ORCH_ENGINE (websets unless set)"""
    timeout: float = Field(default=300_000, gt=0, le=3_600_000)
    """milliseconds (not seconds) each wait may take: each webset, and the synthesis; then the task
    returns what it has"""


def _webset_body(args: VerifyArgs, query: str) -> dict[str, Any]:
    """websets.create's camelCase JSON body for one side."""
    search: dict[str, Any] = {"query": query, "count": args.count}
    if args.entity is not None:
        search["entity"] = args.entity.model_dump(exclude_none=True)
    body: dict[str, Any] = {"search": search}
    if args.enrichments:
        body["enrichments"] = [e.wire() for e in args.enrichments]
    return body


def _named(exc: OrchError, created: dict[str, str]) -> OrchError:
    """`exc` with its message naming the websets created so far (for manual recovery)."""
    names = ", ".join(f"{side} webset {wid}" for side, wid in created.items())
    return _recoverable(exc, names, "fetch them with websets.get / items.getAll")


def _named_runs(exc: OrchError, started: dict[str, str], noun: str) -> OrchError:
    """`exc` with its message naming the runs each side started so far (for manual recovery)."""
    names = ", ".join(f"{side} {noun}(s) {rid}" for side, rid in started.items())
    return _recoverable(exc, names, "read them with research.get, stop them with research.cancel")


def _recoverable(exc: OrchError, names: str, how: str) -> OrchError:
    if names:
        exc.message = f"{exc.message} (already created: {names}; {how})"
        exc.args = (exc.message,)
    return exc


# --- the workflow --------------------------------------------------------------------------------


async def _gather(ctx: TaskContext, side: str, webset_id: str, timeout_s: float) -> ResultJson:
    """Steps `<side>.idle` and `<side>.items`: the side as the seed returns it (timedOut if still busy)."""
    waited = await kit.wait_webset(ctx, f"{side}.idle", webset_id, timeout_s, poll_seconds(timeout_s))
    items = await kit.collect_items(ctx, f"{side}.items", webset_id)
    out: ResultJson = {"websetId": webset_id, "items": items, "itemCount": len(items)}
    if waited.timed_out:
        out["timedOut"] = True  # still searching at Exa: these are the items found so far
    return out


async def verify(ctx: TaskContext, args: VerifyArgs) -> ResultJson:
    """Phase A/B: thesis and antithesis websets or agent collections (in parallel at Exa); Phase C:
    optional synthesis.

    Steps are flat (none inside another), so a run resumed only to cancel replays every step that
    registers a cancel hook."""
    begun = await engines.begin(ctx, args.engine)
    timeout_s = min(kit.seconds(args.timeout), 3600.0)
    sides: dict[str, ResultJson] = {}
    total = 4 + (1 if args.synthesize else 0)
    # The synthesis's evidence: a row engine's rows (input.data); None on Websets (a prompt summary).
    on = (ctx, args, sides, begun.started, timeout_s, total)
    evidence = await begun.engine.choose(engines.Pair(partial(_webset_sides, *on), partial(_row_sides, *on)))
    synthesis: ResultJson | None = None
    if args.synthesize:
        synthesis = await synthesize(ctx, args.thesis, args.timeout, sides, evidence)
        state = synthesis["error"]["message"] if "error" in synthesis else synthesis["verdict"]
        await ctx.progress("synthesis", total, total, f"synthesis: {state}")
    return _result(sides, synthesis, begun.started, begun.engine.name)


async def _webset_sides(
    ctx: TaskContext,
    args: VerifyArgs,
    sides: dict[str, ResultJson],
    started: float,
    timeout_s: float,
    total: int,
) -> list[EvidenceRow] | None:
    """Each side a webset (both created first); fills `sides`. No evidence rows: the synthesis
    summarizes the items in its prompt."""
    queries = {"thesis": args.thesis_query, "antithesis": args.antithesis_query}
    created: dict[str, str] = {}
    removers: dict[str, Callable[[], None]] = {}

    def canceller(webset_id: str) -> Callable[[], Awaitable[Any]]:
        return lambda: kit.cancel_webset(ctx, webset_id)

    try:
        for side in SIDES:  # both up front, so Exa searches them in parallel
            webset = await webset_steps.create(ctx, f"{side}.webset", _webset_body(args, queries[side]))
            created[side] = webset.id
            removers[side] = ctx.on_cancel(canceller(created[side]))
            ctx.on_stop(partial(found_items, ctx, sides, dict(created)))
        message = f"thesis webset {created['thesis']}, antithesis webset {created['antithesis']}"
        await ctx.progress("websets", 2, total, message)
        for n, side in enumerate(SIDES):
            sides[side] = await _gather(ctx, side, created[side], timeout_s)
            if not sides[side].get("timedOut"):
                removers[side]()  # idle: nothing left to cancel there
            await ctx.progress(side, 3 + n, total, f"{side}: {sides[side]['itemCount']} items")
            await ctx.partial({**_result(sides, None, started, "websets"), "partial": True})
    except OrchError as exc:
        raise _named(exc, created) from None
    return None


def side_asks(args: VerifyArgs) -> dict[str, rows.Ask]:
    """Each side's agent collection: its query, `count` rows, the enrichments as row fields."""
    queries = {"thesis": args.thesis_query, "antithesis": args.antithesis_query}
    kind = str(args.entity.type) if args.entity is not None else "custom"
    fields = list(args.enrichments or [])
    # What one row is, when the task names its entity (else the runs infer it from the query).
    options: rows.RunArgs = (
        {"systemPrompt": rows.entity_prompt(args.entity.model_dump())} if args.entity else {}
    )
    return {side: rows.Ask(queries[side], [], fields, args.count, kind, options=options) for side in SIDES}


async def _row_sides(
    ctx: TaskContext,
    args: VerifyArgs,
    sides: dict[str, ResultJson],
    started: float,
    timeout_s: float,
    total: int,
    source: engines.RowSource,
) -> list[EvidenceRow] | None:
    """Each side a row collection (both first runs started first); fills `sides` and returns
    both sides' rows as the synthesis's input.data (built from checkpointed polls only)."""
    asks = side_asks(args)
    first: dict[str, engines.First] = {}
    collected = {side: rows.Collected() for side in SIDES}  # filled as runs start (named on error)
    evidence: list[EvidenceRow] = []
    ctx.on_stop(partial(found_rows, sides, collected))
    try:
        for side in SIDES:  # both up front, so Exa runs them in parallel
            first[side] = await source.start(ctx, f"{side}.run", asks[side])
        runs = {side: f"{side} {source.noun} {first[side][0]}" for side in SIDES}
        message = f"{runs['thesis']}, {runs['antithesis']}"
        await ctx.progress("runs", 2, total, message)
        for n, side in enumerate(SIDES):
            until = await kit.deadline(ctx, f"{side}.wait.start", timeout_s)  # kept across restarts
            got = await source.finish(
                ctx,
                f"{side}.run",
                f"{side}.wait",
                asks[side],
                first[side],
                until,
                "adversarial.verify",
                into=collected[side],
            )
            items = [rows.as_item(r) for r in got.rows]
            sides[side] = {"websetId": None, "runIds": got.run_ids, "items": items, "itemCount": len(items)}
            if got.timed_out:
                sides[side]["timedOut"] = True  # still running at Exa: these are the rows so far
            evidence.extend(evidence_rows(side, got.rows, list(args.enrichments or [])))
            await ctx.progress(side, 3 + n, total, f"{side}: {len(items)} items")
            await ctx.partial({**_result(sides, None, started, source.name), "partial": True})
    except OrchError as exc:
        started_runs = {
            side: ", ".join(collected[side].run_ids or [first[side][0]]) for side in SIDES if side in first
        }
        raise _named_runs(exc, started_runs, source.noun) from None
    return evidence


async def found_items(ctx: TaskContext, sides: dict[str, ResultJson], created: dict[str, str]) -> ResultJson:
    """A stopped verification's salvage (ctx.on_stop): each side not collected yet, read from its
    webset (the items it holds so far, `stopped: true`)."""
    out: ResultJson = {}
    for side, webset_id in created.items():
        if side in sides:
            continue
        items = await kit.webset_items(ctx, f"stopped.{side}.items", webset_id)
        out[side] = {"websetId": webset_id, "items": items, "itemCount": len(items), "stopped": True}
    return out


async def found_rows(sides: dict[str, ResultJson], collected: dict[str, rows.Collected]) -> ResultJson:
    """A stopped agent verification's salvage: each side not finished yet, with the rows its
    finished runs returned."""
    out: ResultJson = {}
    for side, got in collected.items():
        if side in sides or not got.run_ids:
            continue
        items = [rows.as_item(r) for r in got.rows]
        out[side] = {
            "websetId": None,
            "runIds": got.run_ids,
            "items": items,
            "itemCount": len(items),
            "stopped": True,
        }
    return out


def _result(
    sides: dict[str, ResultJson], synthesis: ResultJson | None, started: float, engine: str
) -> ResultJson:
    out: ResultJson = {"engine": engine, **{side: sides[side] for side in SIDES if side in sides}}
    if synthesis is not None:
        out["synthesis"] = synthesis
    if any(side.get("timedOut") for side in sides.values()) or (synthesis or {}).get("timedOut"):
        out["partial"] = True
        out["stoppedBy"] = "timeout"
    out["duration"] = max(0, round((time.time() - started) * 1000))
    return out


# Its place in the MAP-Elites archive (seed 002 section 5); written to `workflows` at start-up.
ARCHETYPE = Archetype(
    id="workflow-webset-adversarial",
    name="Adversarial Verification",
    description=(
        "Thesis and antithesis websets with optional Research API synthesis. Forces "
        "disconfirmation search to combat confirmation bias."
    ),
    cell=(2, 2, 4, 2, 5),
    archetype="generative",
    notes=(
        "Backed by Exa Websets (or its Agent API) + Research API. Task type: adversarial.verify. "
        "Novel: structured "
        "opposition with automated synthesis."
    ),
    steps=(
        "Create thesis webset (or agent run, engine agent) with supporting query",
        "Wait and collect thesis evidence",
        "Create antithesis webset (or agent run, engine agent) with counter-query",
        "Wait and collect counter-evidence",
        "(Optional) Synthesize via Research API (engine agent: over both sides' rows as input data)",
    ),
)


def verify_cost(args: VerifyArgs) -> list[prices.Part]:
    """Two websets (thesis, antithesis) of `count` items with their enrichments, or on the agent
    engine two collections of `count` rows (`rows.cost`), and the synthesis run if asked
    (tasks.create's preview)."""
    parts = engines.collector(args.engine).choose(
        engines.Pair(partial(_webset_cost, args), partial(_row_cost, args))
    )
    if args.synthesize:
        parts.append(prices.research_run("exa-research", "synthesis run"))
    return parts


def _webset_cost(args: VerifyArgs) -> list[prices.Part]:
    n = len(args.enrichments or [])
    contacts = prices.contact_columns(args.enrichments or [])
    return [
        *prices.webset(args.count, n, "thesis webset", contacts),
        *prices.webset(args.count, n, "antithesis webset", contacts),
    ]


def _row_cost(args: VerifyArgs, source: engines.RowSource) -> list[prices.Part]:
    return source.cost(args.count, "collection run (thesis, antithesis)", collections=2)


WORKFLOWS: list[WorkflowSpec] = [
    WorkflowSpec(
        "adversarial.verify",
        VerifyArgs,
        verify,
        "Test a thesis: a webset for supporting evidence and one for counter-evidence (engine agent: an "
        "Agent API run collection each), with an optional research-run synthesis (verdict, confidence, "
        "key factors, blind spots).",
        archive=adversarial_run,
        archetype=ARCHETYPE,
        estimate=verify_cost,
    )
]
