"""Local files an operation may read: only inside the MCP client's roots (seed 000 section 5.6).

The path is resolved (symlinks, `..`) before the check, and each root too, so neither a link out
of a root nor a `..` walk passes. The file is then opened once, without blocking (O_NONBLOCK: a
FIFO or a device can't hold the call), and the check is made again on what was opened: the
descriptor's own path (/proc/self/fd/N; elsewhere, the resolved path opened with O_NOFOLLOW and
its device and inode compared), so a link swapped between check and open reads nothing outside the
roots. Only a regular file is read, and at most `max_bytes` + 1 bytes of it. A client without
roots, or an operation run outside an MCP call (a durable task), is refused with what to do instead.
"""

from __future__ import annotations

import asyncio
import os
import stat
from pathlib import Path
from typing import Any

from exa_orch.errors import InvalidParams

from .context import OpContext, PeerError

_INSTEAD = "Pass the CSV text itself in 'csv' instead"


def inside(path: Path, roots: list[str]) -> bool:
    """Whether resolved `path` lies in (or is) one of the resolved `roots`."""
    return any(path == (real := Path(root).resolve()) or path.is_relative_to(real) for root in roots)


class RootsNeeded(InvalidParams):
    """A local file was to be read with no MCP client to ask for its roots (the call runs as a
    durable task): a task's run waits for its owner's client (`input_kind`: the runtime parks it
    input_required, `input_detail` saying which path) and the face reads the file then."""

    input_kind = "root"

    def __init__(self, path: str) -> None:
        self.input_detail = {"path": path}
        super().__init__(
            "path: reading a local file needs the MCP client's roots, and this call has none "
            "(the client does not offer the roots capability, or the call runs as a durable task)",
            hint=f"{_INSTEAD}, or call from a client that shares the folder as a root.",
            fields=["path"],
        )


async def read_local_csv(ctx: OpContext, path: str, max_bytes: int) -> str:
    """The text of the local file `path`, when it lies inside one of the client's roots.

    Raises InvalidParams (naming 'path' and what to do instead) for no roots, a path outside them,
    a missing or unreadable file, more than `max_bytes`, or text that is not UTF-8; RootsNeeded
    (an InvalidParams) when there is no client at all."""
    if ctx.peer is None:
        raise RootsNeeded(path)
    return await read_inside_roots(ctx.peer, path, max_bytes)


async def read_inside_roots(peer: Any, path: str, max_bytes: int) -> str:
    """`read_local_csv` with the roots of `peer` (a ClientPeer, or anything with `roots` and
    `list_roots()`): the one check for a call's file and for a waiting task's."""
    if not peer.roots:
        raise InvalidParams(
            "path: reading a local file needs the MCP client's roots, and this call has none "
            "(the client does not offer the roots capability, or the call runs as a durable task)",
            hint=f"{_INSTEAD}, or call from a client that shares the folder as a root.",
            fields=["path"],
        )
    try:
        roots = await peer.list_roots()
    except PeerError as exc:
        raise InvalidParams(
            f"path: the client's roots are unavailable: {exc}", hint=f"{_INSTEAD}.", fields=["path"]
        ) from None
    return await asyncio.to_thread(_read_inside, path, roots, max_bytes)


def _refuse_outside(path: str, roots: list[str]) -> InvalidParams:
    shown = ", ".join(roots) or "none"
    return InvalidParams(
        f"path: {path!r} is outside the client's roots ({shown})",
        hint=f"Move the file into one of the roots, or {_INSTEAD[0].lower()}{_INSTEAD[1:]}.",
        fields=["path"],
    )


_PROC_FD = Path("/proc/self/fd")
_OPEN_FLAGS = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)


def _opened_path(fd: int, real: Path) -> Path | None:
    """The path of what `fd` is open on: the kernel's word where it has one (Linux), else `real`
    when it still names the same file (same device and inode), else None."""
    if _PROC_FD.is_dir():
        try:
            return Path(os.readlink(_PROC_FD / str(fd)))
        except OSError:
            pass
    try:
        named, opened = os.stat(real, follow_symlinks=False), os.fstat(fd)
    except OSError:
        return None
    return real if (named.st_dev, named.st_ino) == (opened.st_dev, opened.st_ino) else None


def _read_inside(path: str, roots: list[str], max_bytes: int) -> str:
    """Resolve, check, open once, check the descriptor, read (blocking: run it in a thread)."""
    given = Path(path).expanduser()
    if not given.is_absolute():
        raise InvalidParams(
            f"path: {path!r} is not absolute", hint="Give the file's full path.", fields=["path"]
        )
    real = given.resolve()
    if not inside(real, roots):
        raise _refuse_outside(path, roots)
    try:
        # The resolved path, not following a last link: one swapped in since resolve() fails here.
        fd = os.open(real, _OPEN_FLAGS | getattr(os, "O_NOFOLLOW", 0))
    except OSError as exc:
        raise InvalidParams(f"path: cannot read {path!r}: {exc.strerror or exc}", fields=["path"]) from None
    try:
        opened = _opened_path(fd, real)
        if opened is None or not inside(opened, roots):
            raise _refuse_outside(path, roots)
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise InvalidParams(
                f"path: {path!r} is not a regular file (a FIFO, a device, a directory or a socket)",
                hint="Give the path of a CSV file.",
                fields=["path"],
            )
        if info.st_size > max_bytes:
            raise InvalidParams(f"path: {path!r} is over the {max_bytes} byte import limit", fields=["path"])
        data = _read_at_most(fd, max_bytes + 1)
    except OSError as exc:
        raise InvalidParams(f"path: cannot read {path!r}: {exc.strerror or exc}", fields=["path"]) from None
    finally:
        os.close(fd)
    if len(data) > max_bytes:  # it grew since fstat
        raise InvalidParams(f"path: {path!r} is over the {max_bytes} byte import limit", fields=["path"])
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InvalidParams(
            f"path: {path!r} is not UTF-8 text", hint="Save the CSV as UTF-8.", fields=["path"]
        ) from None


def _read_at_most(fd: int, limit: int) -> bytes:
    """Up to `limit` bytes from `fd`, to its end."""
    chunks: list[bytes] = []
    left = limit
    while left > 0:
        chunk = os.read(fd, min(left, 1 << 20))
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)
