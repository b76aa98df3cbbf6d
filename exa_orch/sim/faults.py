"""How the simulator fails on purpose, what it counts, and how any route answers an error.

- `FaultInjector` draws, per request and deterministically for a seed and request order, whether
  the request gets a fault (429 with Retry-After, 500, 502, 503, or a dropped connection).
- `Counters` holds the request counters and the per-request log that `/_sim/stats` and
  `/_sim/log` serve; it is thread-safe because `SimThread` readers live on another thread.
- `SimHTTPError` is what route handlers raise; the app turns it into Exa's error body with the
  matching status (`error_response`): `{"requestId", "error", "tag"}` for Search and Websets, the
  Agent API's `{"error": {"type", "code", "message"}}` on `/agent/...`.
- `note_create` / `note_conflict` are what a route calls after an object create that carried an
  externalId, so tests can prove "no duplicate side effects".
"""

from __future__ import annotations

import dataclasses
import json
import random
import threading
from collections import Counter, deque
from typing import Any

from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse

from exa_orch.sim.context import FaultConfig

FAULT_KINDS = ("401", "402", "429", "500", "502", "503", "drop")
# Faults a request gets whatever it asked; the others only stand for a failing service.
ACCOUNT_FAULTS = ("401", "402")

# Exa's messages and tags for injected faults. 401 and 402 are Exa's own bodies as recorded with real
# keys (tests/fixtures/real/ holds them with their sources); the 5xx and 429 ones are made up.
FAULT_TAGS: dict[str, tuple[str, str]] = {
    "401": ("Invalid API key", "INVALID_API_KEY"),
    "402": (
        "You have exceeded your credits limit. Please top up to keep using Exa at dashboard.exa.ai",
        "NO_MORE_CREDITS",
    ),
    "429": (
        "Too many requests: rate limit exceeded, retry after the Retry-After delay",
        "RATE_LIMIT_EXCEEDED",
    ),
    "500": ("Internal server error", "INTERNAL_SERVER_ERROR"),
    "502": ("Bad gateway: an upstream service failed", "BAD_GATEWAY"),
    "503": ("Service temporarily unavailable", "SERVICE_UNAVAILABLE"),
}

# `webset_status` fault modes: "" (none), or the state every webset that is not idle is held in. Exa
# pauses a webset (its searches stop until it is resumed) and queues one as pending; neither becomes
# idle by itself.
WEBSET_FAULT_STATUSES = ("", "paused", "pending")

# Log entries kept for /_sim/log; older ones are discarded (benchmarks send many requests).
LOG_LIMIT = 200_000


class SimHTTPError(Exception):
    """An error a route answers with: status, human message and machine tag."""

    def __init__(self, status: int, message: str, tag: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.tag = tag
        self.headers = headers or {}


def request_id(request: Request) -> str:
    """The id the middleware gave this request (also sent as the X-Request-Id header)."""
    return str(request.scope.get("state", {}).get("request_id", ""))


# The Agent API's own error codes (its spec's AgentError.code): a route's tag that is one of them is
# sent as it is; any other is sent as the code its status stands for.
AGENT_CODES = frozenset(
    {
        "INVALID_REQUEST",
        "MISSING_BETA_HEADER",
        "INVALID_BETA_HEADER",
        "TEAM_NOT_FOUND",
        "RUN_NOT_FOUND",
        "PREVIOUS_RUN_NOT_FOUND",
        "PREVIOUS_RUN_NOT_COMPLETED",
        "CONCURRENCY_LIMIT_REACHED",
        "INVALID_OUTPUT_SCHEMA",
        "TIMEOUT",
        "SERVER_ERROR",
    }
)
_AGENT_BY_STATUS = {
    400: ("INVALID_REQUEST", "INVALID_REQUEST"),
    401: ("AUTHENTICATION_ERROR", "TEAM_NOT_FOUND"),
    404: ("NOT_FOUND", "RUN_NOT_FOUND"),
    429: ("RATE_LIMIT_ERROR", "CONCURRENCY_LIMIT_REACHED"),
}


def agent_error_body(status: int, message: str, tag: str) -> dict[str, Any]:
    """The Agent API's error envelope `{"error": {"type", "code", "message"}}` for an error a route
    (or the front door) answers with `status` and `tag`."""
    kind, code = _AGENT_BY_STATUS.get(status, ("SERVER_ERROR", "SERVER_ERROR"))
    return {"error": {"type": kind, "code": tag if tag in AGENT_CODES else code, "message": message}}


def error_response(
    request: Request, status: int, message: str, tag: str, headers: dict[str, str] | None = None
) -> JSONResponse:
    """Exa's error shape with `status`: the Agent API's nested envelope on `/agent/...` (but for a 402,
    whose only recorded body is the flat one), else `{requestId, error, tag}` (Search, Websets)."""
    path = request.url.path
    if (path == "/agent" or path.startswith("/agent/")) and status != 402:
        return JSONResponse(agent_error_body(status, message, tag), status_code=status, headers=headers)
    body = {"requestId": request_id(request), "error": message, "tag": tag}
    return JSONResponse(body, status_code=status, headers=headers)


async def sim_http_error_handler(request: Request, exc: Exception) -> JSONResponse:
    """Starlette exception handler for `SimHTTPError`."""
    assert isinstance(exc, SimHTTPError)
    return error_response(request, exc.status, exc.message, exc.tag, exc.headers)


async def read_json(request: Request) -> dict[str, Any]:
    """The request body as a JSON object, or a 400 `INVALID_REQUEST_BODY` that says what is wrong."""
    try:
        raw = await request.body()
    except ClientDisconnect:
        # The client went away (killed, timed out) before its body was read: nothing is done, and
        # it is not a simulator bug. Nobody receives the 499; the log records it.
        raise SimHTTPError(
            499, "the client closed the connection before its request was read", "CLIENT_CLOSED_REQUEST"
        ) from None
    if not raw:
        return {}
    try:
        body = json.loads(raw)
    except ValueError as exc:
        raise SimHTTPError(400, f"Request body is not valid JSON: {exc}", "INVALID_REQUEST_BODY") from exc
    if not isinstance(body, dict):
        raise SimHTTPError(400, "Request body must be a JSON object", "INVALID_REQUEST_BODY")
    return body


def _counters(request: Request) -> Counters:
    counters: Counters = request.app.state.sim.counters
    return counters


def note_create(
    request: Request,
    external_id: str | None,
    *,
    kind: str = "object",
    obj_id: str | None = None,
    metadata: dict[str, Any] | None = None,
) -> None:
    """Record a successful create: its log entry gets `created` {kind, id, externalId, metadata}
    (so a test can count duplicates by any mark) and `creates_by_kind` counts it; a create with an
    externalId is also counted under it. The after-create fault mode keys off this record."""
    state = request.scope.setdefault("state", {})
    state["created"] = {"kind": kind, "id": obj_id, "externalId": external_id, "metadata": metadata or {}}
    _counters(request).created_kind(kind)
    if external_id is None:
        return
    state["external_id"] = external_id
    _counters(request).created(external_id)


def note_conflict(request: Request, external_id: str) -> None:
    """Record a create refused with 409 because its externalId exists already."""
    request.scope.setdefault("state", {})["external_id"] = external_id
    _counters(request).conflict(external_id)


class FaultInjector:
    """Deterministic fault draws: the same seed and request order give the same faults."""

    def __init__(self, config: FaultConfig) -> None:
        self._lock = threading.Lock()
        self.config = config
        self._rng = random.Random(config.seed)

    def configure(self, config: FaultConfig) -> FaultConfig:
        """Replace the configuration and restart the draw sequence from its seed."""
        kinds = tuple(str(k) for k in config.kinds)
        unknown = [k for k in kinds if k not in FAULT_KINDS]
        if unknown or not kinds:
            raise ValueError(
                f"fault kinds must be a non-empty subset of {list(FAULT_KINDS)}, got {list(kinds)}"
            )
        if not 0.0 <= config.rate <= 1.0:
            raise ValueError(f"fault rate must be between 0 and 1, got {config.rate}")
        if not 0.0 <= config.after_create <= 1.0:
            raise ValueError(f"after_create must be between 0 and 1, got {config.after_create}")
        if config.retry_after < 0 or config.latency_ms < 0:
            raise ValueError("retry_after and latency_ms must be >= 0")
        if config.webset_status not in WEBSET_FAULT_STATUSES:
            raise ValueError(
                f"webset_status must be one of {list(WEBSET_FAULT_STATUSES)}, got {config.webset_status!r}"
            )
        config = dataclasses.replace(config, kinds=kinds)
        with self._lock:
            self.config = config
            self._rng = random.Random(config.seed)
        return config

    def update(self, fields: dict[str, Any]) -> FaultConfig:
        """Change some fields (the /_sim/faults body); `kinds` may be a list or a comma string."""
        allowed = {f.name for f in dataclasses.fields(FaultConfig)}
        unknown = sorted(set(fields) - allowed)
        if unknown:
            raise ValueError(f"unknown fault fields {unknown}; allowed: {sorted(allowed)}")
        values = dict(fields)
        if isinstance(values.get("kinds"), str):
            values["kinds"] = tuple(k.strip() for k in values["kinds"].split(",") if k.strip())
        elif "kinds" in values:
            values["kinds"] = tuple(str(k) for k in values["kinds"])
        for name in ("rate", "retry_after", "latency_ms", "after_create"):
            if name in values:
                values[name] = float(values[name])
        if "seed" in values:
            values["seed"] = int(values["seed"])
        return self.configure(dataclasses.replace(self.config, **values))

    def draw(self) -> str | None:
        """The fault for the next request, or None."""
        with self._lock:
            config = self.config
            if config.rate <= 0:
                return None
            roll = self._rng.random()
            kind = self._rng.choice(config.kinds)
        return kind if roll < config.rate else None

    def draw_after_create(self) -> str | None:
        """The fault that replaces the answer to a create that succeeded, or None."""
        with self._lock:
            config = self.config
            if config.after_create <= 0:
                return None
            kinds = [k for k in config.kinds if k not in ("429", *ACCOUNT_FAULTS)] or [
                "500",
                "502",
                "503",
                "drop",
            ]
            roll = self._rng.random()
            kind = self._rng.choice(kinds)
        return kind if roll < config.after_create else None


def config_dict(config: FaultConfig) -> dict[str, Any]:
    """A FaultConfig as the JSON that /_sim/faults answers."""
    data = dataclasses.asdict(config)
    data["kinds"] = list(config.kinds)
    return data


class Counters:
    """Request counters and the per-request log (served by /_sim/stats and /_sim/log)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.reset()

    def reset(self) -> None:
        """Clear counters and log; in-flight requests stay counted."""
        with self._lock:
            self.by_endpoint: Counter[str] = Counter()
            self.by_family: Counter[str] = Counter()
            self.faults: Counter[str] = Counter(dict.fromkeys(FAULT_KINDS, 0))
            self.after_create: Counter[str] = Counter()  # creates made, then answered with a fault
            self.creates: Counter[str] = Counter()
            self.creates_by_kind: Counter[str] = Counter()
            self.conflicts: Counter[str] = Counter()
            self.total = 0
            self.in_flight = getattr(self, "in_flight", 0)
            self.max_in_flight = self.in_flight
            self.log: deque[dict[str, Any]] = deque(maxlen=LOG_LIMIT)

    # Each step is recorded before the client can see its effect (the fault before the response is
    # written, the status before it is sent), so a client on another thread never reads stale stats.
    def started(self, endpoint: str, family: str, entry: dict[str, Any]) -> None:
        """Count a request and log its entry (t_end and status stay None until it ends)."""
        with self._lock:
            self.total += 1
            self.by_endpoint[endpoint] += 1
            self.by_family[family] += 1
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)
            self.log.append(entry)

    def faulted(self, entry: dict[str, Any], kind: str) -> None:
        with self._lock:
            entry["fault"] = kind
            self.faults[kind] += 1

    def faulted_after_create(self, entry: dict[str, Any], kind: str) -> None:
        with self._lock:
            entry["fault"] = f"{kind}-after-create"
            self.after_create[kind] += 1

    def responded(self, entry: dict[str, Any], status: int, external_id: str | None) -> None:
        with self._lock:
            entry["status"] = status
            entry["external_id"] = external_id

    def finished(
        self, entry: dict[str, Any], t_end: float, external_id: str | None, created: Any = None
    ) -> None:
        with self._lock:
            self.in_flight -= 1
            entry["t_end"] = t_end
            entry["external_id"] = external_id
            if created is not None:
                entry["created"] = created

    def created(self, external_id: str) -> None:
        with self._lock:
            self.creates[external_id] += 1

    def created_kind(self, kind: str) -> None:
        with self._lock:
            self.creates_by_kind[kind] += 1

    def conflict(self, external_id: str) -> None:
        with self._lock:
            self.conflicts[external_id] += 1

    def snapshot(self) -> dict[str, Any]:
        """The /_sim/stats body."""
        with self._lock:
            return {
                "requests_by_endpoint": dict(self.by_endpoint),
                "requests_by_family": dict(self.by_family),
                "in_flight": self.in_flight,
                "max_in_flight": self.max_in_flight,
                "creates_by_external_id": dict(self.creates),
                "creates_by_kind": dict(self.creates_by_kind),
                "conflicts_by_external_id": dict(self.conflicts),
                "faults": dict(self.faults),
                "faults_after_create": dict(self.after_create),
                "total_requests": self.total,
            }

    def entries(self, limit: int | None = None) -> list[dict[str, Any]]:
        """The newest `limit` log entries (all by default), oldest first."""
        with self._lock:
            items = [dict(e) for e in (list(self.log)[-limit:] if limit else self.log)]
        return items
