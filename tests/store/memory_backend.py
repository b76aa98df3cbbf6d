"""A test-only store backend: SQLite in memory (the `memdb` VFS), shared by the connections of one
process and gone when the last one closes.

It exists to show what adding a backend takes: this module and one registry line
(`store.backends.register(MemoryBackend)`, done by the store tests' conftest). Its targets are
`memory:NAME`. It is SQLite's backend but for where the database lives: no file, so no WAL (a
rollback journal in memory: the reader waits out the writer's commits with the busy timeout),
no checkpoint thread, and nothing to create first.
"""

from __future__ import annotations

import urllib.parse

from exa_orch.store.sqlite import SqliteBackend

SCHEME = "memory:"


class MemoryBackend(SqliteBackend):
    """`memory:NAME`: an SQLite database in this process's memory."""

    name = "memory"
    wal = False

    def __init__(self, target: str) -> None:
        super().__init__(target)
        self._name = target.removeprefix(SCHEME)
        self.where = target

    @classmethod
    def accepts(cls, target: object) -> bool:
        return isinstance(target, str) and target.startswith(SCHEME)

    def uri(self, *, readonly: bool = False) -> str:
        # memdb's names start with '/': every connection of this process to it shares one database.
        return f"file:/{urllib.parse.quote(self._name)}?vfs=memdb" + ("&mode=ro" if readonly else "")

    def exists(self) -> bool:
        return True  # while a Store holds it; a read-only face then finds it (or no tables)

    def prepare(self) -> None:
        pass
