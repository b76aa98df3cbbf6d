"""What the research workflows share: crash-safe webset creation on the Exa port, webset waits
and item reads, timed steps, and operations by name for the task types built to run them.

A workflow calls Exa through `ctx.deps.exa_port` (exa_orch/exa/port.py: exa-py's models, every
create safe to retry): `new_webset`, `wait_webset`, `items_of`, `cancel_webset` here, each a step
whose checkpoint is the model's JSON read back into the model (`model_step` and one `Saved` shape per
kind of value; an older version's shape converted on read by a named compat function:
`from_wait_idle`); `collect_items` / `webset_items` keep items in the agents' shape; `create_webset`
is a JSON view of `new_webset` for the workflows whose create step saved JSON; `workflows/runs.py`
and `workflows/research.py` for agent runs. Workflows sit below the operations layer, so they never
import it: `call` runs an operation by name through `ctx.deps.dispatch` (validation, gateway,
typed errors and the agents' projections included) for a task that runs operations by name by
design (tests/workflows/test_third_engine.py keeps the collection workflows off it). Every call
that changes something at Exa runs inside a step, so a resumed run replays its saved result
instead of calling again.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, model_validator
from pydantic.alias_generators import to_camel

from exa_orch.attrdocs import AttributeDocs
from exa_orch.exa.port import ITEMS_PAGE, Idle, webset, webset_enrichment, webset_item, webset_params
from exa_orch.exa.views import item_view
from exa_orch.runtime import TaskContext, create_or_get
from exa_orch.runtime.deps import exa_port_of

if TYPE_CHECKING:
    from exa_py.websets.types import CreateWebsetParameters, Webset, WebsetEnrichment, WebsetItem

Json = dict[str, Any]
"""A request body as Exa takes it (camelCase), built from a task's args."""
AgentJson = dict[str, Any]
"""JSON an agent is shown: a task's args, partial and final result, and the items in them, each as
`exa.views.item_view` shows Exa's item as it was sent (exa-py's `WebsetItem` would normalise its
URLs and strings: where the issue and a shape agents see disagree, the agents' shape wins)."""


# --- task args shared by the workflows (the seeds' shapes; Exa's own checks run again on create) ----


class TaskArgs(AttributeDocs, BaseModel):
    """Args of a research task: camelCase on the wire, unknown fields refused (a typo is an error).
    Each field's docstring is its description in the schema agents read (list_operations)."""

    # Built on first use, not at import (a cold start builds none: bench/startup.py).
    model_config = ConfigDict(
        alias_generator=to_camel,
        populate_by_name=True,
        extra="forbid",
        defer_build=True,
    )


ENTITY_TYPES = ("company", "person", "article", "research_paper", "custom")


class EntityArg(AttributeDocs, BaseModel):
    """{type: company | person | article | research_paper | custom, description?}, checked at tasks.create."""

    model_config = ConfigDict(extra="allow", defer_build=True)
    type: str = Field(min_length=1)
    """what kind of thing to find: company, person, article, research_paper or custom"""
    description: str | None = Field(default=None, max_length=200)
    """what a 'custom' entity is, 2-200 characters as Exa takes it (required for custom; ignored
    otherwise)"""

    @model_validator(mode="after")
    def _known(self) -> EntityArg:
        # Refused before a task row is written, not when the task's first call reaches Exa.
        if self.type not in ENTITY_TYPES:
            raise ValueError(f"type must be one of {', '.join(ENTITY_TYPES)}, got {self.type!r}")
        if self.type == "custom" and len((self.description or "").strip()) < 2:
            raise ValueError("a 'custom' entity needs a description of what to find (2-200 characters)")
        return self


class CriterionArg(TaskArgs):
    description: str = Field(min_length=1, max_length=1000)
    """a condition every item must meet, in plain words (Exa judges each item against it)"""


MAX_OPTION_CHARS = 1000  # an option's label: exa-orch's bound (Exa documents none); each answer repeats it


class OptionArg(TaskArgs):
    label: str = Field(min_length=1, max_length=MAX_OPTION_CHARS)
    """one answer the enrichment may give (at most 1,000 characters)"""


class EnrichmentArg(TaskArgs):
    """An enrichment as the seeds write it; `boolean` becomes Exa's options yes/no."""

    description: str = Field(min_length=1, max_length=5000)
    """what to find out about each item, in plain words"""
    format: Literal["text", "url", "number", "options", "boolean", "date", "email", "phone"] | None = None
    """the answer's type (default text); boolean is sent to Exa as options yes/no"""
    options: list[OptionArg] | None = None
    """the answers to choose from, 1 to 150 ({label}); required when format is options"""

    @model_validator(mode="after")
    def _options(self) -> EnrichmentArg:
        if self.format == "options" and not 1 <= len(self.options or []) <= 150:
            raise ValueError("options: 1 to 150 options ({label}) are required when format is 'options'")
        return self

    def wire(self) -> Json:
        """The enrichment as websets.create / enrichments.create take it."""
        if self.format == "boolean":
            return {
                "description": self.description,
                "format": "options",
                "options": [{"label": "yes"}, {"label": "no"}],
            }
        out: Json = {"description": self.description}
        if self.format:
            out["format"] = self.format
        if self.options:
            out["options"] = [{"label": o.label} for o in self.options]
        return out


def seconds(timeout_ms: float) -> float:
    """The seeds give timeouts in milliseconds; waits take seconds."""
    return max(0.05, timeout_ms / 1000)


async def call(
    ctx: TaskContext,
    operation: str,
    args: Mapping[str, Any],
    *,
    step: str | None = None,
    since: float | None = None,
) -> Any:
    """Run one registered operation; its progress reports become the task's, under `step`.

    With `since` (wall time), each report says how long the work has been going since then: a
    report no earlier run of the task made, so a long wait across restarts reads as progress."""

    async def progress(completed: float, total: float | None, message: str | None) -> None:
        if since is not None:
            message = f"{message or operation} {elapsed(since)}"
        await ctx.progress(step or operation, completed, total, message)

    return await ctx.deps.dispatch(operation, dict(args), progress)


async def new_webset(ctx: TaskContext, key: str, params: CreateWebsetParameters) -> Webset:
    """Step `key`: the webset `params` describes (`ExaPort.create_webset`), created once even across
    crashes: its externalId is the task's key for the step (`ctx.external_id(key)`); a resumed run
    looks it up by that id first, and a 409 for the id fetches the webset that holds it
    (`runtime.create_or_get`). The checkpoint is Exa's webset JSON (`WEBSET`)."""
    port = exa_port_of(ctx.deps)

    async def create(external_id: str) -> Any:
        return WEBSET.dump(await port.create_webset(params, external_id=external_id))

    async def find(external_id: str) -> Any:
        found = await port.find_webset(external_id)
        return None if found is None else WEBSET.dump(found)

    return await WEBSET.load(await create_or_get(ctx, key, create, find))


async def create_webset(ctx: TaskContext, key: str, body: Mapping[str, Any]) -> Json:
    """`new_webset` from a create's camelCase JSON `body`, as Exa's webset JSON (for the workflows
    that still read the webset as JSON: convergent, verified, adversarial)."""
    return dumped(await new_webset(ctx, key, await webset_params(body)))


async def cancel_webset(ctx: TaskContext, webset_id: str) -> None:
    """Cancel the webset's running searches and enrichments (`ExaPort.cancel_webset`): what a
    collection workflow's cancel hook does for each webset it made."""
    await exa_port_of(ctx.deps).cancel_webset(webset_id)


def dumped(model: BaseModel) -> Json:
    """An exa-py model as Exa's camelCase JSON (what a checkpoint keeps)."""
    out: Json = model.model_dump(by_alias=True, exclude_none=True, mode="json")
    return out


T = TypeVar("T")
M = TypeVar("M", bound=BaseModel)


@dataclass(frozen=True)
class Saved(Generic[T]):
    """How a step keeps a value of type T in its JSON checkpoint (`dump`) and reads it back (`load`,
    async: exa-py's models are imported off the event loop the first time). One per shape: `WEBSET`,
    `ENRICHMENT`, `IDLE`, `model_shape(...)` for the project's own models."""

    dump: Callable[[T], Any]
    load: Callable[[Any], Awaitable[T]]


async def model_step(ctx: TaskContext, key: str, shape: Saved[T], fn: Callable[[], Awaitable[T]]) -> T:
    """Step `key`: `fn`'s value, checkpointed as `shape.dump` of it; a resumed run gets the saved
    JSON back through `shape.load` (the same type, fresh or resumed)."""

    async def run() -> Any:
        return shape.dump(await fn())

    return await shape.load(await ctx.step(key, run))


def model_shape(model: type[M]) -> Saved[M]:
    """A project model (pydantic) saved as its camelCase JSON and validated back."""

    async def load(saved: Any) -> M:
        return model.model_validate(saved)

    return Saved(dumped, load)


WEBSET: Saved[Webset] = Saved(dumped, webset)
"""exa-py's `Webset`, kept as Exa's webset JSON (what `new_webset` has always saved)."""
ENRICHMENT: Saved[WebsetEnrichment] = Saved(dumped, webset_enrichment)
"""exa-py's `WebsetEnrichment`, kept as Exa's enrichment JSON (what harvest's `enrich.<i>` has always saved)."""


def _idle_json(idle: Idle) -> Json:
    return {
        "webset": dumped(idle.webset),
        "timedOut": idle.timed_out,
        "waited": idle.waited,
        "polls": idle.polls,
    }


async def _idle(saved: Any) -> Idle:
    saved = from_wait_idle(saved)
    return Idle(
        await webset(saved["webset"]), bool(saved["timedOut"]), float(saved["waited"]), int(saved["polls"])
    )


def from_wait_idle(saved: Any) -> Any:
    """Compat: a webset wait as the JSON `kit.wait_idle` (gone) saved it up to exa-orch 653a7c1 ({webset,
    timedOut, waitedSeconds, polls}: lifecycle.harvest's `wait.search` / `wait.enrichments`, and the
    other collection workflows' waits) in the shape `IDLE` saves ({..., waited, ...}); any other
    value as it is. A task checkpointed by that code resumes (tests/workflows/test_harvest.py)."""
    if isinstance(saved, dict) and "waitedSeconds" in saved and "waited" not in saved:
        return {k: v for k, v in saved.items() if k != "waitedSeconds"} | {"waited": saved["waitedSeconds"]}
    return saved


async def _items(saved: Any) -> list[WebsetItem]:
    return [await webset_item(item) for item in saved]


ITEMS: Saved[list[WebsetItem]] = Saved(lambda items: [dumped(item) for item in items], _items)
"""exa-py's `WebsetItem`s, kept as Exa's item JSON each (`items_of`)."""
IDLE: Saved[Idle] = Saved(_idle_json, _idle)
"""How a webset wait ended (`Idle`), kept as {webset (Exa's JSON), timedOut, waited (s), polls}."""


def search_counts(webset: Webset) -> tuple[int, int]:
    """(found, analyzed) summed over the webset's searches. Exa's `progress.analyzed` is no field of
    exa-py's `Progress`: it is read from the fields the model kept as sent (`model_extra`)."""
    found = analyzed = 0
    for search in webset.searches:
        found += int(search.progress.found or 0)
        analyzed += int((search.progress.model_extra or {}).get("analyzed") or 0)
    return found, analyzed


def elapsed(since: float) -> str:
    """ "(N s in)" since the wall-clock time `since`: a wait's report that keeps changing, so a long
    wait across restarts reads as progress (the give-up rule counts new reports)."""
    return f"({time.time() - since:.0f} s in)"


async def deadline(ctx: TaskContext, key: str, seconds: float) -> float:
    """Step `key`: the wall time `seconds` after this step first ran. Saved with the task, so a
    deadline is fixed at the first start and kept across restarts (a restarted task never gets its
    whole timeout again)."""
    started: float = await ctx.step(key, time.time)
    return started + seconds


async def _poll_idle(
    ctx: TaskContext, key: str, webset_id: str, timeout_s: float, poll_s: float, until: float
) -> Idle:
    """`ExaPort.wait_idle` until the wall time `until`, search progress reported under `key` after
    each read (with the time since the wait first began: a report no earlier run made)."""
    since = until - timeout_s if timeout_s > 0 else None  # when the wait first began
    port = exa_port_of(ctx.deps)

    async def progress(webset: Webset, polls: int) -> None:
        found = sum(s.progress.found for s in webset.searches)
        wanted = sum(s.count for s in webset.searches)
        note = f"webset {webset.status}: {int(found)}" + (
            f"/{wanted} items found" if wanted else " items found"
        )
        await ctx.progress(key, found, wanted or None, f"{note} {elapsed(since)}" if since else note)

    within = max(0.05, min(until - time.time(), 3600.0))
    return await port.wait_idle(webset_id, within=within, interval=poll_s, progress=progress)


async def wait_webset(
    ctx: TaskContext,
    key: str,
    webset_id: str,
    timeout_s: float,
    poll_s: float = 2.0,
    *,
    until: float | None = None,
) -> Idle:
    """Step `key`: `ExaPort.wait_idle` on the webset until it is idle or its deadline passes (typed).

    The deadline is `until` (wall time) if given, else `timeout_s` after this wait first started
    (step `<key>.start`), so a restart does not restart the wait. A timeout is a result
    (`Idle.timed_out`); search progress is reported under `key` after each read."""
    end = until if until is not None else await deadline(ctx, f"{key}.start", timeout_s)
    return await model_step(ctx, key, IDLE, lambda: _poll_idle(ctx, key, webset_id, timeout_s, poll_s, end))


async def items_of(ctx: TaskContext, key: str, webset_id: str, max_items: int = 1000) -> list[WebsetItem]:
    """Step `key`: the webset's items, whole, at most `max_items` (`ExaPort.items`; typed, `ITEMS`)."""
    port = exa_port_of(ctx.deps)

    async def read() -> list[WebsetItem]:
        got = [item async for item in port.items(webset_id, max_items=max_items)]
        await ctx.progress(key, len(got), None, f"{len(got)} items read from webset {webset_id}")
        return got

    return await model_step(ctx, key, ITEMS, read)


async def webset_items(ctx: TaskContext, key: str, webset_id: str, max_items: int = 1000) -> list[AgentJson]:
    """Every item of the webset (up to `max_items`, `ExaPort.items_as_sent`), each as `exa.views.item_view`
    shows it (the shape the collection workflows keep and return), reported under `key`: a read,
    not a step (collect_items makes it one; a stopped task's salvage reads it)."""
    port = exa_port_of(ctx.deps)
    items: list[AgentJson] = []
    async for item in port.items_as_sent(webset_id, max_items=max_items):
        items.append(item_view(item.model_dump()))
        if len(items) % ITEMS_PAGE == 0:
            await ctx.progress(key, len(items), None, f"{len(items)} items read from webset {webset_id}")
    await ctx.progress(key, len(items), None, f"{len(items)} items read from webset {webset_id}")
    return items


async def collect_items(ctx: TaskContext, key: str, webset_id: str, max_items: int = 1000) -> list[AgentJson]:
    """Step `key`: `webset_items` (every item of the webset, up to `max_items`, as an agent's
    items.getAll with fields ['all'] shows it)."""
    items: list[AgentJson] = await ctx.step(key, lambda: webset_items(ctx, key, webset_id, max_items))
    return items


class Timeline:
    """Named phases with their durations: `await timeline.run(name, fn)` times `fn` in this run.

    `fn` should be made of steps (new_webset, wait_webset, ...). Timeline adds no step of its own:
    a step wrapped around other steps would hide them from a cancel's replay (it stops at the first
    unsaved step, before the hooks registered after the inner ones). `steps` lists {name, duration
    (ms), status} in run order; a phase replayed from checkpoints after a restart shows the replay's
    time. `duration` is their sum.
    """

    def __init__(self, ctx: TaskContext) -> None:
        self._ctx = ctx
        self.steps: list[AgentJson] = []

    async def run(
        self, name: str, fn: Callable[[], Awaitable[Any]], *, status: Callable[[Any], str] | None = None
    ) -> Any:
        start = time.monotonic()
        value = await fn()
        ms = round((time.monotonic() - start) * 1000)
        self.steps.append({"name": name, "duration": ms, "status": status(value) if status else "completed"})
        return value

    @property
    def duration(self) -> int:
        """Milliseconds spent in the phases so far."""
        return sum(int(s["duration"]) for s in self.steps)


# --- items ------------------------------------------------------------------------------------


def item_url(item: AgentJson) -> str | None:
    """The URL the item is about (Exa puts it in properties.url)."""
    props = item.get("properties") or {}
    url = props.get("url")
    return url if isinstance(url, str) and url else None


def item_name(item: AgentJson) -> str | None:
    """The entity's name: the company's, person's or paper's title, whichever the item has."""
    props = item.get("properties") or {}
    for kind in ("company", "person", "article", "researchPaper", "custom"):
        sub = props.get(kind)
        if isinstance(sub, dict):
            for field in ("name", "title"):
                if isinstance(sub.get(field), str) and sub[field].strip():
                    return str(sub[field]).strip()
    return None


def criteria_vector(item: AgentJson, criteria: list[str]) -> list[bool]:
    """For each criterion (in order), whether the item's evaluation says it is satisfied."""
    satisfied = {str(e.get("criterion")): e.get("satisfied") == "yes" for e in item.get("evaluations") or []}
    return [satisfied.get(c, False) for c in criteria]
