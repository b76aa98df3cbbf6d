"""A throwaway PostgreSQL cluster for the tests: one per session, a fresh database per test.

Import the fixtures into a conftest (`from tests.pg import pg_cluster, pg_template  # noqa: F401`).
With CI=true a cluster that can't start fails the tests loudly; elsewhere they skip with the reason.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import uuid
from collections.abc import Iterator
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
