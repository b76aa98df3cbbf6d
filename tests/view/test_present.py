"""What the web view puts in words: labels, values, a task's arguments and result, a run's niches."""

from __future__ import annotations

from exa_orch.view import present


def test_labels_and_values_read_as_words_not_as_python() -> None:
    assert present.label("eliteChange") == "elite change" and present.label("duration_ms") == "duration ms"
    assert [present.shown(v) for v in (True, False, None, 33.0, 0.12345, [1, 2])] == [
        "yes", "no", "", "33", "0.123", "1, 2",
    ]  # fmt: skip
    assert [present.duration_ms(v) for v in (850, 4_200, 185_000, 7_500_000)] == [
        "850 ms", "4.2 s", "3 min 05 s", "2 h 05 min",
    ]  # fmt: skip
    assert present.niche_marks("1,0,1") == "✓ ✗ ✓" and present.percent(0.375) == "38%"


def test_arguments_show_criteria_and_enrichments_by_their_descriptions() -> None:
    lines = dict(
        present.arguments(
            {
                "query": "AI startups",
                "entity": {"type": "company"},
                "criteria": [{"description": "Is based in Europe"}],
                "enrichments": [{"description": "Employees", "format": "number"}],
                "timeout": 60_000,
                "synthesize": False,
            }
        )  # fmt: skip
    )
    assert lines == {
        "query": "AI startups",
        "entity": "company",
        "criteria": ["Is based in Europe"],
        "enrichments": ["Employees (number)"],
        "timeout": "1 min 00 s",
        "synthesize": "no",
    }


def test_a_result_is_summarized_and_its_items_paged_with_names_links_and_citations() -> None:
    items = [
        {
            "id": f"it{i}",
            "properties": {"url": f"https://c{i}.example", "company": {"name": f"Company {i}"}},
            "confidence": 0.5,
            "evaluations": [{"references": [{"url": "https://source.example/a", "title": "A source"}]}],
        }
        for i in range(30)
    ]
    report = "A long report. " * 40
    result = {"items": items, "itemCount": 30, "timedOut": False, "totalDuration": 4200, "report": report}
    first, second = present.result_view(result, 1), present.result_view(result, 2)
    assert first.facts == [("item count", "30"), ("timed out", "no"), ("total duration", "4.2 s")]
    assert first.texts == [("report", report)]
    assert (first.items_key, first.total, first.pages, len(first.rows), len(second.rows)) == (
        "items",
        30,
        2,
        25,
        5,
    )
    assert first.columns == ["confidence"]
    row = second.rows[0]
    assert (row.name, row.url, row.fields) == ("Company 25", "https://c25.example", ["0.5"])
    assert row.citations == [("https://source.example/a", "A source")]
    assert present.result_view(result, 99).page == 2  # past the end: the last page
    assert present.result_view([1, 2]).facts == [("result", "1, 2")]


def test_the_niche_grid_puts_half_the_criteria_down_and_the_rest_across() -> None:
    criteria = ["in Europe", "strong engineering", "founded after 2015"]
    elites = [
        {"niche": "1,1,0", "fitness": 0.9, "label": "Best", "url": None, "round": None},
        {"niche": "1,1,0", "fitness": 0.2, "label": "Worse", "url": None, "round": None},
        {"niche": "0,0,0", "fitness": 0.4, "label": "Other", "url": None, "round": None},
    ]
    grid = present.niche_grid(criteria, elites, {"1,1,0": 7})
    assert grid is not None
    assert (grid.row_criteria, grid.column_criteria) == (
        ["in Europe"],
        ["strong engineering", "founded after 2015"],
    )
    assert grid.column_heads[1] == [(True, "strong engineering"), (False, "founded after 2015")]
    cells = {c.niche: c for _, row in grid.rows for c in row}
    assert len(cells) == 8 and (grid.filled, grid.possible) == (2, 8)
    assert cells["1,1,0"].elite is not None and cells["1,1,0"].elite["label"] == "Best"
    assert cells["1,1,0"].count == 7 and cells["0,1,0"].elite is None
    assert present.niche_grid([], [], {}) is None
    stats = [
        {"itemCount": 6, "stringency": 0.25, "eliteChange": 1.0, "nicheDistribution": {"1,1,0": 2},
         "criteriaSuccessRates": {"in Europe": 50.0}},
        {"itemCount": 4, "stringency": 0.5, "eliteChange": 0.0, "nicheDistribution": {"1,1,0": 1, "0,0,0": 3},
         "unclearCount": 1, "targetNiches": ["1,0,1", "0,0,0"]},
    ]  # fmt: skip
    table = dict(present.rounds_table(criteria, stats))
    assert table["items with an unclear answer"] == ["", "1"]
    assert table["niches asked for"] == ["", "✓ ✗ ✓; ✗ ✗ ✗"]
    assert table["items collected"] == ["6", "4"] and table["elite change"] == ["100%", "0%"]
    assert table["meets “in Europe”"] == ["50%", ""] and table["items in niche ✓ ✓ ✗"] == ["2", "1"]
    assert present.niche_counts(stats) == {"1,1,0": 3, "0,0,0": 3}
