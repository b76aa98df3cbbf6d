"""The webset create of convergent.search, research.verifiedCollection and adversarial.verify,
typed: `create` is `kit.new_webset` from a create's camelCase JSON body (the same step and
checkpoint as `kit.create_webset`), as exa-py's `Webset`. Their waits are `kit.wait_webset`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from exa_orch.exa.port import webset_params
from exa_orch.runtime import TaskContext
from exa_orch.workflows import kit

if TYPE_CHECKING:
    from exa_py.websets.types import Webset


async def create(ctx: TaskContext, key: str, body: Mapping[str, object]) -> Webset:
    """Step `key`: the webset a create's camelCase JSON `body` describes, created once even across
    crashes (`kit.new_webset`)."""
    return await kit.new_webset(ctx, key, await webset_params(body))
