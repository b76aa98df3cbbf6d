"""research.verifiedCollection (seed 002, pattern 5): a webset's items, each researched in depth.

Flow: create the webset (query, entity, criteria, enrichments) -> wait until idle -> collect the
items -> for the first `researchLimit` entities (one item each; a second page of the same entity
gets `sameEntityAs` and `mergeReasons` instead of a run), a research run (Exa Agent API) from
`researchPrompt` with {{name}}, {{url}}, {{description}} filled from the item, at most 3 runs in flight -> merge.

Every Exa call is a step: the webset's create (externalId), its wait and collection, and each item's
research create and poll under their own keys, so a resumed task redoes none of them (a run carries
the task's key for its create step in its metadata and is looked up by it before it is created, as
in research.deep). The webset legs read exa-py's `Webset` (`webset_steps`), the runs exa-py's
`AgentRun` (`runs.RunSeen`), the rows `rows.Row`; the items stay as agents read them.

`timeout` (ms) bounds the whole task: the webset wait and the research polls share it. A timeout
is a result (`timedOut: true`): the items collected so far, with the research that finished.

`engine: "agent"` collects on Exa's Agent API instead (`rows.collect`: runs whose rows carry a
yes/no/unclear verdict per criterion and the enrichments as fields, chunked by previousRunId +
input.exclusion until `count`; only rows judged yes on every criterion are kept, as a webset keeps)
and researches the entities in batches: one run per RESEARCH_BATCH entities, their rows (name, url,
description) sent as `input.data` and the answer asked as each row's `research` field, at most
IN_FLIGHT batches at once. The result has the same shape (its items are the rows' Websets-item
view), `websetId` null and the collection's runs in `runIds`. The engine is fixed in the task's
checkpoint "engine".
"""

from __future__ import annotations

import dataclasses
import math
from functools import partial
from typing import Any

from pydantic import Field, field_validator, model_validator

from exa_orch.errors import OrchError
from exa_orch.gateway import prices
from exa_orch.gateway.agent_runs import OutputSchema, refused
from exa_orch.runtime import TaskContext
from exa_orch.runtime.spec import WorkflowSpec
from exa_orch.store import Archetype
from exa_orch.workflows import engines, kit, memory, memory_search, rows, webset_steps
from exa_orch.workflows.archive import verified_run
from exa_orch.workflows.entity_research import (
    FIELDS,
    MAX_INSTRUCTIONS,
    PLACEHOLDER,
    Ask,
    Research,
    ResultJson,
    batch_instructions,
    fill,
)
from exa_orch.workflows.research import ResearchModel
from exa_orch.workflows.row_model import ItemJson

QUICK_S = 5.0  # seconds of the first, finely polled webset wait
RESEARCH_BATCH = 25  # entities one research run gets as input.data rows (a row engine)

# The research phase's names that are read here too (entity_research.py).
__all__ = [
    "MAX_INSTRUCTIONS",
    "RESEARCH_BATCH",
    "WORKFLOWS",
    "VerifiedCollectionArgs",
    "fill",
    "verified_collection",
    "verified_cost",
]


class VerifiedCollectionArgs(memory.KnownArgs):
    query: str = Field(min_length=1, max_length=5000)
    """what the webset searches for, in natural language"""
    entity: kit.EntityArg
    """what kind of thing the webset collects"""
    criteria: list[kit.CriterionArg] | None = Field(default=None, min_length=1, max_length=5)
    """conditions every item must meet (1 to 5)"""
    count: int = Field(default=25, ge=1, le=1000)
    """items the webset search looks for"""
    enrichments: list[kit.EnrichmentArg] | None = Field(default=None, max_length=10)
    """what to find out about each item (up to 10)"""
    research_prompt: str = Field(min_length=1, max_length=20000)
    """per-item research instructions; {{name}}, {{url}}, {{description}} are filled from the item"""
    research_schema: OutputSchema | None = None
    """JSON Schema of each item's structured research result; without it, the answer's text"""
    research_model: ResearchModel = "exa-research"
    """exa-research (agent effort medium) or exa-research-pro (effort high)"""
    research_limit: int = Field(default=10, ge=0, le=100)
    """items researched at most (the first ones the webset found)"""
    timeout: int = Field(default=1_800_000, gt=0, le=86_400_000)
    """milliseconds (not seconds) for the whole task (webset wait and research); then it returns what
    it has"""
    engine: engines.Engine = "websets"
    """where items come from: websets, or Exa's Agent API (research runs returning rows judged on each
    criterion, chunked by previousRunId until `count`; the research then runs as input.data batches of
    25 entities a run); fixed in the task's first checkpoint;
    omitted or null: the server's EXA_ORCH_ENGINE (websets unless set)"""

    @field_validator("research_prompt")
    @classmethod
    def _placeholders(cls, prompt: str) -> str:
        unknown = sorted({m.group(1) for m in PLACEHOLDER.finditer(prompt)} - set(FIELDS))
        if unknown:
            raise ValueError(
                f"unknown placeholder(s) {', '.join('{{' + u + '}}' for u in unknown)}; "
                "use {{name}}, {{url}} or {{description}}"
            )
        return prompt

    @model_validator(mode="after")
    def _batch_fits(self) -> VerifiedCollectionArgs:
        batched = engines.collector(self.engine).choose(_BATCHED)
        if batched and len(batch_instructions(self.research_prompt)) > MAX_INSTRUCTIONS:
            raise refused(
                ("researchPrompt",),
                f"on the agent engine the research prompt becomes a batch run's instructions, which "
                f"would be {len(batch_instructions(self.research_prompt))} characters (at most "
                f"{MAX_INSTRUCTIONS}); shorten researchPrompt",
                len(self.research_prompt),
            )
        return self


def name_webset(exc: OrchError, webset_id: str) -> OrchError:
    """The same typed error, its message naming the webset already created (a person can recover it)."""
    exc.message = (
        f"{exc.message} (research.verifiedCollection: webset {webset_id} was created and keeps its items)"
    )
    exc.args = (exc.message,)
    return exc


def name_runs(exc: OrchError, run_ids: list[str]) -> OrchError:
    """The same typed error, its message naming the agent runs the collection started."""
    exc.message = (
        f"{exc.message} (research.verifiedCollection: agent run(s) {', '.join(run_ids)} were started; "
        "read them with research.get)"
    )
    exc.args = (exc.message,)
    return exc


# Whether an engine's research runs in input.data batches: on a row engine, whose rows are
# ready-made input rows; on Websets, a run per item.
_BATCHED: engines.Pair[bool] = engines.Pair(lambda: False, lambda source: True)


async def verified_collection(ctx: TaskContext, args: VerifiedCollectionArgs) -> ResultJson:
    begun = await engines.begin(ctx, args.engine, clock="start")  # deadlines survive restarts
    on = (ctx, args, begun.started, begun.started + args.timeout / 1000)
    return await begun.engine.choose(engines.Pair(partial(_on_websets, *on), partial(_on_rows, *on)))


async def _research(
    ctx: TaskContext, args: VerifiedCollectionArgs, head: ResultJson, items: list[ItemJson], timed_out: bool,
    started: float, deadline: float, batched: bool,
) -> ResultJson:  # fmt: skip
    """The research phase (entity_research.py) over the collected `items`, remembered first (entity
    memory; `known`); the result starts with `head`."""
    items = await memory.remember(ctx, items, args.known, "research.verifiedCollection")
    ask = Ask(
        args.research_prompt, args.research_schema, args.research_model, args.research_limit, RESEARCH_BATCH
    )
    research = await Research.of(ctx, ask, head, items, timed_out, started, deadline)
    return await research.run(batched)


async def _on_websets(
    ctx: TaskContext, args: VerifiedCollectionArgs, started: float, deadline: float
) -> ResultJson:
    """The webset (query, entity, criteria, enrichments), then `_collect_and_research`."""
    search: dict[str, Any] = {"query": args.query, "count": args.count, "entity": args.entity.model_dump()}
    if args.criteria:
        search["criteria"] = [{"description": c.description} for c in args.criteria]
    if exclude := await memory.webset_exclude(ctx, args.known, args.entity.model_dump()):
        search["exclude"] = exclude  # known: skip (entity memory)
    body: dict[str, Any] = {"search": search}  # websets.create's camelCase JSON
    if args.enrichments:
        body["enrichments"] = [e.wire() for e in args.enrichments]
    await ctx.progress("webset", 0, 3, "creating the webset")
    webset_id = (await webset_steps.create(ctx, "webset.create", body)).id

    async def cancel_webset() -> None:
        try:
            await kit.cancel_webset(ctx, webset_id)
        except OrchError:
            pass

    ctx.on_cancel(cancel_webset)
    try:
        return await _collect_and_research(ctx, args, webset_id, started, deadline)
    except OrchError as exc:
        raise name_webset(exc, webset_id) from None


async def found_items(ctx: TaskContext, webset_id: str, max_items: int) -> ResultJson:
    """A collection stopped before its research (ctx.on_stop): the items its webset holds."""
    items = await kit.webset_items(ctx, "stopped.items", webset_id, max_items)
    return {"items": [{"item": item} for item in items], "totalItems": len(items)}


async def found_rows(got: rows.Collected) -> ResultJson:
    """An agent collection stopped before its research: the rows its finished runs returned."""
    items = [{"item": rows.as_item(r)} for r in got.rows]
    return {"runIds": list(got.run_ids), "items": items, "totalItems": len(items)}


async def _collect_and_research(
    ctx: TaskContext, args: VerifiedCollectionArgs, webset_id: str, started: float, deadline: float
) -> ResultJson:
    ctx.on_stop(lambda: found_items(ctx, webset_id, max(args.count, 1000)))  # before any await
    await ctx.partial({"engine": "websets", "websetId": webset_id, "items": [], "partial": True})
    await ctx.progress("webset", 1, 3, f"webset {webset_id}: waiting for the search")
    # A quick look first (small searches end in seconds), then a patient wait for the rest.
    quick = min(deadline, await kit.deadline(ctx, "webset.wait.start", QUICK_S))
    query = memory_search.Query(  # known: skip holds the search to what the plain run analyzes
        args.query,
        args.entity.model_dump(),
        [c.description for c in args.criteria or []],
        args.count,
        args.known,
    )
    waited = await memory_search.wait_search(ctx, "webset.wait", webset_id, query, QUICK_S, 0.25, until=quick)
    if waited.timed_out:
        # Branch on the checkpoint only, never on the clock: a run resumed after the deadline must
        # replay the path the earlier run took (its research runs). No time left: a one-poll wait.
        waited = await memory_search.wait_search(
            ctx, "webset.wait.rest", webset_id, query, args.timeout / 1000, 2.0, until=deadline
        )
    if not waited.timed_out:
        await memory_search.record(ctx, query, memory_search.analyzed_of(waited.webset))
    items = await kit.collect_items(ctx, "webset.items", webset_id, max_items=max(args.count, 1000))
    await ctx.progress("webset", 3, 3, f"webset {webset_id}: {len(items)} items")
    head: ResultJson = {"engine": "websets", "websetId": webset_id}
    return await _research(ctx, args, head, items, waited.timed_out, started, deadline, False)


async def _on_rows(
    ctx: TaskContext, args: VerifiedCollectionArgs, started: float, deadline: float, source: engines.RowSource
) -> ResultJson:
    """A row engine (the Agent API): one collection (rows judged on every criterion, the enrichments
    as fields; the rows passing all of them kept), then the research as input.data batches."""
    criteria = [c.description for c in args.criteria or []]
    ask = rows.Ask(
        rows.all_of(args.query, criteria), criteria, list(args.enrichments or []), args.count,
        str(args.entity.type), keep_passing=True,
        options={"systemPrompt": rows.entity_prompt(args.entity.model_dump()),
                 **await memory.agent_options(ctx, args.known)},
    )  # fmt: skip
    await ctx.progress("collect", 0, 3, f"starting the {source.name} collection")
    first = await source.start(ctx, "rows.create", ask)
    got = rows.Collected()  # filled as its runs start, so an error names every one
    ctx.on_stop(lambda: found_rows(got))
    try:
        await ctx.partial(
            {"engine": source.name, "websetId": None, "runIds": [first[0]], "items": [], "partial": True}
        )
        await ctx.progress("collect", 1, 3, f"{source.noun} {first[0]}: collecting rows")
        await source.finish(
            ctx, "rows.create", "rows.wait", ask, first, deadline, "research.verifiedCollection", into=got
        )
    except OrchError as exc:
        raise name_runs(exc, got.run_ids or [first[0]]) from None
    items = [rows.as_item(r) for r in got.rows]
    await ctx.progress("collect", 3, 3, f"{source.noun}(s) {', '.join(got.run_ids)}: {len(items)} items")
    head: ResultJson = {"engine": source.name, "websetId": None, "runIds": got.run_ids}
    try:
        return await _research(ctx, args, head, items, got.timed_out, started, deadline, True)
    except OrchError as exc:
        raise name_runs(exc, got.run_ids) from None


# Its place in the MAP-Elites archive (seed 002 section 5); written to `workflows` at start-up.
ARCHETYPE = Archetype(
    id="workflow-webset-verified",
    name="Research-Verified Collection",
    description=(
        "Broad entity collection via Websets + deep per-entity verification via Research API. "
        "Combines breadth and depth."
    ),
    cell=(4, 3, 4, 3, 4),
    archetype="exploratory",
    notes=(
        "Backed by Exa Websets (or its Agent API) + Research API. Task type: "
        "research.verifiedCollection. Novel: "
        "two Exa primitives composed."
    ),
    steps=(
        "Create webset (or agent runs, engine agent) and collect entities",
        "For each entity (up to limit): create Research API task (engine agent: one per 25 entities, "
        "as input data rows)",
        "Poll all research tasks until complete",
        "Merge webset items with research results",
    ),
)


def verified_cost(args: VerifiedCollectionArgs) -> list[prices.Part]:
    """A webset of `count` items, then a research run for each of up to `researchLimit` of them
    (as many as the webset finds: none certain); on the agent engine a collection of `count` rows
    (`rows.cost`), then a research run per batch of up to RESEARCH_BATCH of them (tasks.create's
    preview)."""
    parts, runs, what = engines.collector(args.engine).choose(
        engines.Pair(partial(_webset_cost, args), partial(_row_cost, args))
    )
    if runs:
        run = prices.research_run(args.research_model, what, runs)
        parts.append(dataclasses.replace(run, certain=False))
    return parts


def _webset_cost(args: VerifiedCollectionArgs) -> tuple[list[prices.Part], int, str]:
    """(the webset's parts, research runs, what one research run covers)."""
    enrichments = args.enrichments or []
    parts = prices.webset(args.count, len(enrichments), contacts=prices.contact_columns(enrichments))
    return parts, min(args.count, args.research_limit), "research run per item"


def _row_cost(args: VerifiedCollectionArgs, source: engines.RowSource) -> tuple[list[prices.Part], int, str]:
    """(the collection's parts, research runs, what one research run covers)."""
    runs = math.ceil(min(args.count, args.research_limit) / RESEARCH_BATCH)
    what = f"research run per batch of up to {RESEARCH_BATCH} items"
    return source.cost(args.count, "collection run"), runs, what


WORKFLOWS: list[WorkflowSpec] = [
    WorkflowSpec(
        "research.verifiedCollection",
        VerifiedCollectionArgs,
        verified_collection,
        "A webset's items, each researched in depth: webset (query, entity, criteria, enrichments) -> "
        "wait -> collect -> a research run per item (researchPrompt with {{name}}, {{url}}, "
        "{{description}}; researchLimit items, 3 at once) -> {websetId, items[{item, research}], ...}. "
        "Engine agent: an Agent API run collection, then one research run per 25 items (input.data).",
        archive=verified_run,
        archetype=ARCHETYPE,
        estimate=verified_cost,
    )
]
