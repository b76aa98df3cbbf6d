"""A watch run's notices survive the server (issue 39): they are written with the run, in its
transaction, and sent from the outbox by whichever server is up."""

from __future__ import annotations

import json
import signal
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from exa_orch.sim.context import SimConfig
from exa_orch.sim.testing import SimThread
from tests.operations.test_watches import SEARCH, WORLD, verify
from tests.runtime.test_serve_crash import Server
from tests.support import WAIT, until_sync


class HoldingReceiver:
    """A webhook receiver that takes the first POST and never answers it (the sender is then in
    the middle of sending); it answers every later POST 204."""

    def __init__(self) -> None:
        self.got: list[tuple[dict[str, str], bytes]] = []
        self.first = threading.Event()
        self.release = threading.Event()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                body = self.rfile.read(int(self.headers.get("content-length", "0")))
                receiver.got.append(({k.lower(): v for k, v in self.headers.items()}, body))
                if len(receiver.got) == 1:
                    receiver.first.set()
                    receiver.release.wait(timeout=WAIT)  # until the test ends: never answered in time
                    return
                self.send_response(204)
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 (the base class's name)
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"


@contextmanager
def holding_receiver() -> Iterator[HoldingReceiver]:
    receiver = HoldingReceiver()
    thread = threading.Thread(target=receiver.server.serve_forever, daemon=True)
    thread.start()
    try:
        yield receiver
    finally:
        receiver.release.set()
        receiver.server.shutdown()
        receiver.server.server_close()


def _outbox(db: Path) -> list[tuple[str, int, str, int, str | None]]:
    """(channel, run, status, attempts, claimed_by) of every outbox row."""
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        return conn.execute(
            "SELECT channel, run_n, status, attempts, claimed_by FROM watch_outbox ORDER BY id"
        ).fetchall()


def _run_done(db: Path, n: int) -> bool:
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        return bool(
            conn.execute("SELECT 1 FROM watch_runs WHERE n = ? AND finished_at IS NOT NULL", (n,)).fetchall()
        )


@pytest.mark.slow
def test_a_server_killed_while_sending_a_webhook_leaves_it_to_the_next_server_which_sends_it_once(
    tmp_path: Path,
) -> None:
    db, errlog, world = tmp_path / "workflows.db", tmp_path / "stderr.log", tmp_path / "world.json"
    world.write_text(json.dumps(WORLD), encoding="utf-8")
    with SimThread(SimConfig(speed=1e-9, world_file=str(world))) as sim, holding_receiver() as hook:
        first = Server(sim.url, db, errlog)
        try:
            made = first.call("watches.create", {**SEARCH, "every": "2s", "notify": {"webhook": hook.url}})
            until_sync(lambda: _run_done(db, 1), what="the baseline run recorded")
            sim.ctx.clock.advance(15)  # Nova Drones appears at 10: run 2 finds it
            # Run 2 is recorded and its webhook is on the way: the receiver holds the POST.
            assert hook.first.wait(timeout=WAIT), "no webhook POST arrived"
            assert _outbox(db)[0][:4] == ("webhook", 2, "pending", 1)
        finally:
            assert first.kill() == -signal.SIGKILL
        second = Server(sim.url, db, errlog)
        try:
            # The dead server's claim lapses; the new one sends the run's notice again.
            until_sync(lambda: _outbox(db)[0][2] == "delivered", what="the webhook delivered")
            shown = second.call("watches.get", {"watchId": made["watchId"]})
        finally:
            assert second.close() == 0
    webhook = [row for row in _outbox(db) if row[0] == "webhook"]
    assert webhook == [("webhook", 2, "delivered", 2, None)]  # one row: the first try, and one more
    run2 = next(r for r in shown["runs"] if r["run"] == 2)
    assert run2["notified"] == ["webhook"]
    assert run2["webhook"]["status"] == "delivered" and run2["webhook"]["attempts"] == 2
    # Two POSTs of the same notice: the one the killed server never heard answered, and the one
    # delivered. Both carry one eventId, so a receiver that took the first can drop the second.
    assert len(hook.got) == 2
    (_, held), (headers, body) = hook.got
    assert json.loads(held)["eventId"] == json.loads(body)["eventId"] == f"{made['watchId']}/2"
    assert verify(made["secret"], headers["exa-signature"], body)
    assert json.loads(body)["diff"]["added"] == ["https://nova.example"]
