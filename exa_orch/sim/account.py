"""The simulator's account kept in a file, so a simulator restarted beside the same data has it all.

Exa keeps a user's websets, items, searches, enrichments, monitors, imports, webhooks, events and
agent runs whatever happens to the process that asked for them. `exa-orch serve --sim` runs the
simulator inside the server: without this file a `kill -9` of the server took the simulator's
objects with it, and a resumed task met 404s for the webset it had made (issue 29).

Contract:
- `AccountFile(path)` saves, before every answer to a request leaves the simulator (`SimApp`
  calls `save_if_changed` on `http.response.start`), what the request may have changed: every
  family's state (`ctx.extras`), the id generator's position and the simulated clock. A client
  therefore never sees an object the file does not hold. The write is atomic (a temporary file
  renamed over the old one); a `kill -9` leaves the last saved account.
- `restore(ctx)` (at start-up) puts a saved account back: the families' objects, the ids, and
  the clock, moved on by the wall time the simulator was down (Exa kept working meanwhile).
- The file names the world it was made in (`world_fingerprint`: the seed and every entity). A
  different world (another seed, a changed world file) starts a fresh account: the old file is
  kept as `<name>.old` and replaced at the first save. A file that cannot be read (another
  version's records, a truncated file) is treated the same way, with a warning.
- The world itself, the counters and the fault settings are never saved: the world is rebuilt from
  its seed, the counters and faults belong to one run of the simulator.
- The file is a pickle: it is written and read only by the simulator of the user who owns the
  database beside it (the same trust as the database itself). Nothing else may point it at a file.
- Several simulators share one file as several servers share one Exa account (issue 36: two
  `serve --sim` processes on one database). Each request holds the account from before it is
  handled until its answer starts (`enter` / `leave`): one request at a time in the process (an
  asyncio lock) and across processes (a `filelock` lock file, `<name>.lock`, beside the account).
  On entering, an account another process wrote since this one last read or wrote it (the file's
  inode, size and mtime differ) is loaded again: every family's objects, the id generator (so no
  two processes make the same id) and the clock. One clock for all: the file carries the
  simulated time it was saved at and that moment's wall time, and each process sets its clock to
  at least that time moved on by the wall time since (simulated time never goes back). A
  streamed answer (an agent run's events) reads the objects it started with.
"""

from __future__ import annotations

import asyncio
import hashlib
import io
import json
import logging
import os
import pickle
import time
from pathlib import Path
from typing import Any

from filelock import FileLock

from exa_orch.sim.context import SimContext
from exa_orch.sim.world import Entity, World

logger = logging.getLogger(__name__)

FORMAT = 1  # bump when saved records change shape: an older file then starts a fresh account
_NOT_SAVED = ("public_prefixes", "door")  # ctx.extras keys that are wiring, not account state


def world_fingerprint(world: Any) -> str:
    """A digest of the seed and every entity of `world` (a world file's too): equal exactly when the
    world is the same."""
    digest = hashlib.sha256(f"seed={world.seed}\n".encode())
    for entity in world.entities:
        attrs = json.dumps(getattr(entity, "attrs", None), sort_keys=True, default=str)
        digest.update(
            f"{entity.id}\x1f{entity.kind}\x1f{entity.url}\x1f{entity.title}\x1f{entity.text}\x1f{attrs}\n".encode()
        )
    return digest.hexdigest()


class _Pickler(pickle.Pickler):
    """Saves references to the context and to world entities, not copies of them."""

    def __init__(self, file: io.BytesIO, ctx: SimContext) -> None:
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self._ctx = ctx

    def persistent_id(self, obj: Any) -> Any:
        # Called for every object pickled: the common case (not one of these) must be cheap.
        kind = type(obj)
        if kind is Entity:
            if self._ctx.world is not None and self._ctx.world.by_id(obj.id) is obj:
                return ("entity", obj.id)
            return None
        if kind is SimContext and obj is self._ctx:
            return ("ctx",)
        if kind is World and obj is self._ctx.world:
            return ("world",)
        return None


class _Unpickler(pickle.Unpickler):
    def __init__(self, file: io.BytesIO, ctx: SimContext) -> None:
        super().__init__(file)
        self._ctx = ctx

    def persistent_load(self, pid: Any) -> Any:
        kind = pid[0]
        if kind == "ctx":
            return self._ctx
        if kind == "world":
            return self._ctx.world
        if kind == "entity":
            entity = self._ctx.world.by_id(pid[1])
            if entity is None:
                raise pickle.UnpicklingError(f"entity {pid[1]!r} is not in this world")
            return entity
        raise pickle.UnpicklingError(f"unknown reference {pid!r}")


class Hold:
    """One request's hold on the account (AccountFile.enter); `leave` ends it once."""

    def __init__(self, read_only: bool) -> None:
        self.read_only = read_only
        self.held = True


class AccountFile:
    """One simulator's account on disk, shared with every simulator on the same file (see the
    module docstring)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._fingerprint = ""
        self._last: bytes | None = None
        self._mark: tuple[Any, int] | None = None
        self._seen: tuple[int, int, int] | None = None  # the file as this process last read or wrote it
        # Acquired on one thread and released on another (asyncio.to_thread): not thread-local.
        self._file_lock = FileLock(str(path.with_name(path.name + ".lock")), thread_local=False)
        self._lock: asyncio.Lock | None = None  # made on the simulator's loop, at its first request

    async def enter(self, ctx: SimContext, *, read_only: bool) -> Hold:
        """Hold the account for one request: this process's other requests and every other
        process's wait until `leave`. What another process saved meanwhile is loaded first."""
        if self._lock is None:
            self._lock = asyncio.Lock()
        await self._lock.acquire()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            await asyncio.to_thread(self._file_lock.acquire)
        except BaseException:
            self._lock.release()
            raise
        try:
            if self._stat() != self._seen:
                self._load(ctx)
        except BaseException:
            self._release()
            raise
        return Hold(read_only)

    def leave(self, ctx: SimContext, hold: Hold) -> None:
        """End `hold`: save what its request changed, then let the next request in. Called as its
        answer starts and again when it ends; only the first call does anything."""
        if not hold.held:
            return
        hold.held = False
        try:
            self.save_if_changed(ctx, read_only=hold.read_only)
        finally:
            self._release()

    def _release(self) -> None:
        self._file_lock.release()
        if self._lock is not None:
            self._lock.release()

    def _stat(self) -> tuple[int, int, int] | None:
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            return None
        return (st.st_ino, st.st_size, st.st_mtime_ns)

    def restore(self, ctx: SimContext) -> bool:
        """Load the saved account into `ctx` (built for the same world); False when there is none
        to load (no file, another world, an unreadable file), which leaves `ctx` fresh."""
        self._fingerprint = world_fingerprint(ctx.world)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self._file_lock:
            loaded = self._load(ctx)
        if loaded:
            logger.info("simulator account restored from %s", self.path)
        return loaded

    def _load(self, ctx: SimContext) -> bool:
        """Read the file into `ctx` (under the file lock); see `restore`."""
        self._seen = self._stat()
        if not self._fingerprint:
            self._fingerprint = world_fingerprint(ctx.world)
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            return False
        try:
            stream = io.BytesIO(raw)
            header = pickle.load(stream)
            if header.get("format") != FORMAT or header.get("world") != self._fingerprint:
                logger.info(
                    "simulator account %s was made in another world (or version): starting a fresh "
                    "account, the old one is kept as %s.old",
                    self.path,
                    self.path.name,
                )
                self._set_aside()
                return False
            body = raw[stream.tell() :]
            ids, extras = _Unpickler(io.BytesIO(body), ctx).load()
        except Exception as exc:  # noqa: BLE001 - any unreadable file starts a fresh account
            logger.warning(
                "simulator account %s cannot be read (%s): starting a fresh account, the old one is "
                "kept as %s.old",
                self.path,
                type(exc).__name__,
                self.path.name,
            )
            self._set_aside()
            return False
        ctx.extras.update(extras)
        ctx.ids._rng.setstate(ids)
        # The shared clock: the saved time, moved on by the wall time since (Exa kept working).
        down = max(0.0, time.time() - header["saved_wall"])
        ctx.clock.advance(max(0.0, header["now"] + down * ctx.clock.speed - ctx.clock.now()))
        self._last = body
        self._mark = (ctx.ids._rng.getstate(), len(getattr(ctx.extras.get("websets"), "events", ())))
        return True

    def _set_aside(self) -> None:
        try:
            os.replace(self.path, self.path.with_name(self.path.name + ".old"))
        except OSError:
            pass
        self._seen = None

    def save_if_changed(self, ctx: SimContext, *, read_only: bool = False) -> None:
        """Write the account when it differs from the last one written (atomically).

        `read_only` (a GET): its request changed nothing unless simulated time moved something on,
        and every such change (an item found, a search done, a webset idle) sends an event, which
        draws an id: an unchanged id generator and event count mean nothing to write."""
        mark = (ctx.ids._rng.getstate(), len(getattr(ctx.extras.get("websets"), "events", ())))
        if read_only and mark == self._mark:
            return
        self._mark = mark
        extras = {k: v for k, v in ctx.extras.items() if k not in _NOT_SAVED}
        out = io.BytesIO()
        _Pickler(out, ctx).dump((ctx.ids._rng.getstate(), extras))
        body = out.getvalue()
        if body == self._last:
            return  # nothing changed (the clock alone is saved with the next change)
        header = {
            "format": FORMAT,
            "world": self._fingerprint or world_fingerprint(ctx.world),
            "now": ctx.clock.now(),
            "saved_wall": time.time(),
        }
        self._write(pickle.dumps(header, protocol=pickle.HIGHEST_PROTOCOL) + body)
        self._last = body

    def _write(self, data: bytes) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        tmp.write_bytes(data)
        os.replace(tmp, self.path)
        self._seen = self._stat()
