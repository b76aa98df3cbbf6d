"""What an answer from Exa cost, read off the answer as it arrives (data-design/prices.md).

The transport hands every successful Exa answer to `paid_answer`, which finds what Exa billed for
it (`costDollars.total`) and on whose account (the per-request scope, `gateway/context.py`); the
`Ledger` the gateway was given (the store, wired by the app) writes it before the caller sees the
answer. A search, contents, find-similar or answer request is keyed by its `requestId`; an agent
run by its id, once it has finished (its cost is final then, and reading it again adds nothing).
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from typing import Any, Protocol

from exa_orch.exa.statuses import RUN_TERMINAL as AGENT_DONE
from exa_orch.gateway import prices
from exa_orch.gateway.agent_runs import BUDGET_EFFORTS, DEFAULT_MODEL, MAX_COST_RANGE, MODEL_TO_EFFORT
from exa_orch.gateway.context import RequestContext

_OPERATIONS = {
    "/search": "search",
    "/findSimilar": "findSimilar",
    "/contents": "contents",
    "/answer": "answer",
}


@dataclass(frozen=True, slots=True)
class PaidAnswer:
    """One paid answer: what it was, what it cost, for whom (the store's `costs` row)."""

    key: str
    operation: str
    usd: float
    billed: bool
    task_id: str | None = None
    step_key: str | None = None
    principal: str | None = None
    attempt: str | None = None
    resend: bool = False  # an earlier run of the task had already paid within this step


class Ledger(Protocol):
    """Where paid answers go (the store); awaited before the answer reaches its caller."""

    async def __call__(self, paid: PaidAnswer, /) -> None: ...


def _total(body: dict[str, Any]) -> float | None:
    cost = body.get("costDollars")
    total = cost.get("total") if isinstance(cost, dict) else None
    return float(total) if isinstance(total, int | float) and not isinstance(total, bool) else None


def paid_answer(path: str, raw: bytes, scope: RequestContext, attempt: str) -> PaidAnswer | None:
    """The ledger row of a successful answer to `path`, or None when it says no cost (yet)."""
    if b"costDollars" not in raw:
        return None
    try:
        body = json.loads(raw)
    except ValueError:
        return None
    if not isinstance(body, dict):
        return None
    total = _total(body)
    if total is None:
        return None
    if body.get("object") == "agent_run" or path.startswith("/agent/runs"):
        run_id = body.get("id")
        if not isinstance(run_id, str) or body.get("status") not in AGENT_DONE:
            return None
        key, operation = f"agent_run:{run_id}", "agent.run"
    else:
        request_id = body.get("requestId")
        key = request_id if isinstance(request_id, str) and request_id else f"local:{uuid.uuid4().hex}"
        operation = _OPERATIONS.get(path.rstrip("/"), path.strip("/").replace("/", ".") or "other")
    return PaidAnswer(
        key=key,
        operation=operation,
        usd=total,
        billed=True,
        task_id=scope.task_id,
        step_key=scope.step,
        principal=scope.principal,
        attempt=attempt,
    )


def worst_case(method: str, path: str, content: bytes) -> float:
    """The most a request may cost (data-design/prices.md); 0 for a request Exa does not bill."""
    if method != "POST":
        return 0.0
    if webset_count_path(path):
        return webset_search_worst(path, content)
    path = path.rstrip("/")
    if path not in ("/search", "/findSimilar", "/contents", "/answer", "/agent/runs"):
        return 0.0
    try:
        body = json.loads(content) if content else {}
    except ValueError:
        body = {}
    if not isinstance(body, dict):
        body = {}
    if path in ("/search", "/findSimilar"):
        return prices.search_price(body)
    if path == "/contents":
        return prices.contents_price(body)
    if path == "/answer":
        return prices.ANSWER
    return prices.agent_price(body)


def created_run_id(path: str, raw: bytes) -> str | None:
    """The id of the agent run a POST /agent/runs answer made (its cost comes with its final state)."""
    if path.rstrip("/") != "/agent/runs":
        return None
    try:
        body = json.loads(raw)
    except ValueError:
        return None
    run_id = body.get("id") if isinstance(body, dict) else None
    return run_id if isinstance(run_id, str) else None


def capped_agent_body(content: bytes, remaining: float) -> bytes | None:
    """A metered agent run's create body with `budget.maxCostDollars` lowered to what the task has
    left (Exa stops the run there); None when the body needs no change (a fixed effort, a cap
    already lower) or can't take one: Exa accepts a budget only on effort auto or ultra and only
    from $1 (gateway/agent_runs.py), so below that the body keeps its default cap and the purse's
    worst case (that cap) stops the task instead of sending a run Exa would refuse."""
    try:
        body = json.loads(content) if content else None
    except ValueError:
        return None
    if not isinstance(body, dict) or (body.get("effort") or "auto") not in BUDGET_EFFORTS:
        return None
    given_budget = body.get("budget")
    budget: dict[str, Any] = given_budget if isinstance(given_budget, dict) else {}
    given = budget.get("maxCostDollars")
    cap = given if isinstance(given, int | float) else prices.AGENT_METERED_CAP[body.get("effort") or "auto"]
    if cap <= remaining or remaining < MAX_COST_RANGE[0]:
        return None
    body["budget"] = {**budget, "maxCostDollars": round(remaining, 4)}
    return json.dumps(body).encode()


# --- Websets: estimated as it grows (their answers carry no cost) ----------------------------------

_SEEN_LIMIT = 100_000  # search ids and cells remembered per process (the store dedupes anyway)


class WebsetsSeen:
    """What this process has already estimated: the items found per search, the cells filled. Only
    spares re-deriving rows; the store's unique key is what keeps a row from counting twice."""

    def __init__(self) -> None:
        self.found: dict[str, int] = {}
        self.cells: set[str] = set()

    def trim(self) -> None:
        if len(self.found) > _SEEN_LIMIT:
            self.found.clear()
        if len(self.cells) > _SEEN_LIMIT:
            self.cells.clear()


def _objects(body: Any, kind: str) -> list[dict[str, Any]]:
    """Every object of `kind` in an answer: itself, inside a webset (searches, items), or a list page."""
    if isinstance(body, list):
        return [o for entry in body for o in _objects(entry, kind)]
    if not isinstance(body, dict):
        return []
    if body.get("object") == kind:
        return [body]
    field = {"webset_search": "searches", "webset_item": "items"}[kind]
    inner = body.get(field) if body.get("object") == "webset" else body.get("data")
    return _objects(inner, kind) if isinstance(inner, list) else []


def _search_rows(search: dict[str, Any], seen: WebsetsSeen) -> list[tuple[str, str, float]]:
    """The rows of what a search did that no earlier answer showed: candidates analyzed, items found."""
    progress = search.get("progress")
    search_id = search.get("id")
    if not isinstance(progress, dict) or not isinstance(search_id, str):
        return []
    rows: list[tuple[str, str, float]] = []
    for kind, field, operation, usd in (
        ("webset_analyzed", "analyzed", "websets.analyzed", prices.WEBSET_ANALYZED_ESTIMATE),
        ("webset_item", "found", "websets.item", prices.WEBSET_FOUND_ESTIMATE),
    ):
        done = progress.get(field)
        if isinstance(done, float) and done.is_integer():
            done = int(done)
        if not isinstance(done, int):
            continue
        mark = search_id if kind == "webset_item" else f"{kind}:{search_id}"
        start = seen.found.get(mark, 0)
        rows += [(f"{kind}:{search_id}:{n}", operation, usd) for n in range(start, done)]
        seen.found[mark] = max(start, done)
    return rows


def webset_estimates(
    path: str, raw: bytes, scope: RequestContext, attempt: str, seen: WebsetsSeen
) -> list[PaidAnswer]:
    """exa-orch's estimates (billed = False) of the Websets work an answer shows: one row per
    candidate a search has analyzed (`webset_analyzed:<search>:<n>`, a search's worth) and per item
    it has found (`webset_item:<search>:<n>`, compute), per enrichment cell filled
    (`webset_cell:<enrichment>:<item>`) and per monitor run that ran (`monitor_run:<id>`), at
    data-design/prices.md's estimates. Exa bills Websets by
    compute and searches, never per item, so these are what exa-orch can see of it."""
    if not path.startswith("/websets/") or (
        b'"webset_search"' not in raw and b'"enrichment_result"' not in raw and b'"monitor_run"' not in raw
    ):
        return []
    try:
        body = json.loads(raw)
    except ValueError:
        return []
    rows: list[tuple[str, str, float]] = []
    for search in _objects(body, "webset_search"):
        rows += _search_rows(search, seen)
    for item in _objects(body, "webset_item"):
        for result in item.get("enrichments") or []:
            if not isinstance(result, dict) or result.get("status") != "completed":
                continue
            cell = f"webset_cell:{result.get('enrichmentId')}:{item.get('id')}"
            if cell not in seen.cells:
                seen.cells.add(cell)
                rows.append((cell, "websets.enrichment", prices.cell_price(result.get("format"))))
    if b'"monitor_run"' in raw:  # a monitor's scheduled run, once it has run (Exa's price per run)
        shown: list[dict[str, Any]] = []
        walk_objects(body, shown)
        for run in shown:
            if run.get("object") == "monitor_run" and run.get("status") in ("running", "completed"):
                key = f"monitor_run:{run.get('id')}"
                if key not in seen.cells:
                    seen.cells.add(key)
                    rows.append((key, "websets.monitor_run", prices.MONITOR_RUN))
    seen.trim()
    return [
        PaidAnswer(
            key=key,
            operation=operation,
            usd=usd,
            billed=False,
            task_id=scope.task_id,
            step_key=scope.step,
            principal=scope.principal,
            attempt=attempt,
        )
        for key, operation, usd in rows
    ]


# --- a streamed answer: its cost comes in its last event ----------------------------------------


class StreamCost:
    """Reads a streamed answer's server-sent events as they pass, for the event that carries
    `costDollars` (the simulator sends it last; Exa's spec does not say whether Exa does)."""

    def __init__(self) -> None:
        self._tail = b""
        self.total: float | None = None
        self.request_id: str | None = None

    def feed(self, chunk: bytes) -> None:
        lines = (self._tail + chunk).split(b"\n")
        self._tail = lines.pop()
        for line in lines:
            self._line(line)

    def end(self) -> None:
        if self._tail:
            self._line(self._tail)
            self._tail = b""

    def _line(self, line: bytes) -> None:
        line = line.strip()
        if not line.startswith(b"data:") or (b"costDollars" not in line and b"requestId" not in line):
            return
        try:
            event = json.loads(line[5:])
        except ValueError:
            return
        if not isinstance(event, dict):
            return
        if isinstance(event.get("requestId"), str):
            self.request_id = event["requestId"]
        total = _total(event)
        if total is not None:
            self.total = total


def streamed_answer(
    path: str, cost: StreamCost, header_id: str | None, scope: RequestContext, attempt: str
) -> PaidAnswer:
    """The ledger row of a streamed answer once its stream ended: what its events said it cost
    (billed), else the price table's price of an answer (an estimate: Exa bills it either way, even
    a stream the caller closed early). Keyed by its requestId (an event's, else the response's
    `x-request-id`)."""
    request_id = cost.request_id or header_id
    return PaidAnswer(
        key=request_id or f"local:{uuid.uuid4().hex}",
        operation=_OPERATIONS.get(path.rstrip("/"), "answer"),
        usd=cost.total if cost.total is not None else prices.ANSWER,
        billed=cost.total is not None,
        task_id=scope.task_id,
        step_key=scope.step,
        principal=scope.principal,
        attempt=attempt,
    )


WEBSET_CREATE = "/websets/v0/websets"
DEFAULT_WEBSET_COUNT = 10  # search.count when a create names none (exa-websets-spec.yaml)


def webset_count_path(path: str) -> bool:
    """Whether a POST to `path` starts a webset search (a webset create, or a search on one)."""
    path = path.rstrip("/")
    if path == WEBSET_CREATE:
        return True
    parts = path.split("/")
    return len(parts) == 6 and path.startswith(WEBSET_CREATE + "/") and parts[5] == "searches"


def _webset_search(path: str, content: bytes) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """(the create's body, its search: the body itself for a search create; None without one)."""
    try:
        body = json.loads(content) if content else None
    except ValueError:
        return {}, None
    if not isinstance(body, dict):
        return {}, None
    search = body.get("search") if path.rstrip("/") == WEBSET_CREATE else body
    return body, search if isinstance(search, dict) else None


def _per_item(body: dict[str, Any]) -> float:
    enrichments = body.get("enrichments")
    columns = len(enrichments) if isinstance(enrichments, list) else 0
    return (
        prices.WEBSET_ITEM_ESTIMATE
        + columns * prices.WEBSET_ENRICHMENT_ESTIMATE
        + prices.contact_columns(enrichments) * prices.CONTACT_ENRICHMENT
    )


def search_count(search: dict[str, Any]) -> int:
    count = search.get("count")
    return count if isinstance(count, int) and count > 0 else DEFAULT_WEBSET_COUNT


def webset_search_worst(path: str, content: bytes) -> float:
    """The estimate of a webset search that finds all it asks for: `count` items, each with the
    webset's enrichment cells (0 for a webset with no search)."""
    body, search = _webset_search(path, content)
    return 0.0 if search is None else round(search_count(search) * _per_item(body), 6)


def created_searches(path: str, raw: bytes) -> list[str]:
    """The ids of the webset searches a create's answer started."""
    if not webset_count_path(path):
        return []
    try:
        body = json.loads(raw)
    except ValueError:
        return []
    return [s["id"] for s in _objects(body, "webset_search") if isinstance(s.get("id"), str)]


def finished_searches(path: str, raw: bytes) -> list[str]:
    """The ids of the webset searches an answer shows finished (completed or canceled)."""
    if not path.startswith("/websets/") or b'"webset_search"' not in raw:
        return []
    try:
        body = json.loads(raw)
    except ValueError:
        return []
    return [
        s["id"]
        for s in _objects(body, "webset_search")
        if isinstance(s.get("id"), str) and s.get("status") in ("completed", "canceled")
    ]


def capped_webset_body(path: str, content: bytes, remaining: float) -> tuple[bytes | None, int]:
    """A webset search create's body with `count` lowered to the items the task's remaining budget
    affords at the item estimate (with its enrichment cells), and that number; (None, n) when the
    body needs no change. n = 0: the budget affords no item (the create must not be sent)."""
    body, search = _webset_search(path, content)
    if search is None:
        return None, 1  # a webset with no search (an import's, say) finds nothing to bill
    affords = int((remaining + 1e-9) // _per_item(body))
    count = search_count(search)
    if count <= affords:
        return None, count
    if affords < 1:
        return None, 0
    search["count"] = affords
    return json.dumps(body).encode(), affords


def walk_objects(value: Any, out: list[dict[str, Any]]) -> None:
    """Every Exa object in `value` (an answer, or a task's saved steps) into `out`, the agent's
    views of them (websets.*, research.*) given the `object` Exa's own carry."""
    if isinstance(value, dict):
        if isinstance(value.get("object"), str):
            out.append(value)
        elif (
            isinstance(value.get("id"), str)
            and isinstance(value.get("websetId"), str)
            and "progress" in value
        ):
            out.append({**value, "object": "webset_search"})  # a websets.* view of a search (no "object")
        elif isinstance(value.get("id"), str) and isinstance(value.get("searches"), list):
            out.append({**value, "object": "webset"})  # a websets.* view of a webset
        elif isinstance(value.get("researchId"), str) and "status" in value:
            # a research.* view of an agent run (workflows save it): its model names its effort
            model = value.get("model")
            effort = MODEL_TO_EFFORT.get(model if isinstance(model, str) else DEFAULT_MODEL, "medium")
            out.append(
                {
                    "id": value["researchId"],
                    "object": "agent_run",
                    "status": value["status"],
                    "request": {"effort": effort},
                }
            )
        for inner in value.values():
            walk_objects(inner, out)
    elif isinstance(value, list):
        for inner in value:
            walk_objects(inner, out)
