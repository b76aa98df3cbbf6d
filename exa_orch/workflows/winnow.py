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

The scoring functions (`niche_key`, `fitness_scores`, `select_elites`, `entropy`, `elite_change`,
`quality_metrics`) are pure, so their numbers can be checked by hand.
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any, Literal

from pydantic import Field, model_validator

from exa_orch.errors import OrchError, WebsetNotRunning
from exa_orch.gateway import prices
from exa_orch.runtime import TaskContext
from exa_orch.runtime.spec import WorkflowSpec
from exa_orch.store import Archetype
from exa_orch.workflows import entities, kit, memory, rows
from exa_orch.workflows.archive import winnow_run

Json = dict[str, Any]
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
    engine: Literal["websets", "agent"] = "websets"
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


# --- pure scoring -----------------------------------------------------------------------------


def niche_key(vector: list[bool]) -> str:
    """[True, True, False] -> "1,1,0"."""
    return ",".join("1" if v else "0" for v in vector)


def _number(text: str | None) -> float | None:
    if text is None:
        return None
    try:
        value = float(text.replace(",", "").replace("_", ""))
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def fitness_scores(items: list[Json], specs: list[Json]) -> list[float]:
    """Each item's fitness: the mean over `specs` of its scores, each in [0, 1].

    `specs` are [{enrichmentId, format (the arg's: boolean stays boolean), options}]. Per the seed:
    number -> the value, min-max normalized across `items` (all equal -> 1; missing -> 0; the
    workflow passes every item of every round so far, so fitness is on one scale across rounds);
    boolean -> "yes" = 1; options -> the first listed option = 1; anything else -> present = 1.
    Results not completed count as missing. No specs -> 0 for every item.
    """
    if not specs:
        return [0.0 for _ in items]
    answers: list[list[str | None]] = []
    for item in items:
        by_id = {
            r.get("enrichmentId"): rows.first_text(r.get("result"))
            for r in item.get("enrichments") or []
            if r.get("status", "completed") == "completed"
        }
        answers.append([by_id.get(s["enrichmentId"]) for s in specs])
    columns: list[list[float]] = []
    for j, spec in enumerate(specs):
        fmt = spec.get("format")
        raw = [row[j] for row in answers]
        if fmt == "number":
            nums = [_number(a) for a in raw]
            present = [n for n in nums if n is not None]
            lo, hi = (min(present), max(present)) if present else (0.0, 0.0)
            columns.append([0.0 if n is None else 1.0 if hi == lo else (n - lo) / (hi - lo) for n in nums])
        elif fmt in ("boolean", "options"):
            labels = spec.get("options") or ["yes"]
            good = str(labels[0]).strip().lower() if fmt == "options" else "yes"
            columns.append([1.0 if a is not None and a.lower() == good else 0.0 for a in raw])
        else:
            columns.append([0.0 if a is None else 1.0 for a in raw])
    # Unrounded: averages (avgFitness) and comparisons across rounds use the exact scores.
    return [sum(col[i] for col in columns) / len(columns) for i in range(len(items))]


def keeps(niche: str, strategy: str) -> bool:
    """Whether `strategy` keeps the niche: all-criteria only all-yes, any-criteria all but all-no."""
    bits = niche.split(",")
    if strategy == "all-criteria":
        return all(b == "1" for b in bits)
    if strategy == "any-criteria":
        return any(b == "1" for b in bits)
    return True


VERDICT_OPTIONS = [{"label": "yes"}, {"label": "no"}]
NEGATION = "Does not satisfy: "
MAX_TARGETS = 8  # websets a round opens at most (one per empty niche)


def verdict_enrichments(criteria: list[str]) -> list[Json]:
    """One yes/no enrichment per criterion (its description is the criterion): where a webset's
    verdicts are, since its items all passed their search's criteria."""
    return [{"description": c, "format": "options", "options": VERDICT_OPTIONS} for c in criteria]


def verdict_ids(webset: Json, criteria: list[str]) -> dict[str, str]:
    """criterion -> the id of the created webset's yes/no enrichment for it."""
    out: dict[str, str] = {}
    for e in webset.get("enrichments") or []:
        desc = str(e.get("description"))
        if desc in criteria and desc not in out and e.get("format") == "options":
            out[desc] = str(e.get("id"))
    return out


def verdicts(item: Json, criteria: list[str], ids: dict[str, str] | None = None) -> list[str]:
    """The item's verdict per criterion, "yes" | "no" | "unclear".

    With `ids` (criterion -> yes/no enrichment id): the enrichment's answer, no answer = unclear;
    without: the item's criteria evaluations (a criterion not evaluated = unclear)."""
    if ids is not None:
        answers = {
            r.get("enrichmentId"): (rows.first_text(r.get("result")) or "").lower()
            for r in item.get("enrichments") or []
            if r.get("status", "completed") == "completed"
        }
        got = [answers.get(ids.get(c)) for c in criteria]
    else:
        evals = {str(e.get("criterion")): e.get("satisfied") for e in item.get("evaluations") or []}
        got = [evals.get(c) for c in criteria]
    return [v if v in ("yes", "no") else "unclear" for v in got]


def niche_of(verdict: list[str]) -> str | None:
    """["yes", "no"] -> "1,0"; None when any verdict is unclear (the item is listed apart)."""
    if any(v not in ("yes", "no") for v in verdict):
        return None
    return niche_key([v == "yes" for v in verdict])


def classify(
    items: list[Json], criteria: list[str], fitness: list[float], ids: dict[str, str] | None = None
) -> list[Json]:
    """Each item with a niche as a candidate elite {item, niche, fitnessScore, criteriaVector}, in
    item order; items with an unclear verdict are left out (see `unclear_ids`)."""
    out = []
    for item, score in zip(items, fitness, strict=True):
        niche = niche_of(verdicts(item, criteria, ids))
        if niche is not None:
            vector = [b == "1" for b in niche.split(",")]
            out.append({"item": item, "niche": niche, "fitnessScore": score, "criteriaVector": vector})
    return out


def unclear_ids(items: list[Json], criteria: list[str], ids: dict[str, str] | None = None) -> list[str]:
    """The ids of the items with any unclear verdict, in item order."""
    return [str(i.get("id")) for i in items if niche_of(verdicts(i, criteria, ids)) is None]


def target_niches(n_criteria: int, filled: set[str]) -> list[str]:
    """The empty niches a round asks for: every key of 2^N not in `filled`, all-yes first, at most
    MAX_TARGETS (a pure function of the archive, so a resumed round targets the same ones)."""
    keys = [
        niche_key([bool(n >> (n_criteria - 1 - i) & 1) for i in range(n_criteria)])
        for n in range(2**n_criteria)
    ]
    return [k for k in sorted(keys, reverse=True) if k not in filled][:MAX_TARGETS]


def phrased(criteria: list[str], niche: str) -> list[Json]:
    """A search's criteria for `niche`: the criterion for a 1, its negation for a 0."""
    return [
        {"description": c if bit == "1" else f"{NEGATION}{c}"}
        for c, bit in zip(criteria, niche.split(","), strict=True)
    ]


def select_elites(candidates: list[Json], strategy: str) -> list[Json]:
    """The best candidate per niche the strategy keeps (ties: the earlier item), niches sorted."""
    best: dict[str, Json] = {}
    for c in candidates:
        if keeps(c["niche"], strategy) and (
            c["niche"] not in best or c["fitnessScore"] > best[c["niche"]]["fitnessScore"]
        ):
            best[c["niche"]] = c
    return [best[n] for n in sorted(best, reverse=True)]


def success_rates(candidates: list[Json], criteria: list[str]) -> dict[str, float]:
    """criterion -> % of the items satisfying it (0 when there are no items)."""
    n = len(candidates)
    return {
        c: round(100 * sum(x["criteriaVector"][i] for x in candidates) / n, 2) if n else 0.0
        for i, c in enumerate(criteria)
    }


def distribution(candidates: list[Json]) -> dict[str, int]:
    """niche -> how many items are in it, niches sorted."""
    counts = Counter(c["niche"] for c in candidates)
    return {k: counts[k] for k in sorted(counts, reverse=True)}


def entropy(counts: dict[str, int]) -> float:
    """Shannon entropy (bits) of a niche distribution: 0 for one niche, log2(k) for k equal ones."""
    total = sum(counts.values())
    if not total:
        return 0.0
    h = -sum(n / total * math.log2(n / total) for n in counts.values() if n)
    return round(abs(h), 6)


def _ident(elite: Json, entity_of: dict[str, str] | None = None) -> tuple[str, str]:
    item = elite["item"]
    known = (entity_of or {}).get(str(item.get("id")))
    return elite["niche"], known or entities.entity_key(item)


def elite_change(before: list[Json], after: list[Json], entity_of: dict[str, str] | None = None) -> float:
    """Share of the elite set that changed: |A xor B| / |A or B| over (niche, entity); 0 if both empty.

    `entity_of` maps item ids to their resolved entity (items of two rounds' websets that are one
    company count as one); without it, each item's own `entities.entity_key`."""
    a, b = {_ident(e, entity_of) for e in before}, {_ident(e, entity_of) for e in after}
    union = a | b
    return round(len(a ^ b) / len(union), 6) if union else 0.0


def quality_metrics(
    n_criteria: int, counts: dict[str, int], elites: list[Json], found: float, analyzed: float
) -> Json:
    """{coverage: populated niches / 2^N, avgFitness over elites, diversity: entropy (bits),
    stringency: found / analyzed (0 when nothing was analyzed)}."""
    populated = sum(1 for n in counts.values() if n)
    return {
        "coverage": round(populated / 2**n_criteria, 6),
        # the mean of the unrounded scores, rounded once
        "avgFitness": round(math.fsum(e["fitnessScore"] for e in elites) / len(elites), 6) if elites else 0.0,
        "diversity": entropy(counts),
        "stringency": round(found / analyzed, 6) if analyzed else 0.0,
    }


class Pool:
    """Every item of every round so far, scored on one scale and resolved into entities.

    Each round's webset has its own enrichment ids: results are re-keyed by the arg's position, so a
    number enrichment is min-max normalised over all rounds' items (an elite of round 1 and a
    candidate of round 3 compete on the same scale). An entity found in several rounds (any of
    `entities.resolve`'s matches) counts once, in the niche of its latest round, by its fittest
    item there (ties: the earlier); the archive is the best of those per niche (ties: the earlier)."""

    def __init__(self, criteria: list[str], strategy: str) -> None:
        self.criteria = criteria
        self.strategy = strategy
        self.items: list[Json] = []
        self.canonical: list[Json] = []
        self.specs: dict[int, Json] = {}
        self.entity_of: dict[str, str] = {}
        self.niche_of: dict[str, str] = {}

    def add(
        self, items: list[Json], specs: list[Json], ids: dict[str, str] | None = None
    ) -> tuple[list[Json], list[Json]]:
        """Add one round's items; returns (this round's candidates, the archive), on the pooled scale.

        Items with an unclear verdict are not added (they have no niche); `ids` as in `verdicts`."""
        items = [i for i in items if niche_of(verdicts(i, self.criteria, ids)) is not None]
        for item in items:
            self.niche_of[str(item.get("id"))] = niche_of(verdicts(item, self.criteria, ids)) or ""
        by_id = {s["enrichmentId"]: f"arg{s['arg']}" for s in specs}
        for s in specs:
            self.specs.setdefault(s["arg"], {**s, "enrichmentId": f"arg{s['arg']}"})
        for item in items:
            results = [
                {**r, "enrichmentId": by_id[r.get("enrichmentId")]}
                for r in item.get("enrichments") or []
                if r.get("enrichmentId") in by_id
            ]
            self.canonical.append({**item, "enrichments": results})
        self.items.extend(items)
        scores = fitness_scores(self.canonical, [self.specs[k] for k in sorted(self.specs)])
        candidates: list[Json] = [
            {"item": item, "niche": self.niche_of[str(item.get("id"))], "fitnessScore": score,
             "criteriaVector": [b == "1" for b in self.niche_of[str(item.get("id"))].split(",")]}
            for item, score in zip(self.items, scores, strict=True)
        ]  # fmt: skip
        resolution = entities.resolve(self.items)
        self.entity_of = {}
        for members in resolution.groups:
            key = entities.entity_key(self.items[members[0]])
            for i in members:
                self.entity_of[str(self.items[i].get("id"))] = key
        entity = [self.entity_of[str(c["item"].get("id"))] for c in candidates]
        niche = {e: c["niche"] for e, c in zip(entity, candidates, strict=True)}  # the latest round's
        best: dict[str, int] = {}  # entity -> its fittest candidate in that niche (ties: the earlier)
        for n, c in enumerate(candidates):
            e = entity[n]
            if c["niche"] == niche[e] and (
                e not in best or c["fitnessScore"] > candidates[best[e]]["fitnessScore"]
            ):
                best[e] = n
        ordered = [candidates[n] for n in sorted(best.values())]
        return candidates[len(candidates) - len(items) :], select_elites(ordered, self.strategy)

    def niches(self) -> dict[str, int]:
        """niche -> how many entities are in it now (each in its latest round's niche)."""
        latest: dict[str, str] = {}
        for item in self.items:
            latest[self.entity_of[str(item.get("id"))]] = self.niche_of[str(item.get("id"))]
        counts = Counter(latest.values())
        return {k: counts[k] for k in sorted(counts, reverse=True)}


# --- the workflow -----------------------------------------------------------------------------


def search_counts(webset: Json) -> tuple[int, int]:
    """(found, analyzed) summed over the webset's searches."""
    found = analyzed = 0
    for s in webset.get("searches") or []:
        progress = s.get("progress") or {}
        found += int(progress.get("found") or 0)
        analyzed += int(progress.get("analyzed") or 0)
    return found, analyzed


def enrichment_specs(webset: Json, enrichments: list[kit.EnrichmentArg]) -> list[Json]:
    """The args' enrichments matched to the created webset's (by description, else by order)."""
    created = list(webset.get("enrichments") or [])
    specs = []
    for i, arg in enumerate(enrichments):
        match = next((e for e in created if e.get("description") == arg.description), None)
        if match is None and i < len(created):
            match = created[i]
        if match is None:
            continue
        created.remove(match)
        specs.append({
            "arg": i,
            "enrichmentId": match.get("id"),
            "format": arg.format or match.get("format") or "text",
            "options": [o.label for o in arg.options or []],
        })  # fmt: skip
    return specs


def _recoverable(exc: OrchError, websets: list[str], what: str = "websets") -> OrchError:
    if websets:  # name what exists at Exa, so a person can recover or cancel it
        exc.message = (
            f"{exc.message} (qd.winnow had created {what} {', '.join(websets)}; their items stay there)"
        )
        exc.args = (exc.message,)
    return exc


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


def row_item(row: Json) -> Json:
    """An agent row (`rows.from_agent`) as the item the scoring reads: properties {type, url,
    description, <type>: {name}}, each criterion's verdict as enrichment `criterion{i}` (unclear:
    no result) and each field as `field{j}`."""
    results = [
        {"enrichmentId": f"criterion{i}", "status": "completed",
         "result": [v["verdict"]] if v["verdict"] in ("yes", "no") else None}
        for i, v in enumerate(row["verdicts"])
    ]  # fmt: skip
    results += [
        {
            "enrichmentId": f["name"],
            "status": "completed",
            "result": None if f["value"] is None else [f["value"]],
        }
        for f in row["fields"]
    ]
    return {"id": row["id"], "source": "agent", "runId": row["source"]["runId"],
            "properties": rows.props_of(row), "enrichments": results}  # fmt: skip


async def winnow(ctx: TaskContext, args: WinnowArgs) -> Json:
    criteria = [c.description for c in args.criteria]
    started: float = await ctx.step("started", time.time)
    engine: str = await ctx.step("engine", lambda: args.engine)  # a resumed task never switches
    deadline = started + kit.seconds(args.timeout)
    search: Json = {
        "query": args.query,
        "count": args.count,
        "entity": args.entity.model_dump(exclude_none=True),
    }
    enrichments = verdict_enrichments(criteria) + [e.wire() for e in args.enrichments]
    rounds: list[Json] = []
    archive: list[Json] = []
    previous: list[Json] = []  # the archive after the round before
    websets: list[str] = []
    runs: list[str] = []  # the agent runs, in creation order (rebuilt from their create steps)
    pool = Pool(criteria, args.selection_strategy)
    found_total = analyzed_total = 0
    converged = timed_out = False
    stopped: Json = {}  # the round under way: what a stop salvages from Exa (ctx.on_stop)
    ctx.on_stop(partial(_found_round, ctx, stopped, engine))
    try:
        for r in range(1, args.max_rounds + 1):
            # Only checkpointed data decides the round's bodies: the archive (from the collected
            # items) and the websets created so far.
            targets: list[str] | None = None
            if r > 1 and args.explore:
                targets = target_niches(len(criteria), set(pool.niches()))
                if not targets:  # every niche is filled
                    converged = True
                    break
            plans: list[tuple[str, Json]] = []
            if targets is None:
                plans.append(("", {"search": search, "enrichments": enrichments}))
            else:
                exclude = [{"source": "webset", "id": w} for w in websets]
                per = max(1, math.ceil(args.count / len(targets)))
                for niche in targets:
                    body = {**search, "count": per, "criteria": phrased(criteria, niche), "exclude": exclude}
                    plans.append(
                        (f".n{niche.replace(',', '')}", {"search": body, "enrichments": enrichments})
                    )
            found = analyzed = 0
            items: list[Json] = []
            candidates: list[Json] = []
            unclear: list[str] = []
            round_timed_out = False
            round_ids: list[str] = []
            stopped.update(round=r, ids=[], items=items)
            if engine == "agent":
                per = args.count if targets is None else max(1, math.ceil(args.count / len(targets)))
                asks = [("", args.query)] if targets is None else [
                    (f".n{n.replace(',', '')}", targeted_query(args.query, criteria, n)) for n in targets
                ]  # fmt: skip
                await ctx.progress(
                    "creating", r - 1, args.max_rounds,
                    f"round {r}/{args.max_rounds}: starting {len(asks)} agent run(s)"
                    + (f" for niches {', '.join(targets)}" if targets else ""),
                )  # fmt: skip
                # what one row is (the websets' entity), then the chain and the held elites
                options: Json = {"systemPrompt": rows.entity_prompt(args.entity.model_dump())}
                if runs:  # continue the chain (a completed run): no entity it returned comes again
                    options["previousRunId"] = runs[-1]
                held = [e["item"]["properties"].get("url") for e in archive]
                if held:
                    options["input"] = {"exclusion": [{"url": u} for u in held if u]}
                made: list[tuple[str, rows.Ask, tuple[str, Callable[[], None]]]] = []
                for sfx, query in asks:
                    ask = rows.Ask(query, criteria, list(args.enrichments), per, str(args.entity.type),
                                   chunk=per, max_runs=1, options=options)  # fmt: skip
                    made.append((sfx, ask, await rows.start(ctx, f"round{r}.run{sfx}", ask)))
                round_ids = stopped["ids"] = [first[0] for _, _, first in made]
                for sfx, ask, first in made:
                    collected = await rows.finish(
                        ctx, f"round{r}.run{sfx}", f"round{r}.wait{sfx}", ask, first, deadline, "qd.winnow"
                    )
                    round_timed_out = round_timed_out or collected.timed_out
                    got = [row_item(row) for row in collected.rows]
                    ids = {c: f"criterion{i}" for i, c in enumerate(criteria)}
                    now_candidates, archive = pool.add(got, agent_specs(args.enrichments), ids)
                    candidates.extend(now_candidates)
                    unclear.extend(unclear_ids(got, criteria, ids))
                    items.extend(got)
                    found += len(got)
                runs.extend(round_ids)
            else:
                await ctx.progress(
                    "creating", r - 1, args.max_rounds,
                    f"round {r}/{args.max_rounds}: creating {len(plans)} webset(s)"
                    + (f" for niches {', '.join(targets)}" if targets else ""),
                )  # fmt: skip
                created: list[tuple[str, Json]] = []
                hooks = []  # a cancel from now on cancels every webset of the round made so far
                for sfx, body in plans:
                    webset = await kit.create_webset(ctx, f"round{r}.create{sfx}", body)
                    created.append((sfx, webset))
                    stopped["ids"].append(str(webset["id"]))
                    hooks.append(ctx.on_cancel(_canceller(ctx, str(webset["id"]))))
                round_ids = [str(w["id"]) for _, w in created]
                websets.extend(round_ids)
                for (sfx, webset), wid, remove_hook in zip(created, round_ids, hooks, strict=True):
                    waited: Json = await ctx.step(
                        f"round{r}.wait{sfx}", partial(_watch, ctx, args, r, wid, deadline, rounds)
                    )
                    found, analyzed = found + waited["found"], analyzed + waited["analyzed"]
                    if not waited["timedOut"]:
                        remove_hook()  # idle: nothing left to cancel
                    round_timed_out = round_timed_out or waited["timedOut"]
                    await ctx.progress("collecting", found, args.count, f"round {r}: collecting the items")
                    got = await kit.collect_items(
                        ctx, f"round{r}.items{sfx}", wid, max_items=max(args.count, 1000)
                    )
                    ids = verdict_ids(webset, criteria)
                    fitness_webset = {
                        "enrichments": [
                            e for e in webset.get("enrichments") or [] if e.get("id") not in ids.values()
                        ]
                    }
                    now_candidates, archive_now = pool.add(
                        got, enrichment_specs(fitness_webset, args.enrichments), ids
                    )
                    candidates.extend(now_candidates)
                    unclear.extend(unclear_ids(got, criteria, ids))
                    items.extend(got)
                    archive = archive_now
            elites = select_elites(candidates, args.selection_strategy)
            change = elite_change(previous, archive, pool.entity_of)
            previous = archive
            found_total, analyzed_total = found_total + found, analyzed_total + analyzed
            rounds.append({
                "websetId": round_ids[0] if engine == "websets" else None,
                "websetIds": round_ids if engine == "websets" else None,
                **({"runIds": round_ids} if engine == "agent" else {}),
                "targetNiches": targets,
                "itemCount": len(items),
                "criteriaSuccessRates": success_rates(candidates, criteria),
                "nicheDistribution": distribution(candidates),
                "unclearCount": len(unclear),
                "unclearItemIds": unclear,
                "elites": elites,
                "found": found,
                "analyzed": analyzed,
                "stringency": round(found / analyzed, 6) if analyzed else 0.0,
                "eliteChange": change,
                "timedOut": round_timed_out,
            })  # fmt: skip
            stopped.clear()
            await ctx.partial({"step": "scored", "round": r, "rounds": rounds, "finalElites": archive})
            if round_timed_out:
                timed_out = True
                break
            if r >= 2 and change < args.convergence_threshold:
                converged = True
                break
    except OrchError as exc:
        raise (
            _recoverable(exc, websets, "websets") if websets else _recoverable(exc, runs, "agent runs")
        ) from None
    await memory.remember(ctx, [e["item"] for e in archive], "ignore", "qd.winnow")  # entity memory
    niches = pool.niches()
    result: Json = {
        "engine": engine,
        "rounds": rounds,
        "finalElites": archive,
        "convergenceReached": converged,
        "qualityMetrics": quality_metrics(len(criteria), niches, archive, found_total, analyzed_total),
        "totalDuration": round((time.time() - started) * 1000),
        "timedOut": timed_out,
    }
    if timed_out:
        result.update(partial=True, stoppedBy="timeout")
        result["timedOutNote"] = (
            f"round {len(rounds)} was still searching when the timeout ({args.timeout:g} ms) ran out: "
            f"the result scores the items found so far; {'webset(s)' if engine == 'websets' else 'agent run(s)'} "
            f"{', '.join(rounds[-1].get('websetIds') or rounds[-1].get('runIds') or [])} keep running"
        )
    await ctx.progress("done", len(rounds), args.max_rounds, f"{len(rounds)} round(s), {len(archive)} elites")
    return result


async def _found_round(ctx: TaskContext, stopped: Json, engine: str) -> Json:
    """A stopped winnow's salvage (ctx.on_stop): the rounds scored so far are its partial result;
    the round under way adds `stoppedRound`, every item its websets hold (or its agent runs
    returned), not scored."""
    if not stopped:
        return {}
    if engine == "websets":
        items = [
            item
            for i, wid in enumerate(stopped["ids"])
            for item in await kit.webset_items(ctx, f"stopped.{i}.items", wid)
        ]
    else:
        items = list(stopped["items"])
    where = "websetIds" if engine == "websets" else "runIds"
    return {
        "stoppedRound": {
            "round": stopped["round"],
            where: list(stopped["ids"]),
            "items": items,
            "itemCount": len(items),
        }
    }


def _canceller(ctx: TaskContext, wid: str) -> Callable[[], Awaitable[Any]]:
    async def cancel() -> Any:
        return await kit.call(ctx, "websets.cancel", {"id": wid})

    return cancel


async def _watch(
    ctx: TaskContext, args: WinnowArgs, r: int, wid: str, deadline: float, rounds: list[Json]
) -> Json:
    """Poll the webset until idle or the deadline, reporting found/analyzed/stringency as it goes."""
    interval = POLL_FIRST_S
    while True:
        webset = await kit.call(ctx, "websets.get", {"id": wid}, step="searching")
        found, analyzed = search_counts(webset)
        stringency = round(found / analyzed, 6) if analyzed else 0.0
        idle = webset.get("status") == "idle"
        if str(webset.get("status", "running")) not in ("idle", "running", "pending"):
            raise WebsetNotRunning(wid, str(webset.get("status")))  # paused: never idle by itself
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
            return {"found": found, "analyzed": analyzed, "timedOut": not idle}
        await ctx.sleep(min(interval, left))
        interval = min(POLL_MAX_S, interval * 1.5)


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
    if args.engine == "agent":
        targets = min(MAX_TARGETS, 2 ** len(args.criteria)) if args.explore else 1
        later = (args.max_rounds - 1) * targets
        first = prices.agent_run(rows.RUN_EFFORT, "agent run, round 1")
        if not later:
            return [first]
        more = prices.agent_run(
            rows.RUN_EFFORT, f"agent runs, rounds 2-{args.max_rounds} at most", count=later
        )
        return [first, dataclasses.replace(more, certain=False)]
    contacts = prices.contact_columns(args.enrichments)
    parts = prices.webset(args.count, len(args.enrichments) + len(args.criteria), "webset", contacts)
    return [
        dataclasses.replace(
            p, what=f"{p.what} ({args.max_rounds} rounds at most)", count=p.count * args.max_rounds
        )
        for p in parts
    ]


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
