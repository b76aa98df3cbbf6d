"""What the Agent API asks of every request (its beta header) and its error codes as typed errors.

Every Agent API request exa-orch sends carries `Exa-Beta: agent-2026-05-07` (`with_beta`, added by
the transport): the spec declares the header on every operation and its code samples send it.

The Agent API answers `{"error": {"type", "code", "message"}}` (its spec's `AgentError`; the copy
in tests/fixtures/exa/ lists the codes). Its status alone misleads: a `previousRunId` that names no
run is the caller's mistake about a run id, not a missing object an externalId could stand for, and
a concurrency limit is a rate limit the caller (and the run pool) waits out. `AGENT_CODES` maps
each code to the exa-orch error it becomes and the hint it carries; `errors.error_from_response`
consults it before the status. Exa's code stays on the error (`tag`, shown as `exaCode`).
"""

from __future__ import annotations

from typing import Any, Final

import httpx

from exa_orch.errors import (
    ApiError,
    AuthenticationError,
    GatewayError,
    NotFoundError,
    RateLimited,
    UpstreamInvalidParams,
)
from exa_orch.gateway.retry import parse_retry_after

BETA: Final = "agent-2026-05-07"
"""The `Exa-Beta` token every Agent API request carries (the spec's ExaBetaHeader and code samples)."""

_RUN_IDS = (
    "A run id is the `id` Exa gave the run (agent_run_...), as research.create, research.get and "
    "tasks.result show it; the Agent API has no externalId, so nothing else stands in for it."
)
_UPDATE = (
    "exa-orch sends Exa-Beta: " + BETA + " on every Agent API request; Exa now asks for another "
    "beta: update exa-orch (or report it), since the caller cannot change this header."
)

AGENT_CODES: Final[dict[str, tuple[type[GatewayError], str]]] = {
    "INVALID_REQUEST": (
        UpstreamInvalidParams,
        "Fix the argument Exa names and call again; the 'list_operations' operation shows every "
        "operation's arguments and their JSON Schema.",
    ),
    "INVALID_OUTPUT_SCHEMA": (
        UpstreamInvalidParams,
        "The outputSchema is not a JSON Schema Exa can fill: give an object schema whose fields "
        "have types (draft-07, 2019-09 or 2020-12).",
    ),
    "PREVIOUS_RUN_NOT_FOUND": (
        UpstreamInvalidParams,
        "previousRunId names no run of this team: give the id of a completed run. " + _RUN_IDS,
    ),
    "PREVIOUS_RUN_NOT_COMPLETED": (
        UpstreamInvalidParams,
        "previousRunId must name a completed run: wait until that run's status is completed "
        "(research.get shows it), then create the follow-up again.",
    ),
    "RUN_NOT_FOUND": (
        NotFoundError,
        "No run of this team has this id (it may have been deleted). " + _RUN_IDS,
    ),
    "MISSING_BETA_HEADER": (ApiError, _UPDATE),
    "INVALID_BETA_HEADER": (ApiError, _UPDATE),
    "TEAM_NOT_FOUND": (
        AuthenticationError,
        "Exa found no team for the API key: set EXA_API_KEY to a key of a team with Agent API "
        "access (https://dashboard.exa.ai/api-keys) and restart the server.",
    ),
    "CONCURRENCY_LIMIT_REACHED": (
        RateLimited,
        "The team has as many agent runs active as Exa allows: exa-orch waits for a slot and "
        "retries; lower EXA_ORCH_MAX_AGENT_RUNS or wait for (or cancel) a run.",
    ),
    "TIMEOUT": (
        ApiError,
        "The run ran out of time at Exa: ask for less (a lower effort, fewer rows) or split the "
        "question into follow-up runs (previousRunId).",
    ),
    "SERVER_ERROR": (
        ApiError,
        "Exa failed on its side: try again in a minute. After a failed create, look for the run "
        "(research.find) before creating it again.",
    ),
}


def agent_error(
    code: str, said: str, where: str, headers: httpx.Headers, common: dict[str, Any]
) -> GatewayError:
    """The typed error for an Agent API error `code` (a key of AGENT_CODES) that said `said`."""
    kind, hint = AGENT_CODES[code]
    message = f"Exa refused {where} ({code}): {said}"
    if kind is RateLimited:
        return RateLimited(
            message, hint=hint, retry_after=parse_retry_after(headers.get("retry-after")), **common
        )
    return kind(message, hint=hint, **common)


def with_beta(sent: str | None) -> str:
    """The `Exa-Beta` header an Agent API request goes out with: BETA, beside any tokens the caller
    sent already (exa-py's `stop` sends `agent-max-effort-...`), comma-separated, each once."""
    tokens = [t.strip() for t in (sent or "").split(",") if t.strip()]
    return ",".join([BETA, *(t for t in tokens if t != BETA)])
