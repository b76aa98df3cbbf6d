"""A CSV import's steps, typed: the import as exa-py's `Import` (`ExaPort.create_csv_import`,
`wait_import`), checkpointed as Exa's import JSON and read back as the same model.

Up to exa-orch 7178f40, memory.webset_exclude kept only the import's `{id, status}` (step
`known.import`) and `{import: {id, status}, timedOut}` (step `known.import.wait`): `from_summary`
reads those as an `Import` holding the two fields they kept (tests/workflows/test_import_steps.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from exa_orch.gateway.client import exa_py_imported
from exa_orch.workflows import kit

if TYPE_CHECKING:
    from exa_py.websets.types import Import

SUMMARY_KEYS = frozenset({"id", "status"})
"""What the older version kept of an import."""


@dataclass(frozen=True)
class ImportWait:
    """How a wait for an import ended: the import as last read, and whether the wait ran out first."""

    imp: Import
    timed_out: bool


async def load_import(saved: Any) -> Import:
    """exa-py's `Import` from its checkpointed JSON (an older version's `{id, status}` too)."""
    await exa_py_imported()
    from exa_py.websets.types import Import

    if isinstance(saved, dict) and set(saved) <= SUMMARY_KEYS:
        return from_summary(saved)
    return Import.model_validate(saved)


def from_summary(saved: dict[str, Any]) -> Import:
    """Compat: an import an older version kept as `{id, status}`, as an `Import` with those two
    fields set and no other (built without validation: Exa's other required fields were not kept;
    memory reads only the id and the status). exa-py must be imported (`load_import` does that)."""
    from exa_py.websets.types import Import

    return Import.model_construct(id=str(saved["id"]), object="import", status=str(saved.get("status")))


async def _load_wait(saved: Any) -> ImportWait:
    return ImportWait(await load_import(saved["import"]), bool(saved.get("timedOut")))


IMPORT: kit.Saved[Import] = kit.Saved(kit.dumped, load_import)
"""exa-py's `Import`, kept as Exa's import JSON."""
WAIT: kit.Saved[ImportWait] = kit.Saved(
    lambda wait: {"import": kit.dumped(wait.imp), "timedOut": wait.timed_out}, _load_wait
)
"""An import wait (`ImportWait`), kept as {import (Exa's JSON), timedOut}: the keys the older version used."""
