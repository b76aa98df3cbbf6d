"""Exa Websets request shapes shared by several operations, and the seed's preserved validations.

The message constants are part of the contract (seed 001, "Preserved Application-Level
Validations"); tests compare them verbatim.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints, field_validator, model_validator

from .models import Args, Loose

MAX_ENRICHMENT_OPTIONS = 150
ENRICHMENT_OPTIONS_REQUIRED = (
    'options: an options array is required when format is \'options\' (1 to 150 items, each {"label": "..."})'
)
ENRICHMENT_OPTIONS_TOO_MANY = "options: at most 150 options are allowed when format is 'options', got {count}"
CRON_FIELDS = (
    "cadence.cron: the cron expression must have exactly 5 fields (minute hour day-of-month month "
    "day-of-week), got {count} in {cron!r}; e.g. '0 9 * * 1' runs Mondays at 09:00"
)
SEARCH_COMMON_ISSUES = (
    "Common issues: 'query' is a non-empty string (at most 5000 characters); 'count' is a number of at "
    "least 1; 'criteria' is a list of at most 5 objects like {\"description\": \"...\"}; 'entity' is an "
    'object like {"type": "company"} (company, person, article, research_paper or custom with a '
    "description); 'behavior' is 'override' or 'append'; the webset id goes in 'websetId'."
)

EnrichmentFormat = Literal["text", "date", "number", "options", "email", "phone", "url"]
EntityType = Literal["company", "person", "article", "research_paper", "custom"]
EventType = Literal[
    "webset.created", "webset.deleted", "webset.paused", "webset.idle", "webset.search.created",
    "webset.search.canceled", "webset.search.completed", "webset.search.updated", "import.created",
    "import.completed", "webset.item.created", "webset.item.enriched", "monitor.created", "monitor.updated",
    "monitor.deleted", "monitor.run.created", "monitor.run.completed", "webset.export.created",
    "webset.export.completed",
]  # fmt: skip
# Exa's metadata: string values of at most 1,000 characters (the Websets spec's maxLength). Exa
# documents no key count; 100 keys (at most ~100 KB, echoed by every read of the object) is exa-orch's.
MAX_METADATA_KEYS = 100
Metadata = Annotated[
    dict[
        Annotated[str, StringConstraints(max_length=1000)], Annotated[str, StringConstraints(max_length=1000)]
    ],
    Field(max_length=MAX_METADATA_KEYS),
]


class Criterion(Args):
    description: str = Field(min_length=1, max_length=1000)


class Entity(Loose):
    """What the webset holds; `custom` takes a description."""

    type: EntityType
    description: str | None = None


class SourceRef(Args):
    source: Literal["import", "webset"]
    id: str = Field(min_length=1)


class Relationship(Args):
    definition: str
    limit: int = Field(ge=1, le=10)


class ScopeRef(SourceRef):
    relationship: Relationship | None = None


MAX_OPTION_CHARS = 1000  # exa-orch's bound (Exa documents none): every item answering it repeats the label


class Option(Args):
    label: str = Field(min_length=1, max_length=MAX_OPTION_CHARS)
    """one answer the enrichment may give (at most 1,000 characters)"""


def check_options(fmt: str | None, options: list[Option] | None, *, required: bool) -> None:
    """Seed 001 preserved validation: options required and at most 150 when format is 'options'."""
    if fmt != "options":
        return
    if not options:
        if required:
            raise ValueError(ENRICHMENT_OPTIONS_REQUIRED)
        return
    if len(options) > MAX_ENRICHMENT_OPTIONS:
        raise ValueError(ENRICHMENT_OPTIONS_TOO_MANY.format(count=len(options)))


class EnrichmentSpec(Args):
    """An enrichment to create (also inside websets.create)."""

    description: str = Field(min_length=1, max_length=5000)
    format: EnrichmentFormat | None = None
    options: list[Option] | None = None
    metadata: Metadata | None = None

    @model_validator(mode="after")
    def _options(self) -> EnrichmentSpec:
        check_options(self.format, self.options, required=True)
        return self


class SearchSpec(Args):
    """The search inside websets.create."""

    query: str = Field(min_length=1, max_length=5000)
    count: int | None = Field(default=None, ge=1)
    entity: Entity | None = None
    criteria: list[Criterion] | None = Field(default=None, min_length=1, max_length=5)
    recall: bool | None = None
    exclude: list[SourceRef] | None = None
    scope: list[ScopeRef] | None = None
    behavior: Literal["override", "append"] | None = None
    metadata: Metadata | None = None


class Cadence(Args):
    cron: str
    """Unix cron with exactly 5 fields; runs at most once a day"""
    timezone: str | None = None
    """IANA timezone, default Etc/UTC"""

    @field_validator("cron")
    @classmethod
    def _five_fields(cls, cron: str) -> str:
        count = len(cron.split())
        if count != 5:
            # Raised with the full message; pydantic's loc then names cadence.cron once more.
            raise ValueError(CRON_FIELDS.format(count=count, cron=cron))
        return cron


class MonitorSearchConfig(Args):
    count: int = Field(ge=1)
    query: str | None = Field(default=None, min_length=2, max_length=10000)
    criteria: list[Criterion] | None = Field(default=None, max_length=5)
    entity: Entity | None = None
    behavior: Literal["override", "append"] | None = None


class MonitorBehavior(Args):
    type: Literal["search"] = "search"
    """Exa requires it; sent as 'search' when left out"""
    config: MonitorSearchConfig

    @model_validator(mode="before")
    @classmethod
    def _send_type(cls, data: Any) -> Any:
        # A default is not sent (args go out exclude_unset), but Exa's MonitorBehavior requires `type`.
        if isinstance(data, dict) and "type" not in data:
            return {**data, "type": "search"}
        return data


def drop_none(d: dict[str, Any]) -> dict[str, Any]:
    """The dict without None values."""
    return {k: v for k, v in d.items() if v is not None}
