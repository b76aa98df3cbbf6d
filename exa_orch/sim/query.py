"""Which query parameters each Exa endpoint takes; any other is a 400, as Exa answers it.

Exa validates a request's query string strictly: a list of items asked with a parameter it does not
know (`query`, `type`, `offset` ...) answers 400 "Unrecognized key(s) in object" (observed with a
real key; tests/fixtures/real/ notes the source). The Websets rows are the query parameters of
exa-websets-spec.yaml (exa-labs/openapi-spec, 57d9178), per method and path template. The search
family (/search, /findSimilar, /contents, /answer) declares none in exa-openapi-spec.yaml. The Agent
API has no published spec here: its rows are what exa-py 2.28 sends (`cursor`, `limit` on the run
list and on a run's events), and the same strict reading is assumed, since one observed 400 is all
the evidence there is and a simulator kinder than Exa hides bugs. A route not in the table takes none.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from starlette.requests import Request
from starlette.responses import Response

from exa_orch.sim.faults import SimHTTPError

P = "/websets/v0"
PAGE = ("cursor", "limit")
ALLOWED: dict[tuple[str, str], tuple[str, ...]] = {
    ("GET", f"{P}/websets"): PAGE,
    ("GET", f"{P}/websets/{{id}}"): ("expand",),
    # The spec declares `search` "in: path" on preview, which has no such path segment: a query.
    ("POST", f"{P}/websets/preview"): ("search",),
    ("GET", f"{P}/websets/{{webset}}/items"): (*PAGE, "sourceId"),
    ("GET", f"{P}/webhooks"): PAGE,
    ("GET", f"{P}/webhooks/{{id}}/attempts"): (*PAGE, "eventType", "successful"),
    ("GET", f"{P}/events"): (*PAGE, "types", "createdBefore", "createdAfter"),
    ("GET", f"{P}/monitors"): (*PAGE, "websetId"),
    ("GET", f"{P}/imports"): PAGE,
    # The upload URL stands for Exa's pre-signed storage URL, whose signature is in its query.
    ("PUT", f"{P}/uploads/{{id}}"): ("token",),
    ("GET", "/agent/runs"): PAGE,
    ("GET", "/agent/runs/{id}/events"): PAGE,
}

Handler = Callable[[Request], Awaitable[Response]]


def unrecognized(method: str, path: str, keys: list[str]) -> list[str]:
    """The query keys `method path` (a route template) does not take, in the order given."""
    allowed = ALLOWED.get(("GET" if method == "HEAD" else method, path), ())
    return [k for k in dict.fromkeys(keys) if k not in allowed]


def strict(path: str, handler: Handler) -> Handler:
    """`handler`, refusing a request whose query string has a key its endpoint does not take."""

    async def run(request: Request) -> Response:
        extra = unrecognized(request.method, path, list(request.query_params.keys()))
        if extra:
            raise SimHTTPError(
                400,
                "Unrecognized key(s) in object: " + ", ".join(f"'{k}'" for k in extra),
                "INVALID_REQUEST",  # the tag was not recorded; the message was
            )
        return await handler(request)

    run.__name__ = handler.__name__
    run.__doc__ = handler.__doc__
    return run
