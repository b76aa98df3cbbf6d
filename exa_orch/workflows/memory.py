"""Entity memory for the collection workflows: what the principal's earlier tasks found (issue 39).

A collection workflow calls three things at clear points:
- `agent_options(ctx, known)` / `webset_exclude(ctx, known, entity)` before it creates anything at Exa:
  with `known: "skip"`, the remembered entities as the Agent API's `input.exclusion` records
  ({name, url}) or as a webset search's `exclude` ([{source: "import", id}]: a CSV import of their
  URLs, made once and waited for; Exa omits what an exclude source holds, so the run pays for new
  entities only);
- `remember(ctx, items, known, ...)` once its items are final (step `known.remember`): every item
  goes into the memory of the task's principal, resolved against what memory holds by the resolver
  (`workflows.entities.resolve`); with "mark" each item says `known` (true when an earlier task saw
  the same entity) and `knownSince` (that task's first sighting); with "skip" the known items are
  left out of the result as well. "ignore" neither excludes nor marks (memory is still written).

Re-resolution: the new items are weighed together with every sighting of each remembered entity
they share an identity key with (domain, profile, canonical URL, name, an alias). The resolver's
groups become memory's entities: a group tying two remembered entities together merges them, one
that parts a remembered entity's sightings splits it; sightings keep their task and source pages.
Memory is per principal (`current_request().principal`, the task's owner; '' for none).
"""

from __future__ import annotations

import asyncio
import csv
import io
import random
import weakref
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal

from exa_orch.errors import StoreError
from exa_orch.gateway.agent_runs import MAX_INPUT_ROWS
from exa_orch.gateway.context import current_request
from exa_orch.runtime import TaskContext
from exa_orch.runtime.deps import exa_port_of
from exa_orch.store.memory import EntityMemory, Group, Plan, Remembered, Sighting
from exa_orch.workflows import entities, import_steps, kit

if TYPE_CHECKING:
    from exa_py.websets.types import Import

Json = dict[str, Any]
Known = Literal["skip", "mark", "ignore"]
MAX_EXCLUDED = MAX_INPUT_ROWS  # remembered entities sent as exclusions, most recently seen first
IMPORT_WAIT_S = 600.0
APPLY_ATTEMPTS = 20  # reads and plans again while another process writes the same principal's memory
# One re-resolution at a time per principal in this process, per event loop (a lock is bound to
# the loop it is first used on; tests and the eval run several loops in one process).
_LOCKS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, asyncio.Lock]] = (
    weakref.WeakKeyDictionary()
)


# known_now's step, once read in a run (a step key is used once per run).
_KNOWN: weakref.WeakKeyDictionary[TaskContext, list[Json]] = weakref.WeakKeyDictionary()


class KnownArgs(kit.TaskArgs):
    """The `known` arg every collection workflow takes."""

    known: Known = "mark"
    """what to do with entities your earlier collection tasks found (entity memory): "skip" asks Exa
    to leave them out (Agent API input.exclusion, a webset search's exclude of an import of them), so
    a repeat run pays for new entities only and its result holds only new ones (a webset search is
    held to what the plain run analyzes and stopped there: stoppedBy "allowance"); "mark" (default) gives
    each result item known: true|false and knownSince; "ignore" does neither. Every run's items are
    remembered whatever this says"""


def principal() -> str:
    """Whose memory a task reads and writes: its owner ('' for a task with no owner)."""
    return current_request().principal or ""


def memory_of(ctx: TaskContext) -> EntityMemory | None:
    """The runtime's entity memory (None in a runtime built without one: nothing is remembered)."""
    found = ctx.deps.memory
    return found if isinstance(found, EntityMemory) else None


# --- identity keys --------------------------------------------------------------------------------


def keys_of(item: Json) -> set[str]:
    """The keys a remembered entity is found by: registered domains, profile URLs, canonical URL, names."""
    r = entities.record(0, item)
    keys = {f"p:{p}" for p in r.profiles} | {f"d:{d}" for d in r.alias_domains}
    keys |= {f"n:{a}" for a in r.aliases}
    if r.domain:
        keys.add(f"d:{r.domain}")
    if r.site:
        keys.add(f"u:{r.site.canonical}")
    if r.clean:
        keys.add(f"n:{r.clean}")
    return keys


def sources_of(item: Json) -> list[str]:
    """The pages an item cites for its criteria and fields (evaluations' and enrichments' references)."""
    out: list[str] = []
    for key in ("evaluations", "enrichments"):
        for e in item.get(key) or []:
            for ref in (e.get("references") or []) if isinstance(e, dict) else []:
                url = ref.get("url") if isinstance(ref, dict) else ref
                if isinstance(url, str) and url and url not in out:
                    out.append(url)
    return out


def fields_of(item: Json, names: dict[str, str] | None = None) -> list[str]:
    """The fields an item has a value for: its enrichments with a result (named by `names`, id -> name)."""
    out = []
    for e in item.get("enrichments") or []:
        if isinstance(e, dict) and e.get("result") not in (None, [], ""):
            eid = str(e.get("enrichmentId"))
            out.append((names or {}).get(eid, eid))
    return out


# --- exclusions (before the run creates anything) ---------------------------------------------------


async def known_now(ctx: TaskContext) -> list[Json]:
    """Step `known.exclusion`: the remembered entities ({name, urls}) as this task first saw memory,
    so a resumed run sends Exa the same exclusions."""

    async def read() -> list[Json]:
        memory = memory_of(ctx)
        if memory is None:
            return []
        held = await memory.entities(principal(), MAX_EXCLUDED)
        return [{"name": e.name, "urls": e.urls} for e in held if e.urls or e.name]

    if ctx in _KNOWN:  # asked again in this run (the held search asks what was excluded)
        return _KNOWN[ctx]
    found: list[Json] = await ctx.step("known.exclusion", read)
    _KNOWN[ctx] = found
    return found


async def agent_options(ctx: TaskContext, known: Known) -> Json:
    """With "skip": {"input": {"exclusion": [{name, url}]}} of the remembered entities (merge it into
    the first run's options); else {}."""
    if known != "skip":
        return {}
    records = [
        {k: v for k, v in (("name", e["name"]), ("url", (e["urls"] or [None])[0])) if v}
        for e in await known_now(ctx)
    ]
    records = [r for r in records if r][:MAX_INPUT_ROWS]
    return {"input": {"exclusion": records}} if records else {}


def known_csv(held: Sequence[Json]) -> str:
    """The CSV (url, name) of remembered entities an import of them is made from."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["url", "name"])
    for e in held:
        for url in e["urls"]:
            writer.writerow([url, e["name"] or ""])
    return out.getvalue()


async def webset_exclude(ctx: TaskContext, known: Known, entity: Json) -> list[Json]:
    """With "skip" and a memory that holds URLs: [{source: "import", id}] of a CSV import of the
    remembered entities (steps `known.import`, `known.import.wait`: made once, waited for until
    completed), for a webset search's `exclude`; else []."""
    if known != "skip":
        return []
    held = [e for e in await known_now(ctx) if e["urls"]]
    if not held:
        return []
    port = exa_port_of(ctx.deps)

    async def make() -> Import:
        return await port.create_csv_import(
            known_csv(held), entity=entity, title="exa-orch: entities already known",
            key=ctx.external_id("known.import"),
        )  # fmt: skip

    made = await kit.model_step(ctx, "known.import", import_steps.IMPORT, make)

    async def wait() -> import_steps.ImportWait:
        imp, settled = await port.wait_import(made.id, within=IMPORT_WAIT_S, interval=1.0)
        return import_steps.ImportWait(imp, not settled)

    status = (await kit.model_step(ctx, "known.import.wait", import_steps.WAIT, wait)).imp.status
    if status != "completed":  # a failed or unfinished import excludes nothing: say so, don't guess
        await ctx.note(f"the import of known entities is {status}: this run does not exclude them")
        return []
    return [{"source": "import", "id": made.id}]


# --- remembering (once the items are final) -----------------------------------------------------


def _group(members: list[tuple[Sighting, Json]], reasons: list[Json], entity_id: int | None) -> Group:
    items = [item for _, item in members]
    records = [entities.record(i, item) for i, item in enumerate(items)]
    names = list(dict.fromkeys(n for n in map(kit.item_name, items) if n))
    return Group(
        entity_id=entity_id,
        type=next((r.kind for r in records if r.kind), None),
        name=names[0] if names else None,
        names=names,
        domains=sorted(
            {r.domain for r in records if r.domain} | {d for r in records for d in r.alias_domains}
        ),
        urls=list(dict.fromkeys(u for u in map(kit.item_url, items) if u)),
        profiles=sorted({p for r in records for p in r.profiles}),
        evidence=reasons,
        keys=sorted({k for item in items for k in keys_of(item)}),
        sightings=[s for s, _ in members],
    )


def plan(task_id: str, old: list[Remembered], new: list[Sighting]) -> tuple[Plan, list[list[Sighting]]]:
    """Memory after the re-resolution of `old` entities' sightings with `new` ones, and each new
    sighting's group (the same list objects the plan's groups hold)."""
    earlier = [(s, s.item) for e in old for s in e.sightings if s.task_id != task_id]
    pool = earlier + [(s, s.item) for s in new]
    resolution = entities.resolve([item for _, item in pool])
    claimed: set[int] = set()
    groups: list[Group] = []
    for members, reasons in zip(resolution.groups, resolution.reasons, strict=True):
        votes: dict[int, int] = {}
        for i in members:
            eid = pool[i][0].entity_id
            if eid is not None and eid not in claimed:
                votes[eid] = votes.get(eid, 0) + 1
        keep = min(votes, key=lambda e: (-votes[e], e)) if votes else None
        if keep is not None:
            claimed.add(keep)
        groups.append(_group([pool[i] for i in members], reasons, keep))
    dropped = sorted(e.id for e in old if e.id not in claimed)
    read = {e.id: len(e.sightings) for e in old}
    return Plan(groups, dropped, read), [g.sightings for g in groups]


async def resolve_into(
    memory: EntityMemory, who: str, task_id: str, new: list[Sighting]
) -> list[list[Sighting]]:
    """Re-resolve `new` sightings with what `who`'s memory holds and write the result; each new
    sighting's group. Read, plan, apply, again while memory changed in between (`EntityMemory.apply`
    None: another process remembered meanwhile), so no two processes make one entity twice."""
    # Reading the items' keys and resolving them is CPU work (seconds for a few hundred items on a
    # busy machine): off the event loop, which keeps renewing leases.
    keys = await asyncio.to_thread(lambda: sorted({k for s in new for k in keys_of(s.item)}))
    for attempt in range(APPLY_ATTEMPTS):
        old = await memory.candidates(who, keys)
        # A refused apply changed none of `new`.
        after, of_new = await asyncio.to_thread(plan, task_id, old, new)
        after.probed = keys
        if await memory.apply(who, after) is not None:
            return of_new
        await asyncio.sleep(random.uniform(0.01, 0.05) * (attempt + 1))  # the other writer's turn
    raise StoreError(
        f"entity memory of {who or 'tasks with no owner'} kept changing while this task wrote to it "
        f"({APPLY_ATTEMPTS} attempts)",
        hint="Run the task again: its items are remembered then.",
    )


def _since(group: list[Sighting], task_id: str) -> str | None:
    seen = [s.seen_at for s in group if s.task_id != task_id and s.seen_at]
    return min(seen) if seen else None


async def remember(
    ctx: TaskContext, items: list[Json], known: Known, task_type: str, fields: dict[str, str] | None = None
) -> list[Json]:
    """Step `known.remember`: remember `items` (see the module docstring) and return the result's
    items: marked ("mark"), without the known ones ("skip"), or as they were ("ignore")."""
    return _kept(items, await _marks(ctx, items, task_type, fields), known)


async def remember_lists(
    ctx: TaskContext, lists: list[list[Json]], known: Known, task_type: str
) -> list[list[Json]]:
    """`remember` for a task whose items come in lists (one per query): every item remembered in
    one step, each list returned as `remember` returns its items."""
    marks = await _marks(ctx, [item for items in lists for item in items], task_type, None)
    out: list[list[Json]] = []
    for items in lists:
        out.append(_kept(items, marks[: len(items)], known))
        marks = marks[len(items) :]
    return out


async def _marks(
    ctx: TaskContext, items: list[Json], task_type: str, fields: dict[str, str] | None
) -> list[Json]:
    """Step `known.remember`: write `items` into memory; per item {knownSince: the first sighting by
    another task of its entity, or None}."""

    async def write() -> list[Json]:
        memory = memory_of(ctx)
        if memory is None or not items:
            return [{} for _ in items]
        who = principal()
        new = [
            Sighting(ctx.task_id, task_type, str(item.get("id") or n), item, kit.item_url(item),
                     sources_of(item), fields_of(item, fields))
            for n, item in enumerate(items)
        ]  # fmt: skip
        lock = _LOCKS.setdefault(asyncio.get_running_loop(), {}).setdefault(who, asyncio.Lock())
        async with lock:
            of_new = await resolve_into(memory, who, ctx.task_id, new)
        where = {id(s): g for g in of_new for s in g}
        return [{"knownSince": _since(where[id(s)], ctx.task_id)} for s in new]

    marks: list[Json] = await ctx.step("known.remember", write)
    return marks


def _kept(items: list[Json], marks: list[Json], known: Known) -> list[Json]:
    """The result's items after `remember`: marked, the known ones left out, or as they were."""
    out: list[Json] = []
    for item, mark in zip(items, marks, strict=True):
        since = mark.get("knownSince")
        if known == "skip" and since:
            continue
        out.append({**item, "known": since is not None, "knownSince": since} if known == "mark" else item)
    return out
