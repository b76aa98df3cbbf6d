"""The Agent API run rules shared by research.* and research.deep, and the task budget's cap on a
run (gateway/ledger.py) kept within what Exa accepts."""

from __future__ import annotations

import json

from exa_orch.gateway.agent_runs import USER_IDENTIFIER_PATTERN, user_identifier
from exa_orch.gateway.ledger import capped_agent_body


def capped(body: dict[str, object], remaining: float) -> dict[str, object] | None:
    out = capped_agent_body(json.dumps(body).encode(), remaining)
    return None if out is None else json.loads(out)


def test_a_task_budget_caps_a_metered_run_only_where_exa_takes_a_budget() -> None:
    assert capped({"query": "q", "effort": "auto"}, 2.5) == {
        "query": "q",
        "effort": "auto",
        "budget": {"maxCostDollars": 2.5},
    }
    assert capped({"query": "q"}, 3.0) == {"query": "q", "budget": {"maxCostDollars": 3.0}}  # no effort: auto
    ultra = {"query": "q", "effort": "ultra", "budget": {"maxCostDollars": 50, "maxDurationSeconds": 900}}
    assert capped(ultra, 12.0) == {**ultra, "budget": {"maxCostDollars": 12.0, "maxDurationSeconds": 900}}
    assert capped({"query": "q", "effort": "auto"}, 150.0) is None  # the default $5 cap is lower
    assert capped({"query": "q", "effort": "auto", "budget": {"maxCostDollars": 2}}, 4.0) is None
    assert capped({"query": "q", "effort": "low"}, 0.5) is None  # a fixed effort takes no budget
    assert capped({"query": "q", "effort": "max"}, 5.0) is None  # nor max (exa-py: auto and ultra only)
    assert capped({"query": "q", "effort": "auto"}, 0.4) is None  # Exa's least budget is $1


def test_user_identifier_is_a_stable_hash_in_exas_alphabet() -> None:
    ident = user_identifier("user:alice@example.com")
    assert ident is not None and USER_IDENTIFIER_PATTERN.match(ident)
    assert ident == user_identifier("user:alice@example.com") and "alice" not in ident
    assert ident != user_identifier("user:bob") and user_identifier(None) is None
