"""A client that goes away before the simulator reads its body (a server killed mid-request)."""

from __future__ import annotations

import logging
import socket
import time
from urllib.parse import urlsplit

import pytest

from exa_orch.sim.context import FaultConfig, SimConfig
from exa_orch.sim.testing import SimThread
from tests.support import WAIT


def test_a_client_gone_before_its_body_is_read_is_no_simulator_bug(caplog: pytest.LogCaptureFixture) -> None:
    # The simulator logged "simulator bug" with two tracebacks for every request whose client was
    # killed during the added latency; nothing is created and the log shows a 499.
    body = b'{"search": {"query": "AI startups in Europe", "count": 3}}'
    with SimThread(SimConfig(speed=100.0, faults=FaultConfig(latency_ms=300))) as sim:
        url = urlsplit(sim.url)
        with socket.create_connection((url.hostname or "127.0.0.1", url.port or 80), timeout=WAIT) as conn:
            conn.sendall(
                b"POST /websets/v0/websets HTTP/1.1\r\nHost: sim\r\nx-api-key: k\r\n"
                b"content-type: application/json\r\ncontent-length: %d\r\n\r\n%s" % (len(body), body)
            )
        deadline = time.monotonic() + WAIT
        while not [e for e in sim.log() if e["t_end"] is not None]:
            assert time.monotonic() < deadline, sim.log()
            time.sleep(0.02)
        entry = sim.log()[0]
        stats = sim.stats()
    assert (entry["path"], entry["status"]) == ("/websets/v0/websets", 499)
    assert stats["creates_by_external_id"] == {}
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert errors == [], [r.getMessage() for r in errors]
