"""When simulated Websets objects are done, and their statuses at a given instant: pure functions.

Both the engine (which advances state) and the views (which render it) need these; keeping them
here lets views render without importing the engine that sends the views' events.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from exa_orch.sim.websets.store import (
    Candidate,
    EnrichmentRec,
    ItemRec,
    RunRec,
    SearchRec,
    WebsetRec,
    WebsetsStore,
)


@dataclass(frozen=True)
class Profile:
    """How long, in simulated seconds, each thing a webset does takes (`seconds_per_item` scales
    them all)."""

    start: float  # a search stays "created" this long before it runs
    per_candidate: float  # analyzing one candidate (kept or not)
    settle: float  # the webset stays "running" this long after its search completes
    enrich: float  # an enrichment result, per item
    import_base: float  # an import, before its rows
    import_row: float  # an import, per row


# The one real timeline we have (docs/simulator.md, "timing"): a count-5 webset, "AI startups in San
# Francisco", with a real key (a third-party note, "Exa WebSets API - Real Behavior Test Results",
# 2025-11-01, exa-js 1.10.2): items seen at ~7 s, the enrichment done at ~9 s, the search completed
# at ~13 s, the webset idle at ~19 s.
REAL_TIMELINE: dict[str, float] = {"first item": 7.0, "enrichment done": 9.0, "search completed": 13.0,
                                   "webset idle": 19.0}  # fmt: skip
PROFILES: dict[str, Profile] = {
    # what the tests, the demo, the eval and the benches are calibrated on: a count-5 webset idle at
    # 8.5 s, about twice as fast as Exa
    "quick": Profile(start=0.5, per_candidate=1.0, settle=3.0, enrich=0.25, import_base=1.0, import_row=0.1),
    # fitted to REAL_TIMELINE: first item at 5.0 + 1.6 = 6.6 s, its enrichment at 8.8 s, the fifth
    # candidate (search completed) at 13.0 s, idle 6 s later at 19.0 s (bench/simtiming.py)
    "real": Profile(start=5.0, per_candidate=1.6, settle=6.0, enrich=2.2, import_base=1.6, import_row=0.16),
}
DEFAULT_PROFILE = "quick"  # SimConfig's; `exa-orch sim` and `serve --sim` default to "real"


def profile(store: WebsetsStore) -> Profile:
    """The simulator's timing profile (`SimConfig.timing`), scaled by `seconds_per_item`."""
    config = store.ctx.config
    base = PROFILES[getattr(config, "timing", DEFAULT_PROFILE)]
    k = float(config.seconds_per_item)
    return Profile(*(k * getattr(base, f.name) for f in fields(Profile)))


def search_status(search: SearchRec, now: float) -> str:
    if search.canceled_at is not None:
        return "canceled"
    if now < search.start_at:
        return "created"
    return "running" if now < search.done_at else "completed"


def search_end(search: SearchRec) -> float:
    """When the search stops: its cancel time or its last analysis."""
    return min(search.done_at, search.canceled_at) if search.canceled_at is not None else search.done_at


def visible_plan(search: SearchRec, now: float) -> list[Candidate]:
    end = min(now, search_end(search))
    return [c for c in search.plan if c.at <= end]


# ---- enrichment timing ---------------------------------------------------------------------------
def ready_at(store: WebsetsStore, item_at: float, enrichment: EnrichmentRec) -> float:
    return max(item_at, enrichment.created_at) + profile(store).enrich


def result_status(store: WebsetsStore, item: ItemRec, enrichment: EnrichmentRec, now: float) -> str:
    due = ready_at(store, item.created_at, enrichment)
    if enrichment.canceled_at is not None and enrichment.canceled_at < due:
        return "canceled"
    return "completed" if now >= due else "pending"


def busy_until(store: WebsetsStore, ws: WebsetRec) -> float:
    """The simulated second at which everything running in `ws` is done."""
    until = ws.created_at
    enrichments = [store.enrichments[e] for e in ws.enrichment_ids if e in store.enrichments]

    def enriched_by(at: float) -> float:
        end = at
        for enr in enrichments:
            due = ready_at(store, at, enr)
            end = max(end, min(due, enr.canceled_at) if enr.canceled_at is not None else due)
        return end

    for sid in ws.search_ids:
        search = store.searches[sid]
        end = search_end(search)
        settled = end + (search.settle if search.canceled_at is None else 0.0)
        until = max(until, settled)
        for cand in search.plan:
            if cand.accepted and cand.at <= end:
                until = max(until, enriched_by(cand.at))
    for item in ws.items:
        until = max(until, enriched_by(item.created_at))
    for import_id, attached_at in ws.imports:
        imp = store.imports.get(import_id)
        if imp is not None and imp.done_at is not None and imp.failed_reason is None:
            until = max(until, enriched_by(max(attached_at, imp.done_at)))
    return until


def held(store: WebsetsStore) -> str:
    """The state the `webset_status` fault mode holds working websets in ("paused", "pending"), or ""."""
    return str(getattr(store.ctx.config.faults, "webset_status", "") or "")


def webset_status(store: WebsetsStore, ws: WebsetRec, now: float) -> str:
    """idle, running, or (fault mode) paused / pending: a working webset held in that state."""
    if ws.deleted:
        return "idle"
    working = busy_until(store, ws) > now
    if held(store) and (working or ws.busy):
        return held(store)
    return "running" if working else "idle"


def enrichment_status(store: WebsetsStore, enrichment: EnrichmentRec, now: float) -> str:
    if enrichment.canceled_at is not None:
        return "canceled"
    ws = store.websets[enrichment.webset_id]
    searching = any(search_status(store.searches[s], now) in ("created", "running") for s in ws.search_ids)
    pending = any(result_status(store, i, enrichment, now) == "pending" for i in ws.items)
    return "pending" if searching or pending else "completed"


def import_status(imp: Any, now: float) -> str:
    if imp.failed_reason is not None:
        return "failed"
    if imp.uploaded_at is None:
        return "pending"
    return "completed" if imp.done_at is not None and now >= imp.done_at else "processing"


def run_status(store: WebsetsStore, run: RunRec, now: float) -> str:
    if run.canceled_at is not None:
        return "canceled"
    if run.search_id is None:
        return "completed" if run.completed_at is not None and now >= run.completed_at else "running"
    status = search_status(store.searches[run.search_id], now)
    return {"created": "created", "running": "running", "completed": "completed", "canceled": "canceled"}[
        status
    ]
