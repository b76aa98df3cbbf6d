"""Exa's failures as exa-orch's typed errors (seed 000 section 10), at one boundary.

| what Exa did                 | error                                | code                 |
|------------------------------|--------------------------------------|----------------------|
| 400, 422                     | UpstreamInvalidParams (hint)         | INVALID_PARAMS       |
| 401, 403                     | AuthenticationError (how to set key) | AUTHENTICATION_ERROR |
| 402 (never retried)          | CreditsExhausted (Exa's tag kept)    | CREDITS_EXHAUSTED    |
| 404                          | NotFoundError                        | RESOURCE_NOT_FOUND   |
| 409                          | Conflict (.external_id)              | CONFLICT             |
| 429 (after retries)          | RateLimited (.retry_after)           | RATE_LIMITED         |
| any other status             | ApiError                             | API_ERROR            |
| timeout, dropped connection  | UpstreamTimeout                      | UPSTREAM_TIMEOUT     |

An Agent API error (`{"error": {"type", "code", "message"}}`) is mapped by its code first
(`gateway/agent_api.py`: a missing previous run is the caller's mistake, a concurrency limit a
rate limit, a missing beta header exa-orch's own). Each carries the status, Exa's code (`tag`,
shown as `exaCode`; Search and Websets call it `tag`), its message and the request id (body
`requestId` or the `X-Request-Id` header). Messages pass through the log redactor, so an echoed key never leaks.
"""

from __future__ import annotations

import json
from typing import Any, NamedTuple

import httpx

from exa_orch.errors import (
    ApiError,
    AuthenticationError,
    ConfigError,
    Conflict,
    CreditsExhausted,
    GatewayError,
    NotFoundError,
    RateLimited,
    UpstreamInvalidParams,
    UpstreamTimeout,
)
from exa_orch.gateway.agent_api import AGENT_CODES, agent_error
from exa_orch.gateway.retry import parse_retry_after
from exa_orch.log import redact

_BODY_EXCERPT = 300

KEY_HINT = (
    "Set EXA_API_KEY to a valid key (create one at https://dashboard.exa.ai/api-keys) in the "
    "environment of the exa-orch server, e.g. in the MCP client's server config "
    '"env": {"EXA_API_KEY": "..."}, then restart it. Without a key, run `exa-orch sim` and set '
    "EXA_ORCH_EXA_URL and EXA_ORCH_SIMULATOR=1 as it prints them."
)


class _Said(NamedTuple):
    """What an error body says, from either of Exa's envelopes."""

    message: str | None
    code: str | None  # Exa's code: `tag` (Search, Websets) or `error.code` (Agent API)
    request_id: str | None
    details: Any


def _body_fields(raw: bytes) -> _Said:
    """What an error body says, tolerating non-JSON bodies. Two envelopes: Search's and Websets'
    `{"error": "...", "tag": "...", "requestId": "..."}`, and the Agent API's
    `{"error": {"type": "...", "code": "...", "message": "..."}}` (its other fields kept as details)."""
    try:
        body = json.loads(raw) if raw else None
    except ValueError:
        body = None
    if not isinstance(body, dict):
        text = " ".join(raw.decode("utf-8", "replace").split())[:_BODY_EXCERPT]
        return _Said(text or None, None, None, None)
    message = body.get("error") or body.get("message")
    tag = body.get("tag") or body.get("code")
    details = body.get("details")
    if isinstance(message, dict):  # the Agent API's nested envelope
        nested = message
        message = nested.get("message")
        tag = nested.get("code") or nested.get("type") or tag
        extra = {k: v for k, v in nested.items() if k not in ("message", "code", "type")}
        details = details or extra or None
    request_id = body.get("requestId") or body.get("request_id")
    return _Said(
        str(message) if message else None,
        str(tag) if tag is not None else None,
        str(request_id) if request_id else None,
        details,
    )


def error_from_response(
    status: int,
    headers: httpx.Headers,
    raw: bytes,
    *,
    method: str,
    path: str,
    external_id: str | None = None,
) -> GatewayError:
    """The typed error for an Exa response with `status` >= 400 and body `raw`."""
    message, tag, body_rid, details = _body_fields(raw)
    request_id = body_rid or headers.get("x-request-id")
    said = redact(message or f"HTTP {status}")
    where = f"{method} {path}"
    common: dict[str, Any] = {"status": status, "tag": tag, "request_id": request_id}
    if tag in AGENT_CODES:  # the Agent API says what went wrong more precisely than its status
        return agent_error(tag, said, where, headers, common)
    if status in (400, 422):
        return _invalid_params(status, said, details, where, common)
    if status in (401, 403):
        return AuthenticationError(
            f"Exa refused the API key (HTTP {status}: {said}). Set EXA_API_KEY to a valid Exa API key "
            "in the server's environment and restart it.",
            hint=KEY_HINT,
            **common,
        )
    if status == 402:  # NO_MORE_CREDITS, API_KEY_BUDGET_EXCEEDED, TEAM_BUDGET_EXCEEDED (Exa's docs)
        return CreditsExhausted(
            f"Exa refused the call: the account behind the API key is out of credits or over a budget "
            f"({where}: HTTP 402{' ' + tag if tag else ''}: {said})",
            hint="Top up at https://dashboard.exa.ai (or raise the key's or the team's budget there), or "
            "lower the task's budgetUsd so it stops before the account runs dry; until then every call "
            "to Exa fails the same way, and exa-orch does not retry it.",
            **common,
        )
    if status == 404:
        return NotFoundError(
            f"Exa has no such object ({where}): {said}",
            hint="Check the id (an externalId works in its place); list the collection to see what exists.",
            **common,
        )
    if status == 409:
        return _conflict(said, where, external_id, common)
    if status == 429:
        return _rate_limited(headers, said, where, common)
    on_its_side = (
        "Exa failed on its side: try again in a minute. After a failed create, check whether the object "
        "was made (list it, or get it by its externalId) before creating it again."
        if status >= 500
        else None
    )
    return ApiError(f"Exa failed ({where}): HTTP {status}: {said}", hint=on_its_side, **common)


def _invalid_params(
    status: int, said: str, details: Any, where: str, common: dict[str, Any]
) -> UpstreamInvalidParams:
    """A 400 or 422: the arguments were wrong; the hint says what Exa said of them."""
    hint = f"Exa said: {said}"
    if details:
        hint += f" ({redact(json.dumps(details)[:_BODY_EXCERPT])})"
    hint += (
        ". Fix the argument it names and call again; the 'list_operations' operation shows "
        "every operation's arguments and their JSON Schema."
    )
    if status == 422:
        hint += " A 422 on a preview or search means the query could not be split into an entity and criteria: name the kind of thing you want and the conditions it must meet."
    return UpstreamInvalidParams(f"Exa rejected the request ({where}): {said}", hint=hint, **common)


def _conflict(said: str, where: str, external_id: str | None, common: dict[str, Any]) -> Conflict:
    """A 409: a create's duplicate externalId, or an object whose state forbids the change."""
    if external_id is not None:
        return Conflict(
            f"Exa refused a duplicate ({where}): {said}",
            hint="An object with this externalId exists already: fetch it by its externalId instead of creating it.",
            external_id=external_id,
            **common,
        )
    return Conflict(  # not a create: the object's state forbids the change (a finished run's stop)
        f"Exa refused the change: the object's state does not allow it ({where}): {said}",
        hint="Read the object to see its status; a finished, cancelled or deleted object cannot be "
        "cancelled, stopped or changed.",
        **common,
    )


def _rate_limited(headers: httpx.Headers, said: str, where: str, common: dict[str, Any]) -> RateLimited:
    """A 429, with the wait its Retry-After asks for."""
    retry_after = parse_retry_after(headers.get("retry-after"))
    wait = f" Retry after {retry_after:g} s." if retry_after is not None else ""
    return RateLimited(
        f"Exa rate limit exceeded ({where}): {said}.{wait}",
        hint="Wait before calling again, or lower EXA_ORCH_RPS / EXA_ORCH_CONCURRENCY.",
        retry_after=retry_after,
        **common,
    )


class MissingApiKey(ConfigError):
    """Exa was to be called with no key for the principal it was for (nothing was sent): the server
    started without EXA_API_KEY and that principal has given no key of its own. A task's run that
    meets it waits for its owner's key (`input_kind`: the runtime parks it input_required)."""

    input_kind = "apiKey"

    def __init__(self, principal: str | None = None) -> None:
        self.principal = principal
        whose = f" and {principal} has given none" if principal else ""
        super().__init__(
            f"EXA_API_KEY is not set: this server started without an Exa API key{whose}, so it cannot "
            "call Exa",
            hint="Set EXA_API_KEY in the server's environment (get one at dashboard.exa.ai) and restart "
            "it; a client that supports URL-mode elicitation is instead sent a one-time link to a page on "
            "this machine where the key is pasted (held in memory only, for that caller alone). To try "
            "exa-orch without a key, run `exa-orch serve --sim` (or start `exa-orch sim` and set "
            "EXA_ORCH_EXA_URL and EXA_ORCH_SIMULATOR=1 as it prints them).",
        )


class KeyRefused(AuthenticationError):
    """Exa refused (401) the key a principal gave; it has been forgotten, so the next call asks again
    (and a task's run waits for another, as for MissingApiKey)."""

    input_kind = "apiKey"

    def __init__(self, principal: str, refusal: GatewayError) -> None:
        self.principal = principal
        said = f"HTTP {refusal.status}" + (f", {refusal.tag}" if refusal.tag else "")
        super().__init__(
            f"Exa refused the API key {principal} gave ({said}); it was forgotten, so the next call "
            "asks for a key again",
            hint="Give a valid key from https://dashboard.exa.ai/api-keys when asked (or the operator "
            "sets EXA_API_KEY in the server's environment).",
            status=refusal.status,
            tag=refusal.tag,
            request_id=refusal.request_id,
        )


def error_from_exception(exc: Exception, *, method: str, path: str) -> GatewayError:
    """The typed error for a transport failure (timeout, dropped or refused connection)."""
    kind = type(exc).__name__
    detail = redact(str(exc)) or kind
    if isinstance(exc, httpx.TimeoutException):
        return UpstreamTimeout(
            f"Exa did not answer in time ({method} {path}: {kind}: {detail})",
            hint="Exa may be slow or unreachable; try again later.",
        )
    if isinstance(exc, httpx.NetworkError | httpx.RemoteProtocolError):
        return UpstreamTimeout(
            f"The connection to Exa failed ({method} {path}: {kind}: {detail})",
            hint="Check the network and EXA_ORCH_EXA_URL; try again later.",
        )
    return ApiError(f"Could not send the request to Exa ({method} {path}: {kind}: {detail})")
