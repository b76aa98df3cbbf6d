"""Pacing of calls to Exa: endpoint families, a window-safe rate limiter per family, Retry-After gates.

Why not `AsyncLimiter(N, 1)`: a leaky bucket admits its whole capacity at once when empty, so it
lets 2N-1 requests through in the first second and again after any idle gap of a second or more.
The bound for a leaky bucket of capacity C draining at r per second is "at most C + r requests in
any 1-second window"; the issue's `AsyncLimiter(N*T/(1+T), T)` is the family C + r = N. Its
smallest useful T gives C = 1 (below that `max_rate < 1` and aiolimiter admits nothing), which is
also what leaves the highest steady rate: with C = 1 the limiter simply spaces admissions at least
1/r apart, so any window [t, t+1) holds at most ceil(r) of them. We take r = N / (1 + margin): the
N+1 admissions a window would need span at least 1 + margin seconds, so up to `margin` seconds of
network jitter between us and Exa still cannot squeeze N+1 arrivals into one second, and the
steady rate is N / (1 + margin) (0.94 N at the default margin). It also works for N < 1.
"""

from __future__ import annotations

import asyncio
import time

from aiolimiter import AsyncLimiter

# (path prefix, family) pairs; a path belongs to the first prefix it equals or starts with + "/".
# The same families as the simulator's requests_by_family, so tests can compare counts.
_FAMILY_PREFIXES: tuple[tuple[str, str], ...] = (
    ("/websets", "websets"),
    ("/search", "search"),
    ("/findSimilar", "search"),
    ("/contents", "contents"),
    ("/answer", "answer"),
    ("/agent", "agent"),
    ("/research", "research"),
)
FAMILIES: tuple[str, ...] = ("websets", "search", "contents", "answer", "agent", "arxiv", "research", "other")

DEFAULT_MARGIN = 0.06


def family_of(path: str) -> str:
    """The endpoint family of an Exa API path (relative to the API base): websets, search, ..."""
    for prefix, family in _FAMILY_PREFIXES:
        if path == prefix or path.startswith(prefix + "/"):
            return family
    return "other"


def window_safe_limiter(rps: float, margin: float = DEFAULT_MARGIN) -> AsyncLimiter:
    """A limiter that never admits more than `rps` requests in any 1-second window (see module doc).

    Equivalent to `AsyncLimiter(N*T/(1+T), T)` at its smallest valid T, minus a jitter margin.
    """
    if rps <= 0:
        raise ValueError(f"rps must be positive, got {rps}")
    if margin < 0:
        raise ValueError(f"margin must be >= 0, got {margin}")
    return AsyncLimiter(1, (1 + margin) / rps)


class FamilyGate:
    """One endpoint family's pacing: its rate limiter and a Retry-After deadline shared by its calls."""

    __slots__ = ("family", "limiter", "blocked_until")

    def __init__(self, family: str, rps: float, margin: float = DEFAULT_MARGIN) -> None:
        self.family = family
        self.limiter = window_safe_limiter(rps, margin)
        # time.monotonic() before which no request of this family may be sent (Retry-After).
        self.blocked_until = 0.0

    def block(self, seconds: float) -> None:
        """Hold every request of this family for `seconds` from now (never shortens a block)."""
        self.blocked_until = max(self.blocked_until, time.monotonic() + seconds)

    def remaining(self) -> float:
        """Seconds until requests may be sent again (0 when not blocked)."""
        return max(0.0, self.blocked_until - time.monotonic())

    async def wait_unblocked(self) -> bool:
        """Sleep until the Retry-After deadline has passed; True if it had to wait."""
        waited = False
        while (delay := self.remaining()) > 0:
            waited = True
            await asyncio.sleep(delay)
        return waited
