"""`/memory`: the viewer's entity memory (migration 0020), newest sighting first.

Each request sees its own principal's entities (the local user also those of tasks with no owner;
`--all-owners` every principal's, with the owner shown), read from the memory tables with that
filter, as the task list reads tasks (`Viewer`). Another principal's memory is not there at all.
"""

from __future__ import annotations

import json
from typing import Any, Protocol

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

from exa_orch.view.auth import viewer_of
from exa_orch.view.data import ViewDB, Viewer


class Pages(Protocol):
    """What the page needs of web.Pages: its database and its template renderer."""

    db: ViewDB

    def page(self, request: Request, name: str, status_code: int = 200, **context: Any) -> HTMLResponse: ...


SHOWN = 500  # entities one page lists (the most recently seen)

_ENTITIES = (
    "SELECT e.id, e.principal, e.type, e.name, e.names, e.domains, e.urls, e.first_seen, e.last_seen,"
    " (SELECT count(*) FROM memory_sightings s WHERE s.entity_id = e.id) AS sightings,"
    " (SELECT count(DISTINCT s.task_id) FROM memory_sightings s WHERE s.entity_id = e.id) AS tasks"
    " FROM memory_entities e WHERE {mine} ORDER BY e.last_seen DESC, e.id DESC LIMIT ?"
)


def principal_filter(viewer: Viewer, column: str) -> tuple[str, tuple[Any, ...]]:
    """A SQL condition on the memory column `column` (a principal, '' for a task with no owner)
    true for the rows `viewer` may see."""
    if viewer.principal is None:
        return "1 = 1", ()
    if viewer.principal.sees_unowned:
        return f"{column} IN (?, '')", (viewer.principal.name,)
    return f"{column} = ?", (viewer.principal.name,)


async def entities(db: ViewDB, viewer: Viewer, limit: int = SHOWN) -> list[dict[str, Any]]:
    """The entities `viewer` may see, most recently seen first, their JSON lists read."""
    mine, params = principal_filter(viewer, "e.principal")
    rows = await db._rows(_ENTITIES.format(mine=mine), (*params, limit))
    for row in rows:
        for key in ("names", "domains", "urls"):
            row[key] = json.loads(row[key]) if isinstance(row[key], str) else []
    return rows


async def page(pages: Pages, request: Request) -> Response:
    """`/memory`: the entities of the request's principal."""
    found = await entities(pages.db, viewer_of(request.scope))
    return pages.page(request, "memory.html", entities=found, shown=SHOWN, nav="memory")
