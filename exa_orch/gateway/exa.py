"""exa-py's AsyncExa on the Gateway's governed client (`Gateway.exa` makes it on first use).

A module of its own so that importing the gateway does not import exa-py: exa-py loads openai's
types, most of a cold start's import time, and many requests never call it.
"""

from __future__ import annotations

import httpx
from exa_py import AsyncExa

# exa-py insists on a key at construction; the real one is added by the transport on the way out,
# so the SDK object (and anything that prints it or its headers) never holds it.
_KEY_PLACEHOLDER = "added-by-exa-orch-gateway"


class GovernedExa(AsyncExa):
    """AsyncExa on a client it is handed: it never builds its own (ungoverned) one, and never closes it."""

    def __init__(self, client: httpx.AsyncClient, *, api_base: str, timeout: float | None) -> None:
        super().__init__(api_key=_KEY_PLACEHOLDER, api_base=api_base, timeout=timeout)
        self._governed = client

    @property
    def client(self) -> httpx.AsyncClient:
        if self._governed.is_closed:
            raise RuntimeError("the Gateway is closed; open a new one with `async with Gateway(settings)`")
        return self._governed

    async def aclose(self) -> None:
        """No-op: the Gateway owns the client and closes it."""
