"""Issue 40: every citation of a result checked against its page, read through Exa's /contents.

The matcher on its own (exact, near-exact, too weak a paraphrase, a changed figure), what a result
cites, and on the simulator: the acceptance world (200 citations, 20 seeded wrong, 10 copies of
articles), the budget and the page cap, a restarted task, an unreachable page and the opt-out."""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from exa_orch.app import open_app
from exa_orch.config import Settings
from exa_orch.exa.models import Contents
from exa_orch.gateway import prices
from exa_orch.gateway.context import current_request
from exa_orch.operations.export import export_of
from exa_orch.sim.billing import Billing
from exa_orch.sim.context import SimConfig
from exa_orch.sim.testing import SimHandle, running_sim
from exa_orch.sim.world import World
from exa_orch.workflows import citations
from exa_orch.workflows.cite_match import match, page_key
from tests.support import WAIT, until_steps
from tests.workflows import citation_world
from tests.workflows.conftest import OpenApp, run_task

MODULE = "tests.workflows.cite_workflows"
PAGE = (
    "Nova Labs is a fintech company in Berlin. It raised $15M in a Series A round in 2023. "
    "The team has 40 engineers building payment rails for small shops."
)

# -- the matcher -----------------------------------------------------------------------------------

# How far a lapsed run's fence clock is moved on: past any lease, so its next request is refused
# (a clock jump, not a wait).
STOOD_STILL = 100.0


def test_a_verbatim_quote_is_supported_with_its_sentence_as_the_passage() -> None:
    found = match("It raised $15M in a Series A round in 2023.", PAGE)
    assert (found.status, found.score) == ("supported", 100.0)
    assert found.passage == "It raised $15M in a Series A round in 2023."


@pytest.mark.parametrize(
    "quote",
    [
        "it raised $15m in a series a round in 2023",  # case, no full stop
        "\u201cThe team has 40 engineers building payment rails for small shops\u201d",  # quotes
        "The team has 40 engineers building payment rails for small stores.",  # one word
    ],
)
def test_a_near_exact_quote_is_supported(quote: str) -> None:
    assert match(quote, PAGE).status == "supported"


@pytest.mark.parametrize(
    "quote",
    [
        "Nova Labs secured a Series A of fifteen million dollars two years ago.",  # a paraphrase
        "The company employs 40 engineers who build payment infrastructure for small businesses.",
        "It raised $40M in a Series A round in 2023.",  # a changed figure
        "Argo Pay is a payments bank based in Oslo.",  # another page's sentence
    ],
)
def test_a_paraphrase_or_another_claim_is_not_found_with_the_closest_passage(quote: str) -> None:
    found = match(quote, PAGE)
    assert found.status == "not_found" and found.score < 90
    assert found.passage and found.passage in PAGE


def test_a_synthesised_answer_is_supported_by_each_page_for_its_own_part() -> None:
    answer = (
        "For 'fintech', the sources say: [1] Nova Labs (https://novalabs.io): Nova Labs is a fintech "
        "company in Berlin. [2] Argo Pay (https://argo.io): Argo Pay is a payments bank in Oslo."
    )
    assert match(answer, PAGE).passage == "Nova Labs is a fintech company in Berlin."
    assert match(answer, "Argo Pay is a payments bank in Oslo. It has 12 staff.").status == "supported"
    assert match(answer, "Vertex Bio makes vaccines. It is in Lyon.").status == "not_found"


def test_copies_of_a_page_are_one_source() -> None:
    assert page_key(PAGE) == page_key("  " + PAGE.upper().replace(" ", "\n", 3))
    assert page_key(PAGE) != page_key(PAGE.replace("$15M", "$16M"))


def test_contents_statuses_make_a_page_unreachable_and_a_read_one_judged() -> None:
    answer = {
        "results": [{"id": "https://a.io/", "url": "https://a.io/", "text": PAGE}],
        "statuses": [
            {"id": "https://a.io/", "status": "success"},
            {
                "id": "https://b.io/",
                "status": "error",
                "error": {"tag": "CRAWL_TIMEOUT", "httpStatusCode": None},
            },
        ],
    }
    pages = citations._pages_of(
        Contents.model_validate(answer), ["https://a.io/", "https://b.io/", "https://c.io/"]
    )
    assert pages["https://a.io/"] == {"status": "success", "text": PAGE}
    assert pages["https://b.io/"] == {"status": "error", "error": "CRAWL_TIMEOUT"}
    assert pages["https://c.io/"] == {"status": "error", "error": "NO_TEXT"}  # neither read nor refused
    quote = "It raised $15M in a Series A round in 2023."
    judged = {u: citations._judged(p, [quote]) for u, p in pages.items()}
    cited = [
        citations.Cited("f", u, quote, item_id="i")
        for u in ("https://a.io/", "https://b.io/", "https://c.io/")
    ]
    checks = [citations._verdict(c, judged[c.url], {}) for c in cited]
    assert [c["status"] for c in checks] == ["supported", "unreachable", "unreachable"]
    assert checks[1]["error"] == "CRAWL_TIMEOUT" and "text" not in judged["https://a.io/"]


def test_a_tidied_url_is_read_by_its_place_and_an_untagged_error_is_unknown() -> None:
    """/contents read through the port's `Contents`: a result whose url and id Exa tidied is the
    page of the URL in its place among those read; an error without a tag is CRAWL_UNKNOWN_ERROR.
    The pages are the JSON a `citations.pages:N` checkpoint has always judged and kept."""
    answer = Contents.model_validate({
        "results": [{"id": "https://d.io/", "url": "https://d.io/", "text": PAGE, "title": "D"}],
        "statuses": [{"id": "https://d.io/?utm=1", "status": "success"},
                     {"id": "https://e.io/", "status": "error"}],
        "costDollars": {"total": 0.001},
    })  # fmt: skip
    pages = citations._pages_of(answer, ["https://d.io/?utm=1", "https://e.io/"])
    assert pages == {
        "https://e.io/": {"status": "error", "error": "CRAWL_UNKNOWN_ERROR"},
        "https://d.io/?utm=1": {"status": "success", "text": PAGE},
    }
    saved = json.loads(json.dumps(citations._judged(pages["https://d.io/?utm=1"], ["raised $15M"])))
    assert set(saved) == {"status", "source", "found"} and saved["source"] == page_key(PAGE)


# -- what a result cites ---------------------------------------------------------------------------


def test_citations_are_collected_from_items_groundings_and_syntheses() -> None:
    item = {
        "id": "i1",
        "evaluations": [
            {"criterion": "Is fintech", "references": [{"url": "https://a.io", "snippet": "A."}]}
        ],
        "enrichments": [
            {"enrichmentId": "e1", "result": ["40"], "references": [{"url": "https://a.io/team"}]}
        ],
    }
    deep = {
        "result": {"companies": [{"name": "Nova Labs"}]},
        "citations": [{"field": "companies[0].name", "urls": ["https://novalabs.io"]}],
    }
    synthesis = {
        "keySupporting": ["It grew."],
        "citations": [{"field": "keySupporting[0]", "urls": ["https://b.io"]}],
    }
    cited = citations.collect({"items": [item, item], "deep": deep, "synthesis": synthesis})
    assert [(c.field, c.url, c.snippet, c.item_id or c.claim) for c in cited] == [
        ("criterion: Is fintech", "https://a.io", "A.", "i1"),
        ("enrichment: e1", "https://a.io/team", "40", "i1"),  # no snippet: the answer is the claim
        ("companies[0].name", "https://novalabs.io", "Nova Labs", "companies[0].name"),
        ("keySupporting[0]", "https://b.io", "It grew.", "keySupporting[0]"),
    ]


# -- on the simulator ------------------------------------------------------------------------------


def contents_calls(sim: SimHandle) -> int:
    return int(sim.stats()["requests_by_endpoint"].get("POST /contents", 0))


async def ledger(db: Path, task_id: str) -> list[tuple[str, float, int]]:
    with sqlite3.connect(db) as conn:
        rows = conn.execute(
            "SELECT step_key, usd, billed FROM v_costs WHERE task_id = ? AND operation LIKE '%contents%'",
            (task_id,),
        ).fetchall()
    return [(str(s), float(u), int(b)) for s, u, b in rows]


async def test_the_acceptance_world_flags_the_seeded_citations_and_counts_copies_once(tmp_path: Path) -> None:
    world, truth = citation_world.build()
    path = tmp_path / "world.json"
    path.write_text(json.dumps(world), encoding="utf-8")
    args = {
        "query": citation_world.QUERY,
        "entity": {"type": "company"},
        "criteria": [{"description": citation_world.CRITERION}],
        "count": 200,
        "citationPages": 250,
        "budgetUsd": 25.0,
    }
    async with running_sim(SimConfig(world_file=str(path), speed=1000.0)) as sim:
        db = tmp_path / "workflows.db"
        config = Settings(exa_url=sim.url, simulator=True, db_path=db, rps=1000.0, concurrency=8)
        async with open_app(config, db) as app:
            done = await run_task(app, "lifecycle.harvest", args, within=WAIT)
            got = await app.run_operation("tasks.get", {"task_id": done.id})
        billed: Billing = sim.ctx.extras["billing"]
    assert done.status == "completed", done.error
    check = done.result["citationCheck"]
    verdicts = {c["url"]: c["status"] for c in check["checks"]}
    assert len(verdicts) == 200 == len(truth["truth"])
    seeded = [u for u, t in truth["truth"].items() if t == "unsupported"]
    honest = [u for u, t in truth["truth"].items() if t == "supported"]
    caught = sum(1 for u in seeded if verdicts[u] == "not_found")
    false_flags = sum(1 for u in honest if verdicts[u] != "supported")
    print(f"seeded caught {caught}/20, supported flagged {false_flags}/180, summary {check['citations']}")
    assert caught >= 19 and false_flags <= 4
    # The 10 wire copies are the same article: one source, their citations counted once.
    assert check["pages"] == {"fetched": 200, "sources": 190, "copies": 10, "cap": 250, "costUsd": 0.2}
    assert check["citations"]["checked"] == 190
    copies = {c["url"]: c.get("copyOf") for c in check["checks"] if c["url"] in truth["copies"]}
    assert copies == truth["copies"]
    assert {f.get("at") for f in check["flaggedFields"]} <= {c["itemId"] for c in check["checks"]}
    assert len(check["flaggedFields"]) == check["citations"]["notFound"]
    # The pages are in the ledger, at what Exa billed, and the task stayed within its budget.
    rows = await ledger(tmp_path / "workflows.db", done.id)
    assert {s for s, _, _ in rows} == {f"citations.pages:{n}" for n in range(8)}
    assert sum(u for _, u, _ in rows) == pytest.approx(200 * prices.CONTENT_PER_PAGE)
    assert all(b == 1 for _, _, b in rows)
    assert got["cost"]["usd"] <= 25.0 and billed.spent <= 25.0


async def test_a_budget_that_pays_for_ten_pages_leaves_the_rest_unchecked(
    research_app: OpenApp, sim: SimHandle, tmp_path: Path
) -> None:
    urls = [e.url for e in World.seeded(42).of_kind("company")[:30]]
    async with research_app(MODULE) as app:
        done = await run_task(app, "test.cites", {"urls": urls, "budgetUsd": 0.0105}, within=WAIT)
        got = await app.run_operation("tasks.get", {"task_id": done.id})
    assert done.status == "completed", done.error
    check = done.result["citationCheck"]
    assert check["citations"] == {
        "checked": 10,
        "supported": 10,
        "notFound": 0,
        "unreachable": 0,
        "unchecked": 20,
    }
    assert "20 citations unchecked: the task's budget could pay for no more" in check["note"]
    assert [c["status"] for c in check["checks"]] == ["supported"] * 10 + ["unchecked"] * 20
    rows = await ledger(tmp_path / "workflows.db", done.id)
    assert [s for s, _, _ in rows] == ["citations.pages:0"]
    assert got["cost"]["usd"] == pytest.approx(0.01) and got["cost"]["usd"] <= 0.0105


async def test_the_page_cap_is_kept_and_priced_in_the_preview(research_app: OpenApp, sim: SimHandle) -> None:
    urls = [e.url for e in World.seeded(42).of_kind("company")[:30]]
    async with research_app(MODULE) as app:
        deep = {"type": "research.deep", "instructions": "fintech", "citationPages": 40, "preview": True}
        preview = await app.run_operation("tasks.create", deep)
        done = await run_task(app, "test.cites", {"urls": urls, "citationPages": 12}, within=WAIT)
    [part] = [p for p in preview["cost"]["parts"] if "citation" in p["what"]]
    assert (part["count"], part["eachUsd"], part["certain"]) == (40, prices.CONTENT_PER_PAGE, False)
    check = done.result["citationCheck"]
    assert check["pages"]["fetched"] == 12 and check["citations"]["unchecked"] == 18
    assert "the cap of 12 pages was reached" in check["note"]


async def test_unreachable_pages_and_quotes_not_on_the_page(research_app: OpenApp, sim: SimHandle) -> None:
    urls = [World.seeded(42).of_kind("company")[0].url, "https://nowhere.example.org/gone"]
    async with research_app(MODULE) as app:
        done = await run_task(
            app, "test.cites", {"urls": urls, "quote": "It sells boats in Peru."}, within=WAIT
        )
    check = done.result["citationCheck"]
    first, gone = check["checks"]
    assert first["status"] == "not_found" and first["passage"] and first["score"] < 90
    assert gone["status"] == "unreachable" and gone["error"] == "CRAWL_NOT_FOUND"
    assert check["citations"] == {
        "checked": 2,
        "supported": 0,
        "notFound": 1,
        "unreachable": 1,
        "unchecked": 0,
    }
    assert check["flaggedFields"] == [{"field": "criterion: Is cited", "at": "item_0"}]


async def test_an_export_gives_each_row_its_citation_status(research_app: OpenApp, sim: SimHandle) -> None:
    urls = [World.seeded(42).of_kind("company")[0].url, "https://nowhere.example.org/gone"]
    async with research_app(MODULE) as app:
        checked = await run_task(app, "test.cites", {"urls": urls}, within=WAIT)
        plain = await run_task(app, "test.cites", {"urls": urls, "verifyCitations": False}, within=WAIT)
    rows = [json.loads(line) for line in export_of(checked, "jsonl").data.decode().splitlines()]
    assert [r["citationStatus"] for r in rows] == ["supported", "unreachable"]
    assert "1 supported, 0 not found, 1 unreachable" in export_of(checked, "md").data.decode()
    unchecked = export_of(plain, "jsonl").data.decode().splitlines()
    assert [json.loads(line)["citationStatus"] for line in unchecked] == [None, None]
    assert "were not checked against their pages" in export_of(plain, "md").data.decode()


async def test_verify_citations_false_fetches_nothing(research_app: OpenApp, sim: SimHandle) -> None:
    urls = [e.url for e in World.seeded(42).of_kind("company")[:3]]
    async with research_app(MODULE) as app:
        done = await run_task(app, "test.cites", {"urls": urls, "verifyCitations": False}, within=WAIT)
    assert done.status == "completed" and "citationCheck" not in done.result
    assert contents_calls(sim) == 0


async def test_a_restarted_task_reads_its_pages_from_its_checkpoints(
    research_app: OpenApp, sim: SimHandle, tmp_path: Path
) -> None:
    urls = [e.url for e in World.seeded(42).of_kind("company")[:30]]  # two batches: 25 and 5
    gate = tmp_path / "gate"
    async with research_app(MODULE) as app:
        created = await app.run_operation(
            "tasks.create", {"type": "test.cites.gated", "urls": urls, "gate": str(gate)}
        )
        task_id = created["taskId"]
        await until_steps(app.store, task_id, "citations.pages:0", "citations.pages:1")
    assert contents_calls(sim) == 2
    # A crash after the second batch was read and before its checkpoint: drop that checkpoint.
    with sqlite3.connect(tmp_path / "workflows.db") as db:
        db.execute("DELETE FROM task_steps WHERE task_id = ? AND step_key = 'citations.pages:1'", (task_id,))
    gate.touch()
    async with research_app(MODULE) as app:
        assert app.supervisor is not None
        done = await app.supervisor.tasks.wait(task_id, timeout=WAIT)
    assert done.status == "completed", done.error
    assert contents_calls(sim) == 3  # the second batch again, never the first
    assert done.result["citationCheck"]["citations"]["supported"] == 30
    rows = await ledger(tmp_path / "workflows.db", task_id)
    assert sorted(s for s, _, _ in rows) == ["citations.pages:0", "citations.pages:1", "citations.pages:1"]


@pytest.mark.parametrize("stop_in", ["citations.quotes", "citations.pages:1"])
async def test_a_lease_lapsed_in_the_citation_check_resumes_to_the_whole_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, stop_in: str
) -> None:
    """The CI failure: a harvest's run lost its lease inside its citation check (its request to Exa
    refused unsent, which the check took for a webset gone or a page unread), and its resumed run
    completed with the check's work lost. Here the process "stops" for 100 s as the step `stop_in`
    reads Exa (its fence's clock jumps, as test_lease_fence's do): the run ends unwritten, the next
    one checks every citation of the 30 items, as an uninterrupted run does."""
    world, _ = citation_world.build()
    path = tmp_path / "world.json"
    path.write_text(json.dumps(world), encoding="utf-8")
    pages = {p["url"]: p for e in world["entities"] for p in e["pages"]}
    port_of = citations.exa_port_of
    stopped: list[str] = []

    def stop_in_step(deps: Any) -> Any:
        scope = current_request()
        if scope.step == stop_in and not stopped and scope.fence is not None:
            stopped.append(scope.task_id or "")
            scope.fence.clock = lambda: time.monotonic() + STOOD_STILL  # this run's process stood still
        return port_of(deps)

    monkeypatch.setattr(citations, "exa_port_of", stop_in_step)
    args = {"query": citation_world.QUERY, "entity": {"type": "company"},
            "criteria": [{"description": citation_world.CRITERION}], "count": 30}  # fmt: skip
    async with running_sim(SimConfig(world_file=str(path), speed=1000.0)) as sim:
        db = tmp_path / "workflows.db"
        config = Settings(exa_url=sim.url, simulator=True, db_path=db, rps=1000.0, concurrency=8)
        async with open_app(config, db) as app:
            done = await run_task(app, "lifecycle.harvest", args, within=WAIT)
            assert app.supervisor is not None
            runs = app.supervisor.started_total
    assert stopped == [done.id] and runs == 2  # the lapsed run, then the resumed one
    assert done.status == "completed", done.error
    check = done.result["citationCheck"]
    assert len(check["checks"]) == done.result["itemCount"] == 30
    for c in check["checks"]:  # each citation's quote judged on its page, none lost or unread
        page = pages[c["url"]]
        assert c["snippet"] == page["quote"]
        assert c["status"] == match(page["quote"], page["text"]).status
    assert check["pages"]["fetched"] == 30 and check["citations"]["unchecked"] == 0
    assert check["citations"]["unreachable"] == 0
    rows = await ledger(db, done.id)
    assert sorted(s for s, _, _ in rows) == ["citations.pages:0", "citations.pages:1"]  # none read twice
