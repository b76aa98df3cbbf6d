"""A resumed task's Exa work still running, read from its checkpoints or an answer (its purse and
its principal's daily cap hold it again: an agent run's worst case, what a webset search may still
find), so a task restarted mid-run never spends past its budget on work an earlier run started.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from exa_orch.exa.statuses import RUN_TERMINAL as AGENT_DONE
from exa_orch.gateway import prices
from exa_orch.gateway.ledger import WEBSET_CREATE, search_count, walk_objects


@dataclass(frozen=True, slots=True)
class RunningSearch:
    """A webset search seen unfinished: what its create held (`count` items at `per_item`, the
    webset's enrichment cells included) and the webset's enrichment ids (its cells' keys)."""

    count: int
    per_item: float
    enrichments: tuple[str, ...]
    found: int = 0  # items it showed found

    def left(self, counted: set[str], search_id: str) -> float:
        """What of its hold is not yet in `counted` (the estimate keys the purse counted)."""
        found = sum(1 for key in counted if key.startswith(f"webset_item:{search_id}:"))
        analyzed = sum(1 for key in counted if key.startswith(f"webset_analyzed:{search_id}:"))
        cells = sum(
            1
            for key in counted
            if key.split(":")[0] == "webset_cell" and key.split(":")[1] in self.enrichments
        )
        used = (
            found * prices.WEBSET_FOUND_ESTIMATE
            + analyzed * prices.WEBSET_ANALYZED_ESTIMATE
            + cells * prices.WEBSET_ENRICHMENT_ESTIMATE
        )
        return max(0.0, round(self.count * self.per_item - used, 6))


def running_work(
    saved: Any, echoed: set[str] | None = None
) -> tuple[dict[str, float], dict[str, RunningSearch]]:
    """The agent runs (id -> worst case, from the request it echoes) and webset searches (id ->
    `RunningSearch`) that `saved` (a task's checkpointed steps, or an answer) shows and never shows
    finished: the Exa work a task started and may still be paying for."""
    objects: list[dict[str, Any]] = []
    walk_objects(saved, objects)
    seen = _Seen()
    for obj in objects:
        seen.add(obj, echoed)
    held = {
        sid: _running_search(search, seen.websets)
        for sid, search in seen.searches.items()
        if sid not in seen.ended
    }
    return {rid: worst for rid, worst in seen.runs.items() if rid not in seen.ended}, held


class _Seen:
    """What a walk over saved objects found: runs and searches under way, what ended, websets."""

    def __init__(self) -> None:
        self.runs: dict[str, float] = {}
        self.searches: dict[str, dict[str, Any]] = {}
        self.ended: set[str] = set()
        self.websets: dict[str, dict[str, Any]] = {}

    def add(self, obj: dict[str, Any], echoed: set[str] | None) -> None:
        oid, kind, status = obj.get("id"), obj.get("object"), obj.get("status")
        if not isinstance(oid, str):
            return
        if kind == "agent_run":
            if status in AGENT_DONE:
                self.ended.add(oid)
                return
            request = obj.get("request")
            self.runs[oid] = prices.agent_price(request if isinstance(request, dict) else {})
            if echoed is not None and isinstance(request, dict):
                echoed.add(oid)  # its worst case read off the request it echoes
        elif kind == "webset_search":
            if status in ("completed", "canceled"):
                self.ended.add(oid)
            else:
                self.searches[oid] = obj
        elif kind == "webset":
            self.websets.setdefault(oid, obj)


def _running_search(search: dict[str, Any], websets: dict[str, dict[str, Any]]) -> RunningSearch:
    """What a search seen under way holds: its count at its webset's per-item estimate."""
    webset = websets.get(str(search.get("websetId")), {})
    given = webset.get("enrichments")
    enrichments = [e for e in given if isinstance(e, dict)] if isinstance(given, list) else []
    ids = tuple(str(e.get("id")) for e in enrichments)
    per_item = prices.WEBSET_ITEM_ESTIMATE + sum(prices.cell_price(e.get("format")) for e in enrichments)
    progress = search.get("progress")
    found = progress.get("found") if isinstance(progress, dict) else None
    return RunningSearch(search_count(search), per_item, ids, found if isinstance(found, int) else 0)


def read_running(
    path: str, raw: bytes, echoed: set[str] | None = None
) -> tuple[dict[str, float], dict[str, RunningSearch]]:
    """`running_work` of a GET answer for one agent run, webset or webset search (not a list, whose
    objects may be other tasks'): a task reading its own work, left running by an earlier run."""
    parts = path.rstrip("/").split("/")
    one_run = len(parts) == 4 and path.startswith("/agent/runs/")
    one_webset = path.startswith(WEBSET_CREATE + "/") and (
        len(parts) == 5 or (len(parts) == 7 and parts[5] == "searches")
    )
    if not (one_run and b'"agent_run"' in raw) and not (one_webset and b'"webset_search"' in raw):
        return {}, {}
    try:
        body = json.loads(raw)
    except ValueError:
        return {}, {}
    return running_work(body, echoed)
