"""items.*: list, get, delete, getAll (a webset's items)."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from exa_orch.operations import projections as pj

from ._http import WEBSETS, Rest, request, rest_op, segment
from ._paging import GetAll, collect, project_all
from .context import OpContext
from .models import Args, Id
from .registry import Operation

FILTER_NOTE = (
    "{omitted} item(s) without every criterion satisfied were left out because onlySatisfied is true; "
    "call again with onlySatisfied: false to include them"
)


class ListItems(Args):
    webset_id: Id
    """webset id or externalId"""
    cursor: str | None = None
    limit: int | None = Field(default=None, ge=1, le=100)
    source_id: str | None = None
    """only items from this search or import"""
    only_satisfied: bool = False
    """leave out items that do not satisfy every criterion (the result says how many were left out)"""
    fields: list[pj.ItemField] | None = Field(default=None, exclude=True)
    """what each item carries (default name, url, criteria, enrichments); ['all'] for everything"""


class ItemRef(Args):
    webset_id: Id
    item_id: Id


class GetAllItems(GetAll):
    webset_id: Id
    source_id: str | None = None
    only_satisfied: bool = False
    """leave out items that do not satisfy every criterion (the result says how many were left out)"""
    fields: list[pj.ItemField] | None = Field(default=None, exclude=True)
    """what each item carries (default name, url, criteria, enrichments); ['all'] for everything"""


def keep_satisfied(result: dict[str, Any], only_satisfied: bool) -> dict[str, Any]:
    """The result with unsatisfied items left out when asked, saying how many and how to get them."""
    if not only_satisfied:
        return result
    data = result.get("data") or []
    kept = [x for x in data if pj.all_satisfied(x)]
    omitted = len(data) - len(kept)
    out = {**result, "data": kept}
    if "count" in result:
        out["count"] = len(kept)
    if omitted:
        out["omitted"] = omitted
        out["omittedNote"] = FILTER_NOTE.format(omitted=omitted)
    return out


P = f"{WEBSETS}/websets/{{webset_id}}/items"
_LIST = Rest("GET", P)


def plan_list(args: ListItems) -> dict[str, Any]:
    """The Exa request of items.list: onlySatisfied is our filter, not Exa's."""
    req = _LIST.plan(args)
    query = req.get("query", {})
    query.pop("onlySatisfied", None)
    if not query:
        req.pop("query", None)
    return req


async def list_items(args: ListItems, ctx: OpContext) -> dict[str, Any]:
    req = plan_list(args)
    # The filter applies to raw results too: it is part of what was asked.
    return keep_satisfied(await request(ctx, "GET", req["path"], query=req.get("query")), args.only_satisfied)


@pj.shaped(pj.page_schema(pj.COMPACT_ITEM, "omitted", "omittedNote"))
def _project_list(result: dict[str, Any], args: ListItems) -> dict[str, Any]:
    note: dict[str, Any] = {k: result[k] for k in ("omitted", "omittedNote") if k in result}
    return {**pj.page(result, lambda x: pj.compact_item(pj.item(x), args.fields)), **note}


async def get_all(args: GetAllItems, ctx: OpContext) -> dict[str, Any]:
    path = P.format(webset_id=segment(args.webset_id, "websetId"))
    out = await collect(ctx, path, args, {"sourceId": args.source_id}, max_page=100)
    return keep_satisfied(out, args.only_satisfied)


def _project_all(result: dict[str, Any], args: GetAllItems) -> dict[str, Any]:
    out: dict[str, Any] = project_all(lambda x: pj.compact_item(pj.item(x), args.fields))(result, args)
    return out


OPERATIONS: list[Operation] = [
    Operation("items.list", ListItems, list_items, "List a webset's items, one page, compact (name, url, criteria "
              "verdicts, enrichment values; fields for more).", project=_project_list, plan=plan_list, read_only=True),
    rest_op("items.get", ItemRef, "GET", P + "/{item_id}", "Get one item.", project=pj.one(pj.item)),
    rest_op("items.delete", ItemRef, "DELETE", P + "/{item_id}", "Delete one item.", project=pj.one(pj.item)),
    Operation("items.getAll", GetAllItems, get_all, "Every item of a webset, compact (fields for more), following "
              "cursors up to maxItems (says truncated).", project=_project_all, read_only=True),
]  # fmt: skip
