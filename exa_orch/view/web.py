"""The web view: pages for tasks and the MAP-Elites archive, and the JSON the pages poll.

Routes (all GET/HEAD; anything else is 405, see `auth.ViewGuard`):
  /                      tasks, newest first, live (the page polls /api/tasks every second)
  /tasks/{id}            one task: progress, partial result summary, events, steps, result
  /archive?x=..&y=..     the archive as a 5x5 grid over two chosen coordinates
  /archive/{workflow}    one archetype's runs
  /runs/{run}            one run: metrics, niches and elites
  /api/tasks, /api/tasks/{id}   what the pages poll
  /static/...            the page's one script and one stylesheet

Everything from the database goes through Jinja's autoescape (task args are whatever an agent
sent); ids in paths are checked against their shape before any query.
"""

from __future__ import annotations

import json
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
from exa_orch.view.auth import ViewGuard, viewer_of
from exa_orch.view.data import COORDS, DOCUMENT, ViewDB, age_text, check_task_id, check_workflow_id

TERMINAL = ("completed", "failed", "cancelled")
AXIS_NAMES = {
    "scope": "scope",
    "domain_structure": "domain structure",
    "evidence_type": "evidence type",
    "time_horizon": "time horizon",
    "fidelity": "fidelity",
}
Endpoint = Callable[[Request], Awaitable[Response]]
STATIC = {"view.js": "text/javascript; charset=utf-8", "view.css": "text/css; charset=utf-8"}


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
    env.globals["axis_names"] = AXIS_NAMES
    return env


def _api_task(task: dict[str, Any]) -> dict[str, Any]:
    keys = (
        "id", "type", "status", "phase", "completed", "total", "message", "fraction", "age",
        "created_at", "updated_at", "step_count", "error_message", "owner",
    )  # fmt: skip
    return {k: task.get(k) for k in keys}


def build_app(db: ViewDB, settings: Settings, *, all_owners: bool = False) -> ASGIApp:
    """The view as an ASGI app over an open ViewDB, guarded (see `auth.ViewGuard`): each request
    sees the tasks and runs of its own principal only (every one's with `all_owners`). Another
    principal's task or run is answered exactly as an unknown one (same status, same body)."""
    env = _env()

    def page(request: Request, name: str, status_code: int = 200, **context: Any) -> HTMLResponse:
        html = env.get_template(name).render(
            has_owner=db.has_owner, db_name=db.name, viewer=viewer_of(request.scope), **context
        )
        return HTMLResponse(html, status_code=status_code)

    async def tasks_page(request: Request) -> Response:
        return page(request, "tasks.html", tasks=await db.tasks(viewer_of(request.scope)), nav="tasks")

    async def task_page(request: Request) -> Response:
        task = await db.task(request.path_params["task_id"], viewer_of(request.scope))
        if task is None:
            raise HTTPException(404, "no such task (it may have expired)")
        result, result_cut = pretty(task["result"], task["result_size"])
        partial, partial_cut = pretty(task["partial"], task["partial_size"])
        args, args_cut = pretty(task["args"], task["args_size"])
        error = json.loads(task["error"]) if task["error"] else None
        return page(
            request,
            "task.html",
            task=task,
            terminal=task["status"] in TERMINAL,
            steps=await db.steps(task["id"]),
            events=await db.events(task["id"]),
            result=result,
            result_cut=result_cut,
            partial=partial,
            partial_cut=partial_cut,
            args=args,
            args_cut=args_cut,
            error=error,
            nav="tasks",
        )

    async def archive_page(request: Request) -> Response:
        x = request.query_params.get("x", "scope")
        y = request.query_params.get("y", "fidelity")
        if x not in AXIS_NAMES or y not in AXIS_NAMES or x == y:
            raise InvalidParams(
                f"x and y must be two different coordinates of {', '.join(COORDS)}",
                hint="e.g. /archive?x=scope&y=fidelity",
                fields=["x", "y"],
            )
        cells = await db.cells(viewer_of(request.scope))
        grid: dict[tuple[int, int], list[dict[str, Any]]] = {}
        for cell in cells:
            grid.setdefault((cell["coords"][x], cell["coords"][y]), []).append(cell)
        best: dict[tuple[int, int], Any] = {}
        for key, members in grid.items():
            scored = [m["fitness"] for m in members if m["fitness"] is not None]
            best[key] = max(scored) if scored else None
        return page(request, "archive.html", cells=cells, grid=grid, best=best, x=x, y=y, nav="archive")

    async def workflow_page(request: Request) -> Response:
        workflow_id = check_workflow_id(request.path_params["workflow_id"])
        workflow = await db.workflow(workflow_id)
        if workflow is None:
            raise HTTPException(404, "no such workflow in the archive")
        return page(
            request,
            "workflow.html",
            workflow=workflow,
            runs=await db.runs(workflow_id, viewer_of(request.scope)),
            nav="archive",
        )

    async def run_page(request: Request) -> Response:
        run_id = request.path_params["run_id"]
        run = (
            await db.run(run_id, viewer_of(request.scope)) if run_id < 2**63 else None
        )  # run ids are 64-bit integers on both backends
        if run is None:
            raise HTTPException(404, "no such run in the archive")
        metrics = {k: json.dumps(v, ensure_ascii=False)[:500] for k, v in run["metrics"].items()}
        return page(
            request,
            "run.html",
            run=run,
            metrics=metrics,
            niches=await db.niches(run_id),
            elites=await db.elites(run_id),
            nav="archive",
        )

    async def api_tasks(request: Request) -> Response:
        tasks = await db.tasks(viewer_of(request.scope))
        return JSONResponse({"tasks": [_api_task(t) for t in tasks], "hasOwner": db.has_owner})

    async def api_task(request: Request) -> Response:
        task = await db.task(request.path_params["task_id"], viewer_of(request.scope))
        if task is None:
            raise HTTPException(404, "no such task (it may have expired)")
        events = await db.events(task["id"], limit=50)
        return JSONResponse(
            {
                "task": _api_task(task),
                "partialSummary": task["partial_summary"],
                "events": events,
                "terminal": task["status"] in TERMINAL,
            }
        )

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in STATIC:
            raise HTTPException(404, "no such file")
        body = resources.files("exa_orch.view").joinpath("static", name).read_bytes()
        return Response(body, media_type=STATIC[name])

    def _checked_task(endpoint: Endpoint) -> Endpoint:
        async def wrapped(request: Request) -> Response:
            check_task_id(request.path_params["task_id"])
            return await endpoint(request)

        return wrapped

    async def invalid(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, InvalidParams)
        return _error(request, 400, f"{exc.message}. {exc.hint or ''}".strip())

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        return _error(request, exc.status_code, exc.detail)

    async def database_error(request: Request, exc: Exception) -> Response:
        # ViewDB's word for a query the database could not answer (an older schema, a lock).
        assert isinstance(exc, StoreError)
        return _error(request, 503, f"{exc.message}. {exc.hint or ''}".strip())

    def _error(request: Request, status: int, message: str) -> Response:
        if request.url.path.startswith("/api/"):
            return JSONResponse({"error": message}, status_code=status)
        return page(request, "error.html", status_code=status, status=status, message=message, nav="")

    routes = [
        Route("/", tasks_page, methods=["GET"]),
        Route("/tasks/{task_id}", _checked_task(task_page), methods=["GET"]),
        Route("/archive", archive_page, methods=["GET"]),
        Route("/archive/{workflow_id}", workflow_page, methods=["GET"]),
        Route("/runs/{run_id:int}", run_page, methods=["GET"]),
        Route("/api/tasks", api_tasks, methods=["GET"]),
        Route("/api/tasks/{task_id}", _checked_task(api_task), methods=["GET"]),
        Route("/static/{name}", static, methods=["GET"]),
    ]
    app = Starlette(
        routes=routes,
        exception_handlers={InvalidParams: invalid, HTTPException: http_error, StoreError: database_error},
    )
    return ViewGuard(app, settings, all_owners=all_owners)
