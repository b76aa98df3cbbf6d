"""Watches (issue 39): a watch every 15 s over a drifting world, on the simulator's held clock.

The world file says what changes when: Nova Drones appears at simulated second 10, Acme's page says
something new at 20, Zeta's page disappears at 25, nothing after. Runs fall due at 0, 15, 30 and 45 on the same held clock (the
scheduler reads it), so runs 2 and 3 must report exactly those changes, and run 4 nothing."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from exa_orch.app import App, open_app
from exa_orch.config import Settings
from exa_orch.errors import InvalidParams, WatchNotFound
from exa_orch.operations.watch_diff import diff, snapshot
from exa_orch.operations.watches import CreateArgs, parse_every, period_s
from exa_orch.runtime import Principal
from exa_orch.sim.context import SimConfig
from exa_orch.sim.testing import SimHandle, running_sim
from exa_orch.view.data import ViewDB
from exa_orch.view.web import build_app
from tests.support import until

QUERY = "robot makers"
WORLD: dict[str, Any] = {
    "name": "drifting",
    "entities": [
        {"id": "acme", "name": "Acme Robotics", "url": "https://acme.example", "queries": [QUERY],
         "text": "Acme Robotics builds warehouse robots. It raised a Series A in 2024."},
        {"id": "zeta", "name": "Zeta Labs", "url": "https://zeta.example", "queries": [QUERY],
         "text": "Zeta Labs makes robot arms."},
    ],
    "drift": [
        {"at": 10, "add": {"id": "nova", "name": "Nova Drones", "url": "https://nova.example",
                           "queries": [QUERY], "text": "Nova Drones came out of stealth."}},
        {"at": 20, "entity": "acme", "set": {"text": "Acme Robotics raised a $40M Series B in 2026."}},
        {"at": 25, "remove": "zeta"},
    ],
}  # fmt: skip
SEARCH = {"type": "operation", "operation": "exa.search", "args": {"query": QUERY, "numResults": 10,
                                                                "contents": {"text": True}}}  # fmt: skip


class Receiver:
    """A loopback webhook receiver: each POST's headers and body, as received; it answers `status`."""

    def __init__(self, status: int = 204) -> None:
        self.status = status
        self.got: list[tuple[dict[str, str], bytes]] = []
        self.arrived = asyncio.Event()
        self.url = ""

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
        headers = {k.strip().lower(): v.strip() for k, _, v in (h.partition(":") for h in head[1:] if h)}
        body = await reader.readexactly(int(headers.get("content-length", "0")))
        self.got.append((headers, body))
        self.arrived.set()
        writer.write(f"HTTP/1.1 {self.status} X\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".encode())
        await writer.drain()
        writer.close()


@asynccontextmanager
async def receiving(status: int = 204) -> AsyncIterator[Receiver]:
    receiver = Receiver(status)
    server = await asyncio.start_server(receiver.handle, "127.0.0.1", 0)
    receiver.url = f"http://127.0.0.1:{server.sockets[0].getsockname()[1]}/hook"
    async with server:
        yield receiver


@asynccontextmanager
async def app_on(sim: SimHandle, db: Path, base: float, **settings: Any) -> AsyncIterator[App]:
    """The app on `sim`, its watches on the simulator's clock (from epoch second `base`)."""
    config = Settings(exa_url=sim.url, simulator=True, db_path=db, rps=1000.0, concurrency=8, **settings)
    async with open_app(config, db, watch_clock=lambda: base + sim.ctx.clock.now()) as app:
        yield app


@asynccontextmanager
async def held_sim(tmp_path: Path) -> AsyncIterator[SimHandle]:
    """A simulator of the drifting world, its clock held."""
    world = tmp_path / "world.json"
    world.write_text(json.dumps(WORLD), encoding="utf-8")
    async with running_sim(SimConfig(speed=1e-9, world_file=str(world))) as sim:
        yield sim


@asynccontextmanager
async def watching(tmp_path: Path) -> AsyncIterator[tuple[App, SimHandle]]:
    """The app on a held simulator whose clock is also the watches' clock."""
    async with held_sim(tmp_path) as sim, app_on(sim, tmp_path / "watches.db", time.time()) as app:
        yield app, sim


async def finished_runs(app: App, watch_id: str, n: int) -> list[dict[str, Any]]:
    """The watch's runs, oldest first, once `n` of them have been recorded."""

    async def runs() -> list[dict[str, Any]] | None:
        got = await app.run_operation("watches.get", {"watchId": watch_id})
        done = [r for r in got["runs"] if r["finishedAt"] is not None]
        return sorted(done, key=lambda r: r["run"]) if len(done) >= n else None

    found = await until(runs, what=f"run {n} of {watch_id} recorded")
    return found


async def webhook_settled(app: App, watch_id: str, n: int, status: str) -> dict[str, Any]:
    """Run `n` of the watch once its webhook delivery is `status` (delivered, failed)."""

    async def run() -> dict[str, Any] | None:
        got = await app.run_operation("watches.get", {"watchId": watch_id})
        found = next((r for r in got["runs"] if r["run"] == n), None)
        return found if found and (found.get("webhook") or {}).get("status") == status else None

    found: dict[str, Any] = await until(run, what=f"run {n}'s webhook {status}")
    return found


def verify(secret: str, header: str, body: bytes) -> bool:
    parts = dict(p.split("=", 1) for p in header.split(","))
    expected = hmac.new(secret.encode(), f"{parts['t']}.".encode() + body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, parts["v1"])


async def test_a_watch_reports_exactly_what_the_world_drift_changed(tmp_path: Path) -> None:
    async with receiving() as hook, watching(tmp_path) as (app, sim):
        assert app.watches is not None
        created = await app.run_operation(
            "watches.create", {**SEARCH, "every": "15s", "budgetUsd": 1, "notify": {"webhook": hook.url}}
        )
        wid, secret = created["watchId"], created["secret"]
        runs = await finished_runs(app, wid, 1)
        assert runs[0]["diff"]["baseline"] is True and runs[0]["changed"] is False
        assert runs[0]["diff"]["added"] == ["https://acme.example", "https://zeta.example"]
        for n in (2, 3, 4):
            sim.ctx.clock.advance(15)
            app.watches.wake()
            runs = await finished_runs(app, wid, n)
        assert [r["status"] for r in runs] == ["completed"] * 4
        two, three, four = (r["diff"] for r in runs[1:])
        assert two == {"added": ["https://nova.example"], "gone": [], "changed": []}
        assert three["added"] == [] and three["gone"] == ["https://zeta.example"]
        assert three["changed"] == [
            {
                "entity": "https://acme.example",
                "fields": {
                    "text": {
                        "was": "Acme Robotics builds warehouse robots. It raised a Series A in 2024.",
                        "now": "Acme Robotics raised a $40M Series B in 2026.",
                    }
                },
            }
        ]
        assert runs[3]["changed"] is False and runs[3]["notified"] is None and "webhook" not in runs[3]
        for n in (2, 3):  # the sender delivers each from the outbox, after the run is recorded
            sent = await webhook_settled(app, wid, n, "delivered")
            assert sent["notified"] == ["webhook"] and sent["webhook"]["attempts"] == 1
        # Each run's cost is its child task's, which the ledger counts against the owner.
        assert all(r["costUsd"] > 0 for r in runs)
        # The webhook: two deliveries (runs 2 and 3), each signed with the secret shown once.
        assert len(hook.got) == 2
        for (headers, body), n in zip(hook.got, (2, 3), strict=True):
            assert verify(secret, headers["exa-signature"], body)
            assert not verify("whsec_wrong", headers["exa-signature"], body)
            assert json.loads(body)["run"] == n and json.loads(body)["watchId"] == wid
        shown = await app.run_operation("watches.get", {"watchId": wid})
        assert "secret" not in shown and shown["notify"]["signed"] is True
        # A child task says which watch run it is.
        child = await app.run_operation("tasks.get", {"taskId": runs[1]["taskId"]})
        assert child["watch"]["watchId"] == wid and child["watch"]["run"] == 2
        assert child["watch"]["diff"] == two
        principal = app.settings.principal
    # The web view of run 3's child task shows the run's diff and the watch's runs with their cost.
    async with ViewDB(tmp_path / "watches.db") as db:
        transport = httpx.ASGITransport(
            app=build_app(db, Settings(principal=principal)), client=("127.0.0.1", 1)
        )
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1:8766") as view:
            page = (await view.get(f"/tasks/{runs[2]['taskId']}")).text
    assert f"Watch run 3 <small>of {wid}</small>" in page
    assert "https://zeta.example" in page and "raised a $40M Series B in 2026." in page
    assert page.count("<tr><td>") >= 4 and f'href="/tasks/{runs[0]["taskId"]}"' in page


async def test_a_webhook_that_keeps_failing_ends_failed_with_its_last_error(tmp_path: Path) -> None:
    async with receiving(status=503) as hook, watching(tmp_path) as (app, sim):
        assert app.watches is not None
        app.watches.sender.backoff_s = 0.0  # retry at once: the tries, not their spacing, are the point
        app.watches.sender.attempts = 3
        made = await app.run_operation(
            "watches.create", {**SEARCH, "every": "15s", "notify": {"webhook": hook.url}}
        )
        await finished_runs(app, made["watchId"], 1)
        sim.ctx.clock.advance(15)  # Nova Drones appears: run 2 has something to tell
        app.watches.wake()
        run = await webhook_settled(app, made["watchId"], 2, "failed")
    assert run["webhook"] == {"status": "failed", "attempts": 3, "lastError": "HTTP 503", "deliveredAt": None}
    assert run["notified"] is None and len(hook.got) == 3
    assert len({json.loads(body)["eventId"] for _, body in hook.got}) == 1  # one notice, tried three times


async def test_a_watchs_runs_count_against_its_owners_daily_cap(tmp_path: Path) -> None:
    db, base = tmp_path / "watches.db", time.time()
    async with held_sim(tmp_path) as sim:
        async with app_on(sim, db, base) as app:
            wid = (await app.run_operation("watches.create", {**SEARCH, "every": "15s"}))["watchId"]
            first = (await finished_runs(app, wid, 1))[0]
        # The same server again, now with a daily cap that today's first run has mostly used.
        async with app_on(sim, db, base, daily_budget_usd=first["costUsd"] * 1.5) as app:
            sim.ctx.clock.advance(15)
            assert app.watches is not None
            app.watches.wake()
            second = (await finished_runs(app, wid, 2))[1]
            child = await app.run_operation("tasks.get", {"taskId": second["taskId"]})
    assert second["status"] == "failed" and second["changed"] is None
    assert child["error"]["code"] == "BUDGET_EXCEEDED", child["error"]


async def test_watches_are_per_principal_and_pause_resume_delete(tmp_path: Path) -> None:
    async with watching(tmp_path) as (app, _sim):
        alice, bob = Principal("alice"), Principal("bob")
        made = await app.run_operation("watches.create", {**SEARCH, "every": "1d"}, principal=alice)
        wid = made["watchId"]
        assert "secret" not in made  # no webhook, no secret
        for op in ("watches.get", "watches.pause", "watches.resume", "watches.delete"):
            with pytest.raises(WatchNotFound):
                await app.run_operation(op, {"watchId": wid}, principal=bob)
        assert (await app.run_operation("watches.list", {}, principal=bob))["watches"] == []
        assert [
            w["watchId"] for w in (await app.run_operation("watches.list", {}, principal=alice))["watches"]
        ] == [wid]
        paused = await app.run_operation("watches.pause", {"watchId": wid}, principal=alice)
        assert paused["paused"] is True
        resumed = await app.run_operation("watches.resume", {"watchId": wid}, principal=alice)
        assert resumed["paused"] is False
        await app.run_operation("watches.delete", {"watchId": wid}, principal=alice)
        with pytest.raises(WatchNotFound):
            await app.run_operation("watches.get", {"watchId": wid}, principal=alice)


async def test_create_refuses_what_a_watch_cannot_do(tmp_path: Path) -> None:
    async with watching(tmp_path) as (app, _sim):
        refusals = [
            ({**SEARCH}, "exactly one of every and cron"),
            ({**SEARCH, "every": "10m", "cron": "* * * * *"}, "exactly one of every and cron"),
            ({**SEARCH, "every": "0.5s"}, "too often"),
            ({**SEARCH, "every": "soon"}, "not a period"),
            ({**SEARCH, "cron": "every day"}, "5-field cron"),
            ({**SEARCH, "every": "1m", "notify": {"webhook": "ftp://x.example/h"}}, "notify.webhook"),
            ({"type": "qd.harvest", "query": "robots", "known": "skip", "every": "1m"}, "skip"),
            ({"type": "no.such", "every": "1m"}, "no.such"),
        ]
        for args, said in refusals:
            with pytest.raises(InvalidParams) as caught:
                await app.run_operation("watches.create", args)
            assert said in str(caught.value) + str(caught.value.hint or ""), args
        made = await app.run_operation("watches.create", {**SEARCH, "cron": "0 9 * * 1"})
        assert made["cron"] == "0 9 * * 1"


def test_every_takes_units_or_seconds_and_is_a_minute_at_least_outside_the_simulator() -> None:
    assert [parse_every(v) for v in ("15s", "10m", "2h", "1d", 90)] == [15, 600, 7200, 86_400, 90]
    args = CreateArgs.model_validate({**SEARCH, "every": "30s"})
    assert period_s(args, simulator=True) == 30
    with pytest.raises(InvalidParams, match="too often"):
        period_s(args, simulator=False)
    assert period_s(CreateArgs.model_validate({**SEARCH, "every": "1m"}), simulator=False) == 60


def test_a_structured_answer_is_compared_field_by_field() -> None:
    before = snapshot({"result": {"ceo": "A", "round": "Series A", "peers": [{"name": "X", "size": 1}]}})
    after = snapshot(
        {"result": {"ceo": "A", "round": "Series B", "peers": [{"name": "X", "size": 2}, {"name": "Y"}]}}
    )
    assert diff(before, after) == {
        "added": ["peers/Y"],
        "gone": [],
        "changed": [
            {"entity": "output", "fields": {"round": {"was": "Series A", "now": "Series B"}}},
            {"entity": "peers/X", "fields": {"size": {"was": 1, "now": 2}}},
        ],
    }
    assert diff(before, before) == {"added": [], "gone": [], "changed": []}
