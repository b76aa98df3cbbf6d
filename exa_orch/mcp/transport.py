"""Serving the MCP server over stdio or streamable HTTP, with a clean stop.

Contract of `serve`: open the App, serve until the client leaves (stdin EOF), SIGTERM or SIGINT,
then close the App (actors stop at a safe point, leases are released) and return 0. Start-up
problems (no EXA_API_KEY for real Exa, a non-loopback bind without EXA_ORCH_HTTP_TOKEN) raise
ConfigError before anything is opened. Logs go to stderr; on stdio, stdout is the MCP stream.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import ipaddress
import json
import logging
import os
import signal
import socket
import stat
import sys
from collections.abc import Awaitable, Callable, MutableMapping
from pathlib import Path
from typing import Any, cast

import anyio
import mcp_types as types
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage
from pydantic import ValidationError

from exa_orch.config import Secret, Settings
from exa_orch.errors import ConfigError
from exa_orch.mcp.app import open_app
from exa_orch.mcp.server import ExaOrchServer, build_server

log = logging.getLogger(__name__)

Scope = MutableMapping[str, Any]
ASGIApp = Callable[[Scope, Callable[[], Awaitable[Any]], Callable[[Any], Awaitable[None]]], Awaitable[None]]
_LINE_LIMIT = 64 * 1024 * 1024  # one JSON-RPC message per line; agents may send large args


def is_loopback(host: str) -> bool:
    """True for 127.0.0.0/8, ::1 and localhost."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def check_bind(settings: Settings, host: str) -> None:
    """Refuse a bind beyond loopback unless a bearer token is configured."""
    if not is_loopback(host) and not settings.http_token:
        raise ConfigError(
            f"refusing to serve MCP over HTTP on {host}: binding beyond loopback needs a bearer token",
            hint="Set EXA_ORCH_HTTP_TOKEN to a long random secret (clients then send "
            "'Authorization: Bearer <token>'), or keep the default --host 127.0.0.1.",
        )


def serve(settings: Settings, *, db_path: Path, http: bool, host: str, port: int) -> int:
    """Run the server to completion; 0 on a clean stop (see module docstring)."""
    settings.require_api_key()
    if http:
        check_bind(settings, host)
    return asyncio.run(_main(settings, db_path, http, host, port))


async def _main(settings: Settings, db_path: Path, http: bool, host: str, port: int) -> int:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    try:
        async with open_app(settings, db_path) as app:
            server = build_server(app)
            if http:
                await _serve_http(server, settings, host, port, stop)
            else:
                await _serve_stdio(server, stop)
            log.info("stopping: closing the runtime, gateway and store")
    finally:
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.remove_signal_handler(sig)
    log.info("exa-orch stopped")
    return 0


# ---------------------------------------------------------------------------------- stdio


Reject = Callable[[types.JSONRPCError], Awaitable[None]]


def _unreadable_request_error(line: str) -> types.JSONRPCError | None:
    """The error a request the SDK can't read gets, or None (valid, or no request id to answer).

    The SDK drops a line that fails its JSON-RPC validation (JSON nested deeper than its parser
    goes, a lone surrogate escape, params that are not an object, ...) without a word, so the
    client would wait forever: a request whose id can still be read is answered here instead.
    """
    try:
        types.jsonrpc_message_adapter.validate_json(line, by_name=False)
        return None
    except ValidationError as exc:
        errors = exc.errors(include_url=False, include_input=False)
    try:
        message = json.loads(line)
    except (ValueError, RecursionError):
        return None
    if not isinstance(message, dict) or "method" not in message:
        return None
    rid = message.get("id")
    if isinstance(rid, bool) or not isinstance(rid, int | str):
        return None  # a notification, or an id no client could be waiting on
    # A request's own complaints (the union's other members complain about what a request lacks).
    mine = [e for e in errors if e["loc"][:1] == ("JSONRPCRequest",)] or errors[:1]
    parts = [
        ".".join(str(p) for p in e["loc"][1:]) + ": " + e["msg"] if e["loc"][1:] else e["msg"] for e in mine
    ]
    unparsed = any(e["type"] == "json_invalid" for e in mine)
    code, what = (
        (types.PARSE_ERROR, "Parse error") if unparsed else (types.INVALID_REQUEST, "Invalid request")
    )
    return types.JSONRPCError(
        jsonrpc="2.0", id=rid, error=types.ErrorData(code=code, message=f"{what}: {'; '.join(parts)[:300]}")
    )


class _AsyncLines:
    """stdin as an async iterator of lines on the event loop (cancellable, unlike a thread read).

    `reject`, once set, receives the error for each request the SDK would drop unanswered."""

    def __init__(self, reader: asyncio.StreamReader) -> None:
        self._reader = reader
        self.reject: Reject | None = None

    def __aiter__(self) -> _AsyncLines:
        return self

    async def __anext__(self) -> str:
        try:
            line = await self._reader.readline()
        except ValueError:  # a line beyond the limit: drop it, the peer gets no answer for it
            log.warning("dropped an over-long stdin line")
            return "\n"
        if not line:
            raise StopAsyncIteration
        text = line.decode("utf-8", errors="replace")
        if self.reject is not None and text.strip():
            try:
                error = _unreadable_request_error(text)
            except Exception:  # never let the check cost the connection
                log.exception("checking a stdin line failed")
                error = None
            if error is not None:
                log.info("answered an unreadable request %r: %s", error.id, error.error.message)
                await self.reject(error)
        return text


async def _stdin_lines() -> _AsyncLines | None:
    loop = asyncio.get_running_loop()
    fd = sys.stdin.fileno()
    mode = os.fstat(fd).st_mode
    if not (stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) or os.isatty(fd)):
        # A regular file or a device such as /dev/null: epoll can't watch it (connect_read_pipe
        # accepts /dev/null, then never reports its EOF and the server never stops), so the SDK's
        # thread reader reads it.
        return None
    reader = asyncio.StreamReader(limit=_LINE_LIMIT)
    pipe = os.fdopen(os.dup(fd), "rb", buffering=0)
    try:
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), pipe)
    except (ValueError, OSError):  # a regular file: fall back to the SDK's thread reader
        pipe.close()
        return None
    return _AsyncLines(reader)


async def _serve_stdio(server: ExaOrchServer, stop: asyncio.Event) -> None:
    lines = await _stdin_lines()
    async with anyio.create_task_group() as tg:

        async def on_stop() -> None:
            await stop.wait()
            log.info("signal received: stopping the stdio server")
            tg.cancel_scope.cancel()

        tg.start_soon(on_stop)
        async with stdio_server(stdin=cast(Any, lines)) as (read_stream, write_stream):
            if lines is not None:

                async def reject(error: types.JSONRPCError) -> None:
                    with contextlib.suppress(anyio.ClosedResourceError, anyio.BrokenResourceError):
                        await write_stream.send(SessionMessage(error))

                lines.reject = reject
            log.info("serving MCP over stdio (profile %s)", server.profile)
            await server.run(read_stream, write_stream, server.create_initialization_options())
        log.info("stdin closed: stopping")
        tg.cancel_scope.cancel()


# ---------------------------------------------------------------------------------- HTTP


class BearerAuth:
    """ASGI wrapper: every HTTP request must carry `Authorization: Bearer <token>`."""

    def __init__(self, app: ASGIApp, token: Secret) -> None:
        self.app = app
        self._expected = token.reveal().encode()

    def _authorized(self, header: bytes) -> bool:
        # The auth scheme is case-insensitive (RFC 9110 section 11.1): "bearer x" is "Bearer x".
        scheme, _, given = header.strip().partition(b" ")
        return scheme.lower() == b"bearer" and hmac.compare_digest(given.strip(), self._expected)

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            if not self._authorized(dict(scope.get("headers") or []).get(b"authorization", b"")):
                body = json.dumps(
                    {"error": "unauthorized: send 'Authorization: Bearer <EXA_ORCH_HTTP_TOKEN>'"}
                ).encode()
                await send(
                    {
                        "type": "http.response.start",
                        "status": 401,
                        "headers": [
                            (b"content-type", b"application/json"),
                            (b"www-authenticate", b"Bearer"),
                            (b"content-length", str(len(body)).encode()),
                        ],
                    }
                )
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)


def _bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host.strip("[]") else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host.strip("[]"), port))
    except OSError as exc:
        sock.close()
        raise ConfigError(
            f"cannot listen on {host}:{port}: {exc.strerror or exc}",
            hint="Pick another --port (0 picks a free one).",
        ) from None
    sock.set_inheritable(True)
    return sock


async def _serve_http(
    server: ExaOrchServer, settings: Settings, host: str, port: int, stop: asyncio.Event
) -> None:
    import uvicorn

    starlette_app = server.streamable_http_app(host=host)
    asgi: Any = BearerAuth(starlette_app, settings.http_token) if settings.http_token else starlette_app
    sock = _bind(host, port)
    actual = sock.getsockname()[1]
    shown = f"[{host.strip('[]')}]" if ":" in host else host
    url = f"http://{shown}:{actual}/mcp"
    config = uvicorn.Config(
        asgi,
        log_level="warning",
        access_log=False,
        lifespan="on",
        timeout_graceful_shutdown=3,
        log_config=None,  # uvicorn's loggers propagate to ours: stderr, redacted
    )
    userver = uvicorn.Server(config)

    async def on_stop() -> None:
        await stop.wait()
        userver.should_exit = True

    watcher = asyncio.create_task(on_stop())
    try:
        # stdout is free in HTTP mode: print the URL once, like `exa-orch sim` does, for scripts.
        print(f"EXA_ORCH_MCP_URL={url}", flush=True)
        log.info("serving MCP over streamable HTTP at %s (profile %s)", url, server.profile)
        # uvicorn handles SIGINT/SIGTERM itself while serving (it sets should_exit).
        await userver.serve(sockets=[sock])
    finally:
        watcher.cancel()
        sock.close()
