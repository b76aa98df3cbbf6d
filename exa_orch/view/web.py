"""The web view: pages for tasks and the MAP-Elites archive, and the JSON the pages poll.

Routes (all GET/HEAD; anything else is 405, see `auth.ViewGuard`):
  /?status=..&type=..&q=..   tasks, unfinished first, then newest, live (polls /api/tasks)
  /tasks/{id}?page=N     one task: its arguments, error, progress, result (summary, items, raw)
  /archive?x=..&y=..     the archive as a 5x5 grid over two chosen coordinates
  /archive/{workflow}    one archetype's runs
  /runs/{run}            one run: metrics, niche grid, rounds side by side and elites
  /memory                the entities your collection tasks remembered (view/memory.py)
  /api/tasks, /api/tasks/{id}   what the pages poll
  /static/...            the page's one script and one stylesheet

Everything from the database goes through Jinja's autoescape (task args are whatever an agent
sent); ids in paths are checked against their shape before any query. `Pages` holds one handler
per route; `build_app` wires them to their routes and errors, and puts the guard in front.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Awaitable, Callable
from importlib import resources
from typing import Any

from jinja2 import Environment, PackageLoader, select_autoescape
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp

from exa_orch.config import Settings
from exa_orch.errors import InvalidParams, StoreError
from exa_orch.view import memory, present
from exa_orch.view.auth import ViewGuard, viewer_of
from exa_orch.view.data import COORDS, DOCUMENT, STATUSES, ViewDB, age_text, check_task_id, check_workflow_id
from exa_orch.view.watches import watch_of_task

TERMINAL = ("completed", "failed", "cancelled")
AXIS_NAMES = {
    "scope": "scope",
    "domain_structure": "domain structure",
    "evidence_type": "evidence type",
    "time_horizon": "time horizon",
    "fidelity": "fidelity",
}
STATIC = {"view.js": "text/javascript; charset=utf-8", "view.css": "text/css; charset=utf-8"}
TYPE_SHAPE = re.compile(r"[A-Za-z0-9._-]{1,100}")
SEARCH_MAX = 200
# A run's facts, in the order shown, each with how its value reads.
RUN_FACTS: tuple[tuple[str, str, Callable[[Any], str]], ...] = (
    ("fitness", "fitness", present.shown),
    ("coverage", "coverage", present.percent),
    ("diversity", "diversity (bits)", present.shown),
    ("stringency", "stringency", present.percent),
    ("elite_count", "elites", present.shown),
    ("item_count", "items", present.shown),
    ("rounds", "rounds", present.shown),
    ("converged", "converged", lambda v: present.shown(bool(v)) if v is not None else ""),
    ("duration_ms", "took", present.duration_ms),
    ("started_at", "started", str),
    ("finished_at", "finished", str),
)
# Metrics the run page draws as its grid and rounds table rather than as facts.
DRAWN_METRICS = {"criteria", "roundStats", "eliteChange"}


def fitness_class(value: Any) -> str:
    """The CSS class colouring a fitness: `fit-0` (0) to `fit-10` (1 or more), `fit-none` for none."""
    if not isinstance(value, int | float) or isinstance(value, bool):
        return "fit-none"
    return f"fit-{round(max(0.0, min(1.0, float(value))) * 10)}"


def pretty(text: str | None, size: int | None) -> tuple[str, bool]:
    """(text to show, whether it was cut): JSON indented when it arrived whole, else as it came."""
    if text is None:
        return "", False
    cut = (size or 0) > len(text)
    if not cut:
        try:
            text = json.dumps(json.loads(text), indent=2, ensure_ascii=False)
        except ValueError:
            pass
    if len(text) > 2 * DOCUMENT:  # indentation can double a document; keep the page small anyway
        return text[: 2 * DOCUMENT], True
    return text, cut


def _env() -> Environment:
    env = Environment(
        loader=PackageLoader("exa_orch.view", "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["fitclass"] = fitness_class
    env.filters["age"] = age_text
    env.filters["clock"] = present.clock
    env.filters["dollars"] = present.dollars
    env.filters["shown"] = present.shown
    env.filters["label"] = present.label
    env.filters["status_word"] = present.status_word
    env.filters["marks"] = present.niche_marks
    env.filters["short"] = lambda task_id: str(task_id).removeprefix("task_")[:8]
    env.globals["axis_names"] = AXIS_NAMES
    return env


def _api_task(task: dict[str, Any]) -> dict[str, Any]:
    keys = (
        "id", "type", "title", "status", "phase", "completed", "total", "message", "fraction", "age",
        "created_at", "updated_at", "ended_at", "duration", "step_count", "error_code", "error_message",
        "owner", "cost_usd", "stopped_by",
    )  # fmt: skip
    return {k: task.get(k) for k in keys}


def task_filters(request: Request) -> dict[str, str | None]:
    """The list's filters from the query string (status, type, q), checked: InvalidParams names a
    status that is not one, or a type or text of a shape no task has."""
    status = request.query_params.get("status") or None
    kind = request.query_params.get("type") or None
    text = (request.query_params.get("q") or "").strip() or None
    if status is not None and status not in STATUSES:
        raise InvalidParams(
            f"status must be one of {', '.join(STATUSES)}",
            hint="Pick one in the list's filter.",
            fields=["status"],
        )
    if kind is not None and not TYPE_SHAPE.fullmatch(kind):
        raise InvalidParams("not a task type", hint="Pick one in the list's filter.", fields=["type"])
    if text is not None and len(text) > SEARCH_MAX:
        raise InvalidParams(f"the search text is longer than {SEARCH_MAX} characters", fields=["q"])
    return {"status": status, "type": kind, "text": text}


def _page_number(request: Request) -> int:
    raw = request.query_params.get("page", "1")
    return int(raw) if raw.isdigit() and 0 < len(raw) < 7 else 1


class Pages:
    """One handler per route, over one open ViewDB; each request sees its own principal's tasks
    and runs (see `auth.viewer_of`)."""

    def __init__(self, db: ViewDB) -> None:
        self.db = db
        self.env = _env()

    def page(self, request: Request, name: str, status_code: int = 200, **context: Any) -> HTMLResponse:
        """A template rendered with what every page's header needs."""
        html = self.env.get_template(name).render(
            has_owner=self.db.has_owner, db_name=self.db.name, viewer=viewer_of(request.scope), **context
        )
        return HTMLResponse(html, status_code=status_code)

    async def tasks(self, request: Request) -> Response:
        """`/`: the task list, filtered."""
        viewer, filters = viewer_of(request.scope), task_filters(request)
        return self.page(
            request,
            "tasks.html",
            tasks=await self.db.tasks(
                viewer, status=filters["status"], type=filters["type"], text=filters["text"]
            ),
            types=await self.db.task_types(viewer),
            statuses=STATUSES,
            filters=filters,
            query=str(request.url.query),
            nav="tasks",
        )

    async def task(self, request: Request) -> Response:
        """`/tasks/{id}`: one task, its arguments first, its result readable and raw."""
        task = await self._task(request)
        result, result_cut = pretty(task["result"], task["result_size"])
        partial, partial_cut = pretty(task["partial"], task["partial_size"])
        args, args_cut = pretty(task["args"], task["args_size"])
        whole = await self.db.whole_result(task["id"]) if task["result_size"] else None
        return self.page(
            request,
            "task.html",
            task=task,
            terminal=task["status"] in TERMINAL,
            arguments=present.arguments(json.loads(task["args"]) if not args_cut else None),
            view=present.result_view(whole, _page_number(request)) if whole is not None else None,
            runs=await self.db.task_runs(task["id"]),
            watch=await watch_of_task(self.db, task["id"]),  # a watch's run: its diff (view/watches.py)
            steps=await self.db.steps(task["id"]),
            events=await self.db.events(task["id"]),
            result=result,
            result_cut=result_cut,
            partial=partial,
            partial_cut=partial_cut,
            args=args,
            args_cut=args_cut,
            error=json.loads(task["error"]) if task["error"] else None,
            nav="tasks",
        )

    async def _task(self, request: Request) -> dict[str, Any]:
        task = await self.db.task(request.path_params["task_id"], viewer_of(request.scope))
        if task is None:
            raise HTTPException(404, "no such task (it may have expired)")
        return task

    async def archive(self, request: Request) -> Response:
        """`/archive`: every cell, placed on a grid over two chosen coordinates."""
        x = request.query_params.get("x", "scope")
        y = request.query_params.get("y", "fidelity")
        if x not in AXIS_NAMES or y not in AXIS_NAMES or x == y:
            raise InvalidParams(
                f"x and y must be two different coordinates of {', '.join(COORDS)}",
                hint="e.g. /archive?x=scope&y=fidelity",
                fields=["x", "y"],
            )
        cells = await self.db.cells(viewer_of(request.scope))
        grid: dict[tuple[int, int], list[dict[str, Any]]] = {}
        for cell in cells:
            grid.setdefault((cell["coords"][x], cell["coords"][y]), []).append(cell)
        best: dict[tuple[int, int], Any] = {}
        for key, members in grid.items():
            scored = [m["fitness"] for m in members if m["fitness"] is not None]
            best[key] = max(scored) if scored else None
        return self.page(request, "archive.html", cells=cells, grid=grid, best=best, x=x, y=y, nav="archive")

    async def workflow(self, request: Request) -> Response:
        """`/archive/{workflow}`: one archetype and its runs."""
        workflow_id = check_workflow_id(request.path_params["workflow_id"])
        workflow = await self.db.workflow(workflow_id)
        if workflow is None:
            raise HTTPException(404, "no such workflow in the archive")
        runs = await self.db.runs(workflow_id, viewer_of(request.scope))
        return self.page(request, "workflow.html", workflow=workflow, runs=runs, nav="archive")

    async def run(self, request: Request) -> Response:
        """`/runs/{run}`: one run's facts, niche grid, rounds side by side and elites."""
        run_id = request.path_params["run_id"]
        run = (
            await self.db.run(run_id, viewer_of(request.scope)) if run_id < 2**63 else None
        )  # run ids are 64-bit integers on both backends
        if run is None:
            raise HTTPException(404, "no such run in the archive")
        elites = await self.db.elites(run_id)
        stats = run["metrics"].get("roundStats")
        stats = [s for s in stats if isinstance(s, dict)] if isinstance(stats, list) else []
        facts = [(name, show(run[k]), k) for k, name, show in RUN_FACTS if run.get(k) is not None]
        if run.get("niches") is not None:
            of = f" of {run['possible_niches']} possible" if run.get("possible_niches") else ""
            facts.insert(2, ("niches filled", f"{run['niches']}{of}", "niches"))
        metrics = [
            (present.label(k), present.fact(present.label(k), v)[:500])
            for k, v in run["metrics"].items()
            if k not in DRAWN_METRICS
        ]
        return self.page(
            request,
            "run.html",
            run=run,
            facts=facts,
            metrics=metrics,
            grid=present.niche_grid(run["criteria"], elites, present.niche_counts(stats)),
            rounds=present.rounds_table(run["criteria"], stats),
            round_count=len(stats),
            niches=await self.db.niches(run_id),
            elites=elites,
            nav="archive",
        )

    async def api_tasks(self, request: Request) -> Response:
        """`/api/tasks`: the list as JSON, filtered like `/`."""
        f = task_filters(request)
        tasks = await self.db.tasks(
            viewer_of(request.scope), status=f["status"], type=f["type"], text=f["text"]
        )
        return JSONResponse({"tasks": [_api_task(t) for t in tasks], "hasOwner": self.db.has_owner})

    async def api_task(self, request: Request) -> Response:
        """`/api/tasks/{id}`: one task's progress, partial summary and newest events."""
        task = await self._task(request)
        events = await self.db.events(task["id"], limit=50)
        return JSONResponse(
            {
                "task": _api_task(task),
                "partialSummary": task["partial_summary"],
                "events": events,
                "terminal": task["status"] in TERMINAL,
            }
        )

    async def static(self, request: Request) -> Response:
        """`/static/{name}`: the one script and the one stylesheet."""
        name = request.path_params["name"]
        if name not in STATIC:
            raise HTTPException(404, "no such file")
        body = resources.files("exa_orch.view").joinpath("static", name).read_bytes()
        return Response(body, media_type=STATIC[name])

    # ------------------------------------------------------------------------------ errors

    async def invalid(self, request: Request, exc: Exception) -> Response:
        """A bad parameter: 400, saying what was wrong."""
        assert isinstance(exc, InvalidParams)
        return self.error(request, 400, f"{exc.message}. {exc.hint or ''}".strip())

    async def http_error(self, request: Request, exc: Exception) -> Response:
        """A 404 (or other HTTP error) raised by a handler or the router."""
        assert isinstance(exc, HTTPException)
        return self.error(request, exc.status_code, exc.detail)

    async def database_error(self, request: Request, exc: Exception) -> Response:
        """ViewDB's word for a query the database could not answer (an older schema, a lock): 503."""
        assert isinstance(exc, StoreError)
        return self.error(request, 503, f"{exc.message}. {exc.hint or ''}".strip())

    def error(self, request: Request, status: int, message: str) -> Response:
        """An error as JSON under /api/, else as a page."""
        if request.url.path.startswith("/api/"):
            return JSONResponse({"error": message}, status_code=status)
        return self.page(request, "error.html", status_code=status, status=status, message=message, nav="")


Endpoint = Callable[[Request], Awaitable[Response]]


def _checked_task(endpoint: Endpoint) -> Endpoint:
    """`endpoint`, answering 400 before any query when the path's task id is not shaped like one."""

    async def wrapped(request: Request) -> Response:
        check_task_id(request.path_params["task_id"])
        return await endpoint(request)

    return wrapped


def routes(pages: Pages) -> list[Route]:
    """Every route of the view, GET only (HEAD follows)."""
    return [
        Route("/", pages.tasks, methods=["GET"]),
        Route("/tasks/{task_id}", _checked_task(pages.task), methods=["GET"]),
        Route("/archive", pages.archive, methods=["GET"]),
        Route("/archive/{workflow_id}", pages.workflow, methods=["GET"]),
        Route("/runs/{run_id:int}", pages.run, methods=["GET"]),
        Route("/memory", functools.partial(memory.page, pages), methods=["GET"]),
        Route("/api/tasks", pages.api_tasks, methods=["GET"]),
        Route("/api/tasks/{task_id}", _checked_task(pages.api_task), methods=["GET"]),
        Route("/static/{name}", pages.static, methods=["GET"]),
    ]


def build_app(db: ViewDB, settings: Settings, *, all_owners: bool = False) -> ASGIApp:
    """The view as an ASGI app over an open ViewDB, guarded (see `auth.ViewGuard`): each request
    sees the tasks and runs of its own principal only (every one's with `all_owners`). Another
    principal's task or run is answered exactly as an unknown one (same status, same body)."""
    pages = Pages(db)
    app = Starlette(
        routes=routes(pages),
        exception_handlers={
            InvalidParams: pages.invalid,
            HTTPException: pages.http_error,
            StoreError: pages.database_error,
        },
    )
    return ViewGuard(app, settings, all_owners=all_owners)
