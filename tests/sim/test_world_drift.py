"""World files' page texts and drift (issue 35's one extension of the format): what a page says is
what /contents serves; drift adds entities and changes fields as the simulated clock runs; files
without either load as they always did."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from exa_orch.sim.context import SimConfig
from exa_orch.sim.testing import running_sim
from exa_orch.sim.world import World
from tests.support import WAIT

WORLD: dict[str, Any] = {
    "name": "drifting",
    "entities": [
        {"id": "acme", "name": "Acme Robotics", "url": "https://acme.example",
         "description": "Acme Robotics builds warehouse robots.",
         "text": "Acme Robotics builds warehouse robots. It raised a Series A in 2024 led by Example Ventures.",
         "criteria": {"Raised a Series B round": "no"}, "queries": ["robot makers"]},
        {"id": "zeta", "name": "Zeta Labs", "url": "https://zeta.example", "queries": ["robot makers"]},
    ],
    "drift": [
        {"at": 200, "entity": "acme", "set": {"criteria": {"Raised a Series B round": "yes"},
                                             "text": "Acme Robotics raised a $40M Series B in 2026."}},
        {"at": 100, "add": {"id": "nova", "name": "Nova Drones", "url": "https://nova.example",
                            "queries": ["robot makers"], "text": "Nova Drones came out of stealth."}},
    ],
}  # fmt: skip


def write(tmp_path: Path, data: Any) -> Path:
    path = tmp_path / "world.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


async def test_drift_adds_entities_and_changes_pages_as_the_clock_runs(tmp_path: Path) -> None:
    config = SimConfig(speed=1e-9, world_file=str(write(tmp_path, WORLD)))  # held from the start
    async with (
        running_sim(config) as sim,
        httpx.AsyncClient(base_url=sim.url, headers={"x-api-key": "t"}, timeout=WAIT) as http,
    ):

        async def found() -> list[str]:
            body = {"query": "robot makers", "numResults": 10}
            return [r["url"] for r in (await http.post("/search", json=body)).json()["results"]]

        async def page(url: str) -> str:
            got = (await http.post("/contents", json={"urls": [url], "text": True})).json()
            return str(got["results"][0]["text"])

        async def verdict() -> str:
            body = {
                "search": {
                    "query": "robot makers",
                    "count": 5,
                    "criteria": [{"description": "Raised a Series B round"}],
                }
            }
            ws = (await http.post("/websets/v0/websets", json=body)).json()
            store = sim.ctx.extras["websets"]
            [search] = [store.searches[s] for s in store.websets[ws["id"]].search_ids]
            acme = next(c for c in search.plan if c.entity.url == "https://acme.example")
            return str(acme.evaluations[0]["satisfied"])

        assert await found() == ["https://acme.example", "https://zeta.example"]
        assert "led by Example Ventures" in await page("https://acme.example")  # the page's own text
        assert await verdict() == "no"
        sim.ctx.clock.advance(100)
        assert await found() == ["https://acme.example", "https://zeta.example", "https://nova.example"]
        assert await page("https://nova.example") == "Nova Drones came out of stealth."
        assert await verdict() == "no"
        sim.ctx.clock.advance(100)
        assert await page("https://acme.example") == "Acme Robotics raised a $40M Series B in 2026."
        assert await verdict() == "yes"
    assert sim.ctx.world.drifted == 2 and sim.ctx.world.version == 2


async def test_drift_removes_a_page_and_no_search_finds_it_after(tmp_path: Path) -> None:
    world = {**WORLD, "drift": [{"at": 50, "remove": "zeta"}]}
    async with (
        running_sim(SimConfig(speed=1e-9, world_file=str(write(tmp_path, world)))) as sim,
        httpx.AsyncClient(base_url=sim.url, headers={"x-api-key": "t"}, timeout=WAIT) as http,
    ):

        async def found() -> list[str]:
            body = {"query": "robot makers", "numResults": 10}
            return [r["url"] for r in (await http.post("/search", json=body)).json()["results"]]

        assert await found() == ["https://acme.example", "https://zeta.example"]
        sim.ctx.clock.advance(50)
        assert await found() == ["https://acme.example"]
    assert all(e.attrs["entity"] != "zeta" for e in sim.ctx.world.entities)


@pytest.mark.parametrize(
    ("drift", "where"),
    [
        ({"at": 5}, "drift[0]: each event has one of 'add' (an entity), 'set' (fields) or 'remove'"),
        ({"at": 5, "remove": "acme", "set": {"name": "x"}, "entity": "acme"}, "each event has one of"),
        (
            {"at": 5, "remove": "ghost"},
            "drift[0]: 'remove' names an entity id or a page id; no such id 'ghost'",
        ),
        ({"at": -1, "set": {"name": "x"}, "entity": "acme"}, "drift[0]: 'at' must be a number"),
        ({"at": 1, "set": {"name": "x"}, "entity": "ghost"}, "no entity or page has the id 'ghost'"),
        ({"at": 1, "set": {"colour": "red"}, "page": "acme~1"}, "unknown field(s) colour"),
        ({"at": 1, "set": {"name": "x"}}, "names one 'entity' id or one 'page' id"),
        (
            {"at": 1, "add": {"name": "Acme Robotics", "url": "https://a2.example", "id": "acme"}},
            "appears twice",
        ),
        ({"at": 1, "add": {"url": "https://x.example"}}, "drift[0].add: each entity needs a 'name'"),
    ],
)
def test_a_broken_drift_is_refused_saying_where(tmp_path: Path, drift: dict[str, Any], where: str) -> None:
    with pytest.raises(ValueError) as info:
        World.from_file(write(tmp_path, {**WORLD, "drift": [drift]}))
    assert where in str(info.value)


def test_a_page_text_must_be_a_string(tmp_path: Path) -> None:
    bad = {"entities": [{"name": "A", "url": "https://a.example", "pages": [{"text": 3}]}]}
    with pytest.raises(ValueError, match=r"entities\[0\].pages\[0\]: 'text' must be a string"):
        World.from_file(write(tmp_path, bad))


def test_the_projects_world_files_load_as_before() -> None:
    """No drift, and each page says its description, as before the format grew."""
    worlds = sorted((Path(__file__).resolve().parents[2] / "exa_orch" / "evals" / "worlds").glob("*.json"))
    assert worlds
    for path in worlds:
        world = World.from_file(path)
        data = json.loads(path.read_text(encoding="utf-8"))
        pages = sum(len(e.get("pages") or [{}]) for e in data["entities"])
        assert len(world.entities) == pages and world.drift == []
        assert all(e.text == e.attrs["description"] for e in world.entities)
        assert world.drift_to(10**9) is False and world.version == 0
