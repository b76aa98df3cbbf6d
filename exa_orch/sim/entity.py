"""One thing in the simulated world (`Entity`) and the small helpers world builders share."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Literal

EntityKind = Literal["company", "person", "research_paper", "article"]
KINDS: tuple[EntityKind, ...] = ("company", "person", "research_paper", "article")


@dataclass(frozen=True)
class Entity:
    """One thing in the world that searches can find."""

    id: str
    kind: EntityKind
    name: str
    url: str  # canonical URL (for a near-duplicate: its own second URL)
    title: str
    text: str  # what its page says (a paragraph; a world file's page `text`)
    published_date: str  # YYYY-MM-DD
    author: str | None
    attrs: dict[str, Any] = field(hash=False)


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def query_key(query: str) -> str:
    """A query as the declared-queries table keys it: lower case, single spaces."""
    return " ".join(query.lower().split())
