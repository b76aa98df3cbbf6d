"""enrichments.suggest and criteria.suggest: operations that need judgement (seed 000 sections 5.4, 6.4).

With a client that offers sampling, the client's model proposes enrichments for a webset (or a
description) or criteria for a search query: through a required tool call when the client declares
`sampling.tools`, else as JSON text. Every proposal is checked against what Exa accepts (formats,
options, counts) before it is returned with the `enrichments.create` / `searches.create` args to
apply it. Without sampling, or when the client's model fails, the answer is the section 6.4
fallback `{data, instruction}`: what the server knows, and what the agent should do with it.
"""

from __future__ import annotations

import json
import re
from typing import Any, get_args

from pydantic import Field, model_validator

from ._http import WEBSETS, raise_for_status, segment
from .context import OpContext, PeerError
from .models import Args, Id
from .projections import schema
from .registry import Operation
from .shapes import EnrichmentFormat

FORMATS: tuple[str, ...] = get_args(EnrichmentFormat)
MAX_TOKENS = 1200

ENRICHMENT_TOOL: dict[str, Any] = {
    "name": "suggest_enrichments",
    "description": "Suggest enrichments (columns to extract for every item) for a webset",
    "inputSchema": {
        "type": "object",
        "properties": {
            "enrichments": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "description": {"type": "string", "description": "what to extract, for one item"},
                        "format": {"type": "string", "enum": list(FORMATS)},
                        "options": {
                            "type": "array",
                            "items": {"type": "string"},
                            "description": "the labels, only when format is options",
                        },
                    },
                    "required": ["description", "format"],
                },
            }
        },
        "required": ["enrichments"],
    },
}

CRITERIA_TOOL: dict[str, Any] = {
    "name": "suggest_criteria",
    "description": "Suggest yes/no criteria that every result of a webset search must meet",
    "inputSchema": {
        "type": "object",
        "properties": {
            "criteria": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {"description": {"type": "string"}},
                    "required": ["description"],
                },
            }
        },
        "required": ["criteria"],
    },
}

SYSTEM = (
    "You help configure Exa Websets. Answer only through the tool when one is given; otherwise answer "
    "with one JSON object and nothing else."
)


class SuggestEnrichments(Args):
    description: str | None = Field(default=None, min_length=1, max_length=5000)
    """what the webset collects (its search query); or give websetId"""
    webset_id: Id | None = None
    """read the description from this webset's searches"""
    count: int = Field(default=5, ge=1, le=10)
    """how many enrichments to suggest"""

    @model_validator(mode="after")
    def _one_source(self) -> SuggestEnrichments:
        if self.description is None and self.webset_id is None:
            raise ValueError("give 'description' (what the webset collects) or 'websetId'")
        return self


class SuggestCriteria(Args):
    query: str = Field(min_length=1, max_length=5000)
    """the search query the criteria should sharpen"""
    count: int = Field(default=3, ge=1, le=5)
    """how many criteria to suggest (Exa takes 1 to 5)"""


def _parse_json(text: str) -> Any:
    """The first JSON object in a model's text answer (it may wrap it in prose or a code fence)."""
    match = re.search(r"\{.*\}", text, re.DOTALL)
    if match is None:
        raise PeerError("the client's model answered without a JSON object")
    try:
        return json.loads(match.group(0))
    except ValueError as exc:
        raise PeerError(f"the client's model answered with invalid JSON: {exc}") from None


def _label(option: Any) -> str:
    """An option's label: a model answers with a plain string or with Exa's own `{"label": ...}`
    (never the repr of that object, "{'label': 'Seed'}")."""
    if isinstance(option, dict):
        option = option.get("label", "")
    return "" if option is None or isinstance(option, (dict, list)) else str(option).strip()


def _clean_enrichments(raw: Any, count: int) -> list[dict[str, Any]]:
    items = raw.get("enrichments") if isinstance(raw, dict) else None
    if not isinstance(items, list):
        raise PeerError("the client's model did not return an 'enrichments' list")
    out: list[dict[str, Any]] = []
    for item in items:
        if not isinstance(item, dict) or not str(item.get("description", "")).strip():
            continue
        fmt = str(item.get("format", "text")).lower()
        spec: dict[str, Any] = {"description": str(item["description"]).strip()[:1000], "format": fmt}
        if fmt not in FORMATS:
            spec["format"] = "text"
        if spec["format"] == "options":
            labels = [label for o in item.get("options") or [] if (label := _label(o))][:150]
            if not labels:  # Exa refuses options without labels: keep the idea as text
                spec["format"] = "text"
            else:
                spec["options"] = [{"label": label[:200]} for label in labels]
        out.append(spec)
        if len(out) == count:
            break
    if not out:
        raise PeerError("the client's model suggested no usable enrichment")
    return out


def _clean_criteria(raw: Any, count: int) -> list[dict[str, str]]:
    items = raw.get("criteria") if isinstance(raw, dict) else None
    if not isinstance(items, list):
        raise PeerError("the client's model did not return a 'criteria' list")
    out = [
        {"description": str(c["description"]).strip()[:1000]}
        for c in items
        if isinstance(c, dict) and str(c.get("description", "")).strip()
    ][:count]
    if not out:
        raise PeerError("the client's model suggested no usable criterion")
    return out


async def _ask(ctx: OpContext, prompt: str, tool: dict[str, Any]) -> tuple[Any, str]:
    """The model's structured answer and how it was obtained ("sampling-tools" or "sampling")."""
    peer = ctx.peer
    assert peer is not None and peer.sampling
    if peer.sampling_tools:
        return await peer.sample(
            system=SYSTEM, prompt=prompt, max_tokens=MAX_TOKENS, tool=tool
        ), "sampling-tools"
    schema = json.dumps(tool["inputSchema"], separators=(",", ":"))
    text = await peer.sample(
        system=SYSTEM,
        prompt=f"{prompt}\nAnswer with one JSON object matching this schema: {schema}",
        max_tokens=MAX_TOKENS,
    )
    return _parse_json(str(text)), "sampling"


async def _webset_description(args: SuggestEnrichments, ctx: OpContext) -> dict[str, Any]:
    if args.webset_id is None:
        return {"description": args.description}
    response = await ctx.http.get(f"{WEBSETS}/websets/{segment(args.webset_id)}")
    raise_for_status(response)  # a typed NotFoundError for an unknown webset
    webset = response.json()
    searches = webset.get("searches") or []
    known = {
        "websetId": webset.get("id"),
        "description": args.description or "; ".join(str(s.get("query")) for s in searches if s.get("query")),
        "criteria": [
            c.get("description") for s in searches for c in s.get("criteria") or [] if isinstance(c, dict)
        ],
        "existingEnrichments": [e.get("description") for e in webset.get("enrichments") or []],
    }
    return {k: v for k, v in known.items() if v}


async def suggest_enrichments(args: SuggestEnrichments, ctx: OpContext) -> dict[str, Any]:
    """Enrichments for a webset, by the client's model; the {data, instruction} fallback without sampling."""
    data = await _webset_description(args, ctx)
    webset_id = data.get("websetId") or args.webset_id
    note: str | None = None
    if ctx.peer is not None and ctx.peer.sampling:
        prompt = (
            f"Suggest {args.count} enrichments for a webset that collects: {data.get('description')!r}."
            + (f" Its criteria: {data['criteria']}." if data.get("criteria") else "")
            + (
                f" It already has: {data['existingEnrichments']}; suggest others."
                if data.get("existingEnrichments")
                else ""
            )
            + f" Each has a description and a format, one of {', '.join(FORMATS)}; options need labels."
        )
        try:
            raw, via = await _ask(ctx, prompt, ENRICHMENT_TOOL)
            suggestions = _clean_enrichments(raw, args.count)
        except PeerError as exc:
            note = f"sampling failed ({exc}); do it yourself"
        else:
            out: dict[str, Any] = {"suggestions": suggestions, "source": via}
            if webset_id:
                out["applyWith"] = [
                    {"operation": "enrichments.create", "args": {"websetId": webset_id, **s}}
                    for s in suggestions
                ]
            return out
    return {
        "data": {**data, "count": args.count, "formats": list(FORMATS)},
        "instruction": (
            f"Suggest {args.count} enrichments for this webset: for each, a description of what to extract "
            "from every item and a format (options need labels). Then add each with enrichments.create "
            "{websetId, description, format, options?}. The server could not do this itself: "
            + (note or "the client does not offer sampling.")
        ),
    }


async def suggest_criteria(args: SuggestCriteria, ctx: OpContext) -> dict[str, Any]:
    """Criteria for a search query, by the client's model; the {data, instruction} fallback without sampling."""
    note: str | None = None
    if ctx.peer is not None and ctx.peer.sampling:
        prompt = (
            f"Suggest {args.count} criteria for the webset search {args.query!r}: each a short yes/no "
            "condition a result must meet, checkable from a web page."
        )
        try:
            raw, via = await _ask(ctx, prompt, CRITERIA_TOOL)
            criteria = _clean_criteria(raw, args.count)
        except PeerError as exc:
            note = f"sampling failed ({exc}); do it yourself"
        else:
            return {
                "suggestions": criteria,
                "source": via,
                "applyWith": {
                    "operation": "searches.create",
                    "args": {"query": args.query, "criteria": criteria},
                },
            }
    return {
        "data": {"query": args.query, "count": args.count},
        "instruction": (
            f"Write {args.count} criteria for this query: short yes/no conditions every result must meet, "
            "checkable from a web page. Pass them as criteria [{description}] to searches.create or "
            "websets.create. The server could not do this itself: "
            + (note or "the client does not offer sampling.")
        ),
    }


# Either the model's suggestions (with the calls that apply them) or the section 6.4 fallback.
_STR = {"type": "string"}
SUGGESTED = {
    "type": "object",
    "oneOf": [
        schema(("suggestions", "source"), ("applyWith",), suggestions={"type": "array"}, source=_STR),
        schema(("data", "instruction"), data={"type": "object"}, instruction=_STR),
    ],
}

OPERATIONS: list[Operation] = [
    Operation("enrichments.suggest", SuggestEnrichments, suggest_enrichments, "Suggest enrichments for a webset "
              "(or a description) with the client's model; without sampling, the data and what to do with it.",
              output=SUGGESTED),
    Operation("criteria.suggest", SuggestCriteria, suggest_criteria, "Suggest criteria for a search query with "
              "the client's model; without sampling, the data and what to do with it.", output=SUGGESTED),
]  # fmt: skip
