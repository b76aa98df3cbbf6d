"""The keying layer, the top of the gateway's stack: what a request is, and whose key it carries.

`Keying` classifies each request (which API it goes to, its endpoint family, its path there, and
its shape: an object create, its externalId, streamed; gateway/retry.py) into the `Call` the
layers below share (gateway/calls.py), and sends on a copy of it, so the caller's request object
never holds the key. To Exa the copy carries the key of the principal the request is made for (the
request context's; gateway/keys.py), never another's (none: MissingApiKey, unsent), and adds
`exa-orch/<version>` to its User-Agent and, on an Agent API request, `Exa-Beta:
agent-2026-05-07` (gateway/agent_api.py); to any other host it carries no key. A 401 on a
principal's own key forgets that key (KeyRefused), for that principal alone.
"""

from __future__ import annotations

import httpx

from exa_orch import __version__
from exa_orch.errors import GatewayError
from exa_orch.gateway.agent_api import with_beta
from exa_orch.gateway.calls import CALL, Call
from exa_orch.gateway.context import current_request
from exa_orch.gateway.errors import KeyRefused
from exa_orch.gateway.keys import ApiKeys
from exa_orch.gateway.limits import family_of
from exa_orch.gateway.retry import shape_of

USER_AGENT = f"exa-orch/{__version__}"  # appended to each Exa request's User-Agent: who is calling


def _url_prefix(url: str) -> tuple[str, str, int | None, str]:
    parsed = httpx.URL(url)
    return parsed.scheme, parsed.host, parsed.port, parsed.path.rstrip("/")


class Keying(httpx.AsyncBaseTransport):
    """Classifies and signs each request (see the module doc)."""

    def __init__(
        self, inner: httpx.AsyncBaseTransport, keys: ApiKeys, exa_url: str, arxiv_url: str | None
    ) -> None:
        self._inner = inner
        self.keys = keys
        self._exa = _url_prefix(exa_url)
        self._arxiv = _url_prefix(arxiv_url) if arxiv_url else None

    def _locate(self, url: httpx.URL) -> tuple[str, str, bool]:
        """(family, path relative to its API base, whether it goes to Exa and so gets the key)."""
        path = url.path
        for prefix, is_exa in ((self._arxiv, False), (self._exa, True)):
            if prefix is None:
                continue
            scheme, host, port, base = prefix
            if (url.scheme, url.host, url.port) != (scheme, host, port):
                continue
            if path == base or path.startswith(base + "/") or not base:
                rel = path[len(base) :] or "/"
                return ("arxiv" if not is_exa else family_of(rel)), rel, is_exa
        return "other", path, False

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        family, path, to_exa = self._locate(request.url)
        call = Call(shape_of(request, path, family), request, to_exa)
        headers = request.headers.copy()
        if to_exa:
            call.key, call.key_of = self.keys.lookup(current_request().principal)
            headers["x-api-key"] = call.key.reveal()
            headers["user-agent"] = f"{headers.get('user-agent', '')} {USER_AGENT}".strip()
            if family == "agent":
                headers["exa-beta"] = with_beta(headers.get("exa-beta"))
        else:
            headers.pop("x-api-key", None)
        signed = httpx.Request(
            request.method,
            request.url,
            headers=headers,
            stream=request.stream,
            extensions={**request.extensions, CALL: call},
        )
        try:
            return await self._inner.handle_async_request(signed)
        except GatewayError as error:
            if (
                error.status != 401
                or call.key_of is None
                or call.key is None
                or isinstance(error, KeyRefused)
            ):
                raise
            # A key a principal gave, refused: forget it (the face asks again), for that one alone.
            self.keys.refused(call.key_of, call.key)
            raise KeyRefused(call.key_of, error) from None

    async def aclose(self) -> None:
        await self._inner.aclose()
