"""Metering: two layers of the gateway's stack that run a call's accounts (gateway/accounts.py).

Every call to Exa is metered by the accounts that apply to it, in order: the task's purse (its
request context's, if it has one), the principals' daily caps (if the operator set any) and the
ledger (the store's, once the app gives it). Calls to other hosts (ArXiv) are not metered.

- `Metering` (per call, outside the pool and the retries) opens each account before the call is
  sent (a budget-capped body, a cap's hold for the day), accounts each successful answer once
  (what Exa billed, and exa-orch's Websets estimates), after the attempt gave back its slot and
  before the caller sees the answer, and closes the accounts when the call is over. A streamed
  answer is accounted when its stream ends, from the event that carries its cost.
- `Reserving` (per attempt, right above the wire: after every wait and the lease fence) holds
  each attempt's worst case, refusing it unsent past a budget or after a 402, and tells the
  accounts when an attempt failed.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable

import httpx

from exa_orch.gateway.accounts import Account, Answer, CapsAccount, LedgerAccount, PurseAccount
from exa_orch.gateway.calls import Call, call_of
from exa_orch.gateway.context import current_request
from exa_orch.gateway.ledger import (
    StreamCost,
    WebsetsSeen,
    paid_answer,
    streamed_answer,
    webset_estimates,
)


class Accounts:
    """The accounts every call to Exa is metered by, and the task's purse for those of a task."""

    def __init__(self, attempt_id: str) -> None:
        self.attempt_id = attempt_id  # this process's run, told apart from a crashed one's (ledger rows)
        self.caps: CapsAccount | None = None
        self.ledger: LedgerAccount | None = None
        self.websets_seen = WebsetsSeen()  # Websets work already estimated (gateway/ledger.py)

    def of(self, call: Call) -> list[Account]:
        """The accounts `call` is metered by (none for a call that does not go to Exa)."""
        if not call.to_exa:
            return []
        purse = current_request().purse
        found: list[Account] = [PurseAccount(purse)] if purse is not None else []
        if self.caps is not None:
            found.append(self.caps)
        if self.ledger is not None:
            found.append(self.ledger)
        return found


class Metering(httpx.AsyncBaseTransport):
    """Opens, accounts and closes a call's accounts (see the module doc)."""

    def __init__(self, inner: httpx.AsyncBaseTransport, accounts: Accounts) -> None:
        self._inner = inner
        self.accounts = accounts

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        call = call_of(request)
        if not call.to_exa:
            return await self._inner.handle_async_request(request)
        accounts = self.accounts.of(call)
        try:
            for account in accounts:
                request = await account.open(call, request)
            response = await self._inner.handle_async_request(request)
            if call.shape.streaming:  # the caller reads it; accounted when it ends
                return await self._metered(call, response, accounts)
            body = call.body or b""
            scope, attempt = current_request(), self.accounts.attempt_id
            paid = paid_answer(call.shape.path, body, scope, attempt)
            rows = [paid] if paid is not None else []
            rows += webset_estimates(call.shape.path, body, scope, attempt, self.accounts.websets_seen)
            answer = Answer(call, body, rows, paid)
            for account in accounts:
                await account.answered(answer)
            return response
        finally:
            for account in accounts:
                account.close(call)

    async def _metered(self, call: Call, response: httpx.Response, accounts: list[Account]) -> httpx.Response:
        """A streamed answer whose cost is accounted when its stream ends, from the event that
        carries it (`ledger.StreamCost`); one the cost can't be read from counts its worst case."""
        if call.shape.path.rstrip("/") != "/answer" or response.headers.get("content-encoding"):
            unread = Answer(call, b"", [], None, streamed=True)
            for account in accounts:
                await account.answered(unread)
            return response
        scope = current_request()
        header_id = response.headers.get("x-request-id")
        attempt = self.accounts.attempt_id

        async def done(cost: StreamCost) -> None:
            paid = streamed_answer(call.shape.path, cost, header_id, scope, attempt)
            answer = Answer(call, b"", [paid], paid, streamed=True)
            for account in accounts:
                await account.answered(answer)

        return httpx.Response(
            response.status_code,
            headers=response.headers,
            stream=_Metered(response, done),
            extensions=response.extensions,
        )

    async def aclose(self) -> None:
        await self._inner.aclose()


class Reserving(httpx.AsyncBaseTransport):
    """Holds each attempt's worst case in the call's accounts right before it is sent."""

    def __init__(self, inner: httpx.AsyncBaseTransport, accounts: Accounts) -> None:
        self._inner = inner
        self._accounts = accounts

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        call = call_of(request)
        accounts = self._accounts.of(call)
        if not accounts:
            return await self._inner.handle_async_request(request)
        for account in accounts:
            account.hold(call)
        try:
            return await self._inner.handle_async_request(request)
        except BaseException as exc:
            for account in accounts:
                account.failed(call, exc)
            raise

    async def aclose(self) -> None:
        await self._inner.aclose()


class _Metered(httpx.AsyncByteStream):
    """A streamed answer's body, read through a `StreamCost`; `done` runs once, when it is closed."""

    def __init__(self, response: httpx.Response, done: Callable[[StreamCost], Awaitable[None]]) -> None:
        self._response = response
        self._done: Callable[[StreamCost], Awaitable[None]] | None = done
        self._cost = StreamCost()

    async def __aiter__(self) -> AsyncIterator[bytes]:
        async for chunk in self._response.aiter_raw():
            self._cost.feed(chunk)
            yield chunk

    async def aclose(self) -> None:
        try:
            await self._response.aclose()
        finally:
            done, self._done = self._done, None
            if done is not None:
                self._cost.end()
                await done(self._cost)
