"""The registry of store backends: which `Backend` (store/backend.py) a `--db` target names.

Adding a backend is one module that implements the protocol and one line in `KINDS` (or, for a
backend outside this package, one `register` call).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol

from exa_orch.store.backend import Backend
from exa_orch.store.pgbackend import PostgresBackend
from exa_orch.store.sqlite import SqliteBackend


class BackendKind(Protocol):
    """A backend class: says whether a target is its kind, and makes the backend for one."""

    def accepts(self, target: object) -> bool: ...

    def __call__(self, target: Any, /) -> Backend: ...


# Asked in order; SQLite, last, takes any path.
KINDS: list[BackendKind] = [PostgresBackend, SqliteBackend]


def register(kind: BackendKind) -> None:
    """Ask `kind` before the others from now on."""
    if kind not in KINDS:
        KINDS.insert(0, kind)


def backend_for(target: Path | str | Backend) -> Backend:
    """The backend of `target`: a backend as is, else the first kind that accepts it."""
    if not isinstance(target, str | Path):
        return target
    for kind in KINDS:
        if kind.accepts(target):
            return kind(target)
    raise AssertionError(f"no backend accepts {target!r}")  # SqliteBackend accepts every path


def redact_db(target: Path | str | Backend) -> str:
    """Where a store is, fit for a log line: a file path as is, a URL without its password."""
    return backend_for(target).where


def ensure_parent_dir(target: Path | str | Backend) -> None:
    """Make what must exist before the store opens (a file's directory); ConfigError if it can't."""
    backend_for(target).prepare()
