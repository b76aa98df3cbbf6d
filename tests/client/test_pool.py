"""ExaOrchPool against real `exa-orch serve` children on the simulator: calls spread over the
children, one database behind all of them, and a child SIGKILLed mid-run: the others keep answering,
it is replaced without waiting for a call, read-only calls it lost are sent again to another child,
and no create is sent twice."""

from __future__ import annotations

import os
import signal
import time
from collections import Counter
from pathlib import Path
from typing import Any

import anyio
import pytest

from exa_orch.client import ExaOrchPool, ServerUnavailable
from exa_orch.sim.context import FaultConfig
from exa_orch.sim.testing import SimThread
from tests.support import WAIT, until

from .conftest import running_pool, sent

pytestmark = pytest.mark.slow

EMPTY = {"tasks": [], "nextCursor": None}
WEBSETS = "/websets/v0/websets"


async def test_sixty_concurrent_calls_spread_over_three_children_on_one_database(
    sim_url: str, tmp_path: Path
) -> None:
    async with running_pool(sim_url, tmp_path, 3) as pool:
        pids = [child.pid for child in pool.children]
        assert None not in pids and len(set(pids)) == 3
        answers: list[Any] = [None] * 60

        async def one(i: int) -> None:
            op, args = ("websets.list", {"limit": 1}) if i % 2 else ("tasks.list", {"limit": 1})
            answers[i] = await pool.call(op, args)

        async with anyio.create_task_group() as tg:
            for i in range(60):
                tg.start_soon(one, i)
        assert all(a == EMPTY for a in answers[::2]) and all("data" in a for a in answers[1::2])
        stats = pool.stats()
        # All 60 were in flight together: the fewest-in-flight rule gives each child a third.
        assert [c["calls"] for c in stats["children"]] == [20, 20, 20]
        assert [c["inFlight"] for c in stats["children"]] == [0, 0, 0]
        assert stats["calls"] == 60 and stats["errors"] == 0 and stats["resent"] == 0
        assert stats["healthy"] == 3 and stats["starts"] == 3 and stats["restarts"] == 0
        assert stats["operations"]["tasks.list"]["calls"] == 30
        assert [c["pid"] for c in stats["children"]] == pids

        # One database: a task made through one child is seen, and waited for, through each.
        task_id = await pool.create_task("mcp_stop.ticks", {"ticks": 3, "delay": 0.01})
        for child in pool.children:
            assert (await child.get_task(task_id))["taskId"] == task_id
        done = await pool.wait_task(task_id, timeout=WAIT, poll=5)
        assert done["status"] == "completed" and done["result"] == {"ticks": 3}
        for child in pool.children:
            assert (await child.wait_task(task_id, timeout=WAIT))["result"] == {"ticks": 3}
    assert pool.healthy == 0
    with pytest.raises(ServerUnavailable, match="closed"):
        await pool.call("tasks.list")


async def test_a_child_killed_mid_run_is_replaced_while_the_others_answer_and_nothing_is_sent_twice(
    sim: SimThread, tmp_path: Path
) -> None:
    async with running_pool(sim.url, tmp_path, 3) as pool:
        victim = pool.children[1]
        first = victim.pid
        assert first is not None
        creates = [i for i in range(60) if i % 4 == 1]
        outcomes: dict[int, Any] = {}

        async def one(i: int) -> None:
            try:
                if i in creates:
                    args = {"search": {"query": f"startups {i}", "count": 1}, "metadata": {"n": str(i)}}
                    outcomes[i] = await pool.call("websets.create", args)
                else:
                    outcomes[i] = await pool.call("websets.list", {"limit": 1})
            except Exception as exc:
                outcomes[i] = exc

        sim.set_faults(FaultConfig(latency_ms=3000))  # Exa holds every request: the run is under way
        async with anyio.create_task_group() as tg:
            for i in range(60):
                tg.start_soon(one, i)
            await until(lambda: len(sim.log()) >= 3, within=WAIT, what="requests held at the simulator")
            assert pool.stats()["children"][1]["inFlight"] > 0  # killed with calls in flight
            os.kill(first, signal.SIGKILL)
            sim.set_faults(FaultConfig())  # what is sent from now on is answered at once

        # The pool kept answering: every read-only call has its answer (those the victim lost were
        # sent again, to another child); a create it lost raised ServerUnavailable, never resent.
        lists = [outcomes[i] for i in range(60) if i not in creates]
        assert all(isinstance(o, dict) and "data" in o for o in lists), lists
        lost = {i for i in creates if isinstance(outcomes[i], ServerUnavailable)}
        made = {i for i in creates if isinstance(outcomes[i], dict) and outcomes[i]["id"]}
        assert lost and made and lost | made == set(creates)
        assert lost <= {i for i in creates if i % 3 == 1}  # the victim's share (calls go round in turn)
        stats = pool.stats()
        assert stats["errors"] == len(lost) and stats["calls"] == 60
        assert 1 <= stats["resent"] <= 15  # at most the victim's 15 websets.list calls
        sends = sum(c["operations"]["websets.create"]["calls"] for c in stats["children"])
        assert sends == len(creates)  # each create went to one child, once

        # Replaced by the pool's watcher, with no call of ours routed to it meanwhile.
        await until(lambda: victim.pid not in (None, first), within=WAIT, what="a new child in slot 1")
        assert victim.stats()["restarts"] == 1 and victim.stats()["calls"] == 20
        assert pool.stats()["healthy"] == 3

        async with anyio.create_task_group() as tg:  # and it serves again, beside the others
            for _ in range(6):
                tg.start_soon(pool.call, "tasks.list", {"limit": 1})
        assert victim.stats()["calls"] == 22

    # At Exa: no create came twice (each carries its call's number), and none the pool did not send.
    await until(lambda: all(e["t_end"] is not None for e in sent(sim, "POST", WEBSETS)), within=WAIT)
    numbers = Counter(e["created"]["metadata"]["n"] for e in sent(sim, "POST", WEBSETS) if e.get("created"))
    assert set(numbers.values()) == {1}
    assert {str(i) for i in made} <= set(numbers) <= {str(i) for i in creates}
    assert len(sent(sim, "POST", WEBSETS)) <= len(creates)


async def test_a_pool_whose_children_cannot_start_raises_the_typed_error(tmp_path: Path) -> None:
    env = {"EXA_ORCH_DB": str(tmp_path / "w.db"), "EXA_ORCH_TOOLS": "no-such-profile"}  # CONFIG_ERROR
    with (tmp_path / "child-stderr.log").open("w") as errlog:
        pool = ExaOrchPool(3, env=env, stderr=errlog)
        with pytest.raises(ServerUnavailable) as failed:
            async with pool:
                pass
    assert failed.value.returncode == 1 and "stderr" in (failed.value.hint or "")
    stats = pool.stats()
    assert stats["healthy"] == 0 and stats["starts"] == 0
    assert [c["failedStarts"] for c in stats["children"]] == [1, 1, 1]  # all three tried, side by side


def _exited_in_kernel(pid: int) -> bool:
    """Whether child `pid` has exited: the kernel holds its exit, or the event loop's child
    watcher thread reaped it already (the loop itself is told only at its next turn)."""
    try:
        return os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except ChildProcessError:
        return True


@pytest.mark.parametrize("operation", ["websets.list", "exa.search"])
async def test_an_idle_child_killed_is_noticed_before_a_call_is_routed_to_it(
    sim_url: str, tmp_path: Path, operation: str
) -> None:
    """Issue 36: 30 calls at once right after an idle child's SIGKILL took effect, before the
    pool's event loop has seen its stdout end: none is routed to the dead child."""
    args = {"limit": 1} if operation == "websets.list" else {"query": "AI chips", "numResults": 1}
    async with running_pool(sim_url, tmp_path, 3) as pool:
        victim = pool.children[0]
        first = victim.pid
        assert first is not None
        os.kill(first, signal.SIGKILL)
        # No await until the calls go out: the event loop learns nothing of the exit meanwhile.
        limit = time.monotonic() + WAIT
        while not _exited_in_kernel(first):
            assert time.monotonic() < limit, "the SIGKILLed child did not exit"
        outcomes = await _thirty(pool, operation, args)
        assert all(isinstance(o, dict) for o in outcomes), outcomes
        stats = pool.stats()
        assert stats["calls"] == 30 and stats["errors"] == 0 and stats["resent"] == 0
        assert operation not in stats["children"][0]["operations"]  # none routed to the dead child
        await until(lambda: victim.pid not in (None, first), within=WAIT, what="a new child in slot 0")


async def test_a_call_never_written_to_a_live_child_is_sent_again_whatever_the_operation(
    sim_url: str, tmp_path: Path
) -> None:
    """30 paid searches at once in the same instant as an idle child's SIGKILL: each routed to it
    before its exit took effect either was never written to it while it lived, and is sent again
    to another child (it cannot have run), or was written and raises (it may have run)."""
    args = {"query": "AI chips", "numResults": 1}
    async with running_pool(sim_url, tmp_path, 3) as pool:
        first = pool.children[0].pid
        assert first is not None
        os.kill(first, signal.SIGKILL)  # idle: no call in flight; no await before the calls go out
        outcomes = await _thirty(pool, "exa.search", args)
        stats = pool.stats()
    raised = [o for o in outcomes if isinstance(o, Exception)]
    assert all(isinstance(o, ServerUnavailable) and o.written for o in raised), raised
    assert all(isinstance(o, dict) for o in outcomes if o not in raised)
    routed = stats["children"][0]["operations"].get("exa.search", {"calls": 0, "errors": 0})
    assert routed["errors"] == stats["resent"] + len(raised)  # each lost call sent again or raised
    # a call that reached the slot once its exit was seen started the slot's new child and ran
    # there (ExaOrchClient: "the next call starts a new one"): it succeeded, it was not lost
    assert routed["calls"] >= routed["errors"]
    assert stats["calls"] == 30 and stats["errors"] == len(raised)


async def _thirty(pool: ExaOrchPool, operation: str, args: dict[str, Any]) -> list[Any]:
    outcomes: list[Any] = [None] * 30

    async def one(i: int) -> None:
        try:
            outcomes[i] = await pool.call(operation, args)
        except Exception as exc:
            outcomes[i] = exc

    async with anyio.create_task_group() as tg:
        for i in range(30):
            tg.start_soon(one, i)
    return outcomes
