"""research.* (seed 002 names) on Exa's Agent API: /research/v1 is retired (410 since 2026-05-01).

The seed's arguments are kept and mapped: instructions -> query, outputSchema -> outputSchema,
model exa-research-fast | exa-research | exa-research-pro -> effort low | medium | high. The rest
of exa-py 2.28's run surface is there too (gateway/agent_runs.py, checked before sending): every
effort, budget, input.data rows, input.exclusion, previousRunId (a follow-up is a new
research.create naming the earlier run), dataSources, systemPrompt, and research.stop. Each run
carries `userIdentifier`: a stable hash of the calling principal's name (never the name).
Every result says `backend: "agent"` so nobody mistakes it for the old API.

Answers are agent-sized by default: a run's output text is shown up to `maxChars` characters (from
`textOffset`, so a long text reads in parts), a structured output larger than STRUCTURED_CHARS of
JSON is summarised, and at most CITATION_GROUPS citation groups are listed; `outputHint` says what
was left out. `full: true` gives the whole output; `raw: true` Exa's run object as it is.
"""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import Field, model_validator

from exa_orch.errors import NotFoundError
from exa_orch.exa.creates import MAX_LIST_PAGES
from exa_orch.exa.polling import poll_until
from exa_orch.exa.port import run_params
from exa_orch.exa.statuses import RUN_TERMINAL
from exa_orch.exa.views import research_view, run_json
from exa_orch.gateway.agent_runs import (
    DEFAULT_MODEL,
    MODEL_TO_EFFORT,
    OutputSchema,
    RunOptions,
    check_model_effort,
    user_identifier,
)
from exa_orch.gateway.context import current_request
from exa_orch.gateway.marks import new_key

from . import projections as pj
from .context import OpContext
from .models import Args, Id
from .registry import Operation
from .task_views import summarize

LIST_NOTE = (
    "A listed run's output is left out: research.get {researchId} gives it (raw: true lists it whole)."
)
BACKEND_NOTE = (
    "Exa retired /research/v1 on 2026-05-01; this ran on the Agent API (/agent/runs). Statuses are the "
    "Agent API's: queued, running, completed, failed, cancelled."
)


ResearchModel = Literal["exa-research-fast", "exa-research", "exa-research-pro"]


class CreateResearch(Args, RunOptions):
    instructions: str = Field(min_length=1, max_length=20000)
    """what to research (sent as the agent run's query)"""
    output_schema: OutputSchema | None = None
    """JSON Schema of the structured answer you want"""
    model: ResearchModel | None = None
    """mapped to agent effort: fast -> low, research -> medium, pro -> high (default exa-research when
    no effort is given); `effort` names any effort directly"""
    external_id: str | None = Field(default=None, max_length=300)
    """your idempotency key: kept in the run's metadata.exaOrchKey; a create whose answer was lost is
    looked up by it before being sent again (one is made up when you give none)"""

    def mapped_effort(self) -> str | None:
        return MODEL_TO_EFFORT[self.model or DEFAULT_MODEL]

    @model_validator(mode="after")
    def _one_effort(self) -> CreateResearch:
        check_model_effort(self.model, self.effort)
        return self


class ResearchId(Args):
    research_id: Id = Field(alias="researchId")
    """the id research.create returned (an agent run id)"""


TEXT_CHARS = 6_000
"""Characters of a run's output text an answer shows by default (`maxChars`)."""
MAX_TEXT_CHARS = 200_000
"""The most `maxChars` may ask for in one answer (`full: true` has no bound)."""
STRUCTURED_CHARS = 6_000
"""A structured output whose JSON is longer is summarised by default (`full: true` for all of it)."""
CITATION_GROUPS = 20
"""Citation groups (one per grounded field) an answer lists by default."""


class ReadResearch(ResearchId):
    full: bool = False
    """the whole output in one answer (by default the text is cut at maxChars, a structured output
    over 6,000 characters of JSON is summarised and at most 20 citation groups are listed)"""
    max_chars: int = Field(default=TEXT_CHARS, ge=1, le=MAX_TEXT_CHARS, alias="maxChars")
    """characters of the output text to show (default 6,000)"""
    text_offset: int = Field(default=0, ge=0, alias="textOffset")
    """where the text shown starts: the output's nextTextOffset reads the next part"""


class FindResearch(Args):
    external_id: str = Field(min_length=1, max_length=300)
    """the externalId research.create was given (or answered with)"""


class ListResearch(Args):
    cursor: str | None = None
    limit: int | None = Field(default=None, ge=1, le=100)


class PollResearch(ReadResearch):
    timeout: float = Field(default=600.0, gt=0, le=3600)
    """seconds to wait at most; the result says timedOut when the run is still going"""
    poll_interval: float = Field(default=2.0, ge=0.05, le=60)


async def create(args: CreateResearch, ctx: OpContext) -> dict[str, Any]:
    # The Agent API has no externalId: the key is a metadata mark, found again in the runs list.
    key = args.external_id or new_key()
    model = args.model or (DEFAULT_MODEL if args.effort is None else None)
    metadata: dict[str, Any] = {"via": "exa-orch research.create"}
    if model is not None:
        metadata["model"] = model
    fields: dict[str, Any] = {"query": args.instructions, **args.run_fields(), "metadata": metadata}
    fields["userIdentifier"] = user_identifier(current_request().principal)
    if args.output_schema is not None:
        fields["outputSchema"] = args.output_schema
    made = await ctx.exa_port.create_run(await run_params(fields), key=key, find_first=bool(args.external_id))
    run = run_json(made)
    return {**run, "model": model} if model is not None else run


async def find_run(ctx: OpContext, key: str) -> dict[str, Any] | None:
    """The agent run created with mark `key` (`ExaPort.find_run`), as JSON, or None: research.find
    (a cancelled task's in-flight run)."""
    run = await ctx.exa_port.find_run(key)
    return None if run is None else run_json(run)


async def find(args: FindResearch, ctx: OpContext) -> dict[str, Any]:
    """The run research.create made with `externalId` (looked up by its metadata mark)."""
    run = await find_run(ctx, args.external_id)
    if run is None:
        raise NotFoundError(
            f"no research run carries externalId {args.external_id!r} among the newest "
            f"{MAX_LIST_PAGES * 100} runs",
            hint="Check the externalId you gave research.create, or list runs with research.list.",
        )
    return run


async def get(args: ReadResearch, ctx: OpContext) -> dict[str, Any]:
    # exa-py puts the run id into the path as is: escape it ("run/cancel" or "id?x" must not route).
    return run_json(await ctx.exa_port.get_run(args.research_id))


async def cancel(args: ResearchId, ctx: OpContext) -> dict[str, Any]:
    """Cancel a running research task (Agent API run cancel). A run that has finished already is
    answered as it is (200, its status completed, failed or cancelled: the spec's "returns the
    existing run"), so a cancel racing the run's end is no error."""
    return run_json(await ctx.exa_port.cancel_run(args.research_id))


async def stop(args: ResearchId, ctx: OpContext) -> dict[str, Any]:
    """Stop an ultra-effort run now, keeping what it found (it completes with stopReason "stopped").
    Exa stops only effort ultra runs (exa-py 2.28); any other is refused by Exa (400)."""
    return run_json(await ctx.exa_port.stop_run(args.research_id))


async def list_(args: ListResearch, ctx: OpContext) -> dict[str, Any]:
    page = await ctx.exa_port.list_runs(cursor=args.cursor, limit=args.limit)
    return page.model_dump(by_alias=True, exclude_none=True, mode="json")


async def poll_until_finished(args: PollResearch, ctx: OpContext) -> dict[str, Any]:
    """Poll the run until terminal or `timeout`; progress is reported on each poll (no total is known)."""

    async def fetch() -> dict[str, Any]:
        return run_json(await ctx.exa_port.get_run(args.research_id))

    async def report(run: dict[str, Any], polls: int) -> None:
        await ctx.progress(polls, None, f"research {args.research_id} {run.get('status')}")

    polled = await poll_until(
        fetch,
        done=lambda run: run.get("status") in RUN_TERMINAL,
        report=report,
        within=args.timeout,
        interval=args.poll_interval,
    )
    return {**polled.last, "timedOut": not polled.done, "waitedSeconds": polled.waited}


RESEARCH_SCHEMA = pj.schema(
    ("researchId", "status", "backend", "note"),
    ("stopReason", "createdAt", "completedAt", "error", "costDollars", "output", "effort", "previousRunId", "externalId",
     "model", "timedOut", "waitedSeconds", "outputHint"),
    output=pj.schema(
        optional=("text", "structured", "citations", "textChars", "nextTextOffset", "structuredSummary",
                  "moreCitations"),
        citations=pj.array({}),
    ),
)  # fmt: skip


def bounded_output(output: dict[str, Any], args: Any) -> tuple[dict[str, Any], list[str]]:
    """`output` (research_view's) cut to an agent-sized answer per `args` (maxChars, textOffset;
    the defaults for an operation without them), and what was left out, said for the agent."""
    max_chars = getattr(args, "max_chars", TEXT_CHARS)
    offset = getattr(args, "text_offset", 0)
    out = dict(output)
    left: list[str] = []
    text = output.get("text")
    if isinstance(text, str) and (offset or len(text) > max_chars):
        out["text"] = text[offset : offset + max_chars]
        out["textChars"] = len(text)
        if offset + max_chars < len(text):
            out["nextTextOffset"] = offset + max_chars
            left.append(
                f"text shows characters {offset:,}-{offset + len(out['text']):,} of {len(text):,} "
                f"(textOffset: {offset + max_chars} for the next part)"
            )
    structured = output.get("structured")
    if structured is not None and len(json.dumps(structured, default=str)) > STRUCTURED_CHARS:
        del out["structured"]
        out["structuredSummary"] = summarize(structured)
        left.append("the structured output is summarised (structuredSummary)")
    citations = output.get("citations")
    if isinstance(citations, list) and len(citations) > CITATION_GROUPS:
        out["citations"] = citations[:CITATION_GROUPS]
        out["moreCitations"] = len(citations) - CITATION_GROUPS
        left.append(f"{len(citations) - CITATION_GROUPS} more citation groups")
    return out, left


@pj.shaped(RESEARCH_SCHEMA)
def _one(result: dict[str, Any], args: Any) -> dict[str, Any]:
    out = research_view(result)
    for key in ("model", "timedOut", "waitedSeconds"):
        if key in result:
            out[key] = result[key]
    if "output" in out and not getattr(args, "full", False):
        out["output"], left = bounded_output(out["output"], args)
        if left:
            out["outputHint"] = "; ".join(left) + ". full: true for the whole output."
    out["note"] = BACKEND_NOTE
    return out


@pj.shaped(pj.schema(("data", "hasMore", "backend", "note"), ("nextCursor",), data=pj.array(RESEARCH_SCHEMA)))
def _page(result: dict[str, Any], args: Any) -> dict[str, Any]:
    out: dict[str, Any] = {
        # A page of runs without their outputs (each can be as big as its input.data): small by default.
        "data": [
            {k: v for k, v in research_view(r).items() if k != "output"} for r in result.get("data") or []
        ],
        "hasMore": bool(result.get("hasMore")),
        "backend": "agent",
        "note": f"{BACKEND_NOTE} {LIST_NOTE}",
    }
    if result.get("nextCursor"):
        out["nextCursor"] = result["nextCursor"]
    return out


OPERATIONS: list[Operation] = [
    Operation("research.create", CreateResearch, create, "Start a research task (instructions, outputSchema, "
              "model); runs on Exa's Agent API.", project=_one, create_key="externalId"),
    Operation("research.get", ReadResearch, get, "Get a research task's status and output (agent-sized: "
              "the text up to maxChars from textOffset, a large structured output summarised; full: true "
              "for the whole output).", project=_one, read_only=True),
    Operation("research.cancel", ResearchId, cancel, "Cancel a running research task.", project=_one),
    Operation("research.stop", ResearchId, stop, "Stop an ultra-effort research task now and keep what it "
              "found (it completes with stopReason 'stopped').", project=_one),
    Operation("research.find", FindResearch, find, "Find the research task research.create made with an "
              "externalId (its answer lost, or a task cancelled while creating it).", project=_one, read_only=True),
    Operation("research.list", ListResearch, list_, "List research tasks (agent runs), one page.", project=_page, read_only=True),
    Operation("research.pollUntilFinished", PollResearch, poll_until_finished, "Wait (bounded by timeout) until "
              "a research task finishes, with progress; the output is agent-sized as research.get's "
              "(full: true for all of it).", long_running=True, project=_one),
]  # fmt: skip
