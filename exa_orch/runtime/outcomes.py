"""What a task's run ends with when its workflow raised: a failure, or a wait for its owner.

`input_request` turns an error that asks for the owner's input (it, or an error it wraps, has an
`input_kind`: the API key, a path's roots) into what the task waits for (`input_required`);
`transient` finds a transient Exa error (the run ends and the task resumes after a backoff:
store/backoff.py); `error_dict` turns any other into the task's stored error {step, message,
recoverable, code}.
Both name the step that failed: the error's own `failed_step`, else the context's current step.
"""

from __future__ import annotations

from typing import Any

from exa_orch.errors import GatewayError, OrchError
from exa_orch.gateway.retry import RETRY_STATUSES
from exa_orch.runtime.context import TaskContext
from exa_orch.store import TaskRecord


def input_request(exc: BaseException, record: TaskRecord, ctx: TaskContext | None) -> dict[str, Any] | None:
    """What the task waits for when `exc` (or an error it wraps) asks for its owner's input
    (`input_kind`): {kind, principal, step, message, hint, ...its `input_detail`}; None for any other failure, and for a
    task with no owner to ask."""
    seen: set[int] = set()
    found: BaseException | None = exc
    while found is not None and id(found) not in seen and getattr(found, "input_kind", None) is None:
        seen.add(id(found))
        found = found.__cause__ or found.__context__
    if found is None or record.principal is None:
        return None
    step = getattr(exc, "failed_step", None) or (ctx.current_step if ctx is not None else None) or "workflow"
    detail = getattr(found, "input_detail", None)
    return {
        **(detail if isinstance(detail, dict) else {}),
        "kind": str(getattr(found, "input_kind", "")),
        "principal": record.principal,
        "step": step,
        "message": getattr(found, "message", str(found)),
        "hint": getattr(found, "hint", None),
    }


def error_dict(exc: BaseException, ctx: TaskContext | None, *, step: str | None = None) -> dict[str, Any]:
    """The task's error {step, message, recoverable, code}: recoverable = retrying later may succeed.

    `step` names where it failed outside the workflow ("start": its args; "result": its answer)."""
    step = (
        step
        or getattr(exc, "failed_step", None)
        or (ctx.current_step if ctx is not None else None)
        or "workflow"
    )
    if isinstance(exc, OrchError):
        recoverable = isinstance(exc, GatewayError) and exc.retryable
        return {"step": step, "message": exc.message, "recoverable": recoverable, "code": str(exc.code)}
    return {
        "step": step,
        "message": f"{type(exc).__name__}: {exc}",
        "recoverable": False,
        "code": "INTERNAL_ERROR",
    }


def transient(exc: BaseException) -> tuple[GatewayError, str] | None:
    """The transient Exa error behind `exc` (it, or an error it wraps), and why in a few words
    ("Exa answered 503"); None if there is none. Transient: what the gateway retries itself (a
    429, 500, 502, 503, 504, a timeout or a dropped connection) and still failed after its retries."""
    seen: set[int] = set()
    found: BaseException | None = exc
    while found is not None and id(found) not in seen:
        seen.add(id(found))
        if isinstance(found, GatewayError) and (found.retryable or found.status in RETRY_STATUSES):
            if found.status is not None:
                return found, f"Exa answered {found.status}"
            return found, "Exa did not answer (a timeout or a dropped connection)"
        found = found.__cause__ or found.__context__
    return None
