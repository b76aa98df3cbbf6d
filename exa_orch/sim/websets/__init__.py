"""The Websets API of the Exa simulator: all 38 operations of exa-websets-spec.yaml, on loopback.

`build_routes(ctx)` returns the routes, with full paths under /websets/v0/..., and keeps the
family's state in `ctx.extras["websets"]`. Modules: `store` (records, ids, externalIds,
pagination), `engine` (simulated time), `judge` (criteria and enrichments), `views` (JSON bodies),
`http` (validation), `delivery` (webhooks), and one module of routes per resource.
"""

from __future__ import annotations

from starlette.routing import BaseRoute, Route

from exa_orch.sim import query
from exa_orch.sim.context import SimContext
from exa_orch.sim.websets import (
    delivery,
    enrichments,
    events,
    imports,
    items,
    monitors,
    searches,
    webhooks,
    websets,
)
from exa_orch.sim.websets.store import WebsetsStore

__all__ = ["WebsetsStore", "build_routes"]


def build_routes(ctx: SimContext) -> list[BaseRoute]:
    """Every Websets route for the simulator whose shared state is `ctx`."""
    if ctx.world is None:
        from exa_orch.sim.world import World

        ctx.world = World.seeded(ctx.config.seed)
    ctx.extras["websets"] = WebsetsStore(ctx)
    # Upload URLs stand for Exa's pre-signed storage URLs: exa-py PUTs to them without the API key.
    public = list(ctx.extras.get("public_prefixes", ()))
    ctx.extras["public_prefixes"] = (*public, imports.UPLOADS)
    routes = [
        *websets.routes(),
        *searches.routes(),
        *items.routes(),
        *enrichments.routes(),
        *monitors.routes(),
        *webhooks.routes(),
        *imports.routes(),
        *events.routes(),
    ]
    # Any request may send events (time advances on every one): each may carry deliveries. A query
    # parameter the endpoint does not take is a 400, as at Exa (sim/query.py).
    return [
        Route(r.path, delivery.endpoint(query.strict(r.path, r.endpoint)), methods=r.methods) for r in routes
    ]
