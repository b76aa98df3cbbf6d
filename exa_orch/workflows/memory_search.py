"""A repeat run with `known: "skip"` never spends more on searching than the run it repeats (issue 39).

Websets bill per candidate a search analyzes (gateway/prices.py). A search told to `exclude` the
known entities looks for `count` NEW ones, and where the world holds fewer than that (a sparse
market already harvested), it analyzes every candidate left: the repeat would pay more than the
run it repeats. So a webset search with `known: "skip"` and something to exclude is held to an
analysis allowance:

- `allowance(ctx, key, query)`: step `key`, the candidates the plain run is expected to
  analyze for `count`: memory's latest plain search of the same query, entity and criteria
  (`EntityMemory.earlier_search`, scaled to this count), else the preview's
  WEBSET_ANALYZED_PER_ITEM x count;
- `wait_search(ctx, key, webset_id, query, timeout_s, poll_s, until=)`: `kit.wait_webset`, or for a held
  search: read the webset until it is idle or its searches' `progress.analyzed` is about to reach
  the allowance (step `key`; read ahead at the rate the last two reads showed, or twice what the
  last read added, whichever is more, reads coming closer together as it nears: the cancel lands
  before the allowance rather than after; a slower read than any before may still pass it by
  what that read's delay let Exa analyze), then cancel its running
  searches through Exa's own cancel (`ExaPort.cancel_search`, step `<key>.cancel`: Exa stops
  analyzing, and billing, there; the items found stay) and wait for it to be idle (`<key>.idle`).
  The answer is a `Searched`: the wait's `Idle` plus `stopped`: {allowance, analyzed} or None;
- `record(ctx, query, analyzed)`: a plain run whose search finished records what it analyzed.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import math
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from exa_orch.exa.port import Idle
from exa_orch.exa.statuses import SEARCH_ACTIVE
from exa_orch.gateway.prices import WEBSET_ANALYZED_PER_ITEM
from exa_orch.runtime import TaskContext
from exa_orch.runtime.deps import exa_port_of
from exa_orch.workflows import kit, memory

if TYPE_CHECKING:
    from exa_py.websets.types import Webset

Json = dict[str, Any]
FIRST_READ_S = 0.05  # the shortest time between reads of a held search (and the first two)


@dataclass(frozen=True)
class Query:
    """What a collection search asked Exa: its fingerprint's parts, its count, and `known`."""

    query: str
    entity: Json
    criteria: list[str]
    count: int
    known: memory.Known

    def fingerprint(self) -> str:
        """A hash of the query, entity and criteria: two runs of one search share it."""
        text = json.dumps([self.query, self.entity, self.criteria], sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()


@dataclass(frozen=True)
class Searched(Idle):
    """How a collection's search wait ended (`Idle`), and for a search held to its allowance where
    it was stopped: {allowance, analyzed}; None when it was not."""

    stopped: dict[str, int] | None = None


def analyzed_of(webset: Webset) -> int:
    """`progress.analyzed` summed over the webset's searches (`kit.search_counts`)."""
    return kit.search_counts(webset)[1]


def _status(value: object) -> str:
    """An exa-py enum's value, or the string Exa sent."""
    return str(getattr(value, "value", value))


async def allowance(ctx: TaskContext, key: str, query: Query) -> int:
    """Step `key`: the candidates a plain run of `query` is expected to analyze."""

    async def work() -> int:
        found = memory.memory_of(ctx)
        earlier = (
            None if found is None else await found.earlier_search(memory.principal(), query.fingerprint())
        )
        if earlier is not None and earlier[1] > 0:
            count, analyzed = earlier
            return max(1, math.ceil(analyzed * query.count / count))
        return WEBSET_ANALYZED_PER_ITEM * query.count

    held: int = await ctx.step(key, work)
    return held


async def record(ctx: TaskContext, query: Query, analyzed: int) -> None:
    """A plain run's finished search: remember what it analyzed (a "skip" run's is not the plain
    one's measure, so it records nothing). Written again on a replay: changes nothing."""
    found = memory.memory_of(ctx)
    if found is not None and query.known != "skip" and analyzed > 0 and query.count > 0:
        await found.record_search(memory.principal(), query.fingerprint(), ctx.task_id, query.count, analyzed)


async def wait_search(
    ctx: TaskContext,
    key: str,
    webset_id: str,
    query: Query,
    timeout_s: float,
    poll_s: float,
    *,
    until: float | None = None,
) -> Searched:
    """Wait for the webset's search as `kit.wait_webset` does (its deadline: `until`, else `timeout_s`
    after the wait first began), held to the allowance (step `<key>.allowance`) when `query` is a
    "skip" run with known entities to exclude."""
    if query.known != "skip" or not any(e["urls"] for e in await memory.known_now(ctx)):
        return _searched(await kit.wait_webset(ctx, key, webset_id, timeout_s, poll_s, until=until))
    held = await allowance(ctx, f"{key}.allowance", query)
    end = until if until is not None else await kit.deadline(ctx, f"{key}.start", timeout_s)
    watched: Json = await ctx.step(key, lambda: _watch(ctx, key, webset_id, held, end, poll_s))
    seen = await kit.IDLE.load(watched)
    if not watched.get("reached", False):
        return _searched(seen)
    await ctx.step(f"{key}.cancel", lambda: _cancel(ctx, webset_id, seen.webset))
    waited = await kit.wait_webset(ctx, f"{key}.idle", webset_id, timeout_s, poll_s, until=end)
    stopped = {"allowance": held, "analyzed": analyzed_of(waited.webset)}
    await ctx.note(
        f"stopped the search at {stopped['analyzed']} candidates analyzed (allowance {held}, what the "
        "plain run analyzes): known: skip never spends more on searching than the run it repeats"
    )
    return _searched(waited, stopped)


def _searched(idle: Idle, stopped: dict[str, int] | None = None) -> Searched:
    return Searched(idle.webset, idle.timed_out, idle.waited, idle.polls, stopped)


async def _watch(ctx: TaskContext, key: str, webset_id: str, held: int, end: float, poll_s: float) -> Json:
    """Read the webset until it is idle, its deadline, or its analysis is about to pass `held`.
    Reads come closer together as the allowance nears (at the rate the last two reads showed, a
    read's own time counted), so the cancel lands before the allowance, not a poll after it."""
    port = exa_port_of(ctx.deps)
    pace = _Pace(held, poll_s)
    polls = 0
    started = time.monotonic()
    while True:
        asked = time.monotonic()
        webset = await port.get_webset(webset_id)
        polls += 1
        analyzed = analyzed_of(webset)
        await ctx.progress(key, analyzed, held, f"candidates analyzed (allowance {held})")
        running = any(_status(s.status) in SEARCH_ACTIVE for s in webset.searches)
        wait = pace.next(analyzed, asked, time.monotonic())
        idle = _status(webset.status) == "idle"
        if idle or (running and wait is None) or time.time() >= end:
            return {  # kit.IDLE's shape, and whether the allowance was reached
                "webset": kit.dumped(webset),
                "timedOut": not idle and not (running and wait is None),
                "waited": round(time.monotonic() - started, 3),
                "polls": polls,
                "reached": not idle and running and wait is None,
            }
        await asyncio.sleep(min(wait or poll_s, max(0.0, end - time.time())))


@dataclass
class _Pace:
    """When to read next: None once the allowance is within the next read's reach."""

    held: int
    poll_s: float
    last: tuple[float, int] | None = None  # (when, analyzed) of the previous read
    rate: float = 0.0  # candidates analyzed per second, as the last two reads showed
    grown: int = 0  # candidates analyzed between the last two reads

    def next(self, analyzed: int, asked: float, answered: float) -> float | None:
        if self.last is not None and asked > self.last[0]:
            self.grown = max(0, analyzed - self.last[1])
            self.rate = self.grown / (asked - self.last[0])
        self.last = (asked, analyzed)
        latency = answered - asked
        left = self.held - analyzed
        # Within reach: what the next read and the cancel after it may add, at the rate seen (a read's
        # time counted twice) or twice what the last read added, whichever is more.
        if left <= max(2 * self.grown, self.rate * (2 * latency + FIRST_READ_S)):
            return None
        if self.rate <= 0:
            return min(self.poll_s, FIRST_READ_S)
        return max(FIRST_READ_S, min(self.poll_s, left / self.rate / 2 - latency))


async def _cancel(ctx: TaskContext, webset_id: str, webset: Webset) -> list[str]:
    """Cancel the webset's searches that were still running (Exa's search cancel); their ids."""
    port = exa_port_of(ctx.deps)
    ids = [s.id for s in webset.searches if _status(s.status) in SEARCH_ACTIVE]
    for search_id in ids:
        await port.cancel_search(webset_id, search_id)
    return ids


def stopped(waited: Searched) -> Json:
    """The result's fields for a held search's stop: {stoppedBy, stopped: {allowance, analyzed,
    note}}; {} when the search was not stopped."""
    held = waited.stopped
    if not held:
        return {}
    note = (
        f"known: skip held the search to an allowance of {held['allowance']} candidates analyzed (what the plain run "
        f"analyzes for this count) and cancelled it at {held['analyzed']}: these are the new entities "
        "found within that; a run without known: skip searches on"
    )
    return {"stoppedBy": "allowance", "stopped": {**held, "note": note}}
