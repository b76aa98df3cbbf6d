"""Run the simulator in-process on 127.0.0.1 (port 0): for tests, the demo and benchmarks.

- `running_sim(config)`: async context manager on the caller's event loop, yielding a `SimHandle`.
- `SimThread(config)`: the same in a background thread with its own loop, for sync code and for
  tests that start subprocesses (`with SimThread(cfg) as handle: handle.url`).

Both serve with uvicorn (`lifespan="off"`, no access log, logs to stderr through the root logger)
and shut down cleanly: `should_exit`, then wait for the server task.
"""

from __future__ import annotations

import asyncio
import logging
import select
import socket
import threading
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from exa_orch.sim.context import FaultConfig, SimConfig, SimContext

if TYPE_CHECKING:  # imported where used: `serve --sim` binds a socket long before it needs them
    import uvicorn

    from exa_orch.sim.app import SimApp
    from exa_orch.sim.faults import Counters

log = logging.getLogger(__name__)

START_TIMEOUT = 10.0


@dataclass
class SimHandle:
    """A running simulator: its base URL, its context and its app."""

    url: str
    ctx: SimContext
    app: SimApp

    def stats(self) -> dict[str, Any]:
        """The /_sim/stats body, read in-process."""
        counters: Counters = self.ctx.counters
        return counters.snapshot()

    def log(self) -> list[dict[str, Any]]:
        """The /_sim/log entries, read in-process."""
        counters: Counters = self.ctx.counters
        return counters.entries()

    def creates_by_key(self, metadata_key: str) -> dict[str, int]:
        """Successful creates counted by key: `kind:externalId`, else `kind:metadata[metadata_key]`
        (objects made without either are not counted). A count above 1 is a duplicate."""
        counts: dict[str, int] = {}
        for entry in self.log():
            made = entry.get("created")
            if not made:
                continue
            key = made.get("externalId") or (made.get("metadata") or {}).get(metadata_key)
            if key:
                name = f"{made['kind']}:{key}"
                counts[name] = counts.get(name, 0) + 1
        return counts

    def set_faults(self, faults: FaultConfig) -> FaultConfig:
        """Replace the fault configuration (restarts the draw sequence from its seed)."""
        config = self.app.faults.configure(faults)
        self.ctx.config.faults = config
        return config

    def reset(self) -> None:
        """Clear counters and log (not the world)."""
        self.ctx.counters.reset()


def bind_socket(host: str = "127.0.0.1", port: int = 0) -> socket.socket:
    """A TCP socket bound to host:port (port 0: the OS picks one), listening."""
    # proto=IPPROTO_TCP matters: asyncio sets TCP_NODELAY only on sockets whose proto says TCP, and
    # without it every keep-alive response waits ~40 ms for a delayed ACK (Nagle).
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        # Listening at once: a client that connects as soon as the URL is printed waits in the
        # backlog for uvicorn instead of being refused (uvicorn listens again, harmlessly).
        sock.listen(2048)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def server_for(app: SimApp, *, access_log: bool = False) -> uvicorn.Server:
    """A uvicorn server for the app, logging only through the root logger (stderr)."""
    import uvicorn

    config = uvicorn.Config(
        app,
        lifespan="off",
        log_config=None,
        access_log=access_log,
        proxy_headers=False,
        server_header=False,
        # SSE streams and slow requests must not hold up a test's teardown.
        timeout_graceful_shutdown=2,
        # Idle connections kept well past httpx's 5 s keep-alive expiry: at uvicorn's default (5 s,
        # the same) a client could send on a connection as the server closed it, and a create lost
        # that way is sent again after a lookup, with a slot of its own (issue 41: 201 slot grants
        # for 200 runs on a busy machine). Shutdown closes idle connections at once all the same.
        timeout_keep_alive=60,
        http="h11",
    )
    return uvicorn.Server(config)


@asynccontextmanager
async def serving(
    server: uvicorn.Server, sock: socket.socket, what: str = "the simulator"
) -> AsyncIterator[None]:
    """Run `server` on `sock` (which it then owns) for the block, entered once it has started."""
    task = asyncio.create_task(server.serve(sockets=[sock]))
    try:
        # uvicorn offers no event for "started"; poll its flag with a deadline.
        deadline = time.monotonic() + START_TIMEOUT
        while not server.started:
            if task.done():
                task.result()
                raise RuntimeError(f"{what} stopped before it started")
            if time.monotonic() > deadline:
                raise TimeoutError(f"{what} did not start within {START_TIMEOUT}s")
            await asyncio.sleep(0.005)
        yield
    finally:
        server.should_exit = True
        await task
        sock.close()


@asynccontextmanager
async def running_sim(
    config: SimConfig | None = None, sock: socket.socket | None = None
) -> AsyncIterator[SimHandle]:
    """Serve a fresh simulator on 127.0.0.1:<free port> (or on `sock`, a listening socket it then
    owns) for the duration of the block."""
    from exa_orch.sim.app import create_app

    app = create_app(config or SimConfig())
    sock = sock or bind_socket()
    port = sock.getsockname()[1]
    async with serving(server_for(app), sock):
        try:
            yield SimHandle(url=f"http://127.0.0.1:{port}", ctx=app.sim, app=app)
        finally:
            app.sim.closing = True  # live event feeds end at their next tick, before the server stops


class SimThread:
    """The simulator on a background thread with its own event loop (a sync context manager)."""

    def __init__(self, config: SimConfig | None = None, sock: socket.socket | None = None) -> None:
        self.config = config or SimConfig()
        self._sock = sock
        self._handle: SimHandle | None = None
        self._started = threading.Event()
        self._error: BaseException | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._thread = threading.Thread(target=self._run, name="exa-sim", daemon=True)

    @property
    def handle(self) -> SimHandle:
        if self._handle is None:
            raise RuntimeError("SimThread is not running")
        return self._handle

    @property
    def url(self) -> str:
        return self.handle.url

    @property
    def ctx(self) -> SimContext:
        return self.handle.ctx

    def stats(self) -> dict[str, Any]:
        return self.handle.stats()

    def log(self) -> list[dict[str, Any]]:
        return self.handle.log()

    def set_faults(self, faults: FaultConfig) -> FaultConfig:
        return self.handle.set_faults(faults)

    def reset(self) -> None:
        self.handle.reset()

    def _run(self) -> None:
        try:
            asyncio.run(self._main())
        except BaseException as exc:  # reported to the starting thread
            self._error = exc
        finally:
            self._started.set()

    async def _main(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        async with running_sim(self.config, self._sock) as handle:
            self._handle = handle
            self._started.set()
            await self._stop.wait()

    def start(self) -> SimThread:
        """Start the thread and wait until the simulator serves."""
        self._thread.start()
        if not self._started.wait(START_TIMEOUT + 5):
            raise TimeoutError("the simulator thread did not start")
        if self._error is not None:
            raise RuntimeError("the simulator thread failed to start") from self._error
        return self

    def stop(self) -> None:
        """Stop the simulator and join its thread."""
        if self._loop is not None and self._stop is not None and self._thread.is_alive():
            self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(START_TIMEOUT)

    def __enter__(self) -> SimThread:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


class SimOnDemand:
    """The simulator behind a socket bound at once, started on a thread at its first connection
    (a sync context manager, like SimThread): `exa-orch serve --sim` knows its URL at start and
    pays for the simulator (uvicorn, the app, the world) only once a request comes; until then a
    thread waits in select() and uses no CPU. Connections wait in the socket's backlog meanwhile."""

    def __init__(self, config: SimConfig | None = None) -> None:
        self.config = config or SimConfig()
        self._sock = bind_socket()
        self.url = f"http://127.0.0.1:{self._sock.getsockname()[1]}"
        self._wake, self._waker = socket.socketpair()
        self.sim: SimThread | None = None  # once a request came
        self._thread = threading.Thread(target=self._watch, name="exa-sim-on-demand", daemon=True)

    def _watch(self) -> None:
        ready, _, _ = select.select([self._sock, self._wake], [], [])
        if self._wake in ready:
            return  # stopped before any request
        self.sim = SimThread(self.config, self._sock)  # before it serves: `sim` says it started
        try:
            self.sim.start()
        except BaseException:  # the simulator refuses its connections now: say why on stderr
            log.exception("the Exa simulator failed to start")
            self._sock.close()

    def __enter__(self) -> SimOnDemand:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._waker.send(b"\0")
        self._thread.join()  # a start under way finishes first
        if self.sim is not None:
            self.sim.stop()  # closes the socket
        else:
            self._sock.close()
        self._wake.close()
        self._waker.close()
