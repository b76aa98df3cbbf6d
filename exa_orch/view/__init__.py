"""Views for people: a read-only web view (`exa-orch view`) and a terminal task list (`exa-orch tasks`).

A face: it reads the database read-only through `data.ViewDB` and imports nothing above the
store and the runtime's principals; only the CLI imports it.
"""

from exa_orch.view.auth import ViewGuard
from exa_orch.view.data import ViewDB, Viewer
from exa_orch.view.server import check_bind, run_view
from exa_orch.view.terminal import show_tasks, tasks_table
from exa_orch.view.web import build_app

__all__ = [
    "ViewDB",
    "ViewGuard",
    "Viewer",
    "build_app",
    "check_bind",
    "run_view",
    "show_tasks",
    "tasks_table",
]
