"""The governed transport: every request to Exa (and ArXiv Xplorer) passes through here.

`GovernedTransport` is a stack of httpx transports, each wrapping the next as httpx composes its
own, each doing one job; it assembles them here, in this order (outside in):

    Keying      keying.py    what the request is (the `Call` the layers share); the principal's key
    Metering    metering.py  the call's accounts (purse, daily caps, ledger): opened, answered, closed
    Pooling     pooling.py   a slot of the team's capacity for each agent run or webset create
    Retrying    pacing.py    another attempt after a transient failure, as the retry policy allows
    Pacing      pacing.py    Retry-After holds, the in-flight cap, the per-family rate limits
    Fencing     fencing.py   the task's lease fence, checked right before each attempt
    Reserving   metering.py  each attempt's worst case held in the task's purse, unsent past it
    Wire        wire.py      the connection pools; the answer read, or turned into a typed error

The per-call layers (keys, accounts, pool slots) sit outside the retries and hold what they hold
for all of a call's attempts; the per-attempt ones inside, in the order an attempt needs them: it
waits its turn, then the fence and the budget are checked last, after every wait, right before
it is sent. What a task brings (its principal, fence, purse, where its notices go) reaches the
layers through the one request context (gateway/context.py). This class itself only counts the
calls and their final errors (`GatewayStats`, which every layer adds to).
"""

from __future__ import annotations

import logging
import uuid

import httpx

from exa_orch.config import Secret
from exa_orch.errors import GatewayError
from exa_orch.gateway.accounts import CapsAccount, LedgerAccount
from exa_orch.gateway.caps import DailyCaps
from exa_orch.gateway.fencing import Fencing
from exa_orch.gateway.keying import Keying
from exa_orch.gateway.keys import ApiKeys
from exa_orch.gateway.ledger import Ledger
from exa_orch.gateway.limits import DEFAULT_MARGIN, FamilyGate
from exa_orch.gateway.metering import Accounts, Metering, Reserving
from exa_orch.gateway.pacing import Pacing, Retrying
from exa_orch.gateway.pool import RunPool
from exa_orch.gateway.pooling import Pooling
from exa_orch.gateway.retry import RetryPolicy
from exa_orch.gateway.stats import GatewayStats
from exa_orch.gateway.wire import Wire

logger = logging.getLogger("exa_orch.gateway")


class GovernedTransport(httpx.AsyncBaseTransport):
    """The gateway's stack of transports, assembled (see the module doc)."""

    def __init__(
        self,
        *,
        api_key: Secret | None | ApiKeys,
        exa_url: str,
        arxiv_url: str | None = None,
        concurrency: int = 3,
        rps: float = 10.0,
        retry: RetryPolicy | None = None,
        margin: float = DEFAULT_MARGIN,
        inner: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        """`inner` replaces the real connections at the bottom of the stack (tests, benchmarks)."""
        if concurrency < 1:
            raise ValueError("concurrency must be at least 1")
        self.keys = api_key if isinstance(api_key, ApiKeys) else ApiKeys(api_key)
        self.stats = GatewayStats()
        self._concurrency = concurrency
        self._rps = rps
        self._closed = False
        policy = retry or RetryPolicy()
        self.accounts = Accounts(uuid.uuid4().hex)
        self.wire = Wire(self.stats, concurrency, inner)
        self.pacing = Pacing(
            Fencing(Reserving(self.wire, self.accounts)),
            concurrency=concurrency,
            rps=rps,
            margin=margin,
            deadline=policy.deadline,
            stats=self.stats,
        )
        self.pooling = Pooling(Retrying(self.pacing, policy, self.stats))
        self.metering = Metering(self.pooling, self.accounts)
        self._top = Keying(self.metering, self.keys, exa_url, arxiv_url)

    def __repr__(self) -> str:
        return f"<GovernedTransport concurrency={self._concurrency} rps={self._rps:g}>"

    @property
    def has_key(self) -> bool:
        """Whether the operator's key signs every request (False for a server started without one)."""
        return self.keys.operator is not None

    @property
    def attempt_id(self) -> str:
        """This process's run, told apart from a crashed one's (each ledger row's `attempt`)."""
        return self.accounts.attempt_id

    @property
    def pools(self) -> dict[str, RunPool]:
        """The team's capacity (gateway/pool.py), by kind; the Gateway sets its own."""
        return self.pooling.pools

    @pools.setter
    def pools(self, pools: dict[str, RunPool]) -> None:
        self.pooling.pools = pools

    def record_costs(self, ledger: Ledger | None) -> None:
        """Hand each paid answer to `ledger` (the store's) before it is returned (None: stop)."""
        self.accounts.ledger = LedgerAccount(ledger) if ledger is not None else None

    def cap_daily(self, caps: DailyCaps | None) -> None:
        """Refuse a call that could take its principal past `caps` (gateway/caps.py) for the day."""
        self.accounts.caps = CapsAccount(caps) if caps is not None else None

    def gate(self, family: str) -> FamilyGate:
        """The pacing gate of an endpoint family (made on first use)."""
        return self.pacing.gate(family)

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if self._closed:
            raise RuntimeError("the gateway's transport is closed")
        self.stats.calls += 1
        try:
            return await self._top.handle_async_request(request)
        except GatewayError as exc:
            self.stats.errors_by_kind[str(exc.code)] += 1
            logger.debug("%s %s failed: %s (%s)", request.method, request.url.path, exc.code, exc.message)
            raise

    async def aclose(self) -> None:
        """Close the pooled connections; idempotent (several clients share this transport)."""
        if not self._closed:
            self._closed = True
            await self._top.aclose()
