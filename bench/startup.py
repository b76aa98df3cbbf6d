"""Cold start of `exa-orch serve` on stdio against a bare `mcp` MCPServer with one tool, same run.

    .venv/bin/python bench/startup.py [--runs 7] [--target 1.5]

Each run starts a fresh process and times, from just before the spawn, until it has answered
`initialize` and then the first `tools/list` (the server is usable: what an MCP client waits for
when it launches it). Three servers, interleaved run by run so a noisy neighbour hits them alike:

    bare       python -c "MCPServer('bare') with one tool; .run()"   (the SDK's own floor)
    serve      python -m exa_orch serve        (SQLite, no Exa key)
    serve-sim  python -m exa_orch serve --sim  (the built-in simulator in a thread)

Each server keeps its database from one start to the next, as an MCP client's server does: the
unmeasured first start creates and migrates it (`--fresh-db`: a new database at every start).

Prints the median of each and the ratios serve/bare and serve-sim/bare. Target: both <= 1.5
(issue 20). Exit status 1 if one is missed. `python -X importtime -m exa_orch serve` shows where
an import-time regression comes from.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

BARE = """
from mcp.server.mcpserver import MCPServer

server = MCPServer("bare")


@server.tool()
def echo(text: str) -> str:
    \"\"\"Echo the text back.\"\"\"
    return text


server.run()
"""

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "bench", "version": "0"},
    },
}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}
TOOLS_LIST = {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}}


def _answer(proc: subprocess.Popen[bytes], rid: int) -> dict[str, object]:
    """The next message on the child's stdout that answers request `rid` (others are skipped)."""
    assert proc.stdout is not None
    while True:
        line = proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the server closed stdout before answering request {rid}")
        message = json.loads(line)
        if message.get("id") == rid:
            if "error" in message:
                raise RuntimeError(f"request {rid} failed: {message['error']}")
            return message


def _send(proc: subprocess.Popen[bytes], message: dict[str, object]) -> None:
    assert proc.stdin is not None
    proc.stdin.write(json.dumps(message).encode() + b"\n")
    proc.stdin.flush()


def time_start(argv: list[str], env: dict[str, str], cwd: str) -> float:
    """Seconds from spawn to the first tools/list answered (initialize first, as a client does)."""
    start = time.perf_counter()
    proc = subprocess.Popen(
        argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, cwd=cwd
    )
    try:
        _send(proc, INITIALIZE)
        _answer(proc, 1)
        _send(proc, INITIALIZED)
        _send(proc, TOOLS_LIST)
        tools = _answer(proc, 2)
        elapsed = time.perf_counter() - start
        assert tools["result"]["tools"], "tools/list came back empty"  # type: ignore[index]
        return elapsed
    finally:
        assert proc.stdin is not None
        proc.stdin.close()  # EOF: both servers stop on their own
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=7, help="starts of each server (default 7)")
    parser.add_argument("--target", type=float, default=1.5, help="the largest ratio to bare (default 1.5)")
    parser.add_argument("--fresh-db", action="store_true", help="a new database at every start")
    ns = parser.parse_args()

    # Bytecode for exa_orch, as `pip install` writes it for the SDK (a run under
    # PYTHONDONTWRITEBYTECODE=1 would otherwise compile every module of ours at every start).
    compileall.compile_dir(REPO / "exa_orch", quiet=1)
    with tempfile.TemporaryDirectory(prefix="exa-orch-startup-") as tmp:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("EXA_", "EXA_ORCH_"))}
        env.update({"XDG_DATA_HOME": tmp, "PYTHONPATH": str(REPO), "EXA_ORCH_LOG_LEVEL": "WARNING"})
        servers = {
            "bare": [sys.executable, "-c", BARE],
            "serve": [sys.executable, "-m", "exa_orch", "serve"],
            "serve-sim": [sys.executable, "-m", "exa_orch", "serve", "--sim"],
        }
        times: dict[str, list[float]] = {name: [] for name in servers}
        # One start of each first, unmeasured: the OS's file cache and Python's .pyc files.
        for i in range(ns.runs + 1):
            for name, argv in servers.items():
                db = Path(tmp) / (f"{name}-{i}.db" if ns.fresh_db else f"{name}.db")
                db_env = {**env, "EXA_ORCH_DB": str(db)}
                took = time_start(argv, db_env, tmp)
                if i:
                    times[name].append(took)

    medians = {name: statistics.median(ts) for name, ts in times.items()}
    print(f"cold start to the first tools/list answered, median of {ns.runs} (seconds):")
    for name, ts in times.items():
        print(f"  {name:<10} {medians[name]:.3f}   (min {min(ts):.3f}, max {max(ts):.3f})")
    misses = []
    for name in ("serve", "serve-sim"):
        ratio = medians[name] / medians["bare"]
        ok = ratio <= ns.target
        print(f"  {name}/bare = {ratio:.2f}x  (target <= {ns.target}x) {'ok' if ok else 'MISSED'}")
        if not ok:
            misses.append(name)
    return 1 if misses else 0


if __name__ == "__main__":
    sys.exit(main())
