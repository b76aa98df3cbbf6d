"""When a failed call to Exa may be sent again, and how long to wait first.

- `parse_retry_after`: the `Retry-After` header (delta-seconds or an HTTP date) as seconds.
- `RetryPolicy`: attempts, total deadline and backoff (exponential with jitter), as tenacity
  `AsyncRetrying` objects whose wait honours Retry-After.
- `CallShape` / `shape_of`: what a request is (family, object create?, externalId, streamed?).
- `may_retry`: the safety rule for creates. Reads and updates are retried on any transient
  failure. A POST that creates an object is retried only when Exa surely did not act: a 429, or a
  connection that failed before the request was sent. After an ambiguous failure (a 5xx, a dropped
  connection or a timeout after the request went out: Exa may have made the object) the transport
  raises, and `exa/creates.py` (`create_or_find`), the one owner of "a retried create found
  the object already made", looks the object up by its key (a webset's `externalId`, every other
  kind's metadata mark) before sending it again, and resolves a 409 the same way.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Literal

import httpx
from tenacity import (
    AsyncRetrying,
    RetryCallState,
    retry_if_exception_type,
    stop_after_attempt,
    stop_before_delay,
    wait_exponential_jitter,
)

from exa_orch.errors import GatewayError

RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
# Failures raised before any byte of the request left: Exa cannot have acted on it.
PRE_SEND_ERRORS: tuple[type[Exception], ...] = (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout)
# Transport failures worth another attempt (drops, resets, timeouts); not e.g. UnsupportedProtocol.
TRANSIENT_ERRORS: tuple[type[Exception], ...] = (
    httpx.TimeoutException,
    httpx.NetworkError,
    httpx.RemoteProtocolError,
)

Failure = Literal["rate_limited", "pre_send", "ambiguous"]

# POST paths (relative to the API base) that create an object. Kept as a path rule rather than
# derived from the operations' `create_key` at composition: the transport sees HTTP requests, and
# not every create declares its route (research.create goes through exa-py), so a derived set would
# need a second declaration per create; and a rule on paths covers every POST that reaches Exa,
# whoever sends it (an operation, exa-py's helpers, a test): a create nobody declared is still
# never re-sent blind. tests/operations/test_declarations.py checks the two agree both ways (every
# declared create's POST matches; no other POST an operation sends does).
_CREATE_PATH = re.compile(
    r"^/(?:websets/v0/(?:websets|webhooks|monitors|imports|websets/[^/]+/(?:searches|enrichments))"
    r"|agent/runs|monitors|research/v1)/?$"
)


def parse_retry_after(value: str | None, *, now: datetime | None = None) -> float | None:
    """Seconds to wait from a `Retry-After` value: delta-seconds or an HTTP date; None if absent or bad.

    Decimal seconds are accepted (some servers send them); a date in the past gives 0.
    """
    if value is None:
        return None
    text = value.strip()
    if not text:
        return None
    try:
        seconds = float(text)
    except ValueError:
        pass
    else:
        return max(0.0, seconds) if math.isfinite(seconds) else None
    try:
        when = parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:  # RFC 9110 dates are GMT; a zone-less one is read as UTC
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - (now or datetime.now(UTC))).total_seconds())


@dataclass(frozen=True)
class CallShape:
    """What the gateway needs to know about one request to pace and retry it safely."""

    family: str
    method: str
    path: str  # relative to the API base (or to the ArXiv base)
    is_create: bool = False
    external_id: str | None = None  # a webset-family create's key, named in a 409's Conflict error
    streaming: bool = False


def _json_body(request: httpx.Request) -> object:
    try:
        content = request.content
    except httpx.RequestNotRead:  # a streamed upload: nothing we can inspect (or resend)
        return None
    if not content:
        return None
    try:
        return json.loads(content)
    except ValueError:
        return None


def shape_of(request: httpx.Request, path: str, family: str) -> CallShape:
    """Classify `request`, whose path relative to its API base is `path`."""
    method = request.method.upper()
    body = _json_body(request) if method in ("POST", "PATCH", "PUT") else None
    query = request.url.query  # bytes; parsed only when it may hold the flag
    streaming = request.headers.get("accept", "").startswith("text/event-stream") or (
        b"stream=" in query and request.url.params.get("stream") == "true"
    )
    external_id: str | None = None
    if isinstance(body, dict):
        streaming = streaming or body.get("stream") is True
        raw_id = body.get("externalId")
        external_id = raw_id if isinstance(raw_id, str) and raw_id else None
    is_create = method == "POST" and family != "arxiv" and bool(_CREATE_PATH.match(path))
    keyed = (
        is_create and family == "websets"
    )  # where Exa takes an externalId (and answers 409 for a taken one)
    return CallShape(
        family=family,
        method=method,
        path=path,
        is_create=is_create,
        external_id=external_id if keyed else None,
        streaming=streaming,
    )


def may_retry(shape: CallShape, failure: Failure) -> bool:
    """Whether a call of this shape may be sent again after `failure` (see the module doc)."""
    if not shape.is_create:
        return True
    return failure in ("rate_limited", "pre_send")


class RetryableFailure(Exception):
    """Internal: an attempt failed in a way that may be retried; carries the error to raise if not."""

    def __init__(self, error: GatewayError, retry_after: float | None = None) -> None:
        super().__init__(error.message)
        self.error = error
        self.retry_after = retry_after


@dataclass(frozen=True)
class RetryPolicy:
    """Attempts, total deadline and backoff for one call to Exa.

    The wait before attempt n+1 is `backoff * 2**(n-1)` plus up to `jitter` seconds, capped at
    `max_backoff`, and never shorter than a Retry-After the server sent. No attempt starts after
    `deadline` seconds from the first one, and none is made at all if its wait would end past it.
    """

    max_attempts: int = 8
    deadline: float = 90.0
    backoff: float = 0.1
    max_backoff: float = 5.0
    jitter: float = 0.1

    def __post_init__(self) -> None:
        if self.max_attempts < 1:
            raise ValueError("max_attempts must be at least 1")
        if self.deadline <= 0 or self.backoff < 0 or self.max_backoff < 0 or self.jitter < 0:
            raise ValueError("deadline must be positive; backoff, max_backoff and jitter >= 0")

    def retrying(self, before_sleep: object = None) -> AsyncRetrying:
        """A tenacity `AsyncRetrying` that retries `RetryableFailure` and re-raises the last one."""
        backoff = wait_exponential_jitter(multiplier=self.backoff, max=self.max_backoff, jitter=self.jitter)

        def wait(state: RetryCallState) -> float:
            delay = backoff(state)
            failure = state.outcome.exception() if state.outcome else None
            if isinstance(failure, RetryableFailure) and failure.retry_after is not None:
                delay = max(delay, failure.retry_after)
            return delay

        kwargs: dict[str, object] = {}
        if before_sleep is not None:
            kwargs["before_sleep"] = before_sleep
        return AsyncRetrying(
            stop=stop_after_attempt(self.max_attempts) | stop_before_delay(self.deadline),
            wait=wait,
            retry=retry_if_exception_type(RetryableFailure),
            reraise=True,
            **kwargs,  # type: ignore[arg-type]
        )
