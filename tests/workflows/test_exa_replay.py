"""The client against what Exa itself published, never the simulator (issue 35): a loopback server
answering only with the Agent API spec's examples and exa-py's conformance fixtures
(tests/replay.py, tests/fixtures/exa/). The spec's stream example is three `agent_run.*` events
with the run complete at once; a run must end there, on its first feed, not at its timeout."""

from __future__ import annotations

import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import exa_py  # noqa: F401 (imported here, not during the timed run: 1.7 CPU-s the first call would pay)
import pytest

from exa_orch.app import App, open_app
from exa_orch.config import Settings
from exa_orch.gateway.agent_api import BETA
from tests.replay import Replay, replay_server
from tests.workflows.conftest import run_task


@pytest.fixture
async def replay() -> AsyncIterator[Replay]:
    async with replay_server() as server:
        yield server


async def _app(replay: Replay, tmp_path: Path) -> Any:
    path = tmp_path / "workflows.db"
    config = Settings(exa_url=replay.url, simulator=True, db_path=path, rps=1000.0, concurrency=8)
    return open_app(config, path)


def _every_agent_request_carries_the_beta(replay: Replay) -> None:
    agent = [r for r in replay.requests if r["path"].startswith("/agent/")]
    assert agent and all(BETA in r["headers"].get("exa-beta", "").split(",") for r in agent), agent


async def test_research_deep_ends_on_the_specs_completed_event_on_its_first_feed(
    replay: Replay, tmp_path: Path
) -> None:
    app: App
    async with await _app(replay, tmp_path) as app:
        started = time.monotonic()
        done = await run_task(
            app, "research.deep", {"instructions": "AI infrastructure rounds", "timeout": 60_000}
        )
        took = time.monotonic() - started
        steps = await app.store.load_steps(done.id)
    assert done.status == "completed", done.error
    # The run ended on the spec's agent_run.completed: the feed was opened once, never again.
    assert len(replay.asked("GET", "/events")) == 1, replay.requests
    assert [steps[f"research.poll.event:{n}"]["event"] for n in (1, 2, 3)] == [
        "agent_run.created",
        "agent_run.started",
        "agent_run.completed",
    ]
    assert "research.poll.event:4" not in steps
    assert done.result["status"] == "completed"
    _every_agent_request_carries_the_beta(replay)
    print(f"\nresearch.deep on the spec's example: completed in {took:.2f} s (timeout 60 s)", file=sys.stderr)


@pytest.mark.parametrize(
    ("kind", "args"),
    [
        (
            "research.verifiedCollection",
            {
                "query": "AI startups in Europe",
                "entity": {"type": "company"},
                "count": 4,
                "engine": "agent",
                "researchPrompt": "Who founded {{name}}?",
                "researchLimit": 2,
                "timeout": 60_000,
            },
        ),
        (
            "adversarial.verify",
            {
                "thesis": "European AI startups are well funded",
                "thesisQuery": "well funded AI startups in Europe",
                "antithesisQuery": "AI startups in Europe that struggled to raise funding",
                "entity": {"type": "company"},
                "count": 3,
                "engine": "agent",
                "synthesize": True,
                "timeout": 60_000,
            },
        ),
    ],
)
async def test_agent_engine_workflows_end_when_their_runs_end(
    replay: Replay, tmp_path: Path, kind: str, args: dict[str, Any]
) -> None:
    """Each run the workflow makes answers completed at its first read (exa-py's fixture): the task
    ends then, having read each run once or twice, not at its deadline."""
    async with await _app(replay, tmp_path) as app:
        started = time.monotonic()
        done = await run_task(app, kind, args)
        took = time.monotonic() - started
    assert done.status in ("completed", "failed"), done
    creates = replay.asked("POST", "/agent/runs")
    reads = replay.asked("GET", "")
    assert creates and len(reads) <= 4 * len(creates), replay.requests  # no polling until a deadline
    _every_agent_request_carries_the_beta(replay)
    print(
        f"\n{kind} on the agent engine, against exa-py's fixtures: {done.status} in {took:.2f} s",
        file=sys.stderr,
    )
