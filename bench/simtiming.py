"""Simulator timing against the one real timeline we have: when a count-5 webset shows its first
item, its first enrichment result, its search completed and its idle state.

    .venv/bin/python bench/simtiming.py

The real figures (exa_orch/sim/websets/timing.py REAL_TIMELINE; docs/simulator.md says where they
come from) are from a count-5 webset "AI startups in San Francisco" with one number enrichment, read
with a real key. The benchmark makes the same webset on the simulator (real HTTP on loopback) under
each timing profile, with the clock held and moved by hand in 0.1 s steps, so it runs in simulated
time: it reads the webset after each step and notes the first simulated second each milestone is
seen. It prints both profiles beside the real figures and exits 1 if a figure of the "real"
profile is more than 20% off the real one.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import httpx  # noqa: E402

from exa_orch.sim.context import SimConfig  # noqa: E402
from exa_orch.sim.testing import running_sim  # noqa: E402
from exa_orch.sim.websets.timing import PROFILES, REAL_TIMELINE  # noqa: E402

STEP = 0.1  # simulated seconds between reads
LIMIT = 120.0  # simulated seconds after which a milestone counts as never seen
TOLERANCE = 0.2  # the "real" profile may be this far off each real figure
WEBSET = {
    "search": {"query": "AI startups in San Francisco", "count": 5, "entity": {"type": "company"}},
    "enrichments": [{"description": "Year founded", "format": "number"}],
}


def milestones(webset: dict[str, Any], items: list[dict[str, Any]]) -> set[str]:
    """The milestones `webset` (read with its items) has reached."""
    seen = set()
    if items:
        seen.add("first item")
    if any(r.get("status") == "completed" for i in items for r in i.get("enrichments") or []):
        seen.add("enrichment done")
    if webset["searches"] and webset["searches"][0]["status"] == "completed":
        seen.add("search completed")
    if webset["status"] == "idle":
        seen.add("webset idle")
    return seen


async def timeline(timing: str) -> dict[str, float]:
    """The simulated second each milestone is first seen under `timing`."""
    async with running_sim(SimConfig(timing=timing)) as sim:
        sim.ctx.clock.set_speed(1e-9)  # held: only advance() moves it
        async with httpx.AsyncClient(base_url=sim.url, headers={"x-api-key": "bench"}) as http:
            created = (await http.post("/websets/v0/websets", json=WEBSET)).raise_for_status().json()
            start, seen = sim.ctx.clock.now(), dict[str, float]()
            while len(seen) < len(REAL_TIMELINE) and sim.ctx.clock.now() - start < LIMIT:
                sim.ctx.clock.advance(STEP)
                got = (
                    await http.get(f"/websets/v0/websets/{created['id']}", params={"expand": "items"})
                ).json()
                for name in milestones(got, got.get("items") or []):
                    seen.setdefault(name, round(sim.ctx.clock.now() - start, 1))
    return seen


async def main() -> int:
    runs = {name: await timeline(name) for name in PROFILES}
    print(f"{'milestone':<18} {'real Exa':>9} " + " ".join(f"{'sim ' + n:>11}" for n in runs) + "  real/sim")
    missed = []
    for name, real in REAL_TIMELINE.items():
        got = {n: run.get(name) for n, run in runs.items()}
        cells = " ".join(f"{(f'{v:.1f} s' if v is not None else 'never'):>11}" for v in got.values())
        sim_real = got.get("real")
        ratio = f"{real / sim_real:.2f}" if sim_real else "-"
        print(f"{name:<18} {real:>7.1f} s {cells}  {ratio:>8}")
        if sim_real is None or abs(sim_real - real) > TOLERANCE * real:
            missed.append(name)
    if missed:
        print(f"the real profile is more than {TOLERANCE:.0%} off the real timeline at: {', '.join(missed)}")
        return 1
    print(f"the real profile is within {TOLERANCE:.0%} of every real figure")
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
