"""The Store: a process's one async owner of the database (tasks, checkpoints, leases, archive).

`async with Store(target) as store` opens the database its backend names (store/backends.py: an
SQLite file, created where none exists, or a `postgresql://` URL), applies pending migrations,
and starts the group-commit writer. Writes go through that writer (one thread, one transaction
per batch, futures resolved after COMMIT); reads use the backend's separate read connection.
Several processes may share one database; leases decide which one runs a task.

Everything that differs between databases is the backend's (store/backend.py): the Store holds
one and never asks which it is, and nothing above the store needs to know either.
"""

from __future__ import annotations

import asyncio
import enum
import json
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any, Self

from exa_orch.errors import InvalidParams, StoreError, TaskNotFound
from exa_orch.store import archive, backoff, costs, leases, slots, tasks
from exa_orch.store.backend import Backend, Listener, Reader
from exa_orch.store.backends import backend_for
from exa_orch.store.changes import Changes
from exa_orch.store.records import (
    TaskRecord,
    TaskStatus,
    dumps,
    dumps_or_none,
    iso,
    parse_status,
    record_from_row,
)
from exa_orch.store.writer import GroupCommitWriter, WriterStats

DEFAULT_BUSY_TIMEOUT_MS = 30_000
# Well under SQLite's and PostgreSQL's limits on the parameters of one statement.
_IDS_PER_READ = 500


class _State(enum.Enum):
    UNOPENED = 1  # constructed, not entered yet
    OPEN = 2  # connections open, writer running
    CLOSED = 3  # closed for good; a Store is not reopened


class Store:
    """Tasks, step checkpoints, leases and the archive in one database.

    `target` is an SQLite file path, a `postgresql://` URL, or a backend. `clock` (epoch seconds)
    defaults to the backend's (the database server's for PostgreSQL), else the local clock. See
    data-design/.
    """

    def __init__(
        self,
        target: str | Path | Backend,
        *,
        migrations_dir: Path | None = None,
        busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS,
        clock: Callable[[], float] | None = None,
        owner_id: str | None = None,
    ) -> None:
        self.backend: Backend = backend_for(target)
        self.owner_id: str = leases.use_owner_id(owner_id) if owner_id else leases.new_owner_id()
        self.applied_migrations: list[str] = []
        self._migrations_dir = migrations_dir
        self._busy_timeout_ms = busy_timeout_ms
        self._clock: Callable[[], float] = clock or self.backend.default_clock() or time.time
        self._save_step_sql = self.backend.dialect.save_step
        self._writer = GroupCommitWriter(on_commit=self.backend.on_commit, retryable=self.backend.retryable)
        self._reader: Reader | None = None
        self._listener: Listener | None = None
        self._changes = Changes()
        self._state = _State.UNOPENED
        self._archivers: dict[str, archive.Extractor] = {}
        # Ledger rows, written first in the writer's next group commit (store/costs.py).
        self._costs = costs.Pending(self._writer.queue, sql=self.backend.dialect.record_cost)
        self._writer.prelude = self._costs.take

    # --- lifecycle ------------------------------------------------------------------------

    async def __aenter__(self) -> Self:
        await self.open()
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.aclose()

    async def open(self) -> None:
        """Open the database, apply pending migrations, start the writer. MigrationError on a bad schema."""
        if self._state is not _State.UNOPENED:
            raise StoreError("a Store can be opened only once", hint="Create a new Store(path).")
        self._state = _State.OPEN
        backend, busy, found = self.backend, self._busy_timeout_ms, self._migrations_dir
        try:
            await self._writer.start(lambda: backend.connect_writer(busy))
            done = await self._writer.call(lambda conn: backend.migrate(conn, found))
            self.applied_migrations = [m.label for m in done]
            await backend.start(busy)
            self._reader = await backend.open_reader(busy)
            self._listener = backend.listener(self._changes.notified)
            if self._listener is not None:
                await self._listener.start()
        except BaseException:
            await self.aclose()
            raise

    async def aclose(self) -> None:
        """Commit queued writes and close every connection; idempotent."""
        self._state = _State.CLOSED
        try:
            await self._writer.aclose()
        finally:
            await self.backend.stop()
            reader, self._reader = self._reader, None
            if reader is not None:
                await reader.close()
            listener, self._listener = self._listener, None
            if listener is not None:
                await listener.stop()

    # --- change notifications -------------------------------------------------------------

    @property
    def notifies(self) -> bool:
        """True if `watch` hears changes committed by other processes (PostgreSQL's LISTEN/NOTIFY);
        on SQLite a waiter has to poll for those."""
        return self._listener is not None

    def watch(self, task_id: str) -> asyncio.Event:
        """An event set when the task's status or cancel flag changes, or its lease is taken over
        (in any process, on PostgreSQL). Take it before reading the task, and `unwatch` it when done."""
        return self._changes.watch(task_id)

    def unwatch(self, task_id: str, event: asyncio.Event) -> None:
        """Forget an event `watch` returned."""
        self._changes.unwatch(task_id, event)

    def on_runnable(self, callback: Callable[[], None]) -> Callable[[], None]:
        """Call `callback` when any process creates a task or lets an unfinished one go
        (PostgreSQL's NOTIFY; never on SQLite), so an idle server claims it at once rather than
        at its next poll. Returns the function that unregisters it."""
        return self._changes.on_runnable(callback)

    def on_change(self, callback: Callable[[str | None], None]) -> Callable[[], None]:
        """Call `callback(task_id)` when any process changes a task's status or cancel flag, or
        takes its lease over from another holder (PostgreSQL's NOTIFY; never on SQLite), and
        `callback(None)` when notifications may have been missed (the listener reconnected), so
        anything may have changed. It runs on the event loop and must not block. Returns the
        function that unregisters it."""
        return self._changes.on_change(callback)

    @property
    def writer_stats(self) -> WriterStats:
        """Group-commit counters (ops, batches, largest batch)."""
        return self._writer.stats

    async def _read(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        reader = self._reader
        if reader is None:
            raise StoreError("the store is not open", hint="Use `async with Store(path) as store`.")
        return await reader.fetchall(sql, params)

    # --- tasks ----------------------------------------------------------------------------

    async def create_task(
        self,
        type: str,
        args: dict[str, Any],
        *,
        ttl_ms: int = 3_600_000,
        meta: dict[str, Any] | None = None,
        principal: str | None = None,
    ) -> TaskRecord:
        """Insert a new pending task with id 'task_<uuid4>', owned by `principal`, and return it."""
        if not isinstance(type, str) or not type:
            raise InvalidParams("a task needs a non-empty type", fields=["type"])
        if not isinstance(args, dict):
            raise InvalidParams("task args must be an object", fields=["args"])
        if not isinstance(ttl_ms, int) or ttl_ms < 0:
            raise InvalidParams(f"ttl_ms must be a whole number >= 0, got {ttl_ms!r}", fields=["ttl_ms"])
        args_json, meta_json = dumps(args, "args"), dumps(meta or {}, "meta")
        clock = self._clock
        if principal is not None and (not isinstance(principal, str) or not principal):
            raise InvalidParams("a task's principal is a non-empty name", fields=["principal"])
        return await self._writer.submit(
            lambda c: tasks.create(c, clock, type, args_json, ttl_ms, meta_json, principal)
        )

    async def get_task(self, task_id: str) -> TaskRecord:
        """The task; TaskNotFound if there is none (or it expired and was deleted)."""
        rows = await self._read(tasks.SELECT_TASK, (task_id,))
        if not rows:
            raise TaskNotFound(task_id)
        return record_from_row(rows[0])

    async def get_tasks(self, task_ids: Sequence[str]) -> list[TaskRecord]:
        """The rows of those of `task_ids` that exist, in no particular order (one query per 500 ids)."""
        records: list[TaskRecord] = []
        task_ids = [i for i in task_ids if "\x00" not in i]  # one such id would empty its whole chunk
        for start in range(0, len(task_ids), _IDS_PER_READ):
            chunk = task_ids[start : start + _IDS_PER_READ]
            rows = await self._read(tasks.SELECT_TASK_IN + tasks.placeholders(len(chunk)), chunk)
            records.extend(record_from_row(row) for row in rows)
        return records

    async def list_tasks(
        self,
        *,
        status: str | Sequence[str] | None = None,
        type: str | None = None,
        limit: int = 50,
        cursor: str | None = None,
        principal: str | None = None,
        include_unowned: bool = False,
    ) -> tuple[list[TaskRecord], str | None]:
        """One page of tasks, oldest first, and the cursor of the next page (None at the end).

        With `principal`, only the tasks it owns (plus, with `include_unowned`, those with no owner).
        """
        sql, params = tasks.list_query(status, type, limit, cursor, principal, include_unowned)
        records = [record_from_row(row) for row in await self._read(sql, params)]
        if len(records) > limit:
            records = records[:limit]
            return records, tasks.encode_cursor(records[-1])
        return records, None

    async def transition(
        self, task_id: str, status: str, *, message: str | None = None, owner: str | None = None
    ) -> TaskRecord:
        """Change the task's status if allowed and return it.

        The same status is a no-op; a finished task can't change (InvalidTransition); with
        `owner`, only the lease holder may change it (LeaseHeld). A finished task gets
        expires_at = finish time + ttl_ms and loses its lease.
        """
        target = parse_status(status)
        clock = self._clock
        return await self._writer.submit(
            lambda c: tasks.transition(c, clock, task_id, target, message, owner, on_finish=self._file_run)
        )

    async def set_progress(self, task_id: str, progress: dict[str, Any], *, owner: str | None = None) -> None:
        """Record progress {step, completed, total, message}; TaskTerminal once finished.

        With `owner`, only the lease holder may write it (LeaseHeld otherwise), as for every
        write a runner makes into its task: a runner that lost its lease writes nothing more.
        """
        if not isinstance(progress, dict):
            raise InvalidParams(
                "progress must be an object {step, completed, total, message}", fields=["progress"]
            )
        text, clock = dumps(progress, "progress"), self._clock
        await self._writer.submit(lambda c: tasks.set_progress(c, clock, task_id, text, owner))

    async def set_partial(self, task_id: str, partial: Any, *, owner: str | None = None) -> None:
        """Replace the task's partial result; TaskTerminal once finished; with `owner`, LeaseHeld
        unless it holds the lease."""
        text, clock = dumps_or_none(partial, "partial"), self._clock
        await self._writer.submit(lambda c: tasks.set_partial(c, clock, task_id, text, owner))

    async def complete(
        self, task_id: str, result: Any, *, owner: str | None = None, cancel_wins: bool = False
    ) -> TaskRecord:
        """Finish the task with `result`; InvalidTransition if it already finished.

        With `cancel_wins`, a task whose cancel was requested ends `cancelled` instead (the result
        is dropped): check the returned record's status.
        """
        text, clock = dumps(result, "result"), self._clock
        return await self._writer.submit(
            lambda c: tasks.transition(
                c,
                clock,
                task_id,
                TaskStatus.COMPLETED,
                None,
                owner,
                result=text,
                strict_same=True,
                cancel_wins=cancel_wins,
                on_finish=self._file_run,
            )
        )

    async def fail(self, task_id: str, error: dict[str, Any], *, owner: str | None = None) -> TaskRecord:
        """Finish the task with `error` {step, message, recoverable}; InvalidTransition if finished."""
        if not isinstance(error, dict) or not isinstance(error.get("message"), str):
            raise InvalidParams("error must be an object with a 'message' string", fields=["error"])
        text, clock = dumps(error, "error"), self._clock
        message = error["message"]
        return await self._writer.submit(
            lambda c: tasks.transition(
                c,
                clock,
                task_id,
                TaskStatus.FAILED,
                message,
                owner,
                error=text,
                strict_same=True,
                on_finish=self._file_run,
            )
        )

    async def park(self, task_id: str, request: dict[str, Any], *, owner: str) -> TaskRecord:
        """The task `owner` runs now waits for its owner's input: status input_required, `request`
        ({kind, message, ...}) in meta.inputRequest, the lease released, in one transaction.
        LeaseHeld unless `owner` holds the lease; TaskTerminal once finished."""
        text, clock = dumps(request, "request"), self._clock
        message = str(request.get("message") or "waiting for input")
        return await self._writer.submit(lambda c: tasks.park(c, clock, task_id, text, message, owner))

    async def unpark(
        self,
        task_ids: Sequence[str],
        *,
        message: str = "input given",
        args: Mapping[str, dict[str, Any]] | None = None,
    ) -> list[TaskRecord]:
        """Those of `task_ids` still input_required go back to working (claimable, resumed from
        their checkpoints), their request dropped; returns them. `args`: new args for some of them
        (the input was part of their args)."""
        ids, clock = list(task_ids), self._clock
        if not ids:
            return []
        texts = {task_id: dumps(value, "args") for task_id, value in (args or {}).items()}
        return await self._writer.submit(lambda c: tasks.unpark(c, clock, ids, message, texts))

    async def back_off(self, task_id: str, error: dict[str, Any], why: str, *, owner: str) -> TaskRecord:
        """End `owner`'s run on a transient Exa error: the task waits its backoff, or is given up
        (failed) after too many such runs without progress (store/backoff.py)."""
        clock = self._clock
        return await self._writer.submit(
            lambda c: backoff.back_off(c, clock, task_id, owner, error, why, self._file_run)
        )

    async def waiting_tasks(self, principal: str) -> list[TaskRecord]:
        """`principal`'s tasks waiting for input (input_required), oldest first."""
        return [record_from_row(row) for row in await self._read(tasks.SELECT_WAITING, (principal,))]

    async def request_cancel(self, task_id: str) -> TaskRecord:
        """Ask whoever runs the task to cancel it (sets cancel_requested); TaskTerminal if finished."""
        clock = self._clock
        return await self._writer.submit(lambda c: tasks.request_cancel(c, clock, task_id))

    async def delete_expired(self) -> int:
        """Delete finished tasks past their expiry, with their steps and events; return how many.

        Each leaves a tombstone (see `get_tombstone`), so its owner learns it expired."""
        clock = self._clock
        return await self._writer.submit(lambda c: tasks.delete_expired(c, clock))

    async def get_tombstone(self, task_id: str) -> dict[str, Any] | None:
        """What is left of a task removed after its TTL: {id, owner, type, status, expired_at}, or None.

        Tombstones are kept for a week (`tasks.TOMBSTONE_KEEP_MS`), then forgotten.
        """
        rows = await self._read(tasks.SELECT_TOMBSTONE, (task_id,))
        if not rows:
            return None
        return dict(zip(("id", "owner", "type", "status", "expired_at"), rows[0], strict=True))

    async def events(self, task_id: str) -> list[dict[str, Any]]:
        """The task's events, oldest first: {id, task_id, at, kind, status, message, data}."""
        rows = await self._read(tasks.SELECT_EVENTS, (task_id,))
        if not rows:
            await self._require_task(task_id)
        return [tasks.event_from_row(row) for row in rows]

    async def _require_task(self, task_id: str) -> None:
        if not await self._read(tasks.SELECT_EXISTS, (task_id,)):
            raise TaskNotFound(task_id)

    # --- step checkpoints -----------------------------------------------------------------

    async def save_step(self, task_id: str, step_key: str, result: Any, *, owner: str | None = None) -> None:
        """Checkpoint a step's JSON result; durable (committed) once this returns.

        With `owner`, only the lease holder may save (LeaseHeld otherwise).
        """
        text = dumps(result, "result of step", step_key)
        op = tasks.save_step(task_id, step_key, text, iso(self._clock()), owner, sql=self._save_step_sql)
        await self._writer.queue(op)  # its future, awaited here: one coroutine less than submit()

    async def load_step(self, task_id: str, step_key: str) -> tuple[bool, Any]:
        """(True, result) if the step was checkpointed, else (False, None); TaskNotFound if no task."""
        rows = await self._read(tasks.SELECT_STEP, (task_id, step_key))
        if not rows:
            await self._require_task(task_id)
            return False, None
        return True, json.loads(rows[0][0])

    async def load_steps(self, task_id: str) -> dict[str, Any]:
        """Every checkpointed step of the task, in the order they were saved."""
        rows = await self._read(tasks.SELECT_STEPS, (task_id,))
        if not rows:
            await self._require_task(task_id)
        return {key: json.loads(text) for key, text in rows}

    # --- the cost ledger --------------------------------------------------------------------

    async def record_cost(self, row: costs.CostRow, *, wait: bool = True) -> None:
        """Write one paid answer to the ledger (nothing if its key is there already); durable
        (committed) once this returns. See data-design/prices.md.

        Rows are written first in the writer's next group commit (one executemany), in the same
        transaction as what was queued after them, so the ledger adds no commit to a checkpoint
        (bench/ledger.py). `wait=False` returns at once: the row commits with the next group
        commit, so never after the checkpoint of the step that paid."""
        future = self._costs.add(costs.params(row, iso(self._clock())), wait=wait)
        if wait:
            await asyncio.shield(future)

    async def task_costs(self, task_ids: Sequence[str]) -> dict[str, dict[str, float]]:
        """`{usd, billed, estimated}` of each of `task_ids` (a task that paid nothing: zeros)."""
        out = {task_id: dict(costs.ZERO) for task_id in task_ids}
        ids = [i for i in task_ids if "\x00" not in i]
        for start in range(0, len(ids), _IDS_PER_READ):
            chunk = ids[start : start + _IDS_PER_READ]
            rows = await self._read(costs.TOTALS_IN + tasks.placeholders(len(chunk)), chunk)
            out.update(costs.totals_from_rows(rows))
        return out

    async def task_ledger(self, task_id: str, principal: str | None, since: str) -> tuple[set[str], set[str]]:
        """(the keys of the task's estimated rows, the steps its billed rows paid in) as the ledger
        holds them: what a resumed run must not count again, and where its requests are re-sends.
        `principal` and `since` (the task's owner and creation time) find its rows by the
        principal's index."""
        if principal is None:
            rows = await self._read(costs.TASK_ROWS_NO_PRINCIPAL, (since, task_id))
        else:
            rows = await self._read(costs.TASK_ROWS, (principal, since, task_id))
        estimated = {str(key) for key, _, billed in rows if not billed}
        steps = {str(step) for _, step, billed in rows if billed and step is not None}
        return estimated, steps

    async def task_run_keys(self, task_id: str, principal: str | None, since: str) -> set[str]:
        """The ledger keys of the agent runs the task's rows hold (`agent_run:<id>`, each counted once
        its final state was read): a resumed task's purse holds the worst case of its other runs.
        Same lookup as `task_ledger` (a new method, so its callers are untouched)."""
        if principal is None:
            rows = await self._read(costs.TASK_ROWS_NO_PRINCIPAL, (since, task_id))
        else:
            rows = await self._read(costs.TASK_ROWS, (principal, since, task_id))
        return {str(key) for key, _, _ in rows if str(key).startswith("agent_run:")}

    async def spent_since(self, principal: str, since: str) -> tuple[float, frozenset[str]]:
        """Dollars the ledger holds for `principal` from `since` (an ISO timestamp) on, and the keys
        of those rows a later read reports again (agent runs' final states, estimated items): what
        a daily cap seeded from this sum must not count twice."""
        rows = await self._read(costs.SPENT_SINCE, (principal, since))
        keys = await self._read(costs.ONCE_KEYS_SINCE, (principal, since))
        return (float(rows[0][0] or 0) if rows else 0.0), frozenset(str(k) for (k,) in keys)

    async def daily_costs(self, principal: str | None = None) -> list[tuple[str, float, int]]:
        """(day, dollars, requests) per UTC day, newest first; only `principal`'s if given."""
        rows = await self._read(costs.DAILY, (principal, principal))
        return [(str(day), float(usd or 0), int(n)) for day, usd, n in rows]

    # --- the run pools (store/slots.py) ---------------------------------------------------

    async def slot_round(
        self,
        pool: str,
        *,
        limit: int,
        rate: float,
        ttl_s: float,
        changes: slots.SlotChanges,
        asking: Sequence[int],
        stale_s: float,
    ) -> slots.SlotRound | None:
        """One round of the pool `pool` for this process (its owner id), None when another
        server's round holds it: see store/slots.py."""
        clock, owner, wanted = self._clock, self.owner_id, list(asking)
        return await self._writer.submit(
            lambda c: slots.run_round(
                c,
                clock,
                pool=pool,
                owner=owner,
                ttl_s=ttl_s,
                limit=limit,
                rate=rate,
                changes=changes,
                asking=wanted,
                stale_s=stale_s,
            )
        )

    # --- leases ---------------------------------------------------------------------------

    async def acquire_lease(self, task_id: str, owner: str, ttl_s: float) -> bool:
        """Take the task's lease for ttl_s if it is free, expired, ours, or its holder died."""
        clock = self._clock
        return await self._writer.submit(lambda c: leases.acquire(c, clock, task_id, owner, ttl_s))

    async def renew_leases(self, owner: str, ttl_s: float, task_ids: Sequence[str] | None = None) -> int:
        """Extend every lease `owner` holds on unfinished tasks (only `task_ids`, if given); return how many."""
        clock = self._clock
        ids = None if task_ids is None else list(task_ids)
        return await self._writer.submit(lambda c: leases.renew(c, clock, owner, ttl_s, ids))

    async def note_lapse(self, task_id: str, owner: str, taken_by: str, *, suspect: bool) -> bool:
        """Record that `owner` lived on while its lease on `task_id` lapsed and `taken_by` took it:
        the lost run is no strike against the task unless `suspect` (leases.py)."""
        clock = self._clock
        return await self._writer.submit(
            lambda c: leases.note_lapse(c, clock, task_id, owner, taken_by, suspect)
        )

    async def release_lease(self, task_id: str, owner: str) -> None:
        """Give the lease back if `owner` holds it."""
        await self._writer.submit(lambda c: leases.release(c, task_id, owner))

    async def claim_runnable(
        self, owner: str, ttl_s: float, limit: int, types: Sequence[str] | None = None
    ) -> list[TaskRecord]:
        """Atomically lease up to `limit` unfinished tasks nobody live holds (oldest first).

        With `types`, only tasks of those types: a server doesn't take a task it cannot run.
        """
        clock = self._clock
        wanted = None if types is None else list(types)
        return await self._writer.submit(
            lambda c: leases.claim_runnable(c, clock, owner, ttl_s, limit, wanted, self._file_run)
        )

    # --- archive --------------------------------------------------------------------------

    def archive_runs(self, extractors: Mapping[str, archive.Extractor]) -> None:
        """From now on, a task of one of these types that ends files its run (`extractors[type]`
        makes its metrics and elites) in the same transaction as its terminal transition."""
        self._archivers.update(extractors)

    def _file_run(self, conn: Any, task: TaskRecord) -> None:
        extract = self._archivers.get(task.type)
        if extract is not None:
            archive.file_run(conn, self._clock, task, extract)

    async def sync_archetypes(self, archetypes: Mapping[str, archive.Archetype]) -> int:
        """Write each task type's archetype row and steps (see `archive.sync_archetypes`) in one
        transaction; return how many workflows changed."""
        return await self._writer.submit(lambda c: archive.sync_archetypes(c, archetypes))

    async def record_run(self, run: archive.RunRecord) -> int:
        """File a finished run (metrics and elites) in the MAP-Elites archive; return its id."""
        clock = self._clock
        return await self._writer.submit(lambda c: archive.record_run(c, clock, run))
