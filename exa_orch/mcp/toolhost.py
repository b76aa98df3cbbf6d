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

from exa_orch.exa.statuses import JOB_TERMINAL as _DONE

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
            # Judgement calls (seed 000 section 5.4): the client's model when it offers sampling.
            "suggest_enrichments": "enrichments.suggest",
            "suggest_criteria": "criteria.suggest",
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
            # exa.answer with stream: true: chunks as progress messages, the whole answer as result.
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
    if seed_op == "stream_answer" and "stream" in props:
        out.setdefault("stream", True)
    if seed_op in ("search", "find_similar"):
        # The seed groups the domain/date/text filters in one `filters` object; Exa takes them flat.
        filters = out.pop("filters", None)
        if isinstance(filters, dict):
            for key, value in filters.items():
                out.setdefault(key, value)
        elif filters is not None:
            out["filters"] = filters  # not an object: left for validation to name
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


# -- seed 000 section 6.3: the start/check/cancel shapes of the async tools ----------------------


@dataclass(frozen=True)
class AsyncJob:
    """One async job family of the toolhost: its check and cancel operations, how to name the job
    in them (from the start call's params and the object), and its terminal statuses."""

    noun: str
    check: str
    cancel: str
    id_param: str
    parent: str | None  # the webset id param, for jobs that live in a webset
    terminal: frozenset[str]


ASYNC_JOBS: dict[str, AsyncJob] = {
    "search": AsyncJob("Search", "check_search", "cancel_search", "searchId", "websetId", _DONE),
    "enrichment": AsyncJob(
        "Enrichment", "check_enrichment", "cancel_enrichment", "enrichmentId", "websetId", _DONE
    ),
    "research": AsyncJob("Research", "check_research", "cancel_research", "researchId", None, _DONE),
    "monitor": AsyncJob("Monitor", "check_monitor_runs", "stop_monitor", "monitorId", None, frozenset()),
}
_JOB_OF: dict[str, tuple[str, str]] = {
    "start_search": ("search", "start"),
    "check_search": ("search", "check"),
    "cancel_search": ("search", "cancel"),
    "start_enrichment": ("enrichment", "start"),
    "check_enrichment": ("enrichment", "check"),
    "cancel_enrichment": ("enrichment", "cancel"),
    "start_research": ("research", "start"),
    "check_research": ("research", "check"),
    "cancel_research": ("research", "cancel"),
    "start_monitor": ("monitor", "start"),
    "stop_monitor": ("monitor", "cancel"),
}


_REF = {"type": "object", "properties": {"operation": {"type": "string"}, "params": {"type": "object"}}}
# What shape_async_result adds, by phase (each only when the answer names the job's object).
_ASYNC_KEYS: dict[str, dict[str, Any]] = {
    "start": {
        "operationId": {"type": "string"},
        "message": {"type": "string"},
        "checkWith": _REF,
        "cancelWith": _REF,
    },
    "check": {"operationId": {"type": "string"}, "isComplete": {"type": "boolean"}},
    "cancel": {"operationId": {"type": "string"}, "message": {"type": "string"}},
}


def output_schema(seed_op: str, schema: dict[str, Any] | None) -> dict[str, Any] | None:
    """The outputSchema of a toolhost operation: its registry operation's (`schema`), with the keys
    `shape_async_result` adds to a start_*/check_*/cancel_* answer."""
    which = _JOB_OF.get(seed_op)
    if schema is None or which is None or not isinstance(schema.get("properties"), dict):
        return schema
    return {**schema, "properties": {**_ASYNC_KEYS[which[1]], **schema["properties"]}}


def _object_id(job: AsyncJob, obj: dict[str, Any]) -> Any:
    return obj.get(job.id_param) or obj.get("id")


def shape_async_result(seed_op: str, params: dict[str, Any], result: Any) -> Any:
    """Add the section 6.3 fields to a start_*/check_*/cancel_* result (other results pass as is).

    start_*: `operationId`, `message`, `checkWith` and `cancelWith` ({operation, params} to call
    next); check_*: `operationId` and `isComplete`; cancel_*: `operationId` and `message`. The Exa
    object's own fields stay beside them.
    """
    which = _JOB_OF.get(seed_op)
    if which is None or not isinstance(result, dict):
        return result
    kind, phase = which
    job = ASYNC_JOBS[kind]
    op_id = _object_id(job, result)
    if op_id is None:  # a preview, or an answer without the object: nothing to point at
        return result
    ref: dict[str, Any] = {}
    parent = params.get(job.parent) or params.get("id") or result.get(job.parent) if job.parent else None
    if job.parent and parent:
        ref[job.parent] = parent
    ref[job.id_param] = op_id
    status = result.get("status")
    out: dict[str, Any] = {"operationId": op_id, "status": status}
    if phase == "start":
        out["message"] = f"{job.noun} started. Use {job.check} to monitor progress."
        out["checkWith"] = {"operation": job.check, "params": ref}
        out["cancelWith"] = {"operation": job.cancel, "params": ref}
    elif phase == "check":
        out["isComplete"] = str(status or "").lower() in job.terminal
    else:
        out["message"] = f"{job.noun} {'stopped' if kind == 'monitor' else 'cancelled'}."
    return {**out, **{k: v for k, v in result.items() if k not in out}}
