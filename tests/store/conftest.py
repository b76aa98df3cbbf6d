"""Fixtures for the store tests: a real database per test, on each backend, and a clock the test moves.

`store` runs each test that uses it three times: on an SQLite file, on a fresh PostgreSQL database
(tests/pg.py), and on the test-only in-memory backend (memory_backend.py). `db` (a target for
several stores or processes) runs twice: an SQLite file, a PostgreSQL database. `db_path` is an SQLite file, for the tests about SQLite itself.
"""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import AsyncIterator, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from exa_orch.store import Store
from exa_orch.store.backends import register
from exa_orch.store.pgbackend import PostgresBackend
from exa_orch.store.sqlite import SqliteBackend
from tests.pg import fresh_database
from tests.store.memory_backend import SCHEME, MemoryBackend

register(MemoryBackend)  # the one registry line a new backend takes


class FakeClock:
    """Epoch seconds that only move when the test says so."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "workflows.db"


@pytest.fixture(params=["sqlite", "postgres"])
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def db(backend: str, request: pytest.FixtureRequest, db_path: Path) -> str:
    """Where the test's database is: an SQLite file path, or a fresh, empty PostgreSQL database URL."""
    if backend == "sqlite":
        return str(db_path)
    return fresh_database(request.getfixturevalue("pg_cluster"))


@pytest.fixture(params=["sqlite", "postgres", "memory"])
async def store(request: pytest.FixtureRequest, db_path: Path, clock: FakeClock) -> AsyncIterator[Store]:
    """An open store on each backend: an SQLite file, a fresh PostgreSQL database, and the
    test-only in-memory backend (memory_backend.py), which shows a new backend is one module and
    one registry line."""
    if request.param == "sqlite":
        target = str(db_path)
    elif request.param == "postgres":
        target = fresh_database(request.getfixturevalue("pg_cluster"), request.getfixturevalue("pg_template"))
    else:
        target = f"{SCHEME}{uuid.uuid4().hex}"
    async with Store(target, clock=clock) as opened:
        yield opened


class PgSync:
    """A synchronous psycopg connection that takes the store's SQLite-style SQL, for assertions."""

    def __init__(self, url: str) -> None:
        import psycopg

        self._conn = psycopg.connect(url, autocommit=True)

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        from exa_orch.store.postgres import translate

        text, order = translate(sql)
        return self._conn.execute(text.encode(), [params[k] for k in order] if order else params)

    def close(self) -> None:
        self._conn.close()


@contextlib.contextmanager
def connect(store: Store) -> Iterator[Any]:
    """A plain synchronous connection to the store's database (either backend), to check what it holds.
    Takes SQLite-style `?` placeholders; rows are tuples."""
    backend = store.backend
    assert isinstance(backend, PostgresBackend | SqliteBackend)
    conn: Any = PgSync(backend.url) if isinstance(backend, PostgresBackend) else backend.connect(5.0)
    try:
        yield conn
    finally:
        conn.close()


def dict_rows(store: Store, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
    """The rows of one query as dicts (column name -> value), on either backend."""
    with connect(store) as conn:
        cursor = conn.execute(sql, params)
        names = [d[0] for d in cursor.description]
        return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]
