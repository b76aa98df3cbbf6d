"""The governed transport: every request to Exa (and ArXiv Xplorer) passes through here.

`GovernedTransport` wraps a real `httpx.AsyncHTTPTransport` and, per request:
1. classifies it (endpoint family, object create, externalId, streamed) and adds to the copy it
   sends `exa-orch/<version>` in its User-Agent, `Exa-Beta: agent-2026-05-07` on an Agent API
   request (`gateway/agent_api.py`), and the API key (Exa-bound requests only; callers' request
   objects never hold the key): the key of the principal the request is made for (`gateway/keys.py`, read from the per-request
   scope), never another's; a 401 on a principal's own key forgets it (KeyRefused);
2. per attempt, inside a tenacity loop: waits out the family's Retry-After deadline, takes a
   semaphore slot (in-flight cap) and then a token from the family's rate limiter, so retries
   are capped and paced like first attempts; sends; reads the whole body while holding the slot
   (except for streamed successes, which are returned as they start);
3. turns statuses >= 400 and transport failures into typed errors (`gateway/errors.py`),
   retrying the transient ones as `gateway/retry.py` allows (a create is never re-sent after an
   ambiguous failure: `operations/_creates.py` looks its object up first, and owns the 409 that
   follows a retried create);
4. right before each attempt is sent, checks the lease fence of the task it is made for
   (`gateway/fence.py`): a task whose lease may have lapsed sends nothing (LeaseLapsed);
5. takes a slot of the team's capacity before an agent run or webset create (`gateway/pool.py`),
   binds the created object to it, and tells the pool what each answer shows of such objects;
6. hands each paid answer to the ledger (`gateway/ledger.py`) before returning it, so what Exa
   billed is in the store before anyone acts on the answer.

The slot is taken before the limiter token: a token taken first could be spent waiting for a
slot, and tokens released together by a slot would arrive at Exa as a burst.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import uuid
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
from tenacity import RetryCallState

from exa_orch import __version__
from exa_orch.config import Secret
from exa_orch.errors import CreditsExhausted, GatewayError, LeaseLapsed, RateLimited
from exa_orch.gateway import prices
from exa_orch.gateway.agent_api import with_beta
from exa_orch.gateway.caps import DailyCaps
from exa_orch.gateway.context import current_request
from exa_orch.gateway.errors import KeyRefused, error_from_exception, error_from_response
from exa_orch.gateway.fence import SENDING, FencedBackend, check_current
from exa_orch.gateway.keys import ApiKeys
from exa_orch.gateway.ledger import (
    Ledger,
    PaidAnswer,
    StreamCost,
    WebsetsSeen,
    capped_agent_body,
    capped_webset_body,
    created_run_id,
    created_searches,
    finished_searches,
    paid_answer,
    read_running,
    streamed_answer,
    webset_count_path,
    webset_estimates,
    worst_case,
)
from exa_orch.gateway.limits import DEFAULT_MARGIN, FamilyGate, family_of
from exa_orch.gateway.pool import RunPool, pooled
from exa_orch.gateway.purse import CURRENT_PURSE, SEARCH_WORK, BudgetReached, Purse
from exa_orch.gateway.retry import (
    PRE_SEND_ERRORS,
    RETRY_STATUSES,
    TRANSIENT_ERRORS,
    CallShape,
    RetryableFailure,
    RetryPolicy,
    may_retry,
    parse_retry_after,
    shape_of,
)

logger = logging.getLogger("exa_orch.gateway")
USER_AGENT = f"exa-orch/{__version__}"  # appended to each Exa request's User-Agent: who is calling


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


class _Buffered(httpx.AsyncByteStream):
    """A response body already read off the wire (the transport reads it while holding its slot)."""

    def __init__(self, data: bytes) -> None:
        self._data = data

    async def __aiter__(self) -> AsyncIterator[bytes]:
        if self._data:
            yield self._data


class _Metered(httpx.AsyncByteStream):
    """A streamed answer's body, read through a `StreamCost`; `done` runs once, when it is closed."""

    def __init__(self, response: httpx.Response, done: Callable[[StreamCost], Awaitable[None]]) -> None:
        self._response = response
        self._done: Callable[[StreamCost], Awaitable[None]] | None = done
        self._cost = StreamCost()

    async def __aiter__(self) -> AsyncIterator[bytes]:
        async for chunk in self._response.aiter_raw():
            self._cost.feed(chunk)
            yield chunk

    async def aclose(self) -> None:
        try:
            await self._response.aclose()
        finally:
            done, self._done = self._done, None
            if done is not None:
                self._cost.end()
                await done(self._cost)


@dataclass
class _Call:
    """One call's state across its attempts."""

    request: httpx.Request  # what is sent: the caller's request plus the key
    shape: CallShape
    key: Secret | None = None  # the key it carries (None: not an Exa request)
    key_of: str | None = None  # the principal whose own key that is (None: the operator's)
    source: httpx.Request | None = None  # the caller's request (its body is read; the copy's is a stream)
    pooled: tuple[str, str, str | None] | None = None  # (pool kind, create/read/delete, path id)
    slot: int | None = None  # the pool slot a create holds until its answer binds or frees it


def _url_prefix(url: str) -> tuple[str, str, int | None, str]:
    parsed = httpx.URL(url)
    return parsed.scheme, parsed.host, parsed.port, parsed.path.rstrip("/")


def _fenced_transport(**kwargs: Any) -> httpx.AsyncHTTPTransport:
    """An `httpx.AsyncHTTPTransport(**kwargs)` whose connections check the lease fence before each
    write (gateway/fence.py's FencedBackend). httpx takes no network backend, so its pool's is
    wrapped: httpcore 1.x's `_network_backend`."""
    transport = httpx.AsyncHTTPTransport(**kwargs)
    pool = transport._pool
    pool._network_backend = FencedBackend(pool._network_backend)
    return transport


# httpcore's pool does work quadratic in its connections at each request's start and end (1.0.9,
# connection_pool.py `_assign_requests_to_connections`, with a socket poll per idle connection), and
# past its 20 keep-alive connections it closes idle ones it will reopen: through one pool, a search
# 32 at once cost 2.4 x the client CPU of one 4 at once and 32 carried half the searches/s; over
# pools of 4, 1.2 x (bench/gateway.py, part 4). So above this many concurrent requests the gateway
# spreads them over several pools.
REQUESTS_PER_POOL = 4


class _Pools(httpx.AsyncBaseTransport):
    """Requests spread over several transports, each with its own connection pool: a request goes
    to the first pool with fewer than REQUESTS_PER_POOL responses open (else the least busy), so
    sparse calls keep reusing the first pool's warm connection. A response counts as open until
    its body is closed: a streamed one holds its connection while the caller reads it."""

    def __init__(self, pools: list[httpx.AsyncBaseTransport]) -> None:
        self.pools = pools
        self.open = [0] * len(pools)  # responses open on each pool

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        open_ = self.open
        index = next((i for i, n in enumerate(open_) if n < REQUESTS_PER_POOL), None)
        if index is None:
            index = open_.index(min(open_))
        open_[index] += 1
        try:
            response = await self.pools[index].handle_async_request(request)
        except BaseException:
            open_[index] -= 1
            raise
        if isinstance(response.stream, httpx.AsyncByteStream):
            response.stream = _Counted(response.stream, open_, index)
        else:  # a body already in memory: nothing holds the connection
            open_[index] -= 1
        return response

    async def aclose(self) -> None:
        for pool in self.pools:
            await pool.aclose()


class _Counted(httpx.AsyncByteStream):
    """A response body that takes itself off its pool's count of open responses when closed (once)."""

    def __init__(self, stream: httpx.AsyncByteStream, counts: list[int], index: int) -> None:
        self._inner, self._counts, self._index = stream, counts, index
        self._counted = True

    async def __aiter__(self) -> AsyncIterator[bytes]:
        async for chunk in self._inner:
            yield chunk

    async def aclose(self) -> None:
        try:
            await self._inner.aclose()
        finally:
            if self._counted:
                self._counted = False
                self._counts[self._index] -= 1


def _pooled_transport(concurrency: int) -> httpx.AsyncBaseTransport:
    """The real transport for `concurrency` requests at once: one fenced pool per REQUESTS_PER_POOL,
    sharing one TLS context (each would read and parse the CA bundle again)."""
    count = -(-concurrency // REQUESTS_PER_POOL)
    if count == 1:
        return _fenced_transport(retries=0)
    tls = httpx.create_ssl_context()
    return _Pools([_fenced_transport(retries=0, verify=tls) for _ in range(count)])


class GovernedTransport(httpx.AsyncBaseTransport):
    """Semaphore + per-family rate limits + retries + typed errors around a real transport."""

    def __init__(
        self,
        *,
        api_key: Secret | None | ApiKeys,
        exa_url: str,
        arxiv_url: str | None = None,
        concurrency: int = 3,
        rps: float = 10.0,
        retry: RetryPolicy | None = None,
        margin: float = DEFAULT_MARGIN,
        inner: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        if concurrency < 1:
            raise ValueError("concurrency must be at least 1")
        self.keys = api_key if isinstance(api_key, ApiKeys) else ApiKeys(api_key)
        self._exa = _url_prefix(exa_url)
        self._arxiv = _url_prefix(arxiv_url) if arxiv_url else None
        # The real transport is made at the first request: its TLS context (the CA bundle read and
        # parsed) is ~30 ms of a cold start that may never call Exa (bench/startup.py).
        self._real: httpx.AsyncBaseTransport | None = inner
        self._policy = retry or RetryPolicy()
        self._rps = rps
        self._margin = margin
        self._gates: dict[str, FamilyGate] = {}
        self._concurrency = concurrency
        self._slots = asyncio.Semaphore(concurrency)
        self.stats = GatewayStats()
        self._closed = False
        self.ledger: Ledger | None = None  # where paid answers are written (the app sets the store's)
        self.attempt_id = uuid.uuid4().hex  # this process's run, told apart from a crashed one's
        self.caps: DailyCaps | None = None  # per-principal daily caps (gateway/caps.py), if set
        self._websets_seen = WebsetsSeen()  # Websets work already estimated (gateway/ledger.py)
        self.pools: dict[str, RunPool] = {}  # the team's capacity (gateway/pool.py), by kind

    @property
    def _inner(self) -> httpx.AsyncBaseTransport:
        if self._real is None:
            self._real = _pooled_transport(self._concurrency)  # the fence checked again at the socket
        return self._real

    def __repr__(self) -> str:
        return f"<GovernedTransport concurrency={self._concurrency} rps={self._rps:g}>"

    @property
    def has_key(self) -> bool:
        """Whether the operator's key signs every request (False for a server started without one)."""
        return self.keys.operator is not None

    # -- classification -------------------------------------------------------------------

    def _locate(self, url: httpx.URL) -> tuple[str, str, bool]:
        """(family, path relative to its API base, whether it goes to Exa and so gets the key)."""
        path = url.path
        for prefix, is_exa in ((self._arxiv, False), (self._exa, True)):
            if prefix is None:
                continue
            scheme, host, port, base = prefix
            if (url.scheme, url.host, url.port) != (scheme, host, port):
                continue
            if path == base or path.startswith(base + "/") or not base:
                rel = path[len(base) :] or "/"
                return ("arxiv" if not is_exa else family_of(rel)), rel, is_exa
        return "other", path, False

    def _outgoing(self, request: httpx.Request, to_exa: bool, shape: CallShape) -> _Call:
        """The call to send: a copy of the request with the key of the principal it is made for, so
        the caller's object never carries it. No key for that principal: MissingApiKey, unsent."""
        headers = request.headers.copy()
        key: Secret | None = None
        key_of: str | None = None
        if to_exa:
            key, key_of = self.keys.lookup(current_request().principal)
            headers["x-api-key"] = key.reveal()
            headers["user-agent"] = f"{headers.get('user-agent', '')} {USER_AGENT}".strip()
            if shape.family == "agent":
                headers["exa-beta"] = with_beta(headers.get("exa-beta"))
        else:
            headers.pop("x-api-key", None)
        capped = self._capped(request, shape) if to_exa else None
        if capped is not None:  # a metered agent run, sent with the task's remaining budget as its cap
            headers.pop("content-length", None)
            copy = httpx.Request(
                request.method, request.url, headers=headers, content=capped, extensions=request.extensions
            )
            return _Call(copy, shape, key, key_of, copy)
        copy = httpx.Request(
            request.method, request.url, headers=headers, stream=request.stream, extensions=request.extensions
        )
        return _Call(copy, shape, key, key_of, request)

    @staticmethod
    def _capped(request: httpx.Request, shape: CallShape) -> bytes | None:
        """The body of a create for a task with a budget, capped at what it has left: an agent run's
        `budget.maxCostDollars`, a webset search's `count` (the items it affords at the estimate;
        none affordable: BudgetReached, unsent)."""
        if shape.method != "POST":
            return None
        agent = shape.path.rstrip("/") == "/agent/runs"
        if not agent and not webset_count_path(shape.path):
            return None
        purse = CURRENT_PURSE.get()
        remaining = purse.remaining if purse is not None else None
        if purse is None or remaining is None:
            return None
        try:
            content = request.content
        except httpx.RequestNotRead:
            return None
        if agent:
            return capped_agent_body(content, remaining)
        capped, affords = capped_webset_body(shape.path, content, remaining)
        if affords < 1:
            each = prices.WEBSET_ITEM_ESTIMATE
            purse.stop(
                BudgetReached(purse.task_id, purse.budget or 0.0, purse.spent, each, "a webset search")
            )
            assert purse.stopped is not None
            raise purse.stopped
        return capped

    def gate(self, family: str) -> FamilyGate:
        """The pacing gate of an endpoint family (made on first use)."""
        gate = self._gates.get(family)
        if gate is None:
            gate = self._gates[family] = FamilyGate(family, self._rps, self._margin)
        return gate

    # -- the request path -----------------------------------------------------------------

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if self._closed:
            raise RuntimeError("the gateway's transport is closed")
        self.stats.calls += 1
        family, path, to_exa = self._locate(request.url)
        call = self._outgoing(request, to_exa, shape_of(request, path, family))
        if to_exa and self.pools:
            call.pooled = pooled(call.shape.method, path)
        held = None
        try:
            if self.caps is not None and to_exa:  # a principal's daily cap: BUDGET_EXCEEDED, unsent
                principal = current_request().principal
                purse = CURRENT_PURSE.get()
                if purse is not None:  # the task's runs under way (a resumed task's too) are held
                    for run_id, worst in purse.runs.items():
                        self.caps.hold_run(principal, run_id, worst)
                held = await self.caps.reserve(principal, self._worst(call))
            if call.pooled is not None and call.pooled[1] == "create" and not call.shape.streaming:
                scope = current_request()  # a slot of the team's capacity first (gateway/pool.py)
                call.slot = await self.pools[call.pooled[0]].acquire(scope.principal, scope.task_id)
            return await self._run(call)
        except GatewayError as exc:
            self.stats.errors_by_kind[str(exc.code)] += 1
            logger.debug("%s %s failed: %s (%s)", call.shape.method, call.shape.path, exc.code, exc.message)
            if exc.status == 404 and call.pooled is not None and call.pooled[1] != "create":
                scope = current_request()
                self.pools[call.pooled[0]].observe(str(call.pooled[2]), None, scope.principal, scope.task_id)
            raise
        finally:
            if held is not None and self.caps is not None:
                self.caps.release(held)
            if call.slot is not None:  # the create made nothing (refused, or its answer was lost)
                self.pools[call.pooled[0] if call.pooled else "agent"].release(call.slot)

    async def _run(self, call: _Call) -> httpx.Response:
        # Most calls succeed at once: the first attempt runs outside tenacity, whose per-call
        # set-up costs more than the rest of the transport; a failure replays into the loop as
        # its first attempt, so attempt counts and waits are the same. (The deadline clock
        # starts after that first attempt.)
        try:
            return await self._attempt(call)
        except RetryableFailure as failure:
            first: RetryableFailure | None = failure
        retrying = self._policy.retrying(before_sleep=self._before_sleep(call))
        try:
            async for attempt in retrying:
                with attempt:
                    if first is not None:
                        replay, first = first, None
                        raise replay
                    return await self._attempt(call)
        except RetryableFailure as failure:  # out of attempts or of time
            error = failure.error
            attempts = retrying.statistics.get("attempt_number", 1)
            error.hint = (error.hint + " " if error.hint else "") + f"(gave up after {attempts} attempts)"
            raise error from failure.__cause__
        raise AssertionError("unreachable: tenacity ends with a result or an exception")

    def _before_sleep(self, call: _Call) -> Any:
        def hook(state: RetryCallState) -> None:
            self.stats.retries += 1
            failure = state.outcome.exception() if state.outcome else None
            what = failure.error.message if isinstance(failure, RetryableFailure) else repr(failure)
            wait = state.next_action.sleep if state.next_action else 0.0
            logger.info(
                "retrying %s %s in %.2fs (attempt %d failed: %s)",
                call.shape.method,
                call.shape.path,
                wait,
                state.attempt_number,
                what,
            )

        return hook

    async def _enter(self, gate: FamilyGate, shape: CallShape) -> None:
        """Wait out Retry-After, then take a slot and a rate token, re-checking the deadline.

        A Retry-After deadline further away than the retry policy's whole deadline is not waited
        out (a call must not hang for an hour because Exa said so): RateLimited at once, unsent.
        """
        while True:
            waited = False
            while (held := gate.remaining()) > 0:  # re-checked: another 429 may extend the hold
                if held > self._policy.deadline:
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
                self.stats.retry_after_waits += 1
            await self._slots.acquire()
            try:
                if not gate.limiter.has_capacity():
                    self.stats.throttled_waits += 1
                    logger.debug("%s %s waits for the %s rate limit", shape.method, shape.path, gate.family)
                await gate.limiter.acquire()
            except BaseException:
                self._slots.release()
                raise
            if gate.remaining() <= 0:
                return
            # A 429 arrived while we queued: give the slot back and wait again.
            self._slots.release()

    async def _attempt(self, call: _Call) -> httpx.Response:
        shape = call.shape
        await self._enter(self.gate(shape.family), shape)
        # Checked last, after every wait: a process stopped while it queued (or before this call)
        # may have lost its task's lease, and another process may have made the object already.
        purse = CURRENT_PURSE.get() if call.key is not None else None
        held = 0.0
        try:
            check_current(f"{shape.method} {shape.path}")
            if purse is not None:  # a 402 or the budget stops the task's requests here, unsent
                held = purse.reserve(self._worst(call), f"{shape.method} {shape.path}")
        except BaseException:
            self._slots.release()
            raise
        sending = SENDING.set(f"{shape.method} {shape.path}")
        try:
            return await self._send(call, purse, held)
        except BaseException as exc:
            if purse is not None:
                if isinstance(exc, CreditsExhausted):
                    purse.stop(exc)  # nothing more is sent for this task
                # A refused request was not billed (nor one the fence stopped at the socket); one
                # that may have reached Exa counts its worst.
                unsent = isinstance(exc, LeaseLapsed) or isinstance(exc, GatewayError) and exc.status
                purse.settle(held, 0.0 if unsent else None)
            raise
        finally:
            SENDING.reset(sending)

    @staticmethod
    def _worst(call: _Call) -> float:
        try:
            content = (call.source or call.request).content
        except httpx.RequestNotRead:  # a streamed upload: nothing to price it by
            content = b""
        return worst_case(call.shape.method, call.shape.path, content)

    async def _send(self, call: _Call, purse: Purse | None, held: float) -> httpx.Response:
        shape = call.shape
        stats = self.stats
        stats.attempts += 1
        stats.in_flight += 1
        stats.max_in_flight = max(stats.max_in_flight, stats.in_flight)
        try:
            try:
                response = await self._inner.handle_async_request(call.request)
                if response.status_code < 400 and shape.streaming:
                    # The caller reads the stream; it can't hold a slot meanwhile. A paid stream
                    # (an answer) is metered as it passes and recorded when it ends.
                    return self._metered(call, response, purse, held)
                raw = await _read_all(response)
                in_memory = raw is None
            except httpx.TransportError as exc:
                raise self._transport_failure(call, exc) from exc
        finally:
            stats.in_flight -= 1
            self._slots.release()
        logger.debug("%s %s -> %d", shape.method, shape.path, response.status_code)
        if in_memory:  # an in-process transport (tests) answered with a body already read
            raw = response.content
            if response.status_code < 400:
                if call.pooled is not None:
                    self._pool_answer(call, raw)
                await self._account(call, raw, purse, held)
                return response
        assert raw is not None
        if response.status_code < 400:
            body = _decoded(response.headers, raw)
            if call.pooled is not None:
                self._pool_answer(call, body)
            await self._account(call, body, purse, held)
            return httpx.Response(
                response.status_code,
                headers=response.headers,
                stream=_Buffered(raw),
                extensions=response.extensions,
            )
        raise self._status_failure(call, response, raw)

    def _pool_answer(self, call: _Call, body: bytes) -> None:
        """Tell the pool what a successful answer says: the object a create made (bound to its
        slot), the status a get or cancel shows, a delete."""
        assert call.pooled is not None
        kind, action, path_id = call.pooled
        pool = self.pools[kind]
        scope = current_request()
        if action == "delete":
            pool.observe(str(path_id), None, scope.principal, scope.task_id)
            return
        try:
            answer = json.loads(body) if body else None
        except ValueError:
            answer = None
        obj_id = answer.get("id") if isinstance(answer, dict) else None
        status = answer.get("status") if isinstance(answer, dict) else None
        if not isinstance(obj_id, str):
            return
        if action == "create":
            if call.slot is not None:
                pool.bind(call.slot, obj_id)
                call.slot = None
            if isinstance(status, str):
                pool.observe(obj_id, status, scope.principal, scope.task_id)
        elif isinstance(status, str):
            pool.observe(obj_id, status, scope.principal, scope.task_id)

    def _metered(
        self, call: _Call, response: httpx.Response, purse: Purse | None, held: float
    ) -> httpx.Response:
        """A streamed answer whose cost is written to the ledger (and settled in the task's purse)
        when its stream ends, from the event that carries it (`ledger.StreamCost`)."""
        if (
            call.key is None
            or call.shape.path.rstrip("/") != "/answer"
            or response.headers.get("content-encoding")
        ):
            if purse is not None:
                purse.settle(held, None)
            return response
        scope = current_request()
        header_id = response.headers.get("x-request-id")
        transport = self

        async def done(cost: StreamCost) -> None:
            paid = streamed_answer(call.shape.path, cost, header_id, scope, transport.attempt_id)
            if purse is not None:
                purse.settle(held, paid.usd)
            if transport.caps is not None:
                transport.caps.add(paid.principal, paid.usd)
            if transport.ledger is not None:
                try:
                    await transport.ledger(paid)
                except Exception as exc:
                    logger.warning("could not record the cost of a streamed answer: %s", exc)

        return httpx.Response(
            response.status_code,
            headers=response.headers,
            stream=_Metered(response, done),
            extensions=response.extensions,
        )

    async def _account(self, call: _Call, body: bytes, purse: Purse | None, held: float) -> None:
        """Write what an Exa answer cost to the ledger (a failed write is logged: the answer was
        paid for either way, and failing the call would only make it be sent, and paid, again)."""
        if call.key is None:
            return
        scope = current_request()
        paid = paid_answer(call.shape.path, body, scope, self.attempt_id)
        rows = [paid] if paid is not None else []
        rows += webset_estimates(call.shape.path, body, scope, self.attempt_id, self._websets_seen)
        # Costs the task counted already (the ledger's, for a resumed task): not added to a cap again.
        known = (
            {r.key for r in rows if r.key in purse.estimated or r.key in purse.counted_runs}
            if purse is not None and self.caps is not None
            else set()
        )
        if purse is not None:
            self._settle(purse, call, body, held, paid)
        if self.caps is not None:
            self._cap_runs(call, body, scope.principal, rows)
        finished = finished_searches(call.shape.path, body) if purse is not None and purse.searches else []
        for row in rows:
            if purse is not None and not row.billed:
                purse.accrue(row.key, row.usd, prices.WEBSET_ITEM_ESTIMATE)
            elif purse is not None and row.step_key is not None and row.step_key in purse.paid_steps:
                row = dataclasses.replace(row, resend=True)  # a step an earlier run paid in, sent again
            if (
                self.caps is not None
                and row.key not in known
                and not self.caps.seeded(row.principal, row.key)
            ):
                if row.operation == "agent.run":
                    self.caps.run_finished(row.principal, row.key.removeprefix("agent_run:"), row.usd)
                else:
                    if row.key.startswith(SEARCH_WORK):
                        self.caps.item_found(row.key.split(":")[1], row.usd)
                    self.caps.add(row.principal, row.usd)
            if self.ledger is None:
                continue
            try:
                await self.ledger(row)
            except Exception as exc:
                logger.warning(
                    "could not record the cost of %s %s: %s", call.shape.method, call.shape.path, exc
                )
        for search_id in finished:  # after its last items counted: what it did not find is freed
            assert purse is not None
            purse.search_finished(search_id)
        if self.caps is not None and self.caps.holds_searches:
            for search_id in finished_searches(call.shape.path, body):
                self.caps.search_finished(search_id)

    def _cap_runs(self, call: _Call, body: bytes, principal: str | None, rows: list[PaidAnswer]) -> None:
        """Hold in the principal's daily cap the agent run a create made (its worst case, until its
        final state), or one a read shows under way that no hold covers (made before a restart)."""
        assert self.caps is not None
        if call.shape.method == "POST":
            created = created_run_id(call.shape.path, body)
            if created is not None:
                self.caps.hold_run(principal, created, self._worst(call))
            searches = created_searches(call.shape.path, body)
            if searches:
                self.caps.hold_search(principal, searches[0], self._worst(call))
        elif call.shape.method == "GET":
            runs, searches_running = read_running(call.shape.path, body)
            for run_id, worst in runs.items():
                self.caps.hold_run(principal, run_id, worst)
            for search_id, search in searches_running.items():  # made before a restart
                # Its items this answer shows for the first time draw from the hold (the rows loop).
                new = sum(
                    1
                    for r in rows
                    if r.key.startswith(f"webset_item:{search_id}:")
                    and not self.caps.seeded(principal, r.key)
                )
                left = max(0, search.count - search.found + new) * search.per_item
                self.caps.hold_search(principal, search_id, left)

    @staticmethod
    def _settle(purse: Purse, call: _Call, body: bytes, held: float, paid: PaidAnswer | None) -> None:
        """Count an answer against the task's purse: what Exa billed, else the worst case held. An
        agent run's create holds its worst case until its final state says what it cost."""
        if paid is not None and paid.operation == "agent.run":
            purse.run_finished(paid.key.removeprefix("agent_run:"), paid.usd)
            purse.settle(held, 0.0)
            return
        if call.shape.method == "GET":  # work an earlier run of the task left running: held again
            echoed: set[str] = set()
            running_runs, running_searches = read_running(call.shape.path, body, echoed)
            for run_id, worst in running_runs.items():
                purse.hold_run(run_id, worst, exact=run_id in echoed)
            for search_id, search in running_searches.items():
                purse.hold_search(search_id, search.left(purse.estimated, search_id))
        created = created_run_id(call.shape.path, body) if call.shape.method == "POST" else None
        if created is not None:
            purse.runs[created] = held
        searches = created_searches(call.shape.path, body) if call.shape.method == "POST" else []
        if searches:  # a webset search holds its count's estimate until it finishes (Purse.accrue)
            purse.search_started(searches[0], held)
        elif held and paid is None and webset_count_path(call.shape.path):
            purse.settle(held, 0.0)  # no search started: nothing to hold
            return
        purse.settle(held, paid.usd if paid is not None else None)

    def _transport_failure(self, call: _Call, exc: httpx.TransportError) -> Exception:
        shape = call.shape
        error = error_from_exception(exc, method=shape.method, path=shape.path)
        if not isinstance(exc, TRANSIENT_ERRORS):
            return error
        pre_send = isinstance(exc, PRE_SEND_ERRORS)
        self.stats.failures_by_kind["timeout" if isinstance(exc, httpx.TimeoutException) else "drop"] += 1
        if may_retry(shape, "pre_send" if pre_send else "ambiguous"):
            return RetryableFailure(error)
        return error

    def _status_failure(self, call: _Call, response: httpx.Response, raw: bytes) -> Exception:
        shape = call.shape
        status = response.status_code
        body = _decoded(response.headers, raw)
        error = error_from_response(
            status,
            response.headers,
            body,
            method=shape.method,
            path=shape.path,
            external_id=shape.external_id,
        )
        if status == 401 and call.key_of is not None and call.key is not None:
            # A key a principal gave, refused: forget it (the face asks again), for that one alone.
            self.keys.refused(call.key_of, call.key)
            return KeyRefused(call.key_of, error)
        if status not in RETRY_STATUSES:
            return error
        self.stats.failures_by_kind[str(status)] += 1
        retry_after = getattr(error, "retry_after", None)
        if retry_after is None and status == 503:
            retry_after = parse_retry_after(response.headers.get("retry-after"))
        if retry_after:
            # Every call of this family waits, not only this one: Exa asked us all to hold off.
            self.gate(shape.family).block(retry_after)
        if status == 429:
            return RetryableFailure(error, retry_after) if may_retry(shape, "rate_limited") else error
        return RetryableFailure(error, retry_after) if may_retry(shape, "ambiguous") else error

    async def aclose(self) -> None:
        """Close the pooled connections; idempotent (several clients share this transport)."""
        if not self._closed:
            self._closed = True
            if self._real is not None:
                await self._real.aclose()


def _decoded(headers: httpx.Headers, raw: bytes) -> bytes:
    """An error body as sent (gzip, deflate, ...: we ask for them), decoded for reading."""
    if not raw or not headers.get("content-encoding"):
        return raw
    try:
        return httpx.Response(200, headers=headers, content=raw).read()
    except httpx.DecodingError:
        return raw


async def _read_all(response: httpx.Response) -> bytes | None:
    """The raw (undecoded) body, or None when it was read already; the response is closed either way."""
    if response.is_stream_consumed:
        return None
    try:
        return b"".join([chunk async for chunk in response.aiter_raw()])
    finally:
        await response.aclose()
