"""ExaOrchClient: a host program's handle on `exa-orch serve` run as a child process (seed 004).

One child and one MCP session serve every call. A child that exits is noticed at once (its stdout
ends) and the next call starts a new one; a call interrupted by the exit is retried once on the new
child only when it is read-only (a `.get`, `.list`, `tasks.result` ...), since a create might have
run. A call past its deadline is cancelled at the server; if the child then doesn't answer a ping it
is killed and replaced. Durable tasks live in the server's SQLite file, so a task created before a
crash is resumed by the next child on the same EXA_ORCH_DB. The child is the exa-orch entry point
unless the host allows another command (command.py). ExaOrchPool (pool.py) runs several of these.
"""

from __future__ import annotations

import json
import logging
import os
import time
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from types import TracebackType
from typing import IO, Any, TypedDict

import anyio
import mcp_types as types
from anyio.abc import TaskGroup, TaskStatus
from mcp import Client
from mcp.client.stdio import get_default_environment
from mcp.shared.exceptions import MCPDeprecationWarning, MCPError

from exa_orch.client.calls import CallStats, TaskCalls
from exa_orch.client.child import Child, open_child
from exa_orch.client.command import child_command
from exa_orch.client.errors import CallTimeout, ProtocolError, ServerError, ServerUnavailable, error_from_body
from exa_orch.errors import OrchError
from exa_orch.log import register_secret

log = logging.getLogger("exa_orch.client")

TOOL = "manage_websets"


@cache
def read_only_operations() -> frozenset[str]:
    """The operations that change nothing (each declares `read_only` in the registry the child
    serves): the only ones safe to send again after the child died mid-call."""
    # Imported on the first crash only: the registry pulls in every operation module (~1 s).
    from exa_orch.operations.catalog import default_registry

    return default_registry().read_only()


def may_resend(operation: str, lost: ServerUnavailable | None = None) -> bool:
    """Whether a call lost with its child may be sent again (to a new child, or another of a pool's):
    one never written to a live child (`lost.written` False: it cannot have run), else only a
    read-only one, since anything else might have run."""
    return (lost is not None and not lost.written) or operation in read_only_operations()


class ClientOptions(TypedDict, total=False):
    """ExaOrchClient's keyword arguments (ExaOrchPool passes them to each of its children)."""

    command: Sequence[str] | None
    allowed_commands: Sequence[Sequence[str]]
    env: Mapping[str, str] | None
    cwd: str | os.PathLike[str] | None
    api_key: str | None
    timeout: float
    start_timeout: float
    ping_timeout: float
    restart_backoff: float
    max_backoff: float
    stderr: IO[Any] | None


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
        """Serving: the child runs, its handshake is done (a call may use the session), not stopped."""
        return (
            self.child is not None
            and self.session is not None
            and self.child.alive
            and not self.stop.is_set()
        )


class ExaOrchClient(TaskCalls):
    """Run `exa-orch serve` as a child and call its operations: `async with ExaOrchClient() as c`.

    - `command`: the server command (default `[sys.executable, -m, exa_orch, serve]`); `cwd`. Only the
      exa-orch entry point (this Python's `-m exa_orch serve`, or the installed `exa-orch serve`) runs
      unless `allowed_commands` lists the command (or a prefix of it): else CommandNotAllowed.
    - `env`: variables for the child, over a minimal base (PATH, HOME, ... and the host's `EXA_*`).
    - `api_key`: given to the child as EXA_API_KEY (default: the host's EXA_API_KEY); never logged.
    - `timeout`: default per-call deadline in seconds; `start_timeout` bounds a child's start-up.
    - `stderr`: where the child's logs go (a file, or None for this process's stderr).
    """

    def __init__(
        self,
        *,
        command: Sequence[str] | None = None,
        allowed_commands: Sequence[Sequence[str]] = (),
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
        self.command = child_command(command, allowed_commands)
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
        self._stats = CallStats()

    # -- lifecycle -----------------------------------------------------------------------------

    async def __aenter__(self) -> ExaOrchClient:
        await self._open()
        try:
            await self._connect()
        except BaseException:
            await self.aclose()
            raise
        return self

    async def _open(self) -> None:
        """Enter the task group the child runners live in (no child yet); `aclose` leaves it."""
        self._tg = anyio.create_task_group()
        await self._tg.__aenter__()

    async def stop(self) -> None:
        """Stop the running child, if any (close its stdin, wait, then terminate/kill); the next
        call (or `start`) starts a new one."""
        if self._conn is not None:
            await self._disconnect(self._conn)

    async def start(self) -> None:
        """Start a child if none is running (after an exit: a restart, after the backoff); the pool
        calls it to replace a child at once rather than at that child's next call."""
        await self._ensure()

    async def wait_exit(self) -> None:
        """Return once the running child has exited or been stopped (at once if none is running)."""
        conn = self._conn
        if conn is None or conn.child is None or not conn.alive:
            return
        await _first(conn.stop, conn.child.exited)

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """Stop the child (close its stdin, wait, then terminate/kill) and leave."""
        await self.stop()
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
        resend: bool = True,
    ) -> Any:
        """Run one operation; its JSON result, or the typed OrchError it failed with.

        `timeout` (default: the client's) bounds the request, not a needed child start-up
        (`start_timeout`). Raises CallTimeout, ServerUnavailable, ProtocolError, or the server's
        own error (InvalidParams, TaskNotFound, RateLimited ...: `.code`, `.hint`, `.body`).
        A read-only call lost with its child is sent once more to a new one; with `resend=False`
        it raises ServerUnavailable like any other (ExaOrchPool sends it to another child instead).
        """
        deadline = self.timeout if timeout is None else timeout
        started = time.monotonic()
        try:
            result = await self._call_with_restart(operation, dict(args or {}), deadline, resend)
        except OrchError as exc:
            self._stats.record(operation, started, error=True)
            log.warning("call %s failed after %.0f ms: [%s] %s", operation, _ms(started), exc.code, exc)
            raise
        except Exception:
            self._stats.record(operation, started, error=True)
            log.exception("call %s failed after %.0f ms", operation, _ms(started))
            raise
        self._stats.record(operation, started, error=False)
        log.info("call %s ok in %.0f ms", operation, _ms(started))
        return result

    async def _call_with_restart(
        self, operation: str, args: dict[str, Any], deadline: float, resend: bool
    ) -> Any:
        restarts = self._restarts
        conn = await self._ensure()
        try:
            return await self._call_once(conn, operation, args, deadline)
        except ServerUnavailable as lost:
            # One restart per call: not when this call started the child it just lost.
            if not resend or not may_resend(operation, lost) or self._restarts != restarts:
                raise
            log.info("sending %s again, on a new child", operation)
            conn = await self._ensure()
            return await self._call_once(conn, operation, args, deadline)

    async def _call_once(
        self, conn: _Connection, operation: str, args: dict[str, Any], deadline: float
    ) -> Any:
        assert conn.session is not None and conn.child is not None
        request = {"operation": operation, "args": args}
        written = conn.child.written  # unchanged at a failure: nothing of this call reached a live child
        if not conn.child.alive:  # died since it was picked
            raise self._lost(conn, operation, written=False)
        try:
            # read_timeout makes the SDK send notifications/cancelled for the abandoned request.
            result = await conn.session.call_tool(TOOL, request, read_timeout_seconds=deadline)
        except MCPError as exc:
            if exc.code == types.REQUEST_TIMEOUT:
                await self._check_stuck(conn)
                raise CallTimeout(operation, deadline) from None
            if exc.code == types.CONNECTION_CLOSED or not conn.child.alive:
                raise self._lost(conn, operation, written=conn.child.written != written) from None
            raise ProtocolError(exc.code, exc.message) from None
        except (anyio.ClosedResourceError, anyio.BrokenResourceError, anyio.EndOfStream):
            raise self._lost(conn, operation, written=conn.child.written != written) from None
        body = _body(result)
        if result.is_error:
            raise error_from_body(body if isinstance(body, dict) else {"message": str(body)})
        return body

    def _lost(self, conn: _Connection, operation: str, *, written: bool) -> ServerUnavailable:
        child = conn.child
        code = child.process.returncode if child is not None else None
        conn.stop.set()  # the runner tears the dead connection down; the next call starts anew
        when = "during the call" if written else "before the call was written to it"
        return ServerUnavailable(
            f"{operation}: the exa-orch child (pid {child.pid if child else '?'}) exited {when}"
            f" (exit code {code})",
            returncode=code,
            written=written,
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

    # -- observability -------------------------------------------------------------------------

    def stats(self) -> dict[str, Any]:
        """Counters since the client started: calls, errors, child starts/restarts, per-operation latency."""
        return {
            "calls": self._stats.calls,
            "errors": self._stats.errors,
            "starts": self._starts,
            "failedStarts": self._failed_starts,
            "restarts": self._restarts,
            "healthy": self.healthy,
            "pid": self.pid,
            "operations": self._stats.by_operation(),
        }

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
