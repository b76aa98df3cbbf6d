"""research.verifiedCollection (seed 002, pattern 5): a webset's items, each researched in depth.

Flow: create the webset (query, entity, criteria, enrichments) -> wait until idle -> collect the
items -> for the first `researchLimit` entities (one item each; a second page of the same entity
gets `sameEntityAs` and `mergeReasons` instead of a run), a research run (Exa Agent API) from
`researchPrompt` with {{name}}, {{url}}, {{description}} filled from the item, at most 3 runs in flight -> merge.

Every Exa call is a step: the webset's create (externalId), its wait and collection, and each item's
research create and poll under their own keys, so a resumed task redoes none of them. (Research
runs have no externalId lookup: a crash in the milliseconds between a run's create and its
checkpoint leaves that one run orphaned, as in research.deep.)

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

import asyncio
import dataclasses
import math
import re
import time
from typing import Any

from pydantic import Field, field_validator, model_validator

from exa_orch.errors import OrchError
from exa_orch.gateway import prices
from exa_orch.gateway.agent_runs import OutputSchema, refused
from exa_orch.runtime import TaskContext
from exa_orch.runtime.spec import WorkflowSpec
from exa_orch.store import Archetype
from exa_orch.workflows import entities, kit, memory, rows
from exa_orch.workflows.archive import verified_run
from exa_orch.workflows.research import (
    TERMINAL,
    ResearchModel,
    cancel_on_task_cancel,
    create_run,
    event_note,
    follow_run,
    run_result,
    start_clock,
)

Json = dict[str, Any]
QUICK_S = 5.0  # seconds of the first, finely polled webset wait
IN_FLIGHT = 3  # research runs at once (the seed's limit, against rate limits)
PLACEHOLDER = re.compile(r"\{\{\s*([A-Za-z_]\w*)\s*\}\}")
FIELDS = ("name", "url", "description")
RESEARCH_BATCH = 25  # entities one research run gets as input.data rows (the agent engine)
MAX_INSTRUCTIONS = 20000  # research.create's instructions limit


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
    engine: rows.Engine = "websets"
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
        if self.engine == "agent" and len(batch_instructions(self.research_prompt)) > MAX_INSTRUCTIONS:
            raise refused(
                ("researchPrompt",),
                f"on the agent engine the research prompt becomes a batch run's instructions, which "
                f"would be {len(batch_instructions(self.research_prompt))} characters (at most "
                f"{MAX_INSTRUCTIONS}); shorten researchPrompt",
                len(self.research_prompt),
            )
        return self


def item_fields(item: Json) -> dict[str, str]:
    """What the placeholders stand for: the entity's name, its URL and its description ('' if none)."""
    props = item.get("properties") or {}
    description = props.get("description")
    return {
        "name": kit.item_name(item) or kit.item_url(item) or str(item.get("id") or ""),
        "url": kit.item_url(item) or "",
        "description": description if isinstance(description, str) else "",
    }


def fill(prompt: str, item: Json) -> str:
    """`prompt` with {{name}}, {{url}}, {{description}} replaced by the item's values, at most
    MAX_INSTRUCTIONS characters (what research.create takes): past it, the description is cut to fit
    (each of its placeholders an equal share), then the whole, so a long page never fails the run."""
    values = item_fields(item)

    def filled(given: dict[str, str]) -> str:
        return PLACEHOLDER.sub(lambda m: given.get(m.group(1), m.group(0)), prompt)

    out = filled(values)
    if len(out) <= MAX_INSTRUCTIONS:
        return out
    uses = sum(1 for m in PLACEHOLDER.finditer(prompt) if m.group(1) == "description")
    if uses:
        rest = len(filled({**values, "description": ""}))
        share = max(0, (MAX_INSTRUCTIONS - rest) // uses)
        out = filled({**values, "description": values["description"][:share]})
    return out[:MAX_INSTRUCTIONS]


def research_entry(created: Json, run: Json, structured: bool) -> Json:
    """An item's `research`: {researchId, status, result, duration (ms from create to last seen)}."""
    entry: Json = {
        "researchId": created["researchId"],
        "status": run.get("status"),
        "result": run_result(run, structured),
        "duration": round((run["at"] - created["at"]) * 1000),
    }
    if run.get("timedOut"):
        entry["timedOut"] = True
    if run.get("status") == "failed":
        entry["error"] = (run.get("error") or {}).get("message") or "the research run failed"
    return entry


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


async def verified_collection(ctx: TaskContext, args: VerifiedCollectionArgs) -> Json:
    started = await start_clock(ctx)
    engine: str = await ctx.step("engine", lambda: args.engine)  # a resumed task never switches
    deadline = started + args.timeout / 1000
    if engine == "agent":
        return await _on_agent(ctx, args, started, deadline)
    search: Json = {"query": args.query, "count": args.count, "entity": args.entity.model_dump()}
    if args.criteria:
        search["criteria"] = [{"description": c.description} for c in args.criteria]
    if exclude := await memory.webset_exclude(ctx, args.known, args.entity.model_dump()):
        search["exclude"] = exclude  # known: skip (entity memory)
    body: Json = {"search": search}
    if args.enrichments:
        body["enrichments"] = [e.wire() for e in args.enrichments]
    await ctx.progress("webset", 0, 3, "creating the webset")
    webset = await kit.create_webset(ctx, "webset.create", body)
    webset_id = str(webset["id"])

    async def cancel_webset() -> None:
        try:
            await kit.call(ctx, "websets.cancel", {"id": webset_id}, step="cancel")
        except OrchError:
            pass

    ctx.on_cancel(cancel_webset)
    try:
        return await _collect_and_research(ctx, args, webset_id, started, deadline)
    except OrchError as exc:
        raise name_webset(exc, webset_id) from None


async def found_items(ctx: TaskContext, webset_id: str, max_items: int) -> Json:
    """A collection stopped before its research (ctx.on_stop): the items its webset holds."""
    items = await kit.webset_items(ctx, "stopped.items", webset_id, max_items)
    return {"items": [{"item": item} for item in items], "totalItems": len(items)}


async def found_rows(got: rows.Collected) -> Json:
    """An agent collection stopped before its research: the rows its finished runs returned."""
    items = [{"item": rows.as_item(r)} for r in got.rows]
    return {"runIds": list(got.run_ids), "items": items, "totalItems": len(items)}


async def _collect_and_research(
    ctx: TaskContext, args: VerifiedCollectionArgs, webset_id: str, started: float, deadline: float
) -> Json:
    ctx.on_stop(lambda: found_items(ctx, webset_id, max(args.count, 1000)))  # before any await
    await ctx.partial({"engine": "websets", "websetId": webset_id, "items": [], "partial": True})
    await ctx.progress("webset", 1, 3, f"webset {webset_id}: waiting for the search")
    # A quick look first (small searches end in seconds), then a patient wait for the rest.
    quick = min(deadline, await kit.deadline(ctx, "webset.wait.start", QUICK_S))
    waited = await kit.wait_idle(ctx, "webset.wait", webset_id, QUICK_S, 0.25, until=quick)
    if waited.get("timedOut"):
        # Branch on the checkpoint only, never on the clock: a run resumed after the deadline must
        # replay the path the earlier run took (its research runs). No time left: a one-poll wait.
        waited = await kit.wait_idle(
            ctx, "webset.wait.rest", webset_id, args.timeout / 1000, 2.0, until=deadline
        )
    items = await kit.collect_items(ctx, "webset.items", webset_id, max_items=max(args.count, 1000))
    await ctx.progress("webset", 3, 3, f"webset {webset_id}: {len(items)} items")
    head: Json = {"engine": "websets", "websetId": webset_id}
    return await _research(ctx, args, head, items, bool(waited.get("timedOut")), started, deadline)


async def _on_agent(ctx: TaskContext, args: VerifiedCollectionArgs, started: float, deadline: float) -> Json:
    """The agent engine: one collection (rows judged on every criterion, the enrichments as fields;
    the rows passing all of them kept), then the research as input.data batches."""
    criteria = [c.description for c in args.criteria or []]
    ask = rows.Ask(
        rows.all_of(args.query, criteria), criteria, list(args.enrichments or []), args.count,
        str(args.entity.type), keep_passing=True,
        options={"systemPrompt": rows.entity_prompt(args.entity.model_dump()),
                 **await memory.agent_options(ctx, args.known)},
    )  # fmt: skip
    await ctx.progress("collect", 0, 3, "starting the agent collection")
    first = await rows.start(ctx, "rows.create", ask)
    got = rows.Collected()  # filled as its runs start, so an error names every one
    ctx.on_stop(lambda: found_rows(got))
    try:
        await ctx.partial(
            {"engine": "agent", "websetId": None, "runIds": [first[0]], "items": [], "partial": True}
        )
        await ctx.progress("collect", 1, 3, f"agent run {first[0]}: collecting rows")
        await rows.finish(
            ctx, "rows.create", "rows.wait", ask, first, deadline, "research.verifiedCollection", into=got
        )
    except OrchError as exc:
        raise name_runs(exc, got.run_ids or [first[0]]) from None
    items = [rows.as_item(r) for r in got.rows]
    await ctx.progress("collect", 3, 3, f"agent run(s) {', '.join(got.run_ids)}: {len(items)} items")
    head: Json = {"engine": "agent", "websetId": None, "runIds": got.run_ids}
    try:
        return await _research(ctx, args, head, items, got.timed_out, started, deadline)
    except OrchError as exc:
        raise name_runs(exc, got.run_ids) from None


async def _research(
    ctx: TaskContext,
    args: VerifiedCollectionArgs,
    head: Json,
    items: list[Json],
    collect_timed_out: bool,
    started: float,
    deadline: float,
) -> Json:
    """Merge the collected items by entity and research the first `researchLimit` entities (a run per
    entity on Websets, input.data batches on the agent engine); the result starts with `head`."""
    items = await memory.remember(ctx, items, args.known, "research.verifiedCollection")
    merged: list[Json] = [{"item": item} for item in items]
    # One research run per entity, not per item: a second page of the same company (entity
    # resolution) points at the item researched for it.
    resolution = entities.resolve(items)
    for members, reasons in zip(resolution.groups, resolution.reasons, strict=True):
        for i in members[1:]:
            merged[i]["sameEntityAs"] = items[members[0]].get("id")
            merged[i]["mergeReasons"] = reasons
    leaders = sorted(members[0] for members in resolution.groups)
    # Nothing is researched once the time is up (a collection that timed out used it all).
    targets = [] if collect_timed_out else leaders[: args.research_limit]
    structured = args.research_schema is not None
    researched = 0

    def result(partial: bool) -> Json:
        out: Json = {
            **head,
            "items": merged,
            "totalItems": len(items),
            "uniqueEntities": len(resolution.groups),
            "researchedCount": researched,
            "duration": round((time.time() - started) * 1000),
            "timedOut": collect_timed_out or any(m.get("research", {}).get("timedOut") for m in merged),
        }
        if partial:
            out["partial"] = True
        if out["timedOut"]:
            out.update(partial=True, stoppedBy="timeout")
        return out

    async def found() -> Json:
        return result(partial=True)  # the items, and every research run finished so far

    ctx.on_stop(found)
    await ctx.partial(result(partial=True))
    gate = asyncio.Semaphore(IN_FLIGHT)
    unfinished: set[str] = set()

    def done_count() -> int:
        return sum("research" in m for m in merged)

    async def follow(key: str, created: Json, what: str) -> Json:
        """The run `created` followed to its end or the deadline (events, then step `key`)."""
        unfinished.add(created["researchId"])
        remove_hook = cancel_on_task_cancel(ctx, created["researchId"])
        started_at = float(created.get("at") or time.time())

        async def report(run: Json, polls: int) -> None:
            # How long the run has been going: a report no earlier run of the task made, so a
            # long wait across server restarts reads as progress (store/leases.py).
            note = f"{what}: research {run.get('status')} {kit.elapsed(started_at)}"
            await ctx.progress("research", done_count(), len(targets), note)

        async def on_event(event: Json, n: int) -> None:
            note = f"{what}: {event_note(created['researchId'], event)}"
            await ctx.progress("research", done_count(), len(targets), note)

        run = await follow_run(ctx, key, created["researchId"], deadline, on_event, report)
        if run.get("status") in TERMINAL:
            remove_hook()
            unfinished.discard(created["researchId"])
        return run

    async def research(i: int) -> None:
        nonlocal researched
        async with gate:
            prompt = fill(args.research_prompt, items[i])
            created = await create_run(
                ctx, f"research.create:{i}", prompt, args.research_schema, args.research_model
            )
            run = await follow(f"research.poll:{i}", created, f"item {i}")
        merged[i]["research"] = research_entry(created, run, structured)
        researched += run.get("status") == "completed"
        await ctx.progress("research", done_count(), len(targets), f"item {i}: research {run.get('status')}")
        await ctx.partial(result(partial=True))

    async def batch(b: int, members: list[int]) -> None:
        nonlocal researched
        async with gate:
            data = [batch_row(items[i]) for i in members]
            created = await create_run(
                ctx, f"research.batch:{b}", batch_instructions(args.research_prompt),
                batch_schema(args.research_schema, len(data)), args.research_model,
                {"input": {"data": data}},
            )  # fmt: skip
            run = await follow(f"research.batch.poll:{b}", created, f"batch {b}")
        answers = batch_answers(data, run)
        for i, answer in zip(members, answers, strict=True):
            entry = research_entry(created, {**run, "output": None}, structured)
            entry["result"] = None if answer is None else answer.get("research")
            if run.get("status") == "completed" and answer is None:
                entry["error"] = f"research run {created['researchId']} returned no row for this item"
            merged[i]["research"] = entry
            researched += run.get("status") == "completed" and answer is not None
        note = f"batch {b} ({len(members)} items): research {run.get('status')}"
        await ctx.progress("research", done_count(), len(targets), note)
        await ctx.partial(result(partial=True))

    if targets:
        await ctx.progress("research", 0, len(targets), f"researching {len(targets)} items")
    if head["engine"] == "agent":
        batches = [targets[k : k + RESEARCH_BATCH] for k in range(0, len(targets), RESEARCH_BATCH)]
        await _all(ctx, [batch(b, members) for b, members in enumerate(batches)], unfinished)
    else:
        await _all(ctx, [research(i) for i in targets], unfinished)
    return result(partial=False)


# --- research batches (the agent engine) -------------------------------------------------------


def batch_instructions(prompt: str) -> str:
    """A batch run's instructions: the research prompt for every input row, its {{name}}, {{url}},
    {{description}} naming the row's fields."""
    body = PLACEHOLDER.sub(lambda m: f"the row's {m.group(1)}", prompt)
    return (
        "Each input row is an entity (its name, url and description). For every row, research it as "
        "these instructions say and put the answer in the row's `research` field:\n\n" + body
    )


def batch_schema(research_schema: Json | None, n: int) -> Json:
    """A batch run's outputSchema: `n` rows of {name, url, research} (research: `research_schema`,
    else the answer's markdown text)."""
    answer = (
        research_schema
        if research_schema is not None
        else {"type": "string", "description": "the answer, in markdown"}
    )
    item = {
        "type": "object",
        "properties": {"name": {"type": "string"}, "url": {"type": "string"}, "research": answer},
    }
    rows_list = {"type": "array", "minItems": n, "maxItems": n, "items": item}
    return {"type": "object", "properties": {"rows": rows_list}}


def batch_row(item: Json) -> Json:
    """An item as a batch run's input row: its name, url and description (empty ones left out)."""
    return {k: v for k, v in item_fields(item).items() if v}


def batch_answers(data: list[Json], run: Json) -> list[Json | None]:
    """The output row answering each input row: the one with its url, else the one at its place
    (unless that one names another url); None when the run returned none for it."""
    output = run_result(run, True)
    got = output.get("rows") if isinstance(output, dict) else output
    out_rows = [r for r in got if isinstance(r, dict)] if isinstance(got, list) else []
    by_url: dict[str, Json] = {}
    for r in out_rows:
        if isinstance(r.get("url"), str) and r["url"]:
            by_url.setdefault(r["url"], r)
    answers: list[Json | None] = []
    for k, row in enumerate(data):
        hit = by_url.get(row.get("url", "")) if row.get("url") else None
        if hit is None and k < len(out_rows) and out_rows[k].get("url") in (None, "", row.get("url")):
            hit = out_rows[k]
        answers.append(hit)
    return answers


async def _all(ctx: TaskContext, jobs: list[Any], unfinished: set[str]) -> None:
    """Run `jobs` together; the first error cancels the others and the runs they left going.

    A job cancelled by the runtime (a cancelling replay stops at its first live step) does not stop
    the others, so every replayed create registers its cancel hook before the run ends."""
    tasks = [asyncio.create_task(job) for job in jobs]
    failed: list[BaseException] = []

    def on_done(task: asyncio.Task[Any]) -> None:
        if not task.cancelled() and task.exception() is not None and not failed:
            failed.append(task.exception())  # type: ignore[arg-type]
            for other in tasks:
                other.cancel()

    for task in tasks:
        task.add_done_callback(on_done)
    outcomes = await asyncio.gather(*tasks, return_exceptions=True)
    if failed:
        for research_id in sorted(unfinished):  # best effort: don't leave paid runs going
            try:
                await kit.call(ctx, "research.cancel", {"researchId": research_id}, step="cancel")
            except OrchError:
                pass
        raise failed[0]
    if any(isinstance(o, asyncio.CancelledError) for o in outcomes):
        raise asyncio.CancelledError


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
    targets = min(args.count, args.research_limit)
    if args.engine == "agent":
        parts = rows.cost(args.count, "agent collection run")
        runs = math.ceil(targets / RESEARCH_BATCH)
        what = f"research run per batch of up to {RESEARCH_BATCH} items"
    else:
        parts = prices.webset(
            args.count, len(args.enrichments or []), contacts=prices.contact_columns(args.enrichments or [])
        )
        runs, what = targets, "research run per item"
    if runs:
        run = prices.research_run(args.research_model, what, runs)
        parts.append(dataclasses.replace(run, certain=False))
    return parts


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
