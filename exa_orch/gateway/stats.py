"""The gateway's counters (`Gateway.stats()`), one object the layers of its stack each add to."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any


@dataclass
class GatewayStats:
    """Counters the server reports (`Gateway.stats()`)."""

    calls: int = 0  # requests handed to the transport (a retried call counts once)
    attempts: int = 0  # requests actually sent
    retries: int = 0
    throttled_waits: int = 0  # attempts that had to wait for the rate limiter
    retry_after_waits: int = 0  # attempts held back by a Retry-After deadline
    in_flight: int = 0
    max_in_flight: int = 0
    errors_by_kind: Counter[str] = field(default_factory=Counter)  # final errors, by error code
    failures_by_kind: Counter[str] = field(default_factory=Counter)  # every failed attempt: "429", "drop" ...

    def snapshot(self) -> dict[str, Any]:
        return {
            "calls": self.calls,
            "attempts": self.attempts,
            "retries": self.retries,
            "throttled_waits": self.throttled_waits,
            "retry_after_waits": self.retry_after_waits,
            "in_flight": self.in_flight,
            "max_in_flight": self.max_in_flight,
            "errors_by_kind": dict(self.errors_by_kind),
            "failures_by_kind": dict(self.failures_by_kind),
        }
