"""The simulator bills like Exa: `costDollars` at Exa's published prices, an account that spends,
and a fault mode that answers 402 once a given spend is reached.

The prices are the simulator's own copy of data-design/prices.md (the simulator imports nothing of
the rest of exa_orch; tests/gateway/test_ledger.py checks both copies agree). `Billing` (kept in
`ctx.extras["billing"]`) adds up `costDollars.total` of every answer the simulator sends (an agent
run once, from its first finished read; a streamed answer from its cost event), so a test can compare what exa-orch recorded with what
was billed. With `credit_limit_usd` set, a paid request that arrives once the spend has reached it
is answered 402 `NO_MORE_CREDITS`, with the body Exa sends (tests/fixtures/real/ has a real one).
`GET /_sim/billing` shows the account; `POST /_sim/billing {"creditLimitUsd": x | null}` sets the
limit.
"""

from __future__ import annotations

import json
import threading
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route
from starlette.types import Message, Send

SEARCH = 0.007  # a request, 10 results included
SEARCH_DEEP = 0.012
SEARCH_DEEP_REASONING = 0.015
EXTRA_RESULT = 0.001  # each result past 10
PER_PAGE = 0.001  # each page, per content type (text, highlights) and for a summary
ANSWER = 0.005
AGENT_FIXED = {"minimal": 0.012, "low": 0.025, "medium": 0.10, "high": 0.50, "xhigh": 2.00}
AGENT_METERED_CAP = {"auto": 5.0, "ultra": 20.0, "max": 20.0}  # a metered run's default budget
ACU = 0.10
USAGE_SEARCH = 0.005

PAID_PATHS = ("/search", "/findSimilar", "/contents", "/answer", "/agent/runs")
NO_CREDITS = "You have exceeded your credits limit. Please top up to keep using Exa at dashboard.exa.ai"


def search_cost(n_results: int, contents: dict[str, Any] | None, kind: str | None = None) -> dict[str, Any]:
    """`costDollars` of a search (or find-similar, or contents with `kind` "contents") answer."""
    if kind == "contents":
        search = 0.0
    else:
        search = (
            SEARCH_DEEP if kind == "deep" else SEARCH_DEEP_REASONING if kind == "deep-reasoning" else SEARCH
        )
        search += max(0, n_results - 10) * EXTRA_RESULT
    per_page = 0.0
    if contents:
        per_page = PER_PAGE * sum(1 for k in ("text", "highlights", "summary") if contents.get(k))
    content_cost = round(per_page * n_results, 6)
    search = round(search, 6)
    out: dict[str, Any] = {
        "total": round(search + content_cost, 6),
        "breakDown": [{"search": search, "contents": content_cost}],
        "contents": {"text": content_cost} if content_cost else {},
    }
    if kind != "contents":
        out["search"] = {kind if kind in ("deep", "deep-reasoning") else "neural": search}
    return out


class Billing:
    """What the account has been billed, and its credit limit (thread-safe: tests read it)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.spent = 0.0
        self.answers = 0  # answers that carried a cost
        self.credit_limit_usd: float | None = None
        self.refused = 0  # requests answered 402
        self._runs: set[str] = set()
        # What each charged answer was, in order: its requestId, or `agent_run:<id>` (the ledger's keys).
        self.charged: list[str] = []

    def __getstate__(self) -> dict[str, Any]:  # the account file keeps the spend (sim/account.py)
        state = self.__dict__.copy()
        del state["_lock"]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        state.setdefault("charged", [])  # an account file saved before it was kept
        self.__dict__.update(state)
        self._lock = threading.Lock()

    def out_of_credits(self, method: str, path: str) -> bool:
        """Whether a request to `path` must be refused with a 402 now."""
        with self._lock:
            limit = self.credit_limit_usd
            if limit is None or method != "POST" or path.rstrip("/") not in PAID_PATHS:
                return False
            if self.spent + 1e-9 >= limit:
                self.refused += 1
                return True
            return False

    def charge(self, body: bytes) -> None:
        """Count the cost an answer carries (an agent run's once)."""
        if b"costDollars" not in body:
            return
        try:
            data = json.loads(body)
        except ValueError:
            return
        if not isinstance(data, dict):
            return
        cost = data.get("costDollars")
        total = cost.get("total") if isinstance(cost, dict) else None
        if not isinstance(total, int | float):
            return
        if data.get("object") == "agent_run" and data.get("status") not in (
            "completed",
            "failed",
            "cancelled",
        ):
            return  # a run still going shows zeros (the spec's AgentRun): billed once, when it ends
        with self._lock:
            if data.get("object") == "agent_run":
                if data.get("id") in self._runs:
                    return
                self._runs.add(str(data.get("id")))
                self.charged.append(f"agent_run:{data.get('id')}")
            else:
                self.charged.append(str(data.get("requestId")))
            self.spent = round(self.spent + float(total), 6)
            self.answers += 1

    def charge_stream(self, body: bytes, request_id: str | None) -> None:
        """Count the cost a streamed answer's events carry (its `costDollars` event)."""
        for line in body.split(b"\n"):
            line = line.strip()
            if line.startswith(b"data:") and b"costDollars" in line:
                try:
                    event = json.loads(line[5:])
                except ValueError:
                    continue
                cost = event.get("costDollars") if isinstance(event, dict) else None
                total = cost.get("total") if isinstance(cost, dict) else None
                if isinstance(total, int | float):
                    with self._lock:
                        self.charged.append(str(request_id))
                        self.spent = round(self.spent + float(total), 6)
                        self.answers += 1
                    return

    def snapshot(self) -> dict[str, Any]:
        with self._lock:
            return {
                "spentUsd": self.spent,
                "answers": self.answers,
                "creditLimitUsd": self.credit_limit_usd,
                "refused": self.refused,
            }


def billed_send(send: Send, billing: Billing, request_id: str | None = None) -> Send:
    """A `send` that charges the account for an answer's cost as it goes out: a JSON answer's
    `costDollars`, or a streamed answer's (the server-sent event that carries it, keyed by the
    request's id, which the stream's events do not carry)."""
    status = 0
    chunks: list[bytes] = []
    kind = b""

    async def wrapped(message: Message) -> None:
        nonlocal status, kind
        if message["type"] == "http.response.start":
            status = message["status"]
            headers = dict(message.get("headers") or [])
            kind = headers.get(b"content-type", b"")
        elif message["type"] == "http.response.body" and status < 300:
            if kind.startswith(b"application/json"):
                chunks.append(message.get("body", b""))
                if not message.get("more_body"):
                    billing.charge(b"".join(chunks))
            elif kind.startswith(b"text/event-stream"):
                chunks.append(message.get("body", b""))
                if not message.get("more_body"):
                    billing.charge_stream(b"".join(chunks), request_id)
        await send(message)

    return wrapped


def no_credits_body(request_id: str) -> bytes:
    return json.dumps({"requestId": request_id, "error": NO_CREDITS, "tag": "NO_MORE_CREDITS"}).encode()


def routes(extras: dict[str, Any]) -> list[BaseRoute]:
    """`/_sim/billing` on the account in `extras["billing"]` (a restored account replaces it)."""

    async def account(request: Request) -> Response:
        billing: Billing = extras["billing"]
        if request.method == "POST":
            body = await request.json()
            limit = body.get("creditLimitUsd") if isinstance(body, dict) else None
            billing.credit_limit_usd = float(limit) if isinstance(limit, int | float) else None
        return JSONResponse(billing.snapshot())

    return [Route("/_sim/billing", account, methods=["GET", "POST"])]
