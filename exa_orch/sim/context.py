"""What every part of the simulator shares: its settings, its clock, its ids and its counters.

The app (`sim/app.py`) builds one `SimContext` and hands it to each family of routes
(`websets/`, `search.py`, `agent.py`, `papers.py`). Nothing here imports the rest of exa_orch:
the simulator is a separate server.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any


@dataclass
class FaultConfig:
    """Which requests the simulator answers with a fault instead of the real response."""

    rate: float = 0.0  # share of requests (0..1) that get a fault
    kinds: tuple[str, ...] = ("429", "500", "502", "503", "drop")  # drawn uniformly
    retry_after: float = 0.2  # seconds, sent as Retry-After on injected 429s
    latency_ms: float = 0.0  # added to every request
    seed: int = 0  # the fault draw is deterministic for a given seed and request order
    # Share (0..1) of creates that succeed (the object is made) and are then answered with a fault
    # (a 5xx or a dropped connection, from `kinds`): the ambiguous failure a blind retry duplicates.
    after_create: float = 0.0
    # "paused" or "pending": every webset that is working is held in that state instead of running
    # (its searches and enrichments make no progress while it lasts); "" for none. Exa has both
    # states; neither ends by itself.
    webset_status: str = ""


@dataclass
class SimConfig:
    """Settings of one simulator instance."""

    seed: int = 42
    world_file: str | None = None  # a world written as JSON (docs/simulator.md) instead of the seed's
    speed: float = 1.0  # simulated seconds per wall second; tests use 50 or more
    faults: FaultConfig = field(default_factory=FaultConfig)
    # How long webset searches, enrichments and imports take (sim/websets/timing.py PROFILES):
    # "quick" (tests, the demo, the eval and the benches are calibrated on it) or "real" (the one
    # real timeline we have; `exa-orch sim` and `serve --sim` default to it).
    timing: str = "quick"
    # Scales every duration of the timing profile (1.0: as listed; a test sets 10_000 to stall).
    seconds_per_item: float = 1.0
    # The API keys it accepts; None accepts any key but "invalid-key" (what Exa would refuse).
    keys: frozenset[str] | None = None
    # A file that keeps the account (every object made, ids, clock) across restarts; see account.py.
    account_file: str | None = None
    # Agent runs a team may have active (queued or running) at once; the next create gets 429
    # (Exa allows 50; see data-design/exa-api-notes.md). Tests lower it.
    max_active_agent_runs: int = 50


class SimClock:
    """Simulated time: wall time since start multiplied by `speed`, from a fixed epoch.

    `monotonic` is the wall clock it reads (a test passes one it moves by hand)."""

    EPOCH = datetime(2026, 1, 1, tzinfo=UTC)

    def __init__(self, speed: float = 1.0, *, monotonic: Callable[[], float] = time.monotonic) -> None:
        self.speed = speed
        self._monotonic = monotonic
        self._start = monotonic()
        self._offset = 0.0  # simulated seconds that had passed when the speed last changed

    def now(self) -> float:
        """Simulated seconds since the simulator started."""
        return self._offset + (self._monotonic() - self._start) * self.speed

    def set_speed(self, speed: float) -> None:
        """Change the time factor from now on; simulated time stays continuous (never jumps)."""
        if speed <= 0:
            raise ValueError(f"speed must be positive, got {speed}")
        wall = self._monotonic()
        self._offset, self._start, self.speed = self._offset + (wall - self._start) * self.speed, wall, speed

    def advance(self, seconds: float) -> None:
        """Jump simulated time forward by `seconds` at once, as if they had passed at the current speed.

        For tests: what is due by then (search results, an enrichment, a finished run) is there at the
        next request, without waiting for it in wall time. Time never goes back."""
        if seconds < 0:
            raise ValueError(f"the clock only moves forward, got {seconds}")
        self._offset += seconds

    def iso(self, at: float | None = None) -> str:
        """ISO-8601 UTC timestamp of simulated second `at` (default: now), as Exa writes them."""
        moment = self.EPOCH + timedelta(seconds=self.now() if at is None else at)
        return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


class IdMaker:
    """Ids shaped like Exa's (`webset_...`, `wsearch_...`), deterministic for a seed and order."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed ^ 0x1D)
        self._lock = threading.Lock()

    def new(self, prefix: str) -> str:
        with self._lock:
            return f"{prefix}_{self._rng.getrandbits(96):024x}"


@dataclass
class SimContext:
    """The simulator's shared state; one per app."""

    config: SimConfig
    clock: SimClock
    ids: IdMaker
    world: Any = None  # exa_orch.sim.world.World, set by the app
    counters: Any = None  # exa_orch.sim.faults.Counters, set by the app
    extras: dict[str, Any] = field(default_factory=dict)  # per-family state, keyed by family name
    closing: bool = False  # set as the server stops: open streams end instead of holding it up

    @classmethod
    def from_config(cls, config: SimConfig) -> SimContext:
        return cls(config=config, clock=SimClock(config.speed), ids=IdMaker(config.seed))
