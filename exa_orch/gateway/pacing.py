"""Pacing and retries: two layers of the gateway's stack, around each attempt of a call.

`Retrying` (outside) sends a call again after a `RetryableFailure` from below, as the retry policy
allows (gateway/retry.py: attempts, deadline, backoff never shorter than a Retry-After), and
raises the last error, its hint saying how many attempts were made. `Pacing` (inside, once per
attempt) waits out the family's Retry-After deadline, then takes a slot of the in-flight cap and
a token of the family's rate limiter (gateway/limits.py), so retries are capped and paced like
first attempts. It holds the slot until the attempt's answer is off the wire (the wire below reads
the whole body; a streamed success gives it back as it starts), and when an answer asked Exa's
callers to hold off (`Call.retry_after`) it holds every call of that family.

The slot is taken before the limiter token: a token taken first could be spent waiting for a
slot, and tokens released together by a slot would arrive at Exa as a burst.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import httpx
from tenacity import RetryCallState

from exa_orch.errors import RateLimited
from exa_orch.gateway.calls import Call, call_of
from exa_orch.gateway.limits import FamilyGate
from exa_orch.gateway.retry import CallShape, RetryableFailure, RetryPolicy
from exa_orch.gateway.stats import GatewayStats

logger = logging.getLogger("exa_orch.gateway")


class Retrying(httpx.AsyncBaseTransport):
    """Attempts a call until it succeeds, fails for good, or the policy gives up (module doc)."""

    def __init__(self, inner: httpx.AsyncBaseTransport, policy: RetryPolicy, stats: GatewayStats) -> None:
        self._inner = inner
        self._policy = policy
        self._stats = stats

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        # Most calls succeed at once: the first attempt runs outside tenacity, whose per-call
        # set-up costs more than the rest of the stack; a failure replays into the loop as its
        # first attempt, so attempt counts and waits are the same. (The deadline clock starts
        # after that first attempt.)
        try:
            return await self._inner.handle_async_request(request)
        except RetryableFailure as failure:
            first: RetryableFailure | None = failure
        retrying = self._policy.retrying(before_sleep=self._before_sleep(call_of(request)))
        try:
            async for attempt in retrying:
                with attempt:
                    if first is not None:
                        replay, first = first, None
                        raise replay
                    return await self._inner.handle_async_request(request)
        except RetryableFailure as failure:  # out of attempts or of time
            error = failure.error
            attempts = retrying.statistics.get("attempt_number", 1)
            error.hint = (error.hint + " " if error.hint else "") + f"(gave up after {attempts} attempts)"
            raise error from failure.__cause__
        raise AssertionError("unreachable: tenacity ends with a result or an exception")

    def _before_sleep(self, call: Call) -> Any:
        def hook(state: RetryCallState) -> None:
            self._stats.retries += 1
            failure = state.outcome.exception() if state.outcome else None
            what = failure.error.message if isinstance(failure, RetryableFailure) else repr(failure)
            wait = state.next_action.sleep if state.next_action else 0.0
            logger.info(
                "retrying %s in %.2fs (attempt %d failed: %s)", call.what, wait, state.attempt_number, what
            )

        return hook

    async def aclose(self) -> None:
        await self._inner.aclose()


class Pacing(httpx.AsyncBaseTransport):
    """The in-flight cap, the per-family rate limits and Retry-After holds (module doc)."""

    def __init__(
        self,
        inner: httpx.AsyncBaseTransport,
        *,
        concurrency: int,
        rps: float,
        margin: float,
        deadline: float,
        stats: GatewayStats,
    ) -> None:
        self._inner = inner
        self._slots = asyncio.Semaphore(concurrency)
        self._rps = rps
        self._margin = margin
        self._deadline = deadline  # the retry policy's: a longer Retry-After is not waited out
        self._gates: dict[str, FamilyGate] = {}
        self._stats = stats

    def gate(self, family: str) -> FamilyGate:
        """The pacing gate of an endpoint family (made on first use)."""
        gate = self._gates.get(family)
        if gate is None:
            gate = self._gates[family] = FamilyGate(family, self._rps, self._margin)
        return gate

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        call = call_of(request)
        gate = self.gate(call.shape.family)
        await self._enter(gate, call.shape)
        try:
            return await self._inner.handle_async_request(request)
        finally:
            self._slots.release()
            if call.retry_after:  # Exa asked every caller of this family to hold off
                gate.block(call.retry_after)
                call.retry_after = None

    async def _enter(self, gate: FamilyGate, shape: CallShape) -> None:
        """Wait out Retry-After, then take a slot and a rate token, re-checking the deadline.

        A Retry-After deadline further away than the retry policy's whole deadline is not waited
        out (a call must not hang for an hour because Exa said so): RateLimited at once, unsent.
        """
        while True:
            waited = False
            while (held := gate.remaining()) > 0:  # re-checked: another 429 may extend the hold
                if held > self._deadline:
                    raise RateLimited(
                        f"Exa rate limit: {gate.family} calls are held for another {held:.0f} s "
                        f"(Retry-After); {shape.method} {shape.path} was not sent.",
                        hint="Wait before calling again, or lower EXA_ORCH_RPS / EXA_ORCH_CONCURRENCY.",
                        retry_after=round(held, 3),
                        status=429,
                    )
                waited = True
                logger.info(  # an operator (and an MCP client at info) sees the throttling
                    "%s calls held %.1f s by Exa's Retry-After; %s %s waits",
                    gate.family,
                    held,
                    shape.method,
                    shape.path,
                )
                await asyncio.sleep(held)
            if waited:
                self._stats.retry_after_waits += 1
            await self._slots.acquire()
            try:
                if not gate.limiter.has_capacity():
                    self._stats.throttled_waits += 1
                    logger.debug("%s %s waits for the %s rate limit", shape.method, shape.path, gate.family)
                await gate.limiter.acquire()
            except BaseException:
                self._slots.release()
                raise
            if gate.remaining() <= 0:
                return
            # A 429 arrived while we queued: give the slot back and wait again.
            self._slots.release()

    async def aclose(self) -> None:
        await self._inner.aclose()
