"""Robustness regressions found by driving the server like an outside client would: every path that
creates a task, restarts in the middle of one, and input a well-behaved client never sends."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError

from exa_orch.config import Secret
from exa_orch.mcp.server import build_server
from exa_orch.mcp.transport import BearerAuth
from exa_orch.sim.context import SimConfig
from exa_orch.sim.testing import SimHandle, running_sim
from exa_orch.store import Store, TaskStatus
from tests.support import WAIT

from .conftest import server_env
from .tasks_support import TasksExtension, app_for, legacy_app, structured

HOOK = {"url": "https://example.com/hook", "events": ["webset.created"]}
WEBHOOK_TASK = {"type": "operation", "operation": "webhooks.create", "args": HOOK}


async def test_a_task_augmented_tasks_create_of_a_secret_operation_is_refused_in_both_eras(
    sim: SimHandle, tmp_path: Path
) -> None:
    # tasks.create {type: "operation", operation: "webhooks.create"} called as an MCP task used to
    # bypass the secret check that the plain call has, and the webhook's signing secret was saved
    # in the task's result row.
    call = {"operation": "tasks.create", "args": WEBHOOK_TASK}
    async with legacy_app(sim.url, tmp_path / "workflows.db") as (app, client):
        with pytest.raises(MCPError) as refused:
            await client.call_task("manage_websets", call)
        assert refused.value.error.code == -32602 and "secret" in refused.value.error.message
        assert (await app.tasks.list())[0] == []
    async with app_for(sim.url, tmp_path / "modern.db") as app:
        async with Client(build_server(app), extensions=[TasksExtension()]) as modern:
            result = await modern.call_tool("manage_websets", call)
            assert result.is_error and structured(result)["code"] == "INVALID_PARAMS"
            assert "secret" in structured(result)["message"]
            assert (await app.tasks.list())[0] == []
    assert sim.stats()["requests_by_endpoint"].get("POST /websets/v0/webhooks") is None


async def test_an_operation_task_never_runs_a_secret_operation_whoever_wrote_its_row(
    sim: SimHandle, tmp_path: Path
) -> None:
    # A row written without the face's checks (another version, a direct TaskService.create) must
    # still not create a webhook whose secret would land in the result column.
    async with app_for(sim.url, tmp_path / "workflows.db") as app:
        record = await app.tasks.create("operation", {"operation": "webhooks.create", "args": HOOK})
        done = await app.tasks.wait(record.id, timeout=WAIT)
        assert str(done.status) == "failed", done
        assert done.error is not None and "secret" in done.error["message"]
        assert done.result is None
    assert sim.stats()["requests_by_endpoint"].get("POST /websets/v0/webhooks") is None


async def _left_by_a_killed_server(db: Path, args: dict[str, Any]) -> str:
    """The row a server leaves when it dies inside a websets.create task, after Exa answered and
    before the checkpoint: working, no saved step, its lease gone (the owner process is dead)."""
    async with Store(str(db)) as store:
        record = await store.create_task("operation", {"operation": "websets.create", "args": args})
        assert await store.acquire_lease(record.id, "dead-server", 15)
        await store.transition(record.id, TaskStatus.WORKING, owner="dead-server")
        await store.release_lease(record.id, "dead-server")
    return record.id


async def _create_at_exa(sim: SimHandle, external_id: str) -> str:
    """What the killed run had sent: Exa made the webset; the run never learned its id."""
    async with httpx.AsyncClient(base_url=sim.url, headers={"x-api-key": "test"}) as http:
        body = {"search": {"query": "AI startups in Europe", "count": 3}, "externalId": external_id}
        response = await http.post("/websets/v0/websets", json=body)
        assert response.status_code == 201, response.text
        return str(response.json()["id"])


async def test_a_websets_create_task_killed_after_exa_answered_resumes_without_a_second_webset(
    sim: SimHandle, tmp_path: Path
) -> None:
    # The "operation" task ran websets.create as one step with the caller's args: a run killed after
    # Exa created the webset made a second one on resume (no externalId), or, when the caller gave
    # an externalId, failed on Exa's 409 for the webset its own first attempt had made.
    db = tmp_path / "workflows.db"
    search = {"search": {"query": "AI startups in Europe", "count": 3}}
    ours = await _left_by_a_killed_server(db, search)
    theirs = await _left_by_a_killed_server(db, {**search, "externalId": "caller-chosen-1"})
    made = {ours: await _create_at_exa(sim, f"{ours}:operation")}
    made[theirs] = await _create_at_exa(sim, "caller-chosen-1")
    async with app_for(sim.url, db) as app:
        for task_id, webset_id in made.items():
            done = await app.tasks.wait(task_id, timeout=WAIT)
            assert str(done.status) == "completed", done.error
            assert done.result["id"] == webset_id
        # A fresh run marks its create with the task's externalId, so a resume could find it.
        fresh = await app.tasks.create("operation", {"operation": "websets.create", "args": search})
        done = await app.tasks.wait(fresh.id, timeout=WAIT)
        assert str(done.status) == "completed", done.error
        assert done.result["externalId"] == f"{fresh.id}:operation"
    stats = sim.stats()
    assert stats["requests_by_endpoint"]["POST /websets/v0/websets"] == 3  # two above, the fresh one
    assert stats["conflicts_by_external_id"] == {}


@pytest.mark.slow
def test_serve_with_stdin_from_dev_null_stops_at_once(sim_url: str, tmp_path: Path) -> None:
    # /dev/null passes asyncio's pipe check but epoll refuses it: the server never saw the EOF and
    # served forever (a process manager or `exa-orch serve </dev/null`).
    proc = subprocess.run(
        [sys.executable, "-m", "exa_orch", "serve"],
        env=server_env(sim_url, tmp_path / "workflows.db"),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=WAIT,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "exa-orch stopped" in proc.stderr and "Traceback" not in proc.stderr


def test_a_database_path_whose_directory_cannot_be_made_is_a_config_error(tmp_path: Path) -> None:
    (tmp_path / "a-file").write_text("")
    env = server_env("http://127.0.0.1:9", tmp_path / "a-file" / "sub" / "workflows.db")
    proc = subprocess.run(
        [sys.executable, "-m", "exa_orch", "serve"],
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=WAIT,
    )
    assert proc.returncode == 1
    assert proc.stderr.startswith("error [CONFIG_ERROR]: the directory of the database")
    assert "does not exist" in proc.stderr
    assert "EXA_ORCH_DB" in proc.stderr and "Traceback" not in proc.stderr


@pytest.mark.parametrize(
    ("header", "allowed"),
    [
        (b"Bearer s3cret-token", True),
        (b"bearer s3cret-token", True),  # the scheme is case-insensitive (RFC 9110 11.1)
        (b"BEARER  s3cret-token ", True),
        (b"Bearer S3CRET-TOKEN", False),  # the token is not
        (b"s3cret-token", False),
        (b"Basic s3cret-token", False),
        (b"Bearer", False),
        (b"", False),
    ],
)
async def test_the_bearer_check_takes_any_case_of_the_scheme_and_only_the_exact_token(
    header: bytes, allowed: bool
) -> None:
    reached: list[bool] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        reached.append(True)

    statuses: list[int] = []

    async def send(message: Any) -> None:
        if message["type"] == "http.response.start":
            statuses.append(message["status"])

    scope = {"type": "http", "headers": [(b"authorization", header)] if header else []}
    await BearerAuth(app, Secret("s3cret-token"))(scope, None, send)
    assert (reached, statuses) == (([True], []) if allowed else ([], [401]))


async def test_polls_that_find_nothing_new_send_no_progress_and_never_inflate_it(tmp_path: Path) -> None:
    # websets.waitUntilIdle reports the found count at every poll. A plain call sent the same value
    # again and again (MCP: progress MUST increase); as a task, each repeat was stacked on the last
    # value, so a 6-item webset read 38/39, 57/58, ... while it sat at 19 found.
    slow = SimConfig(speed=3.0)  # ~3 items a second, polled every 50 ms: most polls repeat
    async with running_sim(slow) as sim, legacy_app(sim.url, tmp_path / "w.db") as (_, client):
        made = await client.call("websets.create", {"search": {"query": "fintech startups", "count": 6}})
        wait = {"id": structured(made)["id"], "pollInterval": 0.05, "timeout": 1.5}
        call = {"name": "manage_websets", "arguments": {"operation": "websets.waitUntilIdle", "args": wait}}
        await client.dispatcher.send_raw_request(
            "tools/call", {**call, "_meta": {"progressToken": "plain"}}, None
        )
        task = await client.call_task("manage_websets", call["arguments"], token="task")
        await client.result(task["task"]["taskId"])
        gets = sim.stats()["requests_by_endpoint"]["GET /websets/v0/websets/{id}"]
        for token in ("plain", "task"):
            sent = [p for p in client.progress if p.progress_token == token]
            values = [p.progress for p in sent]
            assert values and values == sorted(set(values)), (token, values)
            assert all(p.total is None or p.progress <= p.total <= 6 for p in sent), (token, values)
        assert gets > len(client.progress)  # most polls found nothing new and said nothing


async def test_an_error_quoting_a_huge_input_stays_small(sim: SimHandle, tmp_path: Path) -> None:
    # TASK_NOT_FOUND, an unknown task type and a bad cursor quoted the whole input back: a 1 MB
    # task id came back as a 1 MB error in the agent's context (and the server's log).
    huge = "x" * 1_000_000
    calls = [
        ("tasks.get", {"taskId": huge}),
        ("tasks.cancel", {"taskId": huge}),
        ("tasks.create", {"type": huge}),
        ("tasks.list", {"cursor": huge}),
    ]
    async with legacy_app(sim.url, tmp_path / "workflows.db") as (_app, client):
        for operation, args in calls:
            result = await client.call(operation, args)
            assert result.is_error, operation
            text = result.content[0].text  # type: ignore[union-attr]
            assert len(text) < 10_000, (operation, len(text))
            assert structured(result)["code"] in ("TASK_NOT_FOUND", "INVALID_PARAMS"), text[:200]
        with pytest.raises(MCPError) as rpc:
            await client.get(huge)
        assert len(rpc.value.error.message) < 10_000
