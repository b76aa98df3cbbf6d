"""Lease fencing at the Exa boundary: a task whose lease may have lapsed sends nothing to Exa.

The store fences writes (a step is saved only by the lease holder), but a request to Exa is not a
write the store sees. A process stopped (SIGSTOP, a VM pause, a long GC) between a create's
find-first lookup and the create itself would, once woken, send the create although its lease
lapsed meanwhile and another process has made the object already: a duplicate at Exa.

So the runtime gives each running task a `LeaseFence` (its lease's validity on this process's
monotonic clock, which keeps running while the process is stopped) and sets it in the task's
request context (gateway/context.py) in the task's asyncio task; child tasks inherit it, and
renewals update the same object. The gateway's fencing layer (gateway/fencing.py) calls `check()`
right before each attempt is sent: past the fence it raises `LeaseLapsed` (a `LeaseHeld`, which
the actor treats as a lost lease) and sends nothing; its connections check again right before
each write (`FencedStream`), so a stop while httpx still connects sends nothing either. Requests
made outside a task (no fence set) are not fenced.

The fence lives in the gateway (a port) so the transport needs nothing from the runtime above it.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from exa_orch.errors import LeaseLapsed

# The longest margin kept before a lease's end. The lease's real end (as other processes see it)
# is at least the renewal's start + TTL, since the store stamps its expiry after that start; the
# margin covers what happens after the check and before Exa acts on the request (connect, write,
# the request crossing the network) and modest clock-rate differences between hosts. A short TTL
# (tests) gets a quarter of it, so a fresh lease is never fenced at once.
MAX_MARGIN_S = 2.0


def margin_for(ttl_s: float) -> float:
    """The safety margin for a lease of `ttl_s`: min(MAX_MARGIN_S, ttl_s / 4)."""
    return min(MAX_MARGIN_S, ttl_s / 4)


class LeaseFence:
    """One task's lease validity on a monotonic clock; `check()` refuses once too little is left.

    `valid_until` is a time on `clock` (time.monotonic unless a test passes its own), set by the
    runtime at the claim and at each renewal to the renewal's start + TTL."""

    __slots__ = ("task_id", "valid_until", "margin", "clock", "tripped")

    def __init__(
        self,
        task_id: str,
        valid_until: float,
        *,
        margin: float = MAX_MARGIN_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.task_id = task_id
        self.valid_until = valid_until
        self.margin = margin
        self.clock = clock
        # The first refusal: the runtime ends the task's run as a lost lease even if the workflow
        # caught or wrapped the error (a step that records a failed create and goes on, say).
        self.tripped: LeaseLapsed | None = None

    def extend(self, valid_until: float) -> None:
        """A renewal that started at `valid_until - TTL` succeeded; never moves the fence back."""
        self.valid_until = max(self.valid_until, valid_until)

    def remaining(self) -> float:
        """Seconds of lease validity left (negative once it has lapsed)."""
        return self.valid_until - self.clock()

    def check(self, what: str) -> None:
        """Raise LeaseLapsed unless more than `margin` seconds of the lease remain; `what` names the
        request that would be sent."""
        left = self.remaining()
        if left <= self.margin:
            error = LeaseLapsed(self.task_id, what, left)
            if self.tripped is None:
                self.tripped = error
            raise error
