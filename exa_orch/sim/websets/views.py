"""JSON bodies of Websets objects, shaped per the spec's response schemas, at a simulated instant.

Contract: each function takes the store, a record and `now` (simulated seconds) and returns a dict
with every property the spec requires (plus `dashboardUrl` on websets, which exa-py requires, and
`externalId` on any object created with one). Statuses and progress are computed from `now`, so a
body never contradicts the events sent before it.
"""

from __future__ import annotations

import zoneinfo
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from exa_orch.sim.websets import judge, timing

if TYPE_CHECKING:
    from exa_orch.sim.websets.store import (
        EnrichmentRec,
        EventRec,
        ImportRec,
        ItemRec,
        MonitorRec,
        RunRec,
        SearchRec,
        WebhookRec,
        WebsetRec,
        WebsetsStore,
    )

DASHBOARD = "https://websets.exa.ai/websets"


def _iso(store: WebsetsStore, at: float | None) -> str | None:
    return None if at is None else store.ctx.clock.iso(at)


def _ext(body: dict[str, Any], external_id: str | None) -> dict[str, Any]:
    if external_id is not None:
        body["externalId"] = external_id
    return body


def webset(store: WebsetsStore, ws: WebsetRec, now: float, *, items: bool = False) -> dict[str, Any]:

    body: dict[str, Any] = {
        "id": ws.id,
        "object": "webset",
        "status": timing.webset_status(store, ws, now),
        "externalId": ws.external_id,
        "title": ws.title,
        "searches": [search(store, store.searches[s], now) for s in ws.search_ids],
        "imports": [import_(store, store.imports[i], now) for i, _ in ws.imports if i in store.imports],
        "enrichments": [enrichment(store, store.enrichments[e], now) for e in ws.enrichment_ids],
        "monitors": [monitor(store, store.monitors[m], now) for m in ws.monitor_ids if m in store.monitors],
        "streams": [],  # a real webset read has it (tests/fixtures/real/); the simulator makes none
        "excludes": ws.excludes,
        "metadata": ws.metadata,
        "dashboardUrl": f"{DASHBOARD}/{ws.id}",
        "createdAt": _iso(store, ws.created_at),
        "updatedAt": _iso(store, max(ws.updated_at, ws.created_at)),
    }
    if items:
        body["items"] = [item(store, i, now) for i in ws.items]
    return body


def search(store: WebsetsStore, s: SearchRec, now: float) -> dict[str, Any]:

    status = timing.search_status(s, now)
    shown = timing.visible_plan(s, now)
    found = sum(c.accepted for c in shown)
    total_pass = {
        c: sum(c2.evaluations[i]["satisfied"] == "yes" for c2 in shown) for i, c in enumerate(s.criteria)
    }
    time_left = None
    if status in ("created", "running"):
        time_left = round(max(0.0, s.done_at - now) / store.ctx.clock.speed, 3)

    return _ext({
        "id": s.id,
        "object": "webset_search",
        "status": status,
        "websetId": s.webset_id,
        "query": s.query,
        "entity": s.entity,
        "criteria": [
            {"description": c, "successRate": round(100 * total_pass[c] / len(shown), 2) if shown else 0}
            for c in s.criteria
        ],
        "count": s.count,
        "behavior": s.behavior,
        "exclude": s.exclude,
        "scope": s.scope,
        "progress": {
            "found": found,
            "analyzed": sum(1 + c.screened for c in shown),
            "completion": 100 if status == "completed" else round(min(100.0, 100 * found / s.count), 2),
            "timeLeft": time_left,
        },
        "recall": recall(s, found, status),
        "metadata": s.metadata,
        "canceledAt": _iso(store, s.canceled_at),
        "canceledReason": s.canceled_reason,
        "createdAt": _iso(store, s.created_at),
        "updatedAt": _iso(store, max(s.updated_at, min(now, timing.search_end(s)))),
    }, s.external_id)  # fmt: skip


def recall(s: SearchRec, found: int, status: str) -> dict[str, Any] | None:
    """The search's recall estimate: when asked for (`recall: true`), and also when the simulated
    world can't answer the search (a criterion it can only guess, or nothing found at all), so that
    the search says so (docs/simulator.md)."""
    guessed = [c for c in s.criteria if judge.guessed(c)]
    empty = status == "completed" and found == 0
    if not (s.recall or guessed or empty):
        return None
    expected = max(found, len(s.plan) and sum(c.accepted for c in s.plan) * 3)
    reasoning = f"About {expected} pages in the index match {s.query!r}"
    if guessed:
        reasoning += (
            f". The simulated world holds no facts for {', '.join(map(repr, guessed))} (it knows "
            f"{judge.KNOWN}: docs/simulator.md), so verdicts on them are seeded guesses"
        )
    if empty:
        reasoning += ". No page of the simulated world met every criterion"
    return {
        "expected": {
            "total": expected,
            "confidence": "medium",
            "bounds": {"min": found, "max": expected * 2},
        },
        "reasoning": reasoning,
    }


def item(store: WebsetsStore, i: ItemRec, now: float) -> dict[str, Any]:

    world = store.ctx.world
    results = []
    updated = i.created_at
    ws = store.websets[i.webset_id]
    for enr_id in ws.enrichment_ids:
        enr = store.enrichments[enr_id]
        status = timing.result_status(store, i, enr, now)
        value = (
            judge.enrich(world, i.entity, enr.description, enr.format, enr.options)
            if status == "completed"
            else None
        )
        if status == "completed":
            updated = max(updated, timing.ready_at(store, i.created_at, enr))
        results.append({
            "object": "enrichment_result",
            "status": status,
            "format": enr.format,
            "result": value,
            "reasoning": judge.enrichment_reasoning(i.entity, value) if status == "completed" else None,
            "references": [judge.reference(i.entity)] if value is not None else [],
            "enrichmentId": enr.id,
        })  # fmt: skip
    return {
        "id": i.id,
        "object": "webset_item",
        "source": i.source,
        "sourceId": i.source_id,
        "websetId": i.webset_id,
        "properties": judge.properties(i.entity, i.entity_type, i.description),
        "evaluations": i.evaluations,
        "enrichments": results,
        "createdAt": _iso(store, i.created_at),
        "updatedAt": _iso(store, updated),
    }


def enrichment(store: WebsetsStore, e: EnrichmentRec, now: float) -> dict[str, Any]:
    return _ext({
        "id": e.id,
        "object": "webset_enrichment",
        "status": timing.enrichment_status(store, e, now),
        "websetId": e.webset_id,
        "title": e.title,
        "description": e.description,
        "format": e.format,
        "options": e.options,
        "instructions": None,
        "metadata": e.metadata,
        "createdAt": _iso(store, e.created_at),
        "updatedAt": _iso(store, max(e.updated_at, e.created_at)),
    }, e.external_id)  # fmt: skip


def import_(store: WebsetsStore, imp: ImportRec, now: float) -> dict[str, Any]:

    status = timing.import_status(imp, now)
    updated = imp.done_at if status == "completed" and imp.done_at is not None else imp.uploaded_at
    return _ext({
        "id": imp.id,
        "object": "import",
        "status": status,
        "format": imp.format,
        "entity": imp.entity,
        "title": imp.title,
        "count": len(imp.rows) if imp.rows else imp.count,
        "metadata": imp.metadata,
        "failedReason": imp.failed_reason,
        "failedAt": _iso(store, imp.uploaded_at) if imp.failed_reason else None,
        "failedMessage": imp.failed_message,
        "createdAt": _iso(store, imp.created_at),
        "updatedAt": _iso(store, max(updated or 0.0, imp.updated_at, imp.created_at)),
    }, imp.external_id)  # fmt: skip


def run(store: WebsetsStore, r: RunRec, now: float) -> dict[str, Any]:

    status = timing.run_status(store, r, now)
    end = None
    if r.search_id is not None:
        end = timing.search_end(store.searches[r.search_id])
    return {
        "id": r.id,
        "object": "monitor_run",
        "status": status,
        "monitorId": r.monitor_id,
        "type": r.type,
        "completedAt": _iso(store, end) if status == "completed" else None,
        "failedAt": None,
        "failedReason": None,
        "canceledAt": _iso(store, r.canceled_at) if status == "canceled" else None,
        "createdAt": _iso(store, r.created_at),
        "updatedAt": _iso(store, min(now, end) if end is not None else r.created_at),
    }


def monitor(store: WebsetsStore, m: MonitorRec, now: float) -> dict[str, Any]:
    last = store.runs[m.run_ids[-1]] if m.run_ids else None
    return _ext({
        "id": m.id,
        "object": "monitor",
        "status": m.status,
        "websetId": m.webset_id,
        "cadence": m.cadence,
        "behavior": m.behavior,
        "lastRun": run(store, last, now) if last else None,
        "nextRunAt": _iso(store, m.next_run_at) if m.status == "enabled" else None,
        "metadata": m.metadata,
        "createdAt": _iso(store, m.created_at),
        "updatedAt": _iso(store, max(m.updated_at, m.created_at)),
    }, m.external_id)  # fmt: skip


def webhook(store: WebsetsStore, h: WebhookRec, *, with_secret: bool = False) -> dict[str, Any]:
    return _ext({
        "id": h.id,
        "object": "webhook",
        "status": h.status,
        "events": h.events,
        "url": h.url,
        "secret": h.secret if with_secret else None,
        "metadata": h.metadata,
        "createdAt": _iso(store, h.created_at),
        "updatedAt": _iso(store, max(h.updated_at, h.created_at)),
    }, h.external_id)  # fmt: skip


def event(store: WebsetsStore, e: EventRec) -> dict[str, Any]:
    return {"id": e.id, "object": "event", "type": e.type, "data": e.data, "createdAt": _iso(store, e.at)}


def attempt(store: WebsetsStore, h: WebhookRec, e: EventRec) -> dict[str, Any]:
    """An attempt record, as for a URL the simulator does not send to (see `delivery`)."""
    return {
        "id": store.new_id("wattempt"),
        "object": "webhook_attempt",
        "eventId": e.id,
        "eventType": e.type,
        "webhookId": h.id,
        "url": h.url,
        "successful": False,
        "responseHeaders": {},
        "responseBody": "not delivered: the Exa simulator sends webhooks to loopback URLs only",
        "responseStatusCode": 0,
        "attempt": 1,
        "attemptedAt": _iso(store, e.at),
    }


def next_cron(cadence: dict[str, Any], after: float) -> float:
    """The next simulated second after `after` at which a 5-field cron fires (at most daily).

    Minute and hour fields are honoured when they are plain numbers ("0 9 * * *"); any other field
    means "every day" (Exa fires monitors at most once a day).
    """
    from exa_orch.sim.context import SimClock

    fields = str(cadence.get("cron", "0 0 * * *")).split()
    minute = int(fields[0]) if fields[0].isdigit() else 0
    hour = int(fields[1]) if fields[1].isdigit() else 0
    tz = zoneinfo.ZoneInfo(str(cadence.get("timezone") or "Etc/UTC"))
    moment = (SimClock.EPOCH + timedelta(seconds=after)).astimezone(tz)
    candidate = moment.replace(hour=hour % 24, minute=minute % 60, second=0, microsecond=0)
    if candidate <= moment:
        candidate += timedelta(days=1)
    return (
        (candidate - SimClock.EPOCH.astimezone(tz)).total_seconds()
        if isinstance(candidate, datetime)
        else after
    )
