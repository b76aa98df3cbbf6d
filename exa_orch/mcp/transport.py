"""Serving the MCP server over stdio or streamable HTTP, with a clean stop.

Contract of `serve`: open the App, serve until the client leaves (stdin EOF), SIGTERM or SIGINT,
then close the App (actors stop at a safe point, leases are released) and return 0. Start-up
problems (no EXA_API_KEY for real Exa, a non-loopback bind without an HTTP token) raise
ConfigError before anything is opened. Logs go to stderr; on stdio, stdout is the MCP stream.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import re
import signal
import socket
import stat
import sys
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any, cast

import anyio
import mcp_types as types
from mcp.server.stdio import stdio_server
from mcp.server.transport_security import TransportSecuritySettings
from mcp.shared.message import SessionMessage
from pydantic import ValidationError

from exa_orch import coldstart
from exa_orch.app import open_app
from exa_orch.config import Settings
from exa_orch.mcp.auth import BearerAuth
from exa_orch.mcp.server import ExaOrchServer, build_server
from exa_orch.mcp.sessions import SessionLimits
from exa_orch.net import LoopbackHosts, bind_listener, is_loopback, require_token_beyond_loopback
from exa_orch.runtime import WorkflowSpec

log = logging.getLogger(__name__)

_LINE_LIMIT = 64 * 1024 * 1024  # one JSON-RPC message per line; agents may send large args


def check_bind(settings: Settings, host: str) -> None:
    """Refuse a bind beyond loopback unless a bearer token is configured."""
    require_token_beyond_loopback(settings, host, "MCP over HTTP")


def serve(
    settings: Settings,
    *,
    db_path: Path | str,
    http: bool,
    host: str,
    port: int,
    extra_workflows: Sequence[WorkflowSpec] = (),
) -> int:
    """Serve MCP until the client leaves or a signal arrives; 0 on a clean stop.

    stdio by default; `http=True` serves streamable HTTP at http://host:port/mcp (loopback unless
    EXA_ORCH_HTTP_TOKEN is set); raises ConfigError for an unsafe bind. The runtime runs the
    built-in task types and `extra_workflows`.

    Without EXA_API_KEY (and no simulator URL) the server still starts: each caller's first call to
    Exa asks them for their own key by URL-mode elicitation (a one-time link to a page on
    127.0.0.1, `keypage`), or answers a CONFIG_ERROR tool result naming EXA_API_KEY."""
    if http:
        check_bind(settings, host)
    return asyncio.run(_main(settings, db_path, http, host, port, extra_workflows))


async def _main(
    settings: Settings,
    db_path: Path | str,
    http: bool,
    host: str,
    port: int,
    extra_workflows: Sequence[WorkflowSpec],
) -> int:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    try:
        async with open_app(settings, db_path, extra_workflows=extra_workflows, key_required=False) as app:
            server = build_server(app)
            coldstart.ready()  # set up: what the start made stays; the collector runs again
            try:
                if http:
                    await _serve_http(server, settings, host, port, stop)
                else:
                    await _serve_stdio(server, stop)
            finally:
                await server.aclose()
            log.info("stopping: closing the runtime, gateway and store")
    finally:
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.remove_signal_handler(sig)
    log.info("exa-orch stopped")
    return 0


# ---------------------------------------------------------------------------------- stdio


Reject = Callable[[types.JSONRPCError], Awaitable[None]]


_BATCH = (
    "Invalid request: JSON-RPC batches are not supported (MCP removed them in 2025-06-18); "
    "send each message on its own line"
)


_BAD_ID = "Invalid request: 'id' must be a string or an integer"
_TOO_DEEP = (
    "Invalid request: the message is nested too deep to parse (about 1,000 levels); flatten the arguments"
)
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[{}\[\]]', re.S)
_DECODER = json.JSONDecoder()


def _has_bad_id(line: str) -> bool:
    """Whether a line the SDK read as a notification is a request with an unusable id."""
    if '"id"' not in line:
        return False
    try:
        message = json.loads(line)
    except (ValueError, RecursionError):
        return "id" in _top_level_scalars(line)
    return isinstance(message, dict) and "id" in message


def _top_level_scalars(line: str) -> dict[str, Any]:
    """The keys of the line's top-level JSON object, with their values when those are scalars
    (a nested value maps to None), found without parsing the nesting (which may be too deep)."""
    out: dict[str, Any] = {}
    if not line.lstrip().startswith("{"):
        return out
    depth = 0
    for match in _TOKEN.finditer(line):
        token = match.group()
        if token in "{[":
            depth += 1
        elif token in "}]":
            depth -= 1
        elif depth == 1:
            after = len(line) - len(line[match.end() :].lstrip())
            if line[after : after + 1] != ":":
                continue  # a string value, not a key
            try:
                key = json.loads(token)
                start = len(line) - len(line[after + 1 :].lstrip())
                value = None if line[start : start + 1] in ("{", "[") else _DECODER.raw_decode(line, start)[0]
            except (ValueError, RecursionError):
                continue
            out.setdefault(key, value)
    return out


def _valid_id(rid: Any) -> bool:
    return isinstance(rid, int | str) and not isinstance(rid, bool)


def _error(rid: types.RequestId | None, code: int, message: str) -> types.JSONRPCError:
    return types.JSONRPCError(jsonrpc="2.0", id=rid, error=types.ErrorData(code=code, message=message))


def _read_line(line: str) -> tuple[types.JSONRPCMessage | None, list[types.JSONRPCError]]:
    """(the message, []) for a line the SDK can read; else (None, the errors to answer).

    The SDK drops a line that fails its JSON-RPC validation (JSON nested deeper than its parser
    goes, a lone surrogate escape, params that are not an object, a batch, a line that is not
    JSON ...) without a word, so the client would wait forever: a request whose id can still be
    read is answered with that id, the rest as JSON-RPC 2.0 says (id null); notifications and
    stray responses stay unanswered.
    """
    try:
        read = types.jsonrpc_message_adapter.validate_json(line, by_name=False)
    except ValidationError as exc:
        errors = exc.errors(include_url=False, include_input=False)
    else:
        if isinstance(read, types.JSONRPCNotification) and _has_bad_id(line):
            # The SDK reads a request whose id is null, a bool, a float, an object or an array as
            # a notification (it drops the id) and never answers it.
            return None, [_error(None, types.INVALID_REQUEST, _BAD_ID)]
        return read, []
    return None, _answers_to(line, errors)


def _answers_to(line: str, errors: list[Any]) -> list[types.JSONRPCError]:
    """The errors to answer a line the SDK could not read (`errors`: its complaints): by the
    line's own id where one can be read, else id null; none for a notification or a response."""
    try:
        # A number past Python's 4300-digit cap is no reason to lose the id beside it.
        message = json.loads(line, parse_int=lambda digits: int(digits) if len(digits) < 4300 else None)
    except RecursionError:
        # Nested deeper than Python's parser goes: the id beside the deep part is still readable.
        top = _top_level_scalars(line)
        if "method" not in top or "id" not in top:
            return []  # a notification (or a stray response): never answered
        rid = top["id"] if _valid_id(top["id"]) else None
        return [_error(rid, types.INVALID_REQUEST, _TOO_DEEP)]
    except ValueError:
        return [
            _error(
                None,
                types.PARSE_ERROR,
                "Parse error: the line is not JSON; send one JSON-RPC message per line",
            )
        ]
    if isinstance(message, list):
        ids = [m["id"] for m in message if isinstance(m, dict) and "method" in m and _valid_id(m.get("id"))]
        return [_error(rid, types.INVALID_REQUEST, _BATCH) for rid in ids] or [
            _error(None, types.INVALID_REQUEST, _BATCH)
        ]
    if not isinstance(message, dict):
        return [_error(None, types.INVALID_REQUEST, "Invalid request: a JSON-RPC message is a JSON object")]
    if "method" not in message or "id" not in message:
        return []  # a stray response or a notification: never answered
    rid = message["id"]
    if not _valid_id(rid):
        return [_error(None, types.INVALID_REQUEST, _BAD_ID)]
    return [_request_error(rid, errors)]


def _request_error(rid: types.RequestId, errors: list[Any]) -> types.JSONRPCError:
    """A request the SDK refused, answered with its id and the validation's complaints."""
    # A request's own complaints (the union's other members complain about what a request lacks).
    mine = [e for e in errors if e["loc"][:1] == ("JSONRPCRequest",)] or errors[:1]
    parts = [
        ".".join(str(p) for p in e["loc"][1:]) + ": " + e["msg"] if e["loc"][1:] else e["msg"] for e in mine
    ]
    unparsed = any(e["type"] == "json_invalid" for e in mine)
    code, what = (
        (types.PARSE_ERROR, "Parse error") if unparsed else (types.INVALID_REQUEST, "Invalid request")
    )
    return _error(rid, code, f"{what}: {'; '.join(parts)[:300]}")


class _AsyncLines:
    """stdin as an async iterator of lines on the event loop (cancellable, unlike a thread read).

    It keeps the ids of the requests read and not answered yet (`answered` is told of each
    answer): at EOF it ends only once they are all answered, so a client that writes its requests
    and closes stdin (a shell pipe, a script) still gets every answer; a signal stops it at once.
    `reject`, once set, receives the error for each request the SDK would drop unanswered.
    """

    def __init__(self, readline: Callable[[], Awaitable[bytes]]) -> None:
        self._readline = readline
        self.reject: Reject | None = None
        self._unanswered: set[types.RequestId] = set()
        self._all_answered: asyncio.Event | None = None  # made at EOF, if anything is unanswered

    def __aiter__(self) -> _AsyncLines:
        return self

    def answered(self, rid: types.RequestId) -> None:
        """The server answered request `rid` (a result or an error)."""
        self._unanswered.discard(rid)
        if not self._unanswered and self._all_answered is not None:
            self._all_answered.set()

    async def __anext__(self) -> str:
        try:
            line = await self._readline()
        except ValueError:  # a line beyond the limit: drop it, the peer gets no answer for it
            log.warning("dropped an over-long stdin line")
            return "\n"
        except OSError as exc:  # a terminal hung up, a descriptor gone bad: as good as closed
            log.warning("reading stdin failed (%s): treating it as closed", exc)
            line = b""
        if len(line) > _LINE_LIMIT:  # the same, from a file (its reader doesn't raise)
            log.warning("dropped an over-long stdin line")
            while line and not line.endswith(b"\n"):
                line = await self._readline()
            return "\n"
        if not line:
            await self._drain()
            raise StopAsyncIteration
        text = line.decode("utf-8", errors="replace")
        if text.strip():
            try:
                await self._note(text)
            except Exception:  # never let the check cost the connection
                log.exception("checking a stdin line failed")
        return text

    async def _note(self, text: str) -> None:
        message, errors = _read_line(text)
        if isinstance(message, types.JSONRPCRequest):
            self._unanswered.add(message.id)
        elif isinstance(message, types.JSONRPCNotification) and message.method == "notifications/cancelled":
            # A cancelled request may go unanswered (the protocol allows it): don't wait for it.
            rid = (message.params or {}).get("requestId")
            if isinstance(rid, int | str) and not isinstance(rid, bool):
                self.answered(rid)
        elif self.reject is not None:
            for error in errors[:100]:  # a batch of thousands must not stall the reader
                log.info("answered an unreadable message (id %r): %s", error.id, error.error.message)
                await self.reject(error)

    async def _drain(self) -> None:
        if not self._unanswered:
            return
        log.info(
            "stdin closed with %d request(s) in flight: answering them before stopping (SIGTERM stops now)",
            len(self._unanswered),
        )
        self._all_answered = asyncio.Event()
        await self._all_answered.wait()


class _AnswerWatch:
    """The server's write stream, telling `lines` of every answer on its way to stdout."""

    def __init__(self, inner: Any, lines: _AsyncLines) -> None:
        self._inner = inner
        self._lines = lines

    async def send(self, item: SessionMessage) -> None:
        await self._inner.send(item)
        if (
            isinstance(item.message, types.JSONRPCResponse | types.JSONRPCError)
            and item.message.id is not None
        ):
            self._lines.answered(item.message.id)

    def close(self) -> None:
        self._inner.close()

    async def aclose(self) -> None:
        await self._inner.aclose()

    async def __aenter__(self) -> _AnswerWatch:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()


async def _no_line() -> bytes:
    return b""


async def _stdin_lines() -> _AsyncLines:
    try:
        fd = sys.stdin.fileno()
    except (AttributeError, OSError, ValueError):  # started with stdin closed: nothing will come
        log.warning("stdin is closed: no client can talk to this stdio server")
        return _AsyncLines(_no_line)
    mode = os.fstat(fd).st_mode
    if stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) or os.isatty(fd):
        reader = asyncio.StreamReader(limit=_LINE_LIMIT)
        pipe = os.fdopen(os.dup(fd), "rb", buffering=0)
        try:
            await asyncio.get_running_loop().connect_read_pipe(
                lambda: asyncio.StreamReaderProtocol(reader), pipe
            )
        except (ValueError, OSError):
            pipe.close()
        else:
            return _AsyncLines(reader.readline)
    # A regular file or a device such as /dev/null: epoll can't watch it (connect_read_pipe
    # accepts /dev/null, then never reports its EOF and the server never stops). Its reads never
    # block for long, so a worker thread reads it.
    file = os.fdopen(os.dup(fd), "rb")

    async def read_file_line() -> bytes:
        return await asyncio.to_thread(file.readline, _LINE_LIMIT + 1)

    return _AsyncLines(read_file_line)


async def _serve_stdio(server: ExaOrchServer, stop: asyncio.Event) -> None:
    lines = await _stdin_lines()
    async with anyio.create_task_group() as tg:

        async def on_stop() -> None:
            await stop.wait()
            log.info("signal received: stopping the stdio server")
            tg.cancel_scope.cancel()

        tg.start_soon(on_stop)
        async with stdio_server(stdin=cast(Any, lines)) as (read_stream, write_stream):

            async def reject(error: types.JSONRPCError) -> None:
                with contextlib.suppress(anyio.ClosedResourceError, anyio.BrokenResourceError):
                    await write_stream.send(SessionMessage(error))

            lines.reject = reject
            log.info("serving MCP over stdio (profile %s)", server.profile)
            await server.run(
                read_stream,
                cast(Any, _AnswerWatch(write_stream, lines)),
                server.create_initialization_options(),
            )
        log.info("stdin closed: stopping")
        tg.cancel_scope.cancel()


# ---------------------------------------------------------------------------------- HTTP


def _bind(host: str, port: int) -> socket.socket:
    sock = bind_listener(host, port)
    sock.set_inheritable(True)
    return sock


async def _serve_http(
    server: ExaOrchServer, settings: Settings, host: str, port: int, stop: asyncio.Event
) -> None:
    import uvicorn

    # The SDK's own Host/Origin check knows three exact bind strings; exa-orch's rule (LoopbackHosts,
    # below) covers every loopback spelling a bind accepts, so the SDK's is off.
    starlette_app = server.streamable_http_app(
        host=host,
        max_sessions=settings.http_max_sessions,
        transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False),
    )
    asgi: Any = SessionLimits(
        starlette_app,
        server.session_manager,
        max_sessions=settings.http_max_sessions,
        per_principal=settings.http_max_sessions_per_principal,
    )
    if settings.http_auth:
        principals = settings.token_principals()
        asgi = BearerAuth(asgi, principals)
        log.info("HTTP requests need a bearer token; principals: %s", ", ".join(sorted(principals)))
    else:
        log.info("no HTTP token set: loopback requests act as the local user %s", settings.principal)
    if is_loopback(host):  # bound to loopback: no page of another site reaches it (DNS rebinding)
        asgi = LoopbackHosts(asgi)
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
