"""Issue 23's first acceptance: a mixed day on the simulator with a SIGKILL and a restart in the
middle. The six workflows run as tasks beside direct search, contents and answer calls (over 100
paid requests in all) through `exa-orch serve` on stdio; the server is SIGKILLed mid-day and a new
one resumes the tasks. The ledger's billed rows are then exactly the simulator's paid answers: the
same requests (Exa's requestIds and agent-run ids), none twice, and the same dollars to the cent.

The simulator runs in this process (it outlives both servers). Its door (sim/door.py) gives the
kill a moment when no request of the server is being worked on: a request the simulator answers
in the instant before a SIGKILL is billed by Exa and can be recorded by nobody, so that moment is
what makes "to the cent" a property of exa-orch rather than of luck.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from exa_orch.sim.billing import Billing
from exa_orch.sim.context import SimConfig
from exa_orch.sim.door import Door
from exa_orch.sim.testing import SimThread
from tests.support import WAIT, bound, until

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow

COMPANY = {"type": "company"}
SIX: list[dict[str, Any]] = [
    {"type": "research.deep", "instructions": "Which European AI startups raised money in 2025?",
     "model": "exa-research"},
    {"type": "lifecycle.harvest", "query": "AI startups in Europe", "entity": COMPANY, "count": 4,
     "criteria": [{"description": "based in Europe"}],
     "enrichments": [{"description": "Number of employees", "format": "number"}]},
    {"type": "convergent.search", "queries": ["AI startups in Europe", "machine learning companies Berlin"],
     "entity": COMPANY, "count": 4},
    {"type": "adversarial.verify", "thesis": "European AI startups are well funded",
     "thesisQuery": "well funded AI startups in Europe",
     "antithesisQuery": "AI startups in Europe that struggled to raise funding", "entity": COMPANY,
     "count": 3, "synthesize": True},
    {"type": "research.verifiedCollection", "query": "AI startups in Europe", "entity": COMPANY, "count": 3,
     "criteria": [{"description": "based in Europe"}], "researchPrompt": "Who founded {{name}} ({{url}})?",
     "researchLimit": 2},
    {"type": "qd.winnow", "query": "AI startups", "entity": COMPANY, "count": 4,
     "criteria": [{"description": "based in Europe"}, {"description": "founded after 2015"}],
     "enrichments": [{"description": "Number of employees", "format": "number"}]},
]  # fmt: skip
TERMINAL = ("completed", "failed", "cancelled")


class Server:
    """`python -m exa_orch serve` on stdio against the simulator, spoken to with JSON-RPC lines."""

    def __init__(self, db: Path, sim_url: str, errlog: Path) -> None:
        env = {
            k: v for k, v in os.environ.items() if not k.startswith(("EXA_API_KEY", "EXA_ORCH_", "EXA_SIM_"))
        }
        env.update({
            "EXA_ORCH_DB": str(db), "EXA_ORCH_EXA_URL": sim_url, "EXA_ORCH_SIMULATOR": "1",
            "EXA_API_KEY": "mixed-day", "PYTHONPATH": str(ROOT),
        })  # fmt: skip
        with errlog.open("ab") as err:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "exa_orch", "serve"],
                env=env,
                cwd=db.parent,
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

    def direct_calls(self, n: int, tag: str) -> None:
        """`n` each of exa.search, exa.getContents and exa.answer (every other one streamed), as an
        agent calls them."""
        for i in range(n):
            self.call("exa.search", {"query": f"AI startups {tag} {i}", "numResults": 3 + i % 10})
            self.call("exa.getContents", {"urls": [f"https://example.com/{tag}/{i}"], "text": True})
            self.call("exa.answer", {"query": f"Who funds AI startups in {tag} {i}?", "stream": i % 2 == 0})

    def stop(self, sig: int) -> int:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        if sig == signal.SIGKILL:
            self.proc.kill()
        else:
            self.proc.stdin.close()  # a graceful stop: queued ledger rows commit on the way out
        code = self.proc.wait(timeout=WAIT)
        self.proc.stdout.close()
        if not self.proc.stdin.closed:
            self.proc.stdin.close()
        return code


def _read(db: Path, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=WAIT) as conn:
        return conn.execute(sql, params).fetchall()


def _statuses(db: Path, ids: list[str]) -> dict[str, str]:
    rows = _read(
        db, "SELECT id, status FROM tasks WHERE id IN (SELECT value FROM json_each(?))", (json.dumps(ids),)
    )
    return dict(rows)


def _task_rows(db: Path) -> int:
    return int(_read(db, "SELECT count(*) FROM v_costs WHERE task_id IS NOT NULL")[0][0])


def _billed_rows(db: Path) -> int:
    return int(_read(db, "SELECT count(*) FROM v_costs WHERE billed = 1")[0][0])


async def test_a_mixed_day_with_a_sigkill_counts_every_paid_request_once_to_the_cent(tmp_path: Path) -> None:
    db, errlog = tmp_path / "workflows.db", tmp_path / "stderr.log"
    with SimThread(SimConfig(speed=50)) as sim:
        account: Billing = sim.ctx.extras["billing"]
        door: Door = sim.ctx.extras["door"]
        first = Server(db, sim.url, errlog)
        killed = False
        try:
            first.direct_calls(17, "morning")
            ids = [first.call("tasks.create", task)["taskId"] for task in SIX]
            # Once the tasks are spending, a quiet moment: the door holds every new request, so no
            # task can end however slowly this machine runs (a task that ended before the kill
            # would leave the restart nothing to resume); no request of the server's is inside the
            # simulator, and every paid answer it was sent is in the ledger (rows commit with the
            # writer's next group commit).
            await until(lambda: _task_rows(db) > 0, within=WAIT, what="a task's first ledger row")
            door.close()
            await until(lambda: door.quiet, within=WAIT, what="no request inside the simulator")
            await until(
                lambda: _billed_rows(db) == account.answers, within=WAIT, what="the ledger to catch up"
            )
            working = [t for t, s in _statuses(db, ids).items() if s not in TERMINAL]
            assert first.stop(signal.SIGKILL) == -signal.SIGKILL
            killed = True
        finally:
            if not killed:
                first.stop(signal.SIGKILL)
            # The requests the dead server left at the door saw it go; only then does it open.
            await until(lambda: door.held == 0, within=WAIT, what="the held requests to see their client go")
            door.open()
        assert working, "every task ended before the kill: the restart resumed nothing"
        paid_before_kill = account.answers

        second = Server(db, sim.url, errlog)
        try:
            second.direct_calls(17, "afternoon")
            await until(
                lambda: all(s in TERMINAL for s in _statuses(db, ids).values()),
                within=bound(300),
                what="every task to end",
            )
        finally:
            assert second.stop(signal.SIGTERM) == 0

        statuses = _statuses(db, ids)
        rows = _read(db, "SELECT key, usd, resend FROM v_costs WHERE billed = 1")
        charged = list(account.charged)
        spent = account.spent
    assert set(statuses.values()) == {"completed"}, statuses
    assert account.answers >= 100 and paid_before_kill < account.answers
    # The same requests, each once: nothing lost to the kill, nothing counted twice after it.
    keys = Counter(r[0] for r in rows)
    assert keys == Counter(charged), (keys - Counter(charged), Counter(charged) - keys)
    assert max(keys.values()) == 1
    # The same dollars, to the cent (and in fact to the micro-dollar the answers carry).
    assert round(sum(r[1] for r in rows), 2) == round(spent, 2)
    assert round(sum(r[1] for r in rows), 6) == spent
    assert "Traceback" not in errlog.read_text()
