"""The mark exa-orch puts on every object it creates, so a create can be found again.

Exa takes `externalId` on webset creates only (and refuses a second webset with the same one);
searches, enrichments, monitors, webhooks, imports and agent runs take `metadata`. A create whose
answer was lost (a 5xx, a timeout, a dropped connection after the request went out) may or may not
have made its object: exa-orch looks it up by this key before sending the create again.
"""

from __future__ import annotations

import uuid

CREATE_MARK = "exaOrchKey"
"""The metadata key holding a create's idempotency key (webset creates use `externalId` instead)."""


def new_key() -> str:
    """A fresh idempotency key for a create the caller gave none for."""
    return f"exa-orch:{uuid.uuid4().hex}"
