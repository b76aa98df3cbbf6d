"""Task answers sized for an agent (operations/task_views.py), on results shaped like each workflow's.

The property: for any result of any of the six workflows (and any other task's), any page size and
either fields ['all'] or the default, following every cursor yields each stored element once, in
order, at its `at`, and fields ['all'] rebuilds the stored result exactly.
"""

from __future__ import annotations

import copy
import dataclasses
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exa_orch.errors import ErrorCode, InvalidParams
from exa_orch.operations import projections as pj
from exa_orch.operations import task_views
from exa_orch.operations.task_views import (
    PAGE_BUDGET,
    collections,
    decode_cursor,
    encode_cursor,
    reassemble,
    result_page,
    summarize,
    task_view,
)
from exa_orch.store import TaskRecord, TaskStatus


def record(
    type_: str, result: Any, partial: Any = None, status: TaskStatus = TaskStatus.COMPLETED
) -> TaskRecord:
    return TaskRecord(
        id="task_1",
        type=type_,
        status=status,
        args={},
        result=result,
        partial=partial,
        error=None,
        progress=None,
        created_at="2026-01-01T00:00:00Z",
        updated_at="2026-01-01T00:00:00Z",
        expires_at=None,
        ttl_ms=3_600_000,
        lease_owner=None,
        lease_expires_at=None,
        meta={},
    )


names = st.text("abcdefghij ", min_size=1, max_size=12)
verdicts = st.sampled_from(["yes", "no", "unclear"])


@st.composite
def items(draw: st.DrawFn) -> dict[str, Any]:
    """A projected webset item (the shape the workflows store)."""
    n = draw(st.integers(0, 10_000))
    return {
        "id": f"witem_{n}",
        "source": "search",
        "websetId": "webset_1",
        "properties": {
            "type": "company",
            "url": f"https://c{n}.example",
            "description": draw(names) * draw(st.integers(1, 30)),
            "company": {"name": draw(names), "employees": draw(st.integers(1, 5000))},
        },
        "evaluations": [
            {
                "criterion": c,
                "satisfied": draw(verdicts),
                "reasoning": draw(names),
                "references": ["https://r"],
            }
            for c in draw(st.lists(names, max_size=3, unique=True))
        ],
        "enrichments": [
            {"enrichmentId": f"wenrich_{i}", "status": "completed", "format": "text", "result": [draw(names)]}
            for i in range(draw(st.integers(0, 2)))
        ],
        "createdAt": "2026-01-01T00:00:00Z",
    }


item_lists = st.lists(items(), max_size=12)
elite = st.builds(
    lambda i, f: {"item": i, "niche": "1,0", "fitnessScore": f, "criteriaVector": [True]},
    items(),
    st.floats(0, 1),
)


@st.composite
def results(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    """(task type, a result shaped like that workflow's)."""
    kind = draw(
        st.sampled_from(["harvest", "winnow", "convergent", "adversarial", "verified", "deep", "operation"])
    )
    if kind == "harvest":
        return "lifecycle.harvest", {"websetId": "w", "items": draw(item_lists), "itemCount": 3, "steps": []}
    if kind == "winnow":
        final = draw(st.lists(elite, max_size=5))
        rounds = [
            {
                "websetId": "w",
                "elites": draw(st.lists(st.sampled_from(final), max_size=4)) if final else [],
                "found": 3,
            }
            for _ in range(draw(st.integers(1, 3)))
        ]
        return "qd.winnow", {"rounds": rounds, "finalElites": final, "qualityMetrics": {"coverage": 0.5}}
    if kind == "convergent":
        entities = [
            {"entity": {"name": n, "itemIds": ["a"]}, "confidence": 0.5}
            for n in draw(st.lists(names, max_size=6))
        ]
        unique = [{"query": q, "items": draw(item_lists)} for q in ("q0", "q1")]
        return "convergent.search", {"websetIds": ["a", "b"], "intersection": entities, "unique": unique}
    if kind == "adversarial":
        side = st.builds(lambda xs: {"websetId": "w", "items": xs, "itemCount": len(xs)}, item_lists)
        return "adversarial.verify", {
            "thesis": draw(side),
            "antithesis": draw(side),
            "synthesis": {"verdict": "mixed"},
        }
    if kind == "verified":
        rows = [{"item": i, "research": {"result": draw(names)}} for i in draw(item_lists)]
        return "research.verifiedCollection", {"websetId": "w", "items": rows, "totalItems": len(rows)}
    if kind == "deep":
        output = draw(
            st.one_of(
                names, st.builds(lambda xs: {"companies": [{"name": x} for x in xs], "n": 1}, st.lists(names))
            )
        )
        return "research.deep", {
            "researchId": "r",
            "result": output,
            "citations": [{"field": "x", "urls": ["u"]}],
        }
    return "operation", {"data": draw(item_lists), "count": 0, "truncated": False}


def follow(rec: TaskRecord, **kw: Any) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    first = page = result_page(rec, **kw)
    got = list(page["items"])
    while page["nextCursor"]:
        page = result_page(rec, cursor=page["nextCursor"], **kw)
        assert "summary" not in page
        if len(page["items"]) > 1:  # a page holds more than one item only within its budget
            assert sum(len(json.dumps(e)) for e in page["items"]) <= PAGE_BUDGET
        got += page["items"]
    return first, got


@settings(max_examples=60, deadline=None)
@given(results(), st.integers(1, 7), st.booleans())
def test_following_every_cursor_reaches_every_item_and_rebuilds_the_result(
    shaped: tuple[str, dict[str, Any]], limit: int, everything: bool
) -> None:
    type_, result = shaped
    stored = copy.deepcopy(result)
    rec = record(type_, result)
    fields = ["all"] if everything else None
    if not collections(type_, result):  # another task's result with no list of objects: whole
        assert result_page(rec, limit=limit, fields=fields)["result"] == stored
        return
    first, got = follow(rec, limit=limit, fields=fields)
    expected = [
        ".".join(map(str, (*path, i)))
        for path in collections(type_, result)
        for i in range(len(_at(result, path)))
    ]
    assert [e["at"] for e in got] == expected and first["page"]["total"] == len(expected)
    if everything:
        shown = [
            json.dumps({k: v for k, v in e.items() if k != "at"}, sort_keys=True)
            for e in got
            if "sameAs" not in e
        ]
        assert len(set(shown)) == len(shown)  # nothing repeated: a repeat is a sameAs
        assert reassemble(first["summary"], got) == stored
    assert result == stored  # reading never changes the stored result


def _at(result: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        result = result[key]
    return result


def test_a_result_without_item_lists_comes_whole_as_before() -> None:
    rec = record(
        "research.deep", {"researchId": "r", "result": "text", "citations": [{"field": "x", "urls": []}]}
    )
    assert result_page(rec) == {"taskId": "task_1", "status": "completed", "result": rec.result}


def test_repeated_elites_are_shown_once_and_referred_to_after() -> None:
    e = {
        "item": {"id": "witem_1", "properties": {"url": "u"}, "evaluations": []},
        "niche": "1",
        "fitnessScore": 1.0,
    }
    result = {"rounds": [{"elites": [e]}, {"elites": [e]}], "finalElites": [e]}
    page = result_page(record("qd.winnow", result))
    assert [x["at"] for x in page["items"]] == ["finalElites.0", "rounds.0.elites.0", "rounds.1.elites.0"]
    assert page["items"][1] == {"at": "rounds.0.elites.0", "sameAs": "finalElites.0"}
    assert page["summary"]["rounds"] == [{"elites": {"paged": 1}}, {"elites": {"paged": 1}}]


def test_a_page_stops_at_its_character_budget_but_always_gives_one_item() -> None:
    big = [
        {"id": f"x{i}", "properties": {"url": "u"}, "evaluations": [], "blob": "z" * 5_000} for i in range(6)
    ]
    page = result_page(record("lifecycle.harvest", {"items": big}), fields=["all"], limit=50)
    assert 1 <= page["page"]["count"] < 6 and page["nextCursor"]
    huge = [{"id": "x", "properties": {}, "evaluations": [], "blob": "z" * (PAGE_BUDGET * 2)}]
    assert result_page(record("lifecycle.harvest", {"items": huge}), fields=["all"])["page"]["count"] == 1


def test_paging_a_whole_result_serialises_each_item_a_bounded_number_of_times(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Every serialisation result_page makes goes through task_views.json.dumps: count them.
    calls = 0

    class CountingJson:
        @staticmethod
        def dumps(value: Any, **kw: Any) -> str:
            nonlocal calls
            calls += 1
            return json.dumps(value, **kw)

    monkeypatch.setattr(task_views, "json", CountingJson)
    for n in (200, 2_000):
        elites = [{"item": {"id": f"x{i}", "properties": {"url": "u"}}, "niche": str(i)} for i in range(n)]
        result = {"finalElites": elites[: n // 2], "rounds": [{"elites": elites}]}  # half repeat
        calls = 0
        first, got = follow(record("qd.winnow", result), limit=10)
        total = first["page"]["total"]
        assert total == n + n // 2 and len(got) == total
        assert sum("sameAs" in e for e in got) == n // 2
        # one pass over the items on the first page, then one per item shown (its size); before,
        # each page re-serialised every item ahead of it (~total^2 / 20: 11k and 1.1M here)
        assert calls <= 2 * total + 1, (n, calls)


def test_a_cursor_whose_result_left_the_cache_gives_the_same_pages_and_another_tasks_is_refused() -> None:
    e = {"item": {"id": "x", "properties": {"url": "u"}}, "niche": "1"}
    others = [{"item": {"id": f"y{i}", "properties": {}}, "niche": str(i)} for i in range(9)]
    rec = record("qd.winnow", {"finalElites": [e], "rounds": [{"elites": [*others, e]}]})
    _, cached = follow(rec, limit=3)
    first = result_page(rec, limit=3)
    got, page = list(first["items"]), first
    while page["nextCursor"]:
        task_views._REPEATS.clear()  # as after a restart: the token is unknown
        page = result_page(rec, limit=3, cursor=page["nextCursor"])
        got += page["items"]
    assert got == cached and got[-1] == {"at": "rounds.0.elites.9", "sameAs": "finalElites.0"}
    # a cursor made for another task's result of the same size, one altered, one past the end:
    # refused (served, they would page this result from an offset that means nothing here)
    other = dataclasses.replace(
        record("qd.winnow", {"finalElites": [others[0]], "rounds": [{"elites": [*others, e]}]}), id="task_2"
    )
    _, token = decode_cursor(result_page(other, limit=3)["nextCursor"])
    assert token and token in task_views._REPEATS
    _, own = decode_cursor(first["nextCursor"])
    altered = ("0" if own[0] != "0" else "1") + own[1:]
    for cursor in (encode_cursor(9, token), encode_cursor(3, altered), encode_cursor(12, own)):
        task_views._REPEATS.clear()
        with pytest.raises(InvalidParams) as err:
            result_page(rec, limit=3, cursor=cursor)
        assert err.value.fields == ["cursor"] and rec.id in err.value.message
    assert result_page(rec, limit=3, cursor=encode_cursor(11, own))["items"] == cached[11:]


def test_compact_items_keep_name_url_verdicts_and_values_only() -> None:
    item = {
        "id": "witem_1",
        "properties": {"url": "https://a.example", "description": "d", "company": {"name": "Acme"}},
        "evaluations": [
            {"criterion": "in Europe", "satisfied": "yes", "reasoning": "r", "references": ["u"]}
        ],
        "enrichments": [{"enrichmentId": "wenrich_1", "result": ["42"], "reasoning": "r2"}],
        "createdAt": "t",
    }
    assert pj.compact_item(item) == {
        "id": "witem_1",
        "name": "Acme",
        "url": "https://a.example",
        "criteria": {"in Europe": "yes"},
        "enrichments": {"wenrich_1": ["42"]},
    }
    assert pj.compact_item(item, ["references"])["evaluations"] == item["evaluations"]
    assert pj.compact_item(item, ["all"]) is item
    assert pj.compact_item(item, ["timestamps"]) == {"id": "witem_1", "createdAt": "t"}


@pytest.mark.parametrize(("kw", "field"), [({"cursor": "nonsense!"}, "cursor"), ({"fields": ["colour"]}, "fields"),
                                           ({"cursor": encode_cursor(1)[:-2] + "$$"}, "cursor"),
                                           ({"cursor": encode_cursor(1, "zz")}, "cursor")])  # fmt: skip
def test_a_bad_cursor_or_field_is_invalid_params_naming_it(kw: dict[str, Any], field: str) -> None:
    with pytest.raises(InvalidParams) as err:
        result_page(record("lifecycle.harvest", {"items": []}), **kw)
    assert err.value.code is ErrorCode.INVALID_PARAMS and err.value.fields == [field]


def test_task_view_summarises_the_partial_result_unless_asked_for_all() -> None:
    partial = {
        "step": "scored",
        "round": 2,
        "rounds": [1, 2],
        "thesis": {"items": [1, 2, 3], "websetId": "w"},
    }
    rec = record("qd.winnow", None, partial=partial, status=TaskStatus.WORKING)
    view = task_view(rec)
    assert view["partialSummary"] == {
        "step": "scored",
        "round": 2,
        "rounds": {"count": 2},
        "thesis": {"items": {"count": 3}, "websetId": "w"},
    }
    assert "partialResult" not in view
    assert task_view(rec, full=True)["partialResult"] == partial
    assert summarize("x" * 1_000).endswith("…") and len(summarize("x" * 1_000)) <= 160


def test_task_view_shows_the_args_summarised_unless_full() -> None:
    args = {
        "query": "European fintechs " + "q" * 400,
        "criteria": ["based in Europe", "series A"],
        "urls": [f"https://a{i}.example" for i in range(9)],
        "search": {"entity": {"type": "company"}, "count": 30},
    }
    rec = dataclasses.replace(record("qd.winnow", None, status=TaskStatus.WORKING), args=args)
    assert "args" not in task_view(rec)  # tasks.list and tasks.cancel: not asked for
    view = task_view(rec, args=True)
    shown = view["args"]
    assert shown["criteria"] == args["criteria"]  # a short list is kept as asked
    assert shown["urls"] == {"count": 9, "first": args["urls"][:5]}
    assert shown["search"] == args["search"]
    assert shown["query"].endswith("…") and len(shown["query"]) <= 160
    assert view["argsHint"] == "full: true for the whole args"
    whole = task_view(rec, full=True, args=True)
    assert whole["args"] == args and "argsHint" not in whole


def test_a_big_args_blob_is_never_echoed_whole_by_default() -> None:
    # A 2.4 MB outputSchema nested a few levels (a row stored before schemas were bounded, or any
    # big args): tasks.get shows a bounded summary, tasks.list no args, full: true all of it.
    fields = {
        f"field{i}": {
            "type": "object",
            "properties": {f"p{j}": {"type": "string", "description": "d" * 150} for j in range(12)},
        }
        for i in range(1_200)
    }
    schema = {
        "type": "object",
        "properties": {f"group{g}": {"type": "object", "properties": fields} for g in range(1)},
    }
    args = {"instructions": "x", "outputSchema": schema, "rows": [[{"a": "b" * 150}] * 5] * 5}
    assert len(json.dumps(args)) > 2_400_000
    rec = dataclasses.replace(record("research.deep", None, status=TaskStatus.WORKING), args=args)
    view = task_view(rec, args=True)
    assert len(json.dumps(view["args"])) <= task_views.ARGS_SUMMARY_CHARS
    assert view["args"]["instructions"] == "x" and view["argsHint"] == "full: true for the whole args"
    assert "args" not in task_view(rec)
    assert task_view(rec, args=True, full=True)["args"] == args
