"""WAL checkpoints off the write path.

In WAL mode a commit appends pages to the -wal file; a checkpoint copies them back into the
database file and syncs it. SQLite's automatic checkpoint runs inside whichever COMMIT crosses
the threshold, stalling that group commit (and every coroutine waiting on it) for the whole
copy. This thread runs PASSIVE checkpoints on its own connection, at most every `interval`
seconds while writes happen (PASSIVE never blocks writers or readers), so that the inline
checkpoint finds little left to copy.
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
import threading
from collections.abc import Callable

log = logging.getLogger(__name__)

# SQLite's own default threshold. A COMMIT that crosses it still checkpoints inline, but only the
# frames this thread hasn't copied yet; that inline pass is also what lets the WAL restart from
# its beginning under a steady write load (a PASSIVE checkpoint racing new commits never
# catches up), so the -wal file stays a few MB instead of growing.
BACKSTOP_PAGES = 1_000


class Checkpointer:
    """A daemon thread that checkpoints the WAL after writes, paced by `interval`."""

    def __init__(self, connect: Callable[[], sqlite3.Connection], interval: float = 0.25) -> None:
        self._connect = connect
        self._interval = interval
        self._wanted = threading.Event()
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name="exa-orch-store-checkpoint", daemon=True)
        self.checkpoints = 0

    def start(self) -> None:
        """Start the thread."""
        self._thread.start()

    def poke(self) -> None:
        """Note that something was committed (cheap; called by the writer after each COMMIT)."""
        if not self._wanted.is_set():  # set already while the thread paces: skip set()'s lock
            self._wanted.set()

    def stop(self) -> None:
        """Stop the thread after its current checkpoint; idempotent."""
        self._stopping.set()
        self._wanted.set()
        if self._thread.is_alive():
            self._thread.join()

    def _run(self) -> None:
        try:
            conn = self._connect()
        except sqlite3.Error:
            log.exception("store checkpointer: cannot open the database; relying on automatic checkpoints")
            return
        try:
            while True:
                self._wanted.wait()
                if self._stopping.is_set():
                    return
                self._wanted.clear()
                try:
                    conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                    self.checkpoints += 1
                except sqlite3.Error as exc:  # another process's checkpoint, say; try again later
                    log.debug("store checkpointer: %s", exc)
                # Pace checkpoints so a steady write load doesn't fsync continuously.
                if self._stopping.wait(self._interval):
                    return
        finally:
            with contextlib.suppress(sqlite3.Error):
                conn.close()
