"""The composition root: the one place that builds store, gateway, operations, workflows and runtime.

`open_app(settings, db_path)` opens every long-lived resource in one `AsyncExitStack` and closes
them in reverse order (runtime first, so actors stop at a safe point and release their leases
while the store is still open). Every face uses it: the MCP server (mcp/transport.py, which
`exa-orch serve` runs), the demo, the benchmarks and the tests' fixtures; none opens a resource
itself, each asks the `App`. It sits in the face layer: it imports the layers below and no lower
layer imports it. (The read-only view opens its own read-only connection: it needs no runtime.)

The runtime knows no task type (CONTRIBUTING.md, layers): it is handed the workflows it runs here.
Extra workflow specs for tests come from `EXA_ORCH_EXTRA_WORKFLOWS="module:attribute"`, which the
workflows' loader (workflows/loader.py) reads; this module only passes the environment through.
"""

from __future__ import annotations

import logging
import os
from collections.abc import AsyncIterator, Mapping
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from exa_orch.config import Settings
from exa_orch.gateway import Gateway
from exa_orch.operations import (
    ClientPeer,
    OpContext,
    ProgressFn,
    Registry,
    default_registry,
    dispatch,
    no_progress,
)
from exa_orch.operations.follow import FOLLOW_WORKFLOW
from exa_orch.operations.tasks import OPERATION_WORKFLOW
from exa_orch.runtime import Principal, Supervisor, TaskService, TtlPolicy, WorkflowRegistry
from exa_orch.store import Store, ensure_parent_dir, redact_db
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

    @property
    def tasks(self) -> TaskService | None:
        """The runtime's TaskService, or None when the runtime is not available."""
        return self.supervisor.tasks if self.supervisor is not None else None

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


def workflow_registry(env: Mapping[str, str]) -> WorkflowRegistry:
    """The workflows the runtime runs: built-ins, the "operation" and "exa.follow" types (which run
    operations, so they are defined in the ops layer), and EXA_ORCH_EXTRA_WORKFLOWS."""
    return default_workflows([OPERATION_WORKFLOW, FOLLOW_WORKFLOW], env=env)


def runtime_services(app: App) -> dict[str, Any]:
    """What every workflow sees as `ctx.services` (the runtime's interface, runtime/context.py).

    The runtime runs an operation as a durable task through the `dispatch` callable, never an
    import of the ops layer."""
    return {
        "settings": app.settings,
        "gateway": app.gateway,
        "registry": app.registry,
        "dispatch": app.run_operation,
    }


async def _open_runtime(stack: AsyncExitStack, app: App) -> None:
    app.workflows = workflow_registry(os.environ)
    # Before the runtime starts: a resumed task of a new type must find its row when it ends.
    changed = await app.store.sync_archetypes(app.workflows.archetypes())
    if changed:
        log.info("archive: %d workflow archetype(s) written from their specs", changed)
    app.supervisor = await stack.enter_async_context(
        Supervisor(
            app.store,
            app.workflows,
            runtime_services(app),
            max_working=app.settings.max_tasks,
            ttl=TtlPolicy(app.settings.task_ttl * 1000, app.settings.max_task_ttl * 1000),
        )
    )


@asynccontextmanager
async def open_app(
    settings: Settings, db_path: Path | str, *, key_required: bool = True
) -> AsyncIterator[App]:
    """Open store, gateway, registry and runtime; yield the App; close them all on exit.

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
        app = App(settings=settings, store=store, gateway=gateway, registry=default_registry())
        await _open_runtime(stack, app)
        log.info(
            "exa-orch app ready: db=%s exa=%s operations=%d runtime=%s",
            redact_db(db_path),
            settings.exa_url,
            len(app.registry.names()),
            "on" if app.supervisor is not None else "off",
        )
        yield app
