"""Who is asking: the principal a task belongs to, and the TTL policy tasks are granted.

A principal is a name: `user:<login>` for the local user (stdio, or HTTP on loopback without
tokens), `token:<name>` for a named HTTP bearer token. A task belongs to the principal that
created it and is invisible to every other (they read TASK_NOT_FOUND). The name is bound to the
task's row, not to a transport session, so ownership survives restarts.
"""

from __future__ import annotations

import hmac
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from exa_orch.config import Secret, Settings
from exa_orch.errors import InvalidParams
from exa_orch.gateway.context import current_request

DEFAULT_TASK_TTL_MS = 3_600_000  # 1 hour
MAX_TASK_TTL_MS = 86_400_000  # 24 hours

# The LogRecord attribute (`extra=concerning(...)`) naming whom a record concerns, for records
# made outside that principal's own context (the supervisor resuming someone's task).
LOG_PRINCIPAL = "exa_orch_principal"


def concerning(principal: str | None) -> dict[str, Any]:
    """`extra=` for a log record about a task of `principal` (None: a task with no owner)."""
    return {LOG_PRINCIPAL: principal}


def record_principal(record: Any) -> str | None:
    """The principal a log record concerns: its `concerning(...)` mark, else the principal the
    code that logged it was acting for (the request scope's principal when it was made: a task's
    owner inside its actor, the caller inside a tool call), else None."""
    if hasattr(record, LOG_PRINCIPAL):
        marked = getattr(record, LOG_PRINCIPAL)
        return marked if isinstance(marked, str) else None
    return current_request().principal


@dataclass(frozen=True)
class Principal:
    """A caller: `name` owns the tasks it creates; `sees_unowned` also shows it tasks with no owner.

    Tasks written before ownership existed have no owner: only the local user sees them.
    """

    name: str
    sees_unowned: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise InvalidParams("a principal needs a non-empty name", fields=["principal"])

    def may_see(self, owner: str | None) -> bool:
        """True if a task owned by `owner` (None: no owner) is this principal's to see."""
        return owner == self.name if owner is not None else self.sees_unowned


def local_principal(settings: Settings) -> Principal:
    """The local user (`Settings.principal`, `user:<login>`): stdio's caller, and an HTTP face's
    (`serve --http`, `exa-orch view`) when no token is configured. Only it sees unowned tasks."""
    return Principal(settings.principal, sees_unowned=True)


def constant_time_match(given: bytes, secrets: Iterable[tuple[str, bytes]]) -> str | None:
    """The name of the first (name, secret) whose secret is exactly `given`, or None. Every
    secret is compared in constant time, whatever matched, so timing tells nothing of which one
    did (or whether any did): the one rule for a bearer token and for what a face derives from it."""
    found: str | None = None
    for name, expected in secrets:
        if hmac.compare_digest(given, expected) and found is None:
            found = name
    return found


class BearerTokens:
    """The configured HTTP tokens and the principal each one names; one rule for every HTTP face.

    `tokens` maps principal name (`token:<name>`) -> token; `Settings.token_principals()` gives
    it. Tokens are compared in constant time, each against every configured one.
    """

    def __init__(self, tokens: Mapping[str, Secret]) -> None:
        self._tokens = [(name, secret.reveal().encode()) for name, secret in tokens.items()]

    @classmethod
    def from_settings(cls, settings: Settings) -> BearerTokens:
        """Every token of EXA_ORCH_HTTP_TOKEN(S)(_FILE); empty when none is configured."""
        return cls(settings.token_principals())

    def __bool__(self) -> bool:
        return bool(self._tokens)

    def match(self, given: bytes) -> str | None:
        """The principal whose token is exactly `given`, or None."""
        return constant_time_match(given, self._tokens)

    def names(self) -> frozenset[str]:
        """Every principal a token names (`token:<name>`)."""
        return frozenset(name for name, _ in self._tokens)

    def principal_of(self, header: bytes) -> str | None:
        """The principal whose token an `Authorization: Bearer <token>` header carries, or None."""
        # The auth scheme is case-insensitive (RFC 9110 section 11.1): "bearer x" is "Bearer x".
        scheme, _, given = header.strip().partition(b" ")
        found = self.match(given.strip())
        return found if scheme.lower() == b"bearer" else None

    def derived(self, label: bytes) -> list[tuple[str, str]]:
        """(principal, HMAC-SHA256 of its token keyed by the token over `label`, hex) for each
        token: values a face may hand out (a cookie) that prove the token without revealing it."""
        return [(name, hmac.new(expected, label, "sha256").hexdigest()) for name, expected in self._tokens]


@dataclass(frozen=True)
class TtlPolicy:
    """How long finished tasks are kept: `default_ms` when none is asked for, at most `max_ms`."""

    default_ms: int = DEFAULT_TASK_TTL_MS
    max_ms: int = MAX_TASK_TTL_MS

    def __post_init__(self) -> None:
        if not 0 < self.default_ms <= self.max_ms:
            raise ValueError(f"a TTL policy needs 0 < default ({self.default_ms}) <= max ({self.max_ms})")

    def grant(self, requested_ms: int | None) -> int:
        """The TTL granted for a request: the default for None, else the request clamped to the maximum."""
        if requested_ms is None:
            return self.default_ms
        return min(requested_ms, self.max_ms)
