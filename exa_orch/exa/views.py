"""Exa's objects as JSON views the agents and the workflows' checkpoints share.

`research_view` is an agent run as an agent's research.get shows it (before the answer is cut to
an agent's size), the shape the workflows' run steps had before they kept exa-py's `AgentRun`
(`workflows/runs.py` `seen_from_research_view` reads those).
`item_view` is an item as an agent reads it whole (`items.getAll` with fields ['all'], the
operations' projection) and as the collection workflows have always kept their items in their
checkpoints and results: the one definition both layers use, so a workflow that reads items through
the typed port (`ExaPort.items`) saves and returns what it did when it read them by operation name.
"""

from __future__ import annotations

from typing import Any

from exa_orch.gateway.marks import CREATE_MARK

Json = dict[str, Any]
RAW_HINT = "call again with raw: true for the full object"
ITEM_KEYS = ("id", "source", "sourceId", "websetId")
TIMES = ("createdAt", "updatedAt")


def pick(obj: Json, *keys: str) -> Json:
    """The keys of `obj` that are present and not null."""
    return {k: obj[k] for k in keys if k in obj and obj[k] is not None}


def reference_urls(refs: Any) -> list[str]:
    """The URLs of Exa references ([{url, title, snippet}])."""
    return [str(r["url"]) for r in refs or [] if isinstance(r, dict) and r.get("url")]


def item_view(obj: Json) -> Json:
    """An item (Exa's JSON): properties (page content replaced by its size), evaluations, enrichment
    results (references as their URLs)."""
    out = pick(obj, *ITEM_KEYS)
    props = dict(obj.get("properties") or {})
    content = props.pop("content", None)
    if isinstance(content, str) and content:
        props["contentOmitted"] = {"chars": len(content), "how": RAW_HINT}
    out["properties"] = props
    out["evaluations"] = [
        {**pick(e, "criterion", "satisfied", "reasoning"), "references": reference_urls(e.get("references"))}
        for e in obj.get("evaluations") or []
    ]
    out["enrichments"] = [
        {
            **pick(r, "enrichmentId", "status", "format", "result", "reasoning"),
            "references": reference_urls(r.get("references")),
        }
        for r in obj.get("enrichments") or []
        if isinstance(r, dict)
    ]
    out.update(pick(obj, *TIMES))
    return out


def run_json(run: Any) -> Json:
    """An exa-py AgentRun as camelCase JSON."""
    out: Json = run.model_dump(by_alias=True, exclude_none=True, mode="json")
    return out


def research_view(run: Json) -> Json:
    """The agent run seen as a research task: id, status, output (text, structured, citations)."""
    out: Json = {"researchId": run.get("id"), "status": run.get("status"), "backend": "agent"}
    for key in ("stopReason", "createdAt", "completedAt", "error", "costDollars"):
        if run.get(key) is not None:
            out[key] = run[key]
    output = run.get("output") or {}
    if output:
        out["output"] = {k: output[k] for k in ("text", "structured") if output.get(k) is not None}
        citations = [
            {"field": g.get("field"), "urls": [c.get("url") for c in g.get("citations") or []]}
            for g in output.get("grounding") or []
        ]
        if citations:
            out["output"]["citations"] = citations
    request = run.get("request") or {}
    for key in ("effort", "previousRunId"):
        if request.get(key):
            out[key] = request[key]
    mark = (run.get("metadata") or request.get("metadata") or {}).get(CREATE_MARK)
    if mark:
        out["externalId"] = mark  # the key it was created with (research.create's externalId)
    return out
