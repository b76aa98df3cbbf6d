"""A runtime-only server process for the crash tests: `python -m tests.runtime.child DB SIM_URL [MAX [TTL]]`.

It runs a Supervisor with the tests' workflows on DB, calling the simulator at SIM_URL, prints
"ready <owner id>" once up, and stops gracefully on SIGTERM or SIGINT (or dies on SIGKILL).
"""

from __future__ import annotations

import asyncio
import signal
import sys

import httpx

from exa_orch.runtime import Deps, Supervisor, WorkflowRegistry
from exa_orch.store import Store
from tests.runtime.workflows import WORKFLOWS


async def main(db: str, sim_url: str, max_working: int, lease_ttl: float) -> None:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    async with (
        httpx.AsyncClient(base_url=sim_url, headers={"x-api-key": "child"}) as http,
        Store(db) as store,
        Supervisor(
            store,
            WorkflowRegistry(WORKFLOWS),
            Deps(extras={"http": http}),
            max_working=max_working,
            lease_ttl=lease_ttl,
            heartbeat=min(0.2, lease_ttl / 4),
            claim_interval=0.1,
        ),
    ):
        print(f"ready {store.owner_id}", flush=True)
        await stop.wait()


if __name__ == "__main__":
    asyncio.run(
        main(
            sys.argv[1],
            sys.argv[2],
            int(sys.argv[3]) if len(sys.argv) > 3 else 20,
            float(sys.argv[4]) if len(sys.argv) > 4 else 15.0,
        )
    )
