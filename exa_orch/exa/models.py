"""The project's own typed models of Exa's answers where exa-py has no pydantic model.

exa-py gives /contents as dataclasses (`SearchResponse[Result]`) built by its sync client; the port
reads the JSON itself, so its answer is typed here. Each model keeps every field Exa sent
(`extra="allow"`): `model_dump()` gives Exa's JSON back as it came.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

_AS_SENT = ConfigDict(extra="allow", frozen=True, defer_build=True)


class ContentResult(BaseModel):
    """One page /contents read: its id (the URL asked for), its url, and its text when asked for."""

    model_config = _AS_SENT
    id: str | None = None
    url: str | None = None
    text: str | None = None


class ContentError(BaseModel):
    """Why a page could not be read: Exa's tag (CRAWL_NOT_FOUND, CRAWL_TIMEOUT, ...)."""

    model_config = _AS_SENT
    tag: str | None = None


class ContentStatus(BaseModel):
    """How reading one URL went: `status` success or error (with `error`)."""

    model_config = _AS_SENT
    id: str | None = None
    status: str | None = None
    error: ContentError | None = None


class Contents(BaseModel):
    """A /contents answer: the pages read (`results`) and each URL's outcome (`statuses`)."""

    model_config = _AS_SENT
    results: list[ContentResult] = []
    statuses: list[ContentStatus] = []
