"""Whose Exa key signs a request: the operator's (EXA_API_KEY) or the one a principal gave.

`ApiKeys` holds, in this process's memory only (never stored, never logged: each is registered for
redaction as it arrives):
- the operator's key, from the environment: it serves every principal;
- without one, the keys principals gave during this server's life (the MCP face asks for them by
  URL-mode elicitation): each serves only the requests made on behalf of that principal (the
  per-request scope, `gateway/context.py`: a tool call's caller, a task run's owner).

A request for a principal with no key of its own, and no operator key, raises MissingApiKey: it is
never sent with another principal's key. A request outside any principal (the supervisor's own
rounds) gets the operator's key or nothing. A principal's key that Exa refuses (401) is forgotten
(`refused`), so the next call asks again instead of failing until a restart.
"""

from __future__ import annotations

import threading

from exa_orch.config import Secret
from exa_orch.errors import InvalidParams
from exa_orch.gateway.errors import MissingApiKey
from exa_orch.log import register_secret

MIN_KEY_CHARS, MAX_KEY_CHARS = 8, 512  # an Exa key is a UUID; far shorter or longer is a slip


class ApiKeys:
    """The operator's key and each principal's own (see the module doc). Guarded by a lock, so a
    face that takes keys on another thread stays safe (the key page runs on the server's loop)."""

    def __init__(self, operator: Secret | None) -> None:
        if operator is not None:
            register_secret(operator.reveal())
        self._operator = operator
        self._given: dict[str, Secret] = {}
        self._lock = threading.Lock()

    @property
    def operator(self) -> Secret | None:
        """The environment's EXA_API_KEY (None on a server started without one)."""
        return self._operator

    def lookup(self, principal: str | None) -> tuple[Secret, str | None]:
        """(the key to sign a request for `principal` with, whose it is: the principal's name, or
        None for the operator's); MissingApiKey when there is none (nothing may be sent)."""
        if self._operator is not None:
            return self._operator, None
        if principal is not None:
            with self._lock:
                key = self._given.get(principal)
            if key is not None:
                return key, principal
        raise MissingApiKey(principal)

    def has_key(self, principal: str | None) -> bool:
        """Whether a request for `principal` would be signed (the operator's key or its own)."""
        if self._operator is not None:
            return True
        with self._lock:
            return principal is not None and principal in self._given

    def give(self, principal: str, key: str) -> None:
        """Sign `principal`'s later requests with `key` (memory only, redacted from every log)."""
        key = key.strip()
        if not key:
            raise InvalidParams("the Exa API key is empty", fields=["apiKey"])
        if not MIN_KEY_CHARS <= len(key) <= MAX_KEY_CHARS or any(
            c.isspace() or not c.isprintable() for c in key
        ):
            raise InvalidParams(
                "that is not an Exa API key (it has spaces or control characters, or is far too short "
                "or too long)",
                hint="Paste the key exactly as dashboard.exa.ai shows it.",
                fields=["apiKey"],
            )
        register_secret(key)
        with self._lock:
            self._given[principal] = Secret(key)

    def refused(self, principal: str, key: Secret) -> bool:
        """Exa refused `key` for `principal`: forget it, unless the principal has given another one
        since (a request still in flight with the old key must not drop the new). True if forgotten."""
        with self._lock:
            held = self._given.get(principal)
            if held is None or held.reveal() != key.reveal():
                return False
            del self._given[principal]
            return True

    def principals(self) -> list[str]:
        """The principals holding a key of their own (names only; for tests and diagnostics)."""
        with self._lock:
            return sorted(self._given)
