"""What a call or a task would cost at Exa, said without spending: the `cost` of a `preview: true`
answer (operations/dispatch.py).

A call's cost is its request's worst case (`gateway/ledger.worst_case`, from the price table); a
task's (tasks.create with `preview: true`) is the range of its task type's estimate
(`WorkflowSpec.estimate`), or of the operation it runs. `{lowUsd, highUsd, parts, source}`
(`gateway/prices.price_range`); None when exa-orch can't say (a cost that depends on objects it has
not seen, such as an enrichment of an existing webset's items).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

from exa_orch.gateway import prices
from exa_orch.gateway.agent_runs import RunOptions
from exa_orch.gateway.ledger import worst_case

from .context import OpContext
from .registry import Operation, Registry

_PAID = ("/search", "/findSimilar", "/contents", "/answer")
_WEBSET_CREATE = re.compile(r"/websets/v0/websets/?")
_SEARCH_CREATE = re.compile(r"/websets/v0/websets/[^/]+/searches/?")
_MONITOR_CREATE = re.compile(r"/websets/v0/monitors/?")
_FREE_METHODS = ("GET", "HEAD", "DELETE")
_TASK_TYPE = "operation"  # operations/tasks.py's OPERATION_TASK_TYPE (imported there from here would cycle)


def request_parts(plan: dict[str, Any]) -> list[prices.Part] | None:
    """The paid work of one planned request ({method, path, body}); [] if Exa bills nothing for it."""
    method, path = str(plan.get("method")), str(plan.get("path"))
    body = plan.get("body") if isinstance(plan.get("body"), dict) else {}
    assert isinstance(body, dict)
    if method in _FREE_METHODS:
        return []
    if path.rstrip("/") in _PAID:
        return [
            prices.Part(
                f"{method} {path}", 1, worst_case(method, path, json.dumps(body).encode()), certain=True
            )
        ]
    if path.rstrip("/") == "/agent/runs":
        effort = str(body.get("effort") or "auto")
        each = worst_case(method, path, json.dumps(body).encode())
        return [prices.Part(f"agent run ({effort})", 1, each, certain=effort in prices.AGENT_FIXED)]
    search = body.get("search") if isinstance(body.get("search"), dict) else None
    if _WEBSET_CREATE.fullmatch(path):
        count = search.get("count") if search else None
        enrichments = body.get("enrichments")
        columns = len(enrichments) if isinstance(enrichments, list) else 0
        contacts = prices.contact_columns(enrichments)
        return prices.webset(count if isinstance(count, int) else 0, columns, contacts=contacts)
    if _MONITOR_CREATE.fullmatch(path):  # the cost of each scheduled run
        behavior = body.get("behavior") if isinstance(body.get("behavior"), dict) else {}
        config = behavior.get("config") if isinstance(behavior, dict) else None
        count = config.get("count") if isinstance(config, dict) else None
        return prices.monitor_run(count if isinstance(count, int) else 0)
    if _SEARCH_CREATE.fullmatch(path):
        count = body.get("count")
        return prices.webset(count if isinstance(count, int) else 0, what="webset search")
    return None


def operation_parts(op: Operation, model: BaseModel) -> list[prices.Part] | None:
    """The paid work one call of `op` with these args does (None: exa-orch can't say)."""
    if op.name == "research.create":  # the effort it is sent with, capped by its own budget
        assert isinstance(model, RunOptions)  # CreateResearch
        budget = model.budget.max_cost_dollars if model.budget is not None else None
        return [prices.agent_run(model.run_effort(), "research run", max_cost=budget)]
    if op.plan is None:
        return None
    return request_parts(op.plan(model))


Validate = Callable[[Operation, Any], tuple[BaseModel, dict[str, Any]]]  # dispatch.validate


def task_parts(
    registry: Registry | None, ctx: OpContext, model: BaseModel, validate: Validate
) -> list[prices.Part] | None:
    """The paid work of the task tasks.create's args describe (None: exa-orch can't say)."""
    task_type = str(getattr(model, "type", ""))
    extra = dict(model.model_extra or {})
    if task_type == _TASK_TYPE and registry is not None:
        op = registry.get(str(extra.get("operation", "")))
        inner, _ = validate(op, extra.get("args"))
        return operation_parts(op, inner)
    service = ctx.tasks
    if service is None:
        return None
    return service.estimate(task_type, service.with_engine(task_type, extra, ctx.settings.engine))


def cost_preview(
    registry: Registry | None, op: Operation, model: BaseModel, ctx: OpContext, validate: Validate
) -> dict[str, Any] | None:
    """The `cost` of a `preview: true` answer for `op` with `model` (see the module doc); an
    operation task's inner args are checked with `validate` (dispatch's)."""
    if op.name == "tasks.create":
        parts = task_parts(registry, ctx, model, validate)
    else:
        parts = operation_parts(op, model)
    if parts is None:
        return None
    out = prices.price_range(parts)
    budget = getattr(model, "budgetUsd", None) if op.name == "tasks.create" else None
    if isinstance(budget, int | float):
        out["budgetUsd"] = budget
        out["withinBudget"] = out["highUsd"] <= budget
    return out
