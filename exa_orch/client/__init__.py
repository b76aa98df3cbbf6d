"""Host client (face): run `exa-orch serve` as a child process and call it over MCP stdio (seed 004).

async with ExaOrchClient(env={"EXA_ORCH_DB": "work.db"}) as client:
    ops = await client.call("list_operations", {"namesOnly": True})
    task_id = await client.create_task("research.deep", {...})
    done = await client.wait_task(task_id, timeout=600)
"""

from exa_orch.client.client import ExaOrchClient, OperationStats
from exa_orch.client.errors import (
    CallTimeout,
    ProtocolError,
    RemoteError,
    ServerError,
    ServerUnavailable,
    error_from_body,
)

__all__ = [
    "CallTimeout",
    "ExaOrchClient",
    "OperationStats",
    "ProtocolError",
    "RemoteError",
    "ServerError",
    "ServerUnavailable",
    "error_from_body",
]
