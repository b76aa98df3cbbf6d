"""The fencing layer: a task whose lease may have lapsed sends nothing to Exa (gateway/fence.py).

`Fencing` checks the lease fence of the task a request is made for (its request context's) right
before each attempt goes on: every wait (pacing, a pool slot) is behind it, so a process stopped
while it queued finds its lease lapsed here. Past the fence it raises `LeaseLapsed`, unsent. It
names the request in the context (`sending`) while the attempt is under way, for the connections
below, which check the fence again right before each write (`FencedBackend`, `FencedStream`).
Requests made outside a task (no fence) are not fenced.
"""

from __future__ import annotations

import ssl
from collections.abc import Iterable
from typing import Any

import httpcore
import httpx
from httpcore._backends.base import SOCKET_OPTION as SocketOption

from exa_orch.gateway.calls import call_of
from exa_orch.gateway.context import current_request, request_scope


class Fencing(httpx.AsyncBaseTransport):
    """Checks the task's lease fence before each attempt (see the module doc)."""

    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self._inner = inner

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        fence = current_request().fence
        if fence is None:
            return await self._inner.handle_async_request(request)
        what = call_of(request).what
        fence.check(what)
        with request_scope(sending=what):
            return await self._inner.handle_async_request(request)

    async def aclose(self) -> None:
        await self._inner.aclose()


class FencedStream(httpcore.AsyncNetworkStream):
    """A connection that checks the current task's fence before each write.

    The fencing layer checks the fence before a request goes into httpx. Between that check and the
    request's bytes reaching the socket, httpcore may still wait for a connection, connect or
    do a TLS handshake. A process stopped in that gap would wake and send the create all the
    same, after another process made the object. So the check is made again here, at the last
    moment before the bytes leave, which narrows the gap to a few statements. A refusal
    mid-request (after the headers) closes the connection, so Exa acts on nothing."""

    def __init__(self, inner: httpcore.AsyncNetworkStream) -> None:
        self._inner = inner

    async def read(self, max_bytes: int, timeout: float | None = None) -> bytes:  # noqa: ASYNC109 (httpcore's)
        return await self._inner.read(max_bytes, timeout)

    async def write(self, buffer: bytes, timeout: float | None = None) -> None:  # noqa: ASYNC109 (httpcore's)
        scope = current_request()
        if scope.fence is not None:
            scope.fence.check(scope.sending or "the request")
        await self._inner.write(buffer, timeout)

    async def aclose(self) -> None:
        await self._inner.aclose()

    async def start_tls(
        self,
        ssl_context: ssl.SSLContext,
        server_hostname: str | None = None,
        timeout: float | None = None,  # noqa: ASYNC109 (httpcore's interface)
    ) -> httpcore.AsyncNetworkStream:
        return FencedStream(await self._inner.start_tls(ssl_context, server_hostname, timeout))

    def get_extra_info(self, info: str) -> Any:
        return self._inner.get_extra_info(info)


class FencedBackend(httpcore.AsyncNetworkBackend):
    """httpcore's network backend whose connections are `FencedStream`s."""

    def __init__(self, inner: httpcore.AsyncNetworkBackend) -> None:
        self._inner = inner

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,  # noqa: ASYNC109 (httpcore's interface)
        local_address: str | None = None,
        socket_options: Iterable[SocketOption] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        stream = await self._inner.connect_tcp(host, port, timeout, local_address, socket_options)
        return FencedStream(stream)

    async def connect_unix_socket(
        self,
        path: str,
        timeout: float | None = None,  # noqa: ASYNC109 (httpcore's interface)
        socket_options: Iterable[SocketOption] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        return FencedStream(await self._inner.connect_unix_socket(path, timeout, socket_options))

    async def sleep(self, seconds: float) -> None:
        await self._inner.sleep(seconds)
