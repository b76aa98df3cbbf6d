"""The operation registry: name -> (args model, handler, summary).

Adding an operation is one handler and one `Operation(...)` line in the domain module's list.
"""

from __future__ import annotations

import difflib
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel

from exa_orch.errors import UnknownOperation

from .context import OpContext
from .projections import output_schema as projection_schema

Handler = Callable[[Any, OpContext], Awaitable[Any]]
"""async (args: <args_model instance>, ctx) -> JSON-able (the full Exa object, before projection)."""

CreateKey = Literal["externalId", "metadata"]
"""Where a create's key goes: the args' `externalId`, or `metadata.exaOrchKey` (gateway.marks)."""

Projection = Callable[[Any, Any], Any]
"""(result, args) -> what an agent sees; skipped when the call sets `raw: true`."""

Planner = Callable[[Any], dict[str, Any]]
"""args -> the HTTP request the handler would send ({method, path, query, body}); used by `preview`."""

# Arguments every operation accepts; the dispatcher consumes them before the args model sees the rest.
CONTROL_ARGS_SCHEMA: dict[str, Any] = {
    "mode": {
        "type": "string",
        "enum": ["safe", "strict"],
        "description": "safe (default) fixes common mistakes and reports them under 'normalized'; strict refuses them",
    },
    "preview": {"type": "boolean", "description": "validate and return the request without calling Exa"},
    "raw": {"type": "boolean", "description": "return the full Exa object instead of the projection"},
}


@dataclass(frozen=True)
class Operation:
    """One named operation. `long_running` ops wait on Exa (and report progress)."""

    name: str
    args_model: type[BaseModel]
    handler: Handler
    summary: str
    long_running: bool = False
    project: Projection | None = None
    plan: Planner | None = None
    hint: str | None = None
    """Added to InvalidParams and to Exa's 400/422 answers for this operation."""
    secret_result: bool = False
    """The result holds a secret shown once (webhooks.create): hand it to the caller, never persist it
    (a durable task must not run this operation)."""
    read_only: bool = False
    """Changes nothing at Exa or in the store: safe to send again after its answer was lost (the host
    client re-sends these, and only these, on a new child after a crash)."""
    create_key: CreateKey | None = None
    """A create: the argument that carries its key, by which its object is found again after a lost
    answer or a crash (operations/_creates.py); None for an operation that creates nothing."""
    found_with: str | None = None
    """A create whose object the operation named here (a get) returns when given the key as its id."""
    output: dict[str, Any] | None = None
    """The JSON Schema of the answer, for an operation without a projection that carries one."""

    def describe(self) -> dict[str, Any]:
        """{name, summary, longRunning, readOnly, createKey, argsSchema}: what list_operations shows."""
        return {
            "name": self.name,
            "summary": self.summary,
            "longRunning": self.long_running,
            "readOnly": self.read_only,
            "createKey": self.create_key,
            "argsSchema": self.args_schema(),
        }

    def output_schema(self) -> dict[str, Any] | None:
        """The JSON Schema of the default answer (projected, not raw), naming its keys: the
        projection's (projections.SCHEMAS) or `output`, plus the `normalized` note a safe-mode call
        may add; None when the operation declares none."""
        found = self.output or projection_schema(self.project)
        if found is None:
            return None
        props = found.get("properties")
        if found.get("type") != "object" or not isinstance(props, dict) or "normalized" in props:
            return dict(found)
        return {**found, "properties": {**props, "normalized": {"type": "array"}}}

    def args_schema(self) -> dict[str, Any]:
        """JSON Schema (draft 2020-12) of the args, camelCase, plus the control args."""
        schema = self.args_model.model_json_schema(by_alias=True, mode="validation")
        props = schema.setdefault("properties", {})
        for key, value in CONTROL_ARGS_SCHEMA.items():
            props.setdefault(key, value)
        schema.pop("title", None)
        return schema


class Registry:
    """Operations by name; `get` raises UnknownOperation with the closest names."""

    def __init__(self, operations: list[Operation] | None = None) -> None:
        self._ops: dict[str, Operation] = {}
        for op in operations or []:
            self.register(op)

    def register(self, op: Operation) -> None:
        """Add one operation; a name may be registered once."""
        if op.name in self._ops:
            raise ValueError(f"operation {op.name!r} is already registered")
        self._ops[op.name] = op

    def get(self, name: str) -> Operation:
        """The operation called `name`. Raises UnknownOperation (with suggestions)."""
        try:
            return self._ops[name]
        except (KeyError, TypeError):
            raise UnknownOperation(str(name), self.suggest(str(name))) from None

    def suggest(self, name: str, n: int = 3) -> list[str]:
        """Registered names closest to `name` (case and separators forgiven)."""
        norm = {self._norm(k): k for k in self._ops}
        hits = difflib.get_close_matches(self._norm(name), list(norm), n=n, cutoff=0.6)
        # A cut-short name ('research.poll') is a prefix of the one meant, which difflib ranks low.
        start = [k for nk, k in norm.items() if "." in name and nk.startswith(self._norm(name))]
        out = list(dict.fromkeys([*start[:1], *(norm[h] for h in hits)]))[:n]
        # 'list' -> websets.list, items.list ...: a bare verb matches every domain that has it.
        if not out:
            out = [k for k in self._ops if k.rsplit(".", 1)[-1].lower() == name.lower()][:n]
        return out

    @staticmethod
    def _norm(name: str) -> str:
        return name.lower().replace("_", "").replace("-", "").replace("/", ".")

    def names(self) -> list[str]:
        """Every registered name, sorted."""
        return sorted(self._ops)

    def __contains__(self, name: object) -> bool:
        return name in self._ops

    def __iter__(self) -> Iterator[Operation]:
        return iter(self._ops[n] for n in self.names())

    def __len__(self) -> int:
        return len(self._ops)

    def describe(self) -> list[dict[str, Any]]:
        """[{name, summary, longRunning, readOnly, createKey, argsSchema}] for every operation, by name."""
        return [op.describe() for op in self]

    def read_only(self) -> frozenset[str]:
        """The names of the operations that change nothing (safe to send again)."""
        return frozenset(op.name for op in self if op.read_only)
