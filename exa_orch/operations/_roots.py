"""Local files an operation may read: only inside the MCP client's roots (seed 000 section 5.6).

The path is resolved (symlinks, `..`) before the check, and each root too, so neither a link out
of a root nor a `..` walk passes. A client without roots, or an operation run outside an MCP call
(a durable task), is refused with what to do instead.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from exa_orch.errors import InvalidParams

from .context import OpContext, PeerError

_INSTEAD = "Pass the CSV text itself in 'csv' instead"


def inside(path: Path, roots: list[str]) -> bool:
    """Whether resolved `path` lies in (or is) one of the resolved `roots`."""
    return any(path == (real := Path(root).resolve()) or path.is_relative_to(real) for root in roots)


async def read_local_csv(ctx: OpContext, path: str, max_bytes: int) -> str:
    """The text of the local file `path`, when it lies inside one of the client's roots.

    Raises InvalidParams (naming 'path' and what to do instead) for no roots, a path outside them,
    a missing or unreadable file, more than `max_bytes`, or text that is not UTF-8."""
    peer = ctx.peer
    if peer is None or not peer.roots:
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


def _read_inside(path: str, roots: list[str], max_bytes: int) -> str:
    """Resolve, check and read (blocking: run it in a thread)."""
    given = Path(path).expanduser()
    if not given.is_absolute():
        raise InvalidParams(
            f"path: {path!r} is not absolute", hint="Give the file's full path.", fields=["path"]
        )
    real = given.resolve()
    if not inside(real, roots):
        shown = ", ".join(roots) or "none"
        raise InvalidParams(
            f"path: {path!r} is outside the client's roots ({shown})",
            hint=f"Move the file into one of the roots, or {_INSTEAD[0].lower()}{_INSTEAD[1:]}.",
            fields=["path"],
        )
    try:
        with real.open("rb") as handle:
            data = handle.read(max_bytes + 1)
    except OSError as exc:
        raise InvalidParams(f"path: cannot read {path!r}: {exc.strerror or exc}", fields=["path"]) from None
    if len(data) > max_bytes:
        raise InvalidParams(f"path: {path!r} is over the {max_bytes} byte import limit", fields=["path"])
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InvalidParams(
            f"path: {path!r} is not UTF-8 text", hint="Save the CSV as UTF-8.", fields=["path"]
        ) from None
