"""One row model for the collection workflows, whichever engine found the entities (issue 25).

A **row** (JSON, so it checkpoints and returns as is) is what the workflow logic reads:
    {id, engine: "websets" | "agent", type, name, url, description,
     verdicts: [{criterion, verdict: "yes" | "no" | "unclear", reasoning, evidence: [url]}],
     fields: [{name, value (str | None), citations: [url]}],
     source: the engine's own object (a webset item; {runId, index, row} for an agent run's row)}
One adapter per engine builds it: `from_item` (a Websets item) and `from_agent` (an agent run's
structured output). `as_item(row)` is the Websets-item view a row keeps for results and for
`entities.resolve` (a webset row: its item untouched; an agent row: properties, evaluations and
enrichments built from the row), so a result has the same shape on both engines.

On the Agent API the collection is `collect` (`start` + `finish`): runs whose `outputSchema`
(`rows_schema`) asks for rows of name, url, description, a yes/no/unclear field per criterion
(`criterion{i}`, described by the criterion) and a field per wanted value (`field{j}`); chunks of
at most `chunk` rows, each continuing the one before by `previousRunId` with every URL returned so
far in `input.exclusion`, until `count` rows are kept, a chunk brings nothing new, a chunk returns
fewer rows than asked without being cut short (its budget or time), `max_runs`, or the deadline.
`entity_prompt` is the runs' `systemPrompt` (what one row is); `cost` prices a collection. Every create is a step (`research.start_research`: found again by its key after a crash) and
its body is built only from checkpointed data (the ask, and the earlier chunks' saved results), so
a resumed task sends the same body under the same key.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from exa_orch.gateway import prices
from exa_orch.gateway.agent_runs import DEFAULT_MODEL, MAX_INPUT_ROWS, MODEL_TO_EFFORT
from exa_orch.runtime import TaskContext
from exa_orch.workflows import kit
from exa_orch.workflows import research as runs_kit

Json = dict[str, Any]
VERDICTS = ("yes", "no", "unclear")
CHUNK_ROWS = 25  # rows one agent run is asked for; more are asked of follow-up runs
ALL_OF = "Only entities that meet all of these:"


# --- the row model ----------------------------------------------------------------------------


def _urls(refs: Any) -> list[str]:
    """URLs of Exa references ([{url, title, snippet}]) or citation lists ([url])."""
    out: list[str] = []
    for ref in refs if isinstance(refs, list) else []:
        url = ref.get("url") if isinstance(ref, dict) else ref
        if isinstance(url, str) and url and url not in out:
            out.append(url)
    return out


def first_text(result: Any) -> str | None:
    """An enrichment result's text: its first non-blank string (Exa sends a list), else None."""
    if isinstance(result, list) and result and isinstance(result[0], str) and result[0].strip():
        return result[0].strip()
    if isinstance(result, str) and result.strip():
        return result.strip()
    return None


def verdict_of(value: Any) -> str:
    """ "yes" / "no" as given (any case); anything else is "unclear"."""
    said = str(value or "").strip().lower()
    return said if said in ("yes", "no") else "unclear"


def _item_verdicts(
    item: Json, criteria: Sequence[str], done: list[Json], verdict_ids: dict[str, str] | None
) -> list[Json]:
    """A Websets item's verdict per criterion: from its yes/no enrichments' answers (`verdict_ids`),
    else from its criteria evaluations."""
    verdicts: list[Json] = []
    if verdict_ids is not None:
        by_id = {r.get("enrichmentId"): r for r in done}
        for c in criteria:
            r = by_id.get(verdict_ids.get(c)) or {}
            verdicts.append({
                "criterion": c, "verdict": verdict_of(first_text(r.get("result"))),
                "reasoning": r.get("reasoning"), "evidence": _urls(r.get("references")),
            })  # fmt: skip
        return verdicts
    evals = {str(e.get("criterion")): e for e in item.get("evaluations") or [] if isinstance(e, dict)}
    for c in criteria:
        e = evals.get(c) or {}
        verdicts.append({
            "criterion": c, "verdict": verdict_of(e.get("satisfied")),
            "reasoning": e.get("reasoning"), "evidence": _urls(e.get("references")),
        })  # fmt: skip
    return verdicts


def _item_fields(
    done: list[Json], verdict_ids: dict[str, str] | None, field_ids: dict[str, str] | None
) -> list[Json]:
    """A Websets item's other completed enrichment results as fields (see `from_item`)."""
    asked = set((verdict_ids or {}).values())
    return [
        {
            "name": (field_ids or {}).get(str(r.get("enrichmentId")), str(r.get("enrichmentId"))),
            "value": first_text(r.get("result")),
            "citations": _urls(r.get("references")),
        }
        for r in done
        if r.get("enrichmentId") not in asked
        and (field_ids is None or str(r.get("enrichmentId")) in field_ids)
    ]


def from_item(
    item: Json,
    criteria: Sequence[str],
    verdict_ids: dict[str, str] | None = None,
    field_ids: dict[str, str] | None = None,
) -> Json:
    """A Websets item as a row.

    Verdicts come from the item's criteria evaluations, or, with `verdict_ids` (criterion -> the id
    of a yes/no enrichment asking it), from those enrichments' answers. Fields are the item's other
    enrichment results, named by `field_ids` (enrichment id -> field name) when given, else by
    enrichment id; their citations are the results' references."""
    given = item.get("properties")
    props: Json = given if isinstance(given, dict) else {}
    results = [r for r in item.get("enrichments") or [] if isinstance(r, dict)]
    done = [r for r in results if r.get("status", "completed") == "completed"]
    verdicts = _item_verdicts(item, criteria, done, verdict_ids)
    fields = _item_fields(done, verdict_ids, field_ids)
    return {
        "id": str(item.get("id")),
        "engine": "websets",
        "type": props.get("type"),
        "name": kit.item_name(item),
        "url": kit.item_url(item),
        "description": props.get("description") if isinstance(props.get("description"), str) else None,
        "verdicts": verdicts,
        "fields": fields,
        "source": item,
    }


def _output_rows(output: Any) -> list[Any]:
    rows = output.get("rows") if isinstance(output, dict) else output
    return rows if isinstance(rows, list) else []


def from_agent(
    run_id: str,
    output: Any,
    criteria: Sequence[str],
    fields: int,
    entity_type: str,
    citations: list[Json] | None = None,
) -> list[Json]:
    """An agent run's structured output (`{rows: [...]}`, see `rows_schema`) as rows, ids
    "<runId>:<k>" (k: the row's place in the output). Each criterion's answer is the row's `criterion{i}` (anything
    but yes/no is unclear), each field its `field{j}` (None when empty); evidence and citations
    are the run's citations for that row field (`[{field: "rows[3].field0", urls}]`)."""
    cites: dict[str, list[str]] = {}
    for c in citations or []:
        if isinstance(c, dict) and isinstance(c.get("field"), str):
            cites[c["field"]] = _urls(c.get("urls") or c.get("citations"))
    out: list[Json] = []
    for k, row in enumerate(_output_rows(output)):
        if not isinstance(row, dict):
            continue

        def cited(name: str, at: int = k) -> list[str]:
            return cites.get(f"rows[{at}].{name}", [])

        values = [row.get(f"field{j}") for j in range(fields)]
        out.append({
            "id": f"{run_id}:{k}",
            "engine": "agent",
            "type": entity_type,
            "name": row.get("name") if isinstance(row.get("name"), str) else None,
            "url": row.get("url") if isinstance(row.get("url"), str) and row.get("url") else None,
            "description": row.get("description") if isinstance(row.get("description"), str) else None,
            "verdicts": [
                {"criterion": c, "verdict": verdict_of(row.get(f"criterion{i}")), "reasoning": None,
                 "evidence": cited(f"criterion{i}")}
                for i, c in enumerate(criteria)
            ],
            "fields": [
                {"name": f"field{j}", "value": None if v in (None, "") else str(v), "citations": cited(f"field{j}")}
                for j, v in enumerate(values)
            ],
            "source": {"runId": run_id, "index": k, "row": row},
        })  # fmt: skip
    return out


def passes(row: Json) -> bool:
    """Whether every verdict of the row is yes (what a webset keeps: data-design/exa-api-notes.md)."""
    return all(v["verdict"] == "yes" for v in row["verdicts"])


def props_of(row: Json) -> Json:
    """Websets-style properties of an agent row: {type, url, description, <kind>: {name}}."""
    kind = str(row.get("type") or "custom")
    props: Json = {"type": kind, "url": row.get("url"), "description": row.get("description")}
    props[kind if kind in ("company", "person") else "custom"] = {"name": row.get("name")}
    return props


def as_item(row: Json, enrichment_ids: Sequence[str] | None = None) -> Json:
    """The Websets-item view of a row: a webset row's item as Exa returned it; an agent row as
    {id, source: "agent", runId, properties, evaluations (one per verdict), enrichments (one per
    field, enrichmentId = `enrichment_ids[j]` or the field's name)}."""
    if row.get("engine") == "websets":
        item: Json = row["source"]
        return item
    evaluations = [
        {"criterion": v["criterion"], "satisfied": v["verdict"], "reasoning": v.get("reasoning"),
         "references": [{"url": u} for u in v["evidence"]]}
        for v in row["verdicts"]
    ]  # fmt: skip
    enrichments = [
        {"enrichmentId": enrichment_ids[j] if enrichment_ids else f["name"], "status": "completed",
         "result": None if f["value"] is None else [f["value"]],
         "references": [{"url": u} for u in f["citations"]]}
        for j, f in enumerate(row["fields"])
    ]  # fmt: skip
    return {
        "id": row["id"],
        "source": "agent",
        "runId": row["source"]["runId"],
        "properties": props_of(row),
        "evaluations": evaluations,
        "enrichments": enrichments,
    }


# --- the agent collection ---------------------------------------------------------------------


def field_schema(e: kit.EnrichmentArg) -> Json:
    """An enrichment as a row field's JSON Schema (number, yes/no, options, else a string)."""
    if e.format == "number":
        return {"type": "number", "description": e.description}
    if e.format == "boolean":
        return {"type": "string", "enum": ["yes", "no"], "description": e.description}
    if e.format == "options":
        return {"type": "string", "enum": [o.label for o in e.options or []], "description": e.description}
    return {"type": "string", "description": e.description}


def rows_schema(criteria: Sequence[str], fields: Sequence[kit.EnrichmentArg], count: int) -> Json:
    """The outputSchema of a collection run: `count` rows of name, url, description, a
    yes/no/unclear field per criterion (`criterion{i}`, described by the criterion) and a field per
    enrichment (`field{j}`)."""
    props: Json = {
        "name": {"type": "string"},
        "url": {"type": "string", "description": "the entity's own website or profile URL"},
        "description": {"type": "string"},
    }
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


def entity_prompt(entity: Json) -> str:
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
    options: Json = field(default_factory=dict)
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

    rows: list[Json] = field(default_factory=list)
    run_ids: list[str] = field(default_factory=list)
    timed_out: bool = False
    runs: list[Json] = field(default_factory=list)  # each run as its last poll saw it (status, cost)
    rejected: list[Json] = field(default_factory=list)  # rows set aside (`Ask.keep_passing`)

    @property
    def returned(self) -> int:
        """Rows the runs returned (kept and set aside; a repeated URL counts once)."""
        return len(self.rows) + len(self.rejected)

    def urls(self) -> list[str]:
        """Every URL returned so far, kept or set aside, first-seen order."""
        return list(dict.fromkeys(r["url"] for r in [*self.rows, *self.rejected] if r.get("url")))


def _chunk_key(key: str, n: int) -> str:
    return key if n == 0 else f"{key}.c{n}"


def _body(ask: Ask, n: int, got: Collected) -> tuple[str, Json | None, Json]:
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
    return ask.query, rows_schema(ask.criteria, ask.fields, max(1, want)), options


async def start(ctx: TaskContext, key: str, ask: Ask) -> tuple[str, Callable[[], None]]:
    """Step `key`: the collection's first run, started once even across crashes; returns its id and
    the remover of its cancel hook (a task cancel cancels the run until it is removed)."""
    query, schema, options = _body(ask, 0, Collected())
    run = await runs_kit.create_run(ctx, key, query, schema, None, options)
    rid = str(run["researchId"])
    return rid, runs_kit.cancel_on_task_cancel(ctx, rid)


async def finish(
    ctx: TaskContext,
    key: str,
    wait_key: str,
    ask: Ask,
    first: tuple[str, Callable[[], None]],
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
        polled = await runs_kit.poll_run(ctx, _chunk_key(wait_key, n), rid, deadline)
        if polled.get("status") == "failed":
            raise runs_kit.run_failure(polled, what)
        if not polled["timedOut"]:
            remove_hook()
        got.runs.append({k: polled.get(k) for k in ("researchId", "status", "stopReason", "costDollars")})
        output = runs_kit.run_result(polled, True)
        citations = (polled.get("output") or {}).get("citations")
        held = set(got.urls())
        returned = from_agent(rid, output, ask.criteria, len(ask.fields), ask.entity_type, citations)
        new = [r for r in returned if not r.get("url") or r["url"] not in held]
        for r in new:
            (got.rows if not ask.keep_passing or passes(r) else got.rejected).append(r)
        if polled["timedOut"]:
            got.timed_out = True
            break
        n += 1
        if (
            len(got.rows) >= ask.count
            or not new
            or n >= ask.limit()
            or polled.get("status") != "completed"  # a cancelled run can't be continued
            # fewer rows than asked, not cut short: the agent found no more
            or (len(returned) < asked and polled.get("stopReason") not in CUT_SHORT)
        ):
            break
        query, schema, options = _body(ask, n, got)
        run = await runs_kit.create_run(ctx, _chunk_key(key, n), query, schema, None, options)
        rid = str(run["researchId"])
        remove_hook = runs_kit.cancel_on_task_cancel(ctx, rid)
    return got


async def collect(
    ctx: TaskContext, key: str, wait_key: str, ask: Ask, deadline: float, what: str
) -> Collected:
    """`start` then `finish`: one collection, its runs one after the other."""
    first = await start(ctx, key, ask)
    return await finish(ctx, key, wait_key, ask, first, deadline, what)
