"""What the views read: tasks, their steps and events, and the MAP-Elites archive, read-only.

`ViewDB` holds the database's backend (store/backends.py) and reads through the read-only
connection it opens (SQLite: a `mode=ro` URI and `PRAGMA query_only`; PostgreSQL: a
`default_transaction_read_only` session, reconnected if the server ended it); and nothing here
but SELECTs. Every JSON
column is cut in SQL (`substr`) before it leaves the database, so a task with a 50 MB result
costs the view a few KB: the sizes shown are `length()` of the stored text. Rows come back as
plain dicts; nothing here renders anything. Who may see what is `viewer.Viewer`; the small
values of a row (ages, ids, counts) are `values`'.

Every query about a task or a run takes a `Viewer`: whose tasks may be seen. A task another
principal owns reads exactly as a task that does not exist (None, an empty list). A run (and its
elites) belongs to the owner of the task that made it (`workflow_runs.task_id`; once the task has
expired, its tombstone's owner; once that is forgotten too, nobody: the run counts as unowned).
"""

from __future__ import annotations

from collections import OrderedDict
from datetime import datetime
from pathlib import Path
from types import TracebackType
from typing import Any, Self

from exa_orch.errors import StoreError
from exa_orch.store import Backend, backend_for
from exa_orch.store.backend import ReadOnly
from exa_orch.store.records import TASK_ROW, TaskStatus
from exa_orch.view.values import (
    age_seconds,
    json_or_none,
    like_pattern,
    now_utc,
    number,
    one_line,
    seconds_between,
)
from exa_orch.view.values import age_text as age_text  # re-exported
from exa_orch.view.values import check_task_id as check_task_id  # re-exported
from exa_orch.view.values import check_workflow_id as check_workflow_id  # re-exported
from exa_orch.view.viewer import Viewer as Viewer  # re-exported
from exa_orch.view.waiting import WAITING_SQL, waiting_for

COORDS = ("scope", "domain_structure", "evidence_type", "time_horizon", "fidelity")
PREVIEW = 2_000  # characters of a step's result or an item shown in a list
DOCUMENT = 64_000  # characters of a result or partial result shown on a task's page
MAX_EVENTS = 200
MAX_ELITES = 500
SUMMARIES_KEPT = 64  # partial-result summaries a ViewDB remembers (one per task page open)
READ_WHOLE = 2_000_000  # characters of a finished result read whole, to draw its items as a table
TITLE = 300  # characters of a task's title read from its args
# Every status a task can have, in lifecycle order: what the status filters offer.
STATUSES: tuple[str, ...] = tuple(s.value for s in TaskStatus)
# The arg a person would recognise a task by, first found wins: a research question or query, a
# thesis, an agent's instructions, the first of convergent.search's queries, an operation task's
# own query, else the operation it runs (and on what id). Cut in SQL, so a 20 KB prompt costs the list TITLE chars.
TITLE_SQL = (
    "substr(coalesce(json_extract(args, '$.query'), json_extract(args, '$.thesis'),"
    " json_extract(args, '$.instructions'), json_extract(args, '$.queries[0]'),"
    " json_extract(args, '$.args.query'), json_extract(args, '$.args.instructions'),"
    " json_extract(args, '$.operation') || coalesce(' ' || json_extract(args, '$.args.id'), '')),"
    f" 1, {TITLE})"
)


class ViewDB:
    """A read-only connection to an exa-orch database and the queries the views ask of it.

    `async with ViewDB(target) as db`, where `target` is an SQLite file, a `postgresql://` URL or
    a backend, opened read-only by its backend. One connection, its queries run one at
    a time; on PostgreSQL each is its own read-only transaction, so every poll sees the latest
    commit. The database must exist and be exa-orch's (StoreError, ForeignDatabase otherwise); it
    is never created, migrated or written. A query the database can't answer (an older schema)
    raises StoreError.
    """

    def __init__(self, target: Path | str | Backend) -> None:
        self.backend = backend_for(target)
        self.where = self.backend.where  # for messages: a URL's password left out
        self.name = self.where  # for page headers: the database's own name once open
        self._dialect = self.backend.dialect
        self._db: ReadOnly | None = None
        self.task_columns: frozenset[str] = frozenset()
        self._tasks = "tasks"  # what a query reads a task's columns from (store/records.py TASK_ROW)
        # task id -> (what its partial result looked like, its summary): see `task`
        self._summaries: OrderedDict[str, tuple[tuple[Any, ...], list[tuple[str, str]]]] = OrderedDict()

    async def __aenter__(self) -> Self:
        self._db = await self.backend.open_readonly("exa-orch view")
        self.name = self._db.name
        try:
            self.task_columns = frozenset(r["name"] for r in await self._rows(self._dialect.task_columns))
        except BaseException:
            await self.aclose()
            raise
        try:  # the narrow row of counters (migration 0019): its columns read as the task's, as before
            await self._rows("SELECT step_count FROM task_heads WHERE 1 = 0")
            self.task_columns |= {"step_count", "last_step_key", "cost_usd", "cost_billed_usd"}
            self._tasks = TASK_ROW
        except StoreError:
            self._tasks = "tasks"
        if "status" not in self.task_columns:
            await self.aclose()
            raise StoreError(
                f"{self.where} has no tasks table: it is not an exa-orch database or was never migrated",
                hint=f"Run `exa-orch db migrate --db {self.where}` (or start the server once) first.",
            )
        try:  # the cost ledger (migration 0008); an older database shows no costs
            await self._rows("SELECT usd FROM costs WHERE 1 = 0")
            self.has_costs = True
        except StoreError:
            self.has_costs = False
        return self

    async def __aexit__(
        self, tp: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """Close the connection; closing twice is fine."""
        if self._db is not None:
            db, self._db = self._db, None
            await db.close()

    has_costs: bool = False  # whether the database has the cost ledger (migration 0008)

    @property
    def has_owner(self) -> bool:
        """Whether the tasks table has an `owner` column (added by a later migration)."""
        return "owner" in self.task_columns

    async def _rows(self, sql: str, params: tuple[Any, ...] = ()) -> list[dict[str, Any]]:
        # A query the database can't answer (an older or foreign schema, a locked file) is a
        # StoreError that says how to bring it up to date.
        assert self._db is not None, "use `async with ViewDB(...)`"
        return await self._db.rows(sql, params)

    # ------------------------------------------------------------------------------ tasks

    @property
    def _owner(self) -> str:
        # Before migration 0003 there was no owner: every task is unowned.
        return "owner" if self.has_owner else "NULL"

    @property
    def _run_owner(self) -> str:
        """SQL: the owner of run `r` (its task's, else its expired task's tombstone's, else NULL)."""
        if not self.has_owner:
            return "NULL"
        return (
            "coalesce((SELECT t.owner FROM tasks t WHERE t.id = r.task_id),"
            " (SELECT b.owner FROM task_tombstones b WHERE b.id = r.task_id))"
        )

    async def tasks(
        self,
        viewer: Viewer,
        limit: int = 200,
        status: str | None = None,
        *,
        type: str | None = None,
        text: str | None = None,
    ) -> list[dict[str, Any]]:
        """The newest `limit` tasks `viewer` may see, unfinished ones first, as dicts for a list view;
        only those of `status` and `type` when given, and whose title or id holds `text` (any case)."""
        owner = ", owner" if self.has_owner else ""
        seen, params = viewer.owner_filter(self._owner)
        where, args = [seen], list(params)
        if status:
            where.append("status = ?")
            args.append(status)
        if type:
            where.append("type = ?")
            args.append(type)
        if text:
            where.append(f"(lower({TITLE_SQL}) LIKE ? ESCAPE '\\' OR id LIKE ? ESCAPE '\\')")
            args += [like_pattern(text), like_pattern(text)]
        if "cost_usd" in self.task_columns:  # the task's total on its row (migration 0015)
            cost = ", nullif(cost_usd, 0) AS cost_usd"  # NULL: paid nothing, as before
        elif self.has_costs:
            cost = ", (SELECT sum(c.usd) FROM costs c WHERE c.task_id = tasks.id) AS cost_usd"
        else:
            cost = ", NULL AS cost_usd"
        rows = await self._rows(
            f"SELECT id, type, status, progress, created_at, updated_at, step_count, cancel_requested,"
            f" {TITLE_SQL} AS title, json_extract(error, '$.code') AS error_code,"
            f" json_extract(error, '$.message') AS error_message, {WAITING_SQL}{owner}{cost} FROM {self._tasks}"
            f" WHERE {' AND '.join(where)}"
            " ORDER BY status IN ('completed', 'failed', 'cancelled'), created_at DESC LIMIT ?",
            (*args, limit),
        )
        now = now_utc()
        return [self._task_summary(r, now) for r in rows]

    async def daily_costs(self, viewer: Viewer, days: int = 3) -> list[tuple[str, float]]:
        """(UTC day, dollars) `viewer`'s requests to Exa cost, the newest `days` days that cost
        anything, newest first (none before the cost ledger's migration)."""
        if not self.has_costs:
            return []
        seen, params = viewer.owner_filter("principal")
        rows = await self._rows(
            f"SELECT substr(at, 1, 10) AS day, sum(usd) AS usd FROM costs WHERE {seen}"
            " GROUP BY substr(at, 1, 10) ORDER BY day DESC LIMIT ?",
            (*params, days),
        )
        return [(str(r["day"]), float(r["usd"] or 0)) for r in rows]

    async def task_types(self, viewer: Viewer) -> list[str]:
        """The task types among `viewer`'s tasks, sorted: what the type filter offers."""
        seen, params = viewer.owner_filter(self._owner)
        rows = await self._rows(f"SELECT DISTINCT type FROM tasks WHERE {seen} ORDER BY type", params)
        return [str(r["type"]) for r in rows]

    def _task_summary(self, row: dict[str, Any], now: datetime) -> dict[str, Any]:
        progress = json_or_none(row.pop("progress"))
        progress = progress if isinstance(progress, dict) else {}
        completed, total = number(progress.get("completed")), number(progress.get("total"))
        fraction = None
        if isinstance(completed, int | float) and isinstance(total, int | float) and total > 0:
            fraction = max(0.0, min(1.0, completed / total))
        # How a completed task stopped short (its budget, its deadline): the actor's last progress
        # says so (runtime/actor.py), and the views give it its own word, never a full bar.
        stopped = progress.get("stoppedBy") if row["status"] == "completed" else None
        if row["status"] == "completed":
            fraction = None if stopped else 1.0
        elif row["status"] in ("failed", "cancelled"):
            fraction = None  # a bar stopped half-way reads as still running; the status says it all
        finished = row["status"] in ("completed", "failed", "cancelled")
        # A finished task's last write is its terminal transition: that is when it ended.
        ended = row["updated_at"] if finished else None
        started = age_seconds(row["created_at"], now)
        phase, message = waiting_for(
            row.pop("waiting_kind"), row.pop("waiting_principal"), row.pop("waiting_path")
        )
        row.update(
            stopped_by=str(stopped) if stopped else None,
            phase=phase if row["status"] == "input_required" else progress.get("step"),
            completed=completed,
            total=total,
            message=message if row["status"] == "input_required" else progress.get("message"),
            fraction=fraction,
            age=started,
            ended_at=ended,
            duration=seconds_between(row["created_at"], ended) if ended else started,
            owner=row.get("owner"),
            title=one_line(row.get("title")),
            error_code=row.get("error_code"),
        )
        return row

    async def task(self, task_id: str, viewer: Viewer) -> dict[str, Any] | None:
        """One task with its result and partial result cut to DOCUMENT characters, and the
        partial result's summary (`partial_summary`, remembered while the partial result stays
        the same); None if absent or not `viewer`'s to see (the two are not told apart). Ask for
        its steps and events only after this answered."""
        check_task_id(task_id)
        owner = ", owner" if self.has_owner else ""
        seen, params = viewer.owner_filter(self._owner)
        rows = await self._rows(
            "SELECT id, type, status, progress, created_at, updated_at, expires_at, step_count,"
            " cancel_requested, attempts, lease_owner, lease_expires_at, last_step_key,"
            f" error, substr(args, 1, {DOCUMENT}) AS args, length(args) AS args_size,"
            f" substr(partial_result, 1, {DOCUMENT}) AS partial, length(partial_result) AS partial_size,"
            f" substr(result, 1, {DOCUMENT}) AS result, length(result) AS result_size,"
            f" {TITLE_SQL} AS title, json_extract(error, '$.code') AS error_code,"
            f" json_extract(error, '$.message') AS error_message, {WAITING_SQL}{owner}"
            f" FROM {self._tasks} WHERE id = ? AND {seen}",
            (task_id, *params),
        )
        if not rows:
            return None
        task = self._task_summary(rows[0], now_utc())
        # The page polls every second and summarizing a 50 MB partial result walks all of it in
        # the database: a summary is computed again only once the partial result changed (its
        # update time, length or first DOCUMENT characters), which this row already tells.
        stamp = (task["updated_at"], task["partial_size"], hash(task["partial"]))
        known = self._summaries.get(task_id)
        if known is not None and known[0] == stamp:
            self._summaries.move_to_end(task_id)
            task["partial_summary"] = list(known[1])
            return task
        summary = await self.partial_summary(task_id)
        self._summaries[task_id] = (stamp, summary)
        self._summaries.move_to_end(task_id)
        while len(self._summaries) > SUMMARIES_KEPT:
            self._summaries.popitem(last=False)
        task["partial_summary"] = list(summary)
        return task

    async def partial_summary(self, task_id: str) -> list[tuple[str, str]]:
        """Up to 30 (key, value) lines about a task's partial result, whatever its size: scalars as
        they are (cut to 200 characters), lists and objects counted. The database walks the JSON,
        so a 50 MB partial result is summarized without leaving it."""
        rows = await self._rows(self._dialect.partial_summary, (task_id,))
        lines = []
        for row in rows:
            kind, shown = row["type"], row["shown"]
            if kind == "array":
                text = f"{shown} item{'s' if int(shown) != 1 else ''}"
            elif kind == "object":
                text = f"{{{shown} keys}}"
            elif kind == "null":
                text = "none"
            elif kind in ("true", "false"):  # SQLite's names; PostgreSQL's 'boolean' shows its value
                text = "yes" if kind == "true" else "no"
            elif kind == "boolean":
                text = "yes" if str(shown) == "true" else "no"
            else:
                text = str(shown)
            lines.append((str(row["key"])[:80], text))
        return lines

    async def whole_result(self, task_id: str) -> Any:
        """A task's result decoded, if it is at most READ_WHOLE characters (else None): what the
        task page draws its items from. Ask only after `task` answered for the viewer."""
        rows = await self._rows(
            f"SELECT result FROM tasks WHERE id = ? AND length(result) <= {READ_WHOLE}",
            (check_task_id(task_id),),
        )
        return json_or_none(rows[0]["result"]) if rows else None

    async def task_runs(self, task_id: str) -> list[dict[str, Any]]:
        """The archive runs a task filed (one, once it ended), newest first. Ask only after `task`
        answered for the viewer: a run is its task's owner's."""
        return await self._rows(
            "SELECT r.id, r.workflow_id, r.status, r.fitness, w.name AS workflow_name FROM workflow_runs r"
            " JOIN workflows w ON w.id = r.workflow_id WHERE r.task_id = ? ORDER BY r.id DESC LIMIT 10",
            (check_task_id(task_id),),
        )

    async def steps(self, task_id: str) -> list[dict[str, Any]]:
        """A task's checkpoints in save order, each with its size and a preview of its result."""
        return await self._rows(
            f"SELECT step_key, seq, saved_at, length(result) AS size, substr(result, 1, {PREVIEW}) AS preview"
            " FROM task_steps WHERE task_id = ? ORDER BY seq",
            (check_task_id(task_id),),
        )

    async def events(self, task_id: str, limit: int = MAX_EVENTS) -> list[dict[str, Any]]:
        """A task's newest `limit` events, oldest first."""
        rows = await self._rows(
            f"SELECT id, at, kind, status, substr(message, 1, {PREVIEW}) AS message FROM task_events"
            " WHERE task_id = ? ORDER BY id DESC LIMIT ?",
            (check_task_id(task_id), limit),
        )
        return rows[::-1]

    # ---------------------------------------------------------------------------- archive

    async def cells(self, viewer: Viewer) -> list[dict[str, Any]]:
        """Every MAP-Elites cell, as `v_archive` has it but over the runs `viewer` may see only
        (run counts, best run, fitness), with its five coordinates as integers. The archetypes
        themselves (`workflows`) are the catalogue, not anyone's data: every cell is listed."""
        seen, params = viewer.owner_filter(self._run_owner)
        rows = await self._rows(
            # v_archive's query (migrations/0002), with workflow_runs narrowed to `seen` runs.
            f"WITH runs AS (SELECT r.* FROM workflow_runs r WHERE {seen}), ranked AS (SELECT"
            " w.coord_scope || ',' || w.coord_domain_structure || ',' || w.coord_evidence_type || ','"
            " || w.coord_time_horizon || ',' || w.coord_fidelity AS cell, w.id AS workflow_id, w.name,"
            " w.archetype, w.task_type, (SELECT count(*) FROM runs c WHERE c.workflow_id = w.id) AS runs,"
            " r.id AS best_run_id, r.task_id, r.fitness, r.coverage, r.diversity, r.stringency, r.niches,"
            " r.finished_at, row_number() OVER (PARTITION BY w.coord_scope, w.coord_domain_structure,"
            " w.coord_evidence_type, w.coord_time_horizon, w.coord_fidelity ORDER BY r.fitness IS NULL,"
            " r.fitness DESC, r.coverage DESC NULLS LAST, r.finished_at DESC, w.id) AS rank_in_cell"
            " FROM workflows w LEFT JOIN runs r ON r.workflow_id = w.id AND r.status = 'completed')"
            " SELECT cell, workflow_id, name, archetype, task_type, runs, best_run_id, task_id, fitness,"
            " coverage, diversity, stringency, niches, finished_at FROM ranked WHERE rank_in_cell = 1"
            " ORDER BY cell",
            params,
        )
        for row in rows:
            parts = str(row["cell"]).split(",")
            coords = [int(p) if p.isdigit() else 0 for p in parts] + [0] * 5
            row["coords"] = dict(zip(COORDS, coords[:5], strict=True))
        return rows

    async def workflow(self, workflow_id: str) -> dict[str, Any] | None:
        """One archetype row of `workflows` (its cell and description); None if absent."""
        rows = await self._rows(
            "SELECT id, name, description, archetype, task_type, coord_scope, coord_domain_structure,"
            " coord_evidence_type, coord_time_horizon, coord_fidelity FROM workflows WHERE id = ?",
            (check_workflow_id(workflow_id),),
        )
        return rows[0] if rows else None

    async def runs(self, workflow_id: str, viewer: Viewer, limit: int = 200) -> list[dict[str, Any]]:
        """A workflow's newest `limit` runs that `viewer` may see, newest first."""
        seen, params = viewer.owner_filter(self._run_owner)
        return await self._rows(
            "SELECT id, task_id, status, finished_at, duration_ms, rounds, item_count, niches, elite_count,"
            f" fitness, coverage, diversity, stringency FROM workflow_runs r WHERE workflow_id = ? AND {seen}"
            " ORDER BY finished_at DESC, id DESC LIMIT ?",
            (check_workflow_id(workflow_id), *params, limit),
        )

    async def run(self, run_id: int, viewer: Viewer) -> dict[str, Any] | None:
        """One run with its metrics (JSON decoded); None if absent or not `viewer`'s to see (not
        told apart). Ask for its elites and niches only after this answered."""
        seen, params = viewer.owner_filter(self._run_owner)
        rows = await self._rows(
            "SELECT r.*, w.name AS workflow_name, w.archetype,"
            # A run filed before its criteria were kept in its metrics: its task's, while it lasts.
            " (SELECT json_extract(t.args, '$.criteria') FROM tasks t WHERE t.id = r.task_id) AS task_criteria,"
            " w.coord_scope || ',' || w.coord_domain_structure || ',' || w.coord_evidence_type || ','"
            " || w.coord_time_horizon || ',' || w.coord_fidelity AS cell"
            f" FROM workflow_runs r JOIN workflows w ON w.id = r.workflow_id WHERE r.id = ? AND {seen}",
            (run_id, *params),
        )
        if not rows:
            return None
        run = rows[0]
        metrics = json_or_none(run.pop("metrics"))
        run["metrics"] = metrics if isinstance(metrics, dict) else {}
        criteria = run["metrics"].get("criteria")
        if not isinstance(criteria, list):
            given = json_or_none(run.pop("task_criteria"))
            criteria = (
                [c.get("description") for c in given if isinstance(c, dict)]
                if isinstance(given, list)
                else []
            )
        run.pop("task_criteria", None)
        run["criteria"] = [str(c) for c in criteria if c is not None]
        return run

    async def elites(self, run_id: int, limit: int = MAX_ELITES) -> list[dict[str, Any]]:
        """A run's elites, best first, each with the item's name and URL pulled out for display."""
        rows = await self._rows(
            "SELECT id, round, niche, fitness, criteria_vector, item_id,"
            " coalesce(json_extract(item, '$.properties.company.name'),"
            "          json_extract(item, '$.properties.person.name'),"
            "          json_extract(item, '$.properties.article.title'),"
            "          json_extract(item, '$.properties.researchPaper.title'),"
            "          json_extract(item, '$.properties.description'), item_id) AS label,"
            " json_extract(item, '$.properties.url') AS url"
            " FROM qd_elites WHERE run_id = ? ORDER BY round IS NOT NULL, fitness DESC, id LIMIT ?",
            (run_id, limit),
        )
        for row in rows:
            row["label"] = str(row["label"] or "")[:200]
            url = row["url"]
            row["url"] = (
                url if isinstance(url, str) and url.lower().startswith(("http://", "https://")) else None
            )
        return rows

    async def niches(self, run_id: int) -> list[dict[str, Any]]:
        """The niches of a run's final elites: niche key, elites in it, best fitness; best first."""
        return await self._rows(
            "SELECT niche, count(*) AS elites, max(fitness) AS best FROM qd_elites"
            " WHERE run_id = ? AND round IS NULL GROUP BY niche ORDER BY best DESC, niche",
            (run_id,),
        )
