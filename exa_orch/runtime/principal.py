"""Who is asking: the principal a task belongs to, and the TTL policy tasks are granted.

A principal is a name: `user:<login>` for the local user (stdio, or HTTP on loopback without
tokens), `token:<name>` for a named HTTP bearer token. A task belongs to the principal that
created it and is invisible to every other (they read TASK_NOT_FOUND). The name is bound to the
task's row, not to a transport session, so ownership survives restarts.
"""

from __future__ import annotations

from dataclasses import dataclass

from exa_orch.errors import InvalidParams

DEFAULT_TASK_TTL_MS = 3_600_000  # 1 hour
MAX_TASK_TTL_MS = 86_400_000  # 24 hours


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
