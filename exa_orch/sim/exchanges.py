"""Each request the simulator answers and its answer, handed to hooks once sent (for tests).

`EXCHANGE_HOOKS` is empty in a running product, and then nothing is kept. The test suite puts one
hook there for the whole session (tests/contract.py): it validates every answer against Exa's own
specs and every request exa-orch sends against the spec's request schema. `recording(scope,
receive, send)` wraps a request's ASGI callables so the hooks see its body and its answer's
status, content type and body (an event stream whole, as it was sent); `finish(exchange)` calls
them. The API key is never kept (the copy says `x-api-key` or `authorization` was sent, not what).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field

from starlette.types import Message, Receive, Scope, Send

logger = logging.getLogger(__name__)

SECRET_HEADERS = frozenset({"x-api-key", "authorization"})


@dataclass
class Exchange:
    """One request and the answer it got."""

    method: str
    path: str
    query: str
    headers: dict[str, str]  # the request's, names lower-case, the key's value left out
    body: bytearray = field(default_factory=bytearray)
    body_read: bool = False  # whether the route read the whole body (a 404 or a 401 may not)
    status: int | None = None
    content_type: str = ""
    answer: bytearray = field(default_factory=bytearray)
    fault: str | None = None  # the fault injected, if any (sim/faults.py)


EXCHANGE_HOOKS: list[Callable[[Exchange], None]] = []
"""Called with each Exchange once its answer is sent (in the server's thread)."""


def recording(scope: Scope, receive: Receive, send: Send) -> tuple[Exchange, Receive, Send]:
    """An Exchange for this request, and `receive` and `send` that fill it in."""
    headers = {}
    for raw_name, raw_value in scope.get("headers", []):
        name = raw_name.decode("latin-1").lower()
        headers[name] = "(sent)" if name in SECRET_HEADERS else raw_value.decode("latin-1")
    exchange = Exchange(
        method=scope["method"],
        path=scope["path"],
        query=scope.get("query_string", b"").decode("latin-1"),
        headers=headers,
    )

    async def receiving() -> Message:
        message = await receive()
        if message["type"] == "http.request":
            exchange.body += message.get("body", b"")
            exchange.body_read = not message.get("more_body", False)
        return message

    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            exchange.status = message["status"]
            for name, value in message.get("headers", []):
                if name.lower() == b"content-type":
                    exchange.content_type = value.decode("latin-1")
        elif message["type"] == "http.response.body":
            exchange.answer += message.get("body", b"")
        await send(message)

    return exchange, receiving, sending


def finish(exchange: Exchange) -> None:
    """Hand the exchange to each hook; a hook's failure is logged, never the client's."""
    for hook in EXCHANGE_HOOKS:
        try:
            hook(exchange)
        except Exception:
            logger.exception("an exchange hook failed")
