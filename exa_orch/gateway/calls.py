"""One call's record as it passes down the gateway's stack of transports (gateway/transport.py).

The first layer (`keying.Keying`) classifies the request and puts a `Call` in the extensions of
the copy it sends on (`request.extensions[CALL]`, the way httpx passes per-request options such
as a timeout down to its transports); every layer below reads it with `call_of`, and the layers
that hold something for the call (a pool slot, a purse reservation, a cap's hold) note it here,
so the layer that releases it later (on the answer, or in its `finally`) finds it. The caller's
own request object never sees it (it carries the key).
"""

from __future__ import annotations

from dataclasses import dataclass

import httpx

from exa_orch.config import Secret
from exa_orch.gateway.ledger import worst_case
from exa_orch.gateway.retry import CallShape

CALL = "exa_orch.call"  # the extension key


@dataclass(slots=True, eq=False)
class Call:
    """What the stack knows and holds for one call, across its attempts."""

    shape: CallShape
    priced: httpx.Request  # the request whose body prices it (the caller's, or the budget-capped copy)
    to_exa: bool = False  # whether it goes to Exa (and so is signed, metered and pooled)
    key: Secret | None = None  # the key it carries (None: not an Exa request)
    key_of: str | None = None  # the principal whose own key that is (None: the operator's)
    held: float = 0.0  # the task's purse reservation for the attempt under way
    cap_hold: tuple[str, str, float] | None = None  # the daily cap's hold for the whole call
    body: bytes | None = None  # the decoded body of the answer that succeeded (not a stream's)
    retry_after: float | None = None  # an attempt's answer asked every call of its family to wait
    _worst: float | None = None

    @property
    def what(self) -> str:
        """`POST /agent/runs`: the request, as messages name it."""
        return f"{self.shape.method} {self.shape.path}"

    def worst(self) -> float:
        """The most the call may cost (gateway/ledger.py `worst_case`), read once from its body."""
        if self._worst is None:
            try:
                content = self.priced.content
            except httpx.RequestNotRead:  # a streamed upload: nothing to price it by
                content = b""
            self._worst = worst_case(self.shape.method, self.shape.path, content)
        return self._worst

    def reprice(self, request: httpx.Request) -> None:
        """The call now sends `request` (a budget-capped body): it is priced by that."""
        self.priced, self._worst = request, None


def call_of(request: httpx.Request) -> Call:
    """The call a request below the first layer belongs to."""
    call = request.extensions[CALL]
    assert isinstance(call, Call)
    return call
