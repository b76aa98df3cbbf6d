"""Fixtures for the views: a migrated database, the view served on loopback, a headless chromium.

`store` runs each test that uses it twice, as the store suite does (tests/store/conftest.py's
`backend`): on an SQLite file and on a fresh PostgreSQL database (tests/pg.py); `target(store)`
is what to hand ViewDB or `--db` for it.
"""

from __future__ import annotations

import asyncio
import os
import shutil
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from exa_orch.config import Secret, Settings
from exa_orch.net import bind_listener
from exa_orch.store import Store
from exa_orch.store.pgbackend import PostgresBackend
from exa_orch.store.sqlite import SqliteBackend
from exa_orch.view.data import ViewDB
from exa_orch.view.web import build_app
from tests.pg import fresh_database

ServeView = Callable[..., AbstractAsyncContextManager[str]]
CHROMIUM = os.environ.get("EXA_ORCH_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"


@pytest.fixture
async def store(backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:  # noqa: F811
    """A migrated database open for writing (the tests' server side): tmp_path/workflows.db, or a
    fresh PostgreSQL database."""
    if backend == "sqlite":
        where = str(tmp_path / "workflows.db")
    else:
        where = fresh_database(request.getfixturevalue("pg_cluster"), request.getfixturevalue("pg_template"))
    async with Store(where) as s:
        yield s


def target(store: Store) -> Path | str:
    """Where `store`'s database is, as ViewDB and `--db` take it: the file, or the URL."""
    found = store.backend
    assert isinstance(found, PostgresBackend | SqliteBackend)
    return found.url if isinstance(found, PostgresBackend) else found.path


@pytest.fixture
def serve_view() -> ServeView:
    """`async with serve_view(db_path, token=None) as url`: the view on 127.0.0.1:<free port>,
    for the local user of a default `Settings()` (the one `research_app` makes tasks as), or the
    principal `token:default` of `token`; `settings` replaces both."""

    @asynccontextmanager
    async def opener(
        db_path: Path, token: str | None = None, settings: Settings | None = None
    ) -> AsyncIterator[str]:
        async with ViewDB(db_path) as db:
            if settings is None:
                settings = Settings(http_token=Secret(token) if token else None)
            app: Any = build_app(db, settings)
            sock = bind_listener("127.0.0.1", 0)
            sock.listen(128)  # connections queue from now on: the URL works before uvicorn accepts
            server = uvicorn.Server(
                uvicorn.Config(app, lifespan="off", log_level="warning", access_log=False, log_config=None)
            )
            task = asyncio.create_task(server.serve(sockets=[sock]))
            try:
                yield f"http://127.0.0.1:{sock.getsockname()[1]}"
            finally:
                server.should_exit = True
                await task
                sock.close()

    return opener


def chromium_path() -> str:
    """The system chromium; in CI its absence fails the run (scripts/ensure-chromium.sh installs it)."""
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI"):
            pytest.fail(f"no chromium at {CHROMIUM}: CI must run scripts/ensure-chromium.sh (make test does)")
        pytest.skip(f"no chromium at {CHROMIUM}; install it with scripts/ensure-chromium.sh")
    return CHROMIUM


@pytest.fixture
async def browser() -> AsyncIterator[Any]:
    """A headless chromium driven by playwright (the system browser; no `playwright install`)."""
    path = chromium_path()
    from playwright.async_api import async_playwright

    async with async_playwright() as pw:
        b = await pw.chromium.launch(executable_path=path, headless=True, args=["--no-sandbox"])
        try:
            yield b
        finally:
            await b.close()


@pytest.fixture
def artifacts(tmp_path: Path) -> Path:
    """Where screenshots go: $EXA_ORCH_ARTIFACTS (e.g. .artifacts/) if set, else the test's tmp dir."""
    base = os.environ.get("EXA_ORCH_ARTIFACTS")
    path = Path(base) if base else tmp_path / "artifacts"
    path.mkdir(parents=True, exist_ok=True)
    return path


# The workflow tests' app fixture (the whole app on the simulator), shared rather than copied, and
# the store suite's backend parameter.
from tests.store.conftest import backend  # noqa: E402, F401
from tests.workflows.conftest import research_app  # noqa: E402, F401
