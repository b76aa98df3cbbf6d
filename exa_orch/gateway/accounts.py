"""What meters a call to Exa: one `Account` interface, three accounts (gateway/metering.py uses them).

- `PurseAccount`: the task's purse (gateway/purse.py), from the request context: caps a create's
  body at what the task has left, holds each attempt's worst case right before it is sent
  (refusing it unsent past the budget or after a 402), and settles it with what Exa billed;
- `CapsAccount`: the principals' daily caps (gateway/caps.py): holds a call's worst case for the
  day before it is sent (BUDGET_EXCEEDED, unsent), and agent runs and webset searches until they
  end;
- `LedgerAccount`: the ledger (the store's `costs`, gateway/ledger.py): writes each paid answer's
  rows before the answer reaches its caller.

The metering layer calls each hook on every account of a call, in that order: the purse first,
so the caps see which costs the task had counted already (`Answer.known`), and the ledger last,
so it writes the rows as the purse marked them (a re-sent step's).
"""

from __future__ import annotations

import dataclasses
import logging
from dataclasses import dataclass, field
from typing import Protocol

import httpx

from exa_orch.errors import CreditsExhausted, GatewayError, LeaseLapsed
from exa_orch.gateway import prices
from exa_orch.gateway.calls import Call
from exa_orch.gateway.caps import DailyCaps
from exa_orch.gateway.context import current_request
from exa_orch.gateway.ledger import (
    Ledger,
    PaidAnswer,
    capped_agent_body,
    capped_webset_body,
    created_run_id,
    created_searches,
    finished_searches,
    webset_count_path,
)
from exa_orch.gateway.purse import SEARCH_WORK, BudgetReached, Purse
from exa_orch.gateway.running import read_running

logger = logging.getLogger("exa_orch.gateway")


@dataclass(eq=False)
class Answer:
    """A successful answer to a metered call, and what it cost."""

    call: Call
    body: bytes  # decoded (empty for a stream)
    rows: list[PaidAnswer]  # its ledger rows: what Exa billed, then exa-orch's Websets estimates
    paid: PaidAnswer | None  # the billed row among them (None: the answer carries no cost)
    streamed: bool = False  # a stream, accounted when it ended
    known: set[str] = field(default_factory=set)  # row keys the task had counted before it


class Account(Protocol):
    """One thing that meters calls to Exa: a budget, a cap, a ledger. Every hook may do nothing."""

    async def open(self, call: Call, request: httpx.Request) -> httpx.Request:
        """Before the call is sent at all (once): the request to send (a body capped at what is
        left), or refuse it unsent (an OrchError)."""
        ...

    def hold(self, call: Call) -> None:
        """Right before each attempt is sent, after every wait: hold its worst case, or refuse it."""
        ...

    def failed(self, call: Call, error: BaseException) -> None:
        """An attempt failed with `error` (refused by Exa, or it may have reached it)."""
        ...

    async def answered(self, answer: Answer) -> None:
        """A successful answer: count what it cost."""
        ...

    def close(self, call: Call) -> None:
        """The call is over (answered, failed or cancelled): release what `open` held."""
        ...


class Silent:
    """An account's hooks that do nothing, for an account to override the ones it needs."""

    async def open(self, call: Call, request: httpx.Request) -> httpx.Request:
        return request

    def hold(self, call: Call) -> None:
        pass

    def failed(self, call: Call, error: BaseException) -> None:
        pass

    async def answered(self, answer: Answer) -> None:
        pass

    def close(self, call: Call) -> None:
        pass


class PurseAccount(Silent):
    """The task's purse as an account (see the module doc)."""

    def __init__(self, purse: Purse) -> None:
        self.purse = purse

    async def open(self, call: Call, request: httpx.Request) -> httpx.Request:
        """A create for a task with a budget, capped at what it has left: an agent run's
        `budget.maxCostDollars`, a webset search's `count` (the items it affords at the estimate;
        none affordable: BudgetReached, unsent)."""
        shape, purse = call.shape, self.purse
        if shape.method != "POST" or purse.remaining is None:
            return request
        agent = shape.path.rstrip("/") == "/agent/runs"
        if not agent and not webset_count_path(shape.path):
            return request
        try:
            content = call.priced.content
        except httpx.RequestNotRead:
            return request
        if agent:
            capped = capped_agent_body(content, purse.remaining)
        else:
            capped, affords = capped_webset_body(shape.path, content, purse.remaining)
            if affords < 1:
                what = "a webset search"
                purse.stop(
                    BudgetReached(
                        purse.task_id, purse.budget or 0.0, purse.spent, prices.WEBSET_ITEM_ESTIMATE, what
                    )
                )
                assert purse.stopped is not None
                raise purse.stopped
        if capped is None:
            return request
        headers = request.headers.copy()
        headers.pop("content-length", None)
        sent = httpx.Request(
            request.method, request.url, headers=headers, content=capped, extensions=request.extensions
        )
        call.reprice(sent)
        return sent

    def hold(self, call: Call) -> None:
        call.held = 0.0
        call.held = self.purse.reserve(call.worst(), call.what)  # a 402 or the budget: unsent

    def failed(self, call: Call, error: BaseException) -> None:
        if isinstance(error, CreditsExhausted):
            self.purse.stop(error)  # nothing more is sent for this task
        # A refused request was not billed (nor one the fence stopped at the socket); one that may
        # have reached Exa counts its worst.
        unsent = isinstance(error, LeaseLapsed) or isinstance(error, GatewayError) and error.status
        self.purse.settle(call.held, 0.0 if unsent else None)

    async def answered(self, answer: Answer) -> None:
        purse, call = self.purse, answer.call
        if answer.streamed:
            purse.settle(call.held, answer.paid.usd if answer.paid is not None else None)
            return
        answer.known = {r.key for r in answer.rows if r.key in purse.estimated or r.key in purse.counted_runs}
        self._settle(answer)
        finished = finished_searches(call.shape.path, answer.body) if purse.searches else []
        for i, row in enumerate(answer.rows):
            if not row.billed:
                purse.accrue(row.key, row.usd, prices.WEBSET_ITEM_ESTIMATE)
            elif row.step_key is not None and row.step_key in purse.paid_steps:
                # A step an earlier run of the task paid in, sent again.
                answer.rows[i] = dataclasses.replace(row, resend=True)
        for search_id in finished:  # after its last items counted: what it did not find is freed
            purse.search_finished(search_id)

    def _settle(self, answer: Answer) -> None:
        """Count an answer against the purse: what Exa billed, else the worst case held. An agent
        run's create holds its worst case until its final state says what it cost."""
        purse, call, paid, body = self.purse, answer.call, answer.paid, answer.body
        held, method, path = call.held, call.shape.method, call.shape.path
        if paid is not None and paid.operation == "agent.run":
            purse.run_finished(paid.key.removeprefix("agent_run:"), paid.usd)
            purse.settle(held, 0.0)
            return
        if method == "GET":  # work an earlier run of the task left running: held again
            echoed: set[str] = set()
            running_runs, running_searches = read_running(path, body, echoed)
            for run_id, worst in running_runs.items():
                purse.hold_run(run_id, worst, exact=run_id in echoed)
            for search_id, search in running_searches.items():
                purse.hold_search(search_id, search.left(purse.estimated, search_id))
        created = created_run_id(path, body) if method == "POST" else None
        if created is not None:
            purse.runs[created] = held
        searches = created_searches(path, body) if method == "POST" else []
        if searches:  # a webset search holds its count's estimate until it finishes (Purse.accrue)
            purse.search_started(searches[0], held)
        elif held and paid is None and webset_count_path(path):
            purse.settle(held, 0.0)  # no search started: nothing to hold
            return
        purse.settle(held, paid.usd if paid is not None else None)


class CapsAccount(Silent):
    """The principals' daily caps as an account (see the module doc)."""

    def __init__(self, caps: DailyCaps) -> None:
        self.caps = caps

    async def open(self, call: Call, request: httpx.Request) -> httpx.Request:
        """Hold the call's worst case in its principal's cap for today: BUDGET_EXCEEDED, unsent."""
        scope = current_request()
        if scope.purse is not None:  # the task's runs under way (a resumed task's too) are held
            for run_id, worst in scope.purse.runs.items():
                self.caps.hold_run(scope.principal, run_id, worst)
        call.cap_hold = await self.caps.reserve(scope.principal, call.worst())
        return request

    async def answered(self, answer: Answer) -> None:
        caps = self.caps
        if answer.streamed:
            for row in answer.rows:
                caps.add(row.principal, row.usd)
            return
        call, body = answer.call, answer.body
        self._hold_runs(call, body, current_request().principal, answer.rows)
        for row in answer.rows:
            if row.key in answer.known or caps.seeded(row.principal, row.key):
                continue  # the task counted it already (the ledger's, for a resumed task)
            if row.operation == "agent.run":
                caps.run_finished(row.principal, row.key.removeprefix("agent_run:"), row.usd)
                continue
            if row.key.startswith(SEARCH_WORK):
                caps.item_found(row.key.split(":")[1], row.usd)
            caps.add(row.principal, row.usd)
        if caps.holds_searches:
            for search_id in finished_searches(call.shape.path, body):
                caps.search_finished(search_id)

    def _hold_runs(self, call: Call, body: bytes, principal: str | None, rows: list[PaidAnswer]) -> None:
        """Hold in the principal's cap the agent run a create made (its worst case, until its final
        state), or one a read shows under way that no hold covers (made before a restart)."""
        caps, path = self.caps, call.shape.path
        if call.shape.method == "POST":
            created = created_run_id(path, body)
            if created is not None:
                caps.hold_run(principal, created, call.worst())
            searches = created_searches(path, body)
            if searches:
                caps.hold_search(principal, searches[0], call.worst())
        elif call.shape.method == "GET":
            runs, searches_running = read_running(path, body)
            for run_id, worst in runs.items():
                caps.hold_run(principal, run_id, worst)
            for search_id, search in searches_running.items():  # made before a restart
                # Its items this answer shows for the first time draw from the hold (`answered`).
                new = sum(
                    1
                    for r in rows
                    if r.key.startswith(f"webset_item:{search_id}:") and not caps.seeded(principal, r.key)
                )
                caps.hold_search(
                    principal, search_id, max(0, search.count - search.found + new) * search.per_item
                )

    def close(self, call: Call) -> None:
        self.caps.release(call.cap_hold)
        call.cap_hold = None


class LedgerAccount(Silent):
    """The ledger as an account: each answer's rows written (a failed write is logged: the answer
    was paid for either way, and failing the call would only make it be sent, and paid, again)."""

    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger

    async def answered(self, answer: Answer) -> None:
        for row in answer.rows:
            try:
                await self.ledger(row)
            except Exception as exc:
                if answer.streamed:
                    logger.warning("could not record the cost of a streamed answer: %s", exc)
                else:
                    logger.warning("could not record the cost of %s: %s", answer.call.what, exc)
