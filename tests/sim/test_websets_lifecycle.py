"""Websets lifecycles: cancels, enrichments, monitors and their runs, imports, webhooks."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
from typing import Any

import httpx
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

from exa_orch.sim.testing import SimHandle, bind_socket, server_for
from exa_orch.sim.websets.delivery import signature
from tests.sim.sdk import async_exa
from tests.sim.test_websets_behaviour import W, client, wait_idle
from tests.support import WAIT, until


async def events_of(http: httpx.AsyncClient, type_: str) -> list[dict[str, Any]]:
    body = (await http.get(f"{W}/events", params={"types": type_, "limit": 200})).json()
    return list(body["data"])


async def test_canceling_a_search_keeps_what_it_found_and_the_webset_goes_idle(sim: SimHandle) -> None:
    async with client(sim) as http:
        ws = (await http.post(f"{W}/websets", json={"search": {"query": "AI startups", "count": 100}})).json()
        search_id = ws["searches"][0]["id"]

        async def some_found() -> bool:
            got = (await http.get(f"{W}/websets/{ws['id']}/searches/{search_id}")).json()
            return bool(got["progress"]["found"] >= 3)

        await until(some_found)
        canceled = (await http.post(f"{W}/websets/{ws['id']}/searches/{search_id}/cancel")).json()
        assert canceled["status"] == "canceled" and canceled["canceledReason"] == "webset_canceled"
        assert canceled["canceledAt"] is not None
        found = canceled["progress"]["found"]
        assert 3 <= found < 100
        body = (await http.get(f"{W}/websets/{ws['id']}", params={"expand": "items"})).json()
        assert body["status"] == "idle" and len(body["items"]) == found
        assert len(await events_of(http, "webset.search.canceled")) == 1
        assert len(await events_of(http, "webset.idle")) == 1


async def test_canceling_and_deleting_a_webset_stop_its_searches(sim: SimHandle) -> None:
    async with client(sim) as http:
        a = (
            await http.post(f"{W}/websets", json={"search": {"query": "fintech startups", "count": 80}})
        ).json()
        b = (
            await http.post(f"{W}/websets", json={"search": {"query": "biotech startups", "count": 80}})
        ).json()
        canceled = (await http.post(f"{W}/websets/{a['id']}/cancel")).json()
        assert canceled["status"] == "idle"
        assert canceled["searches"][0]["status"] == "canceled"
        deleted = (await http.delete(f"{W}/websets/{b['id']}")).json()
        assert deleted["searches"][0]["canceledReason"] == "webset_deleted"
        assert (await http.get(f"{W}/websets/{b['id']}")).status_code == 404
        listed = [w["id"] for w in (await http.get(f"{W}/websets")).json()["data"]]
        assert listed == [a["id"]]
        assert [e["data"]["id"] for e in await events_of(http, "webset.deleted")] == [b["id"]]


async def test_enrichments_fill_every_item_then_complete_and_cancel_or_delete_cleanly(sim: SimHandle) -> None:
    async with client(sim) as http:
        ws = (
            await http.post(f"{W}/websets", json={"search": {"query": "cybersecurity companies", "count": 6}})
        ).json()
        await wait_idle(http, ws["id"])
        enr = (await http.post(f"{W}/websets/{ws['id']}/enrichments",
                               json={"description": "Website", "format": "url", "metadata": {"k": "e-1"}})).json()  # fmt: skip
        assert enr["status"] == "pending"
        await wait_idle(http, ws["id"])
        done = (await http.get(f"{W}/websets/{ws['id']}/enrichments/{enr['id']}")).json()
        assert done["status"] == "completed" and done["id"] == enr["id"]
        items = (await http.get(f"{W}/websets/{ws['id']}/items")).json()["data"]
        for item in items:
            (result,) = item["enrichments"]
            assert result["status"] == "completed" and result["enrichmentId"] == enr["id"]
            assert result["result"][0].startswith("https://")
        # Simulated time nearly stops, so the next enrichment stays pending until it is cancelled
        # however slowly this machine answers.
        sim.ctx.clock.set_speed(0.001)
        await http.post(
            f"{W}/websets/{ws['id']}/searches",
            json={"query": "AI startups", "count": 200, "behavior": "append"},
        )
        late = (await http.post(f"{W}/websets/{ws['id']}/enrichments",
                                json={"description": "Email", "format": "email"})).json()  # fmt: skip
        canceled = (await http.post(f"{W}/websets/{ws['id']}/enrichments/{late['id']}/cancel")).json()
        assert canceled["status"] == "canceled"
        removed = await http.delete(f"{W}/websets/{ws['id']}/enrichments/{enr['id']}")
        assert removed.status_code == 200
        items = (await http.get(f"{W}/websets/{ws['id']}/items")).json()["data"]
        assert all([r["enrichmentId"] for r in i["enrichments"]] == [late["id"]] for i in items)
        assert (await http.get(f"{W}/websets/{ws['id']}/enrichments/{enr['id']}")).status_code == 404


async def test_append_adds_new_entities_and_override_replaces_the_items(sim: SimHandle) -> None:
    async with client(sim) as http:
        ws = (
            await http.post(f"{W}/websets", json={"search": {"query": "AI startups in Europe", "count": 5}})
        ).json()
        await wait_idle(http, ws["id"])
        await http.post(f"{W}/websets/{ws['id']}/searches",
                        json={"query": "AI startups in Europe", "count": 5, "behavior": "append"})  # fmt: skip
        await wait_idle(http, ws["id"])
        items = (await http.get(f"{W}/websets/{ws['id']}/items")).json()["data"]
        assert len(items) == 10 and len({i["properties"]["url"] for i in items}) == 10
        over = (await http.post(f"{W}/websets/{ws['id']}/searches",
                                json={"query": "energy companies", "count": 3})).json()  # fmt: skip
        await wait_idle(http, ws["id"])
        items = (await http.get(f"{W}/websets/{ws['id']}/items")).json()["data"]
        assert [i["sourceId"] for i in items] == [over["id"]] * 3
        deleted = (await http.delete(f"{W}/websets/{ws['id']}/items/{items[0]['id']}")).json()
        assert deleted["id"] == items[0]["id"]
        assert len((await http.get(f"{W}/websets/{ws['id']}/items")).json()["data"]) == 2


async def test_monitor_runs_a_search_that_adds_items_and_reports_runs(sim: SimHandle) -> None:
    async with client(sim) as http:
        ws = (
            await http.post(f"{W}/websets", json={"search": {"query": "logistics startups", "count": 3}})
        ).json()
        await wait_idle(http, ws["id"])
        monitor = (await http.post(f"{W}/monitors", json={
            "websetId": ws["id"], "cadence": {"cron": "30 6 * * *", "timezone": "Europe/Berlin"},
            "behavior": {"type": "search", "config": {"count": 4}}, "metadata": {"k": "m-1"},
        })).json()  # fmt: skip
        assert monitor["status"] == "enabled" and monitor["nextRunAt"] is not None
        runs = (await http.get(f"{W}/monitors/{monitor['id']}/runs")).json()["data"]
        assert len(runs) == 1 and runs[0]["type"] == "search"

        async def run_done() -> bool:
            run = (await http.get(f"{W}/monitors/{monitor['id']}/runs/{runs[0]['id']}")).json()
            return bool(run["status"] == "completed")

        await until(run_done)
        await wait_idle(http, ws["id"])
        items = (await http.get(f"{W}/websets/{ws['id']}/items")).json()["data"]
        assert len(items) == 7  # the run appends 4 new companies to the first 3
        assert len(await events_of(http, "monitor.run.created")) == 1
        assert len(await events_of(http, "monitor.run.completed")) == 1
        got = (await http.get(f"{W}/monitors/{monitor['id']}")).json()
        assert got["lastRun"]["status"] == "completed"
        disabled = (await http.patch(f"{W}/monitors/{monitor['id']}", json={"status": "disabled"})).json()
        assert disabled["status"] == "disabled" and disabled["nextRunAt"] is None
        listed = (await http.get(f"{W}/monitors", params={"websetId": ws["id"]})).json()["data"]
        assert [m["id"] for m in listed] == [monitor["id"]]
        await http.delete(f"{W}/monitors/{monitor['id']}")
        assert (await http.get(f"{W}/monitors/{monitor['id']}")).status_code == 404


async def test_import_uploads_csv_to_the_simulator_and_feeds_a_webset(sim: SimHandle) -> None:
    known = sim.ctx.world.of_kind("company")[0]  # a company the world knows, by its bare domain
    domain = known.url.removeprefix("https://")
    csv_data = f"company,website\n{known.name},{domain}\nAcme Widgets,https://acme-widgets.example\n"
    async with (
        async_exa("test", sim.url) as exa,
        client(sim) as http,
        httpx.AsyncClient() as bare,
    ):
        created = await exa.websets.imports.create({"format": "csv", "entity": {"type": "company"}, "title": "crm"},
                                                   csv_data=csv_data)  # fmt: skip
        assert created.status in ("processing", "completed")

        async def completed() -> bool:
            return (await exa.websets.imports.get(created.id)).status == "completed"

        await until(completed)
        ws = (
            await http.post(f"{W}/websets", json={"import": [{"source": "import", "id": created.id}]})
        ).json()
        await wait_idle(http, ws["id"])
        items = (await http.get(f"{W}/websets/{ws['id']}/items")).json()["data"]
        assert [(i["source"], i["sourceId"]) for i in items] == [("import", created.id)] * 2
        assert items[0]["properties"]["company"]["name"] == known.name
        assert items[0]["properties"]["company"]["industry"] is not None  # a company the world knows
        assert len(await events_of(http, "import.completed")) == 1
        bad = (await http.post(f"{W}/imports", json={"format": "csv", "entity": {"type": "company"},
                                                     "size": 10, "count": 1})).json()  # fmt: skip
        upload = await bare.put(bad["uploadUrl"], content="name,notes\nA,b\n")
        assert upload.status_code == 200
        failed = (await http.get(f"{W}/imports/{bad['id']}")).json()
        assert failed["status"] == "failed" and failed["failedReason"] == "missing_identifier"
        forged = await bare.put(bad["uploadUrl"].split("?")[0] + "?token=x", content="url\na.com\n")
        assert forged.status_code == 403


async def test_webhook_secret_is_shown_once_and_attempts_are_recorded(sim: SimHandle) -> None:
    async with client(sim) as http:
        hook = (
            await http.post(f"{W}/webhooks", json={"events": ["webset.idle"], "url": "https://example.com/h"})
        ).json()
        assert hook["secret"]
        assert (await http.get(f"{W}/webhooks/{hook['id']}")).json()["secret"] is None
        ws = (
            await http.post(
                f"{W}/websets", json={"search": {"query": "energy storage companies", "count": 2}}
            )
        ).json()
        await wait_idle(http, ws["id"])
        attempts = (await http.get(f"{W}/webhooks/{hook['id']}/attempts")).json()["data"]
        assert [a["eventType"] for a in attempts] == ["webset.idle"]
        assert attempts[0]["eventId"] == (await events_of(http, "webset.idle"))[0]["id"]
        none = (
            await http.get(f"{W}/webhooks/{hook['id']}/attempts", params={"eventType": "webset.created"})
        ).json()
        assert none["data"] == []


async def test_a_monitor_runs_again_when_simulated_time_passes_its_next_run(sim: SimHandle) -> None:
    async with client(sim) as http:
        ws = (
            await http.post(
                f"{W}/websets", json={"search": {"query": "quantum computing companies", "count": 2}}
            )
        ).json()
        monitor = (await http.post(f"{W}/monitors", json={
            "websetId": ws["id"], "cadence": {"cron": "0 9 * * *"}, "behavior": {"config": {"count": 1}},
        })).json()  # fmt: skip
        assert monitor["nextRunAt"] == "2026-01-01T09:00:00.000Z"  # the simulated clock starts at the epoch
        sim.ctx.clock._start -= 10 * 3600 / sim.ctx.clock.speed  # jump ten simulated hours ahead
        runs = (await http.get(f"{W}/monitors/{monitor['id']}/runs")).json()["data"]
        assert len(runs) == 2 and runs[0]["createdAt"] == "2026-01-01T09:00:00.000Z"
        got = (await http.get(f"{W}/monitors/{monitor['id']}")).json()
        assert got["nextRunAt"] == "2026-01-02T09:00:00.000Z"


async def test_loopback_webhooks_receive_signed_events_and_attempts_record_the_answers(
    sim: SimHandle,
) -> None:
    received: list[tuple[bytes, str]] = []
    got_idle = asyncio.Event()

    async def receive(request: Request) -> Response:
        body = await request.body()
        received.append((body, request.headers["exa-signature"]))
        if json.loads(body)["type"] == "webset.idle":
            got_idle.set()
        return PlainTextResponse("thanks", status_code=202)

    receiver = Starlette(routes=[Route("/hook", receive, methods=["POST"])])
    sock = bind_socket()
    server = server_for(receiver)  # type: ignore[arg-type]
    serving = asyncio.create_task(server.serve(sockets=[sock]))
    try:
        url = f"http://127.0.0.1:{sock.getsockname()[1]}/hook"
        async with client(sim) as http:
            hook = (
                await http.post(
                    f"{W}/webhooks", json={"events": ["webset.created", "webset.idle"], "url": url}
                )
            ).json()
            ws = (
                await http.post(f"{W}/websets", json={"search": {"query": "edtech startups", "count": 2}})
            ).json()
            await wait_idle(http, ws["id"])
            async with asyncio.timeout(WAIT):
                await got_idle.wait()
            attempts = (await http.get(f"{W}/webhooks/{hook['id']}/attempts")).json()["data"]
    finally:
        server.should_exit = True
        await serving
    assert [json.loads(b)["type"] for b, _ in received] == ["webset.created", "webset.idle"]
    for body, header in received:
        stamp = int(header.split(",")[0].removeprefix("t="))
        assert header == signature(hook["secret"], stamp, body)
        expected = hmac.new(hook["secret"].encode(), f"{stamp}.".encode() + body, hashlib.sha256).hexdigest()
        assert header.endswith(f"v1={expected}")
    assert {a["eventType"] for a in attempts} == {"webset.created", "webset.idle"}
    assert all(
        a["successful"] and a["responseStatusCode"] == 202 and a["responseBody"] == "thanks" for a in attempts
    )


async def test_a_webset_created_before_its_import_is_uploaded_gets_the_rows_once_it_completes(
    sim: SimHandle,
) -> None:
    async with client(sim) as http, httpx.AsyncClient() as bare:
        imp = (await http.post(f"{W}/imports", json={"format": "csv", "entity": {"type": "company"},
                                                     "size": 40, "count": 1})).json()  # fmt: skip
        ws = (
            await http.post(f"{W}/websets", json={"import": [{"source": "import", "id": imp["id"]}]})
        ).json()
        assert (await wait_idle(http, ws["id"]))["status"] == "idle"
        assert (await bare.put(imp["uploadUrl"], content="url\nhttps://novalogic.com\n")).status_code == 200
        assert (await http.get(f"{W}/imports/{imp['id']}")).json()["status"] in ("processing", "completed")

        async def has_item() -> bool:
            body = (await http.get(f"{W}/websets/{ws['id']}/items")).json()
            return len(body["data"]) == 1

        await until(has_item)
        assert (await wait_idle(http, ws["id"]))["status"] == "idle"
