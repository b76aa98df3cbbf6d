"""adversarial.verify's synthesis: the research run asked for a verdict on the thesis.

On Websets the prompt summarizes each side's items (at most SIDE_PROMPT_CHARS a side); on a row
engine both sides' rows are sent as the run's `input.data` (each tagged with its side; whole when they
fit one run's input, agent_runs.MAX_INPUT_CHARS, else `fit_evidence` takes the sides' rows in turn and
the prompt says how many were left out). The run's structured output becomes the `synthesis` object
(`synthesis_from_run`); a failure or timeout becomes {error}, the two sides kept either way.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

from exa_orch.errors import OrchError
from exa_orch.gateway import agent_runs
from exa_orch.runtime import TaskContext
from exa_orch.runtime.deps import exa_port_of
from exa_orch.workflows import kit, research, runs
from exa_orch.workflows.row_model import Row

if TYPE_CHECKING:
    from exa_py.agent.types import AgentRun

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


def poll_seconds(timeout_s: float) -> float:
    """Check about 100 times per wait, at most every 2 s (a short test wait polls often)."""
    return min(2.0, max(0.05, timeout_s / 100))


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


def evidence_rows(side: str, got: list[Row], enrichments: list[kit.EnrichmentArg]) -> list[Json]:
    """One side's agent rows as the synthesis run's `input.data`: {side, name, url, description,
    fields: {enrichment description: value}} (whole, nothing cut; empty values left out)."""
    out: list[Json] = []
    for row in got:
        entry: Json = {"side": side}
        entry.update(
            (k, v) for k, v in (("name", row.name), ("url", row.url), ("description", row.description)) if v
        )
        values = {
            enrichments[j].description: f.value
            for j, f in enumerate(row.fields)
            if j < len(enrichments) and f.value is not None
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


def synthesis_from_run(run: AgentRun) -> Json:
    """The seed's `synthesis` object from a finished research run (exa-py's `AgentRun`): its verdict
    from the run's structured output, its citations the run's grounding (`runs.citations_of`)."""
    output = run.output
    structured = output.structured if output is not None else None
    out: Json = {"researchId": run.id}
    if not isinstance(structured, dict):
        text = output.text if output is not None else None
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
    citations = runs.citations_of(run)
    if citations:
        out["citations"] = citations
    return out


def synthesis_args(thesis: str, sides: dict[str, Json], evidence: list[Json] | None) -> Json:
    """The synthesis run's research.create args: with `evidence` (a row engine's rows), those rows
    as input.data (whole when they fit one run's input, else `fit_evidence`'s share); without it,
    the sides' items summarized in the prompt."""
    if evidence is None:
        prompt = synthesis_prompt(thesis, sides["thesis"]["items"], sides["antithesis"]["items"])
        return {"instructions": prompt, "outputSchema": SYNTHESIS_SCHEMA}
    sent = fit_evidence(evidence)
    create_args: Json = {
        "instructions": rows_prompt(thesis, sent, len(evidence) - len(sent)),
        "outputSchema": SYNTHESIS_SCHEMA,
    }
    if sent:
        create_args["input"] = {"data": sent}
    return create_args


async def synthesize(
    ctx: TaskContext,
    thesis: str,
    timeout_ms: float,
    sides: dict[str, Json],
    evidence: list[Json] | None = None,
) -> Json:
    """Run the synthesis; any failure or timeout becomes {error} (the sides are kept either way).

    `evidence` as in `synthesis_args`; `timeout_ms` bounds the wait (at most an hour). Steps:
    "synthesis.create" and "synthesis.poll" (`runs.RunSeen`s; the research views an older version
    saved there are read by `runs.seen_from_research_view`), "synthesis.start" (the wait's start)."""
    await ctx.progress("synthesis", len(SIDES) + 2, len(SIDES) + 3, "starting the synthesis research run")
    try:
        created = await research.start_research_run(
            ctx, "synthesis.create", synthesis_args(thesis, sides, evidence)
        )
    except OrchError as exc:
        return {"error": exc.to_dict()}
    research_id = created.run.id

    async def cancel_run() -> None:
        await exa_port_of(ctx.deps).cancel_run(research_id)

    remove = ctx.on_cancel(cancel_run)
    ctx.on_stop(partial(found_synthesis, ctx, research_id))
    timeout_s = min(kit.seconds(timeout_ms), 3600.0)
    try:
        seen = await _wait(ctx, research_id, timeout_s)
    except OrchError as exc:
        return {"researchId": research_id, "error": exc.to_dict()}
    status = seen.run.status
    if seen.timed_out:
        # Left running: the caller may still read it with research.get once it finishes.
        return {
            "researchId": research_id,
            "status": status,
            "timedOut": True,
            "error": {
                "code": "SYNTHESIS_TIMEOUT",
                "message": f"research run {research_id} was still {status} after "
                f"{timeout_s:g}s; read it later with research.get {{researchId: {research_id!r}}}",
            },
        }
    remove()
    return _finished(seen.run)


async def _wait(ctx: TaskContext, research_id: str, timeout_s: float) -> runs.RunSeen:
    """Step "synthesis.poll": the run read until its end or `timeout_s` after the wait first began
    (polls at most `poll_seconds(timeout_s)` apart)."""
    until = await kit.deadline(ctx, "synthesis.start", timeout_s)  # kept across restarts
    since = until - timeout_s

    async def report(run: AgentRun, polls: int) -> None:
        await ctx.progress(
            "synthesis", polls, None, f"research {research_id} {run.status} {kit.elapsed(since)}"
        )

    return await runs.poll_run(
        ctx, "synthesis.poll", research_id, until, report, most=poll_seconds(timeout_s)
    )


def _finished(run: AgentRun) -> Json:
    """The synthesis of a run that ended: its verdict, or {error} when it did not complete."""
    if run.status != "completed":
        error = run.error
        code = error.code if error is not None else None
        message = error.message if error is not None else None
        return {
            "researchId": run.id,
            "status": run.status,
            "error": {
                "code": str(code or "SYNTHESIS_FAILED"),
                "message": str(message or f"research run {run.id} {run.status}"),
            },
        }
    return synthesis_from_run(run)


async def found_synthesis(ctx: TaskContext, research_id: str) -> Json:
    """A verification stopped during its synthesis: the run as it stands (its verdict if it finished)."""
    run = await exa_port_of(ctx.deps).get_run(research_id)
    if run.status == "completed":
        return {"synthesis": synthesis_from_run(run)}
    return {"synthesis": {"researchId": research_id, "status": run.status, "stopped": True}}
