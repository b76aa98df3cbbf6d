"""ExaOrchClient against real `exa-orch serve` children on the simulator: calls, typed errors,
restart after a crash (a durable task survives it, the key reaches the new child too), deadlines,
a stuck child."""

from __future__ import annotations

import logging
import os
import signal
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from exa_orch.client import CallTimeout, ExaOrchClient, ServerUnavailable
from exa_orch.errors import ErrorCode, InvalidParams, OrchError, TaskNotFound, UnknownOperation
from tests.mcp.conftest import held
from tests.support import WAIT, until

from .conftest import running_client

pytestmark = pytest.mark.slow
# The tests that share the module's child (`client`) run in the module's event loop.
SHARED = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def client(sim_url: str, tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[ExaOrchClient]:
    """One started client for the module's tests that neither kill, stop nor reconfigure its child
    and leave it healthy (one start-up, ~1 s of CPU, not one a test). They read its stats as
    differences from what they were when the test began, and make their own tasks."""
    async with held(running_client(sim_url, tmp_path_factory.mktemp("client"))) as client:
        yield client


def counter(stats: dict[str, Any], *path: str) -> int:
    """The counter at `path` of a client's stats (0 for an operation not called yet)."""
    value: Any = stats
    for key in path:
        value = value.get(key, {})
    return int(value or 0)


async def test_a_call_and_a_task_round_trip_on_one_child(sim_url: str, tmp_path: Path) -> None:
    async with running_client(sim_url, tmp_path) as client:
        pid = client.pid
        names = await client.call("list_operations", {"namesOnly": True})
        assert "tasks.create" in str(names)
        webset = await client.call("websets.create", {"search": {"query": "battery startups", "count": 3}})
        assert webset["id"]
        task_id = await client.create_task("mcp_stop.ticks", {"ticks": 3, "delay": 0.01})
        done = await client.wait_task(task_id, timeout=WAIT, poll=5)
        assert done == {
            "taskId": task_id,
            "status": "completed",
            "result": {"ticks": 3},
            "cost": {"usd": 0.0, "billed": 0.0, "estimated": 0.0},  # it called no Exa
        }
        assert client.pid == pid  # one session reused for every call
        stats = client.stats()
        assert stats["starts"] == 1 and stats["restarts"] == 0 and stats["errors"] == 0
        assert stats["calls"] == 4 and stats["healthy"] is True
        assert stats["operations"]["tasks.result"]["calls"] >= 1
        assert stats["operations"]["websets.create"]["meanMs"] > 0
    assert not client.healthy and client.pid is None
    assert "exa-orch stopped" in (tmp_path / "child-stderr.log").read_text()  # stdin EOF: a clean stop


@SHARED
async def test_tool_errors_raise_the_typed_error_with_code_and_hint(client: ExaOrchClient) -> None:
    before = client.stats()
    with pytest.raises(InvalidParams) as bad:
        await client.call("websets.get", {})
    assert bad.value.code is ErrorCode.INVALID_PARAMS
    assert bad.value.fields == ["id"] and "list_operations" in (bad.value.hint or "")
    assert bad.value.body["operation"] == "websets.get"  # type: ignore[attr-defined]

    with pytest.raises(UnknownOperation) as unknown:
        await client.call("websets.craete")
    assert "websets.create" in (unknown.value.hint or "")

    with pytest.raises(TaskNotFound) as missing:
        await client.wait_task("task_nope", timeout=WAIT)
    assert missing.value.code is ErrorCode.TASK_NOT_FOUND and "tasks.list" in (missing.value.hint or "")

    # Still answering, on the same child (no task of the module's tests ever fails).
    assert await client.call("tasks.list", {"limit": 1, "status": "failed"}) == {
        "tasks": [],
        "nextCursor": None,
    }
    after = client.stats()
    assert counter(after, "errors") - counter(before, "errors") == 3
    assert after["restarts"] == before["restarts"] == 0


async def test_a_killed_child_is_replaced_and_resumes_the_durable_task_and_the_key_is_never_logged(
    sim_url: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # The key reaches each child (the first and those started in its place) only through its env.
    key = "sk-client-test-4f9a2c7e1b"
    caplog.set_level(logging.DEBUG)
    async with running_client(sim_url, tmp_path, api_key=key) as client:
        assert client._env["EXA_API_KEY"] == key and key not in " ".join(client.command)
        await client.call("websets.list", {"limit": 1})
        with pytest.raises(OrchError) as echoed:  # an error quoting the key: logged redacted
            await client.call("websets.get", {"id": key})
        assert key in str(echoed.value)

        task_id = await client.create_task(
            "mcp_stop.ticks", {"ticks": 40, "delay": 0.05, "resumed_delay": 0.001}
        )
        while ((await client.get_task(task_id))["progress"] or {}).get("completed", 0) < 2:
            pass  # each tasks.get is a round trip: it works (two ticks saved) before the kill
        first = client.pid
        assert first is not None
        os.kill(first, signal.SIGKILL)
        await until(lambda: not client.healthy)  # noticed between calls, from the child's stdout closing
        assert client.stats()["healthy"] is False

        created = await client.create_task("mcp_stop.ticks", {"ticks": 1, "delay": 0})  # not read-only
        assert client.pid not in (None, first)
        done = await client.wait_task(task_id, timeout=WAIT, poll=5)  # the new child resumed it
        assert done["status"] == "completed" and done["result"] == {"ticks": 40}
        assert (await client.wait_task(created, timeout=WAIT))["status"] == "completed"

        # A kill right before a read-only call: it is retried once on a new child.
        second = client.pid
        assert second is not None
        os.kill(second, signal.SIGKILL)
        view = await client.get_task(task_id)
        assert view["status"] == "completed" and client.pid not in (None, first, second)
        assert client.stats()["restarts"] == 2 and client.stats()["starts"] == 3
        await client.call("websets.list", {"limit": 1})
    logged = caplog.text + (tmp_path / "child-stderr.log").read_text()
    assert "exa-orch child started" in logged and "call websets.list ok" in logged
    assert key not in logged and key not in repr(client.stats())


@SHARED
async def test_a_call_past_its_deadline_times_out_and_the_client_stays_usable(client: ExaOrchClient) -> None:
    before = client.stats()
    pid = client.pid
    task_id = await client.create_task("mcp_stop.ticks", {"ticks": 1000, "delay": 0.05})
    started = time.monotonic()
    with pytest.raises(CallTimeout) as timed_out:
        await client.call("tasks.result", {"taskId": task_id, "wait": 30}, timeout=1)
    assert time.monotonic() - started < 30  # not the 30 s the server would wait: it timed out
    assert timed_out.value.code is ErrorCode.UPSTREAM_TIMEOUT and timed_out.value.hint
    assert client.healthy and client.pid == pid  # it answered the ping: kept
    with pytest.raises(CallTimeout, match="is still working after 0.5 s"):
        await client.wait_task(task_id, timeout=0.5, poll=0.2)
    view = await client.cancel_task(task_id)
    assert view["taskId"] == task_id
    assert (await client.wait_task(task_id, timeout=WAIT))["status"] == "cancelled"
    timeouts = [counter(stats, "operations", "tasks.result", "errors") for stats in (before, client.stats())]
    assert timeouts[1] - timeouts[0] == 1


async def test_a_stuck_child_is_killed_and_replaced(sim_url: str, tmp_path: Path) -> None:
    async with running_client(sim_url, tmp_path, ping_timeout=1.0) as client:
        stuck = client.pid
        assert stuck is not None
        os.kill(stuck, signal.SIGSTOP)  # alive, but answers nothing
        with pytest.raises(CallTimeout):
            await client.call("list_operations", {"namesOnly": True}, timeout=1)
        await until(lambda: not client.healthy)
        assert await client.call("tasks.list", {"limit": 1}) == {"tasks": [], "nextCursor": None}
        assert client.pid != stuck and client.stats()["restarts"] == 1
    with pytest.raises(ProcessLookupError):
        os.kill(stuck, 0)  # killed and reaped


async def test_a_child_that_cannot_start_is_a_typed_error(
    sim_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A bad setting: the server stops at start-up with CONFIG_ERROR. (A missing key does not stop
    # it: it asks the client for the key at the first call to Exa, see tests/mcp/test_elicitation.py.)
    with (tmp_path / "child-stderr.log").open("w") as errlog:
        client = ExaOrchClient(
            env={"EXA_ORCH_DB": str(tmp_path / "w.db"), "EXA_ORCH_TOOLS": "no-such-profile"}, stderr=errlog
        )
        with pytest.raises(ServerUnavailable) as failed:
            async with client:
                pass
    assert failed.value.returncode == 1 and "stderr" in (failed.value.hint or "")
    assert "EXA_ORCH_TOOLS" in (tmp_path / "child-stderr.log").read_text()
    assert client.stats()["failedStarts"] == 1 and not client.healthy

    missing = [str(tmp_path / "no-such-exa-orch"), "serve"]
    with pytest.raises(ServerUnavailable, match="could not start"):
        async with ExaOrchClient(command=missing, allowed_commands=[missing]):  # allowed, not there
            pass

    # A client used outside `async with` says so.
    with pytest.raises(ServerUnavailable, match="closed"):
        await ExaOrchClient().call("list_operations")


async def test_wait_task_returns_a_task_that_waits_for_its_owners_key(sim_url: str, tmp_path: Path) -> None:
    """A child with no key before an Exa not said to be a simulator: the task's run waits for its
    owner's key (input_required); wait_task answers so at once rather than polling until timeout."""
    env = {"EXA_ORCH_SIMULATOR": "0", "EXA_API_KEY": ""}
    async with running_client(sim_url, tmp_path, env=env) as client:
        task_id = await client.create_task("research.deep", {"instructions": "AI startups in Europe"})
        started = time.monotonic()
        waiting = await client.wait_task(task_id, timeout=WAIT, poll=5)
        assert waiting["status"] == "input_required", waiting
        assert waiting["inputRequired"]["kind"] == "apiKey" and waiting["inputRequired"]["retryWith"]
        assert time.monotonic() - started < WAIT
