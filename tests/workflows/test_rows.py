"""workflows/rows.py: the row model's adapters (hand-made items and outputs), then the chunked agent
collection on the simulator (a small workflow registered here)."""

from __future__ import annotations

import time
from typing import Any

from exa_py.agent.types import AgentGroundingEntry
from pydantic import BaseModel

from exa_orch.runtime import TaskContext
from exa_orch.sim.testing import SimHandle
from exa_orch.workflows import WorkflowSpec, entities, kit, rows
from tests.workflows.conftest import OpenApp, agent_runs, run_task

CRITERIA = ["Builds software", "Based in Europe"]
ITEM: dict[str, Any] = {
    "id": "witem_1",
    "properties": {
        "type": "company", "url": "https://acme.example", "description": "Acme builds tools",
        "company": {"name": "Acme"},
    },
    "evaluations": [
        {"criterion": "Builds software", "satisfied": "yes", "reasoning": "its site says so",
         "references": [{"url": "https://acme.example/about", "title": "About"}]},
        {"criterion": "Based in Europe", "satisfied": "unclear", "reasoning": None, "references": []},
    ],
    "enrichments": [
        {"enrichmentId": "wenr_a", "status": "completed", "result": ["120"],
         "references": [{"url": "https://acme.example/team"}]},
        {"enrichmentId": "wenr_v", "status": "completed", "result": ["no"], "references": []},
        {"enrichmentId": "wenr_b", "status": "pending", "result": None},
    ],
}  # fmt: skip


def test_a_webset_item_becomes_a_row_with_verdicts_evidence_and_cited_fields() -> None:
    row = rows.from_item(ITEM, CRITERIA)
    assert (row.engine, row.name, row.url, row.type) == ("websets", "Acme", "https://acme.example", "company")
    assert [(v.verdict, v.evidence) for v in row.verdicts] == [
        ("yes", ["https://acme.example/about"]), ("unclear", [])
    ]  # fmt: skip
    # a result not completed is no field; references are the field's citations
    assert row.fields == [
        rows.RowField(name="wenr_a", value="120", citations=["https://acme.example/team"]),
        rows.RowField(name="wenr_v", value="no", citations=[]),
    ]
    assert rows.as_item(row) == ITEM  # a webset row's item, untouched
    # verdicts from yes/no enrichments (the Websets engine's niche axes), the others named fields
    by_enrichment = rows.from_item(ITEM, CRITERIA, {"Based in Europe": "wenr_v"}, {"wenr_a": "field0"})
    assert [v.verdict for v in by_enrichment.verdicts] == ["unclear", "no"]
    assert by_enrichment.fields == [
        rows.RowField(name="field0", value="120", citations=["https://acme.example/team"])
    ]
    yes = [rows.Verdict(criterion=c, verdict="yes") for c in CRITERIA]
    assert not rows.passes(row) and rows.passes(row.model_copy(update={"verdicts": yes}))


def test_an_agent_output_becomes_rows_with_the_same_item_view() -> None:
    output = {"rows": [
        {"name": "Acme", "url": "https://acme.example", "description": "tools", "criterion0": "yes",
         "criterion1": "maybe", "field0": 120},
        "not a row",
        {"name": "Globex", "url": "", "criterion0": "No", "criterion1": "unclear", "field0": ""},
    ]}  # fmt: skip
    grounding = [
        AgentGroundingEntry.model_validate(g)
        for g in [
            {"field": "rows[0].field0", "citations": [{"url": "https://acme.example/team"}]},
            {"field": "rows[0].criterion0", "citations": [{"url": "https://acme.example/about"}]},
        ]
    ]
    got = rows.from_agent("run_1", output, CRITERIA, 1, "company", grounding)
    assert [r.id for r in got] == ["run_1:0", "run_1:2"]  # ids keep the row's place
    acme, globex = got
    assert [v.verdict for v in acme.verdicts] == ["yes", "unclear"]
    assert [v.verdict for v in globex.verdicts] == ["no", "unclear"]
    assert acme.verdicts[0].evidence == ["https://acme.example/about"]
    assert acme.fields == [rows.RowField(name="field0", value="120", citations=["https://acme.example/team"])]
    assert acme.run is not None and acme.run.row["field0"] == 120  # the user's fields, as returned
    assert globex.url is None and globex.fields[0].value is None
    item = rows.as_item(acme, ["wenr_a"])
    # the Websets shape: what results return and entities.resolve reads
    assert item["properties"] == {"type": "company", "url": "https://acme.example", "description": "tools",
                                  "company": {"name": "Acme"}}  # fmt: skip
    assert [e["satisfied"] for e in item["evaluations"]] == ["yes", "unclear"]
    assert item["enrichments"][0]["enrichmentId"] == "wenr_a" and item["enrichments"][0]["result"] == ["120"]
    assert entities.entity_key(item) == entities.entity_key(ITEM)  # one company on both engines


def test_the_rows_schema_and_the_all_of_query() -> None:
    schema = rows.rows_schema(
        CRITERIA, [kit.EnrichmentArg(description="Employees", format="number")], 4, "company"
    )
    listed = schema["properties"]["rows"]
    assert (listed["minItems"], listed["maxItems"]) == (4, 4)
    props = listed["items"]["properties"]
    assert props["criterion1"] == {
        "type": "string",
        "enum": ["yes", "no", "unclear"],
        "description": "Based in Europe",
    }
    assert props["field0"] == {"type": "number", "description": "Employees"}
    assert rows.all_of("software companies", []) == "software companies"
    assert rows.all_of("q", CRITERIA, "1,0").splitlines() == [
        "q",
        rows.ALL_OF,
        "- Satisfies: Builds software",
        "- Does not satisfy: Based in Europe",
    ]
    assert rows.runs(25) == 2 and rows.runs(60, 25) == 4


def _asked(entity_type: str, criteria: list[str] | None = None, fields: int = 0) -> dict[str, Any]:
    enrichments = [kit.EnrichmentArg(description=f"value {j}") for j in range(fields)]
    schema = rows.rows_schema(criteria or [], enrichments, 1, entity_type)
    props: dict[str, Any] = schema["properties"]["rows"]["items"]["properties"]
    return props


def test_the_rows_schema_asks_each_type_for_the_identity_fields_the_resolver_reads() -> None:
    company, person = _asked("company"), _asked("person")
    assert list(company) == ["name", "url", "description", "location", "industry"]
    assert list(person) == ["name", "url", "description", "employer", "role", "location"]
    # each tells a real agent what to put there
    assert "headquartered" in company["location"]["description"]
    assert '"City, Country"' in company["location"]["description"]
    assert "organisation the person works for or leads" in person["employer"]["description"]
    identity = [
        company["location"],
        company["industry"],
        *(person[n] for n in ("employer", "role", "location")),
    ]
    assert all(p["type"] == "string" and p["description"] for p in identity)
    for other in ("article", "research_paper", "custom"):
        assert list(_asked(other)) == ["name", "url", "description"]
    # the user's criterion{i} / field{j} stay as they were, beside the identity fields
    mixed = _asked("person", CRITERIA, 2)
    assert list(mixed) == [
        "name", "url", "description", "employer", "role", "location",
        "criterion0", "criterion1", "field0", "field1",
    ]  # fmt: skip
    assert mixed["criterion0"]["description"] == "Builds software"
    assert mixed["field1"] == {"type": "string", "description": "value 1"}


def test_an_agent_rows_identity_fields_become_the_websets_item_shape() -> None:
    output = {"rows": [
        {"name": "Acme", "url": "https://acme.example", "description": "tools",
         "location": " Berlin, Germany ", "industry": "Developer tools", "employer": "Initech"},
        {"name": "Globex", "location": "Unknown", "industry": "N/A"},
        {"name": "Hooli", "location": "-", "industry": ""},
    ]}  # fmt: skip
    acme, globex, hooli = rows.from_agent("run_1", output, [], 0, "company")
    assert (acme.location, acme.industry) == ("Berlin, Germany", "Developer tools")
    assert acme.employer is None  # not a company's field, even when the row has it
    assert (globex.location, globex.industry, hooli.location, hooli.industry) == (None,) * 4
    assert rows.as_item(acme)["properties"]["company"] == {
        "name": "Acme", "location": "Berlin, Germany", "industry": "Developer tools"
    }  # fmt: skip
    assert rows.as_item(globex)["properties"]["company"] == {"name": "Globex"}
    # a person: employer, role and location where a Websets person item has them
    people = {"rows": [
        {"name": "Jane Doe", "url": "https://example.org/jane", "employer": "Acme",
         "role": "Head of Payments", "location": "Paris, France", "criterion0": "yes", "field0": "x"},
        {"name": "John Roe", "employer": "none", "role": "NONE", "location": "null"},
        {"name": "Ann Poe", "employer": "ann poe", "role": "Founder"},
    ]}  # fmt: skip
    jane, john, ann = rows.from_agent("run_2", people, ["Leads payments"], 1, "person")
    assert (jane.employer, jane.role, jane.location) == ("Acme", "Head of Payments", "Paris, France")
    assert [v.verdict for v in jane.verdicts] == ["yes"] and jane.fields[0].value == "x"  # unchanged
    assert (john.employer, john.role, john.location) == (None, None, None)
    assert (ann.employer, ann.role) == (None, "Founder")  # a person is not their own employer
    assert rows.as_item(jane)["properties"]["person"] == {
        "name": "Jane Doe", "location": "Paris, France", "position": "Head of Payments",
        "company": {"name": "Acme"},
    }  # fmt: skip
    assert rows.as_item(john)["properties"]["person"] == {"name": "John Roe"}
    # other types carry none of them
    (paper,) = rows.from_agent("run_3", {"rows": [{"name": "P", "location": "Oslo, Norway"}]}, [], 0,
                               "research_paper")  # fmt: skip
    assert paper.location is None and rows.as_item(paper)["properties"]["custom"] == {"name": "P"}


def test_the_resolver_reads_an_agent_rows_fields_as_a_websets_items() -> None:
    """The same pair of pages as Websets items and as agent rows: the resolver reads the same
    evidence (employer, country) from both."""
    pages = [
        ("Jane Doe", "https://example.org/jane", "Acme", "Paris, France"),
        ("Jane Doe", "https://people.example.com/janedoe", "Acme", "Paris, France"),
        ("Jane Doe", "https://other.example.net/jd", "Globex", "Lima, Peru"),
    ]
    webset = [
        {"id": f"w{k}", "properties": {"type": "person", "url": url, "description": "A profile.",
         "person": {"name": name, "location": where, "position": "CFO", "company": {"name": employer}}}}
        for k, (name, url, employer, where) in enumerate(pages)
    ]  # fmt: skip
    output = {"rows": [
        {"name": name, "url": url, "description": "A profile.", "employer": employer, "role": "CFO",
         "location": where}
        for name, url, employer, where in pages
    ]}  # fmt: skip
    agent = [rows.as_item(r) for r in rows.from_agent("run_1", output, [], 0, "person")]
    on_websets, on_agent = entities.resolve(webset), entities.resolve(agent)
    assert sorted(map(sorted, on_websets.groups)) == [[0, 1], [2]]
    assert sorted(map(sorted, on_agent.groups)) == sorted(map(sorted, on_websets.groups))
    # without the fields the rows carry no employer: the same name alone joins nothing
    bare = {"rows": [{"name": n, "url": u, "description": "A profile."} for n, u, _, _ in pages]}
    unfielded = entities.resolve([rows.as_item(r) for r in rows.from_agent("r", bare, [], 0, "person")])
    assert sorted(map(sorted, unfielded.groups)) == [[0], [1], [2]]


def test_a_row_saved_before_the_identity_fields_still_loads() -> None:
    saved = {"id": "run_1:0", "engine": "agent", "type": "company", "name": "Acme",
             "url": "https://acme.example", "description": "tools", "verdicts": [], "fields": []}  # fmt: skip
    row = rows.Row.model_validate(saved)
    assert (row.location, row.industry, row.employer, row.role) == (None,) * 4
    assert row.properties()["company"] == {"name": "Acme"}


# --- the collection on the simulator ----------------------------------------------------------


class CollectArgs(BaseModel):
    query: str
    count: int
    chunk: int


async def collect(ctx: TaskContext, args: CollectArgs) -> dict[str, Any]:
    ask = rows.Ask(args.query, [], [], args.count, "company", chunk=args.chunk)
    got = await rows.collect(ctx, "collect.run", "collect.wait", ask, time.time() + 60, "test.rows")
    return {
        "rows": [r.model_dump(mode="json") for r in got.rows],
        "runIds": got.run_ids,
        "timedOut": got.timed_out,
    }


WORKFLOWS = [WorkflowSpec("test.rows", CollectArgs, collect, "rows.collect test")]


async def test_a_collection_is_chunked_and_continued_until_its_count(
    research_app: OpenApp, sim: SimHandle
) -> None:
    async with research_app("tests.workflows.test_rows") as app:
        task = await run_task(app, "test.rows", {"query": "AI startups in Europe", "count": 7, "chunk": 3})
    assert task.status == "completed", task.error
    result = task.result
    store = agent_runs(sim)
    requests = [store.get(rid).request for rid in result["runIds"]]
    assert len(requests) == 3 and len(result["rows"]) == 7  # 3 + 3 + 1
    assert [r["outputSchema"]["properties"]["rows"]["maxItems"] for r in requests] == [3, 3, 1]
    assert "previousRunId" not in requests[0] and "input" not in requests[0]
    for n in (1, 2):  # each chunk continues the one before, every URL held so far excluded
        assert requests[n]["previousRunId"] == result["runIds"][n - 1]
        held = [r["url"] for r in result["rows"][: 3 * n]]
        assert [x["url"] for x in requests[n]["input"]["exclusion"]] == held
    urls = [r["url"] for r in result["rows"]]
    assert len(set(urls)) == 7 and all(r["engine"] == "agent" for r in result["rows"])


def test_a_follow_up_run_excludes_at_most_max_input_rows_urls_the_latest() -> None:
    """A chunk's input.exclusion holds every URL returned so far, but never more than one run's input
    takes (agent_runs.MAX_INPUT_ROWS): past it the latest, so a collection whose runs return more rows
    than asked never turns a follow-up into a request research.create refuses."""
    from exa_orch.gateway.agent_runs import MAX_INPUT_ROWS
    from exa_orch.operations.research import CreateResearch

    ask = rows.Ask("AI startups", [], [], 1000, "company")
    got = rows.Collected(run_ids=["run_1"])
    got.rows = [
        rows.Row(id=f"r:{i}", engine="agent", url=f"https://e{i}.example") for i in range(MAX_INPUT_ROWS + 50)
    ]
    _, _, options = rows._body(ask, 1, got)
    held = options["input"]["exclusion"]
    assert len(held) == MAX_INPUT_ROWS
    assert held[0] == {"url": "https://e50.example"} and held[-1] == {
        "url": f"https://e{MAX_INPUT_ROWS + 49}.example"
    }
    CreateResearch.model_validate({"instructions": "x", **options})
