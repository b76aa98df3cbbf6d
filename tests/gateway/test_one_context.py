"""A task's state reaches the gateway through one request context (gateway/context.py): one
ContextVar in the package, holding one RequestContext, not one variable per thing the actor sets."""

from __future__ import annotations

import ast
from pathlib import Path

import exa_orch.gateway
from exa_orch.gateway.context import current_request, request_scope, set_request
from exa_orch.gateway.fence import LeaseFence
from exa_orch.gateway.purse import Purse

GATEWAY = Path(exa_orch.gateway.__file__).parent


def test_the_gateway_keeps_one_context_variable() -> None:
    made = [
        f"{path.name}:{node.lineno}"
        for path in sorted(GATEWAY.glob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Call)
        and (getattr(node.func, "id", None) or getattr(node.func, "attr", None)) == "ContextVar"
    ]
    assert len(made) == 1 and made[0].startswith("context.py:"), made


async def test_a_step_scope_keeps_the_tasks_fence_purse_and_notice() -> None:
    fence, purse = LeaseFence("t1", valid_until=1e12), Purse("t1", budget=1.0)
    said: list[str] = []

    async def notice(message: str) -> None:
        said.append(message)

    with request_scope(principal="token:alice", task_id="t1", fence=fence):
        set_request(purse=purse, notice=notice)
        with request_scope(step="s0") as step:
            assert (step.principal, step.task_id, step.step) == ("token:alice", "t1", "s0")
            assert step.fence is fence and step.purse is purse and step.notice is notice
            with request_scope(purse=None):  # a stopped task's cancels are sent unmetered
                assert current_request().purse is None and current_request().fence is fence
            assert current_request().purse is purse
    assert current_request().fence is None and current_request().purse is None
