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
from exa_orch.gateway import agent_runs, prices
from exa_orch.runtime import TaskContext
from exa_orch.runtime.spec import WorkflowSpec
from exa_orch.store import Archetype
from exa_orch.workflows import kit, rows
from exa_orch.workflows.archive import adversarial_run

Json = dict[str, Any]

SIDES = ("thesis", "antithesis")
ITEM_LINE_CHARS = 300  # one evidence line in the synthesis prompt
SIDE_PROMPT_CHARS = 8000  # per side, so the prompt stays well under research.create's 20000
VERDICTS = ["supported", "partially supported", "refuted", "inconclusive"]
# The one place the confidence scale is said: the output schema, the prompt and the result all use
# 0..1 (`confidence_0_1` reads a percentage a model sent anyway).
CONFIDENCE_SCALE = "from 0 (none) to 1 (certain)"

SYNTHESIS_SCHEMA: Json = {
    "type": "object",
    "properties": {
        "verdict": {
            "type": "string",
            "enum": VERDICTS,
            "description": "overall verdict on the thesis given both sides of the evidence",
        },
        "confidence": {
            "type": "number",
            "minimum": 0,
            "maximum": 1,
            "description": f"confidence in the verdict, {CONFIDENCE_SCALE}",
        },
        "keySupporting": {
            "type": "array",
            "items": {"type": "string"},
            "description": "the key factors supporting the thesis",
        },
        "keyCountering": {
            "type": "array",
            "items": {"type": "string"},
            "description": "the key factors countering the thesis",
        },
        "blindSpots": {
            "type": "array",
            "items": {"type": "string"},
            "description": "what neither side's evidence covers (identified blind spots)",
        },
    },
    "required": ["verdict", "confidence", "keySupporting", "keyCountering", "blindSpots"],
}


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
    engine: rows.Engine = "websets"
    """where each side's items come from: websets, or Exa's Agent API (research runs returning rows,
    chunked by previousRunId until `count`; the synthesis then gets both sides' rows as input.data);
    fixed in the task's first checkpoint;
    omitted or null: the server's EXA_ORCH_ENGINE (websets unless set)"""
    timeout: float = Field(default=300_000, gt=0, le=3_600_000)
    """milliseconds (not seconds) each wait may take: each webset, and the synthesis; then the task
    returns what it has"""


def poll_seconds(timeout_s: float) -> float:
    """Check about 100 times per wait, at most every 2 s (a short test wait polls often)."""
    return min(2.0, max(0.05, timeout_s / 100))


def _webset_body(args: VerifyArgs, query: str) -> Json:
    search: Json = {"query": query, "count": args.count}
    if args.entity is not None:
        search["entity"] = args.entity.model_dump(exclude_none=True)
    body: Json = {"search": search}
    if args.enrichments:
        body["enrichments"] = [e.wire() for e in args.enrichments]
    return body


def _named(exc: OrchError, created: dict[str, str], engine: str = "websets") -> OrchError:
    """`exc` with its message naming the websets (agent runs) created so far (for manual recovery)."""
    if created:
        if engine == "agent":
            names = ", ".join(f"{side} agent run(s) {rid}" for side, rid in created.items())
            how = "read them with research.get, stop them with research.cancel"
        else:
            names = ", ".join(f"{side} webset {wid}" for side, wid in created.items())
            how = "fetch them with websets.get / items.getAll"
        exc.message = f"{exc.message} (already created: {names}; {how})"
        exc.args = (exc.message,)
    return exc


# --- the synthesis prompt ----------------------------------------------------------------------


def _item_line(item: Json) -> str:
    props = item.get("properties") or {}
    detail = props.get("description")
    for kind in ("company", "person", "article", "researchPaper", "custom"):
        sub = props.get(kind)
        if not detail and isinstance(sub, dict):
            detail = sub.get("description") or sub.get("summary") or sub.get("title")
    parts = [kit.item_name(item) or "(unnamed)"]
    if kit.item_url(item):
        parts.append(f"<{kit.item_url(item)}>")
    line = " ".join(parts)
    if isinstance(detail, str) and detail.strip():
        line += f": {' '.join(detail.split())}"
    results = [
        ", ".join(str(r) for r in e.get("result") or [])
        for e in item.get("enrichments") or []
        if e.get("result")
    ]
    if results:
        line += f" [{'; '.join(results)}]"
    return "- " + (line if len(line) <= ITEM_LINE_CHARS else line[: ITEM_LINE_CHARS - 3] + "...")


def summarize(items: list[Json], budget: int = SIDE_PROMPT_CHARS) -> str:
    """One line per item (name, URL, description, enrichment results), cut to `budget` characters."""
    if not items:
        return "(no items found)"
    lines: list[str] = []
    used = 0
    for i, item in enumerate(items):
        line = _item_line(item)
        if used + len(line) + 1 > budget:
            lines.append(f"- ... and {len(items) - i} more items not shown")
            break
        lines.append(line)
        used += len(line) + 1
    return "\n".join(lines)


def synthesis_prompt(thesis: str, supporting: list[Json], countering: list[Json]) -> str:
    """The seed's synthesis prompt, with the items summarized."""
    return (
        f'Given supporting evidence for the thesis "{thesis}":\n{summarize(supporting)}\n\n'
        f"And counter-evidence:\n{summarize(countering)}\n\n"
        f"Provide a balanced assessment including: verdict ({', '.join(VERDICTS)}), confidence\n"
        f"{CONFIDENCE_SCALE}, key supporting factors, key countering factors, and identified blind spots."
    )


def evidence_rows(side: str, got: list[Json], enrichments: list[kit.EnrichmentArg]) -> list[Json]:
    """One side's agent rows as the synthesis run's `input.data`: {side, name, url, description,
    fields: {enrichment description: value}} (whole, nothing cut; empty values left out)."""
    out: list[Json] = []
    for row in got:
        entry: Json = {"side": side}
        for key in ("name", "url", "description"):
            if row.get(key):
                entry[key] = row[key]
        values = {
            enrichments[j].description: f["value"]
            for j, f in enumerate(row["fields"])
            if j < len(enrichments) and f["value"] is not None
        }
        if values:
            entry["fields"] = values
        out.append(entry)
    return out


def fit_evidence(evidence: list[Json], limit: int = agent_runs.MAX_INPUT_CHARS) -> list[Json]:
    """`evidence` whole when it fits one run's `input` (`limit` characters as JSON, at most
    MAX_INPUT_ROWS rows); else the rows that fit, taken a side at a time in turn (each side's first
    rows first), in their order. Deterministic, so a resumed task sends the same rows."""
    budget = limit - agent_runs.input_chars({"data": []})
    if agent_runs.input_chars({"data": evidence}) <= limit and len(evidence) <= agent_runs.MAX_INPUT_ROWS:
        return evidence
    queues = [[i for i, r in enumerate(evidence) if r.get("side") == side] for side in SIDES]
    kept: set[int] = set()
    used = 0
    while any(queues) and len(kept) < agent_runs.MAX_INPUT_ROWS:
        for queue in queues:
            if not queue or len(kept) >= agent_runs.MAX_INPUT_ROWS:
                continue
            i = queue.pop(0)
            size = agent_runs.input_chars(evidence[i]) + (1 if kept else 0)
            if used + size > budget:
                queue.clear()  # this side's later rows are left out too (its order kept)
                continue
            kept.add(i)
            used += size
    return [r for i, r in enumerate(evidence) if i in kept]


def rows_prompt(thesis: str, evidence: list[Json], left_out: int = 0) -> str:
    """The synthesis instructions when the evidence is the run's input rows (the agent engine);
    `left_out`: rows found but not sent (`fit_evidence`)."""
    n = {side: sum(1 for r in evidence if r.get("side") == side) for side in SIDES}
    found = (
        f'The input rows are the evidence on the thesis "{thesis}": {n["thesis"]} rows with side '
        f'"thesis" were found as supporting evidence, {n["antithesis"]} rows with side "antithesis" as '
        "counter-evidence (each row: name, url, description and the fields found about it)."
        if evidence
        else f'No evidence was found for or against the thesis "{thesis}".'
    )
    if left_out:
        found += f" {left_out} more rows were found but left out to fit one run's input."
    return (
        f"{found}\n\n"
        f"Provide a balanced assessment including: verdict ({', '.join(VERDICTS)}), confidence\n"
        f"{CONFIDENCE_SCALE}, key supporting factors, key countering factors, and identified blind spots."
    )


# --- mapping the run's output --------------------------------------------------------------------


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value] if value.strip() else []
    if isinstance(value, list):
        return [str(v) for v in value if v is not None and str(v).strip()]
    return []


def confidence_0_1(value: Any) -> float | None:
    """The synthesis's confidence on the one scale, 0..1: a number in 0..1 as is; one in (1, 100],
    or a string like "72%", read as a percentage; anything else (negative, over 100, not a number)
    None, since it is no confidence on either scale."""
    if isinstance(value, str):
        text = value.strip()
        percent = text.endswith("%")
        try:
            number = float(text.rstrip("%").strip())
        except ValueError:
            return None
        if percent:
            number /= 100
    elif isinstance(value, int | float) and not isinstance(value, bool):
        number = float(value)
    else:
        return None
    if 1 < number <= 100:
        number /= 100
    if not 0 <= number <= 1:  # NaN too
        return None
    return round(number, 4)


def _verdict(value: Any) -> tuple[str, str | None]:
    """(one of VERDICTS, the model's own word when it was none of them)."""
    text = (
        " ".join(str(value).lower().replace("_", " ").replace("-", " ").split()) if value is not None else ""
    )
    return (text, None) if text in VERDICTS else ("inconclusive", str(value) if value is not None else None)


def synthesis_from_run(run: Json) -> Json:
    """The seed's `synthesis` object from a finished research run (research.pollUntilFinished's view)."""
    output = run.get("output") or {}
    structured = output.get("structured")
    out: Json = {"researchId": run.get("researchId")}
    if not isinstance(structured, dict):
        text = output.get("text")
        out["error"] = {
            "code": "SYNTHESIS_UNSTRUCTURED",
            "message": "the research run finished without the structured verdict that was asked for",
        }
        if isinstance(text, str) and text:
            out["text"] = text
        return out
    verdict, unrecognized = _verdict(structured.get("verdict"))
    if unrecognized is not None:
        out["verdictUnrecognized"] = unrecognized
    out.update(
        verdict=verdict,
        confidence=confidence_0_1(structured.get("confidence")),
        keySupporting=_strings(structured.get("keySupporting")),
        keyCountering=_strings(structured.get("keyCountering")),
        blindSpots=_strings(structured.get("blindSpots")),
    )
    if output.get("citations"):
        out["citations"] = output["citations"]
    return out


async def _synthesize(
    ctx: TaskContext, args: VerifyArgs, sides: dict[str, Json], evidence: list[Json] | None = None
) -> Json:
    """Run the synthesis; any failure or timeout becomes {error} (the sides are kept either way).

    `evidence` (the agent engine): both sides' rows, sent as the run's input.data (whole when they
    fit one run's input, else `fit_evidence`'s share); without it, the items summarized in the prompt."""
    create_args: Json
    if evidence is None:
        prompt = synthesis_prompt(args.thesis, sides["thesis"]["items"], sides["antithesis"]["items"])
        create_args = {"instructions": prompt, "outputSchema": SYNTHESIS_SCHEMA}
    else:
        sent = fit_evidence(evidence)
        prompt = rows_prompt(args.thesis, sent, len(evidence) - len(sent))
        create_args = {"instructions": prompt, "outputSchema": SYNTHESIS_SCHEMA}
        if sent:
            create_args["input"] = {"data": sent}
    await ctx.progress("synthesis", len(SIDES) + 2, len(SIDES) + 3, "starting the synthesis research run")
    try:
        run: Json = await kit.create_research(ctx, "synthesis.create", create_args)
    except OrchError as exc:
        return {"error": exc.to_dict()}
    research_id = str(run["researchId"])

    async def cancel_run() -> None:
        await kit.call(ctx, "research.cancel", {"researchId": research_id}, step="cancel")

    remove = ctx.on_cancel(cancel_run)
    ctx.on_stop(partial(found_synthesis, ctx, research_id))
    timeout_s = min(kit.seconds(args.timeout), 3600.0)
    until = await kit.deadline(ctx, "synthesis.start", timeout_s)  # kept across restarts
    left = max(0.05, until - time.time())
    # The whole output: the verdict is read from its structured part, which a default answer summarises.
    poll = {"researchId": research_id, "timeout": left, "pollInterval": poll_seconds(timeout_s), "full": True}

    async def wait() -> Json:
        done: Json = await kit.call(
            ctx, "research.pollUntilFinished", poll, step="synthesis", since=until - timeout_s
        )
        return done

    try:
        done: Json = await ctx.step("synthesis.poll", wait)
    except OrchError as exc:
        return {"researchId": research_id, "error": exc.to_dict()}
    if done.get("timedOut"):
        # Left running: the caller may still read it with research.get once it finishes.
        return {
            "researchId": research_id,
            "status": done.get("status"),
            "timedOut": True,
            "error": {
                "code": "SYNTHESIS_TIMEOUT",
                "message": f"research run {research_id} was still {done.get('status')} after "
                f"{timeout_s:g}s; read it later with research.get {{researchId: {research_id!r}}}",
            },
        }
    remove()
    if done.get("status") != "completed":
        error = done.get("error") or {}
        return {
            "researchId": research_id,
            "status": done.get("status"),
            "error": {
                "code": str(error.get("code") or "SYNTHESIS_FAILED"),
                "message": str(error.get("message") or f"research run {research_id} {done.get('status')}"),
            },
        }
    return synthesis_from_run(done)


# --- the workflow --------------------------------------------------------------------------------


async def _gather(ctx: TaskContext, side: str, webset_id: str, timeout_s: float) -> Json:
    """Steps `<side>.idle` and `<side>.items`: the side as the seed returns it (timedOut if still busy)."""
    waited = await kit.wait_idle(ctx, f"{side}.idle", webset_id, timeout_s, poll_seconds(timeout_s))
    items = await kit.collect_items(ctx, f"{side}.items", webset_id)
    out: Json = {"websetId": webset_id, "items": items, "itemCount": len(items)}
    if waited["timedOut"]:
        out["timedOut"] = True  # still searching at Exa: these are the items found so far
    return out


async def verify(ctx: TaskContext, args: VerifyArgs) -> Json:
    """Phase A/B: thesis and antithesis websets or agent collections (in parallel at Exa); Phase C:
    optional synthesis.

    Steps are flat (none inside another), so a run resumed only to cancel replays every step that
    registers a cancel hook."""
    started: float = await ctx.step("started", time.time)  # `duration` spans restarts too
    engine: str = await ctx.step("engine", lambda: args.engine)  # a resumed task never switches
    timeout_s = min(kit.seconds(args.timeout), 3600.0)
    sides: dict[str, Json] = {}
    total = 4 + (1 if args.synthesize else 0)
    evidence: list[Json] | None = None
    if engine == "agent":
        evidence = await _agent_sides(ctx, args, sides, started, timeout_s, total)
    else:
        await _webset_sides(ctx, args, sides, started, timeout_s, total)

    synthesis: Json | None = None
    if args.synthesize:
        synthesis = await _synthesize(ctx, args, sides, evidence)
        state = synthesis["error"]["message"] if "error" in synthesis else synthesis["verdict"]
        await ctx.progress("synthesis", total, total, f"synthesis: {state}")
    return _result(sides, synthesis, started, engine)


async def _webset_sides(
    ctx: TaskContext, args: VerifyArgs, sides: dict[str, Json], started: float, timeout_s: float, total: int
) -> None:
    """Each side a webset (both created first); fills `sides`."""
    queries = {"thesis": args.thesis_query, "antithesis": args.antithesis_query}
    created: dict[str, str] = {}
    removers: dict[str, Callable[[], None]] = {}

    def canceller(webset_id: str) -> Callable[[], Awaitable[Any]]:
        return lambda: kit.call(ctx, "websets.cancel", {"id": webset_id}, step="cancel")

    try:
        for side in SIDES:  # both up front, so Exa searches them in parallel
            webset = await kit.create_webset(ctx, f"{side}.webset", _webset_body(args, queries[side]))
            created[side] = str(webset["id"])
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


def side_asks(args: VerifyArgs) -> dict[str, rows.Ask]:
    """Each side's agent collection: its query, `count` rows, the enrichments as row fields."""
    queries = {"thesis": args.thesis_query, "antithesis": args.antithesis_query}
    kind = str(args.entity.type) if args.entity is not None else "custom"
    fields = list(args.enrichments or [])
    # What one row is, when the task names its entity (else the runs infer it from the query).
    options: Json = {"systemPrompt": rows.entity_prompt(args.entity.model_dump())} if args.entity else {}
    return {side: rows.Ask(queries[side], [], fields, args.count, kind, options=options) for side in SIDES}


async def _agent_sides(
    ctx: TaskContext, args: VerifyArgs, sides: dict[str, Json], started: float, timeout_s: float, total: int
) -> list[Json]:
    """Each side an agent collection (both first runs started first); fills `sides` and returns
    both sides' rows as the synthesis's input.data (built from checkpointed polls only)."""
    asks = side_asks(args)
    first: dict[str, tuple[str, Callable[[], None]]] = {}
    collected = {side: rows.Collected() for side in SIDES}  # filled as runs start (named on error)
    evidence: list[Json] = []
    ctx.on_stop(partial(found_rows, sides, collected))
    try:
        for side in SIDES:  # both up front, so Exa runs them in parallel
            first[side] = await rows.start(ctx, f"{side}.run", asks[side])
        message = f"thesis agent run {first['thesis'][0]}, antithesis agent run {first['antithesis'][0]}"
        await ctx.progress("runs", 2, total, message)
        for n, side in enumerate(SIDES):
            until = await kit.deadline(ctx, f"{side}.wait.start", timeout_s)  # kept across restarts
            got = await rows.finish(
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
            await ctx.partial({**_result(sides, None, started, "agent"), "partial": True})
    except OrchError as exc:
        started_runs = {
            side: ", ".join(collected[side].run_ids or [first[side][0]]) for side in SIDES if side in first
        }
        raise _named(exc, started_runs, "agent") from None
    return evidence


async def found_items(ctx: TaskContext, sides: dict[str, Json], created: dict[str, str]) -> Json:
    """A stopped verification's salvage (ctx.on_stop): each side not collected yet, read from its
    webset (the items it holds so far, `stopped: true`)."""
    out: Json = {}
    for side, webset_id in created.items():
        if side in sides:
            continue
        items = await kit.webset_items(ctx, f"stopped.{side}.items", webset_id)
        out[side] = {"websetId": webset_id, "items": items, "itemCount": len(items), "stopped": True}
    return out


async def found_rows(sides: dict[str, Json], collected: dict[str, rows.Collected]) -> Json:
    """A stopped agent verification's salvage: each side not finished yet, with the rows its
    finished runs returned."""
    out: Json = {}
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


async def found_synthesis(ctx: TaskContext, research_id: str) -> Json:
    """A verification stopped during its synthesis: the run as it stands (its verdict if it finished)."""
    run: Json = await kit.call(ctx, "research.get", {"researchId": research_id, "full": True}, step="stopped")
    if run.get("status") == "completed":
        return {"synthesis": synthesis_from_run(run)}
    return {"synthesis": {"researchId": research_id, "status": run.get("status"), "stopped": True}}


def _result(sides: dict[str, Json], synthesis: Json | None, started: float, engine: str) -> Json:
    out: Json = {"engine": engine, **{side: sides[side] for side in SIDES if side in sides}}
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
    n = len(args.enrichments or [])
    contacts = prices.contact_columns(args.enrichments or [])
    if args.engine == "agent":
        parts = rows.cost(args.count, "agent collection run (thesis, antithesis)", collections=2)
    else:
        parts = [
            *prices.webset(args.count, n, "thesis webset", contacts),
            *prices.webset(args.count, n, "antithesis webset", contacts),
        ]
    if args.synthesize:
        parts.append(prices.research_run("exa-research", "synthesis run"))
    return parts


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
