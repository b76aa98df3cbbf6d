"""Exa's Agent API run request, as exa-py 2.28 sends it, and the rules checked before sending one.

`RunOptions` is the part of a run request a caller chooses besides its query and output schema
(effort, budget, input rows and exclusions, previousRunId, dataSources, systemPrompt), shared by
`research.create` (operations) and `research.deep` (workflows). Its validator applies Exa's
documented rules (sources in data-design/exa-api-notes.md) so a bad request is refused locally,
as INVALID_PARAMS naming the field, before anything is sent:
- effort is one of exa-py's `AgentEffort` values;
- `budget` only with effort `auto` or `ultra` (the metered efforts exa-py documents it for; an
  omitted effort is `auto`), `budget.maxCostDollars` from 1 to 100, `budget.maxDurationSeconds`
  from 300 to 10,800 and only with `ultra`;
- previousRunId is 1-200 characters of `[A-Za-z0-9_.:-]` (Exa's AgentRunId).
exa-orch's own bounds where Exa documents none (data-design/exa-api-notes.md): `input.data` and
`input.exclusion` at most `MAX_INPUT_ROWS` records each, the whole `input` at most
`MAX_INPUT_CHARS` characters as JSON (what one MCP message, 1 MiB, can carry), `systemPrompt` at most
`MAX_PROMPT_CHARS` (as `instructions`). `OutputSchema` is an output schema's type wherever a caller
gives one (research.create, research.deep, verifiedCollection's researchSchema, exa.search,
exa.answer): a JSON object of at most `MAX_SCHEMA_CHARS` characters as JSON.

`user_identifier(principal)` is what a run carries as `userIdentifier`: a stable hash of the
principal's name (never the name, never a token), in Exa's alphabet (1-64 of `[A-Za-z0-9_-]`).
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Annotated, Any, Final, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError, model_validator
from pydantic.alias_generators import to_camel
from pydantic_core import InitErrorDetails, PydanticCustomError

from exa_orch.attrdocs import AttributeDocs

Effort = Literal["minimal", "low", "medium", "high", "xhigh", "auto", "ultra", "max"]
EFFORTS: Final = ("minimal", "low", "medium", "high", "xhigh", "auto", "ultra", "max")
FIXED_EFFORTS: Final = frozenset({"minimal", "low", "medium", "high", "xhigh"})
BUDGET_EFFORTS: Final = frozenset({"auto", "ultra"})  # exa-py 2.28 AgentBudget: "Only for auto and ultra"
DURATION_EFFORTS: Final = frozenset({"ultra"})  # maxDurationSeconds: "Only accepted for ultra"
STOPPABLE_EFFORTS: Final = frozenset({"ultra"})  # exa-py 2.28 runs.stop: "Only supported for ultra"
DEFAULT_EFFORT: Final = "auto"  # what Exa runs when a create names no effort
MAX_COST_RANGE: Final = (1.0, 100.0)  # budget.maxCostDollars, dollars
MAX_DURATION_RANGE: Final = (300, 10_800)  # budget.maxDurationSeconds, seconds
RUN_ID_PATTERN: Final = r"^[A-Za-z0-9_.:-]+$"
MAX_INPUT_ROWS: Final = 2_000  # input.data rows, input.exclusion records (adversarial sends 2 x 1,000)
MAX_INPUT_CHARS: Final = 1_000_000  # the `input` object as compact JSON
MAX_PROMPT_CHARS: Final = 20_000  # systemPrompt, as research.create's instructions
# An outputSchema as compact JSON. Exa documents no bound; a schema names an answer's fields (the
# workflows' own are under 2,000 characters), so 100,000 leaves room for hundreds of described
# fields, while a multi-megabyte one (stored with its task, sent with every run, echoed by
# tasks.get full: true) is refused before it is stored: 2.4 MB made tasks.get take 4.4 s.
MAX_SCHEMA_CHARS: Final = 100_000
USER_IDENTIFIER_PATTERN: Final = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
# The retired Research API's models (seed 002), kept as arguments and mapped to an effort.
MODEL_TO_EFFORT: Final[dict[str, str]] = {
    "exa-research-fast": "low",
    "exa-research": "medium",
    "exa-research-pro": "high",
}
DEFAULT_MODEL: Final = "exa-research"  # what a research call without model or effort runs as

_CONFIG = ConfigDict(
    alias_generator=to_camel,
    populate_by_name=True,
    extra="forbid",
    defer_build=True,
)


class RunBudget(AttributeDocs, BaseModel):
    """A run's spend and time ceiling (metered efforts only)."""

    model_config = _CONFIG

    max_cost_dollars: float | None = Field(default=None, ge=MAX_COST_RANGE[0], le=MAX_COST_RANGE[1])
    """dollars the run may spend, 1 to 100 (effort auto or ultra; Exa's default is 5 for auto, 20 for
    ultra)"""
    max_duration_seconds: int | None = Field(default=None, ge=MAX_DURATION_RANGE[0], le=MAX_DURATION_RANGE[1])
    """soft wall-clock ceiling, 300 to 10800 seconds (effort ultra only)"""


class RunInput(AttributeDocs, BaseModel):
    """Records the run works on and records or entities its answer must leave out."""

    model_config = _CONFIG

    data: list[dict[str, Any]] | None = Field(default=None, min_length=1, max_length=MAX_INPUT_ROWS)
    """rows to process (e.g. [{"name": "Acme", "website": "acme.com"}]), at most 2,000; the answer
    returns them with the outputSchema's fields filled"""
    exclusion: list[dict[str, Any]] | None = Field(default=None, min_length=1, max_length=MAX_INPUT_ROWS)
    """records or entities to leave out of the answer (e.g. [{"website": "globex.com"}]), at most
    2,000"""

    @model_validator(mode="after")
    def _bounded(self) -> RunInput:
        size = input_chars(self.model_dump(by_alias=True, exclude_none=True, mode="json"))
        if size > MAX_INPUT_CHARS:
            raise ValueError(
                f"input is {size:,} characters as JSON, over exa-orch's {MAX_INPUT_CHARS:,}: send fewer "
                "or shorter rows per run (a follow-up run continues one by previousRunId)"
            )
        return self


class DataSource(AttributeDocs, BaseModel):
    """An Exa Connect data provider to enable for the run."""

    model_config = ConfigDict(
        alias_generator=to_camel,
        populate_by_name=True,
        extra="allow",  # a provider's own options pass through (exa-py's AgentDataSource allows them)
        defer_build=True,
    )

    provider: str = Field(min_length=1, max_length=200)
    """the provider's identifier (see exa.ai/docs/agent/connect)"""


class RunOptions(AttributeDocs, BaseModel):
    """What a caller may choose of an Agent API run besides its query and output schema."""

    model_config = _CONFIG

    effort: Effort | None = None
    """agent effort: minimal, low, medium, high, xhigh (a fixed price a run), auto, ultra (metered,
    capped by budget), max; wins over `model`"""
    budget: RunBudget | None = None
    """{maxCostDollars 1-100, maxDurationSeconds 300-10800}: only with effort auto or ultra (duration:
    ultra only)"""
    input: RunInput | None = None
    """{data: rows to process, exclusion: records to leave out}"""
    previous_run_id: str | None = Field(default=None, min_length=1, max_length=200, pattern=RUN_ID_PATTERN)
    """a completed run's id (researchId) to continue from: a follow-up that knows the earlier answer
    and does not repeat its rows"""
    data_sources: list[DataSource] | None = Field(default=None, min_length=1)
    """Exa Connect providers to enable, e.g. [{"provider": "..."}]"""
    system_prompt: str | None = Field(default=None, min_length=1, max_length=MAX_PROMPT_CHARS)
    """extra guidance for the agent (source preferences, what to avoid), at most 20,000 characters"""

    def run_effort(self) -> str:
        """The effort the run is sent with: `effort`, else the `model` a subclass maps, else Exa's default."""
        if self.effort is not None:
            return self.effort
        mapped = self.mapped_effort()
        return mapped if mapped is not None else DEFAULT_EFFORT

    def mapped_effort(self) -> str | None:
        """The effort a subclass's legacy `model` argument names (None: no such argument)."""
        return None

    @model_validator(mode="after")
    def _exa_rules(self) -> RunOptions:
        check_budget(self.run_effort(), self.budget)
        return self

    def run_fields(self) -> dict[str, Any]:
        """The run request's fields these options set, camelCase (effort always)."""
        out: dict[str, Any] = {"effort": self.run_effort()}
        for name in ("budget", "input", "previous_run_id", "data_sources", "system_prompt"):
            value = getattr(self, name)
            if value is None:
                continue
            if isinstance(value, BaseModel):
                value = value.model_dump(by_alias=True, exclude_none=True, mode="json")
            elif isinstance(value, list):
                value = [v.model_dump(by_alias=True, exclude_none=True, mode="json") for v in value]
            out[to_camel(name)] = value
        return out


def input_chars(value: Any) -> int:
    """Characters of `value` as compact JSON (how `MAX_INPUT_CHARS` counts a run's input)."""
    return len(json.dumps(value, separators=(",", ":"), ensure_ascii=False))


def _bounded_schema(schema: dict[str, Any]) -> dict[str, Any]:
    try:
        size = input_chars(schema)
    except RecursionError:
        raise ValueError("the schema is nested too deeply to be a JSON Schema of an answer") from None
    if size > MAX_SCHEMA_CHARS:
        raise ValueError(
            f"the schema is {size:,} characters as JSON, over exa-orch's {MAX_SCHEMA_CHARS:,}: describe "
            "the answer's fields more briefly (or ask for fewer fields per run)"
        )
    return schema


OutputSchema = Annotated[dict[str, Any], AfterValidator(_bounded_schema)]
"""A caller's JSON Schema of an answer: an object of at most MAX_SCHEMA_CHARS characters as JSON."""


def refused(loc: tuple[str | int, ...], message: str, value: Any) -> ValidationError:
    """A validation error at `loc` (a cross-field rule, raised from a model validator, still names
    its field: INVALID_PARAMS lists it in `fields`)."""
    error = PydanticCustomError("value_error", message.replace("{", "{{").replace("}", "}}"))
    return ValidationError.from_exception_data("args", [InitErrorDetails(type=error, loc=loc, input=value)])


def check_model_effort(model: str | None, effort: str | None) -> None:
    """A `model` and an `effort` given together must mean the same effort."""
    if model is not None and effort is not None and MODEL_TO_EFFORT[model] != effort:
        raise refused(
            ("model",),
            f"{model!r} means effort {MODEL_TO_EFFORT[model]!r} but effort is {effort!r}; give one of them",
            model,
        )


def check_budget(effort: str, budget: RunBudget | None) -> None:
    """Exa's budget rules for `effort` (raises a ValidationError naming the field)."""
    if budget is None:
        return
    if effort not in BUDGET_EFFORTS:
        raise refused(
            ("budget",),
            f"Exa accepts a budget only with effort auto or ultra (metered), not {effort!r}; a fixed "
            f"effort has a fixed price, so drop budget or set effort auto or ultra",
            budget.model_dump(by_alias=True, exclude_none=True),
        )
    if budget.max_duration_seconds is not None and effort not in DURATION_EFFORTS:
        raise refused(
            ("budget", "maxDurationSeconds"),
            f"Exa accepts maxDurationSeconds only with effort ultra, not {effort!r}; drop it or set "
            f"effort ultra",
            budget.max_duration_seconds,
        )


def user_identifier(principal: str | None) -> str | None:
    """The `userIdentifier` for runs made for `principal`: 32 hex digits of a SHA-256 of its name,
    the same on every server and run (None without a principal)."""
    if not principal:
        return None
    return hashlib.sha256(f"exa-orch principal\x1f{principal}".encode()).hexdigest()[:32]
