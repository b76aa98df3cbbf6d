"""`exa-orch view`: serve the web view of one database on loopback (or further, with a token).

Contract: open the database read-only (StoreError if it is missing or not exa-orch's), refuse a
bind beyond loopback without EXA_ORCH_HTTP_TOKEN (ConfigError), print the URL on stderr (stdout
stays free, as for every command that is not a query), serve until SIGINT or SIGTERM, return 0.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import socket
import sys
from collections.abc import Iterator
from pathlib import Path

import uvicorn

from exa_orch.config import Settings
from exa_orch.errors import ConfigError
from exa_orch.view.auth import is_loopback
from exa_orch.view.data import ViewDB
from exa_orch.view.web import build_app

log = logging.getLogger(__name__)


class _Server(uvicorn.Server):
    """uvicorn, minus its own signal handling: it re-raises SIGTERM after shutting down, which
    would end the process with -15 instead of the 0 a clean stop returns."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield


def check_bind(settings: Settings, host: str) -> None:
    """Refuse a bind beyond loopback unless a bearer token is configured."""
    if not is_loopback(host) and not settings.http_token:
        raise ConfigError(
            f"refusing to serve the view on {host}: binding beyond loopback needs a bearer token",
            hint="Set EXA_ORCH_HTTP_TOKEN to a long random secret, or keep the default --host 127.0.0.1.",
        )


def bind(host: str, port: int) -> socket.socket:
    """A listening-ready socket on host:port (0 picks a free port); ConfigError if it is taken."""
    family = socket.AF_INET6 if ":" in host.strip("[]") else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host.strip("[]"), port))
    except OSError as exc:
        sock.close()
        raise ConfigError(
            f"cannot listen on {host}:{port}: {exc.strerror or exc}",
            hint="Pick another --port (0 picks a free one).",
        ) from None
    return sock


def run_view(settings: Settings, *, db_path: Path, host: str, port: int) -> int:
    """Serve the view until interrupted; 0 on a clean stop (see module docstring)."""
    check_bind(settings, host)
    return asyncio.run(_serve(settings, db_path, host, port))


async def _serve(settings: Settings, db_path: Path, host: str, port: int) -> int:
    async with ViewDB(db_path) as db:
        sock = bind(host, port)
        try:
            shown = f"[{host.strip('[]')}]" if ":" in host else host
            url = f"http://{shown}:{sock.getsockname()[1]}/"
            config = uvicorn.Config(
                build_app(db, token=settings.http_token),
                log_level="warning",
                access_log=False,
                lifespan="off",
                timeout_graceful_shutdown=2,
                log_config=None,
            )
            server = _Server(config)
            loop = asyncio.get_running_loop()
            for sig in (signal.SIGTERM, signal.SIGINT):
                loop.add_signal_handler(sig, setattr, server, "should_exit", True)
            print(f"exa-orch view of {db_path} (read-only): {url}", file=sys.stderr, flush=True)
            if settings.http_token:
                print(
                    "sign in once with ?token=<EXA_ORCH_HTTP_TOKEN> on that URL", file=sys.stderr, flush=True
                )
            await server.serve(sockets=[sock])
        finally:
            for sig in (signal.SIGTERM, signal.SIGINT):
                asyncio.get_running_loop().remove_signal_handler(sig)
            sock.close()
    log.info("exa-orch view stopped")
    return 0
