"""websets.*: create, get, list, update, delete, cancel, preview, waitUntilIdle, getAll."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from exa_orch.errors import WebsetNotRunning
from exa_orch.exa.polling import poll_until
from exa_orch.exa.statuses import WEBSET_ON_THEIR_WAY
from exa_orch.operations import projections as pj

from ._creates import create_op, find_webset
from ._http import WEBSETS, request, rest_op, segment
from ._paging import GetAll, collect, project_all
from .context import OpContext
from .models import Args, Id, Page
from .registry import Operation
from .shapes import EnrichmentSpec, Entity, Metadata, SearchSpec, SourceRef


class CreateWebset(Args):
    search: SearchSpec | None = None
    """the first search: query, count, entity, criteria ..."""
    import_: list[SourceRef] | None = Field(default=None, alias="import")
    """imports or websets to start from"""
    enrichments: list[EnrichmentSpec] | None = None
    exclude: list[SourceRef] | None = None
    external_id: str | None = Field(default=None, max_length=300)
    """your own id; a second webset with the same one is refused (409)"""
    metadata: Metadata | None = None


class WebsetId(Args):
    id: Id
    """webset id or externalId"""


class GetWebset(WebsetId):
    expand: list[Literal["items"]] | None = None
    """['items'] to include the latest items"""
    fields: list[pj.ItemField] | None = Field(default=None, exclude=True)
    """what each expanded item carries (default name, url, criteria, enrichments; ['all'] for everything)"""


class UpdateWebset(WebsetId):
    metadata: Metadata | None = None
    """key-value pairs to set on the webset (the spec also allows null)"""


class PreviewSearch(Args):
    query: str = Field(min_length=1, max_length=5000)
    entity: Entity | None = None
    count: int | None = Field(default=None, ge=1, le=10)


class PreviewWebset(Args):
    search: PreviewSearch


class WaitUntilIdle(WebsetId):
    timeout: float = Field(default=300.0, gt=0, le=3600)
    """seconds to wait at most; the result says timedOut when the webset is still busy"""
    poll_interval: float = Field(default=2.0, ge=0.05, le=60)
    """seconds between checks"""


class GetAllWebsets(GetAll):
    pass


class ListWebsets(Page):
    limit: int | None = Field(default=None, ge=1, le=100)


def search_progress(webset: dict[str, Any]) -> tuple[float, float | None, str]:
    """(found, wanted, message) summed over the webset's searches."""
    found = wanted = 0.0
    for s in webset.get("searches") or []:
        found += float((s.get("progress") or {}).get("found") or 0)
        wanted += float(s.get("count") or 0)
    status = webset.get("status", "?")
    msg = f"webset {status}: {int(found)}" + (f"/{int(wanted)} items found" if wanted else " items found")
    return found, (wanted or None), msg


def becomes_idle(webset: dict[str, Any]) -> bool:
    """Whether the webset is idle or will be without anyone acting (`WEBSET_ON_THEIR_WAY`: a
    paused webset waits for someone to act, so a wait on it ends at once, saying so)."""
    return str(webset.get("status", "running")) in WEBSET_ON_THEIR_WAY


async def wait_until_idle(args: WaitUntilIdle, ctx: OpContext) -> dict[str, Any]:
    """Poll the webset until it is idle or `timeout` passes, reporting search progress."""

    async def fetch() -> dict[str, Any]:
        webset: dict[str, Any] = await request(ctx, "GET", f"{WEBSETS}/websets/{segment(args.id)}")
        return webset

    async def report(webset: dict[str, Any], polls: int) -> None:
        await ctx.progress(*search_progress(webset))

    polled = await poll_until(
        fetch,
        done=lambda webset: webset.get("status") == "idle" or not becomes_idle(webset),
        report=report,
        within=args.timeout,
        interval=args.poll_interval,
    )
    if not becomes_idle(polled.last):
        raise WebsetNotRunning(str(polled.last.get("id") or args.id), str(polled.last.get("status")))
    return {
        "webset": polled.last,
        "timedOut": not polled.done,
        "waitedSeconds": polled.waited,
        "polls": polled.polls,
    }


@pj.shaped(
    pj.schema(
        ("webset", "timedOut", "waitedSeconds", "polls"),
        ("timedOutNote",),
        webset=pj.WEBSET,
        timedOut={"type": "boolean"},
    )
)
def _project_wait(result: dict[str, Any], args: WaitUntilIdle) -> dict[str, Any]:
    out = {**result, "webset": pj.webset(result["webset"])}
    if result["timedOut"]:
        out["timedOutNote"] = (
            f"still {result['webset'].get('status')} after {args.timeout}s: call again to keep waiting"
        )
    return out


async def get_all(args: GetAllWebsets, ctx: OpContext) -> dict[str, Any]:
    return await collect(ctx, f"{WEBSETS}/websets", args, max_page=100)


P = f"{WEBSETS}/websets"
OPERATIONS: list[Operation] = [
    create_op("websets.create", CreateWebset, P, "Create a webset, optionally with a first search, imports "
              "and enrichments. Without an externalId exa-orch gives it one (in the answer), so a create whose "
              "answer was lost is found again, never made twice.", project=pj.one(pj.webset),
              find=lambda ctx, args, key: find_webset(ctx, key), by_external_id=True, found_with="websets.get"),
    rest_op("websets.get", GetWebset, "GET", P + "/{id}", "Get a webset (expand=['items'] adds its latest items, "
            "compact unless fields asks for more).", project=pj.shaped(pj.WEBSET)(lambda result, args: pj.webset(result, args.fields))),
    rest_op("websets.list", ListWebsets, "GET", P, "List websets, one page (cursor, limit <= 100).",
            project=pj.paged(pj.webset)),
    rest_op("websets.update", UpdateWebset, "POST", P + "/{id}", "Replace a webset's metadata.",
            project=pj.one(pj.webset)),
    rest_op("websets.delete", WebsetId, "DELETE", P + "/{id}", "Delete a webset and its items.",
            project=pj.one(pj.webset)),
    rest_op("websets.cancel", WebsetId, "POST", P + "/{id}/cancel", "Cancel a webset's running searches "
            "and enrichments.", project=pj.one(pj.webset)),
    rest_op("websets.preview", PreviewWebset, "POST", P + "/preview", "Preview how a query splits into "
            "entity and criteria, without creating anything.", project=pj.one(pj.preview)),
    Operation("websets.waitUntilIdle", WaitUntilIdle, wait_until_idle, "Wait (bounded by timeout) until a webset "
              "is idle, with progress; returns the webset and timedOut.", long_running=True, project=_project_wait),
    Operation("websets.getAll", GetAllWebsets, get_all, "Every webset, following cursors up to maxItems "
              "(says truncated).", project=project_all(pj.webset), read_only=True),
]  # fmt: skip
