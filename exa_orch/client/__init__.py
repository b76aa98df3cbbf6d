"""Host client (face): run `exa-orch serve` as a child process and call it over MCP stdio (seed 004).

async with ExaOrchClient(env={"EXA_ORCH_DB": "work.db"}) as client:
    ops = await client.call("list_operations", {"namesOnly": True})
    task_id = await client.create_task("research.deep", {...})
    done = await client.wait_task(task_id, timeout=600)

async with ExaOrchPool(size=3, env={"EXA_ORCH_DB": "work.db"}) as pool:  # the same API over 3 children
    ...
"""

from exa_orch.client.calls import OperationStats
from exa_orch.client.client import ClientOptions, ExaOrchClient
from exa_orch.client.errors import (
    CallTimeout,
    CommandNotAllowed,
    ProtocolError,
    RemoteError,
    ServerError,
    ServerUnavailable,
    error_from_body,
)
from exa_orch.client.pool import ExaOrchPool

__all__ = [
    "CallTimeout",
    "ClientOptions",
    "CommandNotAllowed",
    "ExaOrchClient",
    "ExaOrchPool",
    "OperationStats",
    "ProtocolError",
    "RemoteError",
    "ServerError",
    "ServerUnavailable",
    "error_from_body",
]
