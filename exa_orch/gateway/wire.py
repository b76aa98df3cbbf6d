"""The bottom of the gateway's stack: the connections, and what comes back turned into typed errors.

`Wire` sends an attempt on the real transport: connection pools whose connections check the lease
fence before each write (gateway/fencing.py), spread over several pools above REQUESTS_PER_POOL
requests at once (`Pools`), made at the first request. It reads the whole body of an answer
(except a streamed success's, which is returned as it starts) while the pacing layer above still
holds the attempt's slot, and notes a success's decoded body in the call (`Call.body`) for the
layers above. A status >= 400 or a transport failure becomes a typed error (`gateway/errors.py`),
wrapped in a `RetryableFailure` when `gateway/retry.py` allows another attempt (a create is never
re-sent after an ambiguous failure); a Retry-After it carries is noted in the call
(`Call.retry_after`) for the pacing layer, which holds every call of the family.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from typing import Any

import httpx

from exa_orch.gateway.calls import Call, call_of
from exa_orch.gateway.errors import error_from_exception, error_from_response
from exa_orch.gateway.fencing import FencedBackend
from exa_orch.gateway.retry import (
    PRE_SEND_ERRORS,
    RETRY_STATUSES,
    TRANSIENT_ERRORS,
    RetryableFailure,
    may_retry,
    parse_retry_after,
)
from exa_orch.gateway.stats import GatewayStats

logger = logging.getLogger("exa_orch.gateway")

# httpcore's pool does work quadratic in its connections at each request's start and end (1.0.9,
# connection_pool.py `_assign_requests_to_connections`, with a socket poll per idle connection), and
# past its 20 keep-alive connections it closes idle ones it will reopen: through one pool, a search
# 32 at once cost 2.4 x the client CPU of one 4 at once and 32 carried half the searches/s; over
# pools of 4, 1.2 x (bench/gateway.py, part 4). So above this many concurrent requests the gateway
# spreads them over several pools.
REQUESTS_PER_POOL = 4


class Wire(httpx.AsyncBaseTransport):
    """Sends each attempt and reads its answer (see the module doc)."""

    def __init__(
        self, stats: GatewayStats, concurrency: int, real: httpx.AsyncBaseTransport | None = None
    ) -> None:
        self._stats = stats
        self._concurrency = concurrency
        # The real transport is made at the first request: its TLS context (the CA bundle read and
        # parsed) is ~30 ms of a cold start that may never call Exa (bench/startup.py).
        self._real = real

    @property
    def real(self) -> httpx.AsyncBaseTransport:
        """The connections (`inner` when the gateway was given one: tests, benchmarks)."""
        if self._real is None:
            self._real = pooled_transport(self._concurrency)  # the fence checked again at the socket
        return self._real

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        call = call_of(request)
        stats = self._stats
        stats.attempts += 1
        stats.in_flight += 1
        stats.max_in_flight = max(stats.max_in_flight, stats.in_flight)
        try:
            try:
                response = await self.real.handle_async_request(request)
                if response.status_code < 400 and call.shape.streaming:
                    return response  # the caller reads the stream (metered above, if paid)
                raw = await _read_all(response)
            except httpx.TransportError as exc:
                raise self._transport_failure(call, exc) from exc
        finally:
            stats.in_flight -= 1
        logger.debug("%s %s -> %d", call.shape.method, call.shape.path, response.status_code)
        if raw is None:  # an in-process transport (tests) answered with a body already read
            raw = response.content
            if response.status_code < 400:
                call.body = raw
                return response
        if response.status_code < 400:
            call.body = _decoded(response.headers, raw)
            return httpx.Response(
                response.status_code,
                headers=response.headers,
                stream=_Buffered(raw),
                extensions=response.extensions,
            )
        raise self._status_failure(call, response, raw)

    def _transport_failure(self, call: Call, exc: httpx.TransportError) -> Exception:
        shape = call.shape
        error = error_from_exception(exc, method=shape.method, path=shape.path)
        if not isinstance(exc, TRANSIENT_ERRORS):
            return error
        pre_send = isinstance(exc, PRE_SEND_ERRORS)
        self._stats.failures_by_kind["timeout" if isinstance(exc, httpx.TimeoutException) else "drop"] += 1
        if may_retry(shape, "pre_send" if pre_send else "ambiguous"):
            return RetryableFailure(error)
        return error

    def _status_failure(self, call: Call, response: httpx.Response, raw: bytes) -> Exception:
        shape = call.shape
        status = response.status_code
        error = error_from_response(
            status,
            response.headers,
            _decoded(response.headers, raw),
            method=shape.method,
            path=shape.path,
            external_id=shape.external_id,
        )
        if status not in RETRY_STATUSES:
            return error
        self._stats.failures_by_kind[str(status)] += 1
        retry_after = getattr(error, "retry_after", None)
        if retry_after is None and status == 503:
            retry_after = parse_retry_after(response.headers.get("retry-after"))
        if retry_after:  # every call of this family waits, not only this one (the pacing layer)
            call.retry_after = retry_after
        if status == 429:
            return RetryableFailure(error, retry_after) if may_retry(shape, "rate_limited") else error
        return RetryableFailure(error, retry_after) if may_retry(shape, "ambiguous") else error

    async def aclose(self) -> None:
        if self._real is not None:
            await self._real.aclose()


class _Buffered(httpx.AsyncByteStream):
    """A response body already read off the wire (read while the attempt held its slot)."""

    def __init__(self, data: bytes) -> None:
        self._data = data

    async def __aiter__(self) -> AsyncIterator[bytes]:
        if self._data:
            yield self._data


def _decoded(headers: httpx.Headers, raw: bytes) -> bytes:
    """A body as sent (gzip, deflate, ...: we ask for them), decoded for reading."""
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


# -- the connections ---------------------------------------------------------------------------


def _fenced_transport(**kwargs: Any) -> httpx.AsyncHTTPTransport:
    """An `httpx.AsyncHTTPTransport(**kwargs)` whose connections check the lease fence before each
    write (gateway/fencing.py's FencedBackend). httpx takes no network backend, so its pool's is
    wrapped: httpcore 1.x's `_network_backend`."""
    transport = httpx.AsyncHTTPTransport(**kwargs)
    pool = transport._pool
    pool._network_backend = FencedBackend(pool._network_backend)
    return transport


class Pools(httpx.AsyncBaseTransport):
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


def pooled_transport(concurrency: int) -> httpx.AsyncBaseTransport:
    """The real transport for `concurrency` requests at once: one fenced pool per REQUESTS_PER_POOL,
    sharing one TLS context (each would read and parse the CA bundle again)."""
    count = -(-concurrency // REQUESTS_PER_POOL)
    if count == 1:
        return _fenced_transport(retries=0)
    tls = httpx.create_ssl_context()
    return Pools([_fenced_transport(retries=0, verify=tls) for _ in range(count)])
