"""The simulator's door: while it is closed, new requests wait outside, unprocessed and unbilled.

A test that must SIGKILL a client at a moment when no request of its is being worked on (so the
client's records can be compared, to the cent, with what the simulator billed) closes the door,
waits until no request is inside (`inside` is 0: every one let in has been answered), kills the
client, waits until the requests
held at the door have seen their client go (`held` drops to 0), then opens it. A request whose
client disconnected while it waited is never processed (as a front proxy drops a request whose
client closed before it was forwarded: nginx logs it as 499); the others go in, in order.

Thread-safe: a test on another thread closes and opens it (`SimThread`). Kept in
`ctx.extras["door"]`; `/_sim/*` never waits.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.types import Message, Receive


class Door:
    """Open by default; `close()` holds new requests, `open()` lets them in."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._closed = False
        self._waiters: list[tuple[asyncio.AbstractEventLoop, asyncio.Future[None]]] = []
        self.held = 0  # requests waiting outside now
        self.inside = 0  # requests let in and not yet answered (the app calls `leave`)
        self.dropped = 0  # requests whose client left while they waited (never processed)

    def close(self) -> None:
        with self._lock:
            self._closed = True

    def open(self) -> None:
        with self._lock:
            self._closed = False
            waiters, self._waiters = self._waiters, []
        for loop, future in waiters:
            loop.call_soon_threadsafe(_release, future)

    async def enter(self, receive: Receive) -> Receive | None:
        """Wait while the door is closed; the request's `receive` (its body replayed), or None when
        its client disconnected meanwhile (the request must not be processed)."""
        with self._lock:
            if not self._closed:
                self.inside += 1
                return receive
            loop = asyncio.get_running_loop()
            opened: asyncio.Future[None] = loop.create_future()
            self._waiters.append((loop, opened))
            self.held += 1
        try:
            body: list[Message] = []
            while True:  # the whole body first: then `receive` only says when the client leaves
                message = await receive()
                if message["type"] == "http.disconnect":
                    self._dropped()
                    return None
                body.append(message)
                if not message.get("more_body"):
                    break
            left: asyncio.Future[Message] = asyncio.ensure_future(receive())
            either: list[asyncio.Future[Any]] = [opened, left]
            await asyncio.wait(either, return_when=asyncio.FIRST_COMPLETED)
            if left.done() and left.result()["type"] == "http.disconnect":
                self._dropped()
                return None
            if not left.done():
                left.cancel()
            with self._lock:
                self.inside += 1
            return _replay(body, receive)
        finally:
            with self._lock:
                self.held -= 1

    def leave(self) -> None:
        """A request let in has been answered (or failed)."""
        with self._lock:
            self.inside -= 1

    @property
    def quiet(self) -> bool:
        """Closed, with no request inside."""
        with self._lock:
            return self._closed and self.inside == 0

    def _dropped(self) -> None:
        with self._lock:
            self.dropped += 1


def _release(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


def _replay(body: list[Message], receive: Receive) -> Callable[[], Awaitable[Message]]:
    queued = list(body)

    async def replayed() -> Message:
        if queued:
            return queued.pop(0)
        return await receive()

    return replayed
