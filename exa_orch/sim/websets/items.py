"""Routes: webset items list (cursor, limit <= 100, default 20, sourceId filter), get and delete.

Contract: items are listed in the order they were found; an item's id is derived from its webset
and the entity it stands for, so the same seed and requests give the same ids.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from exa_orch.sim.websets import http, views
from exa_orch.sim.websets.store import ItemRec, WebsetRec, not_found, paginate

P = "/websets/v0/websets/{webset}/items"


def _item(ws: WebsetRec, key: str) -> ItemRec:
    for item in ws.items:
        if item.id == key:
            return item
    not_found("item", key)


async def list_(request: Request) -> JSONResponse:
    st, now = http.begin(request)
    ws = st.webset(request.path_params["webset"])
    rows = ws.items
    source_id = request.query_params.get("sourceId")
    if source_id:
        rows = [i for i in rows if i.source_id == source_id]
    page, more, cursor = paginate(rows, dict(request.query_params), default=20, maximum=100)
    return http.json({"data": [views.item(st, i, now) for i in page], "hasMore": more, "nextCursor": cursor})


async def get(request: Request) -> JSONResponse:
    st, now = http.begin(request)
    ws = st.webset(request.path_params["webset"])
    return http.json(views.item(st, _item(ws, request.path_params["id"]), now))


async def delete(request: Request) -> JSONResponse:
    st, now = http.begin(request)
    ws = st.webset(request.path_params["webset"])
    item = _item(ws, request.path_params["id"])
    body = views.item(st, item, now)
    ws.items.remove(item)
    ws.updated_at = now
    return http.json(body)


def routes() -> list[Route]:
    return [
        Route(P, list_, methods=["GET"]),
        Route(f"{P}/{{id}}", get, methods=["GET"]),
        Route(f"{P}/{{id}}", delete, methods=["DELETE"]),
    ]
