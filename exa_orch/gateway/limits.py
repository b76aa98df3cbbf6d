"""Pacing of calls to Exa: endpoint families, a window-safe rate limiter per family, Retry-After gates.

Why not `AsyncLimiter(N, 1)`: a leaky bucket admits its whole capacity at once when empty, so it
lets 2N-1 requests through in the first second and again after any idle gap of a second or more.
A leaky bucket of capacity C draining r tokens per second admits at most C + r requests in any
1-second window; the issue's `AsyncLimiter(N*T/(1+T), T)` is the family C + r = N, and its
smallest useful T gives C = 1 (below that `max_rate < 1` and aiolimiter admits nothing). C = 1
simply spaces admissions 1/r apart, and leaves the highest steady rate.

Two refinements, both measured on a loaded 2-core machine (bench/gateway.py):
- r = N / (1 + margin) rather than N - 1: the N+1 admissions a window would need then span
  1 + margin seconds, which is what absorbs network and scheduling jitter between our clock and
  Exa's (0.926 N steady at the default margin, where N - 1 gives only 0.9 N at N = 10). The
  largest jitter is systematic: the first request of a burst also opens a connection (35 ms to
  the simulator on a loaded machine, a TLS handshake to Exa), so it reaches the server late
  while the next ones, on warm connections, do not.
- aiolimiter's bucket never drains below empty, so a waiter woken late by a busy event loop is
  charged for the delay, and each late wake lowers the rate (0.84-0.89 N measured). `_CatchUp`
  lets the bucket drain up to `credit` tokens below empty, so the next admission makes up for
  the delay; it accrues only while requests wait, never from idle time. 40% of the margin goes
  to this credit (32 ms of lateness per request) and 60% stays for jitter (48 ms): any window
  still holds at most 1 + credit + r <= N admissions, and N+1 of them span 1.048 s or more.
"""

from __future__ import annotations

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

DEFAULT_MARGIN = 0.08
# The share of the margin spent on catching up late wake-ups; the rest absorbs jitter.
CATCH_UP_SHARE = 0.4


def family_of(path: str) -> str:
    """The endpoint family of an Exa API path (relative to the API base): websets, search, ..."""
    for prefix, family in _FAMILY_PREFIXES:
        if path == prefix or path.startswith(prefix + "/"):
            return family
    return "other"


class _CatchUp(AsyncLimiter):
    """AsyncLimiter whose bucket may drain `credit` tokens below empty (see the module doc)."""

    __slots__ = ("credit",)

    def __init__(self, max_rate: float, time_period: float, credit: float) -> None:
        super().__init__(max_rate, time_period)
        self.credit = credit

    def _leak(self) -> None:
        # aiolimiter 1.x's own _leak, except for the floor: below empty only while requests wait
        # (the lateness of a wake-up), never from idle time, which would allow a burst.
        now = self._loop.time()
        floor = -self.credit if self._waiters else min(self._level, 0.0)
        if self._level > floor:
            elapsed = now - self._last_check
            self._level = max(self._level - elapsed * self._rate_per_sec, floor)
        self._last_check = now


def window_safe_limiter(rps: float, margin: float = DEFAULT_MARGIN) -> AsyncLimiter:
    """A limiter that never admits more than `rps` requests in any 1-second window (see module doc).

    Capacity 1 (`AsyncLimiter(N*T/(1+T), T)` at its smallest valid T), rate N / (1 + margin),
    with a catch-up credit of CATCH_UP_SHARE of the margin.
    """
    if rps <= 0:
        raise ValueError(f"rps must be positive, got {rps}")
    if margin < 0:
        raise ValueError(f"margin must be >= 0, got {margin}")
    rate = rps / (1 + margin)
    # 1 + credit + rate <= rps keeps every window within N; jitter keeps the rest of the slack.
    credit = min(1.0, (rps - rate) * CATCH_UP_SHARE)
    return _CatchUp(1, 1 / rate, credit)


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
