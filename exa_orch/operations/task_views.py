"""Task answers sized for an agent: what tasks.get, tasks.list and tasks.result show of a task.

The stored task (SQLite `tasks.result`, `tasks.partial`) stays complete; this module shapes it at
read time, in one place.

- `task_view`: status, progress, timestamps, error and `partialSummary` (counts and phase of the
  partial result); `full=True` adds the whole `partialResult` (the answer before this module).
- `result_page`: a completed task's result as a `summary` (the result with each item list replaced by
  `{"paged": <count>}`) and its `items`, one page at a time, with `nextCursor`. Each item says where
  it sits in the full result (`at`: "thesis.items.3"); an element equal to one shown earlier in the
  same result is given as `{"at": ..., "sameAs": <its first at>}` rather than repeated. Items are
  projected compactly (projections.compact_item) unless `fields` asks for more; with
  `fields: ["all"]`, following every cursor and putting each item back at its `at` (`reassemble`)
  rebuilds the full result exactly. A result with no item lists is returned whole, as `result`.
"""

from __future__ import annotations

import base64
import binascii
import copy
import json
from collections.abc import Callable, Sequence
from typing import Any

from exa_orch.errors import InvalidParams
from exa_orch.operations import projections as pj
from exa_orch.store import TaskRecord

Json = dict[str, Any]
Path = tuple[str | int, ...]

DEFAULT_PAGE = 20
MAX_PAGE = 200
# A page also stops once it holds this many characters (at least one item is always given), so the
# first page of any workflow fits well inside an agent's context at default sizes.
PAGE_BUDGET = 12_000
SUMMARY_STRING = 160  # strings longer than this are cut in a partial result's summary
SUMMARY_KEYS = 12  # keys shown per object in a partial result's summary
FULL_HINT = "call tasks.result with full: true for the whole stored result in one answer"


def _lists_at(result: Json, *keys: str) -> list[Path]:
    """Paths of `result[key]` (for each key) that are lists."""
    return [(k,) for k in keys if isinstance(result.get(k), list)]


def _nested(result: Json, outer: str, inner: str) -> list[Path]:
    """Paths `outer.<i>.inner` for each element of the list `result[outer]` that holds a list `inner`."""
    rows = result.get(outer)
    if not isinstance(rows, list):
        return []
    return [
        (outer, i, inner)
        for i, row in enumerate(rows)
        if isinstance(row, dict) and isinstance(row.get(inner), list)
    ]


def _generic(result: Json) -> list[Path]:
    """Any other result (an operation run as a task, a custom workflow): each top-level list of objects."""
    return [
        (k,) for k, v in result.items() if isinstance(v, list) and v and all(isinstance(x, dict) for x in v)
    ]


# Where each task type keeps its items, most useful first (the first page shows those).
COLLECTIONS: dict[str, Callable[[Json], list[Path]]] = {
    "lifecycle.harvest": lambda r: _lists_at(r, "items"),
    "research.verifiedCollection": lambda r: _lists_at(r, "items"),
    "qd.winnow": lambda r: _lists_at(r, "finalElites") + _nested(r, "rounds", "elites"),
    "convergent.search": lambda r: _lists_at(r, "intersection") + _nested(r, "unique", "items"),
    "adversarial.verify": lambda r: [
        (side, "items")
        for side in ("thesis", "antithesis")
        if isinstance(r.get(side), dict) and isinstance(r[side].get("items"), list)
    ],
    # A structured research output ({"companies": [{...}, ...]}) pages its lists of objects; a text
    # output has none, and the result comes whole.
    "research.deep": lambda r: (
        [("result", *p) for p in _generic(r["result"])] if isinstance(r.get("result"), dict) else []
    ),
}


def collections(task_type: str, result: Any) -> list[Path]:
    """The paths of the item lists in a task's result (empty: nothing to page)."""
    if not isinstance(result, dict):
        return []
    return COLLECTIONS.get(task_type, _generic)(result)


def _get(obj: Any, path: Path) -> Any:
    for key in path:
        obj = obj[key]
    return obj


def at(path: Path, index: int) -> str:
    """The `at` of an item: its path in the full result, dot-separated ('rounds.0.elites.1')."""
    return ".".join(str(p) for p in (*path, index))


def entries(task_type: str, result: Json) -> list[tuple[str, Any]]:
    """Every item of the result, in page order, as (at, element)."""
    return [
        (at(path, i), el)
        for path in collections(task_type, result)
        for i, el in enumerate(_get(result, path))
    ]


def summary(task_type: str, result: Json) -> Json:
    """The result with each item list replaced by {"paged": <count>} (the rest kept as it is)."""
    out = copy.deepcopy(result)
    for path in collections(task_type, result):
        parent = _get(out, path[:-1])
        parent[path[-1]] = {"paged": len(parent[path[-1]])}
    return out


def project(element: Any, fields: Sequence[str] | None) -> Any:
    """An item (or an element wrapping one as `item`) cut to `fields`; any other element unchanged."""
    if pj.is_item(element):
        return pj.compact_item(element, fields)
    if isinstance(element, dict) and pj.is_item(element.get("item")):
        return {**element, "item": pj.compact_item(element["item"], fields)}
    return element


def _entry(where: str, value: Any) -> Json:
    if isinstance(value, dict) and "at" not in value and "sameAs" not in value:
        return {"at": where, **value}
    return {"at": where, "value": value}


def encode_cursor(offset: int) -> str:
    """An opaque cursor for the page that starts at item `offset`."""
    return base64.urlsafe_b64encode(f"items:{offset}".encode()).decode().rstrip("=")


def decode_cursor(cursor: str) -> int:
    """The offset a cursor stands for. Raises InvalidParams for one this module did not make."""
    try:
        text = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        kind, _, number = text.partition(":")
        if kind == "items" and number.isdigit():
            return int(number)
    except (binascii.Error, UnicodeDecodeError, ValueError):
        pass
    raise InvalidParams(
        "cursor: not a cursor of tasks.result",
        hint="Pass the nextCursor of the previous tasks.result page unchanged (or omit it for the first page).",
        fields=["cursor"],
    )


def check_fields(fields: Sequence[str] | None) -> None:
    """InvalidParams naming any field an item can't be asked for."""
    unknown = sorted(set(fields or []) - set(pj.ITEM_FIELDS))
    if unknown:
        raise InvalidParams(
            f"fields: unknown item field(s) {unknown}; use any of: {', '.join(pj.ITEM_FIELDS)}",
            fields=["fields"],
        )


def result_page(
    record: TaskRecord,
    *,
    cursor: str | None = None,
    limit: int | None = None,
    fields: Sequence[str] | None = None,
) -> Json:
    """A completed task's answer: summary (first page only) and one page of items with nextCursor."""
    check_fields(fields)
    result = record.result
    if not collections(record.type, result):
        return {"taskId": record.id, "status": str(record.status), "result": result}
    head: Json = {"taskId": record.id, "type": record.type, "status": str(record.status)}
    everything = entries(record.type, result)
    offset = decode_cursor(cursor) if cursor else 0
    size = min(limit or DEFAULT_PAGE, MAX_PAGE)
    seen: dict[str, str] = {}
    for where, element in everything[:offset]:
        seen.setdefault(json.dumps(element, sort_keys=True), where)
    items: list[Json] = []
    used = 0
    for where, element in everything[offset : offset + size]:
        key = json.dumps(element, sort_keys=True)
        first = seen.setdefault(key, where)
        entry = {"at": where, "sameAs": first} if first != where else _entry(where, project(element, fields))
        used += len(json.dumps(entry))
        if items and used > PAGE_BUDGET:
            break
        items.append(entry)
    end = offset + len(items)
    out: Json = dict(head)
    if not cursor:
        out["summary"] = summary(record.type, result)
    out["items"] = items
    out["page"] = {"from": offset, "count": len(items), "total": len(everything)}
    out["nextCursor"] = encode_cursor(end) if end < len(everything) else None
    if out["nextCursor"]:
        out["next"] = "call tasks.result again with cursor: nextCursor for the next items"
    if fields is None or "all" not in fields:
        out["fields"] = (
            "items are compact; pass fields (e.g. ['all'], or any of "
            f"{', '.join(pj.ITEM_FIELDS)}) for more, or full: true for the stored result"
        )
    return out


def reassemble(summary_: Json, items: list[Json]) -> Json:
    """The full result rebuilt from a summary and every page's items fetched with fields ['all']."""
    out = _unpage(copy.deepcopy(summary_))
    values: dict[str, Any] = {}
    for entry in items:
        where = entry["at"]
        if "sameAs" in entry:
            value = values[entry["sameAs"]]
        elif set(entry) == {"at", "value"}:
            value = entry["value"]
        else:
            value = {k: v for k, v in entry.items() if k != "at"}
        values[where] = value
    lists: dict[str, list[Any]] = {}
    for where, value in values.items():
        parent, _, _ = where.rpartition(".")
        lists.setdefault(parent, []).append(value)
    for parent, rows in lists.items():
        path: list[str | int] = [int(p) if p.isdigit() else p for p in parent.split(".")]
        holder = _get(out, tuple(path[:-1]))
        holder[path[-1]] = rows
    return out


def _unpage(value: Any) -> Any:
    """`value` with every {"paged": n} placeholder turned back into an empty list (filled by items)."""
    if isinstance(value, dict):
        if set(value) == {"paged"} and isinstance(value["paged"], int):
            return []
        return {k: _unpage(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_unpage(v) for v in value]
    return value


# -- tasks.get / tasks.list --------------------------------------------------------------------


def summarize(value: Any, depth: int = 0) -> Any:
    """A short account of a (partial) result: scalars kept, long strings cut, lists counted."""
    if isinstance(value, dict):
        if depth >= 2:
            return {"keys": len(value)}
        shown = list(value.items())[:SUMMARY_KEYS]
        out = {k: summarize(v, depth + 1) for k, v in shown}
        if len(value) > SUMMARY_KEYS:
            out["moreKeys"] = len(value) - SUMMARY_KEYS
        return out
    if isinstance(value, list):
        return {"count": len(value)}
    if isinstance(value, str) and len(value) > SUMMARY_STRING:
        return value[: SUMMARY_STRING - 1] + "…"
    return value


def task_view(record: TaskRecord, *, full: bool = False) -> Json:
    """What an agent sees of a task: status, progress, error, timestamps and a partial-result summary.

    `full=True` gives the whole partial result as `partialResult` instead of `partialSummary`.
    """
    view: Json = {
        "taskId": record.id,
        "type": record.type,
        "status": str(record.status),
        "progress": record.progress,
        "error": record.error,
        "createdAt": record.created_at,
        "updatedAt": record.updated_at,
        "expiresAt": record.expires_at,
        "ttl": record.ttl_ms,
    }
    if full:
        view["partialResult"] = record.partial
    elif record.partial is not None:
        view["partialSummary"] = summarize(record.partial)
        view["partialHint"] = "full: true for the whole partial result"
    if record.cancel_requested and not record.terminal:
        view["cancelRequested"] = True
    return view
