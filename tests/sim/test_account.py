"""The simulator's account file (sim/account.py): a restarted simulator has every object, id and
the clock of the one before; another world starts a fresh account."""

from __future__ import annotations

from pathlib import Path

import httpx

from exa_orch.sim.context import SimConfig
from exa_orch.sim.testing import running_sim

KEY = {"x-api-key": "test-key"}
BODY = {"search": {"query": "AI startups in Europe", "count": 3}, "externalId": "mine-1"}


async def test_a_restarted_simulator_has_the_account_of_the_one_before(tmp_path: Path) -> None:
    account = tmp_path / "workflows.db.sim-account"
    async with running_sim(SimConfig(speed=50.0, account_file=str(account))) as sim:
        async with httpx.AsyncClient(base_url=sim.url, headers=KEY) as client:
            made = (await client.post("/websets/v0/websets", json=BODY)).raise_for_status().json()
            run = (await client.post("/agent/runs", json={"query": "AI chips"})).raise_for_status().json()
        clock_then = sim.ctx.clock.now()
    assert account.is_file()  # written before the answer left, so a kill -9 right after keeps it

    async with running_sim(SimConfig(speed=50.0, account_file=str(account))) as sim:
        assert sim.ctx.clock.now() >= clock_then  # time never goes back across a restart
        async with httpx.AsyncClient(base_url=sim.url, headers=KEY) as client:
            again = (await client.get(f"/websets/v0/websets/{made['id']}")).raise_for_status().json()
            by_external = await client.get("/websets/v0/websets/mine-1")
            twice = await client.post("/websets/v0/websets", json=BODY)
            got_run = (await client.get(f"/agent/runs/{run['id']}")).raise_for_status().json()
            other = (await client.post("/websets/v0/websets", json={"search": BODY["search"]})).json()
    assert again["id"] == made["id"] and by_external.json()["id"] == made["id"]
    assert twice.status_code == 409  # the externalId is still taken: a retried create finds it
    assert got_run["id"] == run["id"]
    assert other["id"] != made["id"]  # the id generator went on where it was, no id handed out twice


async def test_another_world_starts_a_fresh_account_and_keeps_the_old_file(tmp_path: Path) -> None:
    account = tmp_path / "workflows.db.sim-account"
    async with running_sim(SimConfig(seed=42, account_file=str(account))) as sim:
        async with httpx.AsyncClient(base_url=sim.url, headers=KEY) as client:
            made = (await client.post("/websets/v0/websets", json=BODY)).raise_for_status().json()
    async with running_sim(SimConfig(seed=7, account_file=str(account))) as sim:
        async with httpx.AsyncClient(base_url=sim.url, headers=KEY) as client:
            assert (await client.get(f"/websets/v0/websets/{made['id']}")).status_code == 404
            assert (await client.get("/websets/v0/websets")).json()["data"] == []
    assert (tmp_path / "workflows.db.sim-account.old").is_file()


async def test_an_unreadable_account_file_starts_a_fresh_account(tmp_path: Path) -> None:
    account = tmp_path / "workflows.db.sim-account"
    account.write_bytes(b"not a simulator account")
    async with running_sim(SimConfig(account_file=str(account))) as sim:
        async with httpx.AsyncClient(base_url=sim.url, headers=KEY) as client:
            assert (await client.get("/websets/v0/websets")).json()["data"] == []
            (await client.post("/websets/v0/websets", json=BODY)).raise_for_status()
    assert (tmp_path / "workflows.db.sim-account.old").read_bytes() == b"not a simulator account"
    async with running_sim(SimConfig(account_file=str(account))) as sim:
        async with httpx.AsyncClient(base_url=sim.url, headers=KEY) as client:
            assert len((await client.get("/websets/v0/websets")).json()["data"]) == 1


async def test_two_simulators_on_one_file_share_one_account(tmp_path: Path) -> None:
    account = tmp_path / "workflows.db.sim-account"
    config = SimConfig(speed=50.0, account_file=str(account))
    async with (
        running_sim(config) as one,
        running_sim(SimConfig(speed=50.0, account_file=str(account))) as two,
    ):
        async with (
            httpx.AsyncClient(base_url=one.url, headers=KEY) as a,
            httpx.AsyncClient(base_url=two.url, headers=KEY) as b,
        ):
            assert (await b.get("/websets/v0/websets")).json()["data"] == []  # both up, account empty
            made = (await a.post("/websets/v0/websets", json=BODY)).raise_for_status().json()
            seen = (await b.get(f"/websets/v0/websets/{made['id']}")).raise_for_status().json()
            twice = await b.post("/websets/v0/websets", json=BODY)  # the externalId is taken there too
            other = (await b.post("/websets/v0/websets", json={"search": BODY["search"]})).json()
            listed = (await a.get("/websets/v0/websets")).json()["data"]
            clock_b = two.ctx.clock.now()
            again = (await a.get(f"/websets/v0/websets/{other['id']}")).raise_for_status().json()
    assert seen["id"] == made["id"] and twice.status_code == 409
    assert other["id"] != made["id"] and again["id"] == other["id"]  # no id handed out twice
    assert {w["id"] for w in listed} == {made["id"], other["id"]}
    assert one.ctx.clock.now() >= clock_b  # one clock: a read moved the other's on to it
