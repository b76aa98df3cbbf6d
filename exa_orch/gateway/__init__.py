"""The only path to Exa: `async with Gateway(settings) as gw` (see gateway/client.py).

Modules: client (Gateway, GovernedExa, call), transport (GovernedTransport, GatewayStats),
retry (RetryPolicy, Retry-After, safe-retry rule for creates), limits (families, window-safe
limiter), errors (Exa responses to typed errors). Projections for agents live in operations/.
"""

from exa_orch.gateway.client import Gateway, GovernedExa, call
from exa_orch.gateway.errors import KeyRefused, MissingApiKey
from exa_orch.gateway.keys import ApiKeys
from exa_orch.gateway.limits import family_of, window_safe_limiter
from exa_orch.gateway.retry import RetryPolicy, parse_retry_after
from exa_orch.gateway.transport import GatewayStats, GovernedTransport

__all__ = [
    "ApiKeys",
    "Gateway",
    "GatewayStats",
    "GovernedExa",
    "GovernedTransport",
    "KeyRefused",
    "MissingApiKey",
    "RetryPolicy",
    "call",
    "family_of",
    "parse_retry_after",
    "window_safe_limiter",
]
