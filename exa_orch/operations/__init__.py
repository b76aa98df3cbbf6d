"""Named operations over Exa: a registry, a dispatcher with safe/strict validation, and handlers.

registry = default_registry()
result = await dispatch(registry, "websets.get", {"id": "ws_1"}, OpContext(gateway=gw))
"""

from .catalog import default_registry, list_operations
from .context import ClientPeer, OpContext, ProgressFn, no_progress
from .dispatch import CONTROL_KEYS, Mode, dispatch, validate
from .models import Args
from .registry import Handler, Operation, Projection, Registry

__all__ = [
    "Args",
    "CONTROL_KEYS",
    "ClientPeer",
    "Handler",
    "Mode",
    "OpContext",
    "Operation",
    "ProgressFn",
    "Projection",
    "Registry",
    "default_registry",
    "dispatch",
    "list_operations",
    "no_progress",
    "validate",
]
