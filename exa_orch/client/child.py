"""The server child process and the MCP streams over its stdin/stdout.

The SDK's `stdio_client` hides its process; the host client needs it (pid in the logs, notice an
exit at once, kill a stuck child), so this is the same bridge with the process in view: a new
session (process group), newline-delimited JSON-RPC, and the MCP shutdown order (close stdin,
wait, SIGTERM, SIGKILL) with every wait bounded.
"""

from __future__ import annotations

import logging
import os
import signal
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, field
from typing import IO, Any

import anyio
import mcp_types as types
from anyio.abc import Process
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
from anyio.streams.text import TextReceiveStream
from mcp.shared.message import SessionMessage

log = logging.getLogger("exa_orch.client")

STOP_GRACE_S = 5.0  # after stdin closes, the server finishes the requests it read and exits
TERM_GRACE_S = 3.0  # after SIGTERM, before SIGKILL


@dataclass
class Child:
    """A running server process and the streams an mcp ClientSession reads and writes."""

    process: Process
    read: MemoryObjectReceiveStream[SessionMessage | Exception]
    write: MemoryObjectSendStream[SessionMessage]
    exited: anyio.Event = field(default_factory=anyio.Event)
    """Set when the child's stdout ends: it exited, or is about to."""
    written: int = 0
    """Messages written to it while it lived (checked just before each write): a call that failed
    with this count where it was when the call began was never written to a live child."""

    @property
    def pid(self) -> int:
        return self.process.pid

    @property
    def alive(self) -> bool:
        """Running: its stdout open, and the kernel has no exit for it (a SIGKILL is seen here at
        once, before its stdout's end or its reaping reach this process's event loop)."""
        return not self.exited.is_set() and self.process.returncode is None and not _has_exited(self.pid)

    def kill(self) -> None:
        """SIGKILL the child's whole process group (it was started in its own session)."""
        with suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, signal.SIGKILL)


@asynccontextmanager
async def open_child(
    command: Sequence[str], env: Mapping[str, str], cwd: str | None, stderr: IO[Any] | int | None
) -> AsyncIterator[Child]:
    """Start `command`; yield the Child; on exit stop it (close stdin, wait, terminate, kill)."""
    process = await anyio.open_process(
        list(command), env=dict(env), cwd=cwd, stderr=stderr, start_new_session=True
    )
    to_session, read = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    write, from_session = anyio.create_memory_object_stream[SessionMessage](0)
    child = Child(process, read, write)

    async def stdout_reader() -> None:
        assert process.stdout is not None
        buffer = ""
        try:
            async with to_session:
                async for chunk in TextReceiveStream(process.stdout):
                    *lines, buffer = (buffer + chunk).split("\n")
                    for line in lines:
                        if line.strip():
                            await to_session.send(_parse(line))
        except (anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
            pass  # our own shutdown, or the session is gone
        finally:
            child.exited.set()

    async def stdin_writer() -> None:
        assert process.stdin is not None
        try:
            async with from_session:
                async for message in from_session:
                    if not child.alive:  # written now, it would go to nobody: keep it unwritten
                        raise anyio.BrokenResourceError
                    data = message.message.model_dump_json(by_alias=True, exclude_unset=True)
                    await process.stdin.send((data + "\n").encode())
                    child.written += 1
        except (anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
            # The child is gone: end the read side so waiting requests fail instead of hanging.
            await to_session.aclose()

    async with anyio.create_task_group() as tg:
        tg.start_soon(stdout_reader)
        tg.start_soon(stdin_writer)
        try:
            yield child
        finally:
            with anyio.CancelScope(shield=True):
                await _stop(child)
            tg.cancel_scope.cancel()


def _has_exited(pid: int) -> bool:
    """Whether the kernel holds an exit for child `pid` (waitid with WNOWAIT: it stays to be reaped
    by the event loop's child watcher). False where waitid is missing (macOS): there the exit is
    seen once the child's stdout ends."""
    if not hasattr(os, "waitid"):
        return False
    try:
        return os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except ChildProcessError:  # reaped already: it has exited
        return True


def _parse(line: str) -> SessionMessage | Exception:
    try:
        return SessionMessage(types.jsonrpc_message_adapter.validate_json(line, by_name=False))
    except ValueError as exc:  # the session reports it; a stray line must not end the connection
        log.warning("exa-orch child wrote a line that is not JSON-RPC (%d characters)", len(line))
        return exc


async def _stop(child: Child) -> None:
    """Close stdin and wait; then SIGTERM, then SIGKILL (the process group); every wait bounded."""
    process = child.process
    assert process.stdin is not None
    with suppress(anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
        await process.stdin.aclose()
    if not await _exited(process, STOP_GRACE_S):
        with suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGTERM)
        if not await _exited(process, TERM_GRACE_S):
            child.kill()
            await _exited(process, TERM_GRACE_S)
    with suppress(anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
        assert process.stdout is not None
        await process.stdout.aclose()
    await child.read.aclose()
    await child.write.aclose()


async def _exited(process: Process, limit: float) -> bool:
    """Whether the process exited within `limit` s (polls returncode: wait() also waits for pipe EOF)."""
    with anyio.move_on_after(limit):
        while process.returncode is None:  # noqa: ASYNC110 - no event tells a process's exit
            await anyio.sleep(0.02)
    return process.returncode is not None
