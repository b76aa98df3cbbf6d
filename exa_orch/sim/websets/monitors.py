"""Routes: monitors create, list (websetId filter), get, update (PATCH), delete; runs list and get.

Contract: cadence.cron has exactly 5 fields, with a fixed minute and hour (Exa runs a monitor at
most once a day) and an IANA timezone (default Etc/UTC); behavior.config.count > 0 and at most 5
criteria. Creating a monitor starts a run at once (a search on its webset, behavior "append" by
default); further runs start when the simulated clock passes `nextRunAt`. A run goes created ->
running -> completed with its search, and sends monitor.run.created / monitor.run.completed.
"""

from __future__ import annotations

import re
import zoneinfo
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from exa_orch.sim.websets import engine, http, views
from exa_orch.sim.websets.store import MonitorRec, WebsetsStore, not_found, paginate

P = "/websets/v0/monitors"
_CRON_FIELD = re.compile(r"^(\*|\d+(-\d+)?)(/\d+)?(,(\*|\d+(-\d+)?)(/\d+)?)*$|^[A-Za-z]{3}(-[A-Za-z]{3})?$")


def cadence_fields(obj: Any, path: str = "cadence") -> dict[str, Any]:
    if not isinstance(obj, dict) or not isinstance(obj.get("cron"), str):
        raise http.bad(f"{path}.cron is required: a 5-field cron expression such as '0 9 * * *'")
    fields = obj["cron"].split()
    if len(fields) != 5 or not all(_CRON_FIELD.match(f) for f in fields):
        raise http.bad(f"{path}.cron must have exactly 5 fields (minute hour day-of-month month day-of-week); "
                       f"got {obj['cron']!r}")  # fmt: skip
    if not (fields[0].isdigit() and int(fields[0]) < 60 and fields[1].isdigit() and int(fields[1]) < 24):
        raise http.bad(
            f"{path}.cron must fire at most once a day: give a fixed minute and hour, e.g. '0 9 * * *'"
        )
    tz = obj.get("timezone") or "Etc/UTC"
    try:
        zoneinfo.ZoneInfo(str(tz))
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        raise http.bad(
            f"{path}.timezone must be an IANA time zone such as 'Europe/Berlin'; got {tz!r}"
        ) from None
    return {"cron": obj["cron"], "timezone": tz}


def behavior_fields(obj: Any, path: str = "behavior") -> dict[str, Any]:
    if not isinstance(obj, dict):
        raise http.bad(
            f"{path} is required: {{type: 'search', config: {{count, query?, criteria?, entity?}}}}"
        )
    if obj.get("type", "search") != "search":
        raise http.bad(f"{path}.type must be 'search'")
    config = obj.get("config")
    if not isinstance(config, dict):
        raise http.bad(f"{path}.config is required: an object with at least count")
    count = config.get("count")
    if isinstance(count, bool) or not isinstance(count, int | float) or count <= 0:
        raise http.bad(f"{path}.config.count is required and must be a number > 0")
    out: dict[str, Any] = {"count": count, "behavior": config.get("behavior", "append")}
    if out["behavior"] not in ("override", "append"):
        raise http.bad(f"{path}.config.behavior must be 'override' or 'append'")
    query = http.string(config, "query", f"{path}.config.query", lo=2, hi=10000, required=False)
    if query is not None:
        out["query"] = query
    criteria = http.criteria(config, f"{path}.config.criteria", lo=0)
    if criteria is not None:
        out["criteria"] = [{"description": c} for c in criteria]
    entity = http.entity(config, f"{path}.config.entity")
    if entity is not None:
        out["entity"] = entity
    return {"type": "search", "config": out}


def _monitor(st: WebsetsStore, key: str) -> MonitorRec:
    rec: MonitorRec = st.resolve("monitor", key)
    return rec


async def create(request: Request) -> JSONResponse:
    st, now = http.begin(request)
    body = await http.body(request)
    http.refuse_external_id(body, "monitor")
    if not isinstance(body.get("websetId"), str):
        raise http.bad("websetId is required: the id or externalId of the webset to monitor")
    ws = st.webset(body["websetId"])
    cadence = cadence_fields(body.get("cadence"))
    behavior = behavior_fields(body.get("behavior"))
    meta = http.metadata(body) or {}
    external_id = None
    monitor = MonitorRec(id=st.new_id("monitor"), webset_id=ws.id, cadence=cadence, behavior=behavior,
                         metadata=meta, created_at=now, next_run_at=views.next_cron(cadence, now),
                         external_id=external_id, updated_at=now)  # fmt: skip
    st.monitors[monitor.id] = monitor
    st.register("monitor", monitor.id, external_id)
    ws.monitor_ids.append(monitor.id)
    engine.emit(st, "monitor.created", now, views.monitor(st, monitor, now))
    engine.trigger_run(st, monitor, now)
    http.created(request, "monitor", monitor)
    return http.json(views.monitor(st, monitor, now), 201)


async def list_(request: Request) -> JSONResponse:
    st, now = http.begin(request)
    rows = list(reversed(st.monitors.values()))
    webset_id = request.query_params.get("websetId")
    if webset_id:
        ws = st.webset(webset_id)
        rows = [m for m in rows if m.webset_id == ws.id]
    page, more, cursor = paginate(rows, dict(request.query_params), default=25, maximum=200)
    return http.json(
        {"data": [views.monitor(st, m, now) for m in page], "hasMore": more, "nextCursor": cursor}
    )


async def get(request: Request) -> JSONResponse:
    st, now = http.begin(request)
    return http.json(views.monitor(st, _monitor(st, request.path_params["id"]), now))


async def update(request: Request) -> JSONResponse:
    st, now = http.begin(request)
    monitor = _monitor(st, request.path_params["id"])
    body = await http.body(request)
    if "status" in body:
        if body["status"] not in ("enabled", "disabled"):
            raise http.bad("status must be 'enabled' or 'disabled'")
        monitor.status = body["status"]
    if body.get("cadence") is not None:
        monitor.cadence = cadence_fields(body["cadence"])
    if body.get("behavior") is not None:
        monitor.behavior = behavior_fields(body["behavior"])
    if "metadata" in body:
        monitor.metadata = http.metadata(body) or {}
    monitor.next_run_at = views.next_cron(monitor.cadence, now)
    monitor.updated_at = now
    data = views.monitor(st, monitor, now)
    engine.emit(st, "monitor.updated", now, data)
    return http.json(data)


async def delete(request: Request) -> JSONResponse:
    st, now = http.begin(request)
    monitor = _monitor(st, request.path_params["id"])
    data = views.monitor(st, monitor, now)
    del st.monitors[monitor.id]
    st.release("monitor", monitor.external_id)
    ws = st.websets[monitor.webset_id]
    if monitor.id in ws.monitor_ids:
        ws.monitor_ids.remove(monitor.id)
    engine.emit(st, "monitor.deleted", now, data)
    return http.json(data)


async def runs_list(request: Request) -> JSONResponse:
    st, now = http.begin(request)
    monitor = _monitor(st, request.path_params["monitor"])
    rows = [st.runs[r] for r in reversed(monitor.run_ids)]
    page, more, cursor = paginate(rows, dict(request.query_params), default=25, maximum=200)
    return http.json({"data": [views.run(st, r, now) for r in page], "hasMore": more, "nextCursor": cursor})


async def runs_get(request: Request) -> JSONResponse:
    st, now = http.begin(request)
    monitor = _monitor(st, request.path_params["monitor"])
    run_id = request.path_params["id"]
    if run_id not in monitor.run_ids:
        not_found("monitor run", run_id)
    return http.json(views.run(st, st.runs[run_id], now))


def routes() -> list[Route]:
    return [
        Route(P, create, methods=["POST"]),
        Route(P, list_, methods=["GET"]),
        Route(f"{P}/{{id}}", get, methods=["GET"]),
        Route(f"{P}/{{id}}", update, methods=["PATCH"]),
        Route(f"{P}/{{id}}", delete, methods=["DELETE"]),
        Route(f"{P}/{{monitor}}/runs", runs_list, methods=["GET"]),
        Route(f"{P}/{{monitor}}/runs/{{id}}", runs_get, methods=["GET"]),
    ]
