"""The Gateway: the one owner of the path to Exa (`async with Gateway(settings) as gw`).

    gw.exa    exa_py.AsyncExa whose every request (search, contents, answer, websets.*, agent.runs,
              ...) goes through the governed transport
    gw.http   httpx.AsyncClient on the same transport, base_url = settings.exa_url, for endpoints
              exa-py lacks; the transport adds the API key
    gw.arxiv  httpx.AsyncClient on the same transport, base_url = settings.arxiv_url (no key sent)
    gw.stats() counters: calls, retries, throttled waits, errors by kind, in flight

Errors surface as exa-orch's typed errors (`exa_orch.errors`, GatewayError family) straight
through exa-py: the transport raises them before exa-py looks at the status, and exa-py lets
them pass (checked in tests). `call(awaitable)` maps what exa-py can still raise on its own
(a streamed body cut short, a value too long for a URL) to the same family. Statuses are mapped
from status and body in one place (`gateway/errors.py`); nothing reads exa-py's message text.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import importlib
import logging
import threading
import urllib.parse
from collections.abc import Awaitable, Callable
from dataclasses import asdict
from enum import Enum
from types import TracebackType
from typing import TYPE_CHECKING, Any, Self, TypeVar

import httpx

from exa_orch.config import Secret, Settings
from exa_orch.errors import ConfigError, InvalidParams, OrchError
from exa_orch.gateway.caps import DailyCaps, SpentSince
from exa_orch.gateway.context import current_request, request_scope
from exa_orch.gateway.errors import error_from_exception
from exa_orch.gateway.keys import ApiKeys
from exa_orch.gateway.ledger import Ledger
from exa_orch.gateway.limits import DEFAULT_MARGIN
from exa_orch.gateway.pool import RunPool, SlotBook, read_team_limit
from exa_orch.gateway.retry import RetryPolicy
from exa_orch.gateway.transport import GovernedTransport

if TYPE_CHECKING:
    from exa_py import AsyncExa

    from exa_orch.gateway.exa import GovernedExa

T = TypeVar("T")
logger = logging.getLogger("exa_orch.gateway")

DEFAULT_TIMEOUT = 120.0

_exa_py: concurrent.futures.Future[None] | None = None  # the one import of exa-py, once begun
_exa_py_lock = threading.Lock()


def _import_exa_py(done: concurrent.futures.Future[None]) -> None:
    try:
        importlib.import_module("exa_orch.gateway.exa")
    except BaseException as exc:  # an import error reaches every caller that waits
        done.set_exception(exc)
    else:
        done.set_result(None)


async def exa_py_imported() -> None:
    """Return once exa-py is imported, importing it on a thread of its own the first time.

    `Gateway.exa` imports it on first use; done on the event loop, that import (about a CPU-second:
    exa-py loads openai's types) holds every task of the process, its heartbeat too, for as long,
    and on a loaded 2-core machine (10 times as long) long enough for the running tasks' lease
    fences to lapse: their creates are refused and their runs end as lost leases (issue 41). On a
    thread the loop keeps running meanwhile; every caller awaits the same import."""
    global _exa_py
    with _exa_py_lock:
        if _exa_py is None:
            _exa_py = concurrent.futures.Future()
            # running, so no caller's cancellation cancels it (asyncio.wrap_future passes a waiter's
            # cancel on): a cancelled import would fail every later caller in the process
            _exa_py.set_running_or_notify_cancel()
            threading.Thread(
                target=_import_exa_py, args=(_exa_py,), name="exa-orch-import-exa-py", daemon=True
            ).start()
        loading = _exa_py
    if not loading.done():
        await asyncio.wrap_future(loading)
    loading.result()


class _State(Enum):
    UNOPENED = 1  # built; no client exists yet
    OPENED = 2  # inside `async with`: clients usable
    CLOSED = 3  # connections closed; cannot be reopened


class Gateway:
    """One governed transport shared by `exa`, `http` and `arxiv` (see the module doc)."""

    def __init__(
        self,
        settings: Settings,
        *,
        retry: RetryPolicy | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        margin: float = DEFAULT_MARGIN,
        inner: httpx.AsyncBaseTransport | None = None,
        key_required: bool = True,
    ) -> None:
        """Read the key once (ConfigError naming EXA_API_KEY when missing) and register it for redaction.

        `inner` replaces the real HTTP transport under the governor (tests, benchmarks).
        `key_required=False` opens a gateway without a key (the MCP server's keyless start): each
        call to Exa raises MissingApiKey until the principal it is made for gives one
        (`give_api_key`), which then serves that principal alone.
        """
        key: Secret | None
        try:
            key = settings.require_api_key()
        except ConfigError:
            if key_required:
                raise
            key = None
        self.settings = settings
        self._timeout = timeout
        self.keys = ApiKeys(key)
        self.transport = GovernedTransport(
            api_key=self.keys,
            exa_url=settings.exa_url,
            arxiv_url=settings.arxiv_url,
            concurrency=settings.concurrency,
            rps=settings.rps,
            retry=retry,
            margin=margin,
            inner=inner,
        )
        # The team's capacity at Exa (gateway/pool.py): in this process's memory until the app
        # hands the pools the store's book (`share_pools`), which every server on it shares.
        self.pools: dict[str, RunPool] = {
            "agent": RunPool("agent", settings.max_agent_runs, settings.rps),
            "webset": RunPool("webset", settings.max_running_websets, settings.rps),
        }
        for kind, pool in self.pools.items():
            pool.check = self._looker(kind)
        self.pools["webset"].ready = self._read_team_limit
        self.transport.pools = self.pools
        self._state = _State.UNOPENED
        self._http: httpx.AsyncClient | None = None
        self._arxiv: httpx.AsyncClient | None = None
        self._exa: GovernedExa | None = None

    @property
    def has_key(self) -> bool:
        """Whether the operator's key (EXA_API_KEY) signs every call (False on a keyless server)."""
        return self.transport.has_key

    def has_key_for(self, principal: str | None) -> bool:
        """Whether a call made for `principal` would be signed (the operator's key or its own)."""
        return self.keys.has_key(principal)

    def give_api_key(self, principal: str, key: str) -> None:
        """Sign the later calls made for `principal` (and only those) with `key`: held in memory
        only, redacted from every log; InvalidParams if it can't be a key."""
        self.keys.give(principal, key)

    def record_costs(self, ledger: Ledger | None) -> None:
        """Write what each answer from Exa cost to `ledger` (the store's `costs`), before the answer
        reaches its caller; None stops it."""
        self.transport.record_costs(ledger)

    def share_pools(self, book: SlotBook) -> None:
        """Keep the pools of active agent runs and websets in `book` (the store's), so that every
        server on that database shares one limit; call before the first request."""
        for pool in self.pools.values():
            pool.use_book(book)

    def observe_run(self, kind: str, obj_id: str, status: str) -> None:
        """Tell pool `kind` ('agent' or 'webset') that `obj_id` is in `status`, as something other
        than a plain answer showed it (a run's event feed): a finished run frees its slot."""
        scope = current_request()
        self.pools[kind].observe(obj_id, status, scope.principal, scope.task_id)

    def _looker(self, kind: str) -> Callable[[str, str], Awaitable[None]]:
        """How a pool looks up a run (webset) nobody has seen for a while: a GET, whose answer
        the transport reports to the pool (a 404 frees its slot)."""
        base = "/agent/runs/" if kind == "agent" else "/websets/v0/websets/"

        async def look(run_id: str, principal: str) -> None:
            with request_scope(principal=principal or None, task_id=None, step=None):
                await self.http.get(base + urllib.parse.quote(run_id, safe=""))

        return look

    async def _read_team_limit(self) -> None:
        """Websets' team concurrency, where Exa answers `GET /websets/v0/teams/me` (it is in
        neither spec; a 404 or an answer without it leaves EXA_ORCH_MAX_RUNNING_WEBSETS)."""
        try:
            answer = await self.http.get("/websets/v0/teams/me")
            limit = read_team_limit(answer.json())
        except (OrchError, ValueError) as exc:
            logger.debug("websets team concurrency not read (%s); the configured limit holds", exc)
            return
        if limit is not None:
            logger.info("Exa's websets team concurrency: %d at once", limit)
            self.pools["webset"].limit = limit

    def cap_daily(self, spent_since: SpentSince | None) -> None:
        """Apply the settings' per-principal daily caps (gateway/caps.py), reading what a principal
        spent today from `spent_since` (the store) on its first paid call of the day."""
        settings = self.settings
        if settings.daily_budget_usd is not None or settings.daily_budgets:
            self.transport.cap_daily(
                DailyCaps(settings.daily_budget_usd, dict(settings.daily_budgets), spent_since)
            )

    def __repr__(self) -> str:
        return (
            f"<Gateway {self.settings.exa_url} concurrency={self.settings.concurrency} "
            f"rps={self.settings.rps:g} {self._state.name.lower()}>"
        )

    async def __aenter__(self) -> Self:
        if self._state is not _State.UNOPENED:
            raise RuntimeError("a Gateway can be opened only once; make a new one")
        timeout = httpx.Timeout(self._timeout, connect=min(self._timeout, 10.0))
        self._http = httpx.AsyncClient(
            transport=self.transport, base_url=self.settings.exa_url, timeout=timeout
        )
        self._arxiv = httpx.AsyncClient(
            transport=self.transport, base_url=self.settings.arxiv_url, timeout=timeout
        )
        self._state = _State.OPENED
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """Close the clients and the shared connection pool; idempotent."""
        if self._state is _State.CLOSED:
            return
        self._state = _State.CLOSED
        for pool in self.pools.values():
            await pool.aclose()
        for client in (self._http, self._arxiv):
            if client is not None:
                await client.aclose()
        await self.transport.aclose()

    def _opened(self, value: T | None) -> T:
        if self._state is not _State.OPENED or value is None:
            raise RuntimeError("use the Gateway inside `async with Gateway(settings) as gw`")
        return value

    @property
    def exa(self) -> AsyncExa:
        """exa-py's AsyncExa, governed; made on first use, so a server that never calls exa-py
        never imports it (exa-py loads openai's types: most of a cold start's import time).
        From a coroutine, await `exa_py_imported()` first: the import then runs off the loop."""
        http = self._opened(self._http)
        if self._exa is None:
            from exa_orch.gateway.exa import GovernedExa

            self._exa = GovernedExa(http, api_base=self.settings.exa_url, timeout=self._timeout)
        return self._exa

    @property
    def http(self) -> httpx.AsyncClient:
        """A governed client for Exa endpoints exa-py lacks (paths relative to settings.exa_url)."""
        return self._opened(self._http)

    @property
    def arxiv(self) -> httpx.AsyncClient:
        """A governed client for ArXiv Xplorer (paths relative to settings.arxiv_url)."""
        return self._opened(self._arxiv)

    def stats(self) -> dict[str, Any]:
        """Counters: calls, attempts, retries, throttled_waits, errors_by_kind, in_flight, ..."""
        out = self.transport.stats.snapshot()
        out["concurrency"] = self.settings.concurrency
        out["rps"] = self.settings.rps
        out["pools"] = {
            kind: {"limit": pool.limit, **asdict(pool.stats)} for kind, pool in self.pools.items()
        }
        return out


async def call(awaitable: Awaitable[T]) -> T:
    """Await an exa-py call and raise only exa-orch errors.

    The transport already raises typed errors for every status >= 400 and failed connections
    (exa-py never sees an error status: `GovernedExa` has no other client); this maps what can
    still escape exa-py: a streamed body cut short (timeout or drop while reading) and a URL
    httpx refuses to build.
    """
    try:
        return await awaitable
    except OrchError:
        raise
    except httpx.InvalidURL as exc:  # a value too long for a URL (over 64 KB): nothing was sent
        raise InvalidParams(
            f"a value sent in the URL is invalid ({exc})",
            hint="Values sent in the URL (ids, cursors) must stay under 64 KB: pass back the exact "
            "id or cursor Exa returned.",
        ) from None
    except httpx.TransportError as exc:
        raise error_from_exception(exc, method="?", path="(exa-py call)") from exc
    except Exception as exc:
        from exa_py.errors import ExaTimeoutError  # loaded already when exa-py raised it

        if not isinstance(exc, ExaTimeoutError):
            raise
        raise error_from_exception(httpx.ReadTimeout(str(exc)), method="?", path="(exa-py call)") from exc
