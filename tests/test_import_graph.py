"""The package's import graph: no cycle, and no import up the layers of CONTRIBUTING.md.

Every module of exa_orch is parsed with `ast` (nothing is imported), and every `import` counts,
wherever it is written: at the top, inside a function, or under `if TYPE_CHECKING:`. A cycle
hidden behind TYPE_CHECKING or a function-level import still makes a reader hold two modules in
mind at once, so it is a cycle here too.

Layers, top to bottom (imports only go down or sideways within a layer):
face (mcp, cli, client, view, demo, app) -> ops (operations) -> workflows -> runtime ->
ports (store, gateway, exa) -> tools (sim, which imports nothing of the rest). `errors`, `config`,
`log`, `net`, `attrdocs` and the package itself (its `__version__`) are shared leaves anyone may import.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

import exa_orch

PACKAGE_DIR = Path(exa_orch.__file__).parent

# Lower number = lower layer. A module may import its own layer or any lower one.
LAYERS: dict[str, int] = {
    "sim": 0,
    "store": 1,
    "gateway": 1,
    "exa": 1,
    "runtime": 2,
    "workflows": 3,
    "operations": 4,
    "mcp": 5,
    "cli": 5,
    "cli_help": 5,
    "client": 5,
    "view": 5,
    "demo": 5,
    "evals": 5,
    "app": 5,
    "__main__": 5,
}
LEAVES = {
    "exa_orch",
    "exa_orch.attrdocs",
    "exa_orch.coldstart",
    "exa_orch.errors",
    "exa_orch.config",
    "exa_orch.log",
    "exa_orch.net",
}

# None left (the last, runtime/service <-> runtime/supervisor, went with TaskService's TaskRunner
# protocol). An entry here excuses a cycle for a while; the test fails once it is gone.
KNOWN_CYCLES: set[frozenset[str]] = set()


def _modules() -> dict[str, tuple[Path, bool]]:
    """Dotted module name -> (file, is a package __init__)."""
    out: dict[str, tuple[Path, bool]] = {}
    for path in sorted(PACKAGE_DIR.rglob("*.py")):
        parts = ["exa_orch", *path.relative_to(PACKAGE_DIR).with_suffix("").parts]
        is_pkg = parts[-1] == "__init__"
        out[".".join(parts[:-1] if is_pkg else parts)] = (path, is_pkg)
    return out


def _owner(name: str, modules: dict[str, tuple[Path, bool]]) -> str | None:
    """The longest module of the package that `name` names or lies in (None: outside the package)."""
    while name:
        if name in modules:
            return name
        name = name.rpartition(".")[0]
    return None


@functools.cache  # the files don't change during a run; the tests only read the graph
def import_graph() -> dict[str, set[str]]:
    """Module -> the package modules it imports (an imported name that is a submodule counts as it)."""
    modules = _modules()
    graph: dict[str, set[str]] = {}
    for name, (path, is_pkg) in modules.items():
        base = name if is_pkg else name.rpartition(".")[0]
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                targets.update(t for a in node.names if (t := _owner(a.name, modules)))
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    parts = base.split(".")
                    parts = parts[: len(parts) - node.level + 1]
                    source = ".".join([*parts, node.module] if node.module else parts)
                else:
                    source = node.module or ""
                for alias in node.names:
                    target = _owner(f"{source}.{alias.name}", modules) or _owner(source, modules)
                    if target:
                        targets.add(target)
        targets.discard(name)
        graph[name] = targets
    return graph


def cycles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components with more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(frozenset(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def layer(module: str) -> int | None:
    """The layer of a package module (None for the shared leaves)."""
    if module in LEAVES:
        return None
    top = module.split(".")[1]
    if top not in LAYERS:
        raise AssertionError(f"{module} is in no layer: add its top-level name to LAYERS in this test")
    return LAYERS[top]


def upward_imports(graph: dict[str, set[str]]) -> list[str]:
    out = []
    for module, targets in sorted(graph.items()):
        own = layer(module)
        for target in sorted(targets):
            theirs = layer(target)
            if own is not None and theirs is not None and theirs > own:
                out.append(f"{module} -> {target}")
            if own is None and theirs is not None:  # a shared leaf imports nothing of the layers
                out.append(f"{module} (shared leaf) -> {target}")
            if module.startswith("exa_orch.sim") and not target.startswith("exa_orch.sim"):
                if target != "exa_orch":  # the simulator is a separate server: only its own code
                    out.append(f"{module} (simulator) -> {target}")
    return out


def test_the_package_has_no_import_cycle() -> None:
    found = set(cycles(import_graph()))
    assert found - KNOWN_CYCLES == set(), "import cycles: " + "; ".join(sorted(map(str, map(sorted, found))))
    assert KNOWN_CYCLES <= found, "a known cycle is gone: delete it from KNOWN_CYCLES"


def test_no_module_imports_up_the_layers() -> None:
    assert upward_imports(import_graph()) == []


def test_the_checks_see_cycles_behind_type_checking_and_upward_imports(tmp_path: Path) -> None:
    """The graph builder sees the imports a reader sees, so the checks above can fail."""
    graph = import_graph()
    # A TYPE_CHECKING-only import (delivery.py's records) and a function-level one (cli.py's
    # server) are edges, as are relative imports and imported submodules.
    assert "exa_orch.sim.websets.store" in graph["exa_orch.sim.websets.delivery"]
    assert "exa_orch.mcp.transport" in graph["exa_orch.cli"]
    assert "exa_orch.workflows.kit" in graph["exa_orch.workflows.winnow"]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [frozenset({"a", "b", "c"})]
    fake = {"exa_orch.store.x": {"exa_orch.mcp.server"}, "exa_orch.sim.y": {"exa_orch.config"}}
    assert upward_imports(fake) == [
        "exa_orch.sim.y (simulator) -> exa_orch.config",
        "exa_orch.store.x -> exa_orch.mcp.server",
    ]


@pytest.mark.parametrize("module", ["exa_orch.mcp.tasks", "exa_orch.sim.websets.views", "exa_orch.workflows"])
def test_modules_that_once_formed_cycles_are_in_none(module: str) -> None:
    assert all(module not in c for c in cycles(import_graph()))


# What `exa-orch serve` must not import before a request needs it (issue 20, bench/startup.py):
# each is imported inside the function that uses it (gateway/exa.py, store/postgres.py's
# _psycopg, the view, the simulator behind --sim), so a cold start doesn't pay for it.
LAZY = ("exa_py", "openai", "psycopg", "rich", "playwright", "jinja2", "exa_orch.sim", "exa_orch.view")


def test_serving_imports_no_heavy_library_before_a_request_needs_it() -> None:
    import json
    import subprocess
    import sys

    code = (
        "import json, sys\n"
        "from exa_orch import cli\n"
        "cli._without_httpx_cli()\n"
        "import exa_orch.mcp.transport\n"
        "print(json.dumps(sorted({m.split('.')[0] if not m.startswith('exa_orch') else '.'.join(m.split('.')[:2])"
        " for m in sys.modules})))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    loaded = set(json.loads(out))
    assert "exa_orch.mcp" in loaded and "mcp" in loaded  # the probe saw the server's imports
    assert sorted(loaded & set(LAZY)) == []


def test_the_lazy_imports_still_load_when_used() -> None:
    """The deferred ones are there when a request needs them (GovernedExa, psycopg's errors)."""
    from exa_orch.gateway import GovernedExa
    from exa_orch.store import postgres

    assert GovernedExa.__mro__[1].__module__.startswith("exa_py")
    assert postgres._psycopg().IntegrityError.__module__.startswith("psycopg")


def test_exa_py_is_imported_off_the_event_loop() -> None:
    """An operation's first exa-py call imports exa-py (about a CPU-second) on a thread while the
    event loop goes on: done on the loop, it held every task's heartbeat for as long, and on a loaded
    machine long enough for their leases to lapse (issue 41). In a fresh interpreter (exa-py not yet
    imported), a ticker runs on the loop while the import is under way; callers share one import."""
    import json
    import subprocess
    import sys

    code = (
        "import asyncio, json, sys\n"
        "from exa_orch.gateway.client import exa_py_imported\n"
        "async def main():\n"
        "    before, ticks, done = 'exa_py' in sys.modules, 0, False\n"
        "    async def tick():\n"
        "        nonlocal ticks\n"
        "        while not done:\n"
        "            ticks += 'exa_py' in sys.modules\n"  # the import has begun, not yet ended
        "            await asyncio.sleep(0.001)\n"
        "    ticker = asyncio.create_task(tick())\n"
        "    await asyncio.gather(exa_py_imported(), exa_py_imported())\n"
        "    done = True\n"
        "    await ticker\n"
        "    from exa_orch.gateway import GovernedExa\n"
        "    print(json.dumps([before, ticks, GovernedExa.__mro__[1].__module__]))\n"
        "asyncio.run(main())\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    before, ticks, base = json.loads(out)
    assert before is False and ticks > 0 and base.startswith("exa_py")


def test_a_caller_cancelled_while_exa_py_imports_leaves_the_import_to_the_others() -> None:
    """The first caller of `exa_py_imported`, cancelled while the import runs on its thread (a task
    cancelled, a test torn down), does not cancel the one shared import: the next caller gets
    exa-py, and the thread sets its result without an error (a cancelled import had poisoned every
    later caller in the process with CancelledError, a CI flake)."""
    import json
    import subprocess
    import sys

    code = (
        "import asyncio, importlib, json, threading\n"
        "from exa_orch.gateway import client\n"
        "started, release, real = threading.Event(), threading.Event(), importlib.import_module\n"
        "def held(name, package=None):\n"  # the import thread waits for the first caller's cancel
        "    if name == 'exa_orch.gateway.exa' and not started.is_set():\n"
        "        started.set()\n"
        "        release.wait(60)\n"
        "    return real(name, package)\n"
        "importlib.import_module = held\n"
        "async def main():\n"
        "    first = asyncio.create_task(client.exa_py_imported())\n"
        "    assert await asyncio.to_thread(started.wait, 60)\n"  # the import has begun on its thread
        "    first.cancel()\n"
        "    try:\n"
        "        await first\n"
        "    except asyncio.CancelledError:\n"
        "        pass\n"
        "    release.set()\n"
        "    await client.exa_py_imported()\n"
        "    from exa_orch.gateway import GovernedExa\n"
        "    print(json.dumps([first.cancelled(), GovernedExa.__mro__[1].__module__]))\n"
        "asyncio.run(main())\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    cancelled, base = json.loads(run.stdout)
    assert cancelled is True and base.startswith("exa_py")
    assert "InvalidStateError" not in run.stderr, run.stderr
