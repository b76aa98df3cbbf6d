"""The simulator's ASGI app: every route family behind one pure-ASGI front door.

`create_app(config)` returns a Starlette app whose `__call__` wraps each HTTP request, outside
Starlette's own middleware, with what every Exa response has and what tests read:
- an `X-Request-Id` header (and the same id in error bodies);
- auth: no `x-api-key` / `Authorization: Bearer` header, the key "invalid-key", or (when
  `SimConfig.keys` lists the keys it accepts) any other key, gets 401 `INVALID_API_KEY` as Exa
  answers it (the key itself is never logged or kept; the log's `client` is a digest of it,
  `client_tag(key)`);
- a door a test can close (`sim/door.py`): new requests wait outside, unprocessed, until it opens;
- counters and a per-request log (`/_sim/stats`, `/_sim/log`), with max in-flight;
- fault injection (`FaultConfig`): added latency, then a deterministic draw of 401 or 402 (Exa's
  bodies), 429 (with `Retry-After`), 500, 502, 503 or a dropped connection. Never on `/_sim/*`;
  401 and 402 only where a key is needed.

It is pure ASGI rather than `BaseHTTPMiddleware` because that buffers responses (SSE) and hides
the server's `send`, which a drop needs: a drop closes the TCP connection before any byte of a
response is written, so an httpx client sees `RemoteProtocolError("Server disconnected without
sending a response.")`.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time
import uuid
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Match, Mount, Route
from starlette.types import Message, Receive, Scope, Send

from exa_orch.sim import agent, papers, query, search, websets
from exa_orch.sim.account import AccountFile
from exa_orch.sim.billing import NO_CREDITS, Billing, billed_send
from exa_orch.sim.billing import routes as billing_routes
from exa_orch.sim.context import SimConfig, SimContext
from exa_orch.sim.door import Door
from exa_orch.sim.exchanges import EXCHANGE_HOOKS, finish, recording
from exa_orch.sim.faults import (
    ACCOUNT_FAULTS,
    FAULT_TAGS,
    Counters,
    FaultInjector,
    SimHTTPError,
    config_dict,
    error_response,
    sim_http_error_handler,
)
from exa_orch.sim.websets.timing import PROFILES
from exa_orch.sim.world import World

logger = logging.getLogger(__name__)

ADMIN_PREFIX = "/_sim/"
# Paths that take no Exa key: admin, ArXiv Xplorer (a different, public API) and upload URLs
# (Exa's are pre-signed storage URLs). Route families may add more in ctx.extras["public_prefixes"].
PUBLIC_PREFIXES: tuple[str, ...] = (ADMIN_PREFIX, "/arxivxplorer", "/uploads/")
INVALID_KEY = "invalid-key"

FAMILIES: tuple[tuple[str, str], ...] = (
    ("/websets", "websets"),
    ("/search", "search"),
    ("/findSimilar", "search"),
    ("/contents", "contents"),
    ("/answer", "answer"),
    ("/agent", "agent"),
    ("/arxivxplorer", "arxiv"),
    ("/research", "research"),
    ("/uploads", "websets"),
)


def family_of(path: str) -> str:
    """The endpoint family a path belongs to (the keys of requests_by_family)."""
    for prefix, family in FAMILIES:
        if path == prefix or path.startswith(prefix + "/"):
            return family
    return "admin" if path.startswith(ADMIN_PREFIX) else "other"


def _template(routes: list[BaseRoute], scope: Scope) -> str | None:
    """The route path template (`/websets/v0/websets/{id}`) that `scope` matches, if any."""
    for route in routes:
        match, child = route.matches(scope)
        if match is Match.NONE:
            continue
        if isinstance(route, Mount):
            inner = _template(route.routes, {**scope, **child})
            return route.path + (inner or "")
        return getattr(route, "path", None)
    return None


def client_tag(key: str) -> str:
    """What the request log records of a key (`client`): a short digest, never the key."""
    return hashlib.sha256(key.encode()).hexdigest()[:8]


def _client_tag(scope: Scope) -> str | None:
    key = _api_key(scope)
    return client_tag(key) if key else None


def _api_key(scope: Scope) -> str | None:
    headers: list[tuple[bytes, bytes]] = scope.get("headers", [])  # ASGI: raw (name, value) pairs
    for name, value in headers:
        if name == b"x-api-key":
            return value.decode("latin-1").strip()
        if name == b"authorization":
            text = value.decode("latin-1").strip()
            if text.lower().startswith("bearer "):
                return text[7:].strip()
    return None


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            return str(value.decode("latin-1").strip())
    return None


def _retry_after_header(seconds: float) -> str:
    return str(int(seconds)) if float(seconds).is_integer() else f"{seconds:g}"


class SimApp(Starlette):
    """Starlette plus the simulator's front door (see the module docstring)."""

    sim: SimContext
    faults: FaultInjector
    account: AccountFile | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await super().__call__(scope, receive, send)
            return
        rid = f"req_{uuid.uuid4().hex}"
        state = scope.setdefault("state", {})
        state["request_id"] = rid
        path: str = scope["path"]
        method: str = scope["method"]
        if path.startswith(ADMIN_PREFIX):
            await super().__call__(scope, receive, _with_request_id(send, rid))
            return
        door: Door = self.sim.extras["door"]
        entered = await door.enter(receive)  # a closed door holds it (sim/door.py)
        if entered is None:
            return  # its client left while it waited: never processed, never billed
        if self.sim.world.drift:  # a world file's drift: the world as it is at this simulated second
            self.sim.world.drift_to(self.sim.clock.now())
        try:
            await self._counted(scope, entered, send, rid, state, path, method)
        finally:
            door.leave()

    async def _counted(
        self,
        scope: Scope,
        receive: Receive,
        send: Send,
        rid: str,
        state: dict[str, Any],
        path: str,
        method: str,
    ) -> None:
        counters: Counters = self.sim.counters
        exchange = None
        if EXCHANGE_HOOKS:  # tests validate each request and answer (sim/exchanges.py)
            exchange, receive, send = recording(scope, receive, send)
        family = family_of(path)
        endpoint = f"{method} {_template(self.router.routes, scope) or path}"
        entry: dict[str, Any] = {
            "t": time.monotonic(),
            "t_end": None,
            "method": method,
            "path": path,
            "family": family,
            "status": None,
            "fault": None,
            "external_id": None,
            # Which client sent it (a digest of its key, never the key): per-client pacing checks.
            "client": _client_tag(scope),
            "beta": _header(scope, b"exa-beta"),  # the Exa-Beta tokens sent, if any
        }
        counters.started(endpoint, family, entry)
        account = self.account
        # The account is this request's alone until its answer starts (shared with every
        # simulator on the same file: sim/account.py).
        hold = await account.enter(self.sim, read_only=method in ("GET", "HEAD")) if account else None

        async def send_tracking(message: Message) -> None:
            if message["type"] == "http.response.start":
                if account is not None and hold is not None:  # before the client can see what it made
                    account.leave(self.sim, hold)
                counters.responded(entry, message["status"], state.get("external_id"))
                message = _add_header(message, "x-request-id", rid)
            await send(message)

        try:
            await self._handle(scope, receive, send, send_tracking, entry, path)
        finally:
            if account is not None and hold is not None:  # no answer started (a dropped connection)
                account.leave(self.sim, hold)
            counters.finished(entry, time.monotonic(), state.get("external_id"), state.get("created"))
            if exchange is not None:
                exchange.fault = entry["fault"]
                finish(exchange)

    async def _handle(
        self, scope: Scope, receive: Receive, raw_send: Send, send: Send, entry: dict[str, Any], path: str
    ) -> None:
        request = Request(scope, receive)
        public = path.startswith(PUBLIC_PREFIXES) or path.startswith(
            tuple(self.sim.extras.get("public_prefixes", ()))
        )
        if not public:
            key = _api_key(scope)
            accepted = self.sim.config.keys
            if not key or key == INVALID_KEY or (accepted is not None and key not in accepted):
                # Exa's own body for a wrong key (tests/fixtures/real/401_invalid_api_key.json).
                message = (
                    "Invalid API key"
                    if key
                    else "Missing API key: send your Exa API key in the x-api-key header"
                )
                await error_response(request, 401, message, "INVALID_API_KEY")(scope, receive, send)
                return
        config = self.faults.config
        if config.latency_ms > 0:
            await asyncio.sleep(config.latency_ms / 1000)
        fault = self.faults.draw()
        if public and fault in ACCOUNT_FAULTS:
            fault = None  # no key, no account: an upload URL or ArXiv Xplorer has no credits to run out
        if fault is not None:
            self.sim.counters.faulted(entry, fault)
        if fault == "drop":
            await _drop(raw_send, receive)
            return
        if fault is not None:
            await _fault_response(request, fault, config.retry_after, entry["family"])(scope, receive, send)
            return
        billing: Billing | None = self.sim.extras.get("billing")
        if billing is not None:  # the account (sim/billing.py): a 402 once its credits are spent
            if billing.out_of_credits(scope["method"], path):
                await error_response(request, 402, NO_CREDITS, "NO_MORE_CREDITS")(scope, receive, send)
                return
            send = billed_send(send, billing, scope.get("state", {}).get("request_id"))
        if config.after_create > 0 and scope["method"] == "POST":
            send = self._after_create(request, scope, receive, raw_send, send, entry)
        await super().__call__(scope, receive, send)

    def _after_create(
        self,
        request: Request,
        scope: Scope,
        receive: Receive,
        raw_send: Send,
        send: Send,
        entry: dict[str, Any],
    ) -> Send:
        """A `send` that, when the route made an object (`note_create`) and the draw says so, answers
        with a fault instead of the object: the create happened, the client can't know it."""
        swallow = False

        async def maybe_fault(message: Message) -> None:
            nonlocal swallow
            if swallow:
                return
            if message["type"] == "http.response.start" and message["status"] < 300:
                state = scope.get("state", {})
                fault = self.faults.draw_after_create() if state.get("created") else None
                if fault is not None:
                    swallow = True
                    self.sim.counters.faulted_after_create(entry, fault)
                    if fault == "drop":
                        await _drop(raw_send, receive)
                        return
                    response = _fault_response(request, fault, 0.0, entry["family"])
                    await response(scope, receive, send)
                    return
            await send(message)

        return maybe_fault


def _add_header(message: Message, name: str, value: str) -> Message:
    headers = [(k, v) for k, v in message.get("headers", []) if k.lower() != name.encode()]
    headers.append((name.encode(), value.encode()))
    return {**message, "headers": headers}


def _with_request_id(send: Send, rid: str) -> Send:
    async def wrapped(message: Message) -> None:
        if message["type"] == "http.response.start":
            message = _add_header(message, "x-request-id", rid)
        await send(message)

    return wrapped


def _fault_response(request: Request, fault: str, retry_after: float, family: str) -> Response:
    status = int(fault)
    message, tag = FAULT_TAGS[fault]
    headers = {"Retry-After": _retry_after_header(retry_after)} if fault == "429" else None
    if family == "arxiv":
        # ArXiv Xplorer's ErrorResponse is {error, code} (seed 003).
        return JSONResponse({"error": message, "code": status}, status_code=status, headers=headers)
    return error_response(request, status, message, tag, headers)


class _Dropped(Exception):
    """Raised only when the server hides its transport: the server then cuts the connection."""


async def _drop(send: Send, receive: Receive) -> None:
    """Close the client's connection without writing any response bytes."""
    # uvicorn hands the app its RequestResponseCycle.send; the cycle owns the transport.
    transport = getattr(getattr(send, "__self__", None), "transport", None)
    if transport is None:
        # Other servers: start a response that promises a body, then fail, so it is cut short.
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"1000")]})
        raise _Dropped("simulated dropped connection")
    transport.close()
    # Wait until the server has noticed, so it does not answer 500 on our behalf.
    try:
        async with asyncio.timeout(5):
            while (await receive())["type"] != "http.disconnect":
                pass
    except TimeoutError:
        logger.warning("simulated drop: the server did not report the disconnect")


def _admin_routes(app: SimApp) -> list[BaseRoute]:
    ctx = app.sim

    async def stats(request: Request) -> Response:
        return JSONResponse(ctx.counters.snapshot())

    async def log(request: Request) -> Response:
        limit = request.query_params.get("limit")
        return JSONResponse({"log": ctx.counters.entries(int(limit) if limit else None)})

    async def faults(request: Request) -> Response:
        if request.method == "POST":
            from exa_orch.sim.faults import read_json

            try:
                config = app.faults.update(await read_json(request))
            except (TypeError, ValueError) as exc:
                raise SimHTTPError(400, f"Bad fault configuration: {exc}", "INVALID_FAULTS") from exc
            ctx.config.faults = config
        return JSONResponse(config_dict(app.faults.config))

    async def reset(request: Request) -> Response:
        ctx.counters.reset()
        return JSONResponse({"ok": True})

    return [
        Route("/_sim/stats", stats, methods=["GET"]),
        Route("/_sim/log", log, methods=["GET"]),
        Route("/_sim/faults", faults, methods=["GET", "POST"]),
        Route("/_sim/reset", reset, methods=["POST"]),
    ]


def _research_routes() -> list[BaseRoute]:
    async def retired(request: Request) -> Response:
        message = "The Research API was retired on 2026-05-01; use the Agent API (POST /agent/runs) instead"
        return error_response(request, 410, message, "RESEARCH_RETIRED")

    methods = ["GET", "POST", "PUT", "PATCH", "DELETE"]
    return [
        Route("/research/v1", retired, methods=methods),
        Route("/research/v1/{rest:path}", retired, methods=methods),
    ]


def _strict(routes: list[BaseRoute]) -> list[BaseRoute]:
    """`routes`, each refusing a query parameter its endpoint does not take (sim/query.py)."""
    out: list[BaseRoute] = []
    for r in routes:
        assert isinstance(r, Route)
        out.append(Route(r.path, query.strict(r.path, r.endpoint), methods=r.methods))
    return out


def _family_routes(ctx: SimContext) -> list[BaseRoute]:
    # Websets routes are made strict inside their package (before webhook delivery); the papers
    # endpoint stands for a service that is not Exa's API and keeps its own parameters.
    return [
        *websets.build_routes(ctx),
        *_strict(search.build_routes(ctx)),
        *_strict(agent.build_routes(ctx)),
        *papers.build_routes(ctx),
    ]


async def _http_exception(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    tags = {404: "NOT_FOUND", 405: "METHOD_NOT_ALLOWED"}
    detail = exc.detail if exc.status_code != 404 else f"No route for {request.method} {request.url.path}"
    return error_response(request, exc.status_code, str(detail), tags.get(exc.status_code, "HTTP_ERROR"))


async def _unhandled(request: Request, exc: Exception) -> Response:
    logger.error("simulator bug on %s %s", request.method, request.url.path, exc_info=exc)
    return error_response(request, 500, "Internal server error", "INTERNAL_SERVER_ERROR")


def create_app(config: SimConfig | None = None) -> SimApp:
    """A simulator app for `config`; `app.state.sim` is its SimContext."""
    config = config or SimConfig()
    if config.timing not in PROFILES:
        raise ValueError(f"timing must be one of {', '.join(PROFILES)}, got {config.timing!r}")
    # The world first: building one takes a few hundred ms, which must not pass on the clock
    world = World.from_file(config.world_file) if config.world_file else World.seeded(config.seed)
    ctx = SimContext.from_config(config)
    ctx.counters = Counters()
    ctx.world = world
    app = SimApp(
        exception_handlers={
            SimHTTPError: sim_http_error_handler,
            HTTPException: _http_exception,
            Exception: _unhandled,
        }
    )
    app.sim = ctx
    app.state.sim = ctx
    app.faults = FaultInjector(config.faults)
    config.faults = app.faults.configure(config.faults)
    ctx.extras["billing"] = Billing()
    ctx.extras["door"] = Door()
    for route in [
        *_admin_routes(app),
        *billing_routes(ctx.extras),
        *_research_routes(),
        *_family_routes(ctx),
    ]:
        app.router.routes.append(route)
    if config.account_file:
        app.account = AccountFile(Path(config.account_file))
        app.account.restore(ctx)
    return app
