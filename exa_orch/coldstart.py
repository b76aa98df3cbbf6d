"""A cold start without the cyclic garbage collector.

Importing what `exa-orch serve` runs on (the MCP SDK, pydantic's models and their schemas) makes
about 100,000 objects that live as long as the process, and next to no garbage; the collector
still passes over them some 250 times on the way, a fifth of a start's CPU (bench/startup.py).
So the process's entry point pauses it, and the command calls `ready()` once it is set up:
everything made so far is moved out of the collector's sight for good (`gc.freeze`; it stays
alive anyway), and the collector runs again for what the work makes.
"""

from __future__ import annotations

import gc

_paused = False


def pause() -> None:
    """Switch the collector off until `ready()`; nothing if it is off already (someone else's)."""
    global _paused
    if gc.isenabled():
        gc.disable()
        _paused = True


def ready() -> None:
    """Freeze what exists and switch the collector back on, if `pause()` switched it off."""
    global _paused
    if _paused:
        _paused = False
        gc.freeze()
        gc.enable()
