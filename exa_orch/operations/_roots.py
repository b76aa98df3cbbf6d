"""Local files an operation may read: only inside the MCP client's roots (seed 000 section 5.6).

The path is resolved (symlinks, `..`) before the check, and each root too, so neither a link out
of a root nor a `..` walk passes. The file is then opened once, without blocking (O_NONBLOCK: a
FIFO or a device can't hold the call), and the check is made again on what was opened: the
descriptor's own path (/proc/self/fd/N; elsewhere, the resolved path opened with O_NOFOLLOW and
its device and inode compared), so a link swapped between check and open reads nothing outside the
roots. Only a regular file is read, and at most `max_bytes` + 1 bytes of it. A client without
roots, or an operation run outside an MCP call (a durable task), is refused with what to do instead.

The files belong to the machine's user, not to a remote caller: a client over HTTP names paths on
the server's disk with its roots, so there (`server_dirs` not None, the peer's `server_dirs`) only
the operator's folders (EXA_ORCH_IMPORT_DIRS) are read, narrowed by the client's roots if it has
any, and a path with a `..` part is refused outright; with no such folder, nothing is read.
"""

from __future__ import annotations

import asyncio
import os
import stat
from collections.abc import Sequence
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
    """The text of the local file `path`, when it lies inside one of the client's roots (and, for
    a client over HTTP, inside EXA_ORCH_IMPORT_DIRS).

    Raises InvalidParams (naming 'path' and what to do instead) for no roots, a path outside them,
    a missing or unreadable file, more than `max_bytes`, or text that is not UTF-8; RootsNeeded
    (an InvalidParams) when there is no client at all."""
    if ctx.peer is None:
        raise RootsNeeded(path)
    return await read_inside_roots(ctx.peer, path, max_bytes, server_dirs=ctx.peer.server_dirs)


async def read_inside_roots(
    peer: Any, path: str, max_bytes: int, *, server_dirs: Sequence[str] | None = None
) -> str:
    """`read_local_csv` with the roots of `peer` (a ClientPeer, or anything with `roots` and
    `list_roots()`): the one check for a call's file and for a waiting task's. `server_dirs`: None
    when the client shares this machine (stdio); else the folders a remote client may read in."""
    if server_dirs is not None:
        _check_remote(path, server_dirs)
    elif not peer.roots:
        raise InvalidParams(
            "path: reading a local file needs the MCP client's roots, and this call has none "
            "(the client does not offer the roots capability, or the call runs as a durable task)",
            hint=f"{_INSTEAD}, or call from a client that shares the folder as a root.",
            fields=["path"],
        )
    scopes: list[tuple[str, list[str]]] = []
    if server_dirs is not None:
        scopes.append(("EXA_ORCH_IMPORT_DIRS", list(server_dirs)))
    if peer.roots:
        try:
            scopes.append(("the client's roots", await peer.list_roots()))
        except PeerError as exc:
            raise InvalidParams(
                f"path: the client's roots are unavailable: {exc}", hint=f"{_INSTEAD}.", fields=["path"]
            ) from None
    return await asyncio.to_thread(_read_inside, path, scopes, max_bytes)


def _check_remote(path: str, server_dirs: Sequence[str]) -> None:
    """A remote client's path: refused when the operator named no folder, or when it walks `..`."""
    if not server_dirs:
        raise InvalidParams(
            "path: this server reads no files for clients over HTTP (the client's roots name "
            "folders on its own machine, not on the server)",
            hint=f"{_INSTEAD}; or the server's operator sets EXA_ORCH_IMPORT_DIRS to the folders "
            "clients may import from.",
            fields=["path"],
        )
    if ".." in Path(path).parts:
        raise InvalidParams(
            f"path: {path!r} has a '..' part", hint="Give the file's full path without '..'.", fields=["path"]
        )


def _outside(path: Path, scopes: list[tuple[str, list[str]]]) -> tuple[str, list[str]] | None:
    """The first scope (its name, its folders) that `path` is not inside; None if inside all."""
    return next(((name, dirs) for name, dirs in scopes if not inside(path, dirs)), None)


def _refuse_outside(path: str, scope: tuple[str, list[str]]) -> InvalidParams:
    name, dirs = scope
    shown = ", ".join(dirs) or "none"
    return InvalidParams(
        f"path: {path!r} is outside {name} ({shown})",
        hint=f"Move the file into one of those folders, or {_INSTEAD[0].lower()}{_INSTEAD[1:]}.",
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


def _read_inside(path: str, scopes: list[tuple[str, list[str]]], max_bytes: int) -> str:
    """Resolve, check against every scope, open once, check the descriptor, read (blocking: run it
    in a thread)."""
    given = Path(path).expanduser()
    if not given.is_absolute():
        raise InvalidParams(
            f"path: {path!r} is not absolute", hint="Give the file's full path.", fields=["path"]
        )
    real = given.resolve()
    if (outside := _outside(real, scopes)) is not None:
        raise _refuse_outside(path, outside)
    try:
        # The resolved path, not following a last link: one swapped in since resolve() fails here.
        fd = os.open(real, _OPEN_FLAGS | getattr(os, "O_NOFOLLOW", 0))
    except OSError as exc:
        raise InvalidParams(f"path: cannot read {path!r}: {exc.strerror or exc}", fields=["path"]) from None
    try:
        opened = _opened_path(fd, real)
        outside = scopes[0] if opened is None else _outside(opened, scopes)
        if outside is not None:
            raise _refuse_outside(path, outside)
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
