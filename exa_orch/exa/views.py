"""Exa's objects as JSON views the agents and the workflows' checkpoints share.

`item_view` is an item as an agent reads it whole (`items.getAll` with fields ['all'], the
operations' projection) and as the collection workflows have always kept their items in their
checkpoints and results: the one definition both layers use, so a workflow that reads items through
the typed port (`ExaPort.items`) saves and returns what it did when it read them by operation name.
"""

from __future__ import annotations

from typing import Any

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
