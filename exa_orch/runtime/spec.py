"""What the runtime runs: a WorkflowSpec per task type, kept in a WorkflowRegistry.

The runtime knows no task type; the face hands it a registry when it assembles the application
(the way DBOS runs the user's workflows). The types live here, below `workflows/`, so that
imports run one way; `exa_orch.workflows` re-exports them with the loader and the built-ins.
"""

from __future__ import annotations

import builtins
import difflib
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ValidationError

from exa_orch.errors import InvalidParams
from exa_orch.gateway.prices import Part
from exa_orch.store.archive import Archetype, Extractor

if TYPE_CHECKING:
    from exa_orch.runtime.context import TaskContext

WorkflowFn = Callable[["TaskContext", Any], Awaitable[Any]]
Estimator = Callable[[Any], list[Part]]  # validated args -> the paid work a run may do (prices.Part)


@dataclass(frozen=True)
class WorkflowSpec:
    """A task type: `fn(ctx, args)` gets the validated `args_model` instance and returns JSON-able data.

    `fn` must be resumable: every side effect goes through `ctx.step(...)`, so that a run resumed
    after a crash replays the saved results instead of repeating the work.

    `archive`, if given, files every run of this type in the MAP-Elites archive: when the task
    ends (completed, failed or cancelled) it gets the finished TaskRecord and returns the run's
    metrics and elites, which the store writes in the same transaction as the terminal status.

    `archetype`, if given, is this type's row in the archive (`workflows`, `workflow_steps`): the
    application writes it at start-up (`Store.sync_archetypes`), so runs of a new type are filed
    without a migration (a type with `archive` and no row files nothing; the store logs why).

    `estimate`, if given, lists the paid work a run with these (validated) args may do, priced by
    `gateway/prices.py`: tasks.create's `preview: true` answers with its range.
    """

    type: str
    args_model: builtins.type[BaseModel]
    fn: WorkflowFn
    summary: str = ""
    archive: Extractor | None = None
    archetype: Archetype | None = None
    estimate: Estimator | None = None

    def validate(self, args: dict[str, Any] | None) -> BaseModel:
        """The args as the workflow's model; raise InvalidParams naming each bad field."""
        try:
            return self.args_model.model_validate(args or {})
        except ValidationError as exc:
            fields = [".".join(str(p) for p in err["loc"]) or "(args)" for err in exc.errors()]
            details = "; ".join(
                f"{'.'.join(str(p) for p in err['loc']) or '(args)'}: {err['msg']}" for err in exc.errors()
            )
            raise InvalidParams(
                f"invalid args for task type {self.type!r}: {details}",
                hint=f"Fix the named field(s); list_operations {{taskType: {self.type!r}}} shows its args schema.",
                fields=fields,
            ) from None

    def dump(self, model: BaseModel) -> dict[str, Any]:
        """The validated args as stored in the task row (JSON, the wire's aliases)."""
        return model.model_dump(mode="json", by_alias=True)


class WorkflowRegistry:
    """Task type -> WorkflowSpec. Registering a type twice is an error (it would shadow silently)."""

    def __init__(self, specs: Iterable[WorkflowSpec] = ()) -> None:
        self._specs: dict[str, WorkflowSpec] = {}
        for spec in specs:
            self.register(spec)

    def register(self, spec: WorkflowSpec) -> None:
        """Add a task type; ValueError if the type is taken by another spec."""
        existing = self._specs.get(spec.type)
        if existing is not None and existing is not spec:
            raise ValueError(f"task type {spec.type!r} is already registered")
        self._specs[spec.type] = spec

    def get(self, type: str) -> WorkflowSpec:
        """The spec of a task type; InvalidParams with close names if there is none."""
        spec = self._specs.get(type)
        if spec is None:
            close = difflib.get_close_matches(type, list(self._specs), n=3)
            hint = (f"Did you mean {', '.join(repr(c) for c in close)}? " if close else "") + (
                f"Known task types: {', '.join(sorted(self._specs)) or '(none)'}."
            )
            raise InvalidParams(f"unknown task type {type!r}", hint=hint, fields=["type"])
        return spec

    def archivers(self) -> dict[str, Extractor]:
        """Task type -> archive extractor, for the types that file their runs."""
        return {t: s.archive for t, s in self._specs.items() if s.archive is not None}

    def archetypes(self) -> dict[str, Archetype]:
        """Task type -> its archive row and steps, for the types that declare one."""
        return {t: s.archetype for t, s in self._specs.items() if s.archetype is not None}

    def types(self) -> list[str]:
        """Every registered task type, sorted."""
        return sorted(self._specs)

    def __contains__(self, type: object) -> bool:
        return type in self._specs

    def __len__(self) -> int:
        return len(self._specs)
