"""The durable task runtime: Supervisor, TaskActor (mailbox), TaskContext (steps, checkpoints).

The runtime knows no task type: the face hands it a WorkflowRegistry and the workflows' Deps
(runtime/deps.py: `dispatch` runs an operation, typed by the Dispatch protocol).
"""

from exa_orch.runtime.actor import Message, TaskActor
from exa_orch.runtime.context import TaskContext
from exa_orch.runtime.dedupe import create_or_get
from exa_orch.runtime.deps import Deps, Dispatch, Progress, no_operations
from exa_orch.runtime.events import TaskEvent, TaskListener
from exa_orch.runtime.principal import (
    BearerTokens,
    Principal,
    TtlPolicy,
    concerning,
    constant_time_match,
    local_principal,
    record_principal,
)
from exa_orch.runtime.service import TaskService, input_kind
from exa_orch.runtime.spec import WorkflowFn, WorkflowRegistry, WorkflowSpec
from exa_orch.runtime.supervisor import Supervisor

__all__ = [
    "BearerTokens",
    "Deps",
    "Dispatch",
    "Message",
    "Principal",
    "Progress",
    "Supervisor",
    "TaskActor",
    "TaskContext",
    "TaskEvent",
    "TaskListener",
    "TaskService",
    "TtlPolicy",
    "WorkflowFn",
    "WorkflowRegistry",
    "WorkflowSpec",
    "concerning",
    "constant_time_match",
    "create_or_get",
    "input_kind",
    "local_principal",
    "no_operations",
    "record_principal",
]
