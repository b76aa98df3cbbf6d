"""ExaOrchClient: a host program's handle on `exa-orch serve` run as a child process (seed 004).

One child and one MCP session serve every call. A child that exits is noticed at once (its stdout
ends) and the next call starts a new one; a call interrupted by the exit is retried once on the new
child only when it is read-only (a `.get`, `.list`, `tasks.result` ...), since a create might have
run. A call past its deadline is cancelled at the server; if the child then doesn't answer a ping it
is killed and replaced. Durable tasks live in the server's SQLite file, so a task created before a
crash is resumed by the next child on the same EXA_ORCH_DB.
"""

from __future__ import annotations

import json
import logging
import os
import sys
import time
import warnings
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from types import TracebackType
from typing import IO, Any

import anyio
import mcp_types as types
from anyio.abc import TaskGroup, TaskStatus
from mcp import Client
from mcp.client.stdio import get_default_environment
from mcp.shared.exceptions import MCPDeprecationWarning, MCPError

from exa_orch.client.child import Child, open_child
from exa_orch.client.errors import CallTimeout, ProtocolError, ServerError, ServerUnavailable, error_from_body
from exa_orch.errors import OrchError
from exa_orch.log import register_secret

log = logging.getLogger("exa_orch.client")

TOOL = "manage_websets"
MAX_WAIT_S = 60.0  # tasks.result holds a request at most this long
TERMINAL = frozenset({"completed", "failed", "cancelled"})


@cache
def read_only_operations() -> frozenset[str]:
    """The operations that change nothing (each declares `read_only` in the registry the child
    serves): the only ones safe to send again after the child died mid-call."""
    # Imported on the first crash only: the registry pulls in every operation module (~1 s).
    from exa_orch.operations.catalog import default_registry

    return default_registry().read_only()


@dataclass
class OperationStats:
    calls: int = 0
    errors: int = 0
    total_s: float = 0.0
    max_s: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        mean = self.total_s / self.calls if self.calls else 0.0
        return {
            "calls": self.calls,
            "errors": self.errors,
            "meanMs": round(mean * 1000, 3),
            "maxMs": round(self.max_s * 1000, 3),
        }


@dataclass
class _Connection:
    """One child + session; its runner task enters and leaves both (anyio scopes stay in one task)."""

    child: Child | None = None
    session: Client | None = None
    stop: anyio.Event = field(default_factory=anyio.Event)
    reason: str = ""
    """Why the client ended it ("stopped", "killed: stuck"); empty when the child exited on its own."""
    done: anyio.Event = field(default_factory=anyio.Event)

    @property
    def alive(self) -> bool:
        return self.child is not None and self.child.alive and not self.stop.is_set()


class ExaOrchClient:
    """Run `exa-orch serve` as a child and call its operations: `async with ExaOrchClient() as c`.

    - `command`: the server command (default `[sys.executable, -m, exa_orch, serve]`); `cwd`.
    - `env`: variables for the child, over a minimal base (PATH, HOME, ... and the host's `EXA_*`).
    - `api_key`: given to the child as EXA_API_KEY (default: the host's EXA_API_KEY); never logged.
    - `timeout`: default per-call deadline in seconds; `start_timeout` bounds a child's start-up.
    - `stderr`: where the child's logs go (a file, or None for this process's stderr).
    """

    def __init__(
        self,
        *,
        command: Sequence[str] | None = None,
        env: Mapping[str, str] | None = None,
        cwd: str | os.PathLike[str] | None = None,
        api_key: str | None = None,
        timeout: float = 120.0,
        start_timeout: float = 60.0,
        ping_timeout: float = 5.0,
        restart_backoff: float = 0.5,
        max_backoff: float = 10.0,
        stderr: IO[Any] | None = None,
    ) -> None:
        self.command = list(command) if command else [sys.executable, "-m", "exa_orch", "serve"]
        self.cwd = os.fspath(cwd) if cwd is not None else None
        self.timeout = timeout
        self.start_timeout = start_timeout
        self.ping_timeout = ping_timeout
        self.restart_backoff = restart_backoff
        self.max_backoff = max_backoff
        self.stderr = stderr
        key = api_key or (env or {}).get("EXA_API_KEY") or os.environ.get("EXA_API_KEY")
        if key:
            register_secret(key)  # any log line that would show it shows [REDACTED]
        self._env = _child_env(env, key)
        self._tg: TaskGroup | None = None
        self._conn: _Connection | None = None
        self._lock = anyio.Lock()
        self._starts = 0
        self._failed_starts = 0
        self._restarts = 0
        self._calls = 0
        self._errors = 0
        self._ops: defaultdict[str, OperationStats] = defaultdict(OperationStats)

    # -- lifecycle -----------------------------------------------------------------------------

    async def __aenter__(self) -> ExaOrchClient:
        self._tg = anyio.create_task_group()
        await self._tg.__aenter__()
        try:
            await self._connect()
        except BaseException:
            await self.aclose()
            raise
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """Stop the child (close its stdin, wait, then terminate/kill) and leave."""
        if self._conn is not None:
            await self._disconnect(self._conn)
        if self._tg is not None:
            tg, self._tg = self._tg, None
            tg.cancel_scope.cancel()
            await tg.__aexit__(None, None, None)

    @property
    def healthy(self) -> bool:
        """Whether a child is running with a live session (False after it exited or was killed)."""
        return self._conn is not None and self._conn.alive

    @property
    def pid(self) -> int | None:
        """The running child's pid, or None."""
        conn = self._conn
        return conn.child.pid if conn is not None and conn.child is not None and conn.alive else None

    # -- calls ---------------------------------------------------------------------------------

    async def call(
        self,
        operation: str,
        args: Mapping[str, Any] | None = None,
        *,
        timeout: float | None = None,  # noqa: ASYNC109 (the per-call deadline API)
    ) -> Any:
        """Run one operation; its JSON result, or the typed OrchError it failed with.

        `timeout` (default: the client's) bounds the request, not a needed child start-up
        (`start_timeout`). Raises CallTimeout, ServerUnavailable, ProtocolError, or the server's
        own error (InvalidParams, TaskNotFound, RateLimited ...: `.code`, `.hint`, `.body`).
        """
        deadline = self.timeout if timeout is None else timeout
        started = time.monotonic()
        try:
            result = await self._call_with_restart(operation, dict(args or {}), deadline)
        except OrchError as exc:
            self._record(operation, started, error=True)
            log.warning("call %s failed after %.0f ms: [%s] %s", operation, _ms(started), exc.code, exc)
            raise
        except Exception:
            self._record(operation, started, error=True)
            log.exception("call %s failed after %.0f ms", operation, _ms(started))
            raise
        self._record(operation, started, error=False)
        log.info("call %s ok in %.0f ms", operation, _ms(started))
        return result

    async def _call_with_restart(self, operation: str, args: dict[str, Any], deadline: float) -> Any:
        restarts = self._restarts
        conn = await self._ensure()
        try:
            return await self._call_once(conn, operation, args, deadline)
        except ServerUnavailable:
            # One restart per call: not when this call started the child it just lost.
            if operation not in read_only_operations() or self._restarts != restarts:
                raise
            log.info("retrying read-only %s on a new child", operation)
            conn = await self._ensure()
            return await self._call_once(conn, operation, args, deadline)

    async def _call_once(
        self, conn: _Connection, operation: str, args: dict[str, Any], deadline: float
    ) -> Any:
        assert conn.session is not None and conn.child is not None
        request = {"operation": operation, "args": args}
        try:
            # read_timeout makes the SDK send notifications/cancelled for the abandoned request.
            result = await conn.session.call_tool(TOOL, request, read_timeout_seconds=deadline)
        except MCPError as exc:
            if exc.code == types.REQUEST_TIMEOUT:
                await self._check_stuck(conn)
                raise CallTimeout(operation, deadline) from None
            if exc.code == types.CONNECTION_CLOSED or not conn.child.alive:
                raise self._lost(conn, operation) from None
            raise ProtocolError(exc.code, exc.message) from None
        except (anyio.ClosedResourceError, anyio.BrokenResourceError, anyio.EndOfStream):
            raise self._lost(conn, operation) from None
        body = _body(result)
        if result.is_error:
            raise error_from_body(body if isinstance(body, dict) else {"message": str(body)})
        return body

    def _lost(self, conn: _Connection, operation: str) -> ServerUnavailable:
        child = conn.child
        code = child.process.returncode if child is not None else None
        conn.stop.set()  # the runner tears the dead connection down; the next call starts anew
        return ServerUnavailable(
            f"{operation}: the exa-orch child (pid {child.pid if child else '?'}) exited during the call"
            f" (exit code {code})",
            returncode=code,
            hint="The next call starts a new child; a task created before the exit is resumed by it. "
            "Check the child's stderr for why it stopped.",
        )

    async def _check_stuck(self, conn: _Connection) -> None:
        """After a timeout: a child that can't answer a ping either is killed (the next call replaces it)."""
        assert conn.session is not None and conn.child is not None
        with anyio.move_on_after(self.ping_timeout):
            try:
                with warnings.catch_warnings():  # the client speaks 2025-11-25, where ping exists
                    warnings.simplefilter("ignore", MCPDeprecationWarning)
                    await conn.session.send_ping()
                return
            except (MCPError, anyio.ClosedResourceError, anyio.BrokenResourceError):
                pass
        log.warning(
            "exa-orch child pid %d is stuck (no ping answer in %g s): killing it",
            conn.child.pid,
            self.ping_timeout,
        )
        conn.reason = "killed: stuck"
        conn.child.kill()
        conn.stop.set()

    # -- durable task helpers ------------------------------------------------------------------

    async def create_task(
        self,
        type: str,
        args: Mapping[str, Any] | None = None,
        *,
        ttl_ms: int | None = None,
        timeout: float | None = None,  # noqa: ASYNC109 (the per-call deadline API)
    ) -> str:
        """Start a durable task of `type` with `args`; its task id."""
        body: dict[str, Any] = {"type": type, **dict(args or {})}
        if ttl_ms is not None:
            body["ttl"] = ttl_ms
        created = await self.call("tasks.create", body, timeout=timeout)
        return str(created["taskId"])

    async def get_task(
        self,
        task_id: str,
        *,
        full: bool = False,
        timeout: float | None = None,  # noqa: ASYNC109
    ) -> dict[str, Any]:
        """tasks.get: the task's status, progress, error, timestamps and a summary of its partial result
        (`partialSummary`; with full=True, the whole `partialResult`)."""
        args: dict[str, Any] = {"taskId": task_id, "full": True} if full else {"taskId": task_id}
        view: dict[str, Any] = await self.call("tasks.get", args, timeout=timeout)
        return view

    async def wait_task(self, task_id: str, timeout: float, *, poll: float = 20.0) -> dict[str, Any]:  # noqa: ASYNC109
        """Wait up to `timeout` s for the task to end; tasks.result's body (`status`, and the whole
        stored `result` (full: true: a host program takes it all at once, unpaged) or `error`). Each poll is a tasks.result holding at most `poll` s at the server, so a child
        restart in between costs one poll. Raises CallTimeout if it is still running at the end."""
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            wait = max(0.0, min(poll, MAX_WAIT_S, left))
            body: dict[str, Any] = await self.call(
                "tasks.result",
                {"taskId": task_id, "wait": wait, "full": True},
                timeout=wait + self.ping_timeout + 30,
            )
            if body.get("status") in TERMINAL:
                return body
            if time.monotonic() >= end:
                message = (
                    f"task {task_id!r} is still {body.get('status')} after {timeout:g} s (it keeps running)"
                )
                raise CallTimeout("tasks.result", timeout, message)

    async def cancel_task(self, task_id: str, *, timeout: float | None = None) -> dict[str, Any]:  # noqa: ASYNC109
        """tasks.cancel: request the cancel; the task's view (status `cancelled` once it stopped)."""
        view: dict[str, Any] = await self.call("tasks.cancel", {"taskId": task_id}, timeout=timeout)
        return view

    # -- observability -------------------------------------------------------------------------

    def stats(self) -> dict[str, Any]:
        """Counters since the client started: calls, errors, child starts/restarts, per-operation latency."""
        return {
            "calls": self._calls,
            "errors": self._errors,
            "starts": self._starts,
            "failedStarts": self._failed_starts,
            "restarts": self._restarts,
            "healthy": self.healthy,
            "pid": self.pid,
            "operations": {name: s.as_dict() for name, s in sorted(self._ops.items())},
        }

    def _record(self, operation: str, started: float, *, error: bool) -> None:
        elapsed = time.monotonic() - started
        stats = self._ops[operation]
        stats.calls += 1
        stats.total_s += elapsed
        stats.max_s = max(stats.max_s, elapsed)
        self._calls += 1
        if error:
            stats.errors += 1
            self._errors += 1

    # -- connection management -----------------------------------------------------------------

    async def _ensure(self) -> _Connection:
        """The live connection; a new child first if there is none (one start attempt, after backoff)."""
        conn = self._conn
        if conn is not None and conn.alive:
            return conn
        async with self._lock:
            conn = self._conn
            if conn is not None and conn.alive:
                return conn
            if conn is not None:
                await self._disconnect(conn)
                self._restarts += 1
                delay = min(self.max_backoff, self.restart_backoff * 2 ** min(self._failed_starts, 10))
                log.info("restarting the exa-orch child in %.2f s", delay)
                await anyio.sleep(delay)
            return await self._connect()

    async def _connect(self) -> _Connection:
        if self._tg is None:
            raise ServerUnavailable(
                "the client is closed", hint="Use it inside `async with ExaOrchClient(...)`."
            )
        conn = _Connection()
        self._conn = conn
        try:
            with anyio.fail_after(self.start_timeout):
                await self._tg.start(self._run, conn)
        except TimeoutError:
            conn.stop.set()
            self._failed_starts += 1
            raise ServerUnavailable(
                f"the exa-orch child did not finish its MCP handshake within {self.start_timeout:g} s",
                hint="Check the child's stderr; raise start_timeout on a slow machine.",
            ) from None
        except ServerError:
            self._failed_starts += 1
            raise
        self._failed_starts = 0
        self._starts += 1
        return conn

    async def _run(self, conn: _Connection, *, task_status: TaskStatus[None]) -> None:
        """Own one connection: start the child and session, report started, hold until stop or exit.

        Before `started` a failure is raised to `_connect`; after it, it is only logged (raising
        would cancel the host's task group) and the next call reconnects."""
        started = False
        handshake: MCPError | None = None
        try:
            async with open_child(self.command, self._env, self.cwd, self.stderr) as child:
                conn.child = child
                log.info("exa-orch child started: pid %d (%s)", child.pid, " ".join(self.command))
                try:
                    async with Client(
                        _Streams(child), mode="legacy", read_timeout_seconds=self.timeout
                    ) as session:
                        conn.session = session
                        task_status.started()
                        started = True
                        await _first(conn.stop, child.exited)
                except Exception as exc:  # the SDK wraps a closed connection in an ExceptionGroup
                    handshake = _mcp_error(exc)
                    if not started and handshake is None:
                        raise
                    if started:
                        log.warning("exa-orch child pid %d: the session ended with %r", child.pid, exc)
            code = child.process.returncode
            if not started:
                message = handshake.message if handshake else "no answer"
                raise ServerUnavailable(
                    f"the exa-orch child (pid {child.pid}) exited before its MCP handshake ({message};"
                    f" exit code {code})",
                    returncode=code,
                    hint="Its stderr says why (e.g. CONFIG_ERROR: EXA_API_KEY is not set).",
                )
            if conn.reason:
                log.info("exa-orch child pid %d %s (exit code %s)", child.pid, conn.reason, code)
            else:
                log.warning(
                    "exa-orch child pid %d exited (exit code %s); the next call starts a new one",
                    child.pid,
                    code,
                )
        except OSError as exc:
            raise ServerUnavailable(
                f"could not start the exa-orch child {self.command[0]!r}: {exc.strerror}",
                hint="Pass command=[...] naming the exa-orch executable, or the Python that has exa_orch.",
            ) from None
        finally:
            conn.stop.set()
            conn.done.set()

    async def _disconnect(self, conn: _Connection) -> None:
        conn.reason = conn.reason or ("stopped" if conn.alive else "")
        conn.stop.set()
        with anyio.CancelScope(shield=True):
            await conn.done.wait()
        if self._conn is conn:
            self._conn = None


class _Streams:
    """A Transport for mcp.Client: the child's streams (the child's context owns their lifetime)."""

    def __init__(self, child: Child) -> None:
        self.child = child

    async def __aenter__(self) -> Any:
        return self.child.read, self.child.write

    async def __aexit__(self, *exc: object) -> None:
        return None


async def _first(*events: anyio.Event) -> None:
    """Return when any of `events` is set."""
    async with anyio.create_task_group() as tg:

        async def wait(event: anyio.Event) -> None:
            await event.wait()
            tg.cancel_scope.cancel()

        for event in events:
            tg.start_soon(wait, event)


def _mcp_error(exc: BaseException) -> MCPError | None:
    """The MCPError `exc` is or holds (anyio task groups wrap what their tasks raised)."""
    if isinstance(exc, MCPError):
        return exc
    if isinstance(exc, BaseExceptionGroup):
        for inner in exc.exceptions:
            if (found := _mcp_error(inner)) is not None:
                return found
    return None


def _child_env(extra: Mapping[str, str] | None, key: str | None) -> dict[str, str]:
    """The child's environment: the SDK's safe base, the host's EXA_* settings, `extra`, the key."""
    env = get_default_environment()
    env.update({k: v for k, v in os.environ.items() if k.startswith("EXA_")})
    # The SDK's base drops XDG_DATA_HOME; without it the child's default database (in the per-user
    # data directory) would not be the one the host's own `exa-orch sql` reads.
    if "XDG_DATA_HOME" in os.environ:
        env["XDG_DATA_HOME"] = os.environ["XDG_DATA_HOME"]
    env.update(extra or {})
    env.pop("EXA_API_KEY", None)
    if key:
        env["EXA_API_KEY"] = key
    return env


def _body(result: types.CallToolResult) -> Any:
    """A tool result's JSON body (its first text block)."""
    for block in result.content:
        if isinstance(block, types.TextContent):
            try:
                return json.loads(block.text)
            except ValueError:
                return block.text
    return result.structured_content


def _ms(started: float) -> float:
    return (time.monotonic() - started) * 1000
