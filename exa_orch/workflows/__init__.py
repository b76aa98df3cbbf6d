"""Workflows: the task types the runtime runs, each a resumable async function on TaskContext.

WorkflowSpec and WorkflowRegistry are defined in `exa_orch.runtime.spec` (the runtime must not
import upward) and re-exported here. `default_workflows(extra)` is what the face registers: the
built-in task types plus `extra` (the CLI's come from EXA_ORCH_EXTRA_WORKFLOWS, `load_extra_workflows`).
"""

from __future__ import annotations

from collections.abc import Iterable

from exa_orch.runtime.spec import WorkflowFn, WorkflowRegistry, WorkflowSpec
from exa_orch.workflows import adversarial, citations, convergent, harvest, research, verified, winnow
from exa_orch.workflows.loader import ENV_VAR, load_extra_workflows

# Each research task type checks its citations after its work (workflows/citations.py): set in its
# module's own WORKFLOWS, so the type is the same object whoever registers it.
for _module in (winnow, harvest, convergent, adversarial, research, verified):
    _module.WORKFLOWS[:] = [citations.checking(spec) for spec in _module.WORKFLOWS]

# The six research workflows of seed 002 section 2.
BUILTIN_WORKFLOWS: list[WorkflowSpec] = [
    *winnow.WORKFLOWS,  # qd.winnow
    *harvest.WORKFLOWS,  # lifecycle.harvest
    *convergent.WORKFLOWS,  # convergent.search
    *adversarial.WORKFLOWS,  # adversarial.verify
    *research.WORKFLOWS,  # research.deep
    *verified.WORKFLOWS,  # research.verifiedCollection
]


def default_workflows(extra: Iterable[WorkflowSpec] = ()) -> WorkflowRegistry:
    """A registry with the built-ins and `extra` (the face's "operation" workflow, a test's own)."""
    return WorkflowRegistry([*BUILTIN_WORKFLOWS, *extra])


__all__ = [
    "BUILTIN_WORKFLOWS",
    "ENV_VAR",
    "WorkflowFn",
    "WorkflowRegistry",
    "WorkflowSpec",
    "default_workflows",
    "load_extra_workflows",
]
