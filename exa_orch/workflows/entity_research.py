"""research.verifiedCollection's research phase: the collected entities, each researched in depth.

The items are merged by entity (a second page of the same entity gets `sameEntityAs` and
`mergeReasons` instead of a run), then the first `researchLimit` entities are researched: one run
per entity (`researchPrompt` with {{name}}, {{url}}, {{description}} filled from the item), or, when
`batched` (a row engine's collection), one run per `Ask.batch` entities, their rows sent as
`input.data` and the answer asked as each row's `research` field; at most IN_FLIGHT runs at once.
Every create and poll is a step under its own key (`research.create:<i>`, `research.poll:<i>`,
`research.batch:<b>`, `research.batch.poll:<b>`), so a resumed task redoes none of them.
"""

from __future__ import annotations

import asyncio
import re
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from exa_orch.exa.events import RunEvent
from exa_orch.exa.statuses import RUN_TERMINAL
from exa_orch.gateway.agent_runs import OutputSchema
from exa_orch.runtime import TaskContext
from exa_orch.workflows import entities, kit, runs
from exa_orch.workflows.research import ResearchModel, event_note, start_research_run
from exa_orch.workflows.row_model import ItemJson
from exa_orch.workflows.runs import RunSeen, answer_of

if TYPE_CHECKING:
    from exa_py.agent.types import AgentRun

ResultJson = dict[str, Any]
"""The task's result (and each item's entry in it), as agents read it."""
InputRow = dict[str, str]
"""A batch run's input.data row: an entity's name, url and description (the empty ones left out)."""
Answer = dict[str, Any]
"""One row of a batch run's structured output (the user's research schema under `research`)."""
IN_FLIGHT = 3  # research runs at once (the seed's limit, against rate limits)
PLACEHOLDER = re.compile(r"\{\{\s*([A-Za-z_]\w*)\s*\}\}")
FIELDS = ("name", "url", "description")
MAX_INSTRUCTIONS = 20000  # research.create's instructions limit


def item_fields(item: ItemJson) -> dict[str, str]:
    """What the placeholders stand for: the entity's name, its URL and its description ('' if none)."""
    props = item.get("properties") or {}
    description = props.get("description")
    return {
        "name": kit.item_name(item) or kit.item_url(item) or str(item.get("id") or ""),
        "url": kit.item_url(item) or "",
        "description": description if isinstance(description, str) else "",
    }


def fill(prompt: str, item: ItemJson) -> str:
    """`prompt` with {{name}}, {{url}}, {{description}} replaced by the item's values, at most
    MAX_INSTRUCTIONS characters (what research.create takes): past it, the description is cut to fit
    (each of its placeholders an equal share), then the whole, so a long page never fails the run."""
    values = item_fields(item)

    def filled(given: dict[str, str]) -> str:
        return PLACEHOLDER.sub(lambda m: given.get(m.group(1), m.group(0)), prompt)

    out = filled(values)
    if len(out) <= MAX_INSTRUCTIONS:
        return out
    uses = sum(1 for m in PLACEHOLDER.finditer(prompt) if m.group(1) == "description")
    if uses:
        rest = len(filled({**values, "description": ""}))
        share = max(0, (MAX_INSTRUCTIONS - rest) // uses)
        out = filled({**values, "description": values["description"][:share]})
    return out[:MAX_INSTRUCTIONS]


def research_entry(created: RunSeen, seen: RunSeen, result: Any) -> ResultJson:
    """An item's `research`: {researchId, status, result, duration (ms from create to last seen)}."""
    run = seen.run
    entry: ResultJson = {
        "researchId": created.run.id,
        "status": run.status,
        "result": result,
        # never below 0: an older version's create checkpoint has no time (it is taken on reading)
        "duration": max(0, round((seen.at - created.at) * 1000)),
    }
    if seen.timed_out:
        entry["timedOut"] = True
    if run.status == "failed":
        entry["error"] = (run.error.message if run.error is not None else None) or "the research run failed"
    return entry


@dataclass(frozen=True)
class Ask:
    """What the task asks of each entity: its args' research fields."""

    prompt: str  # researchPrompt
    schema: OutputSchema | None  # researchSchema
    model: ResearchModel  # researchModel
    limit: int  # researchLimit
    batch: int  # entities one run gets as input.data rows (a row engine)


class Research:
    """The research phase of one task: `await (await Research.of(...)).run()` returns the task's
    result.

    The items are merged by entity (`resolution`: `entities.resolve(items)`) and the first `limit`
    entities researched (nothing when the collection timed out: it used the time up); the result
    starts with `head` (engine, where the items came from)."""

    def __init__(
        self,
        ctx: TaskContext,
        ask: Ask,
        head: ResultJson,
        items: list[ItemJson],
        resolution: entities.Resolution,
        collect_timed_out: bool,
        started: float,
        deadline: float,
    ) -> None:
        self.ctx, self.ask, self.head, self.items = ctx, ask, head, items
        self.collect_timed_out, self.started, self.deadline = collect_timed_out, started, deadline
        self.merged: list[ResultJson] = [{"item": item} for item in items]
        # One research run per entity, not per item: a second page of the same company (entity
        # resolution) points at the item researched for it.
        self.resolution = resolution
        for members, reasons in zip(self.resolution.groups, self.resolution.reasons, strict=True):
            for i in members[1:]:
                self.merged[i]["sameEntityAs"] = items[members[0]].get("id")
                self.merged[i]["mergeReasons"] = reasons
        leaders = sorted(members[0] for members in self.resolution.groups)
        # Nothing is researched once the time is up (a collection that timed out used it all).
        self.targets = [] if collect_timed_out else leaders[: ask.limit]
        self.structured = ask.schema is not None
        self.researched = 0
        self.gate = asyncio.Semaphore(IN_FLIGHT)
        self.unfinished: set[str] = set()

    @classmethod
    async def of(
        cls,
        ctx: TaskContext,
        ask: Ask,
        head: ResultJson,
        items: list[ItemJson],
        collect_timed_out: bool,
        started: float,
        deadline: float,
    ) -> Research:
        """The research phase over `items`, resolved into entities in a worker thread: resolution
        is CPU work (seconds for a few hundred items on a busy machine), and the event loop it
        would hold is the one that renews the task's lease."""
        resolution = await asyncio.to_thread(entities.resolve, items)
        return cls(ctx, ask, head, items, resolution, collect_timed_out, started, deadline)

    def result(self, partial: bool) -> ResultJson:
        """The task's result as it stands: the items, and every research run finished so far."""
        out: ResultJson = {
            **self.head,
            "items": self.merged,
            "totalItems": len(self.items),
            "uniqueEntities": len(self.resolution.groups),
            "researchedCount": self.researched,
            "duration": round((time.time() - self.started) * 1000),
            "timedOut": self.collect_timed_out
            or any(m.get("research", {}).get("timedOut") for m in self.merged),
        }
        if partial:
            out["partial"] = True
        if out["timedOut"]:
            out.update(partial=True, stoppedBy="timeout")
        return out

    async def run(self, batched: bool) -> ResultJson:
        """Research the targets (in batches when `batched`) and return the whole result."""

        async def found() -> ResultJson:
            return self.result(partial=True)  # the items, and every research run finished so far

        self.ctx.on_stop(found)
        await self.ctx.partial(self.result(partial=True))
        if self.targets:
            await self.ctx.progress(
                "research", 0, len(self.targets), f"researching {len(self.targets)} items"
            )
        if batched:
            batches = [
                self.targets[k : k + self.ask.batch] for k in range(0, len(self.targets), self.ask.batch)
            ]
            await _all(
                self.ctx, [self.batch(b, members) for b, members in enumerate(batches)], self.unfinished
            )
        else:
            await _all(self.ctx, [self.research(i) for i in self.targets], self.unfinished)
        return self.result(partial=False)

    def done_count(self) -> int:
        return sum("research" in m for m in self.merged)

    async def progress(self, note: str) -> None:
        await self.ctx.progress("research", self.done_count(), len(self.targets), note)

    async def follow(self, key: str, created: RunSeen, what: str) -> RunSeen:
        """The run `created` followed to its end or the deadline (events, then step `key`)."""
        ctx, research_id = self.ctx, created.run.id
        self.unfinished.add(research_id)
        remove_hook = ctx.on_cancel(lambda: runs.cancel_quietly(ctx, research_id))

        async def report(run: AgentRun, polls: int) -> None:
            # How long the run has been going: a report no earlier run of the task made, so a
            # long wait across server restarts reads as progress (store/leases.py).
            await self.progress(f"{what}: research {run.status} {kit.elapsed(created.at)}")

        async def on_event(event: RunEvent, n: int) -> None:
            await self.progress(f"{what}: {event_note(research_id, event)}")

        seen = await runs.watch_run(ctx, key, research_id, self.deadline, on_event, report)
        if seen.run.status in RUN_TERMINAL:
            remove_hook()
            self.unfinished.discard(research_id)
        return seen

    async def research(self, i: int) -> None:
        """Item `i` researched by a run of its own."""
        ask = self.ask
        async with self.gate:
            args: dict[str, Any] = {"instructions": fill(ask.prompt, self.items[i]), "model": ask.model}
            if ask.schema is not None:
                args["outputSchema"] = ask.schema
            created = await start_research_run(self.ctx, f"research.create:{i}", args)
            seen = await self.follow(f"research.poll:{i}", created, f"item {i}")
        self.merged[i]["research"] = research_entry(created, seen, answer_of(seen.run, self.structured))
        self.researched += seen.run.status == "completed"
        await self.progress(f"item {i}: research {seen.run.status}")
        await self.ctx.partial(self.result(partial=True))

    async def batch(self, b: int, members: list[int]) -> None:
        """Items `members` researched by one run, as its input.data rows."""
        ask = self.ask
        async with self.gate:
            data = [batch_row(self.items[i]) for i in members]
            args = {
                "instructions": batch_instructions(ask.prompt), "model": ask.model,
                "outputSchema": batch_schema(ask.schema, len(data)), "input": {"data": data},
            }  # fmt: skip
            created = await start_research_run(self.ctx, f"research.batch:{b}", args)
            seen = await self.follow(f"research.batch.poll:{b}", created, f"batch {b}")
        status = seen.run.status
        for i, answer in zip(members, batch_answers(data, answer_of(seen.run, True)), strict=True):
            entry = research_entry(created, seen, None if answer is None else answer.get("research"))
            if status == "completed" and answer is None:
                entry["error"] = f"research run {created.run.id} returned no row for this item"
            self.merged[i]["research"] = entry
            self.researched += status == "completed" and answer is not None
        await self.progress(f"batch {b} ({len(members)} items): research {status}")
        await self.ctx.partial(self.result(partial=True))


# --- research batches (a row engine) -------------------------------------------------------


def batch_instructions(prompt: str) -> str:
    """A batch run's instructions: the research prompt for every input row, its {{name}}, {{url}},
    {{description}} naming the row's fields."""
    body = PLACEHOLDER.sub(lambda m: f"the row's {m.group(1)}", prompt)
    return (
        "Each input row is an entity (its name, url and description). For every row, research it as "
        "these instructions say and put the answer in the row's `research` field:\n\n" + body
    )


def batch_schema(research_schema: OutputSchema | None, n: int) -> OutputSchema:
    """A batch run's outputSchema: `n` rows of {name, url, research} (research: `research_schema`,
    else the answer's markdown text)."""
    answer = (
        research_schema
        if research_schema is not None
        else {"type": "string", "description": "the answer, in markdown"}
    )
    item = {
        "type": "object",
        "properties": {"name": {"type": "string"}, "url": {"type": "string"}, "research": answer},
    }
    rows_list = {"type": "array", "minItems": n, "maxItems": n, "items": item}
    return {"type": "object", "properties": {"rows": rows_list}}


def batch_row(item: ItemJson) -> InputRow:
    """An item as a batch run's input row: its name, url and description (empty ones left out)."""
    return {k: v for k, v in item_fields(item).items() if v}


def batch_answers(data: list[InputRow], output: Any) -> list[Answer | None]:
    """The row of a batch run's structured `output` answering each input row: the one with its url,
    else the one at its place (unless that one names another url); None when the run returned none
    for it."""
    got = output.get("rows") if isinstance(output, dict) else output
    out_rows = [r for r in got if isinstance(r, dict)] if isinstance(got, list) else []
    by_url: dict[str, Answer] = {}
    for r in out_rows:
        if isinstance(r.get("url"), str) and r["url"]:
            by_url.setdefault(r["url"], r)
    answers: list[Answer | None] = []
    for k, row in enumerate(data):
        hit = by_url.get(row.get("url", "")) if row.get("url") else None
        if hit is None and k < len(out_rows) and out_rows[k].get("url") in (None, "", row.get("url")):
            hit = out_rows[k]
        answers.append(hit)
    return answers


async def _all(ctx: TaskContext, jobs: list[Any], unfinished: set[str]) -> None:
    """Run `jobs` together; the first error cancels the others and the runs they left going.

    A job cancelled by the runtime (a cancelling replay stops at its first live step) does not stop
    the others, so every replayed create registers its cancel hook before the run ends."""
    tasks = [asyncio.create_task(job) for job in jobs]
    failed: list[BaseException] = []

    def on_done(task: asyncio.Task[Any]) -> None:
        if not task.cancelled() and task.exception() is not None and not failed:
            failed.append(task.exception())  # type: ignore[arg-type]
            for other in tasks:
                other.cancel()

    for task in tasks:
        task.add_done_callback(on_done)
    outcomes = await asyncio.gather(*tasks, return_exceptions=True)
    if failed:
        for research_id in sorted(unfinished):  # best effort: don't leave paid runs going
            await runs.cancel_quietly(ctx, research_id)
        raise failed[0]
    if any(isinstance(o, asyncio.CancelledError) for o in outcomes):
        raise asyncio.CancelledError
