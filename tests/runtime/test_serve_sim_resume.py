"""`exa-orch serve --sim` (the README's way to try exa-orch) SIGKILLed mid-task and started again:
the in-process simulator keeps its account in a file beside the database, so every task resumes
against the websets it made and completes, and nothing is made twice at the simulator (issue 29)."""

from __future__ import annotations

import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.support import WAIT, until

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow

SIM_LINE = re.compile(r"exa simulator \(--sim\) on (http://127\.0\.0\.1:\d+)")


class SimServer:
    """`python -m exa_orch serve --sim` on stdio, spoken to with raw JSON-RPC lines."""

    def __init__(self, db: Path, errlog: Path, speed: float = 4) -> None:
        env = {
            k: v for k, v in os.environ.items() if not k.startswith(("EXA_API_KEY", "EXA_ORCH_", "EXA_SIM_"))
        }
        # By default slow enough that each search is still running when the server is killed.
        env.update({"EXA_ORCH_DB": str(db), "EXA_SIM_SPEED": f"{speed:g}", "PYTHONPATH": str(ROOT)})
        self.errlog = errlog
        self._start = errlog.stat().st_size if errlog.exists() else 0
        with errlog.open("ab") as err:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "exa_orch", "serve", "--sim"],
                env=env,
                cwd=ROOT,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=err,
            )
        self._id = 0
        hello = {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": "t", "version": "0"},
        }
        self._request("initialize", hello)
        self._send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    @property
    def sim_url(self) -> str:
        """The in-process simulator's URL, from this server's start-up log line."""
        with self.errlog.open("rb") as log:
            log.seek(self._start)
            found = SIM_LINE.search(log.read().decode())
        assert found, "no simulator line in the server's log"
        return found.group(1)

    def _send(self, message: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(message).encode() + b"\n")
        self.proc.stdin.flush()

    def _request(self, method: str, params: dict[str, Any]) -> Any:
        self._id += 1
        self._send({"jsonrpc": "2.0", "id": self._id, "method": method, "params": params})
        assert self.proc.stdout is not None
        while True:
            line = self.proc.stdout.readline()
            assert line, "the server closed stdout"
            message = json.loads(line)
            if message.get("id") == self._id:
                return message["result"]

    def call(self, operation: str, args: dict[str, Any]) -> Any:
        arguments = {"operation": operation, "args": args}
        result = self._request("tools/call", {"name": "manage_websets", "arguments": arguments})
        body = json.loads(result["content"][0]["text"])
        assert not result.get("isError"), body
        return body

    def result(self, task_id: str) -> Any:
        for _ in range(10):  # each waits up to 30 s for the task to finish
            out = self.call("tasks.result", {"taskId": task_id, "wait": 30})
            if out["status"] in ("completed", "failed", "cancelled"):
                return out
        raise AssertionError(f"task {task_id} did not finish: {out}")

    def stop(self, sig: int) -> int:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        if sig == signal.SIGKILL:
            self.proc.kill()
        else:
            self.proc.stdin.close()  # stdin closed: a graceful stop
        code = self.proc.wait(timeout=WAIT)
        self.proc.stdout.close()
        if not self.proc.stdin.closed:
            self.proc.stdin.close()
        return code


def _steps(db: Path, task_id: str) -> set[str]:
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        return {
            row[0] for row in conn.execute("select step_key from task_steps where task_id = ?", (task_id,))
        }


def _websets(sim_url: str) -> list[dict[str, Any]]:
    """Every webset of the simulator's account (any key will do for the simulator)."""
    found: list[dict[str, Any]] = []
    cursor = None
    with httpx.Client(base_url=sim_url, headers={"x-api-key": "test-key"}) as client:
        while True:
            params = {"limit": "100", **({"cursor": cursor} if cursor else {})}
            page = client.get("/websets/v0/websets", params=params).raise_for_status().json()
            found += page["data"]
            cursor = page.get("nextCursor")
            if not page.get("hasMore"):
                return found


async def test_serve_sim_killed_mid_task_resumes_every_task_and_makes_nothing_twice(tmp_path: Path) -> None:
    db, errlog = tmp_path / "workflows.db", tmp_path / "stderr.log"
    args = [
        {
            "type": "lifecycle.harvest",
            "query": f"AI startups in Europe {n}",
            "entity": {"type": "company"},
            "count": 6,
        }
        for n in range(2)
    ]
    first = SimServer(db, errlog)
    try:
        ids = [first.call("tasks.create", a)["taskId"] for a in args]
        # No event crosses the process boundary: re-check the database under one bound.
        await until(
            lambda: all("create.webset" in _steps(db, t) for t in ids), within=WAIT, what="both websets made"
        )
        before = _websets(first.sim_url)
    finally:
        assert first.stop(signal.SIGKILL) == -signal.SIGKILL
    assert len(before) == 2
    assert (tmp_path / "workflows.db.sim-account").is_file()

    second = SimServer(db, errlog)
    try:
        done = [second.result(t) for t in ids]
        after = _websets(second.sim_url)
    finally:
        assert second.stop(signal.SIGTERM) == 0
    assert [d["status"] for d in done] == ["completed", "completed"], done
    assert all(d["summary"]["itemCount"] >= 1 and not d["summary"]["timedOut"] for d in done), done
    # The same two websets, each made once: the resumed tasks used the ones the first server made.
    assert sorted(w["id"] for w in after) == sorted(w["id"] for w in before)
    assert sorted(d["summary"]["websetId"] for d in done) == sorted(w["id"] for w in before)
    assert all(len(w["searches"]) == 1 for w in after)
    assert "RESOURCE_NOT_FOUND" not in errlog.read_text()
