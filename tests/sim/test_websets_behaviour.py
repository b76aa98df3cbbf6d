"""Websets behaviour over simulated time: progress, idle, determinism, externalIds, events."""

from __future__ import annotations

import json
from typing import Any

import httpx

from exa_orch.sim.context import SimConfig
from exa_orch.sim.testing import SimHandle, running_sim
from exa_orch.sim.websets.timing import busy_until
from tests.sim.sdk import async_exa
from tests.support import WAIT, until

W = "/websets/v0"


def client(sim: SimHandle) -> httpx.AsyncClient:
    return httpx.AsyncClient(base_url=sim.url, headers={"x-api-key": "test"}, timeout=WAIT)


async def wait_idle(http: httpx.AsyncClient, webset_id: str, within: float = 10.0) -> dict[str, Any]:
    body: dict[str, Any] = {}

    async def idle() -> bool:
        nonlocal body
        body = (await http.get(f"{W}/websets/{webset_id}")).json()
        return bool(body["status"] == "idle")

    await until(idle, within)
    return body


async def test_fifty_items_reach_idle_in_under_five_seconds_with_growing_progress(sim: SimHandle) -> None:
    speed, step = sim.ctx.clock.speed, sim.ctx.config.seconds_per_item
    # Simulated time held, and moved one item's time between polls: however slowly this machine
    # polls, it sees the search in every phase (at speed 100 a busy one polled first after its end).
    sim.ctx.clock.set_speed(1e-9)
    async with async_exa("test", sim.url) as exa:
        # 67 AI companies in the world pass the one criterion Exa derives ("Works in artificial intelligence")
        webset = await exa.websets.create({"search": {"query": "AI startups", "count": 50}})
        seen: list[tuple[str, int, int]] = []
        for _ in range(int(5.0 * speed / step) + 1):  # 5 s at the simulator's speed, in steps
            got = await exa.websets.get(webset.id)
            progress = got.searches[0].progress
            seen.append((got.searches[0].status, int(progress.found), int(progress.analyzed)))
            if got.status == "idle":
                break
            sim.ctx.clock.advance(step)
        items = await exa.websets.items.get_all(webset.id)
    # On the simulator's own schedule (simulated seconds / speed), not the wall clock a busy machine
    # stretches: the search is done within 5 s of its creation.
    assert seen[-1][0] == "completed" and got.status == "idle", seen
    store = sim.ctx.extras["websets"]
    record = store.websets[webset.id]
    assert (busy_until(store, record) - record.created_at) / speed < 5.0
    assert len(items) == 50
    assert len({i.properties.url for i in items}) == 50
    found = [f for _, f, _ in seen]
    assert found == sorted(found) and found[-1] == 50
    assert any(0 < f < 50 for f in found), seen  # progress was visible between polls
    assert seen[-1][2] >= 50 and all(a >= f for _, f, a in seen)
    statuses = [s for s, _, _ in seen]
    assert "running" in statuses and statuses[-1] == "completed"


async def test_a_test_can_advance_the_clock_instead_of_waiting() -> None:
    # At speed 0.001 a 20-item search would take hours of wall time; advancing the clock finishes it.
    async with running_sim(SimConfig(speed=0.001)) as sim, client(sim) as http:
        created = (
            await http.post(f"{W}/websets", json={"search": {"query": "AI startups", "count": 20}})
        ).json()
        running = (await http.get(f"{W}/websets/{created['id']}")).json()
        assert running["status"] == "running"
        assert running["searches"][0]["progress"]["found"] < 20
        sim.ctx.clock.advance(3600.0)
        done = (await http.get(f"{W}/websets/{created['id']}")).json()
        items = (await http.get(f"{W}/websets/{created['id']}/items", params={"limit": 100})).json()["data"]
    assert done["status"] == "idle"
    assert done["searches"][0]["status"] == "completed"
    assert done["searches"][0]["progress"]["found"] == 20 and len(items) == 20


async def test_a_webset_goes_idle_seconds_after_its_search_completes_having_analyzed_more_than_it_kept() -> (
    None
):
    # Issue 29, as a real key saw it: a count-5 webset went idle about 6 s after its search
    # completed (it took 13 s) and analyzed about 4x the candidates it kept. Stepped by hand at
    # speed 0.001, so the wall clock of a busy machine plays no part.
    async with running_sim(SimConfig(speed=0.001)) as sim, client(sim) as http:
        created = (
            await http.post(f"{W}/websets", json={"search": {"query": "AI startups in Europe", "count": 5}})
        ).json()
        seen: list[tuple[float, str, str]] = []
        for _ in range(600):  # 0.5 simulated s a step: 300 s at most
            got = (await http.get(f"{W}/websets/{created['id']}")).json()
            seen.append((sim.ctx.clock.now(), got["searches"][0]["status"], got["status"]))
            if got["status"] == "idle":
                break
            sim.ctx.clock.advance(0.5)
    completed = min(at for at, search, _ in seen if search == "completed")
    idle = min(at for at, _, webset in seen if webset == "idle")
    assert any(search == "completed" and webset == "running" for _, search, webset in seen), seen
    assert idle - completed >= 2.0, seen  # not in the same poll: seconds later
    progress = got["searches"][0]["progress"]
    assert progress["found"] == 5 and progress["analyzed"] >= 3 * progress["found"], progress


async def _run_once(seed: int) -> str:
    async with running_sim(SimConfig(seed=seed, speed=100)) as sim, client(sim) as http:
        body = {
            "search": {"query": "fintech companies in Europe", "count": 6,
                       "criteria": [{"description": "Works in fintech"}, {"description": "Has more than 40 employees"},
                                    {"description": "Sells to banks"}]},
            "enrichments": [
                {"description": f"Company {fmt}", "format": fmt} for fmt in ("text", "date", "number", "email", "phone", "url")
            ] + [{"description": "Market", "format": "options", "options": [{"label": "banking"}, {"label": "retail"}]}],
        }  # fmt: skip
        created = (await http.post(f"{W}/websets", json=body)).json()
        await wait_idle(http, created["id"])
        items = (await http.get(f"{W}/websets/{created['id']}/items", params={"limit": 100})).json()["data"]
        stable = [{k: v for k, v in i.items() if k not in ("createdAt", "updatedAt")} for i in items]
        return json.dumps(stable, sort_keys=True)


async def test_same_seed_gives_byte_identical_items_evaluations_and_enrichments() -> None:
    first, second = await _run_once(7), await _run_once(7)
    assert first == second
    items = json.loads(first)
    assert len(items) == 6
    verdicts = {e["satisfied"] for i in items for e in i["evaluations"]}
    assert verdicts == {"yes"}  # an item judged "no" or "unclear" on any criterion is not kept
    assert all(r["status"] == "completed" for i in items for r in i["enrichments"])
    assert {r["format"] for r in items[0]["enrichments"]} == {
        "text",
        "date",
        "number",
        "email",
        "phone",
        "url",
        "options",
    }
    assert await _run_once(8) != first


async def test_a_criterion_gets_the_same_verdict_every_time_and_follows_the_facts(sim: SimHandle) -> None:
    async with client(sim) as http:
        body = {"search": {"query": "robotics companies", "count": 8,
                           "criteria": [{"description": "Has more than 100 employees"}]}}  # fmt: skip
        ws = (await http.post(f"{W}/websets", json=body)).json()
        await wait_idle(http, ws["id"])
        items = (await http.get(f"{W}/websets/{ws['id']}/items")).json()["data"]
        again = [(await http.get(f"{W}/websets/{ws['id']}/items/{i['id']}")).json() for i in items]
    assert [i["evaluations"] for i in items] == [i["evaluations"] for i in again]
    for item in items:
        (evaluation,) = item["evaluations"]
        assert evaluation["satisfied"] == "yes"  # "no" items are dropped, and employee counts are facts
        assert item["properties"]["company"]["employees"] > 100
        assert evaluation["references"][0]["url"] == item["properties"]["url"]


async def test_external_id_conflicts_are_409_and_lookups_work_everywhere(sim: SimHandle) -> None:
    async with client(sim) as http, async_exa("test", sim.url) as exa:
        first = await exa.websets.create(
            {"externalId": "task-1:create", "search": {"query": "AI startups", "count": 2}}
        )
        dup = await http.post(f"{W}/websets", json={"externalId": "task-1:create"})
        assert dup.status_code == 409
        assert (
            set(dup.json()) == {"requestId", "error", "tag"}
            and dup.headers["x-request-id"] == dup.json()["requestId"]
        )
        assert (await exa.websets.get("task-1:create")).id == first.id
        search = await http.post(f"{W}/websets/task-1:create/searches",
                                 json={"query": "AI startups in Europe", "count": 3, "metadata": {"k": "s"}})  # fmt: skip
        assert search.status_code == 200 and search.json()["metadata"] == {"k": "s"}
        by_parent_ext = await http.get(f"{W}/websets/task-1:create/searches/{search.json()['id']}")
        assert by_parent_ext.json()["id"] == search.json()["id"]
        await exa.websets.delete("task-1:create")  # frees the externalId
        assert (await http.get(f"{W}/websets/task-1:create")).status_code == 404
        assert (await http.post(f"{W}/websets", json={"externalId": "task-1:create"})).status_code == 201
    stats = sim.stats()
    assert stats["creates_by_external_id"] == {"task-1:create": 2}
    assert stats["conflicts_by_external_id"] == {"task-1:create": 1}
    assert stats["creates_by_kind"] == {"webset": 2, "search": 1}


# Exa's spec: externalId on webset creates only; searches, enrichments, monitors, webhooks and
# imports carry metadata.
async def test_only_webset_creates_take_an_external_id(sim: SimHandle) -> None:
    async with client(sim) as http:
        ws = (await http.post(f"{W}/websets", json={"externalId": "w-1"})).json()
        creates = {
            f"{W}/websets/{ws['id']}/searches": {"query": "AI startups", "count": 1},
            f"{W}/websets/{ws['id']}/enrichments": {"description": "Website", "format": "url"},
            f"{W}/monitors": {"websetId": ws["id"], "cadence": {"cron": "0 6 * * *"},
                              "behavior": {"type": "search", "config": {"count": 1}}},
            f"{W}/webhooks": {"url": "https://example.com/h", "events": ["webset.created"]},
            f"{W}/imports": {"format": "csv", "entity": {"type": "company"}, "size": 10, "count": 1},
        }  # fmt: skip
        for url, body in creates.items():
            refused = await http.post(url, json={**body, "externalId": "x-1"})
            assert refused.status_code == 400 and "externalId" in refused.json()["error"], url
            made = await http.post(url, json={**body, "metadata": {"mark": url}})
            assert made.status_code in (200, 201) and made.json()["metadata"] == {"mark": url}, url
    marks = [e["created"]["metadata"].get("mark") for e in sim.log() if e.get("created")]
    assert marks == [None, *creates]  # each create logged once, with its metadata
    assert sim.stats()["creates_by_kind"] == dict.fromkeys(
        ["webset", "search", "enrichment", "monitor", "webhook", "import"], 1
    )


async def test_cursors_walk_every_page_once_and_limits_are_enforced(sim: SimHandle) -> None:
    async with client(sim) as http:
        ids = [(await http.post(f"{W}/websets", json={"title": f"w{n}"})).json()["id"] for n in range(5)]
        seen, cursor, pages = [], None, 0
        while True:
            params: dict[str, Any] = {"limit": 2, **({"cursor": cursor} if cursor else {})}
            page = (await http.get(f"{W}/websets", params=params)).json()
            seen += [w["id"] for w in page["data"]]
            pages += 1
            if not page["hasMore"]:
                assert page["nextCursor"] is None
                break
            cursor = page["nextCursor"]
        assert pages == 3 and sorted(seen) == sorted(ids) and seen == ids[::-1]  # newest first
        for path, limit in ((f"{W}/websets", 101), (f"{W}/events", 201), (f"{W}/websets/{ids[0]}/items", 101),
                            (f"{W}/webhooks", 0), (f"{W}/monitors", 201), (f"{W}/imports", 201)):  # fmt: skip
            r = await http.get(path, params={"limit": limit})
            assert r.status_code == 400, (path, limit)
            assert "limit" in r.json()["error"]
        assert (await http.get(f"{W}/events", params={"limit": 200})).status_code == 200
        bad = await http.get(f"{W}/websets", params={"cursor": "nope"})
        assert bad.status_code == 400 and bad.json()["tag"] == "INVALID_CURSOR"


async def test_bad_bodies_are_400_naming_the_field(sim: SimHandle) -> None:
    async with client(sim) as http:
        six = [{"description": f"criterion {n}"} for n in range(6)]
        cases = [
            (f"{W}/websets", {"search": {"query": "AI startups", "criteria": six}}, "search.criteria"),
            (f"{W}/websets", {"search": {"count": 3}}, "search.query"),
            (f"{W}/websets", {"search": {"query": "AI", "entity": {"type": "robot"}}}, "search.entity.type"),
            (
                f"{W}/websets",
                {"enrichments": [{"description": "size", "format": "options"}]},
                "enrichments[0].options",
            ),
        ]
        ws = (await http.post(f"{W}/websets", json={})).json()
        enrich = f"{W}/websets/{ws['id']}/enrichments"
        cases += [
            (f"{W}/websets/{ws['id']}/searches", {"query": "AI startups", "count": 5, "criteria": six}, "criteria"),
            (f"{W}/websets/{ws['id']}/searches", {"query": "AI startups"}, "count"),
            (enrich, {"description": "size", "format": "options"}, "options"),
            (enrich, {"description": "size", "format": "options", "options": []}, "options"),
            (enrich, {"description": "size", "format": "options", "options": [{"label": str(n)} for n in range(151)]},
             "options"),
            (enrich, {"description": "size", "format": "colour"}, "format"),
            (enrich, {"format": "text"}, "description"),
            (f"{W}/monitors", {"websetId": ws["id"], "cadence": {"cron": "0 9 * *"},
                               "behavior": {"config": {"count": 1}}}, "cadence.cron"),
            (f"{W}/monitors", {"websetId": ws["id"], "cadence": {"cron": "*/5 * * * *"},
                               "behavior": {"config": {"count": 1}}}, "cadence.cron"),
            (f"{W}/monitors", {"websetId": ws["id"], "cadence": {"cron": "0 9 * * *"},
                               "behavior": {"config": {}}}, "behavior.config.count"),
            (f"{W}/webhooks", {"events": ["webset.nope"], "url": "https://x.example"}, "events[0]"),
            (f"{W}/imports", {"format": "csv", "entity": {"type": "company"}, "count": 1}, "size"),
        ]  # fmt: skip
        for path, body, field in cases:
            r = await http.post(path, json=body)
            assert r.status_code == 400, (path, body, r.text)
            assert r.json()["tag"] == "INVALID_REQUEST_BODY" and field in r.json()["error"], (field, r.json())
        ok = await http.post(enrich, json={"description": "size", "format": "options",
                                           "options": [{"label": str(n)} for n in range(150)]})  # fmt: skip
        assert ok.status_code == 200


async def test_unknown_ids_are_404_with_exa_error_bodies(sim: SimHandle) -> None:
    async with client(sim) as http:
        ws = (await http.post(f"{W}/websets", json={})).json()["id"]
        for path in (f"{W}/websets/nope", f"{W}/websets/{ws}/items/nope", f"{W}/websets/{ws}/searches/nope",
                     f"{W}/websets/{ws}/enrichments/nope", f"{W}/monitors/nope", f"{W}/webhooks/nope",
                     f"{W}/imports/nope", f"{W}/events/nope", f"{W}/websets/nope/items"):  # fmt: skip
            r = await http.get(path)
            assert r.status_code == 404, path
            assert r.json()["tag"] == "NOT_FOUND" and r.json()["requestId"]


async def test_preview_splits_queries_and_refuses_nonsense_with_422(sim: SimHandle) -> None:
    async with client(sim) as http:
        ok = (
            await http.post(f"{W}/websets/preview", json={"search": {"query": "AI startups in Europe"}})
        ).json()
        assert ok["search"]["entity"] == {"type": "company"}
        criteria = [c["description"] for c in ok["search"]["criteria"]]
        assert any("artificial intelligence" in c for c in criteria) and any("Europe" in c for c in criteria)
        with_items = await http.post(f"{W}/websets/preview", params={"search": "true"},
                                     json={"search": {"query": "papers on retrieval", "count": 3}})  # fmt: skip
        assert [i["properties"]["type"] for i in with_items.json()["items"]] == ["research_paper"] * 3
        for query in ("zzqx", "blorp florp"):
            r = await http.post(f"{W}/websets/preview", json={"search": {"query": query}})
            assert r.status_code == 422, query
            assert r.json()["tag"] == "UNPROCESSABLE_QUERY"
        assert (await http.post(f"{W}/websets/preview", json={"search": {"query": ""}})).status_code == 400


async def test_events_record_what_happened_and_filter_by_type_and_time(sim: SimHandle) -> None:
    async with client(sim) as http:
        ws = (await http.post(f"{W}/websets", json={"search": {"query": "climate startups", "count": 4},
                                                    "enrichments": [{"description": "email", "format": "email"}]})).json()  # fmt: skip
        await wait_idle(http, ws["id"])
        events = (await http.get(f"{W}/events", params={"limit": 200})).json()["data"]
        types = [e["type"] for e in events]
        for t in ("webset.created", "webset.search.created", "webset.search.completed", "webset.idle"):
            assert types.count(t) == 1, t
        assert types.count("webset.item.created") == 4 and types.count("webset.item.enriched") == 4
        times = [e["createdAt"] for e in events]
        assert times == sorted(times, reverse=True)  # newest first
        idle = (await http.get(f"{W}/events", params={"types": "webset.idle"})).json()["data"]
        assert [e["data"]["id"] for e in idle] == [ws["id"]] and idle[0]["data"]["status"] == "idle"
        one = (await http.get(f"{W}/events/{idle[0]['id']}")).json()
        assert one == idle[0]
        later = (await http.get(f"{W}/events", params={"createdAfter": idle[0]["createdAt"]})).json()["data"]
        assert later == []
        before = (await http.get(f"{W}/events", params={"createdBefore": ws["createdAt"]})).json()["data"]
        assert before == []


# --- verdicts: the world's truths decide them, never the wording of the search ----------------------

VERDICT_CRITERIA = ["Is based in Europe", "Works in healthcare", "Has more than 100 employees"]
# The same criteria under searches worded for different niches: the query steers which candidates
# are looked at (by their attributes), never how a candidate is judged.
TARGETED = [
    "AI startups",
    "European healthcare startups with more than 100 employees",
    "companies outside Europe that are not in healthcare, small teams",
]


async def test_verdicts_follow_the_worlds_truths_whatever_the_search_is_worded(sim: SimHandle) -> None:
    from exa_orch.sim.websets import judge

    async with client(sim) as http:
        ids = []
        for query in TARGETED:
            body = {"search": {"query": query, "count": 15, "entity": {"type": "company"},
                               "criteria": [{"description": c} for c in VERDICT_CRITERIA]}}  # fmt: skip
            ids.append((await http.post(f"{W}/websets", json=body)).json()["id"])
        for wid in ids:
            await wait_idle(http, wid)
    store = sim.ctx.extras["websets"]
    world = sim.ctx.world
    seen: dict[tuple[str, str], dict[str, Any]] = {}  # (entity, criterion) -> its evaluation
    shared = 0
    for wid in ids:
        [sid] = store.websets[wid].search_ids
        for cand in store.searches[sid].plan:  # every candidate analyzed, kept or not
            for ev in cand.evaluations:
                assert ev == judge.evaluate(world, cand.entity, ev["criterion"])  # no query in it
                key = (cand.entity.id, ev["criterion"])
                shared += key in seen
                assert seen.setdefault(key, ev) == ev, key
    assert shared >= 3  # the searches met some of the same entities, and judged them alike
    assert {ev["satisfied"] for ev in seen.values()} == {"yes", "no", "unclear"}


async def test_a_world_files_truths_decide_verdicts_whatever_the_query_says(tmp_path: Any) -> None:
    world = {"name": "truths", "entities": [
        {"id": "n26", "name": "N26", "url": "https://n26.com", "queries": ["banks", "banks outside europe"],
         "criteria": {"Is based in Europe": "yes", "Works in healthcare": "no"}},
        {"id": "nubank", "name": "Nubank", "url": "https://nubank.com.br", "queries": ["banks", "banks outside europe"],
         "criteria": {"Is based in Europe": "no", "Works in healthcare": "unclear"}},
    ]}  # fmt: skip
    path = tmp_path / "w.json"
    path.write_text(json.dumps(world), encoding="utf-8")
    from exa_orch.sim.websets import judge

    async with running_sim(SimConfig(speed=1000.0, world_file=str(path))) as handle:
        w = handle.ctx.world
        for query in ("banks", "banks outside europe"):
            for entity in w.search(query):
                verdicts = [judge.evaluate(w, entity, c)["satisfied"] for c in VERDICT_CRITERIA[:2]]
                assert verdicts == {"N26": ["yes", "no"], "Nubank": ["no", "unclear"]}[entity.name]
