"""Entity memory in the store (migration 0020) on every backend: re-resolution joins and splits
entities with their sightings kept, memory is per principal, and `exa-orch sql`'s views show the
viewer's memory only (SQLite: raw tables refused; PostgreSQL: row-level security for its role)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from exa_orch.errors import InvalidParams
from exa_orch.store import Store
from exa_orch.store.admin import run_query
from exa_orch.store.memory import EntityMemory, Group, Plan, Sighting
from exa_orch.workflows.memory import keys_of, plan, resolve_into
from tests.support import run_cli

ALICE, BOB = "token:alice", "token:bob"


def item(item_id: str, name: str, url: str, about: str | None = None) -> dict[str, Any]:
    props: dict[str, Any] = {"type": "company", "url": url, "company": {"name": name}}
    if about:
        props["description"] = about
    refs = [{"url": f"{url}/about"}]
    return {"id": item_id, "properties": props, "evaluations": [{"criterion": "c", "references": refs}]}


def seen(task: str, it: dict[str, Any]) -> Sighting:
    return Sighting(
        task, "lifecycle.harvest", it["id"], it, it["properties"]["url"], [f"{it['properties']['url']}/about"]
    )


async def remember(
    memory: EntityMemory, who: str, task: str, items: list[dict[str, Any]]
) -> list[list[Sighting]]:
    new = [seen(task, i) for i in items]
    old = await memory.candidates(who, sorted({k for i in items for k in keys_of(i)}))
    after, groups = plan(task, old, new)
    await memory.apply(who, after)
    return groups


async def test_a_later_result_that_ties_two_entities_together_merges_them(store: Store) -> None:
    memory = EntityMemory(store)
    await remember(memory, ALICE, "task_1", [item("a", "Klarna", "https://klarna.com")])
    await remember(memory, ALICE, "task_2", [item("b", "Kreditor", "https://kreditor.se")])
    assert len(await memory.entities(ALICE, 10)) == 2
    groups = await remember(
        memory, ALICE, "task_3",
        [item("c", "Klarna", "https://klarna.com", "Klarna, formerly Kreditor, also at kreditor.se")],
    )  # fmt: skip
    # The new item was known (task_1 and task_2 saw it), and memory now holds one entity.
    assert {s.task_id for s in groups[0]} == {"task_1", "task_2", "task_3"}
    (merged,) = await memory.entities(ALICE, 10)
    assert set(merged.domains) == {"klarna.com", "kreditor.se"} and set(merged.names) == {
        "Klarna",
        "Kreditor",
    }
    assert any("formerly Kreditor" in r["reason"] for r in merged.evidence)
    (full,) = await memory.candidates(ALICE, ["d:kreditor.se"])
    assert [(s.task_id, s.sources) for s in full.sightings] == [
        ("task_1", ["https://klarna.com/about"]),
        ("task_2", ["https://kreditor.se/about"]),
        ("task_3", ["https://klarna.com/about"]),
    ]  # each sighting keeps its task and its source pages


async def test_an_entity_the_resolver_now_parts_is_split_with_its_sightings(store: Store) -> None:
    memory = EntityMemory(store)
    klarna, klara = item("a", "Klarna", "https://klarna.com"), item("b", "Klara", "https://klara.com")
    # Memory as an older resolver left it: Klarna and Klara as one entity.
    wrong = Group(
        type="company", name="Klarna", names=["Klarna", "Klara"], domains=["klarna.com", "klara.com"], urls=[],
        profiles=[], evidence=[], entity_id=None, keys=sorted(keys_of(klarna) | keys_of(klara)),
        sightings=[seen("task_1", klarna), seen("task_1", klara)],
    )  # fmt: skip
    (old_id,) = await memory.apply(ALICE, Plan([wrong]))
    await remember(memory, ALICE, "task_2", [item("c", "Klarna", "https://klarna.com")])
    held = {e.name: e for e in await memory.candidates(ALICE, ["d:klarna.com", "d:klara.com"])}
    assert set(held) == {"Klarna", "Klara"}
    assert held["Klarna"].id == old_id  # the bigger part keeps the entity
    assert [s.task_id for s in held["Klarna"].sightings] == ["task_1", "task_2"]
    assert [(s.item_id, s.sources) for s in held["Klara"].sightings] == [("b", ["https://klara.com/about"])]


async def test_memory_is_per_principal_and_sql_shows_the_viewers_only(store: Store) -> None:
    memory = EntityMemory(store)
    await remember(memory, ALICE, "task_1", [item("a", "Klarna", "https://klarna.com")])
    groups = await remember(memory, BOB, "task_2", [item("b", "Klarna", "https://klarna.com")])
    assert [s.task_id for s in groups[0]] == ["task_2"]  # Bob's run knows nothing of Alice's
    assert [e.name for e in await memory.entities(BOB, 10)] == ["Klarna"]
    assert await memory.counts(ALICE) == (1, 1) and await memory.counts("token:carol") == (0, 0)

    async def sql(query: str, viewer: str) -> list[tuple[Any, ...]]:
        return (await run_query(store.backend, query, viewer=viewer))[1]

    assert await sql("select principal, name from v_entities", ALICE) == [(ALICE, "Klarna")]
    assert await sql("select principal, task_id from v_sightings", BOB) == [(BOB, "task_2")]
    assert sorted(await sql("select principal from v_entities", "*")) == [(ALICE,), (BOB,)]
    assert await sql("select principal from v_entities", "token:carol") == []
    if store.backend.name != "postgresql":  # SQLite's authorizer: only the viewer's views
        for query, named in (
            ("select principal from memory_sightings", "memory_sightings"),
            ("select principal from main.v_entities", "main.v_entities"),
            # no column read: a bare count would tell another principal's memory exists
            ("select count(*) from memory_entities", "memory_entities"),
            ("select 1 from memory_keys", "memory_keys"),
            ("select count(*) from memory_searches", "memory_searches"),
            ("select count(*) from main.v_sightings", "main.v_sightings"),
            ("select count(*) from main.v_entities", "main.v_entities"),
        ):
            try:
                await sql(query, ALICE)
                raise AssertionError(f"{query!r} read memory outside the viewer's views")
            except InvalidParams as exc:
                assert named in exc.message
        # ... while the viewer's views count the viewer's rows
        assert await sql("select count(*) from v_sightings", ALICE) == [(1,)]
        assert await sql(
            "select count(*) from v_entities e join v_sightings s on s.entity_id = e.id", BOB
        ) == [(1,)]
        assert await sql("select count(*) from v_entities", "token:carol") == [(0,)]
    else:  # row-level security: the sql role sees the viewer's rows of the tables too
        assert await sql("select principal from memory_sightings", ALICE) == [(ALICE,)]
        assert await sql("select count(*) from memory_entities", "token:carol") == [(0,)]


async def test_remembering_a_tasks_items_again_after_a_crash_changes_nothing(store: Store) -> None:
    memory = EntityMemory(store)
    await remember(memory, ALICE, "task_1", [item("a", "Klarna", "https://klarna.com")])
    # The step ran, wrote, and the process died before its checkpoint: the resumed run writes again.
    again = await remember(memory, ALICE, "task_1", [item("a", "Klarna", "https://klarna.com")])
    assert await memory.counts(ALICE) == (1, 1)
    assert [s.task_id for s in again[0]] == ["task_1"]  # its own earlier write makes it no "known" entity


async def test_the_sql_command_shows_the_local_users_memory_and_all_owners_everyones(db: str) -> None:
    async with Store(db) as store:  # an SQLite file, a PostgreSQL database: what --db names
        memory = EntityMemory(store)
        await remember(memory, "user:tester", "task_1", [item("a", "Klarna", "https://klarna.com")])
        await remember(memory, BOB, "task_2", [item("b", "Bobworks", "https://bobworks.example")])
        mine_task = await store.create_task("t", {}, principal="user:tester")
        await store.create_task("t", {}, principal=BOB)
    env = {"EXA_ORCH_PRINCIPAL": "user:tester"}
    query = "select principal, name, sightings from v_entities order by name"

    def sql(*flags: str, query: str = query) -> list[dict[str, Any]]:
        done = run_cli("sql", "--json", *flags, "--db", db, query, env=env)
        assert done.returncode == 0, done.stderr
        rows: list[dict[str, Any]] = json.loads(done.stdout)
        return rows

    mine = await asyncio.to_thread(sql)
    everyone = await asyncio.to_thread(sql, "--all-owners")
    assert mine == [{"principal": "user:tester", "name": "Klarna", "sightings": 1}]
    assert [r["name"] for r in everyone] == ["Bobworks", "Klarna"]
    tasks = "select id, owner from v_tasks"
    assert await asyncio.to_thread(sql, query=tasks) == [{"id": mine_task.id, "owner": "user:tester"}]
    assert len(await asyncio.to_thread(sql, "--all-owners", query=tasks)) == 2


async def test_v_tasks_in_sql_shows_the_viewers_tasks_and_unowned_ones_all_owners_every_one(
    store: Store,
) -> None:
    mine = await store.create_task("t", {}, principal=ALICE)
    theirs = await store.create_task("t", {}, principal=BOB)
    unowned = await store.create_task("t", {})

    async def ids(viewer: str, query: str = "select id from v_tasks") -> set[str]:
        return {r[0] for r in (await run_query(store.backend, query, viewer=viewer))[1]}

    assert await ids(ALICE) == {mine.id, unowned.id}
    assert await ids(BOB) == {theirs.id, unowned.id}
    assert await ids("*") == {mine.id, theirs.id, unowned.id}
    assert await ids(ALICE, "select count(*) from v_tasks") == {2}
    if store.backend.name != "postgresql":  # SQLite: the main view only through the viewer's
        try:
            await ids(ALICE, "select id from main.v_tasks")
            raise AssertionError("main.v_tasks was read outside the viewer's view")
        except InvalidParams as exc:
            assert "main.v_tasks" in exc.message


async def test_two_apps_on_one_database_remembering_one_entity_at_once_make_it_once(db: str) -> None:
    # Two stores on one database: two writers (threads and connections), as two processes have.
    async with Store(db) as one, Store(db) as two:
        a, b = EntityMemory(one), EntityMemory(two)
        it = item("a", "Klarna", "https://klarna.com")
        keys = sorted(keys_of(it))
        # Both read memory before either writes: each plans a new entity; the second is refused.
        plan_a, _ = plan("task_1", await a.candidates(ALICE, keys), [seen("task_1", it)])
        plan_b, _ = plan("task_2", await b.candidates(ALICE, keys), [seen("task_2", {**it, "id": "b"})])
        assert plan_a.groups[0].entity_id is None and plan_b.groups[0].entity_id is None
        plan_a.probed = plan_b.probed = keys  # what they were read by (as resolve_into says)
        assert await a.apply(ALICE, plan_a) is not None
        assert await b.apply(ALICE, plan_b) is None  # memory changed since it read: nothing written
        assert await b.counts(ALICE) == (1, 1)
        # Read and planned again, it joins the entity the other made.
        groups = await resolve_into(b, ALICE, "task_2", [seen("task_2", {**it, "id": "b"})])
        assert [s.task_id for s in groups[0]] == ["task_1", "task_2"]
        # At once, many rounds: each entity is made once, with every sighting.
        for n in range(6):
            found = [item(f"{who}{n}", f"Northwind {n}", f"https://northwind{n}.example") for who in "xy"]
            await asyncio.gather(
                resolve_into(a, ALICE, f"task_x{n}", [seen(f"task_x{n}", found[0])]),
                resolve_into(b, ALICE, f"task_y{n}", [seen(f"task_y{n}", found[1])]),
            )
        held = await a.entities(ALICE, 100)
        assert len(held) == 7 and len({e.name for e in held}) == 7
        assert await a.counts(ALICE) == (7, 14)


async def test_a_key_the_read_entities_share_with_one_not_read_is_no_change(store: Store) -> None:
    # Acme (a.com) and another Acme (c.com) share a name key; a new a.com page reads only the first
    # (its keys), and its plan's groups hold the name key the other holds too: memory did not change.
    memory = EntityMemory(store)
    await remember(memory, ALICE, "task_1", [item("a", "Acme", "https://a.com")])
    await remember(memory, ALICE, "task_2", [item("c", "Acme", "https://c.com")])
    assert len(await memory.entities(ALICE, 10)) == 2  # two companies, one name
    groups = await resolve_into(
        memory, ALICE, "task_3", [seen("task_3", item("n", "Acme Labs", "https://a.com"))]
    )
    assert [s.task_id for s in groups[0]] == ["task_1", "task_3"]
