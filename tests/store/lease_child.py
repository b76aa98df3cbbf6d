"""A second process for the lease tests (run by test_leases.py, not collected by pytest).

python lease_child.py hold DB TASK_ID TTL_S   take the lease, print "held <owner>", wait for stdin EOF
python lease_child.py acquire DB TASK_ID      print "ready", wait for a line, try once: "won"/"lost"
python lease_child.py claim DB                print "ready", wait for a line, claim_runnable: JSON ids

An acquirer or claimer then lives on until stdin's EOF, as a lease holder does: a holder on this host
that has exited may have its lease taken at once (store/leases.py), so one that exited right after
winning would let a slower racer win too.
"""

from __future__ import annotations

import asyncio
import json
import sys

from exa_orch.store import Store


async def main(argv: list[str]) -> int:
    mode, db = argv[0], argv[1]  # an SQLite file or a postgresql:// URL
    async with Store(db) as store:
        if mode == "hold":
            took = await store.acquire_lease(argv[2], store.owner_id, float(argv[3]))
            print(f"held {store.owner_id}" if took else "refused", flush=True)
            await asyncio.to_thread(sys.stdin.read)  # hold until the parent closes our stdin
            return 0
        print("ready", flush=True)
        await asyncio.to_thread(sys.stdin.readline)
        if mode == "acquire":
            won = await store.acquire_lease(argv[2], store.owner_id, 60)
            print("won" if won else "lost", flush=True)
        elif mode == "claim":
            claimed = await store.claim_runnable(store.owner_id, 60, 100)
            print(json.dumps([t.id for t in claimed]), flush=True)
        else:
            print(f"unknown mode {mode}", file=sys.stderr)
            return 2
        await asyncio.to_thread(sys.stdin.read)  # hold what was taken until the parent closes our stdin
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1:])))
