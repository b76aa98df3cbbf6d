"""Archive extractors: what each research workflow's finished task contributes to the MAP-Elites archive.

Each extractor gets the finished TaskRecord and returns its run's metrics (METRIC_COLUMNS get their
own column in `workflow_runs`, among them `engine` (websets | agent) and `exa_runs` (the websets or
agent runs the task made); the rest go to its `metrics` JSON) and elites (`qd_elites`). A
completed task is read from its result; a failed or cancelled one from its last partial result
(what it had gathered when it stopped; `fromPartial: true`), plus `errorCode` / `errorStep` when
it failed. Extractors run inside the store's write transaction: pure functions of the record,
tolerant of missing keys (a partial result is any prefix of the work).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from exa_orch.store import ArchiveEntry, Elite, TaskRecord, TaskStatus
from exa_orch.store.archive import Extractor
from exa_orch.workflows.kit import AgentJson  # what an extractor reads: a task's args, result or partial


def extractor(entry: Callable[[AgentJson, AgentJson], ArchiveEntry]) -> Extractor:
    """An Extractor from `entry(data, args)`: data is the result (completed) or the partial result."""

    def extract(task: TaskRecord) -> ArchiveEntry:
        completed = task.status is TaskStatus.COMPLETED
        source = task.result if completed else task.partial
        data = source if isinstance(source, dict) else {}
        got = entry(data, task.args if isinstance(task.args, dict) else {})
        metrics = dict(got.metrics)
        if not completed and data:
            metrics["fromPartial"] = True
        if task.status is TaskStatus.FAILED and task.error:
            metrics["errorCode"] = task.error.get("code")
            metrics["errorStep"] = task.error.get("step")
        return ArchiveEntry({k: v for k, v in metrics.items() if v is not None}, got.elites)

    return extract


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _dict(value: Any) -> AgentJson:
    return value if isinstance(value, dict) else {}


def _num(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _int(value: Any) -> int:
    return int(value) if isinstance(value, int | float) and not isinstance(value, bool) else 0


def _ratio(part: float, whole: float) -> float | None:
    return round(part / whole, 6) if whole else None


def _engine(data: AgentJson, args: AgentJson) -> str:
    """The engine the task ran on: its result's, else its args' (a partial result may lack it)."""
    return str(data.get("engine") or args.get("engine") or "websets")


def _round_stats(r: AgentJson) -> AgentJson:
    """One qd.winnow round's figures for the run page (its elites counted, not copied)."""
    stats = {k: r.get(k) for k in ("itemCount", "found", "analyzed", "stringency", "eliteChange")}
    stats["elites"] = len(_list(r.get("elites")))
    keys = ("criteriaSuccessRates", "nicheDistribution", "unclearCount", "targetNiches", "timedOut")
    return stats | {k: r.get(k) for k in keys}


def _criteria(args: AgentJson) -> list[Any] | None:
    """The criteria's texts (a niche grid's axes), or None when the args name none."""
    return [c.get("description") for c in _list(args.get("criteria")) if isinstance(c, dict)] or None


def _winnow(data: AgentJson, args: AgentJson) -> ArchiveEntry:
    """qd.winnow: the seed's quality metrics, rounds, niches and its finalElites as elites."""
    rounds = [r for r in _list(data.get("rounds")) if isinstance(r, dict)]
    final = [e for e in _list(data.get("finalElites")) if isinstance(e, dict)]
    quality = _dict(data.get("qualityMetrics"))
    possible, niches = _niches(args, quality)
    converged = data.get("convergenceReached")
    metrics: AgentJson = {
        "engine": _engine(data, args),
        "exa_runs": sum(len(_list(r.get("websetIds") or r.get("runIds"))) for r in rounds) or None,
        "rounds": len(rounds),
        "item_count": sum(_int(r.get("itemCount")) for r in rounds),
        "niches": niches,
        "possible_niches": possible,
        "elite_count": len(final),
        "fitness": _num(quality.get("avgFitness")),
        "coverage": _num(quality.get("coverage")),
        "diversity": _num(quality.get("diversity")),
        "stringency": _num(quality.get("stringency")),
        "converged": converged if isinstance(converged, bool) else None,
        "eliteChange": [r.get("eliteChange") for r in rounds] or None,
        # What the run page draws: the criteria's texts (its niche grid's axes) and each round's
        # figures side by side; small (at most 10 rounds of 32 niches), unlike the rounds' elites.
        "criteria": _criteria(args),
        "roundStats": [_round_stats(r) for r in rounds] or None,
        "timedOut": data.get("timedOut"),
        "totalDuration": data.get("totalDuration"),
    }
    return ArchiveEntry(metrics, [_elite(e) for e in final])


def _niches(args: AgentJson, quality: AgentJson) -> tuple[int | None, int | None]:
    """(niches possible: 2^criteria, niches populated: coverage of them), None where unknown."""
    n_criteria = len(_list(args.get("criteria")))
    possible = 2**n_criteria if n_criteria else None
    coverage = _num(quality.get("coverage"))
    return possible, round(coverage * possible) if coverage is not None and possible else None


def _elite(e: AgentJson) -> Elite:
    """A final elite of qd.winnow's result as the archive files it."""
    return Elite(
        niche=str(e.get("niche")),
        fitness=_num(e.get("fitnessScore")) or 0.0,
        criteria_vector=[bool(b) for b in _list(e.get("criteriaVector"))],
        item=_dict(e.get("item")),
    )


def _harvest(data: AgentJson, args: AgentJson) -> ArchiveEntry:
    """lifecycle.harvest: items collected; stringency = found / analyzed of the search."""
    progress = _dict(data.get("searchProgress"))
    found, analyzed = _int(progress.get("found")), _int(progress.get("analyzed"))
    items = data.get("itemCount")
    return ArchiveEntry({
        "engine": _engine(data, args),
        "exa_runs": 1 if data.get("websetId") else len(_list(data.get("runIds"))) or None,
        "item_count": items if isinstance(items, int) else len(_list(data.get("items"))),
        "stringency": _ratio(found, analyzed),
        "found": progress.get("found"),
        "analyzed": progress.get("analyzed"),
        "enrichmentCount": data.get("enrichmentCount"),
        "uniqueEntities": data.get("uniqueEntities"),
        "timedOut": data.get("timedOut"),
    })  # fmt: skip


def _convergent(data: AgentJson, args: AgentJson) -> ArchiveEntry:
    """convergent.search: coverage = share of entities found by 2+ queries; fitness = their mean confidence."""
    intersection = [e for e in _list(data.get("intersection")) if isinstance(e, dict)]
    total = _int(data.get("totalUniqueEntities"))
    confidences = [c for c in (_num(e.get("confidence")) for e in intersection) if c is not None]
    counts = _list(data.get("itemCounts"))
    return ArchiveEntry({
        "engine": _engine(data, args),
        "exa_runs": len(_list(data.get("websetIds")) or _list(data.get("runIds"))) or None,
        "item_count": sum(_int(c) for c in counts) if counts else None,
        "fitness": round(sum(confidences) / len(confidences), 6) if confidences else None,
        "coverage": _ratio(len(intersection), total),
        "queries": len(_list(data.get("websetIds"))) or len(_list(args.get("queries"))) or None,
        "uniqueEntities": data.get("totalUniqueEntities"),
        "intersectionCount": len(intersection) if "intersection" in data else None,
        "timedOut": data.get("timedOut"),
    })  # fmt: skip


def _exa_objects(*holders: AgentJson) -> int:
    """Websets and agent runs the holders name (`websetId` or `runIds` each)."""
    return sum(1 if h.get("websetId") else len(_list(h.get("runIds"))) for h in holders)


def _adversarial(data: AgentJson, args: AgentJson) -> ArchiveEntry:
    """adversarial.verify: items on both sides; fitness = the synthesis's confidence, if any;
    exa_runs = both sides' websets or agent runs and the synthesis run."""
    thesis, antithesis = _dict(data.get("thesis")), _dict(data.get("antithesis"))
    synthesis = _dict(data.get("synthesis"))
    sides = [s for s in (thesis, antithesis) if s]
    return ArchiveEntry({
        "engine": _engine(data, args),
        "exa_runs": (_exa_objects(*sides) + (1 if synthesis.get("researchId") else 0)) or None,
        "item_count": sum(_int(s.get("itemCount")) for s in sides) if sides else None,
        "fitness": _num(synthesis.get("confidence")),
        "thesisCount": thesis.get("itemCount"),
        "antithesisCount": antithesis.get("itemCount"),
        "verdict": synthesis.get("verdict"),
        "synthesisError": _dict(synthesis.get("error")).get("code"),
        "timedOut": any(s.get("timedOut") for s in sides) or None,
    })  # fmt: skip


def _deep(data: AgentJson, args: AgentJson) -> ArchiveEntry:
    """research.deep: item_count = the citations of the answer."""
    citations = data.get("citations")
    return ArchiveEntry({
        "engine": "agent",
        "exa_runs": 1 if data.get("researchId") else None,
        "item_count": len(citations) if isinstance(citations, list) else None,
        "researchStatus": data.get("status"),
        "model": data.get("model"),
        "researchDuration": data.get("duration"),
        "timedOut": data.get("timedOut"),
    })  # fmt: skip


def _verified(data: AgentJson, args: AgentJson) -> ArchiveEntry:
    """research.verifiedCollection: items collected; coverage = researched / items whose research
    started; exa_runs = the webset (or the collection's agent runs) and the research runs."""
    research = [m["research"] for m in _list(data.get("items")) if isinstance(m, dict) and "research" in m]
    attempted = len(research)
    researched = _int(data.get("researchedCount"))
    total = data.get("totalItems")
    runs = {r.get("researchId") for r in research if isinstance(r, dict) and r.get("researchId")}
    return ArchiveEntry({
        "engine": _engine(data, args),
        "exa_runs": (_exa_objects(data) + len(runs)) or None,
        "item_count": total if isinstance(total, int) else None,
        "coverage": _ratio(researched, attempted),
        "researchedCount": data.get("researchedCount"),
        "researchAttempted": attempted if "items" in data else None,
        "uniqueEntities": data.get("uniqueEntities"),
        "timedOut": data.get("timedOut"),
    })  # fmt: skip


winnow_run = extractor(_winnow)
harvest_run = extractor(_harvest)
convergent_run = extractor(_convergent)
adversarial_run = extractor(_adversarial)
deep_run = extractor(_deep)
verified_run = extractor(_verified)
