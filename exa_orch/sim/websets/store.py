"""The Websets simulator's state: records, id/externalId lookup, events, pagination, errors.

Contract:
- One `WebsetsStore` per simulator (kept in `ctx.extras["websets"]`). Records are plain mutable
  dataclasses; times are simulated seconds (`ctx.clock.now()`), turned into ISO strings only when
  an object is serialized.
- Every object kind has its own id prefix and its own externalId index: any `{id}` / `{webset}`
  path segment may carry the id or the externalId (`resolve`). A second object of the same kind
  with the same externalId is refused with 409 (Exa documents it for websets; the simulator holds
  every kind to it so that retried creates never duplicate a side effect).
- `fail(status, message, tag)` raises the app's `SimHTTPError`; routes never build error bodies.
- Nothing here advances time: `engine.advance` does, before each request reads state.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any, NoReturn

from exa_orch.sim.context import SimContext
from exa_orch.sim.faults import SimHTTPError
from exa_orch.sim.world import Entity

EVENT_TYPES: tuple[str, ...] = (
    "webset.created", "webset.deleted", "webset.paused", "webset.idle", "webset.search.created",
    "webset.search.canceled", "webset.search.completed", "webset.search.updated", "import.created",
    "import.completed", "webset.item.created", "webset.item.enriched", "monitor.created", "monitor.updated",
    "monitor.deleted", "monitor.run.created", "monitor.run.completed", "webset.export.created",
    "webset.export.completed",
)  # fmt: skip
FORMATS: tuple[str, ...] = ("text", "date", "number", "options", "email", "phone", "url")
ENTITY_TYPES: tuple[str, ...] = ("company", "person", "article", "research_paper", "custom")


def fail(status: int, message: str, tag: str) -> NoReturn:
    """Answer the current request with Exa's error body."""
    raise SimHTTPError(status, message, tag)


def not_found(kind: str, key: str) -> NoReturn:
    fail(404, f"{kind} {key!r} not found (use its id or its externalId)", "NOT_FOUND")


@dataclass
class Candidate:
    """One entity a search looks at: when, whether it is kept, and how its criteria were judged."""

    at: float  # simulated second at which it has been analyzed
    entity: Entity
    accepted: bool
    evaluations: list[dict[str, Any]]
    # Pages looked at and dropped before this one (off-topic, wrong kind): counted in
    # `progress.analyzed` only. A real count-5 search analyzed about 4x what it kept.
    screened: int = 0


@dataclass
class SearchRec:
    id: str
    webset_id: str
    query: str
    entity: dict[str, Any] | None
    criteria: list[str]
    count: int
    behavior: str
    exclude: list[dict[str, Any]]
    scope: list[dict[str, Any]]
    recall: bool
    metadata: dict[str, str]
    created_at: float
    plan: list[Candidate]
    done_at: float  # when the last candidate has been analyzed
    start_at: float = 0.0  # "created" until then, "running" after
    external_id: str | None = None
    updated_at: float = 0.0
    canceled_at: float | None = None
    canceled_reason: str | None = None
    materialized: int = 0  # candidates of `plan` already turned into items / counted
    completed_emitted: bool = False
    monitor_run_id: str | None = None
    settle: float = 0.0  # simulated seconds its webset stays running after it completes (at plan time)


@dataclass
class ItemRec:
    id: str
    webset_id: str
    source: str  # "search" | "import"
    source_id: str
    entity: Entity
    entity_type: str
    evaluations: list[dict[str, Any]]
    created_at: float
    description: str
    enriched: set[str] = field(default_factory=set)  # enrichment ids whose webset.item.enriched was sent


@dataclass
class EnrichmentRec:
    id: str
    webset_id: str
    description: str
    format: str
    options: list[dict[str, str]] | None
    metadata: dict[str, str]
    created_at: float
    title: str | None = None
    external_id: str | None = None
    updated_at: float = 0.0
    canceled_at: float | None = None
    completed_at: float | None = None


@dataclass
class ImportRec:
    id: str
    format: str
    entity: dict[str, Any]
    title: str
    count: int
    size: int
    identifier: int | None
    metadata: dict[str, str]
    created_at: float
    upload_token: str
    external_id: str | None = None
    updated_at: float = 0.0
    uploaded_at: float | None = None
    rows: list[Entity] = field(default_factory=list)
    done_at: float | None = None  # processing finishes at this simulated second
    failed_reason: str | None = None
    failed_message: str | None = None
    completed_emitted: bool = False


@dataclass
class WebsetRec:
    id: str
    title: str | None
    metadata: dict[str, str]
    created_at: float
    external_id: str | None = None
    updated_at: float = 0.0
    search_ids: list[str] = field(default_factory=list)
    enrichment_ids: list[str] = field(default_factory=list)
    monitor_ids: list[str] = field(default_factory=list)
    imports: list[tuple[str, float]] = field(default_factory=list)  # (import id, attached at)
    imports_done: set[str] = field(default_factory=set)  # attached imports whose items were added
    excludes: list[dict[str, Any]] = field(default_factory=list)
    items: list[ItemRec] = field(default_factory=list)
    busy: bool = False  # running since the last webset.idle
    deleted: bool = False


@dataclass
class RunRec:
    id: str
    monitor_id: str
    created_at: float
    type: str = "search"
    search_id: str | None = None
    completed_at: float | None = None
    canceled_at: float | None = None
    completed_emitted: bool = False


@dataclass
class MonitorRec:
    id: str
    webset_id: str
    cadence: dict[str, Any]
    behavior: dict[str, Any]
    metadata: dict[str, str]
    created_at: float
    next_run_at: float | None
    external_id: str | None = None
    status: str = "enabled"
    updated_at: float = 0.0
    run_ids: list[str] = field(default_factory=list)


@dataclass
class WebhookRec:
    id: str
    url: str
    events: list[str]
    metadata: dict[str, str]
    secret: str
    created_at: float
    external_id: str | None = None
    status: str = "active"
    updated_at: float = 0.0


@dataclass
class EventRec:
    id: str
    type: str
    at: float
    data: dict[str, Any]


class WebsetsStore:
    """Every Websets object of one simulator, with lookups by id or externalId."""

    def __init__(self, ctx: SimContext) -> None:
        self.ctx = ctx
        self.websets: dict[str, WebsetRec] = {}
        self.searches: dict[str, SearchRec] = {}
        self.enrichments: dict[str, EnrichmentRec] = {}
        self.imports: dict[str, ImportRec] = {}
        self.monitors: dict[str, MonitorRec] = {}
        self.runs: dict[str, RunRec] = {}
        self.webhooks: dict[str, WebhookRec] = {}
        self.events: list[EventRec] = []
        self.events_by_id: dict[str, EventRec] = {}
        self.attempts: list[dict[str, Any]] = []
        self.outbox: list[tuple[WebhookRec, EventRec]] = []  # loopback deliveries not sent yet
        self._external: dict[tuple[str, str], str] = {}
        self._tables: dict[str, dict[str, Any]] = {
            "webset": self.websets, "search": self.searches, "enrichment": self.enrichments,
            "import": self.imports, "monitor": self.monitors, "webhook": self.webhooks,
        }  # fmt: skip

    # ---- ids -----------------------------------------------------------------------------------
    def new_id(self, prefix: str) -> str:
        return self.ctx.ids.new(prefix)

    def derived_id(self, prefix: str, *parts: object) -> str:
        """An id that depends only on the seed and `parts` (not on request timing)."""
        text = "\x1f".join(str(p) for p in (self.ctx.config.seed, prefix, *parts))
        return f"{prefix}_{hashlib.sha256(text.encode()).hexdigest()[:24]}"

    def claim_external_id(self, kind: str, external_id: Any) -> str | None:
        """Check a create's externalId (None when absent); 409 if `kind` already has it."""
        if external_id is None:
            return None
        if not isinstance(external_id, str) or not external_id or len(external_id) > 300:
            fail(400, "externalId must be a string of 1 to 300 characters", "INVALID_REQUEST_BODY")
        if (kind, external_id) in self._external:
            fail(409, f"A {kind} with externalId {external_id!r} already exists "
                 f"(id {self._external[(kind, external_id)]}); fetch it by externalId instead of creating "
                 "it again", "CONFLICT")  # fmt: skip
        return external_id

    def register(self, kind: str, obj_id: str, external_id: str | None) -> None:
        if external_id is not None:
            self._external[(kind, external_id)] = obj_id

    def release(self, kind: str, external_id: str | None) -> None:
        if external_id is not None:
            self._external.pop((kind, external_id), None)

    def resolve(self, kind: str, key: str) -> Any:
        """The live object of `kind` whose id or externalId is `key`, else 404."""
        table = self._tables[kind]
        obj = table.get(key)
        if obj is None and (kind, key) in self._external:
            obj = table.get(self._external[(kind, key)])
        if obj is None or getattr(obj, "deleted", False):
            not_found(kind, key)
        return obj

    def webset(self, key: str) -> WebsetRec:
        rec: WebsetRec = self.resolve("webset", key)
        return rec

    def child(self, kind: str, webset: WebsetRec, key: str) -> Any:
        """An object of `kind` that belongs to `webset`, by id or externalId, else 404."""
        obj = self.resolve(kind, key)
        if getattr(obj, "webset_id", None) != webset.id:
            not_found(kind, key)
        return obj


def paginate(
    rows: list[Any], params: dict[str, str], *, default: int, maximum: int, key: Any = None
) -> tuple[list[Any], bool, str | None]:
    """One page of `rows` after `cursor`: (page, hasMore, nextCursor); 400 on a bad limit or cursor.

    The cursor is the id of the first row of the next page (`key(row)`, default `row.id`).
    """
    ident = key or (lambda row: row.id)
    raw_limit = params.get("limit")
    limit = default
    if raw_limit is not None:
        try:
            limit = int(float(raw_limit))
        except ValueError:
            fail(400, f"limit must be a number between 1 and {maximum}, got {raw_limit!r}", "INVALID_REQUEST")
        if not 1 <= limit <= maximum:
            fail(400, f"limit must be between 1 and {maximum}, got {limit}", "INVALID_REQUEST")
    start = 0
    cursor = params.get("cursor")
    if cursor is not None:
        ids = [ident(r) for r in rows]
        if cursor not in ids:
            fail(400, f"cursor {cursor!r} is not valid for this list (pass the nextCursor you were given)",
                 "INVALID_CURSOR")  # fmt: skip
        start = ids.index(cursor)
    page = rows[start : start + limit]
    more = start + limit < len(rows)
    return page, more, ident(rows[start + limit]) if more else None
