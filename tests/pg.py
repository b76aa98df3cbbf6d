"""A throwaway PostgreSQL cluster for the tests: one per session, a fresh database per test.

Import the fixtures into a conftest (`from tests.pg import pg_cluster, pg_template  # noqa: F401`).
With CI=true a cluster that can't start fails the tests loudly; elsewhere they skip with the reason.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import uuid
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from exa_orch.store.pgcluster import Cluster, ClusterUnavailable


def _unavailable(reason: str) -> None:
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"PostgreSQL tests must run in CI, but the cluster did not start: {reason}")
    pytest.skip(f"PostgreSQL is not available here: {reason}")


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Cluster]:
    """A running cluster for the whole session (its socket and data in a temp directory)."""
    directory = Path(tempfile.mkdtemp(prefix="exa-orch-pg-"))
    try:
        cluster = Cluster.start(directory)
    except (ClusterUnavailable, OSError) as exc:
        shutil.rmtree(directory, ignore_errors=True)
        _unavailable(str(exc))
        raise  # unreachable: _unavailable raises
    try:
        yield cluster
    finally:
        cluster.stop()
        shutil.rmtree(directory, ignore_errors=True)


@pytest.fixture(scope="session")
def pg_template(pg_cluster: Cluster) -> str:
    """The name of a database with every migration applied, to copy per test."""
    from exa_orch.store import migrations, postgres

    url = pg_cluster.create_database("exa_template")
    # Synchronously, as the Store's writer does it: this may be set up from inside a running loop.
    conn = postgres.PgConn(url)
    try:
        found = migrations.load_migrations(postgres.migrations_dir(migrations.default_migrations_dir()))
        postgres.apply_migrations(conn, found)
    finally:
        conn.close()
    return "exa_template"


def fresh_database(cluster: Cluster, template: str | None = None) -> str:
    """A new database on `cluster` (a copy of `template` if given); its URL."""
    return cluster.create_database(f"t_{uuid.uuid4().hex[:12]}", template)


@asynccontextmanager
async def listeners_cut_off(cluster: Cluster, url: str) -> AsyncIterator[None]:
    """While inside: the database of `url` refuses new connections and every exa-orch listener on
    it has been ended (the stores' other connections stay), so NOTIFYs reach nobody and the
    listeners keep failing to come back. On leaving, connections are allowed again."""
    import psycopg

    from tests.support import until

    database = url.rsplit("/", 1)[1]
    listeners = b"FROM pg_stat_activity WHERE datname = %s AND application_name = 'exa-orch listener'"
    async with await psycopg.AsyncConnection.connect(cluster.url(), autocommit=True) as admin:
        await admin.execute(f'ALTER DATABASE "{database}" ALLOW_CONNECTIONS false'.encode())
        try:
            await admin.execute(b"SELECT pg_terminate_backend(pid) " + listeners, (database,))

            async def gone() -> bool:
                row = await (await admin.execute(b"SELECT count(*) " + listeners, (database,))).fetchone()
                return row is not None and row[0] == 0

            await until(gone, what="the listeners ended")
            yield
        finally:
            await admin.execute(f'ALTER DATABASE "{database}" ALLOW_CONNECTIONS true'.encode())
