"""searches.*: create, get, cancel (a webset's searches)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from exa_orch.operations import projections as pj

from ._creates import create_op, find_in_webset
from ._http import WEBSETS, rest_op
from .models import Args, Id
from .registry import Operation
from .shapes import SEARCH_COMMON_ISSUES, Criterion, Entity, Metadata, ScopeRef, SourceRef


class CreateSearch(Args):
    webset_id: Id
    """webset id or externalId"""
    query: str = Field(min_length=1, max_length=5000)
    count: int = Field(ge=1)
    """how many items to look for"""
    entity: Entity | None = None
    criteria: list[Criterion] | None = Field(default=None, min_length=1, max_length=5)
    exclude: list[SourceRef] | None = None
    scope: list[ScopeRef] | None = None
    recall: bool | None = None
    behavior: Literal["override", "append"] | None = None
    """override (default) replaces the webset's items; append adds to them"""
    metadata: Metadata | None = None


class SearchRef(Args):
    webset_id: Id
    search_id: Id


P = f"{WEBSETS}/websets/{{webset_id}}/searches"
OPERATIONS: list[Operation] = [
    create_op("searches.create", CreateSearch, P, "Start a search in a webset (query, count, criteria, "
              "entity, behavior).", project=pj.one(pj.search), hint=SEARCH_COMMON_ISSUES,
              find=lambda ctx, args, key: find_in_webset(ctx, args.webset_id, "searches", key)),
    rest_op("searches.get", SearchRef, "GET", P + "/{search_id}", "Get a search with its progress.", project=pj.one(pj.search)),
    rest_op("searches.cancel", SearchRef, "POST", P + "/{search_id}/cancel", "Cancel a running search.",
            project=pj.one(pj.search)),
]  # fmt: skip
