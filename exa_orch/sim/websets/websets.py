"""Routes: websets create, list, get (expand=items), update, delete, cancel and preview.

Contract (spec operations websets-*): create answers 201 with the Webset (its search, enrichments
and imports started), 409 when the externalId is taken; preview answers 422 when the query can't
be split into an entity and criteria; delete cancels running searches (`webset_deleted`) and
frees the externalId; cancel stops searches (`webset_canceled`) and pending enrichments.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from exa_orch.sim.websets import engine, http, judge, timing, views
from exa_orch.sim.websets.enrichments import new_enrichment
from exa_orch.sim.websets.searches import new_search, search_fields
from exa_orch.sim.websets.store import WebsetRec, WebsetsStore, fail, paginate

P = "/websets/v0/websets"


async def create(request: Request) -> JSONResponse:
    st, now = http.begin(request)
    body = await http.body(request)
    search = body.get("search")
    if search is not None and not isinstance(search, dict):
        raise http.bad("search must be an object {query, count, entity, criteria, ...}")
    search_args = search_fields(st, search, "search.", count_default=10) if search is not None else None
    enrichments = body.get("enrichments") or []
    if not isinstance(enrichments, list):
        raise http.bad("enrichments must be a list of enrichment objects")
    enrichment_args = [http.enrichment_fields(e if isinstance(e, dict) else {}, f"enrichments[{n}].")
                       for n, e in enumerate(enrichments)]  # fmt: skip
    imports = http.sources(body, "import", "import")
    excludes = http.sources(body, "exclude", "exclude")
    for src in imports + excludes:  # 404 now rather than half-creating the webset
        st.resolve(src["source"], src["id"])
    title = body.get("title")
    if title is not None and not isinstance(title, str):
        raise http.bad("title must be a string")
    external_id = http.claim(request, st, "webset", body.get("externalId"))
    ws = WebsetRec(id=st.new_id("webset"), title=title, metadata=http.metadata(body) or {}, created_at=now,
                   external_id=external_id, updated_at=now, excludes=excludes)  # fmt: skip
    st.websets[ws.id] = ws
    st.register("webset", ws.id, external_id)
    engine.emit(st, "webset.created", now, views.webset(st, ws, now))
    for src in imports:
        imp = st.resolve(src["source"], src["id"])
        if src["source"] == "import":
            ws.imports.append((imp.id, now))
            ws.busy = True
    if search_args is not None:
        new_search(st, ws, search_args, now)
    for args in enrichment_args:
        new_enrichment(st, ws, args, None, now)
    http.created(request, "webset", ws)
    return http.json(views.webset(st, ws, now), 201)


async def list_(request: Request) -> JSONResponse:
    st, now = http.begin(request)
    rows = [w for w in reversed(st.websets.values()) if not w.deleted]
    page, more, cursor = paginate(rows, dict(request.query_params), default=25, maximum=100)
    return http.json(
        {"data": [views.webset(st, w, now) for w in page], "hasMore": more, "nextCursor": cursor}
    )


async def get(request: Request) -> JSONResponse:
    st, now = http.begin(request)
    ws = st.webset(request.path_params["id"])
    expand = request.query_params.getlist("expand")
    if any(e not in ("items",) for e in expand):
        raise http.bad(f"expand must be 'items'; got {expand!r}")
    return http.json(views.webset(st, ws, now, items="items" in expand))


async def update(request: Request) -> JSONResponse:
    st, now = http.begin(request)
    ws = st.webset(request.path_params["id"])
    body = await http.body(request)
    if "metadata" in body:
        ws.metadata = http.metadata(body) or {}
    if body.get("title") is not None:
        ws.title = str(body["title"])
    ws.updated_at = now
    return http.json(views.webset(st, ws, now))


async def delete(request: Request) -> JSONResponse:
    st, now = http.begin(request)
    ws = st.webset(request.path_params["id"])
    _stop(st, ws, now, "webset_deleted")
    ws.deleted, ws.updated_at, ws.busy = True, now, False
    st.release("webset", ws.external_id)
    body = views.webset(st, ws, now)
    engine.emit(st, "webset.deleted", now, body)
    return http.json(body)


async def cancel(request: Request) -> JSONResponse:
    st, now = http.begin(request)
    ws = st.webset(request.path_params["id"])
    _stop(st, ws, now, "webset_canceled")
    engine.advance(st)  # the webset goes idle at once; send webset.idle now
    return http.json(views.webset(st, ws, now))


def _stop(st: WebsetsStore, ws: WebsetRec, now: float, reason: str) -> None:
    for sid in ws.search_ids:
        search = st.searches[sid]
        if timing.search_status(search, now) in ("created", "running"):
            search.canceled_at, search.canceled_reason, search.updated_at = now, reason, now
            engine.emit(st, "webset.search.canceled", now, views.search(st, search, now))
    for eid in ws.enrichment_ids:
        enr = st.enrichments[eid]
        if timing.enrichment_status(st, enr, now) == "pending":
            enr.canceled_at, enr.updated_at = now, now
    ws.updated_at = now


async def preview(request: Request) -> JSONResponse:
    st, now = http.begin(request)
    body = await http.body(request)
    search = body.get("search")
    if not isinstance(search, dict):
        raise http.bad("search is required: an object {query, entity?, count?}")
    query = str(http.string(search, "query", "search.query"))
    entity = http.entity(search, "search.entity")
    count = http.number(search, "count", "search.count", hi=10, default=10)
    split = judge.decompose(st.ctx.world, query, entity)
    if split is None:
        fail(422, f"Could not detect an entity and criteria in the query {query!r}: describe what to find "
             "(e.g. 'AI startups in Europe with more than 50 employees')", "UNPROCESSABLE_QUERY")  # fmt: skip
    ent, criteria = split
    enrichments = _suggested_enrichments(ent["type"])
    items: list[dict[str, Any]] = []
    if request.query_params.get("search", "false").lower() == "true":
        found = st.ctx.world.search(query, judge.entity_kind(ent["type"]), limit=int(count))
        items = [
            {
                "id": st.derived_id("witem_preview", query, e.id),
                "properties": judge.properties(e, e.kind, f"{e.title}: {e.text.split('. ')[0]}."),
                "createdAt": st.ctx.clock.iso(now),
            }
            for e in found
        ]
    return http.json({"search": {"entity": ent, "criteria": [{"description": c} for c in criteria]},
                      "enrichments": enrichments, "items": items})  # fmt: skip


def _suggested_enrichments(entity_type: str) -> list[dict[str, Any]]:
    if entity_type == "company":
        return [{"description": "Number of employees", "format": "number"},
                {"description": "Contact email of the company", "format": "email"},
                {"description": "Industry", "format": "options",
                 "options": [{"label": "Software"}, {"label": "Hardware"}, {"label": "Services"}]}]  # fmt: skip
    if entity_type == "person":
        return [
            {"description": "Current company", "format": "text"},
            {"description": "Email", "format": "email"},
        ]
    return [
        {"description": "Publication date", "format": "date"},
        {"description": "One-line summary", "format": "text"},
    ]


def routes() -> list[Route]:
    return [
        Route(f"{P}/preview", preview, methods=["POST"]),
        Route(P, create, methods=["POST"]),
        Route(P, list_, methods=["GET"]),
        Route(f"{P}/{{id}}", get, methods=["GET"]),
        Route(f"{P}/{{id}}", update, methods=["POST"]),
        Route(f"{P}/{{id}}", delete, methods=["DELETE"]),
        Route(f"{P}/{{id}}/cancel", cancel, methods=["POST"]),
    ]
