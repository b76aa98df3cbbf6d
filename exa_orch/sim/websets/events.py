"""Routes: events list (types, createdBefore, createdAfter, cursor, limit <= 200) and get.

Contract: events are listed newest first; each carries a snapshot of its object (`data`) taken when
it happened. Filters compare `createdAt` with ISO-8601 timestamps.
"""

from __future__ import annotations

import math
from datetime import datetime

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from exa_orch.sim.context import SimClock
from exa_orch.sim.websets import http, views
from exa_orch.sim.websets.store import EVENT_TYPES, not_found, paginate

P = "/websets/v0/events"


def _when(raw: str, name: str) -> int:
    try:
        moment = datetime.fromisoformat(raw.replace("Z", "+00:00"))
    except ValueError:
        raise http.bad(
            f"{name} must be an ISO-8601 date-time such as 2026-01-01T00:00:00Z; got {raw!r}"
        ) from None
    if moment.tzinfo is None:
        raise http.bad(f"{name} must carry a time zone (end it with Z)")
    return _ms((moment - SimClock.EPOCH).total_seconds())


def _ms(at: float) -> int:
    """Whole milliseconds, the resolution of the createdAt strings the filters are compared with."""
    return math.floor(at * 1000 + 1e-6)


async def list_(request: Request) -> JSONResponse:
    st, _ = http.begin(request)
    q = request.query_params
    types = [t for raw in q.getlist("types") for t in raw.split(",") if t]
    for t in types:
        if t not in EVENT_TYPES:
            raise http.bad(f"types must be event types ({', '.join(EVENT_TYPES)}); got {t!r}")
    rows = sorted(st.events, key=lambda e: e.at, reverse=True)
    if types:
        rows = [e for e in rows if e.type in types]
    if q.get("createdBefore"):
        before = _when(q["createdBefore"], "createdBefore")
        rows = [e for e in rows if _ms(e.at) < before]
    if q.get("createdAfter"):
        after = _when(q["createdAfter"], "createdAfter")
        rows = [e for e in rows if _ms(e.at) > after]
    page, more, cursor = paginate(rows, dict(q), default=25, maximum=200)
    return http.json({"data": [views.event(st, e) for e in page], "hasMore": more, "nextCursor": cursor})


async def get(request: Request) -> JSONResponse:
    st, _ = http.begin(request)
    event = st.events_by_id.get(request.path_params["id"])
    if event is None:
        not_found("event", request.path_params["id"])
    return http.json(views.event(st, event))


def routes() -> list[Route]:
    return [Route(P, list_, methods=["GET"]), Route(f"{P}/{{id}}", get, methods=["GET"])]
