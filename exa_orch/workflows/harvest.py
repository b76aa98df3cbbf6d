"""lifecycle.harvest (seed 002, pattern 1): one webset's whole life as one task.

create webset (search + criteria) -> wait until idle -> add each enrichment -> wait until idle ->
collect every item -> (cleanup: delete the webset). Every call that changes Exa is a checkpointed
step with an externalId (the webset) or a metadata mark (each enrichment), so a resumed task finds
what the earlier run created instead of creating it again.

Failure handling (the seed's): a wait that times out is not a failure: the task completes with the
items found so far and `timedOut: true`, `partial: true` (a search timeout skips the enrichments;
an enrichment timeout returns items with whatever enrichment results exist). An Exa error fails the
task with its typed error; the message names the webset already created so a person can recover it.
Retries of 429/5xx happen in the gateway.

The result says which items are one entity (`workflows.entities`: the same company on two pages):
`uniqueEntities` and `duplicates` [{itemIds, mergeReasons}], every item kept as Exa returned it.
"""

from __future__ import annotations

import asyncio
import time
from functools import partial
from typing import TYPE_CHECKING, Any

from pydantic import Field

from exa_orch.errors import NotFoundError, OrchError
from exa_orch.exa.port import Idle, enrichment_params, webset_params
from exa_orch.gateway import prices
from exa_orch.gateway.marks import CREATE_MARK
from exa_orch.runtime import TaskContext, create_or_get
from exa_orch.runtime.deps import exa_port_of
from exa_orch.runtime.spec import WorkflowSpec
from exa_orch.store import Archetype
from exa_orch.workflows import engines, entities, kit, memory, memory_search, rows
from exa_orch.workflows.archive import harvest_run

if TYPE_CHECKING:
    from exa_py.websets.types import Webset, WebsetEnrichment


# Enrichments take no externalId at Exa: the create mark plays its part (found again on resume, and
# by enrichments.create itself after a lost answer).
ENRICHMENT_MARK = CREATE_MARK


class HarvestArgs(memory.KnownArgs):
    """The seed's task args; `timeout` is per wait, in milliseconds."""

    query: str = Field(min_length=1, max_length=5000)
    """what the webset searches for, in natural language"""
    entity: kit.EntityArg
    """what kind of thing the webset collects"""
    criteria: list[kit.CriterionArg] | None = Field(default=None, min_length=1, max_length=5)
    """conditions every item must meet (1 to 5)"""
    count: int = Field(default=25, ge=1, le=1000)
    """items the webset search looks for"""
    enrichments: list[kit.EnrichmentArg] | None = Field(default=None, max_length=10)
    """what to find out about each item (up to 10), added once the search is done"""
    timeout: int = Field(default=300_000, ge=1, le=3_600_000)
    """milliseconds (not seconds) each wait may take (the search, then the enrichments); then the task
    returns the items found so far (timedOut)"""
    cleanup: bool = False
    """delete the webset at Exa once its items are collected (the agent engine has nothing to delete)"""
    engine: engines.Engine = "websets"
    """where items come from: websets, or Exa's Agent API (research runs whose rows carry a yes/no
    field per criterion and a field per enrichment, chunked and continued by previousRunId until
    `count`); fixed in the task's first checkpoint;
    omitted or null: the server's EXA_ORCH_ENGINE (websets unless set)"""


async def duplicates(items: list[kit.AgentJson]) -> kit.AgentJson:
    """{uniqueEntities, duplicates: [{itemIds, mergeReasons}]} of `items` (entity resolution). The
    resolution is CPU work (seconds for a few hundred items on a busy machine): it runs off the
    event loop, which keeps renewing leases."""
    resolution = await asyncio.to_thread(entities.resolve, items)
    return {
        "uniqueEntities": len(resolution.groups),
        "duplicates": [
            {"itemIds": [items[i].get("id") for i in members], "mergeReasons": reasons}
            for members, reasons in zip(resolution.groups, resolution.reasons, strict=True)
            if len(members) > 1
        ],
    }


def poll_interval(timeout_s: float) -> float:
    """Seconds between polls: 2 s for the usual minutes-long waits, more often for short ones."""
    return min(2.0, max(0.1, timeout_s / 20))


def search_progress(webset: Webset) -> kit.AgentJson:
    """{found, analyzed} summed over the webset's searches (the result's searchProgress)."""
    found, analyzed = kit.search_counts(webset)
    return {"found": found, "analyzed": analyzed}


def with_recovery(exc: OrchError, webset_ids: list[str]) -> OrchError:
    """`exc` with a message naming the websets the task created (they outlive the failed task)."""
    if webset_ids:
        ids = ", ".join(webset_ids)
        exc.message = (
            f"{exc.message} (websets this task created, still at Exa: {ids}; "
            "read them with websets.get / items.getAll, or remove them with websets.delete)"
        )
        exc.args = (exc.message,)
    return exc


async def add_enrichment(
    ctx: TaskContext, key: str, webset_id: str, enrichment: kit.EnrichmentArg
) -> WebsetEnrichment:
    """Step `key`: the enrichment created once, even across crashes (found again by its metadata
    mark), checkpointed as Exa's enrichment JSON (`kit.ENRICHMENT`)."""

    port = exa_port_of(ctx.deps)
    params = await enrichment_params(enrichment.wire())

    async def create(external_id: str) -> Any:
        # The port marks it with external_id (metadata[ENRICHMENT_MARK]) and looks that mark up first.
        return kit.ENRICHMENT.dump(await port.create_enrichment(webset_id, params, key=external_id))

    async def find(external_id: str) -> Any:
        for existing in (await port.get_webset(webset_id)).enrichments:
            if (existing.metadata or {}).get(ENRICHMENT_MARK) == external_id:
                return kit.ENRICHMENT.dump(existing)
        return None

    return await kit.ENRICHMENT.load(await create_or_get(ctx, key, create, find))


async def delete_webset(ctx: TaskContext, webset_id: str) -> bool:
    """Delete the webset; already gone (an earlier run deleted it before its checkpoint) is fine."""
    try:
        await exa_port_of(ctx.deps).delete_webset(webset_id)
    except NotFoundError:
        pass
    return True


async def found_items(ctx: TaskContext, webset_id: str) -> kit.AgentJson:
    """A stopped harvest's salvage (ctx.on_stop): every item the webset holds, as its result lists them."""
    items = await kit.webset_items(ctx, "stopped.items", webset_id)
    return {"items": items, "itemCount": len(items), **await duplicates(items)}


async def found_rows(got: rows.Collected, field_ids: list[str]) -> kit.AgentJson:
    """A stopped agent harvest's salvage: the rows its finished runs returned, as items."""
    items = [rows.as_item(r, field_ids) for r in got.rows]
    return {"runIds": list(got.run_ids), "items": items, "itemCount": len(items), **await duplicates(items)}


def _status(waited: Idle) -> str:
    return "timedOut" if waited.timed_out else "completed"


async def harvest(ctx: TaskContext, args: HarvestArgs) -> kit.AgentJson:
    """Run the harvest; see the module docstring."""
    begun = await engines.begin(ctx, args.engine)
    timeline = kit.Timeline(ctx)
    legs = engines.Pair(partial(_on_websets, ctx, args, timeline), partial(_on_rows, ctx, args, timeline))
    result = await begun.engine.choose(legs)
    result["duration"] = max(0, round((time.time() - begun.started) * 1000))  # spans restarts too
    return result


async def _on_websets(ctx: TaskContext, args: HarvestArgs, timeline: kit.Timeline) -> kit.AgentJson:
    """The harvest on one webset: create, wait, enrich, wait, collect, (delete)."""
    timeout_s = kit.seconds(args.timeout)
    poll_s = poll_interval(timeout_s)
    search: kit.Json = {"query": args.query, "count": args.count, "entity": args.entity.model_dump()}
    if args.criteria:
        search["criteria"] = [{"description": c.description} for c in args.criteria]
    if exclude := await memory.webset_exclude(ctx, args.known, args.entity.model_dump()):
        search["exclude"] = exclude  # known: skip (entity memory)

    await ctx.progress("create", 0, 1, "creating the webset")
    params = await webset_params({"search": search})
    webset: Webset = await timeline.run("create", lambda: kit.new_webset(ctx, "create.webset", params))
    webset_id = webset.id
    ctx.on_cancel(lambda: kit.cancel_webset(ctx, webset_id))
    ctx.on_stop(lambda: found_items(ctx, webset_id))
    await ctx.partial({"websetId": webset_id, "items": [], "itemCount": 0})
    try:
        return await _run(ctx, args, timeline, webset_id, timeout_s, poll_s)
    except OrchError as exc:
        raise with_recovery(exc, [webset_id]) from None


async def _run(
    ctx: TaskContext,
    args: HarvestArgs,
    timeline: kit.Timeline,
    webset_id: str,
    timeout_s: float,
    poll_s: float,
) -> kit.AgentJson:
    query = memory_search.Query(
        args.query,
        args.entity.model_dump(),
        [c.description for c in args.criteria or []],
        args.count,
        args.known,
    )  # known: skip holds the search to what the plain run analyzes (workflows/memory_search.py)
    waited: memory_search.Searched = await timeline.run(
        "search",
        lambda: memory_search.wait_search(ctx, "wait.search", webset_id, query, timeout_s, poll_s),
        status=_status,
    )
    progress = search_progress(waited.webset)
    timed_out = "search" if waited.timed_out else None
    held = memory_search.stopped(waited)
    if not timed_out:
        await memory_search.record(ctx, query, progress["analyzed"])

    enrichments = args.enrichments or []
    enrichment_ids: list[str] = []
    if enrichments and not timed_out:
        enrichment_ids, enriched = await _enrich(ctx, timeline, webset_id, enrichments, timeout_s, poll_s)
        timed_out = "enrichments" if enriched.timed_out else None

    await ctx.progress("collect", 0, progress["found"] or None, "collecting the items")
    items: list[kit.AgentJson] = await timeline.run(
        "collect", lambda: kit.collect_items(ctx, "collect.items", webset_id, max_items=1000)
    )
    items = await memory.remember(ctx, items, args.known, "lifecycle.harvest", _named(args, enrichment_ids))
    result: kit.AgentJson = {
        "engine": "websets",
        "websetId": webset_id,
        "items": items,
        "itemCount": len(items),
        **await duplicates(items),
        "searchProgress": progress,
        "enrichmentCount": len(enrichment_ids),
        "enrichmentIds": enrichment_ids,
        "timedOut": timed_out is not None,
        **held,
    }
    if timed_out:
        result.update(
            partial=True, stoppedBy="timeout", timedOutNote=_timed_out_note(args, timed_out, webset_id)
        )
    await ctx.partial({**result, "steps": timeline.steps})

    if args.cleanup:
        await ctx.progress("cleanup", 0, 1, "deleting the webset")
        await timeline.run("cleanup", lambda: ctx.step("cleanup", lambda: delete_webset(ctx, webset_id)))
        result["deleted"] = True
    await ctx.progress("done", 1, 1, f"{len(items)} items")
    return {**result, "steps": timeline.steps}


async def _enrich(
    ctx: TaskContext,
    timeline: kit.Timeline,
    webset_id: str,
    enrichments: list[kit.EnrichmentArg],
    timeout_s: float,
    poll_s: float,
) -> tuple[list[str], Idle]:
    """Add each enrichment (steps `enrich.<i>`), then wait for their results (`wait.enrichments`):
    (the enrichments' ids, the wait)."""

    async def enrich() -> list[str]:
        ids = []
        for i, enrichment in enumerate(enrichments):
            await ctx.progress("enrich", i, len(enrichments), f"adding enrichment {i + 1}/{len(enrichments)}")
            created = await add_enrichment(ctx, f"enrich.{i}", webset_id, enrichment)
            ids.append(created.id)
        return ids

    enrichment_ids: list[str] = await timeline.run("enrich", enrich)
    await ctx.progress("enrich", len(enrichments), len(enrichments), "waiting for the enrichment results")
    waited: Idle = await timeline.run(
        "enrichments",
        lambda: kit.wait_webset(ctx, "wait.enrichments", webset_id, timeout_s, poll_s),
        status=_status,
    )
    return enrichment_ids, waited


def _timed_out_note(args: HarvestArgs, timed_out: str, webset_id: str) -> str:
    """What a harvest whose `timed_out` wait ("search" or "enrichments") ran out returns, and where the rest is."""
    return (
        f"the {'search' if timed_out == 'search' else 'enrichments'} did not finish within "
        f"{args.timeout} ms: these are the items found so far"
        + (" (no enrichments were added)" if timed_out == "search" and args.enrichments else "")
        + ("" if args.cleanup else f"; the webset keeps running: websets.get {{id: {webset_id!r}}}")
    )


async def _on_rows(
    ctx: TaskContext, args: HarvestArgs, timeline: kit.Timeline, source: engines.RowSource
) -> kit.AgentJson:
    """The harvest on a row source (the Agent API): one collection whose rows carry the criteria's
    verdicts and the enrichments as fields; only rows judged yes on every criterion are kept (what
    a webset keeps), the others count as analyzed. Same result as on Websets, websetId null and the
    runs in `runIds`; `timeout` bounds the collection."""
    criteria = [c.description for c in args.criteria or []]
    enrichments = list(args.enrichments or [])
    ask = rows.Ask(
        rows.all_of(args.query, criteria), criteria, enrichments, args.count, str(args.entity.type),
        keep_passing=True, options={"systemPrompt": rows.entity_prompt(args.entity.model_dump()),
                                    **await memory.agent_options(ctx, args.known)},
    )  # fmt: skip
    timeout_s = kit.seconds(args.timeout)
    until = await kit.deadline(ctx, "wait.rows.start", timeout_s)
    await ctx.progress("create", 0, 1, f"starting the {source.noun}")
    first = await timeline.run("create", lambda: source.start(ctx, "create.run", ask))
    await ctx.partial({"websetId": None, "runIds": [first[0]], "items": [], "itemCount": 0})
    await ctx.progress("collect", 0, args.count, f"{source.noun} {first[0]}: collecting rows")
    got = rows.Collected()
    field_ids = [f"field{j}" for j in range(len(enrichments))]
    ctx.on_stop(lambda: found_rows(got, field_ids))
    try:
        await timeline.run(
            "search",
            lambda: source.finish(
                ctx, "create.run", "wait.rows", ask, first, until, "lifecycle.harvest", got
            ),
            status=lambda g: "timedOut" if g.timed_out else "completed",
        )
    except OrchError as exc:
        raise with_runs(exc, got.run_ids or [first[0]]) from None
    items = [rows.as_item(r, field_ids) for r in got.rows]
    items = await memory.remember(ctx, items, args.known, "lifecycle.harvest", _named(args, field_ids))
    result: kit.AgentJson = {
        "engine": source.name,
        "websetId": None,
        "runIds": got.run_ids,
        "items": items,
        "itemCount": len(items),
        **await duplicates(items),
        "searchProgress": {"found": len(got.rows), "analyzed": got.returned},
        "enrichmentCount": len(enrichments),
        "enrichmentIds": field_ids,
        "timedOut": got.timed_out,
    }
    if got.timed_out:
        result["partial"] = True
        result["stoppedBy"] = "timeout"
        result["timedOutNote"] = (
            f"the {source.noun} did not finish within {args.timeout} ms: these are the rows found so far; "
            f"the run keeps running: research.get {{researchId: {got.run_ids[-1]!r}}}"
        )
    if args.cleanup:
        result["deleted"] = False  # agent runs are not deleted (no webset was made)
    await ctx.progress("done", 1, 1, f"{len(items)} items")
    return {**result, "steps": timeline.steps}


def _named(args: HarvestArgs, ids: list[str]) -> dict[str, str]:
    """Enrichment id -> what it asks (the fields a sighting records)."""
    return {i: e.description for i, e in zip(ids, args.enrichments or [], strict=False)}


def with_runs(exc: OrchError, run_ids: list[str]) -> OrchError:
    """`exc` with a message naming the agent runs the task started (they outlive the failed task)."""
    if run_ids:
        exc.message = (
            f"{exc.message} (agent runs this task started: {', '.join(run_ids)}; read them with "
            "research.get, stop them with research.cancel)"
        )
        exc.args = (exc.message,)
    return exc


# Its place in the MAP-Elites archive (seed 002 section 5); written to `workflows` at start-up.
ARCHETYPE = Archetype(
    id="workflow-webset-lifecycle",
    name="Webset Lifecycle Harvest",
    description=(
        "Full webset lifecycle: create, search, wait, enrich, collect. Single operation for "
        "complete entity collection with enrichments."
    ),
    cell=(3, 2, 3, 2, 3),
    archetype="applied",
    notes=("Backed by Exa Websets API or its Agent API (engine). Task type: lifecycle.harvest"),
    steps=(
        "Create webset with search parameters (engine agent: start Agent API runs asking each "
        "criterion's verdict and the enrichments as row fields)",
        "Wait until webset idle (search complete)",
        "Add enrichments to webset items",
        "Wait until enrichments complete",
        "Collect all items with enrichment data",
    ),
)


def harvest_cost(args: HarvestArgs) -> list[prices.Part]:
    """One webset: `count` items, each enrichment filled for each; on the agent engine, the runs of
    one collection of `count` rows (`rows.runs`) at their metered cap (tasks.create's preview)."""
    return engines.collector(args.engine).choose(
        engines.Pair(partial(_webset_cost, args), partial(_row_cost, args))
    )


def _webset_cost(args: HarvestArgs) -> list[prices.Part]:
    enrichments = args.enrichments or []
    return prices.webset(args.count, len(enrichments), contacts=prices.contact_columns(enrichments))


def _row_cost(args: HarvestArgs, source: engines.RowSource) -> list[prices.Part]:
    return source.cost(args.count, "collection run")


WORKFLOWS: list[WorkflowSpec] = [
    WorkflowSpec(
        "lifecycle.harvest",
        HarvestArgs,
        harvest,
        "Create a webset (query, entity, criteria, count), wait, add enrichments, wait, collect every "
        "item; cleanup deletes the webset afterwards. Timeouts (ms, per wait) return partial items. "
        "engine agent: Agent API runs collect the rows instead (same result, runIds).",
        archive=harvest_run,
        archetype=ARCHETYPE,
        estimate=harvest_cost,
    )
]
