"""convergent.search (seed 002, pattern 2): one topic from 2-5 angles, triangulated.

create one webset per query (step `create.<i>`, externalId task:create.<i>) -> wait for each
(one shared `timeout` budget: they run in parallel at Exa) -> collect each -> deduplicate entities
across websets -> intersection (found by 2+ queries, confidence = queries / total), unique per
query, pairwise overlapMatrix, totalUniqueEntities.

Deduplication is `workflows.entities.resolve` (registered domains, cleaned names, profiles, alias
evidence the items carry, people by name and employer; complete linkage), which replaces the
seed's "URL exact match or name similarity > 0.85". Each intersection entity lists its
`mergeReasons`; its confidence is the share of queries that found any of its items.

A wait that times out is not a failure: the task completes on the items collected so far with
`timedOut: true`, `partial: true` and `timedOutQueries`. An Exa error fails the task with its typed
error, the message naming every webset already created.
"""

from __future__ import annotations

import asyncio
import time
from functools import partial
from typing import TYPE_CHECKING, Any

from pydantic import Field, field_validator

from exa_orch.errors import OrchError
from exa_orch.exa.port import Idle
from exa_orch.gateway import prices
from exa_orch.runtime import TaskContext
from exa_orch.runtime.spec import WorkflowSpec
from exa_orch.store import Archetype
from exa_orch.workflows import engines, entities, kit, memory, memory_search, rows, webset_steps
from exa_orch.workflows.archive import convergent_run
from exa_orch.workflows.harvest import poll_interval, with_recovery, with_runs
from exa_orch.workflows.row_model import ItemJson

if TYPE_CHECKING:
    from exa_py.websets.types import Webset

ResultJson = dict[str, Any]
"""The task's result (its analysis, each entity in it), as agents read it."""


class ConvergentArgs(memory.KnownArgs):
    """The seed's task args; `timeout` (ms) bounds the waits for all websets together."""

    queries: list[str] = Field(min_length=2, max_length=5)
    """2 to 5 different angles on the same search, one webset each"""
    entity: kit.EntityArg
    """what kind of thing every webset collects"""
    criteria: list[kit.CriterionArg] | None = Field(default=None, min_length=1, max_length=5)
    """conditions every item must meet (1 to 5), the same for every webset"""
    count: int = Field(default=25, ge=1, le=1000)
    """items each webset looks for"""
    timeout: int = Field(default=300_000, ge=1, le=3_600_000)
    """milliseconds (not seconds) for the waits of all websets together; then the task returns what
    it has"""
    engine: engines.Engine = "websets"
    """where items come from: websets, or Exa's Agent API (one collection of research runs per query,
    rows judged on each criterion, continued by previousRunId until `count`); fixed in the task's
    first checkpoint;
    omitted or null: the server's EXA_ORCH_ENGINE (websets unless set)"""

    @field_validator("queries")
    @classmethod
    def _distinct(cls, queries: list[str]) -> list[str]:
        cleaned = [q.strip() for q in queries]
        if any(not q or len(q) > 5000 for q in cleaned):
            raise ValueError("each query must be 1 to 5000 characters (not blank)")
        if len({q.lower() for q in cleaned}) != len(cleaned):
            raise ValueError("queries must be different angles: the same query appears twice")
        return cleaned


# --- deduplication (pure, tested on its own) ---------------------------------------------------


def group_entities(item_lists: list[list[ItemJson]]) -> list[list[tuple[int, ItemJson]]]:
    """Items of every list grouped into entities: [[(list index, item), ...], ...], in first-seen order."""
    return [group for group, _ in _resolved(item_lists)[0]]


def _resolved(
    item_lists: list[list[ItemJson]],
) -> tuple[list[tuple[list[tuple[int, ItemJson]], list[ResultJson]]], list[ResultJson]]:
    """(groups with their merge reasons, the pairs kept apart with why: [{items, names, reason}])."""
    flat = [(q, item) for q, items in enumerate(item_lists) for item in items]
    resolution = entities.resolve([item for _, item in flat])
    names = {str(item.get("id")): kit.item_name(item) for _, item in flat}
    apart = [{**pair, "names": [names.get(str(i)) for i in pair["items"]]} for pair in resolution.apart]
    groups = [
        ([flat[i] for i in members], reasons)
        for members, reasons in zip(resolution.groups, resolution.reasons, strict=True)
    ]
    return groups, apart


def _entity(group: list[tuple[int, ItemJson]], reasons: list[ResultJson]) -> ResultJson:
    first = group[0][1]
    props = first.get("properties") or {}
    urls = list(dict.fromkeys(u for _, item in group if (u := kit.item_url(item))))
    out: ResultJson = {"name": kit.item_name(first) or props.get("description"), "url": kit.item_url(first)}
    if props.get("type"):
        out["type"] = props["type"]
    if props.get("description"):
        out["description"] = props["description"]
    out["urls"] = urls
    out["itemIds"] = [item.get("id") for _, item in group]
    out["mergeReasons"] = reasons  # why each item joined: [{items: [id, id], reason}]
    return out


def converge(queries: list[str], item_lists: list[list[ItemJson]]) -> ResultJson:
    """intersection, unique, overlapMatrix and totalUniqueEntities of the seed, from each query's items."""
    n = len(queries)
    resolved, apart = _resolved(item_lists)
    intersection: list[ResultJson] = []
    unique: list[ResultJson] = [{"query": q, "items": [], "entityItemIds": []} for q in queries]
    overlap = [[0] * n for _ in range(n)]
    for group, reasons in resolved:
        found = sorted({q for q, _ in group})
        for a in found:
            for b in found:
                overlap[a][b] += 1
        if len(found) >= 2:
            intersection.append(
                {
                    "entity": _entity(group, reasons),
                    "foundInQueries": [queries[q] for q in found],
                    "confidence": round(len(found) / n, 4),
                }
            )
        else:
            unique[found[0]]["items"].append(group[0][1])  # one item per entity
            unique[found[0]]["entityItemIds"].append([item.get("id") for _, item in group])
    intersection.sort(key=lambda e: -e["confidence"])  # stable: first-seen order within a level
    return {
        "intersection": intersection,
        "unique": unique,
        "overlapMatrix": overlap,
        "totalUniqueEntities": len(resolved),
        # items that some evidence tied but that stayed two entities, and why (evidence against,
        # or too little for): a wrong merge costs more than a missed one
        "keptApart": apart,
    }


# --- the workflow ------------------------------------------------------------------------------


def _status(waited: Idle) -> str:
    return "timedOut" if waited.timed_out else "completed"


async def convergent(ctx: TaskContext, args: ConvergentArgs) -> ResultJson:
    """Run the convergent search; see the module docstring."""
    begun = await engines.begin(ctx, args.engine)
    timeline = kit.Timeline(ctx)
    legs = engines.Pair(partial(_on_websets, ctx, args, timeline), partial(_on_rows, ctx, args, timeline))
    result = await begun.engine.choose(legs)
    result["duration"] = max(0, round((time.time() - begun.started) * 1000))  # spans restarts too
    return result


async def _on_websets(ctx: TaskContext, args: ConvergentArgs, timeline: kit.Timeline) -> ResultJson:
    """One webset per query, created first (they search in parallel at Exa), then `_run`."""
    queries = args.queries
    n = len(queries)
    search_base: dict[str, Any] = {"count": args.count, "entity": args.entity.model_dump()}
    if args.criteria:
        search_base["criteria"] = [{"description": c.description} for c in args.criteria]
    if exclude := await memory.webset_exclude(ctx, args.known, args.entity.model_dump()):
        search_base["exclude"] = exclude  # known: skip (entity memory)

    webset_ids: list[str] = []
    try:
        for i, query in enumerate(queries):
            await ctx.progress("create", i, n, f"creating webset {i + 1}/{n}")
            body = {"search": {"query": query, **search_base}}
            webset: Webset = await timeline.run(
                f"create.{i}", partial(webset_steps.create, ctx, f"create.{i}.webset", body)
            )
            webset_id = webset.id
            webset_ids.append(webset_id)
            ctx.on_cancel(partial(kit.cancel_webset, ctx, webset_id))
            ctx.on_stop(partial(found_items, ctx, queries[: i + 1], list(webset_ids)))
        await ctx.partial({"websetIds": webset_ids})
        return await _run(ctx, args, timeline, webset_ids)
    except OrchError as exc:
        raise with_recovery(exc, webset_ids) from None


async def _run(
    ctx: TaskContext, args: ConvergentArgs, timeline: kit.Timeline, webset_ids: list[str]
) -> ResultJson:
    queries = args.queries
    n = len(queries)
    budget_s = kit.seconds(args.timeout)
    poll_s = poll_interval(budget_s)
    timed_out: list[str] = []
    # One budget, fixed when the waiting first began: the websets search in parallel at Exa.
    until = await kit.deadline(ctx, "wait.start", budget_s)
    crit = [c.description for c in args.criteria or []]
    for i, webset_id in enumerate(webset_ids):
        await ctx.progress("wait", i, n, f"waiting for webset {i + 1}/{n} ({queries[i]!r})")
        query = memory_search.Query(queries[i], args.entity.model_dump(), crit, args.count, args.known)
        wait = partial(
            memory_search.wait_search, ctx, f"wait.{i}.idle", webset_id, query, budget_s, poll_s, until=until
        )
        waited: Idle = await timeline.run(
            f"wait.{i}", wait, status=_status
        )  # known: skip holds it (memory_search)
        if waited.timed_out:
            timed_out.append(queries[i])
        else:
            await memory_search.record(ctx, query, memory_search.analyzed_of(waited.webset))

    item_lists: list[list[ItemJson]] = []
    for i, webset_id in enumerate(webset_ids):
        await ctx.progress("collect", i, n, f"collecting webset {i + 1}/{n}")
        items = await timeline.run(
            f"collect.{i}", partial(kit.collect_items, ctx, f"collect.{i}.items", webset_id)
        )
        item_lists.append(items)
    item_lists = await memory.remember_lists(ctx, item_lists, args.known, "convergent.search")

    await ctx.progress("dedupe", 0, 1, f"deduplicating {sum(map(len, item_lists))} items")
    # Pairwise name matching is CPU work (quadratic in names): off the event loop.
    analysis: ResultJson = await timeline.run(
        "dedupe", partial(asyncio.to_thread, converge, queries, item_lists)
    )
    note = (
        f"{len(timed_out)} of {n} websets were still searching after {args.timeout} ms: the analysis "
        "covers the items found so far; those websets keep running (websets.get, items.getAll)"
    )
    head: ResultJson = {"engine": "websets", "websetIds": webset_ids}
    return await _result(ctx, timeline, head, analysis, item_lists, timed_out, note)


async def found_items(ctx: TaskContext, queries: list[str], webset_ids: list[str]) -> ResultJson:
    """A stopped convergent search's salvage (ctx.on_stop): the analysis of every item its
    websets hold so far."""
    item_lists = [await kit.webset_items(ctx, f"stopped.{i}.items", w) for i, w in enumerate(webset_ids)]
    analysis = await asyncio.to_thread(converge, queries, item_lists)
    return {**analysis, "itemCounts": [len(items) for items in item_lists]}


async def found_rows(queries: list[str], collected: list[rows.Collected]) -> ResultJson:
    """A stopped agent convergent search's salvage: the analysis of the rows its finished runs returned."""
    item_lists = [[rows.as_item(r) for r in got.rows] for got in collected]
    analysis = await asyncio.to_thread(converge, queries, item_lists)
    runs = [r for got in collected for r in got.run_ids]
    return {
        **analysis,
        "itemCounts": [len(items) for items in item_lists],
        **({"runIds": runs} if runs else {}),
    }


async def _result(
    ctx: TaskContext,
    timeline: kit.Timeline,
    head: ResultJson,
    analysis: ResultJson,
    item_lists: list[list[ItemJson]],
    timed_out: list[str],
    note: str,
) -> ResultJson:
    """The task's result on either engine: `head` (engine, where the items came from), the
    analysis, counts, and what timed out (with `note`, when some query did)."""
    result: ResultJson = {
        **head,
        **analysis,
        "itemCounts": [len(items) for items in item_lists],
        "timedOut": bool(timed_out),
    }
    if timed_out:
        result["partial"] = True
        result["stoppedBy"] = "timeout"
        result["timedOutQueries"] = timed_out
        result["timedOutNote"] = note
    await ctx.progress(
        "done",
        1,
        1,
        f"{analysis['totalUniqueEntities']} entities, {len(analysis['intersection'])} found 2+ times",
    )
    return {**result, "steps": timeline.steps}


def _asks(args: ConvergentArgs, known: rows.RunArgs) -> list[rows.Ask]:
    """One collection per query: rows judged on every criterion, those passing all kept; `known`
    the options entity memory adds (`memory.agent_options`: the known ones excluded)."""
    criteria = [c.description for c in args.criteria or []]
    return [
        rows.Ask(
            rows.all_of(q, criteria),
            criteria,
            [],
            args.count,
            str(args.entity.type),
            keep_passing=True,
            options={"systemPrompt": rows.entity_prompt(args.entity.model_dump()), **known},
        )  # fmt: skip
        for q in args.queries
    ]


async def _on_rows(
    ctx: TaskContext, args: ConvergentArgs, timeline: kit.Timeline, source: engines.RowSource
) -> ResultJson:
    """The convergent search on a row source (the Agent API): one collection per query, their
    first runs started together (they run in parallel at Exa), rows judged yes on every criterion
    kept (what a webset keeps); then the same analysis as on Websets. websetIds null, every run
    in `runIds`; `timeout` bounds all collections together."""
    queries = args.queries
    n = len(queries)
    asks = _asks(args, await memory.agent_options(ctx, args.known))
    until = await kit.deadline(ctx, "wait.start", kit.seconds(args.timeout))
    firsts: list[engines.First] = []
    for i, ask in enumerate(asks):
        await ctx.progress("create", i, n, f"starting {source.noun} {i + 1}/{n}")
        firsts.append(await timeline.run(f"create.{i}", partial(source.start, ctx, f"create.{i}.run", ask)))
    run_ids = [rid for rid, _ in firsts]
    await ctx.partial({"websetIds": None, "runIds": run_ids})
    collected = [rows.Collected() for _ in queries]
    ctx.on_stop(partial(found_rows, queries, collected))
    try:
        for i, (ask, first) in enumerate(zip(asks, firsts, strict=True)):
            await ctx.progress("wait", i, n, f"collecting query {i + 1}/{n} ({queries[i]!r})")
            finish = partial(
                source.finish,
                ctx,
                f"create.{i}.run",
                f"wait.{i}.rows",
                ask,
                first,
                until,
                "convergent.search",
                collected[i],
            )
            await timeline.run(
                f"wait.{i}", finish, status=lambda g: "timedOut" if g.timed_out else "completed"
            )
    except OrchError as exc:
        started = [r for got in collected for r in got.run_ids]
        raise with_runs(exc, list(dict.fromkeys(run_ids + started))) from None
    item_lists = [[rows.as_item(r) for r in got.rows] for got in collected]
    item_lists = await memory.remember_lists(ctx, item_lists, args.known, "convergent.search")
    await ctx.progress("dedupe", 0, 1, f"deduplicating {sum(map(len, item_lists))} items")
    analysis: ResultJson = await timeline.run(
        "dedupe", partial(asyncio.to_thread, converge, queries, item_lists)
    )
    timed_out = [queries[i] for i, got in enumerate(collected) if got.timed_out]
    note = (
        f"{len(timed_out)} of {n} queries' {source.noun}s were still running after {args.timeout} ms: the "
        "analysis covers the rows found so far; those runs keep running (research.get)"
    )
    head: ResultJson = {
        "engine": source.name,
        "websetIds": None,
        "runIds": [r for got in collected for r in got.run_ids],
    }
    return await _result(ctx, timeline, head, analysis, item_lists, timed_out, note)


# Its place in the MAP-Elites archive (seed 002 section 5); written to `workflows` at start-up.
ARCHETYPE = Archetype(
    id="workflow-webset-convergent",
    name="Convergent Multi-Query Search",
    description=(
        "Same topic queried from N angles via separate websets. Intersection analysis "
        "identifies high-confidence entities through triangulation."
    ),
    cell=(4, 3, 4, 2, 4),
    archetype="confirmatory",
    notes=(
        "Backed by Exa Websets API or its Agent API (engine). Task type: convergent.search. Novel: convergent evidence "
        "via entity deduplication."
    ),
    steps=(
        "Create N websets with varied queries (parallel; engine agent: one Agent API run collection per query)",
        "Wait for all websets to become idle",
        "Collect items from each webset",
        "Deduplicate entities across websets",
        "Compute intersection and confidence scores",
    ),
)


def convergent_cost(args: ConvergentArgs) -> list[prices.Part]:
    """One webset of `count` items per query; on the agent engine one collection of `count` rows per
    query (`rows.runs` runs each, at their metered cap) (tasks.create's preview)."""
    return engines.collector(args.engine).choose(
        engines.Pair(partial(_webset_cost, args), partial(_row_cost, args))
    )


def _webset_cost(args: ConvergentArgs) -> list[prices.Part]:
    n = len(args.queries)
    return [p for q in range(n) for p in prices.webset(args.count, what=f"webset {q + 1}")]


def _row_cost(args: ConvergentArgs, source: engines.RowSource) -> list[prices.Part]:
    return source.cost(args.count, "collection run", collections=len(args.queries))


WORKFLOWS: list[WorkflowSpec] = [
    WorkflowSpec(
        "convergent.search",
        ConvergentArgs,
        convergent,
        "One webset per query (2-5 angles on a topic), then entities deduplicated across them (registered "
        "domain, cleaned name, profiles, alias evidence; each merge with its reason): intersection (found 2+ times, with confidence), unique per query, "
        "overlapMatrix, totalUniqueEntities. engine agent: Agent API run collections instead of websets "
        "(same result, runIds).",
        archive=convergent_run,
        archetype=ARCHETYPE,
        estimate=convergent_cost,
    )
]
