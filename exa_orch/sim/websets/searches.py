"""Routes: webset searches create, get and cancel (plus the search planning shared with websets.create).

Contract: a search is created -> running -> completed over simulated time (engine); at most 5
criteria (400 beyond); without criteria the query is decomposed the way preview shows it;
cancel sets `canceledAt` and `canceledReason` ("webset_canceled") and keeps the items found so far.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from exa_orch.sim.websets import engine, http, judge, timing, views
from exa_orch.sim.websets.store import SearchRec, WebsetRec, WebsetsStore

P = "/websets/v0/websets/{webset}/searches"


def search_fields(
    st: WebsetsStore, obj: dict[str, Any], path: str, *, count_default: int | None
) -> dict[str, Any]:
    """Validated search parameters (the body of searches.create, or websets.create's `search`)."""
    query = str(http.string(obj, "query", f"{path}query"))
    entity = http.entity(obj, f"{path}entity")
    criteria = http.criteria(obj, f"{path}criteria")
    if criteria is None:
        split = judge.decompose(st.ctx.world, query, entity)
        criteria = split[1] if split else []
        if entity is None and split is not None:
            entity = split[0]
    behavior = obj.get("behavior", "override")
    if behavior not in ("override", "append"):
        raise http.bad(f"{path}behavior must be 'override' or 'append'; got {behavior!r}")
    args = {
        "query": query,
        "count": http.number(obj, "count", f"{path}count", default=count_default),
        "entity": entity,
        "criteria": criteria,
        "behavior": behavior,
        "exclude": http.sources(obj, "exclude", f"{path}exclude"),
        "scope": http.sources(obj, "scope", f"{path}scope", relationship=True),
        "recall": http.boolean(obj, "recall", f"{path}recall"),
        "metadata": http.metadata(obj, f"{path}metadata") or {},
        "externalId": obj.get("externalId"),
    }
    for src in args["exclude"] + args["scope"]:
        st.resolve(src["source"], src["id"])  # 404 for an unknown source before anything is created
    return args


def new_search(
    st: WebsetsStore, ws: WebsetRec, args: dict[str, Any], now: float, external_id: str | None = None
) -> SearchRec:
    """Create, plan and announce a search on `ws`."""
    search = SearchRec(
        id=st.new_id("wsearch"), webset_id=ws.id, query=args["query"], entity=args["entity"],
        criteria=args["criteria"], count=int(args["count"]), behavior=args["behavior"], exclude=args["exclude"],
        scope=args["scope"], recall=args["recall"], metadata=args["metadata"], created_at=now, plan=[], done_at=now,
        external_id=external_id, updated_at=now,
    )  # fmt: skip
    engine.start_search(st, ws, search)
    st.register("search", search.id, external_id)
    return search


async def create(request: Request) -> JSONResponse:
    st, now = http.begin(request)
    ws = st.webset(request.path_params["webset"])
    body = await http.body(request)
    http.refuse_external_id(body, "search")
    args = search_fields(st, body, "", count_default=None)
    search = new_search(st, ws, args, now)
    http.created(request, "search", search)
    return http.json(views.search(st, search, now))


async def get(request: Request) -> JSONResponse:
    st, now = http.begin(request)
    ws = st.webset(request.path_params["webset"])
    search = st.child("search", ws, request.path_params["id"])
    return http.json(views.search(st, search, now))


async def cancel(request: Request) -> JSONResponse:
    st, now = http.begin(request)
    ws = st.webset(request.path_params["webset"])
    search: SearchRec = st.child("search", ws, request.path_params["id"])
    if timing.search_status(search, now) in ("created", "running"):
        search.canceled_at, search.canceled_reason, search.updated_at = now, "webset_canceled", now
        engine.emit(st, "webset.search.canceled", now, views.search(st, search, now))
        engine.advance(st)
    return http.json(views.search(st, search, now))


def routes() -> list[Route]:
    return [
        Route(P, create, methods=["POST"]),
        Route(f"{P}/{{id}}", get, methods=["GET"]),
        Route(f"{P}/{{id}}/cancel", cancel, methods=["POST"]),
    ]
