"""qd.winnow: quality-diversity winnowing over websets (seed 002, pattern 6).

Criteria are behavioural coordinates (an item's niche is its verdict per criterion, key "1,0,1":
bit 1 = yes, 0 = no; an item with any unclear verdict is listed apart, in no niche), enrichments are
the fitness signal, and the archive keeps the best entity per niche (MAP-Elites).

A webset keeps only items that pass every criterion of its search (data-design/exa-api-notes.md),
so the verdicts are asked as one yes/no enrichment per criterion (its description is the
criterion): round 1's webset searches the query alone. Round r+1 asks for what the archive lacks:
one webset per empty niche (at most MAX_TARGETS), whose search's criteria are phrased for that
niche (the criterion for a 1, "Does not satisfy: <criterion>" for a 0), excluding every webset
the task already holds. Its bodies are built only from checkpointed steps (the items collected),
so a resumed round sends the same bodies under the same step keys. `explore: false` repeats
round 1's search instead (the behaviour before issue 25). Each webset is polled (progress and a
partial result {step: "searching", round, found, analyzed, stringency}), its items collected and
scored. Rounds stop at `maxRounds`, when no niche is empty, when the elite archive changes less
than `convergenceThreshold`, or when `timeout` (ms, for the whole task) runs out: then the round's
items so far are scored and the result says `timedOut: true`.

The scoring functions (niches.py: `niche_key`, `fitness_scores`, `select_elites`, `entropy`, `elite_change`,
`quality_metrics`) are pure, so their numbers can be checked by hand.
"""

from __future__ import annotations

import dataclasses
import time
from functools import partial

from exa_orch.errors import OrchError
from exa_orch.gateway import prices
from exa_orch.runtime import TaskContext
from exa_orch.runtime.spec import WorkflowSpec
from exa_orch.store import Archetype
from exa_orch.workflows import engines, kit, memory
from exa_orch.workflows.archive import winnow_run
from exa_orch.workflows.niches import (
    MAX_TARGETS,
    Pool,
    classify,
    distribution,
    elite_change,
    entropy,
    fitness_scores,
    niche_key,
    niche_of,
    phrased,
    quality_metrics,
    select_elites,
    success_rates,
    target_niches,
    unclear_ids,
    verdict_ids,
    verdicts,
)
from exa_orch.workflows.winnow_rounds import (
    Task,
    WinnowArgs,
    enrichment_specs,
    found_round,
    row_round,
    search_counts,
    webset_round,
)

# The scoring (niches.py) is read here too, as qd.winnow's own.
__all__ = [
    "MAX_TARGETS",
    "WORKFLOWS",
    "Pool",
    "WinnowArgs",
    "classify",
    "distribution",
    "elite_change",
    "enrichment_specs",
    "entropy",
    "fitness_scores",
    "niche_key",
    "niche_of",
    "phrased",
    "quality_metrics",
    "search_counts",
    "select_elites",
    "success_rates",
    "target_niches",
    "unclear_ids",
    "verdict_ids",
    "verdicts",
    "winnow",
    "winnow_cost",
]


def _recoverable(exc: OrchError, websets: list[str], what: str = "websets") -> OrchError:
    if websets:  # name what exists at Exa, so a person can recover or cancel it
        exc.message = (
            f"{exc.message} (qd.winnow had created {what} {', '.join(websets)}; their items stay there)"
        )
        exc.args = (exc.message,)
    return exc


async def winnow(ctx: TaskContext, args: WinnowArgs) -> kit.AgentJson:
    """Run the rounds; see the module docstring."""
    begun = await engines.begin(ctx, args.engine)
    task = Task(ctx, args, begun.started + kit.seconds(args.timeout))
    ctx.on_stop(partial(found_round, task))
    converged = timed_out = False
    noun = ""
    try:
        for r in range(1, args.max_rounds + 1):
            targets = task.targets(r)
            if targets == []:  # every niche is filled
                converged = True
                break
            legs = engines.Pair(partial(webset_round, task, r, targets), partial(row_round, task, r, targets))
            got = await begun.engine.choose(legs)
            noun = got.noun
            change = await task.score(r, targets, got)
            if got.timed_out:
                timed_out = True
                break
            if r >= 2 and change < args.convergence_threshold:
                converged = True
                break
    except OrchError as exc:
        raise (
            _recoverable(exc, task.websets, "websets")
            if task.websets
            else _recoverable(exc, task.runs, "agent runs")
        ) from None
    await memory.remember(ctx, [e["item"] for e in task.archive], "ignore", "qd.winnow")  # entity memory
    return await _result(task, begun, converged, timed_out, noun)


async def _result(
    task: Task, begun: engines.Begun, converged: bool, timed_out: bool, noun: str
) -> kit.AgentJson:
    """The task's result: every round, the final archive and its quality metrics."""
    args, rounds = task.args, task.rounds
    niches = task.pool.niches()
    result: kit.AgentJson = {
        "engine": begun.engine.name,
        "rounds": rounds,
        "finalElites": task.archive,
        "convergenceReached": converged,
        "qualityMetrics": quality_metrics(
            len(task.criteria), niches, task.archive, task.found_total, task.analyzed_total
        ),
        "totalDuration": round((time.time() - begun.started) * 1000),
        "timedOut": timed_out,
    }
    if timed_out:
        result.update(partial=True, stoppedBy="timeout")
        result["timedOutNote"] = (
            f"round {len(rounds)} was still searching when the timeout ({args.timeout:g} ms) ran out: "
            f"the result scores the items found so far; {noun} "
            f"{', '.join(rounds[-1].get('websetIds') or rounds[-1].get('runIds') or [])} keep running"
        )
    await task.ctx.progress(
        "done", len(rounds), args.max_rounds, f"{len(rounds)} round(s), {len(task.archive)} elites"
    )
    return result


# Its place in the MAP-Elites archive (seed 002 section 5); written to `workflows` at start-up.
ARCHETYPE = Archetype(
    id="workflow-webset-qd-winnow",
    name="Quality-Diversity Winnowing",
    description=(
        "Uses Websets criteria as behavioral coordinates and enrichments as fitness functions. "
        "MAP-Elites-style progressive filtration over entity collections. Criteria satisfaction "
        "vectors define niches, enrichment scores define fitness."
    ),
    cell=(3, 2, 4, 2, 5),
    archetype="analytical",
    notes=(
        "Backed by Exa Websets API or its Agent API (engine). Task type: qd.winnow. Novel: "
        "quality-diversity search using "
        "criteria combinations as behavioral space. The foundational pattern — "
        "lifecycle.harvest and convergent.search are special cases."
    ),
    steps=(
        "Create a webset (engine websets) or start Agent API runs (engine agent) asking each criterion's "
        "verdict (behavioral coordinates) and the enrichments (fitness signals)",
        "Poll the webset's search (found/analyzed gives stringency) or the agent runs, and collect items",
        "Classify items into niches by criteria satisfaction vector",
        "Score fitness from enrichment results and identify the elite of each niche",
        "Analyze criteria success rates; optionally refine criteria and repeat",
        "Compare elite sets across rounds, check convergence, return final elites with quality metrics",
    ),
)


def winnow_cost(args: WinnowArgs) -> list[prices.Part]:
    """About `count` webset items a round (an exploring round splits them over its websets), each
    with a yes/no enrichment per criterion and every fitness enrichment filled, for up to
    `maxRounds` rounds; on the agent engine, a run for round 1 and one per empty niche (at most MAX_TARGETS)
    for each exploring round (one when `explore` is false), at the effort they are sent at; only round 1's
    is certain (tasks.create's preview)."""
    return engines.collector(args.engine).choose(
        engines.Pair(partial(_webset_cost, args), partial(_row_cost, args))
    )


def _webset_cost(args: WinnowArgs) -> list[prices.Part]:
    contacts = prices.contact_columns(args.enrichments)
    parts = prices.webset(args.count, len(args.enrichments) + len(args.criteria), "webset", contacts)
    return [
        dataclasses.replace(
            p, what=f"{p.what} ({args.max_rounds} rounds at most)", count=p.count * args.max_rounds
        )
        for p in parts
    ]


def _row_cost(args: WinnowArgs, source: engines.RowSource) -> list[prices.Part]:
    targets = min(MAX_TARGETS, 2 ** len(args.criteria)) if args.explore else 1
    later = (args.max_rounds - 1) * targets
    first = source.run_cost("run, round 1")
    if not later:
        return [first]
    more = source.run_cost(f"runs, rounds 2-{args.max_rounds} at most", later)
    return [first, dataclasses.replace(more, certain=False)]


WORKFLOWS: list[WorkflowSpec] = [
    WorkflowSpec(
        "qd.winnow",
        WinnowArgs,
        winnow,
        "Quality-diversity winnowing: criteria are niches, enrichments fitness; the best item per "
        "niche over rounds, with criteria success rates, niche distribution and quality metrics",
        archive=winnow_run,
        archetype=ARCHETYPE,
        estimate=winnow_cost,
    )
]
