"""`exa-orch serve` over stdio, spoken to line by line: the raw client of the tests that send what
the SDK's client never would (broken JSON, batches, unusable ids).

Each answer is read by its id: `answer(rid)` returns the response to request `rid` and keeps any
other message that arrives first (a notification, a late answer to another request) for whoever
asks for it, so no test takes one request's answer for another's. Reads wait for the server's
line under the one generous bound (tests/support.py's WAIT): a request the server drops fails
the test with the messages seen meanwhile, a slow machine only takes longer.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from tests.support import WAIT, readable

from .conftest import initialize_request, server_env

_NO_ID = object()


class RawStdio:
    """One `exa-orch serve` child over stdio (a context manager: closes stdin, waits for exit 0)."""

    def __init__(self, sim_url: str, where: Path, *args: str, **env: str) -> None:
        with (where / "stderr.log").open("ab") as errlog:  # the child keeps its own descriptor
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "exa_orch", "serve", *args],
                env=server_env(sim_url, where / "workflows.db", **env),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=errlog,
            )
        self.stderr = where / "stderr.log"
        self.initialized = False
        self.others: list[dict[str, Any]] = []  # read while looking for another id, oldest first
        self._pending = b""  # bytes read past the last whole line

    def __enter__(self) -> RawStdio:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.proc.poll() is None:
            self.close()

    def close(self) -> int:
        """Close stdin (the client leaves) and return the exit status."""
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        try:
            return self.proc.wait(timeout=WAIT)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
            assert self.proc.stdout is not None
            self.proc.stdout.close()

    def send(self, message: Any) -> None:
        """One line: a JSON value, or raw bytes as given."""
        assert self.proc.stdin is not None
        line = message if isinstance(message, bytes) else json.dumps(message).encode()
        self.proc.stdin.write(line + b"\n")
        self.proc.stdin.flush()

    def read(self, within: float = WAIT) -> dict[str, Any]:
        """The next message the server writes, whatever it is (it writes whole lines).

        Reads the pipe's fd with our own buffer: two answers written at once arrive in one read, and
        a wait on a buffered file object would then wait for the second one in vain."""
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        deadline = time.monotonic() + within
        while b"\n" not in self._pending:
            ready = readable(fd, deadline - time.monotonic())
            assert ready, f"no message within {within} s; read meanwhile: {self.others}"
            chunk = os.read(fd, 1 << 16)
            assert chunk, f"the server closed stdout; read meanwhile: {self.others}"
            self._pending += chunk
        line, self._pending = self._pending.split(b"\n", 1)
        return dict(json.loads(line))

    def answer(self, rid: Any, within: float = WAIT) -> dict[str, Any]:
        """The response (result or error) to request `rid`; `None` for one the server could not
        read an id from. Other messages read first stay in `others`, in order."""
        for i, message in enumerate(self.others):
            if _is_answer_to(message, rid):
                return self.others.pop(i)
        deadline = time.monotonic() + within
        while True:
            message = self.read(max(0.0, deadline - time.monotonic()))
            if _is_answer_to(message, rid):
                return message
            self.others.append(message)

    def ask(self, message: Any, rid: Any = _NO_ID) -> dict[str, Any]:
        """Send `message` and return its answer (by its id; give `rid` for raw bytes)."""
        if rid is _NO_ID:
            rid = message.get("id") if isinstance(message, dict) else None
        # An answer to an earlier request with this id, left unread, is not this one's.
        self.others = [m for m in self.others if not _is_answer_to(m, rid)]
        self.send(message)
        return self.answer(rid)

    def initialize(self, rid: Any = "init") -> dict[str, Any]:
        """initialize, then notifications/initialized; the initialize result."""
        answer = self.ask(initialize_request(rid))
        assert "result" in answer, answer
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        self.initialized = True
        return dict(answer["result"])


def _is_answer_to(message: dict[str, Any], rid: Any) -> bool:
    if "method" in message or ("result" not in message and "error" not in message):
        return False  # a request or a notification from the server
    return "id" in message and message["id"] == rid and type(message["id"]) is type(rid)
