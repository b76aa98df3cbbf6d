"""monitors.*: create, get, list, update, delete, runs.list, runs.get, getAll."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from exa_orch.operations import projections as pj

from ._creates import create_op, find_in_list
from ._http import WEBSETS, rest_op
from ._paging import GetAll, collect, project_all
from .context import OpContext
from .models import Args, Id, Page
from .registry import Operation
from .shapes import Cadence, Metadata, MonitorBehavior


class CreateMonitor(Args):
    webset_id: Id
    cadence: Cadence
    """{cron: 5-field Unix cron (at most daily), timezone?}"""
    behavior: MonitorBehavior
    """{type: 'search', config: {count, query?, criteria?, entity?, behavior?}}"""
    metadata: Metadata | None = None


class MonitorId(Args):
    id: Id
    """monitor id"""


class ListMonitors(Page):
    webset_id: str | None = None
    """only the monitors of this webset"""


class UpdateMonitor(MonitorId):
    status: Literal["enabled", "disabled"] | None = None
    cadence: Cadence | None = None
    behavior: MonitorBehavior | None = None
    metadata: Metadata | None = None


class MonitorRef(Args):
    monitor_id: Id


class RunRef(MonitorRef):
    run_id: Id


class GetAllMonitors(GetAll):
    webset_id: str | None = Field(default=None)
    """only the monitors of this webset"""


async def get_all(args: GetAllMonitors, ctx: OpContext) -> dict[str, Any]:
    return await collect(ctx, f"{WEBSETS}/monitors", args, {"websetId": args.webset_id})


P = f"{WEBSETS}/monitors"
OPERATIONS: list[Operation] = [
    create_op("monitors.create", CreateMonitor, P, "Create a monitor that re-runs a webset search on a "
              "cron cadence (5 fields, at most daily).", project=pj.one(pj.monitor),
              find=lambda ctx, args, key: find_in_list(ctx, P, key, {"websetId": args.webset_id})),
    rest_op("monitors.get", MonitorId, "GET", P + "/{id}", "Get a monitor with its last run.",
            project=pj.one(pj.monitor)),
    rest_op("monitors.list", ListMonitors, "GET", P, "List monitors, one page (websetId filters).",
            project=pj.paged(pj.monitor)),
    rest_op("monitors.update", UpdateMonitor, "PATCH", P + "/{id}", "Enable/disable a monitor or change its "
            "cadence, behavior or metadata.", project=pj.one(pj.monitor)),
    rest_op("monitors.delete", MonitorId, "DELETE", P + "/{id}", "Delete a monitor.", project=pj.one(pj.monitor)),
    rest_op("monitors.runs.list", MonitorRef, "GET", P + "/{monitor_id}/runs", "List a monitor's runs.",
            project=pj.paged(pj.monitor_run)),
    rest_op("monitors.runs.get", RunRef, "GET", P + "/{monitor_id}/runs/{run_id}", "Get one monitor run.",
            project=pj.one(pj.monitor_run)),
    Operation("monitors.getAll", GetAllMonitors, get_all, "Every monitor, following cursors up to maxItems "
              "(says truncated).", project=project_all(pj.monitor), read_only=True),
]  # fmt: skip
