"""Task ownership over streamable HTTP: two bearer tokens, two principals, real server processes.

Bob can't see, read, wait on or cancel Alice's task by any path (tasks.* through manage_websets,
MCP tasks/get, tasks/result, tasks/list, tasks/cancel, in both eras), and what he is told is
exactly what he is told for an id that never existed. Alice still can, after a restart too.
"""

from __future__ import annotations

import sqlite3
import uuid
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import httpx
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

from exa_orch.store.pgcluster import Cluster
from tests.pg import fresh_database
from tests.support import WAIT

from .conftest import initialize_request, result_json
from .tasks_support import (
    WORKFLOWS_ENV,
    CreateTaskResult2026,
    LegacyTasksClient,
    TasksExtension,
    cancel_2026,
    get_2026,
    legacy_client,
)
from .test_serve_http import http_server

pytestmark = pytest.mark.slow

ALICE, BOB = "alice-secret-0a1b2c3d", "bob-secret-4e5f6a7b"
ENV = {"EXA_ORCH_HTTP_TOKENS": f"alice={ALICE},bob={BOB}", "EXA_ORCH_EXTRA_WORKFLOWS": WORKFLOWS_ENV}
SLOW = {"type": "mcp_test.steps", "steps": 200, "delay": 0.2}  # runs far longer than the test


@pytest.fixture(scope="module")
def url(sim_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One server with both tokens for the module's tests that neither restart it nor read its
    database (each makes its own tasks and sessions): one start-up of ~1 s of CPU, not one a test."""
    with http_server(sim_url, tmp_path_factory.mktemp("owners"), **ENV) as (_proc, served):
        yield served


def _http(token: str) -> httpx2.AsyncClient:
    return httpx2.AsyncClient(
        headers={"Authorization": f"Bearer {token}"}, timeout=httpx2.Timeout(30, read=300)
    )


@asynccontextmanager
async def legacy(url: str, token: str) -> AsyncIterator[LegacyTasksClient]:
    """A 2025-11-25 client (initialize handshake, core tasks/*) sending `token`."""
    async with _http(token) as http, streamable_http_client(url, http_client=http) as (read, write):
        async with legacy_client(read, write) as client:
            yield client


@asynccontextmanager
async def modern(url: str, token: str) -> AsyncIterator[Client]:
    """A 2026-07-28 client declaring the tasks extension, sending `token`."""
    async with _http(token) as http:
        async with Client(
            streamable_http_client(url, http_client=http), extensions=[TasksExtension()]
        ) as client:
            yield client


async def op(client: LegacyTasksClient, operation: str, args: dict[str, Any]) -> tuple[bool, Any]:
    """manage_websets {operation, args}: (is_error, its JSON)."""
    result = await client.call(operation, args)
    return bool(result.is_error), result_json(result)


async def rpc_error(call: Any) -> dict[str, Any]:
    """The JSON-RPC error a request ends with (bounded: a wait must refuse at once, not block)."""
    with anyio.fail_after(WAIT):
        try:
            await call
        except MCPError as exc:
            return {"code": exc.error.code, "message": exc.error.message, "data": exc.error.data}
    raise AssertionError("the request succeeded")


def _db_bytes(directory: Path) -> bytes:
    """Every byte of the database, its WAL included."""
    return b"".join(p.read_bytes() for p in sorted(directory.glob("workflows.db*")))


def _masked(value: Any, task_id: str) -> Any:
    """`value` with `task_id` replaced, so answers about two ids compare equal when they say the same."""
    return str(value).replace(task_id, "<id>")


async def bob_is_told_nothing(bob: LegacyTasksClient, task_id: str) -> None:
    """Every tasks path answers Bob for `task_id` as it answers for an id that never existed."""
    ghost = f"task_{uuid.uuid4()}"
    for tid in (task_id, ghost):
        for operation, args in (
            ("tasks.get", {"taskId": tid}),
            ("tasks.result", {"taskId": tid}),
            ("tasks.result", {"taskId": tid, "wait": 5}),
            ("tasks.cancel", {"taskId": tid}),
        ):
            with anyio.fail_after(WAIT):
                failed, body = await op(bob, operation, args)
            assert failed and body["code"] == "TASK_NOT_FOUND", (operation, body)
    answers = {}
    for tid in (task_id, ghost):
        answers[tid] = [
            await rpc_error(bob.get(tid)),
            await rpc_error(bob.result(tid)),
            await rpc_error(bob.cancel(tid)),
            (await op(bob, "tasks.get", {"taskId": tid}))[1],
        ]
        assert answers[tid][0]["code"] == -32602 and answers[tid][0]["data"]["code"] == "TASK_NOT_FOUND"
    assert _masked(answers[task_id], task_id) == _masked(answers[ghost], ghost)  # existence does not leak
    listed_mcp = {t.task_id for t in (await bob.list()).tasks}
    failed, listed_op = await op(bob, "tasks.list", {"limit": 200})
    assert not failed
    assert task_id not in listed_mcp and task_id not in {t["taskId"] for t in listed_op["tasks"]}


async def test_a_task_is_seen_only_by_the_token_that_made_it_even_after_a_restart(
    sim_url: str, tmp_path: Path
) -> None:
    with http_server(sim_url, tmp_path, **ENV) as (_proc, url):
        async with legacy(url, ALICE) as alice, legacy(url, BOB) as bob:
            # Alice makes one task each way: a task-augmented call, and tasks.create inline.
            augmented = (
                await alice.call_task("manage_websets", {"operation": "tasks.create", "args": SLOW})
            )["task"]["taskId"]
            failed, created = await op(alice, "tasks.create", SLOW)
            assert not failed
            inline = created["taskId"]
            for task_id in (augmented, inline):
                await bob_is_told_nothing(bob, task_id)
            # Bob's own task is his: Alice doesn't see it either.
            failed, bobs = await op(bob, "tasks.create", {"type": "mcp_test.steps", "steps": 1})
            assert not failed
            assert bobs["taskId"] in {t.task_id for t in (await bob.list()).tasks}
            assert bobs["taskId"] not in {t.task_id for t in (await alice.list()).tasks}
            assert (await rpc_error(alice.get(bobs["taskId"])))["data"]["code"] == "TASK_NOT_FOUND"
            # Bob's cancels did nothing: Alice's tasks still run, and she sees both.
            for task_id in (augmented, inline):
                assert (await alice.get(task_id)).status == "working"
            assert {augmented, inline} <= {t.task_id for t in (await alice.list()).tasks}

        # No token, or a token nobody was given: 401 before MCP sees anything.
        async with httpx.AsyncClient(timeout=WAIT) as raw:
            for headers in ({}, {"authorization": "Bearer not-a-token"}, {"authorization": f"Basic {ALICE}"}):
                answer = await raw.post(
                    url, json={"jsonrpc": "2.0", "id": 1, "method": "ping"}, headers=headers
                )
                assert answer.status_code == 401
            # A session belongs to the token that opened it: Bob can't ride Alice's (nor its stream).
            accept = {"accept": "application/json, text/event-stream", "content-type": "application/json"}
            opened = await raw.post(
                url, json=initialize_request(1), headers={**accept, "authorization": f"Bearer {ALICE}"}
            )
            session = opened.headers["mcp-session-id"]
            ping = {"jsonrpc": "2.0", "id": 2, "method": "ping"}
            answers = {}
            for who, sid in (("alice", session), ("bob", session), ("bob-unknown", uuid.uuid4().hex)):
                token = ALICE if who == "alice" else BOB
                headers = {**accept, "authorization": f"Bearer {token}", "mcp-session-id": sid}
                headers["mcp-protocol-version"] = "2025-11-25"
                answers[who] = await raw.post(url, json=ping, headers=headers)
            assert answers["alice"].status_code == 200
            assert answers["bob"].status_code == answers["bob-unknown"].status_code == 404
            assert answers["bob"].json() == answers["bob-unknown"].json()

    # The owner is a name in the database, never a token.
    with sqlite3.connect(tmp_path / "workflows.db") as conn:
        owners = dict(conn.execute("SELECT id, owner FROM v_tasks").fetchall())
    assert owners[augmented] == owners[inline] == "token:alice" and owners[bobs["taskId"]] == "token:bob"
    stored = _db_bytes(tmp_path)
    assert ALICE.encode() not in stored and BOB.encode() not in stored

    # A restart ends every MCP session; ownership is bound to the token's name, so it survives.
    with http_server(sim_url, tmp_path, **ENV) as (_proc, url):
        async with legacy(url, ALICE) as alice, legacy(url, BOB) as bob:
            await bob_is_told_nothing(bob, augmented)
            assert (await alice.get(augmented)).status == "working"
            failed, body = await op(alice, "tasks.get", {"taskId": inline})
            assert not failed and body["status"] in ("pending", "working")
            assert (await alice.cancel(augmented)).status == "cancelled"
            failed, body = await op(alice, "tasks.cancel", {"taskId": inline})
            assert not failed and body["status"] == "cancelled"


async def test_on_postgres_another_server_tells_bob_nothing_and_lets_alice_cancel(
    sim_url: str, tmp_path: Path, pg_cluster: Cluster, pg_template: str
) -> None:
    # Two servers on one PostgreSQL database: ownership is a column every server checks, so Bob
    # learns nothing of Alice's task on either, and Alice's cancel on the other server reaches it.
    env = {**ENV, "EXA_ORCH_DB": fresh_database(pg_cluster, pg_template)}
    (tmp_path / "one").mkdir()
    (tmp_path / "two").mkdir()
    with (
        http_server(sim_url, tmp_path / "one", **env) as (_one, url_one),
        http_server(sim_url, tmp_path / "two", **env) as (_two, url_two),
    ):
        async with legacy(url_one, ALICE) as alice_one:
            failed, created = await op(alice_one, "tasks.create", SLOW)
            assert not failed
            task_id = created["taskId"]
            assert (await alice_one.get(task_id)).status == "working"
        async with legacy(url_two, ALICE) as alice_two, legacy(url_two, BOB) as bob_two:
            await bob_is_told_nothing(bob_two, task_id)
            failed, body = await op(alice_two, "tasks.get", {"taskId": task_id})
            assert not failed and body["status"] == "working"
            assert task_id in {t.task_id for t in (await alice_two.list()).tasks}
            assert (await alice_two.cancel(task_id)).status == "cancelled"
    import psycopg

    with psycopg.connect(env["EXA_ORCH_DB"]) as conn:
        assert conn.execute("SELECT owner FROM v_tasks WHERE id = %s", (task_id,)).fetchall() == [
            ("token:alice",)
        ]
        for table in ("tasks", "task_steps", "task_events"):  # a name in the database, never a token
            leaked = conn.execute(
                f"SELECT count(*) FROM {table} t WHERE t::text LIKE %s OR t::text LIKE %s",
                (f"%{ALICE}%", f"%{BOB}%"),
            ).fetchone()
            assert leaked == (0,), table


async def test_the_2026_extension_keeps_tasks_to_their_owner(url: str) -> None:
    async with modern(url, ALICE) as alice, modern(url, BOB) as bob:
        handle = await alice.session.call_tool(
            "manage_websets", {"operation": "tasks.create", "args": SLOW}, allow_claimed=True
        )
        assert isinstance(handle, CreateTaskResult2026)
        ghost = f"task_{uuid.uuid4()}"
        seen = {
            tid: [
                await rpc_error(get_2026(bob.session, tid)),
                await rpc_error(cancel_2026(bob.session, tid)),
            ]
            for tid in (handle.task_id, ghost)
        }
        assert seen[handle.task_id][0]["data"]["code"] == "TASK_NOT_FOUND"
        assert _masked(seen[handle.task_id], handle.task_id) == _masked(seen[ghost], ghost)
        assert (await get_2026(alice.session, handle.task_id)).status == "working"  # Bob's cancel did nothing
        await cancel_2026(alice.session, handle.task_id)
        assert (await get_2026(alice.session, handle.task_id)).status == "cancelled"


@pytest.mark.filterwarnings("ignore::mcp.shared.exceptions.MCPDeprecationWarning")  # logging/setLevel
async def test_log_messages_reach_only_the_token_whose_task_they_are_about(url: str) -> None:
    heard: list[str] = []
    changed = anyio.Event()

    async def on_log(params: Any) -> None:
        nonlocal changed
        heard.append(str(params.data))
        changed.set()
        changed = anyio.Event()

    async def hears(text: str) -> None:
        with anyio.fail_after(WAIT):
            while not any(text in line for line in heard):
                await changed.wait()

    async with _http(BOB) as http, _http(ALICE) as alice_http:
        async with (
            Client(
                streamable_http_client(url, http_client=http), mode="legacy", logging_callback=on_log
            ) as bob,
            Client(streamable_http_client(url, http_client=alice_http), mode="legacy") as alice,
        ):
            await bob.set_logging_level("debug")
            made = result_json(
                await alice.call_tool(
                    "manage_websets",
                    {"operation": "tasks.create", "args": {"type": "mcp_test.steps", "steps": 2}},
                )
            )
            alice_task = made["taskId"]
            done = await alice.call_tool(
                "manage_websets",
                {"operation": "tasks.result", "args": {"taskId": alice_task, "wait": 20}},
            )
            assert result_json(done)["status"] == "completed", result_json(done)
            # Bob's own task is heard, start to end; his messages queue behind any about Alice's.
            mine = result_json(
                await bob.call_tool(
                    "manage_websets",
                    {"operation": "tasks.create", "args": {"type": "mcp_test.steps", "steps": 2}},
                )
            )["taskId"]
            await hears(f"task {mine} (mcp_test.steps) is completed")
    assert not [line for line in heard if alice_task in line], heard
