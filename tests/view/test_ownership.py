"""Whose tasks the views show: each principal its own (the local user also the unowned ones),
another principal's task or run reads exactly as an unknown one, `--all-owners` shows them all."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from exa_orch.config import Settings
from exa_orch.errors import ConfigError
from exa_orch.runtime import Principal
from exa_orch.store import Elite, RunRecord, Store
from exa_orch.view import ViewDB, Viewer, build_app, check_bind
from exa_orch.view.auth import COOKIE
from tests.store.conftest import connect
from tests.view.conftest import target

ENV = {
    "EXA_ORCH_HTTP_TOKEN": "tok-legacy-default",
    "EXA_ORCH_HTTP_TOKENS": "alice=tok-alice-123,bob=tok-bob-456",
    "EXA_ORCH_PRINCIPAL": "user:tester",
}
UNKNOWN_TASK = "task_00000000-0000-4000-8000-00000000beef"
WORKFLOW = "workflow-webset-qd-winnow"


@dataclass
class World:
    alice: str  # task ids by owner
    bob: str
    bob_expired: str  # bob's task, removed after its TTL: only its tombstone names the owner
    default: str
    local: str
    unowned: str
    alice_run: int
    bob_run: int
    bob_expired_run: int
    unowned_run: int


async def _run(store: Store, task_id: str, fitness: float, label: str) -> int:
    return await store.record_run(
        RunRecord(
            task_id=task_id,
            task_type="qd.winnow",
            status="completed",
            metrics={"fitness": fitness, "coverage": 0.5, "niches": 1, "possible_niches": 4},
            elites=[
                Elite(
                    niche="1,0",
                    fitness=fitness,
                    criteria_vector=[True],
                    item={"id": label, "properties": {"company": {"name": label}}},
                )
            ],
        )
    )


@pytest.fixture
async def world(store: Store) -> World:
    ids = {}
    for who, principal in [
        ("alice", "token:alice"),
        ("bob", "token:bob"),
        ("bob_expired", "token:bob"),
        ("default", "token:default"),
        ("local", "user:tester"),
        ("unowned", None),
    ]:
        task = await store.create_task("qd.winnow", {"query": f"secret of {who}"}, principal=principal)
        await store.complete(task.id, {"finalElites": [], "who": who})
        ids[who] = task.id
    runs = {
        "alice_run": await _run(store, ids["alice"], 0.3, "elite-of-alice"),
        "bob_run": await _run(store, ids["bob"], 0.9, "elite-of-bob"),
        "bob_expired_run": await _run(store, ids["bob_expired"], 0.95, "elite-of-bob-expired"),
        "unowned_run": await _run(store, ids["unowned"], 0.6, "elite-of-nobody"),
    }
    with connect(store) as conn:  # what delete_expired leaves of a task: its tombstone
        conn.execute(
            "INSERT INTO task_tombstones (id, owner, type, status, expired_at, forget_at)"
            " VALUES (?, 'token:bob', 'qd.winnow', 'completed', '2026-01-01T00:00:00.000Z',"
            " '2999-01-01T00:00:00.000Z')",
            (ids["bob_expired"],),
        )
        conn.execute("DELETE FROM tasks WHERE id = ?", (ids["bob_expired"],))
        if store.backend.name == "sqlite":
            conn.commit()
    return World(**ids, **runs)


@pytest.fixture
async def view(store: Store) -> AsyncIterator[ViewDB]:
    async with ViewDB(target(store)) as db:
        yield db


def client(
    db: ViewDB, env: dict[str, str], *, token: str | None = None, all_owners: bool = False
) -> httpx.AsyncClient:
    """The view as `exa-orch view` builds it from this environment, asked by `token` (if any)."""
    app: Any = build_app(db, Settings.from_env(env), all_owners=all_owners)
    transport = httpx.ASGITransport(app=app, client=("127.0.0.1", 40000))
    headers = {"authorization": f"Bearer {token}"} if token else {}
    return httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1:8766", headers=headers)


TASK_ID = re.compile(r"task_[0-9a-f-]{36}")


async def _seen(c: httpx.AsyncClient) -> dict[str, set[str]]:
    """The task ids each listing shows: JSON list, HTML list, archive runs list; and run ids."""
    api = (await c.get("/api/tasks")).json()
    html = (await c.get("/")).text
    runs = (await c.get(f"/archive/{WORKFLOW}")).text
    return {
        "api": {t["id"] for t in api["tasks"]},
        "html": set(TASK_ID.findall(html)),
        "runs": set(re.findall(r'href="/runs/(\d+)"', runs)),
    }


async def test_a_token_sees_only_its_own_tasks_and_runs(view: ViewDB, world: World) -> None:
    async with client(view, ENV, token="tok-alice-123") as c:
        seen = await _seen(c)
        mine = await c.get(f"/tasks/{world.alice}")
        my_api = await c.get(f"/api/tasks/{world.alice}")
        my_run = await c.get(f"/runs/{world.alice_run}")
        grid = (await c.get("/archive")).text
    assert seen["api"] == seen["html"] == {world.alice}
    assert seen["runs"] == {str(world.alice_run)}
    assert mine.status_code == my_api.status_code == my_run.status_code == 200
    assert "secret of alice" in mine.text and my_api.json()["task"]["owner"] == "token:alice"
    assert "read-only · as token:alice" in mine.text  # the header says whose view this is
    assert "elite-of-alice" in my_run.text
    # The grid's best run and run count are alice's, though bob's runs are fitter.
    assert f'href="/runs/{world.alice_run}"' in grid and "1 run<" in grid and "fitness 0.300" in grid
    for other in (world.bob_run, world.bob_expired_run, world.unowned_run):
        assert f'href="/runs/{other}"' not in grid
    # The legacy EXA_ORCH_HTTP_TOKEN is the principal token:default, as in `serve --http`.
    async with client(view, ENV, token="tok-legacy-default") as c:
        assert (await _seen(c))["api"] == {world.default}


async def test_another_principals_ids_answer_as_unknown_ones_do(view: ViewDB, world: World) -> None:
    async with client(view, ENV, token="tok-alice-123") as c:
        pairs = [
            (f"/tasks/{world.bob}", f"/tasks/{UNKNOWN_TASK}"),
            (f"/tasks/{world.unowned}", f"/tasks/{UNKNOWN_TASK}"),
            (f"/api/tasks/{world.bob}", f"/api/tasks/{UNKNOWN_TASK}"),
            (f"/runs/{world.bob_run}", "/runs/999999"),
            (f"/runs/{world.bob_expired_run}", "/runs/999999"),
            (f"/runs/{world.unowned_run}", "/runs/999999"),
        ]
        for theirs, unknown in pairs:
            a, b = await c.get(theirs), await c.get(unknown)
            assert (a.status_code, a.text) == (b.status_code, b.text) and a.status_code == 404, theirs
            assert "bob" not in a.text and "elite-of" not in a.text
    async with client(view, ENV, token="tok-bob-456") as c:  # bob reads his own, expired task or not
        assert (await c.get(f"/tasks/{world.bob}")).status_code == 200
        assert "elite-of-bob-expired" in (await c.get(f"/runs/{world.bob_expired_run}")).text
        assert (await c.get(f"/tasks/{world.alice}")).status_code == 404


async def test_the_cookie_of_a_token_carries_its_principal(view: ViewDB, world: World) -> None:
    async with client(view, ENV) as c:
        assert (await c.get("/api/tasks")).status_code == 401
        cookies = {}
        for name, token in (("alice", "tok-alice-123"), ("bob", "tok-bob-456")):
            c.cookies.clear()  # signed in as someone else, a ?token= link asks first (test_signin.py)
            login = await c.get(f"/?token={token}")
            assert login.status_code == 303 and token not in login.headers["set-cookie"]
            cookies[name] = login.headers["set-cookie"].split(";")[0].split("=", 1)[1]
        assert cookies["alice"] != cookies["bob"]
        c.cookies.set(COOKIE, cookies["alice"])
        assert {t["id"] for t in (await c.get("/api/tasks")).json()["tasks"]} == {world.alice}
        assert (await c.get(f"/tasks/{world.bob}")).status_code == 404
        c.cookies.set(COOKIE, cookies["bob"])
        assert {t["id"] for t in (await c.get("/api/tasks")).json()["tasks"]} == {
            world.bob
        }  # the expired one is gone from the list
        assert (await c.get("/?token=tok-wrong")).status_code == 200  # a wrong ?token is no sign-in
        c.cookies.set(COOKIE, "f" * len(cookies["bob"]))
        assert (await c.get("/api/tasks")).status_code == 401


async def test_the_local_user_sees_its_own_and_unowned_tasks(view: ViewDB, world: World) -> None:
    local = {"EXA_ORCH_PRINCIPAL": "user:tester"}  # no tokens: loopback, the local user
    async with client(view, local) as c:
        seen = await _seen(c)
        assert (await c.get(f"/tasks/{world.alice}")).status_code == 404
        assert (await c.get(f"/runs/{world.unowned_run}")).status_code == 200
    assert seen["api"] == seen["html"] == {world.local, world.unowned}
    assert seen["runs"] == {str(world.unowned_run)}
    assert [t["id"] for t in await view.tasks(Viewer(Principal("user:someone-else")))] == []


async def test_all_owners_sees_every_task_with_its_owner(view: ViewDB, world: World) -> None:
    async with client(view, {"EXA_ORCH_PRINCIPAL": "user:tester"}, all_owners=True) as c:
        seen = await _seen(c)
        api = (await c.get("/api/tasks")).json()["tasks"]
        page = (await c.get("/")).text
        assert (await c.get(f"/runs/{world.bob_expired_run}")).status_code == 200
        assert (await c.get(f"/tasks/{world.bob}")).status_code == 200
        grid = (await c.get("/archive")).text
    live = {world.alice, world.bob, world.default, world.local, world.unowned}
    assert seen["api"] == seen["html"] == live
    runs = {world.alice_run, world.bob_run, world.bob_expired_run, world.unowned_run}
    assert seen["runs"] == {str(r) for r in runs}
    assert {t["id"]: t["owner"] for t in api}[world.bob] == "token:bob"
    assert "token:bob" in page and "token:alice" in page  # the owner column
    assert "read-only · all owners" in page
    assert f'href="/runs/{world.bob_expired_run}"' in grid and "fitness 0.950" in grid
    # With tokens configured, operator mode still needs one.
    async with client(view, ENV, all_owners=True) as c:
        assert (await c.get("/api/tasks")).status_code == 401


def test_all_owners_stays_on_loopback_even_with_tokens(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="--all-owners"):
        check_bind(Settings.from_env({}), "0.0.0.0", all_owners=True)
    # A token says who got in, not whose tasks they may see: operator mode never leaves loopback.
    with pytest.raises(ConfigError, match="--all-owners"):
        check_bind(Settings.from_env(ENV), "0.0.0.0", all_owners=True)
    check_bind(Settings.from_env({}), "127.0.0.1", all_owners=True)
    check_bind(Settings.from_env(ENV), "0.0.0.0")  # each token its own tasks: allowed
