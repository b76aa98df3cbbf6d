"""What the host client sends again after its child dies mid-call: a read-only call, on a new child;
anything else (a create above all), never: the caller gets ServerUnavailable and decides.

Each test holds one request at the simulator (added latency), SIGKILLs the child while Exa has it,
and counts what reached the simulator. A client that resent every call, creates included, fails here.
"""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path
from typing import Any

import pytest

from exa_orch.client import ExaOrchClient, ServerUnavailable
from exa_orch.sim.context import FaultConfig
from exa_orch.sim.testing import SimThread
from tests.support import WAIT, until

from .conftest import running_client, sent

pytestmark = pytest.mark.slow

HOLD = FaultConfig(latency_ms=3000)  # long enough to kill the child while Exa holds its request


async def kill_while_held(client: ExaOrchClient, sim: SimThread, method: str, path: str, call: Any) -> Any:
    """Start `call` with the simulator holding requests, SIGKILL the child once Exa has `method
    path`, and return the call's outcome (its result, or the exception it raised)."""
    sim.set_faults(HOLD)
    pending = asyncio.ensure_future(call)
    await until(lambda: sent(sim, method, path), within=WAIT, what=f"{method} {path} at the simulator")
    sim.set_faults(FaultConfig())  # a resend, if any, is answered at once
    pid = client.pid
    assert pid is not None
    os.kill(pid, signal.SIGKILL)
    try:
        return await pending
    except Exception as exc:
        return exc


async def test_a_child_killed_during_a_create_is_not_sent_the_create_again(
    sim: SimThread, tmp_path: Path
) -> None:
    path = "/websets/v0/websets"
    async with running_client(sim.url, tmp_path) as client:
        first = client.pid
        body = {"search": {"query": "battery startups", "count": 1}}
        outcome = await kill_while_held(client, sim, "POST", path, client.call("websets.create", body))
        assert isinstance(outcome, ServerUnavailable), outcome
        assert client.stats()["restarts"] == 0  # the loss was reported, not worked around
        # The next call gets a new child; the create it lost is still not sent again.
        assert await client.call("tasks.list", {"limit": 1}) == {"tasks": [], "nextCursor": None}
        assert client.pid not in (None, first)
        await until(lambda: all(e["t_end"] is not None for e in sent(sim, "POST", path)), within=WAIT)
    assert len(sent(sim, "POST", path)) == 1
    assert sim.stats()["creates_by_kind"].get("webset", 0) <= 1  # the held one, made or not: never two


async def test_the_host_client_resends_a_read_only_call_and_nothing_else(
    sim: SimThread, tmp_path: Path
) -> None:
    async with running_client(sim.url, tmp_path) as client:
        webset = await client.call("websets.create", {"search": {"query": "robotics startups", "count": 1}})
        path = f"/websets/v0/websets/{webset['id']}"

        # websets.get is declared read-only: lost with its child, it is sent again on a new one.
        first = client.pid
        got = await kill_while_held(
            client, sim, "GET", path, client.call("websets.get", {"id": webset["id"]})
        )
        assert isinstance(got, dict) and got["id"] == webset["id"], got
        assert client.pid not in (None, first) and client.stats()["restarts"] == 1
        assert len(sent(sim, "GET", path)) == 2

        # websets.update changes something: lost with its child, it is reported, never resent.
        second = client.pid
        update = client.call("websets.update", {"id": webset["id"], "metadata": {"team": "a"}})
        lost = await kill_while_held(client, sim, "POST", path, update)
        assert isinstance(lost, ServerUnavailable), lost
        assert client.stats()["restarts"] == 1
        assert await client.call("tasks.list", {"limit": 1}) == {"tasks": [], "nextCursor": None}
        assert client.pid not in (None, first, second)
    assert len(sent(sim, "POST", path)) == 1
