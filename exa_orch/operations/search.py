"""exa.*: search, findSimilar, getContents, answer (Exa's search family, raw camelCase JSON)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import AliasChoices, Field, model_validator

from exa_orch.errors import InvalidParams
from exa_orch.gateway import projections as pj

from ._http import Rest
from .models import Args
from .registry import Operation

Contents = bool | dict[str, Any]


class ContentsOptions(Args):
    """What page contents to return with each result."""

    text: Contents | None = None
    """true, or {maxCharacters, includeHtmlTags}"""
    highlights: Contents | None = None
    summary: dict[str, Any] | None = None
    livecrawl: Literal["never", "fallback", "preferred", "always"] | None = None
    livecrawl_timeout: int | None = None
    max_age_hours: int | None = None
    subpages: int | None = None
    subpage_target: str | list[str] | None = None
    extras: dict[str, Any] | None = None
    context: bool | dict[str, Any] | None = None


class Filters(Args):
    num_results: int | None = Field(default=None, ge=1, le=100)
    include_domains: list[str] | None = None
    exclude_domains: list[str] | None = None
    start_crawl_date: str | None = None
    end_crawl_date: str | None = None
    start_published_date: str | None = None
    """ISO date, e.g. 2025-01-01"""
    end_published_date: str | None = None
    include_text: list[str] | None = None
    exclude_text: list[str] | None = None
    moderation: bool | None = None
    contents: ContentsOptions | None = None
    context: bool | dict[str, Any] | None = None


class SearchArgs(Filters):
    query: str = Field(min_length=1)
    type: Literal["neural", "fast", "auto", "deep", "deep-reasoning", "instant"] | None = None
    category: (
        Literal[
            "company",
            "research paper",
            "news",
            "pdf",
            "github",
            "personal site",
            "people",
            "financial report",
        ]
        | None
    ) = None
    additional_queries: list[str] | None = None
    user_location: str | None = None
    output_schema: dict[str, Any] | None = None


class FindSimilarArgs(Filters):
    url: str = Field(min_length=1)
    exclude_source_domain: bool | None = None


class GetContentsArgs(ContentsOptions):
    urls: list[str] | None = None
    """page URLs (or use ids)"""
    ids: list[str] | None = None
    """result ids from exa.search"""

    @model_validator(mode="after")
    def _some(self) -> GetContentsArgs:
        if not self.urls and not self.ids:
            raise ValueError("urls: give at least one URL (or ids from exa.search)")
        return self


class AnswerArgs(Args):
    query: str = Field(min_length=1, validation_alias=AliasChoices("query", "question"))
    """the question (also accepted as 'question')"""
    text: bool | None = None
    """include the full text of the cited sources"""
    output_schema: dict[str, Any] | None = None
    stream: bool | None = None
    """only false: streamed answers are not offered (the answer comes back as one JSON object)"""


class _NoStream(Rest):
    """POST without streaming: the answer is one JSON object."""

    def plan(self, args: Args) -> dict[str, Any]:
        out = super().plan(args)
        if out.get("body", {}).get("stream"):
            raise InvalidParams(
                "stream: streamed answers are not offered; leave stream out", fields=["stream"]
            )
        return out


def _op(name: str, model: type[Args], path: str, summary: str, project: Any) -> Operation:
    rest = _NoStream("POST", path)
    return Operation(name, model, rest.send, summary, project=lambda r, a: project(r), plan=rest.plan)


OPERATIONS: list[Operation] = [
    _op("exa.search", SearchArgs, "/search", "Search the web (query, type, numResults, domain/date filters, "
        "contents).", pj.search_results),
    _op("exa.findSimilar", FindSimilarArgs, "/findSimilar", "Find pages similar to a URL.", pj.search_results),
    _op("exa.getContents", GetContentsArgs, "/contents", "Get the contents (text, highlights, summary) of URLs.",
        pj.search_results),
    _op("exa.answer", AnswerArgs, "/answer", "Answer a question with citations.", pj.answer),
]  # fmt: skip
