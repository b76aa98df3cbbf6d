"""Typed reads of the webset steps convergent.search, research.verifiedCollection and
adversarial.verify have always checkpointed (their saved JSON unchanged, so an older task resumes).

`kit.wait_idle`'s step keeps {webset (Exa's JSON), timedOut, waitedSeconds, polls}; `wait_idle` here
is that step read as the port's `Idle` (exa-py's `Webset`). `create` is `kit.new_webset` from a
create's camelCase JSON body (the same step and checkpoint as `kit.create_webset`), as a `Webset`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from exa_orch.exa.port import Idle, webset, webset_params
from exa_orch.runtime import TaskContext
from exa_orch.workflows import kit

if TYPE_CHECKING:
    from exa_py.websets.types import Webset


async def create(ctx: TaskContext, key: str, body: Mapping[str, object]) -> Webset:
    """Step `key`: the webset a create's camelCase JSON `body` describes, created once even across
    crashes (`kit.new_webset`)."""
    return await kit.new_webset(ctx, key, await webset_params(body))


async def wait_idle(
    ctx: TaskContext,
    key: str,
    webset_id: str,
    timeout_s: float,
    poll_s: float = 2.0,
    *,
    until: float | None = None,
) -> Idle:
    """Step `key`: `kit.wait_idle` (until the webset is idle or its deadline passes), read typed."""
    saved = await kit.wait_idle(ctx, key, webset_id, timeout_s, poll_s, until=until)
    return Idle(
        await webset(saved["webset"]),
        bool(saved["timedOut"]),
        float(saved["waitedSeconds"]),
        int(saved["polls"]),
    )
