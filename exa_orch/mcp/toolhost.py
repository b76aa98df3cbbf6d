"""The toolhost profile (seed 000, sections 4.2 and 8.1): four meta-tools over the one registry.

Each tool names its operations as the seed does (`create_webset`, `start_search`, ...); this table
maps every one of them onto a registered operation, so there is one implementation behind both
profiles. The seed's parameter names mostly match the registry's; where they differ (an `id` the
registry calls `websetId`, a cron string where Exa wants `{cron}`), `adapt_params` renames them,
guided by the registered operation's JSON Schema rather than by a second copy of it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

LIST_OPERATIONS = "list_operations"


@dataclass(frozen=True)
class MetaTool:
    """One toolhost tool: its wire name, title, description and seed-op -> registry-op table."""

    name: str
    title: str
    description: str
    operations: dict[str, str]
    long_running: bool = False


TOOLHOST_TOOLS: tuple[MetaTool, ...] = (
    MetaTool(
        "websets-sync",
        "Exa Websets (Synchronous)",
        "Execute synchronous operations on Exa Websets. Use for CRUD operations that return immediately.",
        {
            "create_webset": "websets.create",
            "get_webset": "websets.get",
            "list_websets": "websets.list",
            "update_webset": "websets.update",
            "delete_webset": "websets.delete",
            "get_item": "items.get",
            "list_items": "items.list",
            "delete_item": "items.delete",
            "get_search": "searches.get",
            "get_enrichment": "enrichments.get",
            "get_monitor": "monitors.get",
            "list_monitors": "monitors.list",
            "delete_monitor": "monitors.delete",
            "get_webhook": "webhooks.get",
            "list_webhooks": "webhooks.list",
            "delete_webhook": "webhooks.delete",
            "list_events": "events.list",
        },
    ),
    MetaTool(
        "websets-async",
        "Exa Websets (Asynchronous)",
        "Execute asynchronous operations on Exa Websets. Use for long-running operations like "
        "searches and enrichments.",
        {
            "start_search": "searches.create",
            "check_search": "searches.get",
            "cancel_search": "searches.cancel",
            "start_enrichment": "enrichments.create",
            "check_enrichment": "enrichments.get",
            "cancel_enrichment": "enrichments.cancel",
            "start_monitor": "monitors.create",
            "check_monitor_runs": "monitors.runs.list",
            "stop_monitor": "monitors.delete",
        },
        long_running=True,
    ),
    MetaTool(
        "exa-sync",
        "Exa Search (Synchronous)",
        "Execute synchronous search operations. Use for quick searches and content retrieval.",
        {
            "search": "exa.search",
            "find_similar": "exa.findSimilar",
            "get_contents": "exa.getContents",
            "answer": "exa.answer",
        },
    ),
    MetaTool(
        "exa-async",
        "Exa Search (Asynchronous)",
        "Execute asynchronous research operations. Use for deep research tasks that take longer to complete.",
        {
            "start_research": "research.create",
            "check_research": "research.get",
            "cancel_research": "research.cancel",
            # Exa's answer endpoint is served whole: the MCP result is one message either way.
            "stream_answer": "exa.answer",
        },
        long_running=True,
    ),
)

TOOLS_BY_NAME: dict[str, MetaTool] = {t.name: t for t in TOOLHOST_TOOLS}

# Seed parameter -> registry parameter, applied only when the registry's schema has the target
# and not the source (so a registry that already uses the seed's name is left alone).
_RENAMES: tuple[tuple[str, str], ...] = (
    ("id", "websetId"),
    ("websetId", "id"),
    ("monitorId", "id"),
    ("webhookId", "id"),
    ("researchId", "id"),
    ("researchId", "runId"),
    ("id", "runId"),
    ("itemId", "id"),
    ("searchId", "id"),
    ("enrichmentId", "id"),
    ("eventId", "id"),
    ("question", "query"),
    ("type", "types"),
    ("after", "createdAfter"),
    ("before", "createdBefore"),
)


def tool_input_schema(tool: MetaTool) -> dict[str, Any]:
    """The seed's inputSchema for `tool`: `operation` (enum) and `params` (object)."""
    return {
        "type": "object",
        "properties": {
            "operation": {
                "type": "string",
                "enum": [LIST_OPERATIONS, *tool.operations],
                "description": "The operation to execute. Use 'list_operations' to see all available "
                "operations with their schemas.",
            },
            "params": {
                "type": "object",
                "description": "Operation-specific parameters. Use 'list_operations' to see required "
                "parameters for each operation.",
            },
        },
        "required": ["operation"],
    }


def adapt_params(seed_op: str, params: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    """Rename the seed's parameters to the registry operation's, using its JSON Schema.

    Only renames that make a known-missing field present are applied; anything else passes
    through untouched so the registry's validation reports it by the caller's own name.
    """
    props = set((schema or {}).get("properties", {}))
    if not props:
        return params
    out = dict(params)
    for src, dst in _RENAMES:
        if src in out and src not in props and dst in props and dst not in out:
            out[dst] = out.pop(src)
    if seed_op == "start_monitor":
        cadence = out.get("cadence")
        if isinstance(cadence, str) and "cadence" in props:
            out["cadence"] = {"cron": cadence}
        search = out.pop("searchParams", None)
        if search is not None:
            if "behavior" in props and "behavior" not in out:
                out["behavior"] = {"type": "search", "config": search}
            else:
                out["searchParams"] = search
    return out
