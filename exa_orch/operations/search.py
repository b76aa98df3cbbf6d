"""exa.*: search, findSimilar, getContents, answer (Exa's search family, raw camelCase JSON)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Literal

import httpx
from pydantic import AliasChoices, Field, field_validator, model_validator

from exa_orch.errors import InvalidParams, UpstreamTimeout
from exa_orch.gateway.agent_runs import OutputSchema
from exa_orch.operations import projections as pj

from ._http import Rest, raise_for_status, request
from .context import OpContext
from .models import Args
from .registry import Operation
from .urls import WebUrl

Contents = bool | dict[str, Any]


class ContentsOptions(Args):
    """What page contents to return with each result."""

    text: Contents | None = None
    """true, or {maxCharacters, includeHtmlTags}"""
    highlights: Contents | None = None
    summary: bool | dict[str, Any] | None = None
    """true (a default summary), or {query, schema}"""

    @field_validator("summary")
    @classmethod
    def _summary_object(cls, value: bool | dict[str, Any] | None) -> dict[str, Any] | None:
        # Exa's Search spec: `summary` is an object ({} asks for the default summary), never a boolean.
        return {} if value is True else None if value is False else value

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
    output_schema: OutputSchema | None = None


class FindSimilarArgs(Filters):
    url: WebUrl = Field(min_length=1)
    exclude_source_domain: bool | None = None


class GetContentsArgs(ContentsOptions):
    urls: list[WebUrl] | None = None
    """page URLs, http or https (or use ids)"""
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
    output_schema: OutputSchema | None = None
    stream: bool | None = None
    """stream the answer from Exa: each chunk arrives as a progress message (when the call sent a
    progress token); the result is the whole answer either way"""


class _NoStream(Rest):
    """POST without streaming: the answer is one JSON object (search, findSimilar, contents)."""

    def plan(self, args: Args) -> dict[str, Any]:
        out = super().plan(args)
        if out.get("body", {}).get("stream"):
            raise InvalidParams("stream: only exa.answer streams; leave stream out", fields=["stream"])
        return out


def _op(
    name: str, model: type[Args], path: str, summary: str, project: Callable[[pj.Json], pj.Json]
) -> Operation:
    rest = _NoStream("POST", path)
    return Operation(name, model, rest.send, summary, project=pj.one(project), plan=rest.plan)


_ANSWER = Rest("POST", "/answer")
PROGRESS_CHUNK_CHARS = 500  # a progress message carries at most this much of one chunk


async def answer(args: AnswerArgs, ctx: OpContext) -> Any:
    """POST /answer; with `stream: true`, read Exa's server-sent events, send each content chunk as
    a progress message, and return the whole answer with its citations, as the plain call does."""
    plan = _ANSWER.plan(args)
    if not args.stream:
        return await request(ctx, "POST", plan["path"], body=plan.get("body"))
    parts: list[str] = []
    out: dict[str, Any] = {}
    try:
        async with ctx.http.stream("POST", plan["path"], json=plan["body"]) as resp:
            if resp.status_code >= 400:
                await resp.aread()
                raise_for_status(resp)
            async for line in resp.aiter_lines():
                event = _sse_data(line)
                if event is None:
                    continue
                for choice in event.get("choices") or []:
                    chunk = str((choice.get("delta") or {}).get("content") or "")
                    if chunk:
                        parts.append(chunk)
                        await ctx.progress(len(parts), None, chunk[:PROGRESS_CHUNK_CHARS])
                for key in ("citations", "costDollars", "requestId"):
                    if key in event:
                        out[key] = event[key]
    except httpx.TransportError as exc:
        raise UpstreamTimeout(f"the answer stream from Exa broke: {type(exc).__name__}") from exc
    text = "".join(parts)
    value: Any = text
    if args.output_schema is not None:  # a structured answer streams as its JSON text
        try:
            value = json.loads(text)
        except ValueError:
            value = text
    return {"answer": value, **out, "streamed": True, "chunks": len(parts)}


def _sse_data(line: str) -> dict[str, Any] | None:
    """The JSON object of one `data:` line of an event stream; None for anything else."""
    if not line.startswith("data:"):
        return None
    payload = line[5:].strip()
    if not payload or payload == "[DONE]":
        return None
    try:
        event = json.loads(payload)
    except ValueError:
        return None
    return event if isinstance(event, dict) else None


ANSWER_SCHEMA = pj.schema(
    ("citations",),
    ("answer", "requestId", "streamed", "chunks"),
    citations=pj.ANSWER["properties"]["citations"],
)


def _project_answer(result: Any) -> Any:
    out = pj.answer(result)
    if isinstance(result, dict) and result.get("streamed") and isinstance(out, dict):
        out.update({"streamed": True, "chunks": result.get("chunks", 0)})
    return out


OPERATIONS: list[Operation] = [
    _op("exa.search", SearchArgs, "/search", "Search the web (query, type, numResults, domain/date filters, "
        "contents).", pj.search_results),
    _op("exa.findSimilar", FindSimilarArgs, "/findSimilar", "Find pages similar to a URL.", pj.search_results),
    _op("exa.getContents", GetContentsArgs, "/contents", "Get the contents (text, highlights, summary) of URLs.",
        pj.search_results),
    Operation("exa.answer", AnswerArgs, answer, "Answer a question with citations (stream: true sends the "
              "answer's chunks as progress messages).", project=pj.shaped(ANSWER_SCHEMA)(pj.one(_project_answer)), plan=_ANSWER.plan),
]  # fmt: skip
