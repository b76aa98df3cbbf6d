"""`/memory` in the web view: each principal sees its own entity memory (the local user also that of
tasks with no owner), never another's; `--all-owners` sees all of it with the owner shown."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from exa_orch.store import Store
from exa_orch.store.memory import EntityMemory
from exa_orch.view import ViewDB
from tests.store.test_memory import item, remember
from tests.view.conftest import target
from tests.view.test_ownership import ENV, client


@pytest.fixture
async def view(store: Store) -> AsyncIterator[ViewDB]:
    memory = EntityMemory(store)
    for who, name, url in [
        ("token:alice", "Alicecorp", "https://alicecorp.example"),
        ("token:bob", "Bobworks", "https://bobworks.example"),
        ("user:tester", "Localco", "https://localco.example"),
        ("", "Nobodyltd", "https://nobodyltd.example"),
    ]:
        await remember(memory, who, f"task_of_{who}", [item("i", name, url)])
    async with ViewDB(target(store)) as db:
        yield db


NAMES = {"Alicecorp", "Bobworks", "Localco", "Nobodyltd"}


def shown(html: str) -> set[str]:
    return {n for n in NAMES if n in html}


async def test_each_principal_sees_its_own_memory_only(view: ViewDB) -> None:
    async with client(view, ENV, token="tok-alice-123") as alice:
        page = await alice.get("/memory")
        assert page.status_code == 200 and shown(page.text) == {"Alicecorp"}
    async with client(view, ENV, token="tok-bob-456") as bob:
        assert shown((await bob.get("/memory")).text) == {"Bobworks"}
    local = {"EXA_ORCH_PRINCIPAL": "user:tester"}  # no tokens: loopback, the local user
    async with client(view, local) as c:
        assert shown((await c.get("/memory")).text) == {"Localco", "Nobodyltd"}
    async with client(view, local, all_owners=True) as operator:
        html = (await operator.get("/memory")).text
        assert shown(html) == NAMES and "token:bob" in html
