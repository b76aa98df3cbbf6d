"""The collection workflows' rows, whichever engine found the entities (issue 25), and the agent
collection that gathers them.

A **row** is `row_model.Row` (named fields: id, engine, type, name, url, description, identity
fields, verdicts, fields, and its item or run); its adapters (`from_item`, `from_agent`, `as_item`, `props_of`,
`passes`) are read from here too.

On the Agent API the collection is `collect` (`start` + `finish`): runs whose `outputSchema`
(`rows_schema`) asks for rows of name, url, description, the identity fields the entity resolver
reads (a company's location and industry, a person's employer, role and location:
`IDENTITY_FIELDS`), a yes/no/unclear field per criterion (`criterion{i}`, described by the
criterion) and a field per wanted value (`field{j}`); chunks of
at most `chunk` rows, each continuing the one before by `previousRunId` with every URL returned so
far in `input.exclusion`, until `count` rows are kept, a chunk brings nothing new, a chunk returns
fewer rows than asked without being cut short (its budget or time), `max_runs`, or the deadline.
`entity_prompt` is the runs' `systemPrompt` (what one row is); `cost` prices a collection. Every
create is a step (`research.start_research_run`: found again by its key after a crash) and its body
is built only from checkpointed data (the ask, and the earlier chunks' saved runs), so a resumed
task sends the same body under the same key. Each run is read through exa-py's `AgentRun`
(`runs.poll_run`: its status, stop reason, structured output and grounding).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from exa_orch.gateway import prices
from exa_orch.gateway.agent_runs import DEFAULT_MODEL, MAX_INPUT_ROWS, MODEL_TO_EFFORT
from exa_orch.runtime import TaskContext
from exa_orch.workflows import kit, research
from exa_orch.workflows.row_model import (
    IDENTITY_FIELDS,
    ItemJson,
    Row,
    RowField,
    RunRow,
    Verdict,
    as_item,
    first_text,
    from_agent,
    from_item,
    passes,
    props_of,
    verdict_of,
)
from exa_orch.workflows.runs import answer_of, cancel_quietly, failure_of, poll_run

if TYPE_CHECKING:
    from exa_py.agent.types import AgentRun

Schema = dict[str, Any]
"""A JSON Schema (a run's outputSchema, or one of its fields')."""
RunArgs = dict[str, Any]
"""research.create's camelCase args (systemPrompt, input, previousRunId, effort, budget, ...): the
agents' JSON a collection's runs are asked with."""
VERDICTS = ("yes", "no", "unclear")
CHUNK_ROWS = 25  # rows one agent run is asked for; more are asked of follow-up runs
ALL_OF = "Only entities that meet all of these:"
# A collection's first run (or whatever a row source started first): its id, and the remover of its
# cancel hook (a task cancel stops it until the hook is removed).
First = tuple[str, Callable[[], None]]

__all__ = [
    "ALL_OF", "CHUNK_ROWS", "CUT_SHORT", "IDENTITY_FIELDS", "RUN_EFFORT", "VERDICTS", "Ask", "Collected", "First",
    "ItemJson", "Row", "RowField", "RunArgs", "RunRow", "Schema", "Verdict", "all_of", "as_item",
    "collect", "cost", "entity_prompt", "field_schema", "finish", "first_text", "from_agent",
    "from_item", "passes", "props_of", "rows_schema", "runs", "start", "verdict_of",
]  # fmt: skip


# --- the agent collection ---------------------------------------------------------------------


def field_schema(e: kit.EnrichmentArg) -> Schema:
    """An enrichment as a row field's JSON Schema (number, yes/no, options, else a string)."""
    if e.format == "number":
        return {"type": "number", "description": e.description}
    if e.format == "boolean":
        return {"type": "string", "enum": ["yes", "no"], "description": e.description}
    if e.format == "options":
        return {"type": "string", "enum": [o.label for o in e.options or []], "description": e.description}
    return {"type": "string", "description": e.description}


def rows_schema(
    criteria: Sequence[str], fields: Sequence[kit.EnrichmentArg], count: int, entity_type: str
) -> Schema:
    """The outputSchema of a collection run: `count` rows of name, url, description, the identity
    fields of `entity_type` (`IDENTITY_FIELDS`: a company's location and industry, a person's
    employer, role and location; none for other types), a yes/no/unclear field per criterion
    (`criterion{i}`, described by the criterion) and a field per enrichment (`field{j}`)."""
    props: Schema = {
        "name": {"type": "string"},
        "url": {"type": "string", "description": "the entity's own website or profile URL"},
        "description": {"type": "string"},
    }
    for name, said in IDENTITY_FIELDS.get(entity_type, {}).items():
        props[name] = {"type": "string", "description": said}
    for i, c in enumerate(criteria):
        props[f"criterion{i}"] = {"type": "string", "enum": list(VERDICTS), "description": c}
    for j, e in enumerate(fields):
        props[f"field{j}"] = field_schema(e)
    rows = {
        "type": "array",
        "minItems": count,
        "maxItems": count,
        "items": {"type": "object", "properties": props},
    }
    return {"type": "object", "properties": {"rows": rows}}


ENTITY_PROMPTS = {
    "company": "Each row is one company; its url is the company's own website.",
    "person": "Each row is one person; its url is their profile page.",
    "article": "Each row is one article; its url is the article's page.",
    "research_paper": "Each row is one research paper; its url is the paper's page.",
}


def entity_prompt(entity: dict[str, Any]) -> str:
    """The `systemPrompt` telling a collection's runs what one row is (a webset's `entity`): the
    type's sentence, or for a custom entity its description."""
    kind = str(entity.get("type") or "")
    if kind in ENTITY_PROMPTS:
        return ENTITY_PROMPTS[kind]
    return f"Each row is one of: {entity.get('description') or kind}; its url is its own page."


def all_of(query: str, criteria: Sequence[str], niche: str | None = None) -> str:
    """A run's query asking for entities that meet the criteria: the query, then a "Satisfies:"
    line per criterion, or for `niche` ("1,0,1") "Does not satisfy:" where its bit is 0
    (data-design/exa-api-notes.md, criteria on the Agent API). No criteria: the query."""
    if not criteria:
        return query
    bits = niche.split(",") if niche is not None else ["1"] * len(criteria)
    lines = [
        f"- {'Satisfies' if bit == '1' else 'Does not satisfy'}: {c}"
        for c, bit in zip(criteria, bits, strict=True)
    ]
    return "\n".join([query, ALL_OF, *lines])


@dataclass(frozen=True)
class Ask:
    """What one collection asks for; every run body is built from it and checkpointed results.

    `options` are more research.create args (effort, budget, input, previousRunId, ...): the first
    chunk's previousRunId and input.exclusion come from there, later chunks continue the chunk
    before and exclude every URL returned so far besides. `keep_passing`: only rows judged yes on
    every criterion are kept (what a webset keeps); the others are set aside (`Collected.rejected`)
    and do not count toward `count`."""

    query: str  # as sent (see `all_of`)
    criteria: list[str]  # the verdict fields asked of each row
    fields: list[kit.EnrichmentArg]
    count: int
    entity_type: str
    chunk: int = CHUNK_ROWS
    max_runs: int | None = None  # None: runs(count, chunk)
    options: RunArgs = field(default_factory=dict)
    keep_passing: bool = False

    def limit(self) -> int:
        """Runs this collection starts at most."""
        return self.max_runs if self.max_runs is not None else runs(self.count, self.chunk)


def runs(count: int, chunk: int = CHUNK_ROWS) -> int:
    """Runs a collection of `count` rows starts at most: a chunk per `chunk` rows, and one more for a
    shortfall (a chunk cut short by its budget or time, or rows set aside)."""
    return math.ceil(count / chunk) + 1


# The effort a collection's runs are sent at: they name no effort or model, so research.create
# sends its default model's (exa-research -> medium, a fixed price per run).
RUN_EFFORT = MODEL_TO_EFFORT[DEFAULT_MODEL]


def cost(
    count: int, what: str = "agent run", collections: int = 1, chunk: int = CHUNK_ROWS
) -> list[prices.Part]:
    """The runs of `collections` collections of `count` rows at most (`runs` each), at RUN_EFFORT's
    price: each collection's first run is certain, its follow-up chunks are not (they depend on
    what the first ones return)."""
    parts = [prices.agent_run(RUN_EFFORT, what, count=collections)]
    more = collections * (runs(count, chunk) - 1)
    if more:
        parts.append(
            dataclasses.replace(
                prices.agent_run(RUN_EFFORT, f"{what}, follow-up chunk", count=more), certain=False
            )
        )
    return parts


CUT_SHORT = frozenset(
    {"budget_reached", "time_limit_reached", "token_limit_reached", "iteration_limit_reached"}
)


@dataclass
class Collected:
    """What a collection got: its rows (in run order), its runs, whether the deadline cut it."""

    rows: list[Row] = field(default_factory=list)
    run_ids: list[str] = field(default_factory=list)
    timed_out: bool = False
    runs: list[AgentRun] = field(default_factory=list)  # each run as its last poll saw it
    rejected: list[Row] = field(default_factory=list)  # rows set aside (`Ask.keep_passing`)

    @property
    def returned(self) -> int:
        """Rows the runs returned (kept and set aside; a repeated URL counts once)."""
        return len(self.rows) + len(self.rejected)

    def urls(self) -> list[str]:
        """Every URL returned so far, kept or set aside, first-seen order."""
        return list(dict.fromkeys(r.url for r in [*self.rows, *self.rejected] if r.url))


def _chunk_key(key: str, n: int) -> str:
    return key if n == 0 else f"{key}.c{n}"


def _body(ask: Ask, n: int, got: Collected) -> tuple[str, Schema, RunArgs]:
    """Chunk `n`'s (query, outputSchema, options), from the ask and the chunks before it."""
    want = min(ask.chunk, ask.count - len(got.rows))
    options = dict(ask.options)
    if n:
        options["previousRunId"] = got.run_ids[-1]
        given = dict(options.get("input") or {})
        held = list(given.get("exclusion") or [])
        seen = {str(x.get("url")) for x in held if isinstance(x, dict)}
        held += [{"url": u} for u in got.urls() if u not in seen]
        held = held[-MAX_INPUT_ROWS:]  # the latest; earlier ones went to the runs continued from
        if held:
            options["input"] = {**given, "exclusion": held}
    return ask.query, rows_schema(ask.criteria, ask.fields, max(1, want), ask.entity_type), options


async def _start_chunk(ctx: TaskContext, key: str, ask: Ask, n: int, got: Collected) -> First:
    """Step `key`: chunk `n`'s run (`_body`), started once even across crashes; its id and the
    remover of its cancel hook (a task cancel cancels the run until it is removed)."""
    query, schema, options = _body(ask, n, got)
    seen = await research.start_research_run(
        ctx, key, {"instructions": query, **options, "outputSchema": schema}
    )
    rid = seen.run.id
    return rid, ctx.on_cancel(lambda: cancel_quietly(ctx, rid))


async def start(ctx: TaskContext, key: str, ask: Ask) -> First:
    """Step `key`: the collection's first run, started once even across crashes; returns its id and
    the remover of its cancel hook (a task cancel cancels the run until it is removed)."""
    return await _start_chunk(ctx, key, ask, 0, Collected())


def _ended(
    ask: Ask, got: Collected, run: AgentRun, new: list[Row], returned: int, asked: int, n: int
) -> bool:
    """Whether the collection stops after chunk `n - 1` (`finish`'s rules)."""
    return (
        len(got.rows) >= ask.count
        or not new
        or n >= ask.limit()
        or run.status != "completed"  # a cancelled run can't be continued
        # fewer rows than asked, not cut short: the agent found no more
        or (returned < asked and run.stop_reason not in CUT_SHORT)
    )


async def finish(
    ctx: TaskContext,
    key: str,
    wait_key: str,
    ask: Ask,
    first: First,
    deadline: float,
    what: str,
    into: Collected | None = None,
) -> Collected:
    """Follow the collection `start` began (step `wait_key`: its first run's end), then its
    follow-up chunks (steps `key.cN` / `wait_key.cN`) until `ask.count` rows, a chunk with no
    new row, a chunk that returned fewer rows than asked without being cut short (its budget or
    time), `ask.limit()` runs or `deadline` (wall time). A failed run raises its typed error
    (`what` names the workflow); a run cut by the deadline keeps running at Exa (`timedOut`).
    `into` (empty) is filled as it goes, so a caller knows the runs started before an error."""
    got = into if into is not None else Collected()
    rid, remove_hook = first
    n = 0
    while True:
        got.run_ids.append(rid)
        asked = max(1, min(ask.chunk, ask.count - len(got.rows)))  # what _body asked of this chunk
        seen = await poll_run(ctx, _chunk_key(wait_key, n), rid, deadline)
        run = seen.run
        if run.status == "failed":
            raise failure_of(run, what)
        if not seen.timed_out:
            remove_hook()
        got.runs.append(run)
        grounding = run.output.grounding if run.output is not None else None
        returned = from_agent(
            rid, answer_of(run, True), ask.criteria, len(ask.fields), ask.entity_type, grounding
        )
        held = set(got.urls())
        new = [r for r in returned if not r.url or r.url not in held]
        for r in new:
            (got.rows if not ask.keep_passing or r.passes() else got.rejected).append(r)
        if seen.timed_out:
            got.timed_out = True
            break
        n += 1
        if _ended(ask, got, run, new, len(returned), asked, n):
            break
        rid, remove_hook = await _start_chunk(ctx, _chunk_key(key, n), ask, n, got)
    return got


async def collect(
    ctx: TaskContext, key: str, wait_key: str, ask: Ask, deadline: float, what: str
) -> Collected:
    """`start` then `finish`: one collection, its runs one after the other."""
    first = await start(ctx, key, ask)
    return await finish(ctx, key, wait_key, ask, first, deadline, what)
