"""Base classes for operation args: camelCase on the wire, snake_case accepted, unknown fields refused."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel

from exa_orch.attrdocs import AttributeDocs


class Args(AttributeDocs, BaseModel):
    """Args of one operation. Unknown fields are errors (a typo should not be silently dropped)."""

    # (AttributeDocs: each field's attribute docstring is its description in the schema.)

    model_config = ConfigDict(
        alias_generator=to_camel,
        populate_by_name=True,
        extra="forbid",
        # Each model's validator and schema are built on first use, not at import: a cold start
        # builds none of the ~150 (bench/startup.py), a call builds its operation's.
        defer_build=True,
    )

    def wire(self, *, exclude: set[str] | None = None) -> dict[str, Any]:
        """The fields the caller set, camelCase, JSON-ready (what is sent to Exa)."""
        return self.model_dump(by_alias=True, exclude_unset=True, exclude=exclude or set(), mode="json")


class Loose(BaseModel):
    """A nested Exa object we check lightly and pass through whole (Exa validates the rest)."""

    model_config = ConfigDict(
        alias_generator=to_camel, populate_by_name=True, extra="allow", defer_build=True
    )


class NoArgs(Args):
    """An operation without arguments."""


Id = Annotated[str, Field(min_length=1, max_length=300)]
"""An Exa id, or the externalId the caller gave the object (Exa accepts either in a path)."""

Limit = Annotated[int, Field(ge=1, le=200, description="page size")]


class Page(Args):
    """Cursor pagination of Exa's list endpoints."""

    cursor: str | None = None
    """nextCursor of the previous page"""
    limit: Limit | None = None
