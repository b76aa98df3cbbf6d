"""TaskContext: what a workflow sees of the runtime (steps, checkpoints, progress, cancellation).

Contract of `step(key, fn)`: `fn` runs at most once per successful checkpoint. Its JSON result is
saved under (task_id, key) in one transaction before `step` returns; a resumed run returns the
saved result without calling `fn`. A step interrupted before its checkpoint runs again on resume,
so a step that creates an Exa object passes `externalId=ctx.external_id(key)` (see `dedupe.py`).
Once the run's lease fence refused a request (gateway/fence.py), no step of the run is saved: `step`
raises that refusal instead, even if `fn` caught it and returned.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import json
import logging
from collections.abc import Awaitable, Callable, Iterator
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any, TypeVar, overload

from exa_orch.gateway.context import current_request, request_scope

if TYPE_CHECKING:
    from exa_orch.runtime.deps import Deps
    from exa_orch.store import Store

logger = logging.getLogger(__name__)

T = TypeVar("T")
JsonValue = dict[str, Any] | list[Any] | str | int | float | bool | None
# What a plain step returns (it is checkpointed as JSON). Bound so that a coroutine function never
# matches the plain overload of `step`: with both matching, mypy reads a step whose value holds Any
# (dict[str, Any], the usual JSON object) as Any.
J = TypeVar("J", bound=JsonValue)
_IN_STEP: ContextVar[str | None] = ContextVar("exa_orch_in_step", default=None)  # the step whose fn runs
_UNLESS_REPORTED: ContextVar[bool] = ContextVar("exa_orch_unless_reported", default=False)  # unless_reported
CancelHook = Callable[[], Awaitable[Any]]
Salvage = Callable[[], Awaitable[dict[str, Any]]]  # what a stopped task found so far (on_stop)
ProgressSink = Callable[[dict[str, Any]], None]


def _json_roundtrip(value: Any) -> Any:
    # The value a fresh run returns must equal the one a resumed run reads back from SQLite,
    # so tuples become lists and keys become strings here already.
    return json.loads(json.dumps(value))


class TaskContext:
    """The handle a workflow function gets: `await ctx.step(key, fn)`, `ctx.progress(...)`, ...

    Attributes: task_id, args (the validated args model), deps (what the face hands every
    workflow: `deps.dispatch` runs an operation, runtime/deps.py), resumed (True when an earlier
    run of this task started, so steps may have half-happened at Exa).
    """

    def __init__(
        self,
        *,
        task_id: str,
        args: Any,
        store: Store,
        deps: Deps,
        steps: dict[str, Any],
        resumed: bool,
        on_progress: ProgressSink | None = None,
        owner: str | None = None,
        cancelling: bool = False,
        last_progress: dict[str, Any] | None = None,
    ) -> None:
        self.task_id = task_id
        self.args = args
        self.deps = deps
        self.resumed = resumed
        self.current_step: str | None = None
        self._store = store
        # The lease holder this run writes as: once another process took the lease, every write
        # (checkpoint, progress, partial) raises LeaseHeld and the actor stops without writing.
        self._owner = owner
        self._saved = steps
        self._used: set[str] | None = None  # keys used in this run; created by the first step
        # Checkpoints a resumed run has yet to replay. Until they are replayed (or a step runs live),
        # progress and partial results repeat what the earlier run already stored: not written again,
        # so the task's progress never goes back after a restart.
        self._replay_left = len(steps) if resumed else 0
        # A run started only to cancel a task an earlier run began (cancelled while nobody ran it):
        # it replays the checkpoints, so the workflow registers its on_cancel hooks again, and stops
        # at the first live step or sleep, before any new work. The actor then runs the hooks.
        self._cancelling = cancelling
        self._on_progress = on_progress
        self._last_progress: dict[str, Any] = dict(last_progress or {})  # what `note` keeps
        self._cancel_hooks: list[CancelHook] | None = None  # created by the first on_cancel
        self._salvage: Salvage | None = None  # the last on_stop
        self.interrupted_saving = False  # an interrupt came while a checkpoint was being committed
        self._cancelled = False
        self._wake: asyncio.Future[None] | None = None

    @property
    def cancelled(self) -> bool:
        """True once a cancel reached this task (the in-flight await is being cancelled too)."""
        return self._cancelled

    def external_id(self, key: str) -> str:
        """Exa's externalId for whatever step `key` creates: unique per task and step, stable across runs."""
        return f"{self.task_id}:{key}"

    @overload
    async def step(self, key: str, fn: Callable[[], Awaitable[T]]) -> T: ...

    @overload
    async def step(self, key: str, fn: Callable[[], J]) -> J: ...

    async def step(self, key: str, fn: Callable[[], Awaitable[T]] | Callable[[], J]) -> T | J:
        """Run `fn` once and checkpoint its JSON result under `key`; on resume return the saved result.

        `fn` is a plain or an async function; the result is what `fn` returned, as JSON gives it
        back (tuples become lists, keys strings), fresh or resumed alike.

        Raises ValueError if `key` was already used in this run (keys name checkpoints, so they must
        be unique and deterministic: "create", f"poll:{i}", ...).
        """
        outer = _IN_STEP.get()
        if outer is not None:
            # A step inside another hides it from a cancel's replay, which stops at the first unsaved
            # step: the outer one, before the hooks registered after the inner one.
            raise ValueError(
                f"step {key!r} runs inside step {outer!r} of task {self.task_id}; steps can't nest: "
                "call them one after the other (or concurrently) from the workflow itself"
            )
        if self._used is None:
            self._used = set()
        elif key in self._used:
            raise ValueError(f"step key {key!r} used twice in task {self.task_id}; step keys must be unique")
        self._used.add(key)
        if key in self._saved:
            if self._replay_left:
                self._replay_left -= 1
            saved: T | J = self._saved[key]  # what `fn` returned in an earlier run, as JSON gave it back
            return saved
        self._replay_left = 0  # a live step: whatever follows is news
        if self._cancelling:
            raise asyncio.CancelledError  # the safe point a cancelling run stops at
        # On an error current_step keeps naming this step, for the task's error {step, ...}.
        previous, self.current_step = self.current_step, key
        inside = _IN_STEP.set(key)
        try:
            # The step's requests to Exa are this step's (cost, logs): the scope names it.
            with request_scope(task_id=self.task_id, step=key):
                made = fn()
                out = await made if inspect.isawaitable(made) else made
        except Exception as exc:
            # The innermost step an error came out of; steps running side by side (gather) share
            # current_step, so the error carries its own.
            if getattr(exc, "failed_step", None) is None:
                with contextlib.suppress(AttributeError, TypeError):
                    exc.failed_step = key  # type: ignore[attr-defined]
            raise
        finally:
            _IN_STEP.reset(inside)
        fence = current_request().fence
        if fence is not None and fence.tripped is not None:
            # A request of this run was refused unsent (its lease may have lapsed): `fn` may have
            # caught the refusal and returned a stand-in for what it could not read (a webset
            # "gone", a page "unreachable"). Not a result to keep: the run ends as a lost lease
            # (the actor) and the next one runs this step again.
            raise fence.tripped
        result: T | J = _json_roundtrip(out)  # `fn`'s value as a resumed run will read it back
        await self._save(key, result)
        self.current_step = previous
        self._saved[key] = result
        return result

    async def _save(self, key: str, result: Any) -> None:
        """Checkpoint a step. An interrupt arriving meanwhile is raised once the write is over.

        The store commits a checkpoint even when its caller is cancelled, so the workflow never sees
        a step that is saved, nor registers the cancel hook that follows it: `interrupted_saving`
        tells the actor, which then replays the checkpoints to find that hook.
        """
        save = asyncio.ensure_future(self._store.save_step(self.task_id, key, result, owner=self._owner))
        try:
            await asyncio.shield(save)
        except asyncio.CancelledError:
            with contextlib.suppress(Exception):  # not saved after all: nothing was missed
                await save
                self.interrupted_saving = True
            raise

    async def progress(
        self, step: str, completed: float, total: float | None, message: str | None = None
    ) -> None:
        """Record progress {step, completed, total, message} (stored, and sent to local subscribers).

        While a resumed run replays its checkpoints, this is the earlier run's progress over again:
        it is dropped (the row keeps the later value that run stored)."""
        if self._replay_left:
            return
        progress: dict[str, Any] = {"step": step, "completed": completed, "total": total}
        if message is not None:
            progress["message"] = message
        if _UNLESS_REPORTED.get() and await self._reported(progress):
            return
        await self._write_progress(progress)

    async def _reported(self, progress: dict[str, Any]) -> bool:
        events = await self._store.events(self.task_id)
        return any(e.get("kind") == "progress" and e.get("data") == progress for e in events)

    @contextlib.contextmanager
    def unless_reported(self) -> Iterator[None]:
        """Within the block (this asyncio task and its children), a progress report the task has
        made before (its history holds it) is not written again: a resumed run repeating a report
        its earlier run may or may not have written before it died."""
        token = _UNLESS_REPORTED.set(True)
        try:
            yield
        finally:
            _UNLESS_REPORTED.reset(token)

    async def note(self, message: str) -> None:
        """Set the status message, keeping the last progress's step and counts (the gateway's
        word while the task waits: `waiting for an agent-run slot: 12th in line`)."""
        if self._replay_left:
            return
        await self._write_progress({**self._last_progress, "message": message})

    async def _write_progress(self, progress: dict[str, Any]) -> None:
        await self._store.set_progress(self.task_id, progress, owner=self._owner)
        self._last_progress = progress
        if self._on_progress is not None:
            self._on_progress(progress)

    async def partial(self, result: Any) -> None:
        """Store a partial result, returned by tasks.get/tasks.result until the task finishes.

        Dropped while a resumed run replays its checkpoints, as `progress` is."""
        if self._replay_left:
            return
        await self._store.set_partial(self.task_id, _json_roundtrip(result), owner=self._owner)

    async def sleep(self, seconds: float) -> None:
        """Sleep, interrupted at once by cancel or shutdown (CancelledError) or by a wake message."""
        if self._cancelling:
            if self._replay_left:
                return  # between replayed checkpoints: the earlier run slept here already
            raise asyncio.CancelledError
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[None] = loop.create_future()
        self._wake = fut
        handle = loop.call_later(max(0.0, seconds), _resolve, fut)
        try:
            await fut
        finally:
            handle.cancel()
            self._wake = None

    def on_cancel(self, hook: CancelHook) -> Callable[[], None]:
        """Run `hook()` if the task is cancelled (not on shutdown): cancel the Exa work it started.

        Hooks run newest first, each bounded in time, after the workflow's await was cancelled.
        Returns a function that removes the hook (call it once that Exa work is finished).
        """
        if self._cancel_hooks is None:
            self._cancel_hooks = []
        self._cancel_hooks.append(hook)

        def remove() -> None:
            if self._cancel_hooks is not None and hook in self._cancel_hooks:
                self._cancel_hooks.remove(hook)

        return remove

    def on_stop(self, salvage: Salvage) -> None:
        """If the task stops before its end (its budget, or a cancel), `await salvage()` gives
        what the Exa work it paid for has found so far (items a webset holds, rows of finished
        runs), merged over its partial result: the task's answer then (`partial: true`,
        `stoppedBy`). The latest call wins; `salvage` only reads (it runs after the cancel hooks,
        outside the budget, bounded in time). Call it as soon as the work is created, before the
        next await: a stop interrupts that await.
        """
        self._salvage = salvage

    # -- used by the actor ------------------------------------------------------------------

    async def _salvaged(self, limit_s: float) -> dict[str, Any]:
        """What the on_stop salvage reads ({} if none, or if it failed or ran over `limit_s`)."""
        if self._salvage is None:
            return {}
        try:
            async with asyncio.timeout(limit_s):
                found = await self._salvage()
        except Exception:  # what was stored already stays the answer
            logger.warning(
                "task %s: reading what it found before it stopped failed", self.task_id, exc_info=True
            )
            return {}
        return dict(_json_roundtrip(found)) if isinstance(found, dict) else {}

    def _wake_up(self) -> None:
        if self._wake is not None:
            _resolve(self._wake)

    async def _run_cancel_hooks(self, each_s: float) -> None:
        self._cancelled = True
        for hook in reversed(self._cancel_hooks or []):
            try:
                async with asyncio.timeout(each_s):
                    await hook()
            except Exception:  # a failed cleanup must not keep the task from ending cancelled
                logger.exception("cancel hook of task %s failed", self.task_id)
        self._cancel_hooks = None


def _resolve(fut: asyncio.Future[None]) -> None:
    if not fut.done():
        fut.set_result(None)
