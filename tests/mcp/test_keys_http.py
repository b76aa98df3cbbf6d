"""Keys belong to their principal (issue 21), over streamable HTTP: `exa-orch serve --http` with a
bearer token each for six principals and no EXA_API_KEY, in front of a simulator that accepts only
their keys and records which key each request carried (a digest). One server serves the module:
a key is held per principal, and no two tests use the same principals, so each test meets its
principals keyless whatever ran before. Each person gives a key on the
key page through URL-mode elicitation; each one's Exa requests, their tasks' included, carry only
the key they gave; a principal who gave none is asked, and is never served with another's key; a
key Exa refuses is forgotten and asked for again; a link forwarded to another principal takes no key
from them."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import httpx2
import mcp_types as types
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from exa_orch.mcp.keypage import MAX_PROOF_TRIES
from exa_orch.sim.app import client_tag
from exa_orch.sim.context import SimConfig
from exa_orch.sim.testing import SimThread
from tests.support import WAIT

from .conftest import result_json
from .keys_support import KeyBrowser
from .tasks_support import RELATED, legacy_client
from .test_serve_http import http_server

pytestmark = pytest.mark.slow

ALICE, BOB, CAROL, DAVE, ERIN, FRANK = (
    "alice-bearer-0a1b2c3d",
    "bob-bearer-4e5f6a7b",
    "carol-bearer-8c9d0e1f",
    "dave-bearer-2a3b",
    "erin-bearer-5c6d7e8f",
    "frank-bearer-9a0b1c2d",
)
ALICE_KEY, BOB_KEY, CAROL_KEY, DAVE_KEY, FRANK_KEY = (
    "alice-exa-key-1111",
    "bob-exa-key-2222",
    "carol-exa-key-3333",
    "dave-exa-4444",
    "frank-exa-key-6666",
)
KEYS = (ALICE_KEY, BOB_KEY, CAROL_KEY, DAVE_KEY, FRANK_KEY)
# The server is told the URL is no simulator, so it makes up no key: as with real Exa.
ENV = {
    "EXA_ORCH_HTTP_TOKENS": f"alice={ALICE},bob={BOB},carol={CAROL},dave={DAVE},erin={ERIN},frank={FRANK}",
    "EXA_ORCH_SIMULATOR": "0",
}
TASK = {"type": "operation", "operation": "websets.list", "args": {"limit": 1}}


@pytest.fixture(scope="module")
def strict_sim() -> Iterator[SimThread]:
    with SimThread(SimConfig(speed=100.0, keys=frozenset(KEYS))) as sim:
        yield sim


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the module's server keeps its database and its log."""
    return tmp_path_factory.mktemp("keys")


@pytest.fixture(scope="module")
def url(strict_sim: SimThread, root: Path) -> Iterator[str]:
    """The module's server (one start-up, ~1 s of CPU, not one a test); its tests each use
    principals of their own, and every task they make ends before they do."""
    with http_server(strict_sim.url, root, **ENV) as (_, served):
        yield served


@asynccontextmanager
async def connect(url: str, token: str, browser: KeyBrowser | None = None) -> AsyncIterator[Client]:
    """A 2025-11-25 client sending `token`; with `browser`, it offers elicitation (form and URL)."""
    extra: dict[str, Any] = {}
    if browser is not None:
        extra = {"elicitation_callback": browser, "message_handler": browser.on_message}
    http = httpx2.AsyncClient(
        headers={"Authorization": f"Bearer {token}"}, timeout=httpx2.Timeout(30, read=120)
    )
    async with http, Client(streamable_http_client(url, http_client=http), mode="legacy", **extra) as client:
        yield client


async def run(client: Client, operation: str, args: dict[str, Any]) -> tuple[bool, Any]:
    result = await client.call_tool("manage_websets", {"operation": operation, "args": args})
    return bool(result.is_error), result_json(result)


class Requests:
    """The simulator's request log, read in slices: which keys the requests since the last look carried."""

    def __init__(self, sim: SimThread) -> None:
        self.sim = sim
        self.seen = len(sim.log())

    def since(self) -> list[str | None]:
        log = self.sim.log()
        new, self.seen = log[self.seen :], len(log)
        return [entry["client"] for entry in new]


def holding(root: Path, *secrets: str) -> list[str]:
    """The files under `root` (there must be a database among them) that hold one of `secrets`."""
    written = [p for p in root.rglob("*") if p.is_file()]
    assert any(p.name == "workflows.db" for p in written), written
    return [p.name for p in written if any(s.encode() in p.read_bytes() for s in secrets)]


async def test_each_principal_is_served_only_with_the_key_it_gave(
    strict_sim: SimThread, url: str, root: Path
) -> None:
    alice_tag, bob_tag = client_tag(ALICE_KEY), client_tag(BOB_KEY)
    requests = Requests(strict_sim)
    # Bob's client can't answer elicitation: told how to set a key, nothing is sent.
    async with connect(url, BOB) as bob:
        failed, body = await run(bob, "websets.list", {"limit": 1})
    assert failed and body["code"] == "CONFIG_ERROR" and "token:bob has given none" in body["message"]
    assert requests.since() == []

    # Alice is asked once, by a link, and her calls carry her key.
    alice_browser = KeyBrowser(ALICE_KEY, bearer=ALICE)
    async with connect(url, ALICE, alice_browser) as alice:
        failed, made = await run(alice, "websets.create", {"search": {"query": "AI labs", "count": 1}})
        assert not failed, made
        failed, listed = await run(alice, "websets.list", {"limit": 5})
        assert not failed, listed
    assert len(alice_browser.asked) == 1 and alice_browser.forms == []
    assert "token:alice" in alice_browser.pages[0]
    assert alice_browser.completed == [alice_browser.asked[0].elicitation_id]
    alice_requests = requests.since()
    assert alice_requests and set(alice_requests) == {alice_tag}

    # Bob, after Alice gave hers, is still not served with it: asked (he can't answer), refused.
    async with connect(url, BOB) as bob:
        failed, body = await run(bob, "websets.get", {"id": made["id"]})
    assert failed and body["code"] == "CONFIG_ERROR"
    assert requests.since() == []

    # Bob answers with a wrong key first: Exa refuses it, it is forgotten, he is asked again.
    bob_browser = KeyBrowser("bob-mistyped-key", BOB_KEY, bearer=BOB)
    async with connect(url, BOB, bob_browser) as bob:
        failed, listed = await run(bob, "websets.list", {"limit": 1})
        assert not failed, listed
    assert len(bob_browser.asked) == 2 and "refused" in bob_browser.asked[1].message
    assert requests.since() == [client_tag("bob-mistyped-key"), bob_tag]

    # A task runs with its owner's key: Alice's task carries hers, Bob's his, whoever calls next.
    async with connect(url, ALICE) as alice, connect(url, BOB) as bob:
        _, alices_task = await run(alice, "tasks.create", TASK)
        failed, done = await run(alice, "tasks.result", {"taskId": alices_task["taskId"], "wait": 30})
        assert not failed and done["status"] == "completed", done
        assert set(requests.since()) == {alice_tag}
        _, bobs_task = await run(bob, "tasks.create", TASK)
        failed, done = await run(bob, "tasks.result", {"taskId": bobs_task["taskId"], "wait": 30})
        assert not failed and done["status"] == "completed", done
        assert set(requests.since()) == {bob_tag}

    log = (root / "stderr.log").read_text()
    for secret in (*KEYS, "bob-mistyped-key"):
        assert secret not in log
    # Held in memory only: no file the server wrote (the database, its WAL, the log) holds a key.
    assert holding(root, *KEYS, "bob-mistyped-key") == []


async def test_a_task_runs_with_its_owners_key_asked_for_when_it_is_made(
    strict_sim: SimThread, url: str
) -> None:
    requests = Requests(strict_sim)
    # Carol gave no key and can't be asked: her task waits for one (input_required), unsent,
    # and tasks.result says so, with what to do (seed 000 section 6.5's shape).
    async with connect(url, CAROL) as carol:
        _, first = await run(carol, "tasks.create", TASK)
        failed, waiting = await run(carol, "tasks.result", {"taskId": first["taskId"], "wait": 30})
    assert not failed and waiting["status"] == "input_required", waiting
    assert waiting["inputRequired"]["error"] == "input_required" and waiting["inputRequired"]["retryWith"]
    assert requests.since() == []
    # With a client that can ask, tasks.create asks her first; the task's run carries her key,
    # and the task that waited for one resumes with it too.
    browser = KeyBrowser(CAROL_KEY, bearer=CAROL)
    async with connect(url, CAROL, browser) as carol:
        _, task = await run(carol, "tasks.create", TASK)
        assert len(browser.asked) == 1
        failed, done = await run(carol, "tasks.result", {"taskId": task["taskId"], "wait": 30})
        assert not failed and done["status"] == "completed", done
        failed, done = await run(carol, "tasks.result", {"taskId": first["taskId"], "wait": 30})
    assert not failed and done["status"] == "completed", done
    assert set(requests.since()) == {client_tag(CAROL_KEY)}


async def test_a_task_augmented_call_waits_for_its_keyless_owner_who_is_asked(
    strict_sim: SimThread, url: str
) -> None:
    requests = Requests(strict_sim)
    browser = KeyBrowser(DAVE_KEY, bearer=DAVE)
    http = httpx2.AsyncClient(
        headers={"Authorization": f"Bearer {DAVE}"}, timeout=httpx2.Timeout(30, read=120)
    )
    async with http, streamable_http_client(url, http_client=http) as (read, write):
        async with legacy_client(read, write, browser) as dave:
            created = await dave.call_task(
                "manage_websets", {"operation": "websets.list", "args": {"limit": 1}}
            )
            # Made at once; its run waits for Dave's key (input_required) and Dave is asked, tied
            # to the task; given, the task resumes and completes.
            result = await dave.result(created["task"]["taskId"])
    assert len(browser.asked) == 1
    assert browser.asked[0].meta == {RELATED: {"taskId": created["task"]["taskId"]}}
    assert not result.is_error, result
    assert set(requests.since()) == {client_tag(DAVE_KEY)}


class ForwardedLink(KeyBrowser):
    """Erin's client, whose link Erin forwards to Frank (phishing): he opens it and pastes his own
    key, with his own exa-orch token, until the page closes the link; Erin's client says it accepted."""

    def __init__(self) -> None:
        super().__init__()
        self.answers: list[int] = []

    async def __call__(self, ctx: Any, params: Any) -> Any:
        self.asked.append(params)
        token = params.url.rsplit("/", 1)[1]
        async with httpx.AsyncClient(timeout=WAIT) as http:
            self.pages.append((await http.get(params.url)).text)
            for _ in range(MAX_PROOF_TRIES):
                posted = await http.post(
                    params.url, data={"token": token, "apiKey": FRANK_KEY, "principalToken": FRANK}
                )
                self.answers.append(posted.status_code)
        return types.ElicitResult(action="accept")


async def test_a_link_forwarded_to_another_principal_takes_no_key_from_them(
    strict_sim: SimThread, url: str
) -> None:
    requests = Requests(strict_sim)
    forwarded = ForwardedLink()
    async with connect(url, ERIN, forwarded) as erin:
        failed, body = await run(erin, "websets.list", {"limit": 1})
    assert len(forwarded.asked) == 1 and "exa-orch token" in forwarded.asked[0].message
    assert "token:erin" in forwarded.pages[0] and 'name="principalToken"' in forwarded.pages[0]
    assert forwarded.answers == [403] * MAX_PROOF_TRIES
    assert failed and body["code"] == "CONFIG_ERROR", body
    assert requests.since() == []  # Erin was never served with Frank's key (nor with any)
    # Frank's own link, answered by him, still works.
    frank_browser = KeyBrowser(FRANK_KEY, bearer=FRANK)
    async with connect(url, FRANK, frank_browser) as frank:
        failed, listed = await run(frank, "websets.list", {"limit": 1})
    assert not failed, listed
    assert set(requests.since()) == {client_tag(FRANK_KEY)}
