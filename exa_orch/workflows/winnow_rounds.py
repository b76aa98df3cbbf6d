"""qd.winnow's rounds: its args, and one round on each kind of engine (engines/base.py).

On Websets a round creates one webset per plan (the query alone, or one per empty niche with its
criteria phrased for that niche), watches each until idle or the deadline (`_watch`: found,
analyzed, stringency as it goes), collects its items and scores them into the pool. On a row engine
a round starts one run per plan, continuing the chain by previousRunId with the held elites excluded,
and scores its rows' Websets-item view (`row_item`). Every create is a step under its round's keys
(`round<r>.create<sfx>`, `round<r>.run<sfx>`), its body built only from checkpointed data.
"""

from __future__ import annotations

import math
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator
from pydantic.alias_generators import to_camel

from exa_orch.errors import WebsetNotRunning
from exa_orch.exa.port import webset_params
from exa_orch.runtime import TaskContext
from exa_orch.runtime.deps import exa_port_of
from exa_orch.workflows import engines, kit, rows
from exa_orch.workflows.niches import (
    Pool,
    distribution,
    elite_change,
    phrased,
    select_elites,
    success_rates,
    target_niches,
    unclear_ids,
    verdict_enrichments,
    verdict_ids,
)

if TYPE_CHECKING:
    from exa_py.websets.types import WebsetEnrichment

# A fitness spec (niches.fitness_scores), an agent row (rows.from_agent) or a request body; and
# what the task's result shows (a round, an elite, an item).
Json = dict[str, Any]
AgentJson = kit.AgentJson
Strategy = Literal["all-criteria", "any-criteria", "diverse"]

# Seconds between polls of a searching webset: short first (small websets finish fast), then
# growing to POLL_MAX_S so a long search costs few requests.
POLL_FIRST_S = 0.1
POLL_MAX_S = 5.0


class WinnowArgs(kit.TaskArgs):
    """qd.winnow's task args (the seed's, camelCase)."""

    query: str = Field(min_length=1, max_length=5000)
    """what each round's webset searches for, in natural language"""
    entity: kit.EntityArg
    """what kind of thing the websets collect"""
    criteria: list[kit.CriterionArg] = Field(
        min_length=1, max_length=5, description="the behavioural coordinates (1 to 5)"
    )
    enrichments: list[kit.EnrichmentArg] = Field(
        max_length=10,
        description="the fitness signals: number (min-max normalized over all rounds), boolean (yes = 1), "
        "options (the first listed option = 1), text/url/other (a result present = 1)",
    )
    count: int = Field(default=50, ge=1, le=1000, description="items per round")
    max_rounds: int = Field(default=1, ge=1, le=10)
    """rounds at most (each a new webset); the task stops earlier once the archive converges"""
    convergence_threshold: float = Field(
        default=0.1, ge=0, le=1, description="stop once the elite archive changes less than this share"
    )
    engine: engines.Engine = "websets"
    """where items come from: websets, or Exa's Agent API (research runs whose rows carry a yes/no
    field per criterion; an exploring round continues the chain by previousRunId, held elites
    excluded); fixed in the task's first checkpoint;
    omitted or null: the server's EXA_ORCH_ENGINE (websets unless set)"""
    explore: bool = True
    """rounds after the first search the empty niches (false: every round repeats the first search)"""
    selection_strategy: Strategy = "diverse"
    """which elites the result keeps: diverse (one per niche), fittest, or balanced"""
    timeout: float = Field(
        default=1_800_000,
        gt=0,
        le=86_400_000,
        description="milliseconds (not seconds) for the whole task, every round (default 30 min); then it "
        "scores the items found so far",
    )

    @model_validator(mode="after")
    def _distinct_criteria(self) -> WinnowArgs:
        texts = [c.description for c in self.criteria]
        if len(set(texts)) != len(texts):
            raise ValueError(
                "criteria: each criterion's description must be different (each is a coordinate)"
            )
        return self


# --- the workflow -----------------------------------------------------------------------------


search_counts = kit.search_counts  # (found, analyzed) of a webset: qd.winnow's name for it


def enrichment_specs(made: list[WebsetEnrichment], enrichments: list[kit.EnrichmentArg]) -> list[Json]:
    """The fitness specs (niches.fitness_scores): the args' enrichments matched to the webset's
    enrichments `made` (by description, else by order)."""
    created = list(made)
    specs = []
    for i, arg in enumerate(enrichments):
        match = next((e for e in created if e.description == arg.description), None)
        if match is None and i < len(created):
            match = created[i]
        if match is None:
            continue
        created.remove(match)
        specs.append({
            "arg": i,
            "enrichmentId": match.id,
            "format": arg.format or match.format or "text",
            "options": [o.label for o in arg.options or []],
        })  # fmt: skip
    return specs


class Watched(BaseModel):
    """How a round's watch of one webset ended (step `round<r>.wait<sfx>`): its searches' found and
    analyzed, and whether the deadline came before it was idle."""

    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, defer_build=True)
    found: int
    analyzed: int
    timed_out: bool


def targeted_query(query: str, criteria: list[str], niche: str) -> str:
    """An agent run's query for `niche`: the task's query, then a "Satisfies:" / "Does not
    satisfy:" line per criterion (data-design/exa-api-notes.md, criteria on the Agent API)."""
    return rows.all_of(query, criteria, niche)


def agent_specs(enrichments: list[kit.EnrichmentArg]) -> list[Json]:
    """The fitness specs of an agent round's rows (`field{j}` is enrichment j)."""
    return [
        {"arg": j, "enrichmentId": f"field{j}", "format": e.format or "text",
         "options": [o.label for o in e.options or []]}
        for j, e in enumerate(enrichments)
    ]  # fmt: skip


def row_item(row: rows.Row) -> AgentJson:
    """An agent row (`rows.from_agent`) as the item the scoring reads: properties (`rows.props_of`:
    {type, url, description, <type>: {name, and a company's or person's identity fields}}), each
    criterion's verdict as enrichment `criterion{i}` (unclear: no result) and each field as
    `field{j}`."""
    results = [
        {"enrichmentId": f"criterion{i}", "status": "completed",
         "result": [str(v.verdict)] if v.verdict in ("yes", "no") else None}
        for i, v in enumerate(row.verdicts)
    ]  # fmt: skip
    results += [
        {"enrichmentId": f.name, "status": "completed", "result": None if f.value is None else [f.value]}
        for f in row.fields
    ]
    return {"id": row.id, "source": "agent", "runId": row.run.run_id if row.run else None,
            "properties": row.properties(), "enrichments": results}  # fmt: skip


@dataclass
class Got:
    """What one round found on its engine: where (`head`), its items scored into the pool."""

    head: AgentJson  # the round's websetId / websetIds / runIds
    noun: str  # what the round's searches are called in a note ("webset(s)")
    items: list[AgentJson] = field(default_factory=list)
    candidates: list[AgentJson] = field(default_factory=list)
    unclear: list[str] = field(default_factory=list)
    found: int = 0
    analyzed: int = 0
    timed_out: bool = False


@dataclass
class Stopped:
    """The round under way, what a stop salvages: its number (0: none under way), where its ids go
    in the answer (websetIds | runIds), the websets or runs it made, the items scored so far, and
    how to read every item it found (`salvage`)."""

    round: int = 0
    where: str = "websetIds"
    ids: list[str] = field(default_factory=list)
    items: list[AgentJson] = field(default_factory=list)
    salvage: Callable[[Stopped], Awaitable[list[AgentJson]]] | None = None


class Task:
    """One qd.winnow task across its rounds. Only checkpointed data decides a round's bodies: the
    archive (from the collected items) and the websets / runs created so far."""

    def __init__(self, ctx: TaskContext, args: WinnowArgs, deadline: float) -> None:
        self.ctx, self.args, self.deadline = ctx, args, deadline
        self.criteria = [c.description for c in args.criteria]
        self.search: Json = {
            "query": args.query,
            "count": args.count,
            "entity": args.entity.model_dump(exclude_none=True),
        }
        self.enrichments = verdict_enrichments(self.criteria) + [e.wire() for e in args.enrichments]
        self.rounds: list[AgentJson] = []
        self.archive: list[AgentJson] = []
        self.previous: list[AgentJson] = []  # the archive after the round before
        self.websets: list[str] = []
        self.runs: list[
            str
        ] = []  # the row engine's runs, in creation order (rebuilt from their create steps)
        self.pool = Pool(self.criteria, args.selection_strategy)
        self.found_total = self.analyzed_total = 0
        self.stopped = Stopped()  # the round under way: what a stop salvages (ctx.on_stop)

    async def add(self, got: Got, items: list[AgentJson], specs: list[Json], ids: dict[str, str]) -> None:
        """Score one webset's (run's) items into the pool and the round."""
        # The round holds the items before the pool resolves them (a worker thread's wait): a stop
        # meanwhile salvages them, as it did when nothing here awaited.
        got.items.extend(items)
        got.unclear.extend(unclear_ids(items, self.criteria, ids))
        candidates, self.archive = await self.pool.add(items, specs, ids)
        got.candidates.extend(candidates)

    async def score(self, r: int, targets: list[str] | None, got: Got) -> float:
        """File round `r` (its elites, rates, distribution); returns how much the archive changed."""
        elites = select_elites(got.candidates, self.args.selection_strategy)
        change = elite_change(self.previous, self.archive, self.pool.entity_of)
        self.previous = self.archive
        self.found_total, self.analyzed_total = (
            self.found_total + got.found,
            self.analyzed_total + got.analyzed,
        )
        self.rounds.append({
            **got.head,
            "targetNiches": targets,
            "itemCount": len(got.items),
            "criteriaSuccessRates": success_rates(got.candidates, self.criteria),
            "nicheDistribution": distribution(got.candidates),
            "unclearCount": len(got.unclear),
            "unclearItemIds": got.unclear,
            "elites": elites,
            "found": got.found,
            "analyzed": got.analyzed,
            "stringency": round(got.found / got.analyzed, 6) if got.analyzed else 0.0,
            "eliteChange": change,
            "timedOut": got.timed_out,
        })  # fmt: skip
        self.stopped.round = 0  # scored: nothing under way
        await self.ctx.partial(
            {"step": "scored", "round": r, "rounds": self.rounds, "finalElites": self.archive}
        )
        return change

    def targets(self, r: int) -> list[str] | None:
        """The niches round `r` asks for: None for the query alone (round 1, or `explore` off)."""
        if r > 1 and self.args.explore:
            return target_niches(len(self.criteria), set(self.pool.niches()))
        return None

    def creating(self, r: int, what: str, targets: list[str] | None) -> Awaitable[None]:
        """The round's first progress report: what it creates, for which niches."""
        niches = f" for niches {', '.join(targets)}" if targets else ""
        message = f"round {r}/{self.args.max_rounds}: {what}{niches}"
        return self.ctx.progress("creating", r - 1, self.args.max_rounds, message)


def _plans(task: Task, targets: list[str] | None) -> list[tuple[str, Json]]:
    """The round's webset bodies, each with its step suffix: the query alone, or one per target
    niche (its criteria phrased for it, `count` split over them, every earlier webset excluded)."""
    if targets is None:
        return [("", {"search": task.search, "enrichments": task.enrichments})]
    exclude = [{"source": "webset", "id": w} for w in task.websets]
    per = max(1, math.ceil(task.args.count / len(targets)))
    plans: list[tuple[str, Json]] = []
    for niche in targets:
        body = {**task.search, "count": per, "criteria": phrased(task.criteria, niche), "exclude": exclude}
        plans.append((f".n{niche.replace(',', '')}", {"search": body, "enrichments": task.enrichments}))
    return plans


WATCHED = kit.model_shape(Watched)
"""A watch's checkpoint: {found, analyzed, timedOut}, what `_watch` has always saved."""


async def webset_round(task: Task, r: int, targets: list[str] | None) -> Got:
    """The round's websets created (steps `round<r>.create<sfx>`), each watched until idle or the
    deadline, its items collected and scored."""
    ctx, args = task.ctx, task.args
    plans = _plans(task, targets)
    got = Got({}, "webset(s)")
    task.stopped = Stopped(r, "websetIds", [], got.items, partial(_webset_salvage, ctx))
    await task.creating(r, f"creating {len(plans)} webset(s)", targets)
    created = []
    hooks = []  # a cancel from now on cancels every webset of the round made so far
    for sfx, body in plans:
        webset = await kit.new_webset(ctx, f"round{r}.create{sfx}", await webset_params(body))
        created.append((sfx, webset))
        task.stopped.ids.append(webset.id)
        hooks.append(ctx.on_cancel(_canceller(ctx, webset.id)))
    round_ids = [w.id for _, w in created]
    task.websets.extend(round_ids)
    got.head = {"websetId": round_ids[0], "websetIds": round_ids}
    for (sfx, webset), remove_hook in zip(created, hooks, strict=True):
        watch = partial(_watch, ctx, args, r, webset.id, task.deadline, task.rounds)
        waited = await kit.model_step(ctx, f"round{r}.wait{sfx}", WATCHED, watch)
        got.found, got.analyzed = got.found + waited.found, got.analyzed + waited.analyzed
        if not waited.timed_out:
            remove_hook()  # idle: nothing left to cancel
        got.timed_out = got.timed_out or waited.timed_out
        await ctx.progress("collecting", got.found, args.count, f"round {r}: collecting the items")
        items = await kit.collect_items(
            ctx, f"round{r}.items{sfx}", webset.id, max_items=max(args.count, 1000)
        )
        ids = verdict_ids(webset.enrichments, task.criteria)
        fitness = [e for e in webset.enrichments if e.id not in ids.values()]
        await task.add(got, items, enrichment_specs(fitness, args.enrichments), ids)
    return got


async def row_round(task: Task, r: int, targets: list[str] | None, source: engines.RowSource) -> Got:
    """The round's runs (one per target niche, or the query alone), continuing the chain before them
    with the held elites excluded; each run's rows scored."""
    ctx, args, criteria = task.ctx, task.args, task.criteria
    got = Got({}, f"{source.noun}(s)")
    task.stopped = Stopped(r, "runIds", [], got.items, _row_salvage)
    per = args.count if targets is None else max(1, math.ceil(args.count / len(targets)))
    asks = [("", args.query)] if targets is None else [
        (f".n{n.replace(',', '')}", targeted_query(args.query, criteria, n)) for n in targets
    ]  # fmt: skip
    await task.creating(r, f"starting {len(asks)} {source.noun}(s)", targets)
    made: list[tuple[str, rows.Ask, engines.First]] = []
    for sfx, query in asks:
        ask = rows.Ask(query, criteria, list(args.enrichments), per, str(args.entity.type),
                       chunk=per, max_runs=1, options=_row_options(task))  # fmt: skip
        made.append((sfx, ask, await source.start(ctx, f"round{r}.run{sfx}", ask)))
    round_ids = task.stopped.ids = [first[0] for _, _, first in made]
    got.head = {"websetId": None, "websetIds": None, "runIds": round_ids}
    ids = {c: f"criterion{i}" for i, c in enumerate(criteria)}
    for sfx, ask, first in made:
        collected = await source.finish(
            ctx, f"round{r}.run{sfx}", f"round{r}.wait{sfx}", ask, first, task.deadline, "qd.winnow"
        )
        got.timed_out = got.timed_out or collected.timed_out
        items = [row_item(row) for row in collected.rows]
        await task.add(got, items, agent_specs(args.enrichments), ids)
        got.found += len(items)
    task.runs.extend(round_ids)
    return got


def _row_options(task: Task) -> Json:
    """A round's run options: what one row is (the websets' entity), then the chain and the held elites."""
    options: Json = {"systemPrompt": rows.entity_prompt(task.args.entity.model_dump())}
    if task.runs:  # continue the chain (a completed run): no entity it returned comes again
        options["previousRunId"] = task.runs[-1]
    held = [e["item"]["properties"].get("url") for e in task.archive]
    if held:
        options["input"] = {"exclusion": [{"url": u} for u in held if u]}
    return options


async def found_round(task: Task) -> AgentJson:
    """A stopped winnow's salvage (ctx.on_stop): the rounds scored so far are its partial result;
    the round under way adds `stoppedRound`, every item its websets hold (or its runs returned),
    not scored."""
    stopped = task.stopped
    if not stopped.round:
        return {}
    items = await stopped.salvage(stopped) if stopped.salvage else []
    return {
        "stoppedRound": {
            "round": stopped.round,
            stopped.where: list(stopped.ids),
            "items": items,
            "itemCount": len(items),
        }
    }


async def _webset_salvage(ctx: TaskContext, stopped: Stopped) -> list[AgentJson]:
    """Every item the round's websets hold so far."""
    return [
        item
        for i, wid in enumerate(stopped.ids)
        for item in await kit.webset_items(ctx, f"stopped.{i}.items", wid)
    ]


async def _row_salvage(stopped: Stopped) -> list[AgentJson]:
    """The rows the round's finished runs returned."""
    return list(stopped.items)


def _canceller(ctx: TaskContext, wid: str) -> Callable[[], Awaitable[Any]]:
    async def cancel() -> Any:
        return await kit.cancel_webset(ctx, wid)

    return cancel


async def _watch(
    ctx: TaskContext, args: WinnowArgs, r: int, wid: str, deadline: float, rounds: list[AgentJson]
) -> Watched:
    """Poll the webset until idle or the deadline, reporting found/analyzed/stringency as it goes."""
    interval = POLL_FIRST_S
    while True:
        webset = await exa_port_of(ctx.deps).get_webset(wid)
        found, analyzed = kit.search_counts(webset)
        stringency = round(found / analyzed, 6) if analyzed else 0.0
        idle = webset.status == "idle"
        if str(webset.status) not in ("idle", "running", "pending"):
            raise WebsetNotRunning(wid, str(webset.status))  # paused: never idle by itself
        await ctx.progress(
            "searching",
            found,
            args.count,
            f"round {r}/{args.max_rounds}: found {found} of {analyzed} analyzed (stringency {stringency:.3f})",
        )
        await ctx.partial({
            "step": "searching", "round": r, "websetId": wid, "found": found, "analyzed": analyzed,
            "stringency": stringency,
            # earlier rounds without their elites' items: this is written on every poll
            "rounds": [{k: v for k, v in done.items() if k != "elites"} for done in rounds],
        })  # fmt: skip
        left = deadline - time.time()
        if idle or left <= 0:
            return Watched(found=found, analyzed=analyzed, timed_out=not idle)
        await ctx.sleep(min(interval, left))
        interval = min(POLL_MAX_S, interval * 1.5)
