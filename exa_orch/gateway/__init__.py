"""The only path to Exa: `async with Gateway(settings) as gw` (see gateway/client.py).

Modules: client (Gateway, call), exa (GovernedExa, imported on first use: exa-py is heavy),
transport (GovernedTransport: the stack of transports, assembled; its layers keying, metering with
accounts, pooling, pacing, fencing, wire), context (the one request context), retry (RetryPolicy,
Retry-After, safe-retry rule for creates), limits (families, window-safe limiter), errors (Exa
responses to typed errors). Projections for agents live in operations/.
"""

from typing import TYPE_CHECKING, Any

from exa_orch.gateway.client import Gateway, call
from exa_orch.gateway.errors import KeyRefused, MissingApiKey
from exa_orch.gateway.keys import ApiKeys
from exa_orch.gateway.ledger import Ledger, PaidAnswer
from exa_orch.gateway.limits import family_of, window_safe_limiter
from exa_orch.gateway.retry import RetryPolicy, parse_retry_after
from exa_orch.gateway.stats import GatewayStats
from exa_orch.gateway.transport import GovernedTransport

if TYPE_CHECKING:
    from exa_orch.gateway.exa import GovernedExa


def __getattr__(name: str) -> Any:
    """`GovernedExa` is imported when first named (it imports exa-py, which a cold start avoids)."""
    if name == "GovernedExa":
        from exa_orch.gateway.exa import GovernedExa

        return GovernedExa
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "ApiKeys",
    "Gateway",
    "GatewayStats",
    "GovernedExa",
    "GovernedTransport",
    "KeyRefused",
    "Ledger",
    "MissingApiKey",
    "PaidAnswer",
    "RetryPolicy",
    "call",
    "family_of",
    "parse_retry_after",
    "window_safe_limiter",
]
