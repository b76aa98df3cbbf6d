"""The composition root: the one place that builds store, gateway, operations, workflows and runtime.

`open_app(settings, db_path)` opens every long-lived resource in one `AsyncExitStack` and closes
them in reverse order (runtime first, so actors stop at a safe point and release their leases
while the store is still open). Every face uses it: the MCP server (mcp/transport.py, which
`exa-orch serve` runs), the demo, the benchmarks and the tests' fixtures; none opens a resource
itself, each asks the `App`. It sits in the face layer: it imports the layers below and no lower
layer imports it. (The read-only view opens its own read-only connection: it needs no runtime.)

The runtime knows no task type (CONTRIBUTING.md, layers): it is handed the workflows it runs here,
with their typed dependencies (`App.deps`: the operations' dispatch, the gateway and the Exa port over it). This module
reads no environment: the face that calls `open_app` builds the Settings and names the extra task
types (the CLI loads `EXA_ORCH_EXTRA_WORKFLOWS` with workflows/loader.py; tests pass their specs).
"""

from __future__ import annotations

import logging
import time
from collections.abc import AsyncIterator, Callable, Iterable, Mapping
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from exa_orch.config import Settings
from exa_orch.exa.port import ExaPort
from exa_orch.gateway import Gateway, Ledger, PaidAnswer
from exa_orch.gateway.pool import SlotBook
from exa_orch.operations import (
    ClientPeer,
    OpContext,
    ProgressFn,
    Registry,
    default_registry,
    dispatch,
    no_progress,
)
from exa_orch.operations.follow import follow_workflow
from exa_orch.operations.tasks import operation_workflow
from exa_orch.operations.watch_runner import WatchScheduler
from exa_orch.runtime import (
    Deps,
    Principal,
    Supervisor,
    TaskService,
    TtlPolicy,
    WorkflowRegistry,
    WorkflowSpec,
)
from exa_orch.store import CostRow, Store, ensure_parent_dir, redact_db
from exa_orch.store.memory import EntityMemory
from exa_orch.store.slots import SlotChanges, SlotRound
from exa_orch.workflows import default_workflows

log = logging.getLogger(__name__)


@dataclass
class App:
    """Everything a request handler needs, as typed parts; built and closed by `open_app`.

    `workflows` are the task types the runtime runs; `supervisor` is None when no runtime runs
    (an App built by hand around a registry, as some tests do)."""

    settings: Settings
    store: Store
    gateway: Gateway
    registry: Registry
    workflows: WorkflowRegistry | None = None
    supervisor: Supervisor | None = None
    watches: WatchScheduler | None = None

    @property
    def tasks(self) -> TaskService | None:
        """The runtime's TaskService, or None when the runtime is not available."""
        return self.supervisor.tasks if self.supervisor is not None else None

    @cached_property
    def deps(self) -> Deps:
        """What every workflow of this app's runtime sees as `ctx.deps` (runtime/deps.py): its
        operations run through `run_operation`, never an import of the ops layer."""
        return Deps(
            dispatch=self.run_operation,
            gateway=self.gateway,
            exa_port=ExaPort(self.gateway),
            memory=EntityMemory(self.store),
        )

    def op_context(
        self,
        progress: ProgressFn | None = None,
        principal: Principal | None = None,
        peer: ClientPeer | None = None,
    ) -> OpContext:
        """An OpContext for one call; `progress` sends notifications when the call asked for them;
        `principal` is the caller (None: the local user); `peer` is the calling client's
        sampling/elicitation/roots (None for a durable task's run)."""
        return OpContext(
            gateway=self.gateway,
            settings=self.settings,
            progress=progress or no_progress,
            tasks=self.tasks,
            registry=self.registry,
            principal=principal,
            peer=peer,
            watches=self.watches,
        )

    async def run_operation(
        self,
        name: str,
        args: Mapping[str, Any] | str | None,
        progress: ProgressFn | None = None,
        principal: Principal | None = None,
        peer: ClientPeer | None = None,
    ) -> Any:
        """Dispatch one registered operation (validation, handler, projection) for `principal`.

        `args` is normally an object; a JSON-encoded string is left for dispatch's safe mode."""
        call_args: Any = dict(args) if isinstance(args, Mapping) else args
        return await dispatch(self.registry, name, call_args, self.op_context(progress, principal, peer))


def workflow_registry(registry: Registry, extra: Iterable[WorkflowSpec] = ()) -> WorkflowRegistry:
    """The workflows the runtime runs: built-ins, the "operation" and "exa.follow" types over
    `registry` (they run operations, so they are defined in the ops layer), and `extra`."""
    return default_workflows([operation_workflow(registry), follow_workflow(registry), *extra])


async def _open_runtime(
    stack: AsyncExitStack, app: App, extra: Iterable[WorkflowSpec], watch_clock: Callable[[], float] | None
) -> None:
    app.workflows = workflow_registry(app.registry, extra)
    # Before the runtime starts: a resumed task of a new type must find its row when it ends.
    changed = await app.store.sync_archetypes(app.workflows.archetypes())
    if changed:
        log.info("archive: %d workflow archetype(s) written from their specs", changed)
    app.supervisor = await stack.enter_async_context(
        Supervisor(
            app.store,
            app.workflows,
            app.deps,
            max_working=app.settings.max_tasks,
            lease_ttl=app.settings.lease_ttl,
            ttl=TtlPolicy(app.settings.task_ttl * 1000, app.settings.max_task_ttl * 1000),
        )
    )
    # Watches run on the wall clock, or a test's held one (operations/watch_runner.py).
    clock = watch_clock or time.time
    app.watches = await stack.enter_async_context(WatchScheduler(app.supervisor, clock=clock))


@asynccontextmanager
async def open_app(
    settings: Settings,
    db_path: Path | str,
    *,
    extra_workflows: Iterable[WorkflowSpec] = (),
    key_required: bool = True,
    watch_clock: Callable[[], float] | None = None,
) -> AsyncIterator[App]:
    """Open store, gateway, registry and runtime; yield the App; close them all on exit.

    The runtime runs the built-in task types and `extra_workflows` (the CLI's come from
    EXA_ORCH_EXTRA_WORKFLOWS, workflows/loader.py).

    Raises ConfigError (before opening anything) when Exa is real and EXA_API_KEY is unset, unless
    `key_required=False` (the MCP server): then each call to Exa answers MissingApiKey until a key is
    given (`app.gateway.set_api_key`, which the face does through elicitation).
    """
    if key_required:
        settings.require_api_key()
    async with AsyncExitStack() as stack:
        ensure_parent_dir(db_path)
        store = await stack.enter_async_context(Store(str(db_path)))
        gateway = await stack.enter_async_context(Gateway(settings, key_required=key_required))
        gateway.record_costs(ledger_of(store))
        gateway.cap_daily(store.spent_since)
        gateway.share_pools(book_of(store))
        app = App(settings=settings, store=store, gateway=gateway, registry=default_registry())
        await _open_runtime(stack, app, extra_workflows, watch_clock)
        log.info(
            "exa-orch app ready: db=%s exa=%s operations=%d runtime=%s",
            redact_db(db_path),
            settings.exa_url,
            len(app.registry.names()),
            "on" if app.supervisor is not None else "off",
        )
        yield app


def ledger_of(store: Store) -> Ledger:
    """The gateway's ledger: each paid answer becomes a `costs` row (data-design/prices.md)."""

    async def record(paid: PaidAnswer) -> None:
        # Queued, not awaited: it commits with the next group commit, and at the latest with the
        # checkpoint of the step that made the request (store.record_cost).
        # Field by field, not CostRow(**asdict(paid)): asdict deep-copies (9.7 us a row against 0.3).
        row = CostRow(paid.key, paid.operation, paid.usd, paid.billed, paid.task_id, paid.step_key,
                      paid.principal, paid.attempt, paid.resend)  # fmt: skip
        await store.record_cost(row, wait=False)

    return record


class _StoreBook:
    """The pools' book in the store (store/slots.py): one table for every server on the database."""

    def __init__(self, store: Store) -> None:
        self.owner = store.owner_id
        self._store = store

    async def __call__(
        self,
        pool: str,
        *,
        limit: int,
        rate: float,
        ttl_s: float,
        changes: SlotChanges,
        asking: list[int],
        stale_s: float,
    ) -> SlotRound | None:
        return await self._store.slot_round(
            pool, limit=limit, rate=rate, ttl_s=ttl_s, changes=changes, asking=asking, stale_s=stale_s
        )


def book_of(store: Store) -> SlotBook:
    """The gateway's pools kept in `store`, shared by every server on that database."""
    return _StoreBook(store)
