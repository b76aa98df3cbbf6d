"""Websets over simulated time: plans made at create time, state advanced lazily on each request.

Contract:
- A search is planned entirely when it is created (`plan_search`): the ranked candidates from the
  world, when each is analyzed (the timing profile's `per_candidate` apiece), whether it is kept
  (every criterion judged "yes": Exa keeps only the candidates that pass every criterion, see
  data-design/exa-api-notes.md) and its evaluations. Reads only reveal the part of the plan whose
  time has come, so `progress.found/analyzed` grow between polls and the result never depends on
  when, or how often, anyone polls.
- `advance(store)` runs before every Websets request: it turns due candidates into items, sends
  the due events (item created/enriched, search completed, import completed, monitor runs, idle)
  in time order, and fires monitors whose next run is due. It never awaits, so one request sees
  one consistent instant.
- A webset is running while `busy_until(ws)` (its last search, item enrichment or import) is in
  the future, and idle after; `webset.idle` is sent once per running -> idle transition.
"""

from __future__ import annotations

import hashlib
from typing import Any

from exa_orch.sim.websets import delivery, judge, views
from exa_orch.sim.websets.store import (
    Candidate,
    EventRec,
    ItemRec,
    MonitorRec,
    RunRec,
    SearchRec,
    WebsetRec,
    WebsetsStore,
)
from exa_orch.sim.websets.timing import (
    busy_until,
    held,
    profile,
    ready_at,
    result_status,
    visible_plan,
)
from exa_orch.sim.world import Entity

MAX_ANALYZED_FACTOR = 4  # a search looks at no more than count * this (+20) candidates
SCREENED_MIN, SCREENED_MAX = 2, 4  # pages dropped unseen per analyzed candidate (see `screened`)


# ---- planning ------------------------------------------------------------------------------------
def source_entities(store: WebsetsStore, sources: list[dict[str, Any]]) -> list[Entity]:
    """The entities behind `[{source: webset|import, id}]` (unknown ids are 404)."""
    out: list[Entity] = []
    for src in sources:
        if src.get("source") == "webset":
            out.extend(i.entity for i in store.webset(str(src.get("id"))).items)
        else:
            out.extend(store.resolve("import", str(src.get("id"))).rows)
    return out


def plan_search(store: WebsetsStore, ws: WebsetRec, search: SearchRec) -> None:
    """Fill `search.plan` and `search.done_at` (see module docstring)."""
    world = store.ctx.world
    kind = judge.entity_kind((search.entity or {}).get("type")) or world.infer_kind(search.query)
    if search.scope:
        scoped = {e.id: e for e in source_entities(store, search.scope)}
        pool = sorted(scoped.values(), key=lambda e: (-world.score(search.query, e), e.id))
    else:
        pool = world.search(search.query, kind, limit=len(world.entities))
    skip = {e.url for e in source_entities(store, search.exclude + ws.excludes)}
    if search.behavior == "append":
        skip |= {i.entity.url for i in ws.items}
    timing = profile(store)
    step = timing.per_candidate
    t = search.start_at = search.created_at + timing.start
    found = 0
    budget = search.count * MAX_ANALYZED_FACTOR + 20
    for entity in pool:
        if found >= search.count or len(search.plan) >= budget:
            break
        if entity.url in skip:
            continue
        t += step
        evaluations = [judge.evaluate(world, entity, c) for c in search.criteria]
        accepted = all(ev["satisfied"] == "yes" for ev in evaluations)  # data-design/exa-api-notes.md
        search.plan.append(Candidate(t, entity, accepted, evaluations, screened(entity)))
        found += accepted
    search.done_at = t
    search.settle = timing.settle


def screened(entity: Entity) -> int:
    """How many pages a search drops before it analyzes `entity` (2 to 4, from a digest of the
    entity's id, so two searches that meet the same entities analyze as many): Exa analyzes about four
    candidates for each it keeps (a real count-5 search: 25 found, 99 analyzed)."""
    digest = hashlib.sha256(f"screened\x1f{entity.id}".encode()).digest()
    return SCREENED_MIN + digest[0] % (SCREENED_MAX - SCREENED_MIN + 1)


# ---- creating things -----------------------------------------------------------------------------
def emit(store: WebsetsStore, type_: str, at: float, data: dict[str, Any]) -> EventRec:
    """Append an event and deliver it to (or record an attempt for) each subscribed active webhook."""
    event = EventRec(id=store.new_id("event"), type=type_, at=at, data=data)
    store.events.append(event)
    store.events_by_id[event.id] = event
    for hook in store.webhooks.values():
        if hook.status == "active" and type_ in hook.events:
            delivery.record(store, hook, event)
    return event


def trigger_run(store: WebsetsStore, monitor: MonitorRec, at: float) -> RunRec:
    """Start a monitor run at `at`: a search on the monitor's webset with the monitor's config."""
    ws = store.websets[monitor.webset_id]
    config = monitor.behavior.get("config", {})
    first = store.searches[ws.search_ids[0]] if ws.search_ids else None
    query = config.get("query") or (first.query if first else "new companies")
    criteria = [c["description"] for c in config.get("criteria") or []] or (first.criteria if first else [])
    run = RunRec(id=store.new_id("mrun"), monitor_id=monitor.id, created_at=at)
    search = SearchRec(
        id=store.new_id("wsearch"), webset_id=ws.id, query=query,
        entity=config.get("entity") or (first.entity if first else None), criteria=criteria,
        count=int(config.get("count", 10)), behavior=config.get("behavior", "append"), exclude=[], scope=[],
        recall=False, metadata={}, created_at=at, plan=[], done_at=at, updated_at=at, monitor_run_id=run.id,
    )  # fmt: skip
    start_search(store, ws, search)
    run.search_id = search.id
    store.runs[run.id] = run
    monitor.run_ids.append(run.id)
    monitor.updated_at = at
    emit(store, "monitor.run.created", at, views.run(store, run, at))
    return run


def start_search(store: WebsetsStore, ws: WebsetRec, search: SearchRec) -> None:
    """Plan `search`, attach it to `ws` (dropping earlier items when it overrides) and announce it."""
    if search.behavior == "override":
        ws.items = [i for i in ws.items if i.source != "search"]
    plan_search(store, ws, search)
    store.searches[search.id] = search
    ws.search_ids.append(search.id)
    ws.busy = True
    ws.updated_at = search.created_at
    emit(store, "webset.search.created", search.created_at, views.search(store, search, search.created_at))


# ---- advancing -----------------------------------------------------------------------------------
def advance(store: WebsetsStore) -> float:
    """Bring every object up to the current simulated second; returns it."""
    now = store.ctx.clock.now()
    due: list[tuple[float, int, str, Any]] = []  # (at, order, event type, thunk giving its data)
    for monitor in list(store.monitors.values()):
        while monitor.status == "enabled" and monitor.next_run_at is not None and monitor.next_run_at <= now:
            at = monitor.next_run_at
            monitor.next_run_at = views.next_cron(monitor.cadence, at)
            if not store.websets[monitor.webset_id].deleted:
                trigger_run(store, monitor, at)
    for ws in store.websets.values():
        # An idle webset has nothing due: whatever could make it run again marks it busy first.
        # A webset held paused or pending (fault mode) makes no progress until the mode ends.
        if ws.busy and not ws.deleted and not held(store):
            _advance_webset(store, ws, now, due)
    for imp in store.imports.values():
        if (
            not imp.completed_emitted
            and imp.done_at is not None
            and imp.done_at <= now
            and not imp.failed_reason
        ):
            imp.completed_emitted = True
            due.append((imp.done_at, 0, "import.completed", lambda imp=imp: views.import_(store, imp, now)))
    for at, _, type_, data in sorted(due, key=lambda d: (d[0], d[1])):
        emit(store, type_, at, data())
    return now


def _advance_webset(
    store: WebsetsStore, ws: WebsetRec, now: float, due: list[tuple[float, int, str, Any]]
) -> None:
    have = {i.id for i in ws.items}
    for sid in ws.search_ids:
        search = store.searches[sid]
        shown = visible_plan(search, now)
        for cand in shown[search.materialized :]:
            if cand.accepted:
                item = _new_item(
                    store, ws, "search", search.id, cand.entity, search.entity, cand.evaluations, cand.at
                )
                if item.id not in have:
                    ws.items.append(item)
                    have.add(item.id)
                    due.append((cand.at, 1, "webset.item.created", lambda i=item: views.item(store, i, now)))
        search.materialized = len(shown)
        if search.canceled_at is None and not search.completed_emitted and search.done_at <= now:
            search.completed_emitted = True
            due.append(
                (search.done_at, 2, "webset.search.completed", lambda s=search: views.search(store, s, now))
            )
            run = store.runs.get(search.monitor_run_id or "")
            if run is not None and not run.completed_emitted:
                run.completed_emitted, run.completed_at = True, search.done_at
                due.append(
                    (search.done_at, 3, "monitor.run.completed", lambda r=run: views.run(store, r, now))
                )
    for import_id, attached_at in ws.imports:
        imp = store.imports.get(import_id)
        if imp is None or imp.done_at is None or imp.failed_reason or max(attached_at, imp.done_at) > now:
            continue
        if import_id in ws.imports_done:
            continue
        ws.imports_done.add(import_id)
        at = max(attached_at, imp.done_at)
        for entity in imp.rows:
            item = _new_item(store, ws, "import", imp.id, entity, imp.entity, [], at)
            if item.id not in have:
                ws.items.append(item)
                have.add(item.id)
                due.append((at, 1, "webset.item.created", lambda i=item: views.item(store, i, now)))
    for enr_id in ws.enrichment_ids:
        enr = store.enrichments[enr_id]
        for item in ws.items:
            if enr.id not in item.enriched and result_status(store, item, enr, now) == "completed":
                item.enriched.add(enr.id)
                at = ready_at(store, item.created_at, enr)
                due.append((at, 4, "webset.item.enriched", lambda i=item: views.item(store, i, now)))
    until = busy_until(store, ws)
    if ws.busy and until <= now:
        ws.busy = False
        due.append((until, 5, "webset.idle", lambda: views.webset(store, ws, now)))


def _new_item(
    store: WebsetsStore, ws: WebsetRec, source: str, source_id: str, entity: Entity,
    wanted: dict[str, Any] | None, evaluations: list[dict[str, Any]], at: float,
) -> ItemRec:  # fmt: skip
    entity_type = (wanted or {}).get("type") or entity.kind
    if entity_type != "custom" and entity_type != entity.kind:
        entity_type = entity.kind  # the world knows what the page is; its shape follows
    return ItemRec(
        id=store.derived_id("witem", ws.id, entity.id), webset_id=ws.id, source=source, source_id=source_id,
        entity=entity, entity_type=entity_type, evaluations=evaluations, created_at=at,
        description=entity.attrs.get("description") or f"{entity.title}: {entity.text.split('. ')[0]}.",
    )  # fmt: skip
