"""stdin EOF with requests in flight: a client that writes its requests and closes stdin (a shell
pipe, a script, a file) gets every answer; the server then stops by itself."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from exa_orch.sim.context import FaultConfig, SimConfig
from exa_orch.sim.testing import SimThread
from tests.mcp.conftest import initialize_request, server_env
from tests.support import WAIT

pytestmark = pytest.mark.slow

LATENCY_MS = 400  # every sim request takes this long: the calls are surely in flight at EOF


@pytest.fixture(scope="module")
def slow_sim_url() -> Iterator[str]:
    with SimThread(SimConfig(speed=100.0, faults=FaultConfig(latency_ms=LATENCY_MS))) as handle:
        yield handle.url


def _lines(*messages: dict[str, Any]) -> bytes:
    return b"".join(json.dumps(m).encode() + b"\n" for m in messages)


INIT = initialize_request(1)
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}


def _call(rid: int | str, operation: str, args: dict[str, Any]) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": rid,
        "method": "tools/call",
        "params": {"name": "manage_websets", "arguments": {"operation": operation, "args": args}},
    }


SCRIPT = _lines(
    INIT,
    INITIALIZED,
    _call(2, "websets.list", {}),
    _call("three", "exa.search", {"query": "battery recycling startups", "numResults": 3}),
    {"jsonrpc": "2.0", "id": 4, "method": "ping"},
)


def _answers(stdout: bytes) -> dict[Any, dict[str, Any]]:
    messages = [json.loads(line) for line in stdout.splitlines() if line.strip()]
    return {m["id"]: m for m in messages if "id" in m}


def _check_all_answered(answers: dict[Any, dict[str, Any]]) -> None:
    assert set(answers) == {1, 2, "three", 4}, answers
    for rid in (2, "three"):
        result = answers[rid].get("result")
        assert result is not None and not result["isError"], answers[rid]
    assert json.loads(answers[2]["result"]["content"][0]["text"])["data"] == []
    assert len(json.loads(answers["three"]["result"]["content"][0]["text"])["results"]) == 3
    assert answers[4]["result"] == {}


def _run(
    slow_sim_url: str, tmp_path: Path, stdin: Any, data: bytes | None
) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "exa_orch", "serve"],
        env=server_env(slow_sim_url, tmp_path / "workflows.db"),
        stdin=stdin,
        input=data,
        capture_output=True,
        timeout=WAIT,
    )


def test_piped_requests_are_all_answered_before_the_server_stops(slow_sim_url: str, tmp_path: Path) -> None:
    proc = _run(slow_sim_url, tmp_path, None, SCRIPT)  # input= writes then closes the pipe at once
    assert proc.returncode == 0, proc.stderr[-2000:]
    _check_all_answered(_answers(proc.stdout))
    assert b"answering them before stopping" in proc.stderr
    assert b"Connection closed" not in proc.stdout


def test_requests_from_a_file_are_all_answered(slow_sim_url: str, tmp_path: Path) -> None:
    script = tmp_path / "requests.jsonl"
    script.write_bytes(SCRIPT)
    with script.open("rb") as stdin:
        proc = _run(slow_sim_url, tmp_path, stdin, None)
    assert proc.returncode == 0, proc.stderr[-2000:]
    _check_all_answered(_answers(proc.stdout))


def test_a_cancelled_request_is_not_waited_for(slow_sim_url: str, tmp_path: Path) -> None:
    # The protocol lets a cancelled request go unanswered: EOF must not wait for its answer.
    script = _lines(
        INIT,
        INITIALIZED,
        _call(2, "websets.list", {}),
        {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 2}},
    )
    proc = _run(slow_sim_url, tmp_path, None, script)
    assert proc.returncode == 0, proc.stderr[-2000:]
    answers = _answers(proc.stdout)
    assert 1 in answers
    assert b"exa-orch stopped" in proc.stderr


def test_closed_stdin_stops_cleanly(slow_sim_url: str, tmp_path: Path) -> None:
    # `exa-orch serve <&-`: no stdin at all. A clean stop, not a traceback.
    proc = subprocess.run(
        ["sh", "-c", 'exec "$0" -m exa_orch serve <&-', sys.executable],
        env=server_env(slow_sim_url, tmp_path / "workflows.db"),
        capture_output=True,
        timeout=WAIT,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert b"Traceback" not in proc.stderr
    assert b"exa-orch stopped" in proc.stderr
