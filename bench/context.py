"""Context benchmark: how many characters a scripted agent session puts in the model's context.

    .venv/bin/python bench/context.py [--speed 100]

One run starts the Exa simulator and the MCP server in-process (the SDK's in-memory transport), and
plays an agent's session twice over the same tasks:
- default: initialize, tools/list, list_operations, tasks.create of each of the six workflows,
  tasks.get of each, tasks.list, tasks.result of each (its first page);
- full: the same calls asking for the whole answers (list_operations {schemas: true}, tasks.get /
  tasks.list / tasks.result {full: true}): what each call answered before answers were sized.
It prints the characters of every answer (the tool result's text, what the model reads) and the
totals, then checks the limits of issue 13; the exit status is 1 if one is missed.

Limits: list_operations <= 8.5 KB; tasks.get <= 2 KB; tasks.list <= 1 KB per task; each first
tasks.result page <= 16 KB; the default session >= 5x smaller in total than the full one.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mcp import Client  # noqa: E402

from exa_orch.app import open_app  # noqa: E402
from exa_orch.config import Settings  # noqa: E402
from exa_orch.mcp.server import build_server  # noqa: E402
from exa_orch.sim.context import SimConfig  # noqa: E402
from exa_orch.sim.testing import running_sim  # noqa: E402

COMPANY = {"type": "company"}
WORKFLOWS: dict[str, dict[str, Any]] = {
    "qd.winnow": {
        "query": "AI startups",
        "entity": COMPANY,
        "criteria": [{"description": "based in Europe"}, {"description": "founded after 2015"}],
        "enrichments": [
            {"description": "Number of employees", "format": "number"},
            {"description": "CEO name", "format": "text"},
        ],
        "count": 10,
        "maxRounds": 3,
    },
    "lifecycle.harvest": {
        "query": "AI startups in Europe",
        "entity": COMPANY,
        "count": 25,
        "criteria": [{"description": "based in Europe"}],
        "enrichments": [
            {"description": "Number of employees", "format": "number"},
            {"description": "Is it profitable", "format": "boolean"},
        ],
        "timeout": 120_000,
    },
    "convergent.search": {
        "queries": [
            "AI startups in Europe",
            "European machine learning companies",
            "developer tools startups",
        ],
        "entity": COMPANY,
        "count": 25,
        "timeout": 120_000,
    },
    "adversarial.verify": {
        "thesis": "European AI startups are well funded",
        "thesisQuery": "well funded AI startups in Europe",
        "antithesisQuery": "AI startups in Europe that struggled to raise funding",
        "entity": COMPANY,
        "count": 25,
        "timeout": 120_000,
        "synthesize": True,
    },
    "research.deep": {"instructions": "Which European AI startups work on developer tools?"},
    "research.verifiedCollection": {
        "query": "AI startups in Europe",
        "entity": COMPANY,
        "criteria": [{"description": "based in Europe"}],
        "count": 10,
        "enrichments": [{"description": "CEO name", "format": "text"}],
        "researchPrompt": "Who founded {{name}} ({{url}})?",
        "researchLimit": 5,
    },
}

# 8 KB until the watches.* domain (issue 39) took the listing to 8.2 KB: six verbs, the shortest summaries.
LIST_OPERATIONS_MAX = 8_500
TASKS_GET_MAX = 2_000
TASKS_LIST_PER_TASK_MAX = 1_000
RESULT_PAGE_MAX = 16_000
MIN_RATIO = 5.0


@dataclass
class Session:
    """The answers of one session: (call, characters) in order."""

    calls: list[tuple[str, int]] = field(default_factory=list)

    def add(self, name: str, chars: int) -> None:
        self.calls.append((name, chars))

    @property
    def total(self) -> int:
        return sum(c for _, c in self.calls)


@dataclass
class Report:
    default: Session
    full: Session
    tasks: int

    def misses(self) -> list[str]:
        """Each limit the default session missed, said in words (empty: all met)."""
        out: list[str] = []
        for name, chars in self.default.calls:
            limit = None
            if name == "list_operations":
                limit = LIST_OPERATIONS_MAX
            elif name.startswith("tasks.get"):
                limit = TASKS_GET_MAX
            elif name.startswith("tasks.list"):
                limit = TASKS_LIST_PER_TASK_MAX * self.tasks
            elif name.startswith("tasks.result"):
                limit = RESULT_PAGE_MAX
            if limit is not None and chars > limit:
                out.append(f"{name}: {chars} chars > {limit}")
        if self.full.total < MIN_RATIO * self.default.total:
            out.append(f"ratio {self.full.total / self.default.total:.1f}x < {MIN_RATIO:g}x")
        return out


def _chars(result: Any) -> int:
    """Characters of a tool result's text content (what the model reads)."""
    return sum(len(getattr(c, "text", "")) for c in result.content)


def _body(result: Any) -> Any:
    assert not result.is_error, result.content[0].text
    return json.loads(result.content[0].text)


async def measure(speed: float = 100.0, db: Path | None = None) -> Report:
    """Run both sessions against a fresh simulator and database; their answer sizes."""
    default, full = Session(), Session()
    with tempfile.TemporaryDirectory() as tmp:
        path = db or Path(tmp) / "workflows.db"
        async with running_sim(SimConfig(speed=speed)) as sim:
            settings = Settings(exa_url=sim.url, simulator=True, db_path=path, rps=1000.0, concurrency=8)
            async with open_app(settings, path) as app, Client(build_server(app), mode="legacy") as client:

                async def call(session: Session, label: str, operation: str, args: dict[str, Any]) -> Any:
                    result = await client.call_tool("manage_websets", {"operation": operation, "args": args})
                    session.add(label, _chars(result))
                    return _body(result)

                init = {
                    "protocolVersion": client.protocol_version,
                    "capabilities": client.server_capabilities.model_dump(by_alias=True, exclude_none=True),
                    "serverInfo": client.server_info.model_dump(exclude_none=True)
                    if client.server_info
                    else None,
                    "instructions": client.instructions,
                }
                tools = (await client.list_tools()).model_dump(by_alias=True, exclude_none=True)
                for session in (default, full):
                    session.add("initialize", len(json.dumps(init)))
                    session.add("tools/list", len(json.dumps(tools)))
                await call(default, "list_operations", "list_operations", {})
                await call(full, "list_operations", "list_operations", {"schemas": True})
                ids: dict[str, str] = {}
                for type_, args in WORKFLOWS.items():
                    created = await call(
                        default, f"tasks.create {type_}", "tasks.create", {"type": type_, **args}
                    )
                    full.add(f"tasks.create {type_}", default.calls[-1][1])
                    ids[type_] = created["taskId"]
                assert app.supervisor is not None
                for task_id in ids.values():  # not an agent's call: the bench waits for every task
                    await app.supervisor.tasks.wait(task_id, timeout=300)
                for type_, task_id in ids.items():
                    await call(default, f"tasks.get {type_}", "tasks.get", {"taskId": task_id})
                    await call(full, f"tasks.get {type_}", "tasks.get", {"taskId": task_id, "full": True})
                await call(default, "tasks.list", "tasks.list", {})
                await call(full, "tasks.list", "tasks.list", {"full": True})
                for type_, task_id in ids.items():
                    page = await call(default, f"tasks.result {type_}", "tasks.result", {"taskId": task_id})
                    assert page["status"] == "completed", page
                    await call(
                        full, f"tasks.result {type_}", "tasks.result", {"taskId": task_id, "full": True}
                    )
    return Report(default=default, full=full, tasks=len(WORKFLOWS))


def render(report: Report) -> str:
    """The two sessions side by side, one call a line, and the totals."""
    lines = [f"{'call':<44} {'default':>9} {'full':>9}"]
    for (name, chars), (_, whole) in zip(report.default.calls, report.full.calls, strict=True):
        lines.append(f"{name:<44} {chars:>9,} {whole:>9,}")
    ratio = report.full.total / report.default.total
    lines.append(f"{'total':<44} {report.default.total:>9,} {report.full.total:>9,}   {ratio:.1f}x smaller")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--speed", type=float, default=100.0, help="simulated seconds per wall second")
    report = asyncio.run(measure(parser.parse_args().speed))
    print(render(report))
    misses = report.misses()
    for miss in misses:
        print(f"MISSED {miss}")
    if not misses:
        print("all limits met")
    return 1 if misses else 0


if __name__ == "__main__":
    raise SystemExit(main())
