"""The one way tests wait: await an event, or re-check a condition, always with a short bound.

- `TaskEvents` records the TaskEvents a Supervisor (or TaskService) publishes and lets a test await
  a task's status transition, and check afterwards the whole order of transitions a task went through
  (which is how a test proves that something did NOT happen: it is absent from a complete record).
- `until` re-checks a condition (sync or async) until it holds, for states nothing announces (another
  process's death, a row written by a child, a simulator resource over HTTP). It returns the first truthy
  value, so a caller can wait for and read a thing in one step.
- `until_steps` waits until a task has checkpointed the given step keys and returns its checkpoints.

Also here: `run_cli`, an `exa-orch` command run in this process (no wait: it returns when done).

A wait that runs out raises TimeoutError naming what it waited for.

Bounds. Every wait is for an event (a status, a line, a port, a row) under one generous bound,
`WAIT` (60 s), so the bound never decides a test on a slow or busy machine: a healthy run meets
its event long before, only a broken one reaches the bound. Anything longer that a test runs as a
whole (a `pip install`, a chaos profile) takes `bound(seconds)`. Both scale with the environment
variable EXA_ORCH_TEST_SLOWDOWN (default 1; e.g. 3 on a machine three times slower than a 2-core
CI runner), and so does pytest-timeout's per-test limit (tests/conftest.py). Write
`timeout=WAIT` / `within=WAIT`, never a number of seconds (CONTRIBUTING.md, Tests).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import inspect
import io
import os
import selectors
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Protocol, TypeVar, overload
from unittest import mock

import anyio

from exa_orch.runtime import TaskEvent
from exa_orch.store import TaskRecord

T = TypeVar("T")

__all__ = ["SLOWDOWN", "WAIT", "CliRun", "TaskEvents", "bound", "run_cli", "until", "until_steps"]


def _slowdown() -> float:
    raw = os.environ.get("EXA_ORCH_TEST_SLOWDOWN", "").strip() or "1"
    try:
        value = float(raw)
    except ValueError:
        value = 0.0
    if not value >= 1:  # also refuses nan
        raise ValueError(f"EXA_ORCH_TEST_SLOWDOWN={raw!r}: give a number >= 1 (how many times slower)")
    return value


SLOWDOWN = _slowdown()
"""How many times slower than a 2-core CI runner this machine is (EXA_ORCH_TEST_SLOWDOWN, default 1)."""


def bound(seconds: float) -> float:
    """`seconds` scaled by EXA_ORCH_TEST_SLOWDOWN: the bound of a wait longer than WAIT."""
    return seconds * SLOWDOWN


WAIT = bound(60.0)
"""The one bound of a wait for an event (a status, a line, a port, a row, a child's exit)."""


@overload
async def until(
    cond: Callable[[], Awaitable[T]], within: float = ..., every: float = ..., what: str = ...
) -> T: ...


@overload
async def until(cond: Callable[[], T], within: float = ..., every: float = ..., what: str = ...) -> T: ...


async def until(
    cond: Callable[[], Awaitable[T]] | Callable[[], T],
    within: float = WAIT,
    every: float = 0.02,
    what: str = "",
) -> T:
    """Re-check `cond()` every `every` s until it returns something truthy, and return that.

    `cond` may be a plain or an async function. Raises TimeoutError after `within` s."""
    with anyio.move_on_after(within):
        while True:
            value = cond()
            got: T = await value if inspect.isawaitable(value) else value
            if got:
                return got
            await anyio.sleep(every)
    raise TimeoutError(f"{what or getattr(cond, '__name__', 'condition')} not reached within {within} s")


def readable(fd: int, within: float) -> bool:
    """Whether `fd` has something to read (or its end) within `within` seconds. A selector, not
    select.select: select() refuses a descriptor numbered 1024 or more, which a test worker that
    has run many tests may hand out ("filedescriptor out of range in select()")."""
    with selectors.DefaultSelector() as sel:
        sel.register(fd, selectors.EVENT_READ)
        return bool(sel.select(max(0.0, within)))


def until_sync(cond: Callable[[], T], within: float = WAIT, every: float = 0.02, what: str = "") -> T:
    """`until` for a test without an event loop that waits on another process's row (no event
    crosses the process boundary): re-check `cond()` every `every` s under one deadline."""
    deadline = time.monotonic() + within
    while not (got := cond()):
        if time.monotonic() >= deadline:
            raise TimeoutError(
                f"{what or getattr(cond, '__name__', 'condition')} not reached within {within} s"
            )
        time.sleep(every)
    return got


class _Steps(Protocol):
    async def load_steps(self, task_id: str) -> dict[str, Any]: ...


async def until_steps(store: _Steps, task_id: str, *keys: str, within: float = WAIT) -> dict[str, Any]:
    """The task's checkpoints once all of `keys` are among them (a checkpoint announces no event)."""
    last: dict[str, Any] = {}

    async def checkpointed() -> bool:
        nonlocal last
        last = await store.load_steps(task_id)
        return all(k in last for k in keys)

    try:
        await until(checkpointed, within)
    except TimeoutError:
        raise TimeoutError(
            f"task {task_id}: steps {keys} not all checkpointed in {within} s: {sorted(last)}"
        ) from None
    return last


class _Publisher(Protocol):
    def subscribe(self, listener: Callable[[TaskEvent], Awaitable[None]]) -> Callable[[], None]: ...


class TaskEvents:
    """Every TaskEvent `source` publishes from now on, in order; use as a context manager
    (`with TaskEvents(sup) as events:`) so the listener goes away with the test."""

    def __init__(self, source: _Publisher) -> None:
        self.seen: list[TaskEvent] = []
        self._changed = asyncio.Event()
        self._unsubscribe = source.subscribe(self._on)

    async def _on(self, event: TaskEvent) -> None:
        self.seen.append(event)
        self._changed.set()
        self._changed = asyncio.Event()

    def __enter__(self) -> TaskEvents:
        return self

    def __exit__(self, *exc: object) -> None:
        self._unsubscribe()

    def statuses(self, task_id: str) -> list[str]:
        """The statuses `task_id` has moved to so far, in order."""
        return [str(e.task.status) for e in self.seen if e.kind == "status" and e.task.id == task_id]

    async def status(self, task_id: str, *wanted: str, within: float = WAIT) -> TaskRecord:
        """The task's row as of its first transition to one of `wanted` (already seen, or awaited)."""
        with anyio.move_on_after(within):
            while True:
                changed = self._changed
                for e in self.seen:
                    if e.kind == "status" and e.task.id == task_id and str(e.task.status) in wanted:
                        return e.task
                await changed.wait()
        raise TimeoutError(
            f"task {task_id} did not reach {wanted} within {within} s; it went {self.statuses(task_id)}"
        )


@dataclasses.dataclass(frozen=True)
class CliRun:
    """What one `exa-orch` command did: its exit code and what it printed."""

    returncode: int
    stdout: str
    stderr: str


def run_cli(*argv: str, env: Mapping[str, str] | None = None) -> CliRun:
    """`exa-orch ARGV` run in this process (exa_orch.cli.main, as the console script calls it),
    with no EXA_API_KEY* or EXA_ORCH_* variable but those in `env`: its exit code (argparse's
    SystemExit included) and what it printed to stdout and stderr (its log lines included).

    A subprocess costs a test ~0.5 CPU-s of imports (~1.2 s for `serve`); this costs none. Use it
    for what a command does (output, exit code, error line and hint, files left as they were);
    a test of the process itself (a signal, a pipe closed early, stdin, the installed script, what
    a child inherits, a stdout nothing else writes to) starts a real one. main() runs asyncio.run:
    from a coroutine, call `await asyncio.to_thread(run_cli, ...)`."""
    from exa_orch.cli import main

    environ = {k: v for k, v in os.environ.items() if not k.startswith(("EXA_API_KEY", "EXA_ORCH_"))}
    out, err = io.StringIO(), io.StringIO()
    with (
        mock.patch.dict(os.environ, {**environ, **(env or {})}, clear=True),
        contextlib.redirect_stdout(out),
        contextlib.redirect_stderr(err),
    ):
        try:
            code = main(list(argv))
        except SystemExit as exc:  # argparse: 2 on bad usage, 0 after --help or --version
            code = exc.code if isinstance(exc.code, int) else 0 if exc.code is None else 1
    return CliRun(code, out.getvalue(), err.getvalue())
