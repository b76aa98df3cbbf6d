"""Routes: webset enrichments create, get, update (PATCH), delete and cancel.

Contract: an enrichment fills one result per item (by format: text, date, number, options, email,
phone, url; `options` 1..150 and required for format "options") as simulated time passes, items
found later included; it is "pending" until the webset's searches are done and every item has its
result, then "completed". Cancel leaves results already produced and marks the rest "canceled";
delete removes the enrichment and its results from every item.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from exa_orch.sim.websets import engine, http, timing, views
from exa_orch.sim.websets.store import EnrichmentRec, WebsetRec, WebsetsStore

P = "/websets/v0/websets/{webset}/enrichments"


def new_enrichment(
    st: WebsetsStore, ws: WebsetRec, args: dict[str, Any], external_id: str | None, now: float
) -> EnrichmentRec:
    """Create an enrichment on `ws`; the webset runs until every item has its result."""
    enr = EnrichmentRec(
        id=st.new_id("wenrich"), webset_id=ws.id, description=args["description"], format=args["format"],
        options=args.get("options"), metadata=args.get("metadata") or {}, created_at=now,
        title=args.get("title"), external_id=external_id, updated_at=now,
    )  # fmt: skip
    st.enrichments[enr.id] = enr
    st.register("enrichment", enr.id, external_id)
    ws.enrichment_ids.append(enr.id)
    ws.busy, ws.updated_at = True, now
    return enr


async def create(request: Request) -> JSONResponse:
    st, now = http.begin(request)
    ws = st.webset(request.path_params["webset"])
    body = await http.body(request)
    http.refuse_external_id(body, "enrichment")
    args = http.enrichment_fields(body, "")
    enr = new_enrichment(st, ws, args, None, now)
    http.created(request, "enrichment", enr)
    return http.json(views.enrichment(st, enr, now))


async def get(request: Request) -> JSONResponse:
    st, now = http.begin(request)
    ws = st.webset(request.path_params["webset"])
    return http.json(views.enrichment(st, st.child("enrichment", ws, request.path_params["id"]), now))


async def update(request: Request) -> JSONResponse:
    st, now = http.begin(request)
    ws = st.webset(request.path_params["webset"])
    enr: EnrichmentRec = st.child("enrichment", ws, request.path_params["id"])
    changes = http.enrichment_fields(await http.body(request), "", partial=True)
    fmt = changes.get("format", enr.format)
    options = changes.get("options", enr.options if fmt == "options" else None)
    if fmt == "options" and not options:
        raise http.bad("options is required when format is 'options' (1 to 150 {label} objects)")
    enr.format, enr.options = fmt, options
    enr.description = changes.get("description", enr.description)
    enr.metadata = changes.get("metadata", enr.metadata)
    enr.title = changes.get("title", enr.title)
    enr.updated_at = now
    return http.json(views.enrichment(st, enr, now))


async def delete(request: Request) -> JSONResponse:
    st, now = http.begin(request)
    ws = st.webset(request.path_params["webset"])
    enr: EnrichmentRec = st.child("enrichment", ws, request.path_params["id"])
    body = views.enrichment(st, enr, now)
    ws.enrichment_ids.remove(enr.id)
    del st.enrichments[enr.id]
    st.release("enrichment", enr.external_id)
    ws.updated_at = now
    engine.advance(st)
    return http.json(body)


async def cancel(request: Request) -> JSONResponse:
    st, now = http.begin(request)
    ws = st.webset(request.path_params["webset"])
    enr: EnrichmentRec = st.child("enrichment", ws, request.path_params["id"])
    if enr.canceled_at is None and timing.enrichment_status(st, enr, now) == "pending":
        enr.canceled_at, enr.updated_at = now, now
        engine.advance(st)
    return http.json(views.enrichment(st, enr, now))


def routes() -> list[Route]:
    return [
        Route(P, create, methods=["POST"]),
        Route(f"{P}/{{id}}", get, methods=["GET"]),
        Route(f"{P}/{{id}}", update, methods=["PATCH"]),
        Route(f"{P}/{{id}}", delete, methods=["DELETE"]),
        Route(f"{P}/{{id}}/cancel", cancel, methods=["POST"]),
    ]
