"""One JSON call to Exa through the gateway's governed httpx client: the port's wire level.

Args pass to Exa exactly as the caller wrote them (exa-py's models would rename or drop fields):
the operations (agents' JSON in, agents' JSON out) call Exa here, and `ExaPort` builds its typed
methods on it. The gateway's transport raises typed errors for every status >= 400;
`raise_for_status` maps a plain client's answers (tests) with the same function
(`gateway.errors`), so callers only ever see GatewayError subclasses.
"""

from __future__ import annotations

import json
from typing import Any

import httpx

from exa_orch.errors import ApiError, GatewayError, InvalidParams, UpstreamTimeout
from exa_orch.gateway.errors import error_from_exception, error_from_response
from exa_orch.gateway.paths import quote_segment, route_safe

WEBSETS = "/websets/v0"


def raise_for_status(resp: httpx.Response) -> None:
    """Raise the typed GatewayError for an Exa error response (>= 400); no-op otherwise.

    The governed transport raises first for every status; this covers a plain client handed in
    (tests) with the same mapping (`gateway/errors.py`, the one place that reads status and body)."""
    if resp.status_code < 400:
        return
    raise error_from_response(
        resp.status_code,
        resp.headers,
        resp.content,
        method=resp.request.method,
        path=resp.request.url.path,
        external_id=_external_id(resp.request),
    )


def _external_id(request: httpx.Request) -> str | None:
    """The `externalId` a create's JSON body named (a 409 then means a duplicate), else None."""
    try:
        body = json.loads(request.content) if request.content else None
    except ValueError:
        return None
    key = body.get("externalId") if isinstance(body, dict) else None
    return key if isinstance(key, str) else None


def invalid_url(method: str, path: str, params: dict[str, Any], exc: httpx.InvalidURL) -> InvalidParams:
    """The InvalidParams for a request httpx refuses to build: a value in its URL is too long
    (httpx caps a URL component at 64 KB) or unusable; names the longest query parameter."""
    longest = max(params, key=lambda k: len(str(params[k])), default=None)
    size = f" ('{longest}' is {len(str(params[longest]))} characters)" if longest is not None else ""
    return InvalidParams(
        f"{method} {path}: a value sent in the URL is invalid ({exc}){size}",
        hint="Values sent in the URL (ids, cursors, query parameters) must stay under 64 KB: shorten "
        "it, or pass back the exact cursor Exa returned.",
        fields=[longest] if longest is not None else [],
    )


async def request(
    http: httpx.AsyncClient,
    method: str,
    path: str,
    *,
    query: dict[str, Any] | None = None,
    body: Any = None,
) -> Any:
    """One JSON call to Exa; returns the decoded body ({} when empty). Raises GatewayError."""
    params = {k: v for k, v in (query or {}).items() if v is not None}
    try:
        resp = await http.request(method, path, params=params or None, json=body)
    except GatewayError:
        raise
    except httpx.InvalidURL as exc:  # raised while building the request: nothing was sent
        raise invalid_url(method, path, params, exc) from None
    except httpx.TransportError as exc:  # a plain client's failure: mapped as the transport maps it
        raise error_from_exception(exc, method=method, path=path) from exc
    raise_for_status(resp)
    if not resp.content:
        return {}
    try:
        return resp.json()
    except json.JSONDecodeError as exc:
        raise ApiError(
            f"Exa answered {method} {path} with a body that is not JSON", status=resp.status_code
        ) from exc


def segment(value: Any, field: str = "id") -> str:
    """One path segment built from the id in `field`, escaped so no character can change the route.

    Raises InvalidParams naming `field` when the id is empty, `.` or `..` (httpx and every server
    resolve those, so `items.delete {itemId: ".."}` would reach the webset itself), or holds `/` or
    `\\` (which a server decodes back into a separator), or a control character (no Exa id has one,
    and the path is quoted in errors and log lines, where a newline would forge a line). Everything
    else is percent-escaped (`?`, `#`, `%`, spaces ...), so `%2e%2e` stays a literal id.
    """
    text = str(value)
    if not route_safe(text) or any(ord(c) < 32 or ord(c) == 127 for c in text):
        shown = repr(text) if len(text) <= 40 else repr(text[:40]) + "..."
        raise InvalidParams(
            f"{field}: {shown} is not a usable id (an id may not be empty, '.' or '..', nor contain "
            "'/', '\\' or a control character); sent in a URL it would reach a different Exa endpoint",
            hint=f"Pass the id exactly as Exa returned it in '{field}' (list the objects to find it).",
            fields=[field],
        )
    return quote_segment(text)


async def upload_csv(http: httpx.AsyncClient, url: str, text: str) -> int:
    """PUT CSV `text` to an import's pre-signed upload URL; the API key is not sent there. Returns
    the answer's status; a failure is a typed error (ApiError from the answer, UpstreamTimeout)."""
    req = http.build_request("PUT", url, content=text.encode(), headers={"content-type": "text/csv"})
    for header in ("x-api-key", "authorization"):
        req.headers.pop(header, None)
    try:
        resp = await http.send(req)
    except Exception as exc:
        if isinstance(exc, ApiError | UpstreamTimeout):
            raise
        raise UpstreamTimeout(f"uploading the CSV failed: {type(exc).__name__}") from exc
    raise_for_status(resp)
    return int(resp.status_code)
