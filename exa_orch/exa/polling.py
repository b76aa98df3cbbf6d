"""Bounded polling (the port's wait_idle, and the operations websets.waitUntilIdle, imports.waitUntilCompleted,
research.pollUntilFinished): fetch, report progress, stop when done or when time is up."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class Polled(Generic[T]):
    """The last fetched object, whether it was done, seconds waited, and how many fetches it took."""

    last: T
    done: bool
    waited: float
    polls: int


async def poll_until(
    fetch: Callable[[], Awaitable[T]],
    *,
    done: Callable[[T], bool],
    report: Callable[[T, int], Awaitable[None]],
    within: float,
    interval: float,
) -> Polled[T]:
    """Fetch until `done(obj)` or `within` seconds pass; `report(obj, polls)` after every fetch.

    Always fetches at least once and never sleeps past the deadline."""
    started = time.monotonic()
    deadline = started + within
    polls = 0
    while True:
        obj = await fetch()
        polls += 1
        await report(obj, polls)
        finished = done(obj)
        left = deadline - time.monotonic()
        if finished or left <= 0:
            return Polled(obj, finished, round(time.monotonic() - started, 3), polls)
        await asyncio.sleep(min(interval, left))
