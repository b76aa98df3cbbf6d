"""The web view over HTTP (in process): pages, read-only rules, the token rule, escaping, sizes."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from exa_orch.config import Secret, Settings
from exa_orch.errors import ErrorCode, ForeignDatabase, StoreError
from exa_orch.store import Elite, RunRecord, Store
from exa_orch.store.records import TaskStatus
from exa_orch.view import data as view_data
from exa_orch.view.auth import COOKIE
from exa_orch.view.data import DOCUMENT, ViewDB, Viewer
from exa_orch.view.web import build_app, fitness_class
from tests.pg import fresh_database
from tests.store.conftest import connect
from tests.test_cli import another_apps_database
from tests.view.conftest import target

EVIL = '<script>alert("x")</script><img src=x onerror=alert(1)>'


@pytest.fixture
async def view(store: Store) -> AsyncIterator[ViewDB]:
    async with ViewDB(target(store)) as db:
        yield db


def client(
    db: ViewDB, *, token: str | None = None, peer: str = "127.0.0.1", host: str = "127.0.0.1"
) -> httpx.AsyncClient:
    settings = Settings(http_token=Secret(token) if token else None, principal="user:tester")
    app: Any = build_app(db, settings)
    transport = httpx.ASGITransport(app=app, client=(peer, 40000))
    return httpx.AsyncClient(transport=transport, base_url=f"http://{host}:8766")


async def test_tasks_page_lists_tasks_with_progress_and_escapes_what_agents_sent(
    store: Store, view: ViewDB
) -> None:
    task = await store.create_task(EVIL, {"query": EVIL})
    await store.transition(task.id, "working")
    await store.set_progress(task.id, {"step": "searching", "completed": 3, "total": 10, "message": EVIL})
    async with client(view) as c:
        page = await c.get("/")
        detail = await c.get(f"/tasks/{task.id}")
        api = (await c.get("/api/tasks")).json()
    assert page.status_code == 200 and detail.status_code == 200
    for html in (page.text, detail.text):
        assert EVIL not in html and "<script>alert" not in html
        assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;" in html  # shown, as text
    assert f'data-task-id="{task.id}"' in page.text and 'value="0.3"' in page.text
    [row] = api["tasks"]
    assert (row["id"], row["phase"], row["completed"], row["total"], row["fraction"]) == (
        task.id,
        "searching",
        3,
        10,
        0.3,
    )
    assert page.headers["content-security-policy"].startswith("default-src 'none'; script-src 'self'")


async def test_only_get_and_head_are_answered(store: Store, view: ViewDB) -> None:
    task = await store.create_task("operation", {})
    async with client(view) as c:
        for method in ("POST", "PUT", "DELETE", "PATCH"):
            for path in ("/", f"/tasks/{task.id}", "/api/tasks", "/nowhere"):
                answer = await c.request(method, path)
                assert answer.status_code == 405, (method, path)
                assert answer.headers["allow"] == "GET, HEAD"
        assert (await c.head("/")).status_code == 200
    assert (await store.get_task(task.id)).status == "pending"


async def test_the_view_connection_cannot_write(store: Store, view: ViewDB) -> None:
    task = await store.create_task("operation", {})
    writes = (
        f"UPDATE tasks SET status = 'failed' WHERE id = '{task.id}'",
        "DELETE FROM tasks",
        "CREATE TABLE x (a int)",
    )
    db = view._db
    assert db is not None
    for sql in writes:  # refused by the database itself, on either backend
        with pytest.raises(StoreError, match="readonly|read-only|query_only"):
            await db.rows(sql)
    if store.backend.name == "postgresql":
        import psycopg

        pg = db._conn  # type: ignore[attr-defined]
        assert pg is not None and pg.autocommit  # each statement its own transaction: read-only too
        # Even a transaction that asks to write is refused: the session's default is read-only.
        with pytest.raises(psycopg.errors.ReadOnlySqlTransaction):
            async with pg.transaction():
                await pg.execute(writes[1].encode())
    assert (await store.get_task(task.id)).status == "pending"


async def test_a_missing_database_is_refused_not_created(tmp_path: Path) -> None:
    path = tmp_path / "nope.db"
    with pytest.raises(StoreError) as refused:
        async with ViewDB(path):
            pass
    assert refused.value.code == ErrorCode.STORE_ERROR and "exa-orch db migrate" in (refused.value.hint or "")
    assert not path.exists()


async def test_ids_in_urls_are_checked(view: ViewDB) -> None:
    async with client(view) as c:
        assert (await c.get("/tasks/not-a-task")).status_code == 400
        assert (await c.get("/api/tasks/task_1' OR 1=1 --")).status_code == 400
        assert (await c.get("/tasks/task_00000000-0000-4000-8000-000000000000")).status_code == 404
        assert (await c.get("/archive/..%2F..%2Fetc")).status_code in (400, 404)
        assert (await c.get("/archive/Robert');DROP")).status_code == 400
        assert (await c.get("/runs/abc")).status_code == 404
        assert (await c.get("/runs/99999999999999999999999")).status_code == 404
        assert (await c.get("/archive?x=scope&y=scope")).status_code == 400
        assert (await c.get("/static/../data.py")).status_code == 404


async def test_without_a_token_only_loopback_is_answered(view: ViewDB) -> None:
    async with client(view, peer="203.0.113.9") as c:
        assert (await c.get("/")).status_code == 403
        assert (await c.get("/api/tasks")).status_code == 403
    async with client(view, host="evil.example") as c:  # DNS rebinding: loopback peer, foreign name
        assert (await c.get("/api/tasks")).status_code == 403
    async with client(view, host="localhost") as c:
        assert (await c.get("/api/tasks")).status_code == 200


async def test_with_a_token_every_request_must_show_it(view: ViewDB) -> None:
    token = "s3cret-token-for-the-view"
    async with client(view, token=token, peer="203.0.113.9", host="view.example") as c:
        assert (await c.get("/")).status_code == 401
        assert (await c.get("/", headers={"authorization": "Bearer wrong"})).status_code == 401
        assert (await c.get("/api/tasks", headers={"authorization": f"bearer {token}"})).status_code == 200
        login = await c.get(f"/archive?x=scope&token={token}&y=fidelity")
        assert login.status_code == 303 and login.headers["location"] == "/archive?x=scope&y=fidelity"
        cookie = login.headers["set-cookie"]
        assert token not in cookie and "HttpOnly" in cookie and "SameSite=Strict" in cookie
        value = cookie.split(";")[0].split("=", 1)[1]
        c.cookies.set(COOKIE, value)
        assert (await c.get("/archive")).status_code == 200
        c.cookies.set(COOKIE, "0" * len(value))
        assert (await c.get("/archive")).status_code == 401
        assert (await c.post("/", headers={"authorization": f"Bearer {token}"})).status_code == 405
        sneaky = httpx.URL("http://view.example:8766").copy_with(
            raw_path=f"//evil.example?token={token}".encode()
        )
        assert (await c.get(sneaky)).headers["location"] == "/evil.example"  # never "//host": same site


async def test_a_huge_result_is_cut_and_its_size_shown(store: Store, view: ViewDB) -> None:
    task = await store.create_task("operation", {})
    await store.transition(task.id, "working")
    partial = {"items": list(range(5)), "found": 5, "done": True, "gone": None, "blob": "z" * 200_000}
    await store.set_partial(task.id, {**partial, "webset": {"id": "w", "status": "idle"}})
    async with client(view) as c:
        running = await c.get(f"/tasks/{task.id}")
    summary = [line for line in running.text.splitlines() if line.startswith("<dt>items")][0]
    for shown in ("<dt>items</dt><dd>5 items</dd>", "<dt>found</dt><dd>5</dd>", "<dt>done</dt><dd>yes</dd>",
                  "<dt>gone</dt><dd>none</dd>", "<dt>webset</dt><dd>{2 keys}</dd>"):  # fmt: skip
        assert shown in summary, summary
    assert "z" * 201 not in summary  # a long string is cut in SQL for the summary, not shown whole
    big = {"blob": "y" * 3_000_000}
    await store.complete(task.id, big)
    async with client(view) as c:
        page = await c.get(f"/tasks/{task.id}")
    assert page.status_code == 200
    assert len(page.text) < 3 * DOCUMENT
    with connect(store) as conn:
        [(stored,)] = conn.execute("SELECT length(result) FROM tasks WHERE id = ?", (task.id,)).fetchall()
    assert stored > 3_000_000 and f"{stored} characters" in page.text and "the rest:" in page.text
    assert "Too large to lay out" in page.text  # not read whole to draw a table


async def test_archive_grid_and_run_page_show_fitness_niches_and_elites(store: Store, view: ViewDB) -> None:
    task = await store.create_task("qd.winnow", {"query": EVIL})
    item = {"id": "it1", "properties": {"url": "javascript:alert(1)", "company": {"name": EVIL}}}
    run_id = await store.record_run(
        RunRecord(
            task_id=task.id,
            task_type="qd.winnow",
            status="completed",
            metrics={"fitness": 0.75, "coverage": 0.5, "niches": 2, "possible_niches": 4, "note": EVIL},
            elites=[
                Elite(niche="1,0", fitness=0.75, criteria_vector=[True, False], item=item),
                Elite(niche="1,1", fitness=0.5, criteria_vector=[True, True], item={"id": "it2"}),
            ],
        )
    )
    async with client(view) as c:
        grid = await c.get("/archive")
        runs = await c.get("/archive/workflow-webset-qd-winnow")
        run = await c.get(f"/runs/{run_id}")
        other_axes = await c.get("/archive?x=evidence_type&y=time_horizon")
    assert grid.status_code == runs.status_code == run.status_code == other_axes.status_code == 200
    # qd.winnow's cell 3,2,4,2,5 sits at scope 3, fidelity 5 on the default axes, coloured fit-8 (0.75)
    assert 'class="cell fit-8 filled" data-x="3" data-y="5"' in grid.text
    assert "fitness 0.750" in grid.text and 'href="/archive/workflow-webset-qd-winnow"' in grid.text
    assert f'<a class="best" href="/runs/{run_id}">' in grid.text  # the best run, one click away
    assert 'data-x="4" data-y="2"' in other_axes.text
    assert f'href="/runs/{run_id}"' in runs.text
    # No criteria known (neither in the run nor its task's args): the grid names them by number.
    assert 'data-niche="1,0"' in run.text and 'data-niche="0,1"' in run.text and "criterion 2" in run.text
    assert 'class="niche fit-8" data-niche="1,0"' in run.text and "2 of 4 filled" in run.text
    assert EVIL not in run.text and "javascript:" not in run.text  # a non-http URL is not linked
    assert (
        fitness_class(None) == "fit-none"
        and fitness_class(1.7) == "fit-10"
        and fitness_class(0.04) == "fit-0"
    )


async def test_a_database_without_the_archive_views_answers_503_with_a_hint(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    async with Store(path):
        pass
    with sqlite3.connect(path) as conn:  # as before migration 0002
        conn.execute("DROP VIEW v_archive")
        conn.execute("DROP TABLE qd_elites")
        conn.execute("DROP TABLE workflow_runs")
    async with ViewDB(path) as db, client(db) as c:
        archive = await c.get("/archive")
        tasks = await c.get("/api/tasks")
    assert archive.status_code == 503 and "exa-orch db migrate" in archive.text
    assert tasks.status_code == 200


async def test_another_apps_sqlite_file_is_refused_and_left_byte_identical(tmp_path: Path) -> None:
    other = tmp_path / "some-other-app.sqlite"
    before = another_apps_database(other)
    with pytest.raises(ForeignDatabase) as refused:
        async with ViewDB(other):
            pass
    assert refused.value.code == ErrorCode.FOREIGN_DATABASE and "notes" in refused.value.message
    assert other.read_bytes() == before


async def test_a_postgresql_database_that_is_not_exa_orchs_or_not_there_is_refused(pg_cluster: Any) -> None:
    with pytest.raises(StoreError, match="has no tasks table") as refused:
        async with ViewDB(fresh_database(pg_cluster)):  # created, never migrated
            pass
    assert "exa-orch db migrate" in (refused.value.hint or "")
    unreachable = "postgresql://viewer:pw-not-shown@127.0.0.1:1/exa"
    with pytest.raises(StoreError, match="cannot connect") as refused:
        async with ViewDB(unreachable):
            pass
    assert "pw-not-shown" not in refused.value.message and "viewer:***@" in refused.value.message


@pytest.mark.parametrize("backend", ["postgres"])
async def test_a_view_whose_postgresql_session_was_ended_reconnects(store: Store, view: ViewDB) -> None:
    task = await store.create_task("operation", {})
    with connect(store) as conn:  # what a server restart or an administrator does to the session
        [(ended,)] = conn.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
            " WHERE application_name = 'exa-orch view' AND datname = current_database()"
        ).fetchall()
    assert ended == 1
    assert [t["id"] for t in await view.tasks(Viewer.all_owners())] == [task.id]
    pg = view._db._conn  # type: ignore[union-attr]
    assert pg is not None and not pg.broken


async def test_a_polled_tasks_partial_summary_is_computed_again_only_once_it_changed(
    store: Store, view: ViewDB, monkeypatch: pytest.MonkeyPatch
) -> None:
    summaries = 0  # a spy on the view's queries: how often the partial result is walked
    rows = view._rows

    async def counting(sql: str, params: tuple[Any, ...] = ()) -> list[dict[str, Any]]:
        nonlocal summaries
        summaries += sql == view._dialect.partial_summary
        return await rows(sql, params)

    monkeypatch.setattr(view, "_rows", counting)
    task = await store.create_task("operation", {})
    await store.transition(task.id, "working")
    await store.set_partial(task.id, {"items": list(range(5)), "step": "searching"})
    async with client(view) as c:
        polls = [(await c.get(f"/api/tasks/{task.id}")).json()["partialSummary"] for _ in range(5)]
        assert summaries == 1 and polls == [[["items", "5 items"], ["step", "searching"]]] * 5
        # the same length, so only the content (and update time) tells the change
        await store.set_partial(task.id, {"items": list(range(5)), "step": "enriching"})
        after = [(await c.get(f"/api/tasks/{task.id}")).json()["partialSummary"] for _ in range(3)]
        assert summaries == 2 and after == [[["items", "5 items"], ["step", "enriching"]]] * 3
        page = await c.get(f"/tasks/{task.id}")
        assert "<dt>step</dt><dd>enriching</dd>" in page.text and summaries == 2


async def test_the_remembered_summaries_are_bounded(
    store: Store, view: ViewDB, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(view_data, "SUMMARIES_KEPT", 2)
    ids = []
    for n in range(4):
        task = await store.create_task("operation", {})
        await store.set_partial(task.id, {"n": n})
        ids.append(task.id)
    for n, task_id in enumerate(ids):
        shown = await view.task(task_id, Viewer.all_owners())
        assert shown is not None and shown["partial_summary"] == [("n", str(n))]
    assert list(view._summaries) == ids[2:]  # the two most recently shown


async def test_the_list_shows_titles_errors_and_times_and_filters_by_status_type_and_text(
    store: Store, view: ViewDB
) -> None:
    europe = await store.create_task("lifecycle.harvest", {"query": "AI startups in Europe"})
    berlin = await store.create_task("lifecycle.harvest", {"query": "Climate tech in Berlin"})
    deep = await store.create_task("research.deep", {"instructions": "What do 100% of them build?"})
    await store.transition(deep.id, "working")
    await store.set_progress(deep.id, {"step": "research", "completed": 33.0, "total": 150.0})
    await store.fail(deep.id, {"step": "poll", "message": "agent run timed out", "code": "UPSTREAM_TIMEOUT"})
    async with client(view) as c:
        page = await c.get("/")
        api = {t["id"]: t for t in (await c.get("/api/tasks")).json()["tasks"]}
        harvests = (await c.get("/api/tasks?type=lifecycle.harvest")).json()["tasks"]
        failed = (await c.get("/api/tasks?status=failed")).json()["tasks"]
        found = (await c.get("/api/tasks?q=BERLIN")).json()["tasks"]
        literal = (await c.get("/api/tasks?q=100%25")).json()["tasks"]  # `%` is not a wildcard
        filtered = await c.get("/?type=research.deep")
        bad = await c.get("/?status=finished")
    assert ">AI startups in Europe</a>" in page.text and ">Climate tech in Berlin</a>" in page.text
    assert (api[europe.id]["title"], api[deep.id]["title"]) == (
        "AI startups in Europe",
        "What do 100% of them build?",
    )
    # A failed task: its code and message, no bar, whole numbers, and when it ended.
    assert '<code class="code">UPSTREAM_TIMEOUT</code>' in page.text and "agent run timed out" in page.text
    row = page.text.split(f'data-task-id="{deep.id}"', 1)[1].split("</tr>", 1)[0]
    assert "<progress" not in row and api[deep.id]["fraction"] is None
    assert (api[deep.id]["completed"], api[deep.id]["total"]) == (33, 150)
    assert api[deep.id]["ended_at"] and api[europe.id]["ended_at"] is None
    assert api[deep.id]["duration"] is not None
    # Every status a task can have is offered (the store's own list: a new status joins it), and
    # the types present.
    assert len(TaskStatus) >= 5
    for status in TaskStatus:
        assert f'<option value="{status.value}"' in page.text
    assert '<option value="research.deep"' in page.text
    assert {t["id"] for t in harvests} == {europe.id, berlin.id}
    assert [t["id"] for t in failed] == [deep.id] and [t["id"] for t in found] == [berlin.id]
    assert [t["id"] for t in literal] == [deep.id]
    assert deep.id in filtered.text and europe.id not in filtered.text
    assert 'data-poll="/api/tasks?type=research.deep"' in filtered.text  # the live list keeps its filter
    assert bad.status_code == 400 and "status must be one of" in bad.text


async def test_a_task_page_shows_arguments_first_a_paged_table_of_items_raw_json_and_its_run(
    store: Store, view: ViewDB
) -> None:
    args = {"query": "AI startups", "criteria": [{"description": "Is based in Europe"}], "count": 30}
    task = await store.create_task("lifecycle.harvest", args)
    items = [
        {
            "id": f"it{i}",
            "properties": {"url": f"https://c{i}.example", "company": {"name": f"Company {i:02d}"}},
        }
        for i in range(30)
    ]
    await store.complete(task.id, {"items": items, "itemCount": 30, "timedOut": False})
    run_id = await store.record_run(
        RunRecord(
            task_id=task.id, task_type="lifecycle.harvest", status="completed", metrics={"item_count": 30}
        )
    )
    async with client(view) as c:
        first = (await c.get(f"/tasks/{task.id}")).text
        second = (await c.get(f"/tasks/{task.id}?page=2")).text
    assert first.index('id="arguments"') < first.index('id="items"') < first.index('id="result"')
    assert "<li>Is based in Europe</li>" in first
    assert '<a href="https://c0.example" rel="noopener noreferrer nofollow">Company 00</a>' in first
    table = first.split('id="items"', 1)[1].split("</table>", 1)[0]
    assert "Company 24" in table and "Company 25" not in table  # 25 items a page
    assert "Company 25" in second.split('id="items"', 1)[1] and "page 2 of 2" in second
    assert "<dt>item count</dt><dd>30</dd>" in first and "<dt>timed out</dt><dd>no</dd>" in first
    assert '<details class="raw"><summary>Raw JSON' in first  # the stored JSON, one click away
    assert f'<a href="/runs/{run_id}" class="run-link">run {run_id}</a>' in first


async def test_a_run_page_draws_its_criteria_as_the_niche_grid_axes_and_its_rounds(
    store: Store, view: ViewDB
) -> None:
    criteria = ["Is based in Europe", "Has a strong engineering culture", "Was founded after 2015"]
    task = await store.create_task(
        "qd.winnow", {"query": "AI", "criteria": [{"description": c} for c in criteria]}
    )
    stats = [{"itemCount": 6, "elites": 2, "nicheDistribution": {"1,1,0": 4, "0,0,1": 2}, "eliteChange": 1.0}]
    run_id = await store.record_run(
        RunRecord(
            task_id=task.id,
            task_type="qd.winnow",
            status="completed",
            metrics={"fitness": 0.5, "converged": True, "roundStats": stats, "totalDuration": 4200},
            elites=[Elite(niche="1,1,0", fitness=0.5, criteria_vector=[True, True, False], item={"id": "a"})],
        )
    )
    async with client(view) as c:
        page = (await c.get(f"/runs/{run_id}")).text
    grid = page.split('id="niche-grid"', 1)[1].split("</table>", 1)[0]
    assert all(c in grid for c in criteria)  # from the task's args: this run's metrics lack them
    assert 'data-niche="1,1,0"' in grid and "4 items" in grid and "1 of 8 filled" in page
    assert 'id="rounds"' in page and "round 1" in page and "100%" in page
    assert '<dd data-metric="converged" >yes</dd>' in page and "converged 1" not in page
    assert "<dt>total duration</dt><dd>4.2 s</dd>" in page


async def test_a_task_waiting_for_input_says_why_on_every_page(store: Store, view: ViewDB) -> None:
    """A task parked input_required (no key for its owner, say) shows what it waits for and what
    to do, not the step it reported before it stopped, on the list, its page and the JSON API."""
    task = await store.create_task("research.deep", {"instructions": "q"}, principal="user:tester")
    [claimed] = await store.claim_runnable(store.owner_id, 30.0, 10)
    await store.set_progress(task.id, {"step": "researching", "completed": 1, "total": 4, "message": "busy"})
    await store.park(
        task.id, {"kind": "apiKey", "principal": "user:tester", "message": "no key"}, owner=store.owner_id
    )
    async with client(view) as c:
        page, detail = (await c.get("/")).text, (await c.get(f"/tasks/{task.id}")).text
        [row] = (await c.get("/api/tasks")).json()["tasks"]
    assert row["status"] == "input_required" and row["phase"] == "waiting for an Exa API key"
    assert (
        "user:tester has given this server no Exa API key" in row["message"]
        and "EXA_API_KEY" in row["message"]
    )
    for html in (page, detail):
        assert "waiting for an Exa API key" in html
    assert "busy" not in page  # (the task's page lists its events: "busy" is one, in its history)
