"""Chaos run: mixed research tasks on the simulator with faults everywhere and servers SIGKILLed.

    .venv/bin/python bench/chaos.py [--tasks 30] [--kill-min 3 --kill-max 8] [--fault-rate 0.2]
                                    [--after-create 0.2] [--servers 2] [--limit 900] [--json]

1. A fault-free run first (no faults, no kills, one server): its wall time is the yardstick.
2. The chaos run: the simulator (in this process, so it outlives every server) answers
   `--fault-rate` of all requests with a 429 (Retry-After), 500, 502, 503 or a dropped connection,
   and `--after-create` of the creates that succeeded with a 5xx or a drop *after* making the
   object. `--servers` `exa-orch serve` processes share one database. The first kill comes as
   soon as a task works, on a server that is up (its log says `app ready`); each later one
   U(kill-min, kill-max) seconds after every server is up, on one of them at random; a new server
   is started in the victim's place. The clock of the next kill starts when the replacement is
   up, so a slow machine, whose servers take longer to start, runs longer rather than killing
   servers that never got to work.
3. Both runs create the same `--tasks` tasks (the six workflows, then one-operation tasks that
   create a search, an enrichment, a monitor and an import, in turn) through MCP over stdio, then
   wait until every task is terminal or `--limit` seconds pass. (A webhook create can't run as a
   task: its secret would be stored; tests/operations/test_create_or_find.py covers it.)

Printed: tasks lost (not terminal at the end), completed, failed by code, completed with part of
their result lost to a fault (an `error` inside the result), duplicate Exa objects by kind (from
the simulator's log: two creates with one key), requests a client sent inside a Retry-After it
had been given, INTERNAL_ERROR count, and wall time against the fault-free run. Exit status 1 when
any of lost, failed, partial-by-fault, duplicates, early requests or INTERNAL_ERROR is not zero.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import IO, Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import httpx  # noqa: E402

from exa_orch.gateway.marks import CREATE_MARK  # noqa: E402
from exa_orch.sim.context import FaultConfig, SimConfig  # noqa: E402
from exa_orch.sim.testing import SimThread  # noqa: E402

COMPANY = {"type": "company"}
MIX: list[dict[str, Any]] = [
    {"type": "research.deep", "instructions": "Which European AI startups raised money in 2025?",
     "model": "exa-research", "timeout": 120_000},
    {"type": "lifecycle.harvest", "query": "AI startups in Europe", "entity": COMPANY, "count": 4,
     "criteria": [{"description": "based in Europe"}],
     "enrichments": [{"description": "Number of employees", "format": "number"}], "timeout": 120_000},
    {"type": "convergent.search", "queries": ["AI startups in Europe", "machine learning companies Berlin"],
     "entity": COMPANY, "count": 4, "timeout": 120_000},
    {"type": "adversarial.verify", "thesis": "European AI startups are well funded",
     "thesisQuery": "well funded AI startups in Europe",
     "antithesisQuery": "AI startups in Europe that struggled to raise funding", "entity": COMPANY,
     "count": 3, "timeout": 120_000, "synthesize": True},
    {"type": "research.verifiedCollection", "query": "AI startups in Europe", "entity": COMPANY, "count": 3,
     "criteria": [{"description": "based in Europe"}], "researchPrompt": "Who founded {{name}} ({{url}})?",
     "researchLimit": 2, "timeout": 120_000},
    {"type": "qd.winnow", "query": "AI startups", "entity": COMPANY, "count": 4,
     "criteria": [{"description": "based in Europe"}, {"description": "founded after 2015"}],
     "enrichments": [{"description": "Number of employees", "format": "number"}]},
]  # fmt: skip
# One-operation tasks on a webset the run makes first (externalId BASE): every other kind of create.
BASE = "chaos-base"
MONITOR = {
    "websetId": BASE,
    "cadence": {"cron": "0 6 * * *"},
    "behavior": {"type": "search", "config": {"count": 2}},
}
MIX += [
    {"type": "operation", "operation": "searches.create",
     "args": {"websetId": BASE, "query": "AI startups in Germany", "count": 2}},
    {"type": "operation", "operation": "enrichments.create",
     "args": {"websetId": BASE, "description": "CEO name", "format": "text"}},
    {"type": "operation", "operation": "monitors.create", "args": MONITOR},
    {"type": "operation", "operation": "imports.create",
     "args": {"entity": COMPANY, "csv": "url\nhttps://a.example\nhttps://b.example\n"}},
]  # fmt: skip
KINDS = ("webset", "search", "enrichment", "monitor", "webhook", "import", "agent_run")
TERMINAL = ("completed", "failed", "cancelled")


# --- servers ------------------------------------------------------------------------------------


class Servers:
    """`exa-orch serve` processes on one database; each has its own key, so the log tells them apart."""

    def __init__(self, db: Path, sim_url: str, logs: Path) -> None:
        self.db, self.sim_url, self.logs = db, sim_url, logs
        self.procs: list[subprocess.Popen[bytes]] = []
        self.started = 0
        self.kills = 0

    def start(self, *, talk: bool = False) -> subprocess.Popen[bytes]:
        self.started += 1
        env = {k: v for k, v in os.environ.items() if not k.startswith(("EXA_", "EXA_ORCH_"))}
        env.update({
            "EXA_ORCH_DB": str(self.db), "EXA_ORCH_EXA_URL": self.sim_url, "EXA_ORCH_SIMULATOR": "1",
            "PYTHONPATH": str(REPO),
            "EXA_API_KEY": f"chaos-server-{self.started}", "EXA_ORCH_LOG_LEVEL": "INFO",
        })  # fmt: skip
        with (self.logs / f"server-{self.started}.log").open("wb") as log:
            proc = subprocess.Popen(
                [sys.executable, "-m", "exa_orch", "serve"],
                env=env,
                stdin=subprocess.PIPE,  # kept open: a server stops when its client leaves
                stdout=subprocess.PIPE if talk else subprocess.DEVNULL,
                stderr=log,
                cwd=self.db.parent,
            )
        proc.log_path = self.logs / f"server-{self.started}.log"  # type: ignore[attr-defined]
        self.procs.append(proc)
        return proc

    def ready(self) -> list[subprocess.Popen[bytes]]:
        """The live servers that have opened their app (their logs say so)."""
        alive = [p for p in self.procs if p.poll() is None]
        return [p for p in alive if b"app ready" in p.log_path.read_bytes()]  # type: ignore[attr-defined]

    def all_ready(self) -> bool:
        """Every live server has opened its app: the kill clock may run."""
        alive = [p for p in self.procs if p.poll() is None]
        return bool(alive) and len(self.ready()) == len(alive)

    def kill_one(self, rng: random.Random) -> None:
        """SIGKILL one ready server (one still starting holds no task yet)."""
        alive = self.ready()
        if alive:
            victim = rng.choice(alive)
            victim.send_signal(signal.SIGKILL)
            victim.wait()
            self.kills += 1
        self.procs = [p for p in self.procs if p.poll() is None]

    def stop(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                proc.send_signal(signal.SIGKILL)
                proc.wait()
        self.procs = []


def _send(proc: subprocess.Popen[bytes], message: dict[str, Any]) -> None:
    assert proc.stdin is not None
    proc.stdin.write(json.dumps(message).encode() + b"\n")
    proc.stdin.flush()


def _answer(out: IO[bytes], rid: int) -> dict[str, Any]:
    while True:
        line = out.readline()
        if not line:
            raise RuntimeError("the server closed stdout before answering")
        message = json.loads(line)
        if message.get("id") == rid:
            return dict(message)


def create_tasks(proc: subprocess.Popen[bytes], tasks: list[dict[str, Any]]) -> list[str]:
    """tasks.create for each task through MCP over stdio, as an agent does; their ids."""
    assert proc.stdout is not None
    _send(proc, {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "chaos", "version": "0"}}})  # fmt: skip
    _answer(proc.stdout, 0)
    _send(proc, {"jsonrpc": "2.0", "method": "notifications/initialized"})
    ids: list[str] = []
    for n, task in enumerate(tasks, start=1):
        call = {"name": "manage_websets", "arguments": {"operation": "tasks.create", "args": task}}
        _send(proc, {"jsonrpc": "2.0", "id": n, "method": "tools/call", "params": call})
        result = _answer(proc.stdout, n).get("result") or {}
        body = result.get("structuredContent") or {}
        if result.get("isError") or "taskId" not in body:
            raise RuntimeError(f"tasks.create refused {task['type']}: {result}")
        ids.append(str(body["taskId"]))
    return ids


# --- one run ------------------------------------------------------------------------------------


def statuses(db: Path, ids: list[str]) -> dict[str, tuple[str, Any, Any]]:
    """id -> (status, error, result) for the tasks, read with plain SQL as a person would."""
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10) as conn:
        rows = conn.execute(
            "SELECT id, status, error, result FROM tasks WHERE id IN (SELECT value FROM json_each(?))",
            (json.dumps(ids),),
        ).fetchall()
    return {
        r[0]: (r[1], json.loads(r[2]) if r[2] else None, json.loads(r[3]) if r[3] else None) for r in rows
    }


def run(args: argparse.Namespace, *, chaos: bool, workdir: Path) -> dict[str, Any]:
    rng = random.Random(args.seed)
    tasks = [MIX[i % len(MIX)] for i in range(args.tasks)]
    faults = FaultConfig(
        rate=args.fault_rate if chaos else 0.0,
        after_create=args.after_create if chaos else 0.0,
        retry_after=args.retry_after,
        seed=args.seed,
    )
    workdir.mkdir(parents=True, exist_ok=True)
    db = workdir / "workflows.db"
    with SimThread(SimConfig(speed=args.speed, seed=args.seed, faults=faults)) as sim:
        servers = Servers(db, sim.url, workdir)
        start = time.monotonic()
        try:
            creator = servers.start(talk=True)
            sim.set_faults(FaultConfig())  # tasks.create touches no Exa; faults start with the work
            base = httpx.post(f"{sim.url}/websets/v0/websets", json={"externalId": BASE},
                              headers={"x-api-key": "chaos-setup"}, timeout=30)  # fmt: skip
            base.raise_for_status()
            ids = create_tasks(creator, tasks)
            sim.set_faults(faults)
            for _ in range(args.servers - 1 if chaos else 0):
                servers.start()
            next_kill: float | None = None  # set once every server is up
            while time.monotonic() - start < args.limit:
                seen = statuses(db, ids)
                if len(seen) == len(ids) and all(s[0] in TERMINAL for s in seen.values()):
                    break
                if chaos and next_kill is None and not servers.kills:
                    # The first kill as soon as a task works, on a server that is up (so one lands
                    # mid-task however fast the machine runs the tasks and however slowly it starts
                    # the other servers); later ones U(min, max) s after every server is up.
                    if any(s[0] == "working" for s in seen.values()) and servers.ready():
                        next_kill = time.monotonic()
                elif chaos and next_kill is None and servers.all_ready():
                    next_kill = time.monotonic() + rng.uniform(args.kill_min, args.kill_max)
                if chaos and next_kill is not None and time.monotonic() >= next_kill:
                    servers.kill_one(rng)
                    next_kill = None
                while len([p for p in servers.procs if p.poll() is None]) < (args.servers if chaos else 1):
                    servers.start()
                time.sleep(0.25)  # a polling loop over the database: nothing to await across processes
            wall = time.monotonic() - start
        finally:
            servers.stop()
        final = statuses(db, ids)
        log = sim.log()
        stats = sim.stats()
    return summarize(final, ids, log, stats, wall, servers, args)


def summarize(
    final: dict[str, tuple[str, Any, Any]],
    ids: list[str],
    log: list[dict[str, Any]],
    stats: dict[str, Any],
    wall: float,
    servers: Servers,
    args: argparse.Namespace,
) -> dict[str, Any]:
    failed: Counter[str] = Counter()
    failures: list[dict[str, Any]] = []
    completed = partial_by_fault = 0
    for status, error, result in final.values():
        if status == "completed":
            completed += 1
            partial_by_fault += _has_error(result)
        elif status == "failed":
            failed[str((error or {}).get("code"))] += 1
            failures.append({k: (error or {}).get(k) for k in ("code", "step", "message")})
    lost = len(ids) - sum(1 for s in final.values() if s[0] in TERMINAL)
    gone = deleted_ids(log)
    return {
        "tasks": len(ids),
        "lost": lost,
        "completed": completed,
        "failedByCode": dict(failed),
        "completedWithPartLostToAFault": partial_by_fault,
        "duplicatesByKind": duplicates(log),
        "madeAgainAfterDelete": sum(1 for e in log if e.get("created") and e["created"].get("id") in gone),
        "requestsBeforeRetryAfter": early_requests(log, args.retry_after),
        "retryAfterHoldsBroken": len(broken_holds(log, args.retry_after)),
        "retryAfterHolds": retry_after_holds(log),
        "internalErrors": failed.get("INTERNAL_ERROR", 0),
        "failures": failures[:10],
        "wallSeconds": round(wall, 1),
        "serversStarted": servers.started,
        "serversKilled": servers.kills,
        "requests": stats["total_requests"],
        "faults": {k: v for k, v in stats["faults"].items() if v},
        "faultsAfterCreate": stats.get("faults_after_create", {}),
        "createsByKind": stats.get("creates_by_kind", {}),
    }


def _has_error(value: Any) -> bool:
    """Whether a result holds an `error` object (a part of the work lost to a failure)."""
    if isinstance(value, dict):
        if isinstance(value.get("error"), dict):
            return True
        return any(_has_error(v) for v in value.values())
    if isinstance(value, list):
        return any(_has_error(v) for v in value)
    return False


def deleted_ids(log: list[dict[str, Any]]) -> set[str]:
    """Ids of objects a successful DELETE removed (a CSV import made again because the answer holding
    its upload URL was lost: the first one is deleted, so it is no duplicate)."""
    return {
        e["path"].rstrip("/").rsplit("/", 1)[-1]
        for e in log
        if e["method"] == "DELETE"
        and e.get("status") is not None
        and e["status"] < 300
        and not e.get("fault")
    }


def duplicates(log: list[dict[str, Any]]) -> dict[str, int]:
    """Objects made more than once and still there, by kind: creates sharing a key (externalId, else
    the metadata mark), less the ones deleted afterwards."""
    gone = deleted_ids(log)
    keys: Counter[tuple[str, str]] = Counter()
    for entry in log:
        made = entry.get("created")
        if made and made.get("id") not in gone:
            key = made.get("externalId") or (made.get("metadata") or {}).get(CREATE_MARK)
            keys[(made["kind"], str(key or f"unkeyed:{made.get('id')}"))] += 1
    out = dict.fromkeys(KINDS, 0)
    for (kind, _), n in keys.items():
        out[kind] = out.get(kind, 0) + (n - 1)
    return out


def early_requests(log: list[dict[str, Any]], retry_after: float) -> int:
    """Requests a client sent to a family while a Retry-After it had been given still held."""
    return sum(broken_holds(log, retry_after).values())


def retry_after_holds(log: list[dict[str, Any]]) -> int:
    """How many 429s with Retry-After the simulator answered."""
    return sum(1 for entry in log if entry.get("fault") == "429" and entry.get("t_end") is not None)


def broken_holds(log: list[dict[str, Any]], retry_after: float) -> dict[tuple[Any, str, float], int]:
    """Per 429 hold (client, family, when it ended) that a request broke: how many requests broke it."""
    holds: dict[tuple[Any, str], list[float]] = {}
    for entry in log:
        if entry.get("fault") == "429" and entry.get("t_end") is not None:
            holds.setdefault((entry.get("client"), entry["family"]), []).append(entry["t_end"])
    # The simulator stamps `t` when its handler starts. A request the client had already sent when
    # the 429 was written (a concurrent call of the same family: legal) can reach the handler some
    # time after t_end on a loaded machine, so the window opens a fifth of Retry-After late.
    slack = max(0.01, retry_after / 5)
    broken: dict[tuple[Any, str, float], int] = {}
    for entry in log:
        for ended in holds.get((entry.get("client"), entry["family"]), []):
            if ended + slack < entry["t"] < ended + retry_after - 0.01:
                key = (entry.get("client"), entry["family"], ended)
                broken[key] = broken.get(key, 0) + 1
                break
    return broken


def retry_after_ignored(broken: int, holds: int) -> bool:
    """Whether the clients ignored Retry-After, judged by the share of holds broken. A client that
    ignores it breaks every hold (its retry comes after its own 0.1-0.2 s backoff, well inside the
    window); a call it had admitted before it read the 429 reaches a busy simulator late now and then,
    breaking one hold by chance. So: two broken holds or more, and more than a quarter of them."""
    return broken >= 2 and broken * 4 > holds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tasks", type=int, default=30)
    parser.add_argument("--servers", type=int, default=2, help="servers sharing the database")
    parser.add_argument("--kill-min", type=float, default=3.0)
    parser.add_argument("--kill-max", type=float, default=8.0)
    parser.add_argument(
        "--fault-rate", type=float, default=0.2, help="share of requests answered with a fault"
    )
    parser.add_argument(
        "--after-create", type=float, default=0.2, help="share of creates faulted after the make"
    )
    parser.add_argument("--retry-after", type=float, default=0.5, help="seconds sent with an injected 429")
    parser.add_argument("--speed", type=float, default=100.0, help="simulated seconds per wall second")
    parser.add_argument("--limit", type=float, default=900.0, help="give up waiting after this many seconds")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--no-baseline", action="store_true", help="skip the fault-free run")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="exa-orch-chaos-") as tmp:
        base = None if args.no_baseline else run(args, chaos=False, workdir=Path(tmp) / "baseline")
        report = run(args, chaos=True, workdir=Path(tmp) / "chaos")
    if base is not None:
        report["faultFreeWallSeconds"] = base["wallSeconds"]
        report["faultFreeCompleted"] = base["completed"]
    bad = (
        report["lost"]
        or sum(report["failedByCode"].values())
        or report["completedWithPartLostToAFault"]
        or sum(report["duplicatesByKind"].values())
        or retry_after_ignored(report["retryAfterHoldsBroken"], report["retryAfterHolds"])
        or report["internalErrors"]
    )
    if args.json:
        print(json.dumps(report))
    else:
        for key, value in report.items():
            print(f"{key:>30}: {value}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
