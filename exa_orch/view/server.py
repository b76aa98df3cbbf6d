"""`exa-orch view`: serve the web view of one database on loopback (or further, with a token).

Contract: open the database (an SQLite file or a `postgresql://` URL) read-only (StoreError if it
is missing or not exa-orch's), refuse a bind beyond loopback unless HTTP tokens are configured
(ConfigError; `--all-owners` too), print the URL on stderr (stdout stays free, as for every
command that is not a query; a URL's password left out), serve until SIGINT or SIGTERM, return 0.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sys
from collections.abc import Iterator
from pathlib import Path

import uvicorn

from exa_orch.config import Settings
from exa_orch.errors import ConfigError
from exa_orch.net import bind_listener, is_loopback, require_token_beyond_loopback
from exa_orch.view.data import ViewDB
from exa_orch.view.web import build_app

log = logging.getLogger(__name__)


class _Server(uvicorn.Server):
    """uvicorn, minus its own signal handling: it re-raises SIGTERM after shutting down, which
    would end the process with -15 instead of the 0 a clean stop returns."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield


def check_bind(settings: Settings, host: str, *, all_owners: bool = False) -> None:
    """Refuse a bind beyond loopback unless bearer tokens are configured (then every request needs
    one); the operator mode `all_owners` (every task to every caller) is loopback-only."""
    if all_owners and not is_loopback(host):
        # Operator mode shows every principal's tasks to whoever gets in; a token would only say
        # who got in, not whose tasks they may see, so it stays on the machine's own loopback.
        raise ConfigError(
            f"refusing to serve the view in --all-owners mode on {host}: it shows every owner's tasks",
            hint="Keep the default --host 127.0.0.1 for --all-owners, or drop --all-owners to serve "
            "each token its own tasks.",
        )
    require_token_beyond_loopback(settings, host, "the view")


def run_view(
    settings: Settings, *, db_path: Path | str, host: str, port: int, all_owners: bool = False
) -> int:
    """Serve the view until interrupted; 0 on a clean stop (see module docstring). `all_owners`:
    operator mode, every caller sees every task with its owner."""
    check_bind(settings, host, all_owners=all_owners)
    return asyncio.run(_serve(settings, db_path, host, port, all_owners))


async def _serve(settings: Settings, db_path: Path | str, host: str, port: int, all_owners: bool) -> int:
    async with ViewDB(db_path) as db:
        sock = bind_listener(host, port)
        try:
            shown = f"[{host.strip('[]')}]" if ":" in host else host
            url = f"http://{shown}:{sock.getsockname()[1]}/"
            config = uvicorn.Config(
                build_app(db, settings, all_owners=all_owners),
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
            print(f"exa-orch view of {db.where} (read-only): {url}", file=sys.stderr, flush=True)
            if settings.http_auth:
                print("sign in once with ?token=<your token> on that URL", file=sys.stderr, flush=True)
            if all_owners:
                print("--all-owners: every caller sees every task", file=sys.stderr, flush=True)
            await server.serve(sockets=[sock])
        finally:
            for sig in (signal.SIGTERM, signal.SIGINT):
                asyncio.get_running_loop().remove_signal_handler(sig)
            sock.close()
    log.info("exa-orch view stopped")
    return 0
