"""export_rows / export_formats on stored results: entities grouped as the result grouped them,
claims with the citations grounded on their field, and formats that agree row for row."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from exa_orch.operations.export import export_of
from exa_orch.operations.export_rows import table, value_at
from exa_orch.store import TaskRecord, TaskStatus


def record(type_: str, result: Any, args: dict[str, Any] | None = None) -> TaskRecord:
    return TaskRecord(
        id="task_0b6c9a52-1c9e-4c1e-9b8e-2f1d3c4b5a69", type=type_, status=TaskStatus.COMPLETED,
        args=args or {}, progress=None, partial=None, result=result, error=None,
        created_at="2026-01-01T00:00:00Z", updated_at="2026-01-01T00:00:00Z", expires_at=None,
        ttl_ms=3_600_000, lease_owner=None, lease_expires_at=None, meta={},
    )  # fmt: skip


def item(id_: str, name: str, url: str, refs: list[str] | None = None, answer: Any = None) -> dict[str, Any]:
    return {
        "id": id_,
        "properties": {"url": url, "description": f"{name}, a company", "company": {"name": name}},
        "evaluations": [{"criterion": "in Europe", "satisfied": "yes", "references": refs or []}],
        "enrichments": [{"enrichmentId": "enr_1", "result": answer, "references": []}],
    }


def test_harvest_rows_follow_the_results_own_duplicates_and_gather_every_source() -> None:
    items = [
        item("a", "Klarna", "https://klarna.com", ["https://news.example/klarna"], ["5000"]),
        item("b", "Klarna AB", "https://klarna.com/se/about", answer=None),
        item("c", "Klara", "https://klara.com"),
    ]
    result = {
        "items": items,
        "uniqueEntities": 2,
        "duplicates": [{"itemIds": ["a", "b"]}],
        "enrichmentIds": ["enr_1"],
    }
    args = {"enrichments": [{"description": "Employees", "format": "number"}]}
    rows = table(record("lifecycle.harvest", result, args)).rows
    assert [r.key["itemIds"] for r in rows] == [["a", "b"], ["c"]]
    assert rows[0].sources == [
        "https://klarna.com",
        "https://klarna.com/se/about",
        "https://news.example/klarna",
    ]
    assert rows[0].fields == {"criterion: in Europe": "yes", "enrichment: Employees": "5000"}
    assert rows[0].key["entityId"] != rows[1].key["entityId"]
    assert all(r.citation_status is None for r in rows)


def test_verified_collection_groups_by_same_entity_as_and_ids_never_repeat() -> None:
    items = [item("a", "Stem", "https://stem.com"), item("b", "Stem", "https://stem.com/about")]
    elements = [{"item": items[0]}, {"item": items[1], "sameEntityAs": "a"}]
    rows = table(record("research.verifiedCollection", {"items": elements})).rows
    assert [r.key["itemIds"] for r in rows] == [["a", "b"]]
    # Without a stored grouping the resolver groups them; two entities with one key are told apart.
    apart = table(
        record(
            "qd.winnow", {"finalElites": [item("x", "A", "https://a.com"), item("y", "Z", "https://z.org")]}
        )
    )
    assert len({r.key["entityId"] for r in apart.rows}) == 2


def test_research_deep_gives_a_claim_per_grounded_field_with_its_urls() -> None:
    result = {
        "result": {"companies": [{"name": "Klarna", "url": "https://klarna.com"}]},
        "citations": [
            {
                "field": "companies[0].name",
                "urls": ["https://klarna.com", "https://en.wikipedia.org/wiki/Klarna"],
            },
            {"field": "companies[0].url", "urls": ["https://klarna.com"]},
        ],
    }
    rows = table(record("research.deep", result)).rows
    assert [(r.key["field"], r.key["claim"]) for r in rows] == [
        ("companies[0].name", "Klarna"),
        ("companies[0].url", "https://klarna.com"),
    ]
    assert rows[0].sources == ["https://klarna.com", "https://en.wikipedia.org/wiki/Klarna"]
    text = table(record("research.deep", {"result": "Klarna is Swedish.", "citations": []})).rows
    assert [r.key["claim"] for r in text] == ["Klarna is Swedish."] and text[0].sources == []
    assert value_at({"a": [{"b": 1}]}, "a[0].b") == 1 and value_at({"a": []}, "a[3].b") is None


def test_adversarial_claims_take_citations_from_their_field_or_their_list() -> None:
    synthesis = {
        "verdict": "refuted",
        "confidence": 0.7,
        "keySupporting": ["s0", "s1"],
        "keyCountering": ["c0"],
        "blindSpots": [],
        "citations": [
            {"field": "keySupporting[1]", "urls": ["https://one"]},
            {"field": "keyCountering", "urls": ["https://two"]},
        ],
    }
    rows = table(record("adversarial.verify", {"synthesis": synthesis})).rows
    assert [r.key["field"] for r in rows] == [
        "verdict",
        "keySupporting[0]",
        "keySupporting[1]",
        "keyCountering[0]",
    ]
    assert [r.sources for r in rows] == [[], [], ["https://one"], ["https://two"]]
    assert table(record("adversarial.verify", {"thesis": {"items": []}})).rows == []


def test_the_three_formats_agree_row_for_row() -> None:
    items = [item(str(i), f"Co {i}", f"https://co{i}.com", answer=["a | b", "c\nd"]) for i in range(5)]
    done = record("lifecycle.harvest", {"items": items, "duplicates": []})
    rows = list(csv.DictReader(io.StringIO(export_of(done, "csv").data.decode(), newline="")))
    lines = [json.loads(x) for x in export_of(done, "jsonl").data.decode().splitlines()]
    report = export_of(done, "md").data.decode()
    assert [r["entityId"] for r in rows] == [x["entityId"] for x in lines] and len(rows) == 5
    assert rows[0]["enrichment: enr_1"] == "a | b; c\nd"  # csv keeps the cell exactly
    assert report.count("\n| site:") == 5 and "a \\| b; c d" in report  # one line per row in Markdown
