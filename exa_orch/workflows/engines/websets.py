"""The Websets engine: each collection workflow drives webset(s) its own way (its `websets` leg)."""

from __future__ import annotations

from typing import TypeVar

from exa_orch.workflows.engines.base import Legs

T = TypeVar("T")


class WebsetsCollector:
    """Exa's Websets: items with their criteria evaluations and enrichments, read as Exa returns them."""

    name = "websets"

    def choose(self, legs: Legs[T]) -> T:
        """The workflow's Websets leg."""
        return legs.websets()
