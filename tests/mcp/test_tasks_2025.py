"""MCP Tasks, 2025-11-25 era (initialize handshake), against build_server over in-memory streams."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from mcp.shared.exceptions import MCPError

from exa_orch.sim.context import FaultConfig, SimConfig
from exa_orch.sim.testing import SimHandle, running_sim
from tests.support import WAIT, until

from .tasks_support import RELATED, app_for, inprocess_legacy, legacy_app, structured


# One `async with` per test: the in-memory transport's task group must open and close in the
# test's own task (an async fixture's teardown runs in another one).
def opened(sim: SimHandle, tmp_path: Path) -> Any:
    return legacy_app(sim.url, tmp_path / "workflows.db")


def steps(n: int = 3, **extra: Any) -> dict[str, Any]:
    return {"operation": "tasks.create", "args": {"type": "mcp_test.steps", "steps": n, **extra}}


async def test_handshake_advertises_tasks_capability_and_optional_task_support(
    sim: SimHandle, tmp_path: Path
) -> None:
    async with opened(sim, tmp_path) as (_app, client):
        assert client.init is not None
        tasks = client.init.capabilities.tasks
        assert tasks is not None and tasks.list is not None and tasks.cancel is not None
        assert (
            tasks.requests is not None
            and tasks.requests.tools is not None
            and tasks.requests.tools.call is not None
        )
        tools = (await client.session.list_tools()).tools
        assert [t.execution.task_support if t.execution else None for t in tools] == ["optional"]


async def test_create_task_result_then_tasks_result_blocks_until_the_final_result(
    sim: SimHandle, tmp_path: Path
) -> None:
    async with opened(sim, tmp_path) as (_app, client):
        created = await client.call_task("manage_websets", steps(3, delay=0.05), ttl=60_000, token="tok-1")
        task = created["task"]
        assert task["taskId"].startswith("task_")
        assert task["status"] == "working"
        assert task["ttl"] == 60_000 and task["pollInterval"] > 0
        assert task["createdAt"].endswith("Z") and task["lastUpdatedAt"].endswith("Z")

        result = await client.result(task["taskId"])  # blocks until terminal
        assert result.is_error is False
        body = structured(result)
        assert body["steps"] == 3 and [f["i"] for f in body["found"]] == [0, 1, 2]
        assert result.meta is not None and result.meta[RELATED] == {"taskId": task["taskId"]}
        got = await client.get(task["taskId"])
        assert got.status == "completed"


async def test_status_and_progress_notifications_reach_the_creating_session(
    sim: SimHandle, tmp_path: Path
) -> None:
    async with opened(sim, tmp_path) as (_app, client):
        created = await client.call_task("manage_websets", steps(3), token="tok-7")
        task_id = created["task"]["taskId"]
        await client.until(
            lambda: any(s.task_id == task_id and s.status == "completed" for s in client.statuses)
        )
        mine = [p for p in client.progress if p.progress_token == "tok-7"]
        assert len(mine) == 3
        assert all(p.meta is not None and p.meta[RELATED] == {"taskId": task_id} for p in mine)
        values = [p.progress for p in mine]
        assert values == sorted(values) and len(set(values)) == 3  # strictly increasing for one token
        assert mine[-1].total == 3
        statuses = [s.status for s in client.statuses if s.task_id == task_id]
        assert statuses[-1] == "completed"
        assert all(s == "working" for s in statuses[:-1])


async def test_a_failed_workflow_is_failed_and_tasks_result_is_the_error_result(
    sim: SimHandle, tmp_path: Path
) -> None:
    async with opened(sim, tmp_path) as (_app, client):
        created = await client.call_task("manage_websets", steps(1, fail=True))
        result = await client.result(created["task"]["taskId"])
        assert result.is_error is True
        body = structured(result)
        assert body["code"] == "INVALID_PARAMS" and "asked to fail" in body["message"]
        assert (await client.get(created["task"]["taskId"])).status == "failed"


async def test_any_operation_runs_as_a_durable_operation_task(sim: SimHandle, tmp_path: Path) -> None:
    async with opened(sim, tmp_path) as (app, client):
        args = {"query": "vector databases", "numResults": 3}
        plain = await client.call("exa.search", args)
        created = await client.call_task("manage_websets", {"operation": "exa.search", "args": args})
        task_id = created["task"]["taskId"]
        via_task = await client.result(task_id)
        assert via_task.is_error is False
        # The same operation's answer, but for Exa's per-request id.
        same = {k: v for k, v in structured(plain).items() if k != "requestId"}
        assert {k: v for k, v in structured(via_task).items() if k != "requestId"} == same
        assert structured(via_task)["results"]
        record = await app.tasks.get(task_id)
        assert record.type == "operation"
        assert record.meta["era"] == "2025-11-25" and record.meta["operation"] == "exa.search"


async def test_tasks_made_either_way_are_seen_polled_and_cancelled_the_other_way(
    sim: SimHandle, tmp_path: Path
) -> None:
    async with opened(sim, tmp_path) as (_app, client):
        # MCP Tasks -> tasks.list / tasks.get
        via_mcp = (await client.call_task("manage_websets", steps(1)))["task"]["taskId"]
        listed = structured(await client.call("tasks.list", {}))
        assert via_mcp in [t.get("taskId") or t.get("id") for t in listed["tasks"]]
        await client.result(via_mcp)
        assert structured(await client.call("tasks.get", {"taskId": via_mcp}))["status"] == "completed"

        # tasks.create -> MCP tasks/get, tasks/list, tasks/cancel
        made = structured(
            await client.call("tasks.create", {"type": "mcp_test.steps", "steps": 50, "delay": 0.2})
        )
        via_op = made.get("taskId") or made["id"]
        assert (await client.get(via_op)).status == "working"
        page = await client.list()
        assert {via_mcp, via_op} <= {t.task_id for t in page.tasks}
        cancelled = await client.cancel(via_op)
        assert cancelled.status == "cancelled"
        assert structured(await client.call("tasks.get", {"taskId": via_op}))["status"] == "cancelled"


async def test_cancel_while_awaiting_exa_ends_cancelled_and_cancels_the_exa_work(tmp_path: Path) -> None:
    # Speed 1: the webset search takes minutes, so the workflow is still waiting on Exa at the cancel;
    # 400 ms of latency per request: the workflow spends most of its time inside a GET at Exa.
    config = SimConfig(speed=1.0, faults=FaultConfig(latency_ms=400))
    async with running_sim(config) as slow_sim:
        async with (
            app_for(slow_sim.url, tmp_path / "w.db") as app,
            inprocess_legacy(app) as client,
        ):
            created = await client.call_task(
                "manage_websets", {"operation": "tasks.create", "args": {"type": "mcp_test.webset_wait"}}
            )
            task_id = created["task"]["taskId"]

            def webset_gets() -> list[dict[str, Any]]:
                return [
                    e
                    for e in slow_sim.log()
                    if e["method"] == "GET" and e["path"].startswith("/websets/v0/websets/")
                ]

            # A GET has finished. The next one is held at Exa for WAIT s, so it is still in flight
            # when the cancel lands however slowly this machine runs (not a race with its 400 ms);
            # the requests after it (Exa's cancel) are quick again.
            await client.until(lambda: any(e["t_end"] is not None for e in webset_gets()))
            held_from = time.monotonic()
            slow_sim.set_faults(FaultConfig(latency_ms=WAIT * 1000))
            held = await until(
                lambda: [e for e in webset_gets() if e["t"] > held_from and e["t_end"] is None],
                what="a GET held at Exa",
            )
            slow_sim.set_faults(FaultConfig(latency_ms=400))
            cancel_sent = time.monotonic()
            cancelled = await client.cancel(task_id)
            assert cancelled.status == "cancelled"
            still = [e for e in webset_gets() if e["t"] == held[0]["t"]]
            assert still[0]["t_end"] is None or still[0]["t_end"] >= cancel_sent, "cancel missed the GET"
            record = await app.tasks.get(task_id)
            assert str(record.status) == "cancelled" and record.result is None
            assert (await client.get(task_id)).status == "cancelled"
            await client.until(
                lambda: any(s.task_id == task_id and s.status == "cancelled" for s in client.statuses)
            )
            cancels = [e for e in slow_sim.log() if e["method"] == "POST" and e["path"].endswith("/cancel")]
            assert len(cancels) == 1 and cancels[0]["status"] == 200
            # The work stopped: the actor is done, and no poll of Exa began after the Exa cancel.
            assert app.supervisor is not None and app.supervisor.actor(task_id) is None
            assert max(e["t"] for e in webset_gets()) < cancels[0]["t"]
            with pytest.raises(MCPError) as again:
                await client.cancel(task_id)
            assert again.value.error.code == -32602  # the Tasks spec's code for a terminal task
            assert again.value.error.message == f"Cannot cancel task {task_id}: it is already cancelled"
            with pytest.raises(MCPError) as no_result:
                await client.result(task_id)
            assert no_result.value.error.code == -32004  # OPERATION_CANCELLED (seed 000 10.1)


async def test_bad_requests_are_json_rpc_errors_and_create_no_task(sim: SimHandle, tmp_path: Path) -> None:
    async with opened(sim, tmp_path) as (app, client):
        with pytest.raises(MCPError) as unknown_task:
            await client.get("task_does_not_exist")
        assert unknown_task.value.error.code == -32602
        with pytest.raises(MCPError) as unknown_op:
            await client.call_task("manage_websets", {"operation": "websets.nope", "args": {}})
        assert unknown_op.value.error.code == -32602
        with pytest.raises(MCPError) as bad_args:
            await client.call_task("manage_websets", steps(-1, delay="soon"))
        assert bad_args.value.error.code == -32602
        assert (await app.tasks.list())[0] == []


async def test_tasks_list_pages_with_a_cursor(sim: SimHandle, tmp_path: Path) -> None:
    async with opened(sim, tmp_path) as (app, client):
        made = {(await app.tasks.create("mcp_test.steps", {"steps": 0})).id for _ in range(55)}
        seen: list[str] = []
        page = await client.list()
        seen += [t.task_id for t in page.tasks]
        assert page.next_cursor is not None
        page = await client.list(page.next_cursor)
        seen += [t.task_id for t in page.tasks]
        assert page.next_cursor is None
        assert set(seen) == made and len(seen) == 55


async def test_toolhost_async_tools_take_task_augmented_calls(sim: SimHandle, tmp_path: Path) -> None:
    async with legacy_app(sim.url, tmp_path / "w.db", tools="toolhost") as (app, client):
        tools = {
            t.name: t.execution.task_support if t.execution else None
            for t in (await client.session.list_tools()).tools
        }
        assert tools == {
            "websets-sync": None,
            "websets-async": "optional",
            "exa-sync": None,
            "exa-async": "optional",
        }
        with pytest.raises(MCPError) as forbidden:
            await client.call_task("exa-sync", {"operation": "search", "params": {"query": "x"}})
        assert forbidden.value.error.code == -32601
        with pytest.raises(MCPError) as listing:
            await client.call_task("exa-async", {"operation": "list_operations"})
        assert listing.value.error.code == -32602

        params = {"query": "what is a webset?"}
        plain = await client.session.call_tool("exa-async", {"operation": "stream_answer", "params": params})
        created = await client.call_task("exa-async", {"operation": "stream_answer", "params": params})
        via_task = await client.result(created["task"]["taskId"])
        assert via_task.is_error is False and plain.is_error is False
        drop = {"requestId", "costDollars"}
        assert {k: v for k, v in structured(via_task).items() if k not in drop} == {
            k: v for k, v in structured(plain).items() if k not in drop
        }
        record = await app.tasks.get(created["task"]["taskId"])
        assert record.meta["tool"] == "exa-async" and record.meta["operation"] == "exa.answer"


async def test_requested_ttl_is_kept_and_clamped(sim: SimHandle, tmp_path: Path) -> None:
    day_ms = 86_400_000  # the default maximum (EXA_ORCH_MAX_TASK_TTL)
    async with opened(sim, tmp_path) as (app, client):
        answer = await client.call_task("manage_websets", steps(0), ttl=10**13)
        huge = answer["task"]
        assert huge["ttl"] == day_ms  # the CreateTaskResult says what was granted
        note = answer["_meta"]["io.modelcontextprotocol/model-immediate-response"]
        assert "clamped" in note and str(day_ms) in note
        assert (await app.tasks.get(huge["taskId"])).ttl_ms == day_ms
        via_args = (await client.call_task("manage_websets", steps(0, ttl=90_000)))["task"]
        assert via_args["ttl"] == 90_000  # tasks.create's own ttl when params.task has none


async def test_an_operation_task_reports_the_operations_own_progress(sim: SimHandle, tmp_path: Path) -> None:
    async with opened(sim, tmp_path) as (_app, client):
        made = await client.call("websets.create", {"search": {"query": "fintech startups", "count": 10}})
        webset_id = structured(made)["id"]
        wait = {"operation": "websets.waitUntilIdle", "args": {"id": webset_id, "pollInterval": 0.05}}
        task_id = (await client.call_task("manage_websets", wait, token="wait-tok"))["task"]["taskId"]
        result = await client.result(task_id)
        assert structured(result)["webset"]["status"] == "idle"
        await client.until(
            lambda: any(s.task_id == task_id and s.status == "completed" for s in client.statuses)
        )
        mine = [p for p in client.progress if p.progress_token == "wait-tok"]
        assert mine and all(p.meta and p.meta[RELATED]["taskId"] == task_id for p in mine)
        assert any("websets.waitUntilIdle" in (p.message or "") for p in mine)
        values = [p.progress for p in mine]
        assert values == sorted(set(values))  # one token's progress only grows
