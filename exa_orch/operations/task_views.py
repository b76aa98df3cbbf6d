"""Task answers sized for an agent: what tasks.get, tasks.list and tasks.result show of a task.

The stored task (SQLite `tasks.result`, `tasks.partial`) stays complete; this module shapes it at
read time, in one place.

- `task_view`: status, progress, timestamps, error and `partialSummary` (counts and phase of the
  partial result); `full=True` adds the whole `partialResult` (the answer before this module);
  for tasks.get, the task's `args` (summarised, or whole with `full=True`); for a task waiting for
  its owner's input, `inputRequired` (`input_required`: seed 000 section 6.5's shape).
- `result_page`: a completed task's result as a `summary` (the result with each item list replaced by
  `{"paged": <count>}`) and its `items`, one page at a time, with `nextCursor`. Each item says where
  it sits in the full result (`at`: "thesis.items.3"); an element equal to one shown earlier in the
  same result is given as `{"at": ..., "sameAs": <its first at>}` rather than repeated. Items are
  projected compactly (projections.compact_item) unless `fields` asks for more; with
  `fields: ["all"]`, following every cursor and putting each item back at its `at` (`reassemble`)
  rebuilds the full result exactly. A result with no item lists is returned whole, as `result`.
  The cursor carries the offset and a digest of the task id and the result's items, naming the
  repeats computed in one pass on the first page (a small cache), so later pages serialise only
  their own items; a cursor whose digest is not this task's result's is refused (INVALID_PARAMS).
"""

from __future__ import annotations

import base64
import binascii
import copy
import hashlib
import json
from array import array
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from exa_orch.errors import InvalidParams
from exa_orch.operations import projections as pj
from exa_orch.store import INPUT_REQUEST_META, TaskRecord, TaskStatus

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


def _adversarial_lists(r: Json) -> list[Path]:
    """Both sides' items, then the synthesis's citations (one per source the run read: dozens)."""
    paths: list[Path] = [
        (side, "items")
        for side in ("thesis", "antithesis")
        if isinstance(r.get(side), dict) and isinstance(r[side].get("items"), list)
    ]
    if isinstance(r.get("synthesis"), dict) and isinstance(r["synthesis"].get("citations"), list):
        paths.append(("synthesis", "citations"))
    return paths


def _winnow_lists(r: Json) -> list[Path]:
    """The elites, each round's elites, then the items of a round a stop cut short (not scored)."""
    paths = _lists_at(r, "finalElites") + _nested(r, "rounds", "elites")
    stopped = r.get("stoppedRound")
    if isinstance(stopped, dict) and isinstance(stopped.get("items"), list):
        paths.append(("stoppedRound", "items"))
    return paths


# Where each task type keeps its items, most useful first (the first page shows those).
COLLECTIONS: dict[str, Callable[[Json], list[Path]]] = {
    "lifecycle.harvest": lambda r: _lists_at(r, "items"),
    "research.verifiedCollection": lambda r: _lists_at(r, "items"),
    "qd.winnow": _winnow_lists,
    "convergent.search": lambda r: _lists_at(r, "intersection") + _nested(r, "unique", "items"),
    "adversarial.verify": _adversarial_lists,
    # A structured research output ({"companies": [{...}, ...]}) pages its lists of objects; a text
    # output has none, and the result comes whole.
    "research.deep": lambda r: (
        [("result", *p) for p in _generic(r["result"])] if isinstance(r.get("result"), dict) else []
    ),
}


CHECKS: Path = ("citationCheck", "checks")  # a result's citation verdicts (workflows/citations.py)


def collections(task_type: str, result: Any) -> list[Path]:
    """The paths of the item lists in a task's result (empty: nothing to page); its citation
    verdicts come last, paged with the items (a result with none, a text answer, comes whole)."""
    if not isinstance(result, dict):
        return []
    paths = [p for p in COLLECTIONS.get(task_type, _generic)(result) if p[:1] != CHECKS[:1]]
    check = result.get("citationCheck")
    checks = isinstance(check, dict) and isinstance(check.get("checks"), list)
    return paths + [CHECKS] if paths and checks else paths


def _get(obj: Any, path: Path) -> Any:
    for key in path:
        obj = obj[key]
    return obj


def at(path: Path, index: int) -> str:
    """The `at` of an item: its path in the full result, dot-separated ('rounds.0.elites.1')."""
    return ".".join(str(p) for p in (*path, index))


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


def encode_cursor(offset: int, token: str = "") -> str:
    """An opaque cursor for the page that starts at item `offset` of the result `token` names."""
    text = f"items:{offset}:{token}" if token else f"items:{offset}"
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def decode_cursor(cursor: str) -> tuple[int, str]:
    """(offset, token) a cursor stands for (token "" for a cursor made before tokens).

    Raises InvalidParams for one this module did not make."""
    try:
        text = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        kind, _, rest = text.partition(":")
        number, _, token = rest.partition(":")
        if kind == "items" and number.isdigit() and _is_token(token):
            return int(number), token
    except (binascii.Error, UnicodeDecodeError, ValueError):
        pass
    raise InvalidParams(
        "cursor: not a cursor of tasks.result",
        hint="Pass the nextCursor of the previous tasks.result page unchanged (or omit it for the first page).",
        fields=["cursor"],
    )


def _is_token(token: str) -> bool:
    return token == "" or (len(token) == 2 * TOKEN_BYTES and all(c in "0123456789abcdef" for c in token))


@dataclass(frozen=True)
class _Repeats:
    """Which item each item of one result repeats: `first[i]` is the index of the first item equal
    to item i (i itself when none before it is). `token` is a digest of the task id and every
    item's JSON, so equal tokens mean equal repeats."""

    task_id: str
    token: str
    first: array[int]


# Repeats of the results being paged, by token, most recent last. A result's items are serialised
# once, in one pass, on its first page; the cursor carries the token, so the pages after it
# serialise only their own items (paging N items is O(N), not O(N^2 / page)). A token not here
# (evicted, or a cursor from before a restart) costs one more pass on that page.
_REPEATS: OrderedDict[str, _Repeats] = OrderedDict()
REPEATS_KEPT = 16
TOKEN_BYTES = 12


def _repeats(task_id: str, result: Json, paths: list[Path], token: str) -> _Repeats:
    """The result's repeats from the cache when `token` names them, else computed in one pass."""
    known = _REPEATS.get(token) if token else None
    if known is not None and known.task_id == task_id:
        _REPEATS.move_to_end(token)
        return known
    digest = hashlib.blake2b(task_id.encode(), digest_size=TOKEN_BYTES)
    index: dict[str, int] = {}
    first: array[int] = array("q")
    for path in paths:
        for element in _get(result, path):
            key = json.dumps(element, sort_keys=True)
            digest.update(len(key).to_bytes(8, "big"))
            digest.update(key.encode())
            first.append(index.setdefault(key, len(first)))
    repeats = _Repeats(task_id=task_id, token=digest.hexdigest(), first=first)
    _REPEATS[repeats.token] = repeats
    _REPEATS.move_to_end(repeats.token)
    while len(_REPEATS) > REPEATS_KEPT:
        _REPEATS.popitem(last=False)
    return repeats


def _span(result: Json, paths: list[Path], start: int, stop: int) -> list[tuple[int, str, Any]]:
    """(index, at, element) of the items `start` to `stop` (exclusive), visiting no item outside."""
    out: list[tuple[int, str, Any]] = []
    base = 0
    for path in paths:
        rows = _get(result, path)
        if base + len(rows) > start and base < stop:
            span = range(max(start - base, 0), min(stop - base, len(rows)))
            out.extend((base + i, at(path, i), rows[i]) for i in span)
        base += len(rows)
    return out


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
    paths = collections(record.type, result)
    total = sum(len(_get(result, path)) for path in paths)
    offset, token = decode_cursor(cursor) if cursor else (0, "")
    size = min(limit or DEFAULT_PAGE, MAX_PAGE)
    repeats = _repeats(record.id, result, paths, token)
    if (token and token != repeats.token) or offset > total:
        # The digest names the task and its items: another task's cursor (or an altered one) would
        # page this result from an offset that means nothing here, silently skipping items.
        raise InvalidParams(
            f"cursor: not a cursor of task {record.id}'s result (made for another task's result, or altered)",
            hint="Pass the nextCursor this task's previous tasks.result page gave, unchanged (omit it "
            "for the first page).",
            fields=["cursor"],
        )
    items: list[Json] = []
    used = 0
    for index, where, element in _span(result, paths, offset, offset + size):
        first = repeats.first[index]
        if first != index:
            entry = {"at": where, "sameAs": _span(result, paths, first, first + 1)[0][1]}
        else:
            entry = _entry(where, project(element, fields))
        used += len(json.dumps(entry))
        if items and used > PAGE_BUDGET:
            break
        items.append(entry)
    end = offset + len(items)
    out: Json = dict(head)
    if not cursor:
        out["summary"] = summary(record.type, result)
    out["items"] = items
    out["page"] = {"from": offset, "count": len(items), "total": total}
    out["nextCursor"] = encode_cursor(end, repeats.token) if end < total else None
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
    out: Json = _unpage(copy.deepcopy(summary_))
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


ARGS_LIST = 5  # elements of a list shown in an args summary (the rest counted)
# Characters (as JSON) an args summary may take: past them it is summarised more shallowly. A
# summary cuts strings and counts long lists, but 12 keys x 3 levels x 5-element lists of objects
# is still ~100 KB; an args blob (a big outputSchema, input.data) must not come back whole.
ARGS_SUMMARY_CHARS = 1_500


def summarize_args(value: Any, depth: int = 0) -> Any:
    """A short account of a task's args: what it was asked, recognisably. Scalars kept, long
    strings cut (as `summarize`), lists of up to ARGS_LIST elements kept (longer ones give their
    first ARGS_LIST and a count), nesting stopped at three levels."""
    if isinstance(value, dict):
        if depth >= 3:
            return {"keys": len(value)}
        shown = list(value.items())[:SUMMARY_KEYS]
        out = {k: summarize_args(v, depth + 1) for k, v in shown}
        if len(value) > SUMMARY_KEYS:
            out["moreKeys"] = len(value) - SUMMARY_KEYS
        return out
    if isinstance(value, list):
        head = [summarize_args(v, depth + 1) for v in value[:ARGS_LIST]]
        return head if len(value) <= ARGS_LIST else {"count": len(value), "first": head}
    return summarize(value, depth)


def args_summary(value: Any) -> Any:
    """`summarize_args(value)`, or shallower summaries while it is over ARGS_SUMMARY_CHARS as JSON:
    `summarize` (lists counted), then the top level alone (nested objects and lists counted)."""
    out = summarize_args(value)
    for depth in (0, 1):
        if len(json.dumps(out, default=str)) <= ARGS_SUMMARY_CHARS:
            break
        out = summarize(value, depth)
    return out


def task_view(record: TaskRecord, *, full: bool = False, args: bool = False) -> Json:
    """What an agent sees of a task: status, progress, error, timestamps and a partial-result summary.

    `full=True` gives the whole partial result as `partialResult` instead of `partialSummary`.
    `args=True` (tasks.get) adds what the task was asked: `args`, summarised (`summarize_args`,
    with `argsHint` when something was left out) unless `full`.
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
    if args:
        view["args"] = record.args if full else args_summary(record.args)
        if not full and view["args"] != record.args:
            view["argsHint"] = "full: true for the whole args"
    if full:
        view["partialResult"] = record.partial
    elif record.partial is not None:
        view["partialSummary"] = summarize(record.partial)
        view["partialHint"] = "full: true for the whole partial result"
    if record.cancel_requested and not record.terminal:
        view["cancelRequested"] = True
    if record.stopped_by is not None:
        # Stopped short of its end: what it found is its answer (tasks.result), not a full run's.
        view["partial"] = True
        view["stoppedBy"] = record.stopped_by
    waiting = input_required(record)
    if waiting is not None:
        view["inputRequired"] = waiting
    return view


def input_required(record: TaskRecord) -> Json | None:
    """What a task waiting for its owner's input (status input_required) needs, in seed 000 section
    6.5's shape {error: "input_required", message, instruction, retryWith} (what a client that can't
    be asked by elicitation reads); None for any other task."""
    if record.status is not TaskStatus.INPUT_REQUIRED:
        return None
    request = record.meta.get(INPUT_REQUEST_META)
    request = request if isinstance(request, dict) else {}
    kind = str(request.get("kind") or "input")
    step = request.get("step") or "its current step"
    retry = {"operation": "tasks.result", "args": {"taskId": record.id, "wait": 30}}
    if kind == "apiKey":
        return {
            "error": "input_required",
            "kind": kind,
            "message": f"task {record.id} waits at {step} for an Exa API key for {record.principal}, who has "
            "given none to this server (or Exa refused the one given); it resumes where it stopped once "
            "one is given",
            "instruction": "Poll this task (tasks.get, tasks.result, MCP tasks/get) from an MCP client that "
            "supports URL-mode elicitation: it is sent a one-time link to a page on the server's machine "
            "where the key is pasted (never through the client). Or the operator sets EXA_API_KEY and "
            "restarts the server. Then call tasks.result again.",
            "retryWith": retry,
        }
    if kind == "root":
        return {
            "error": "input_required",
            "kind": kind,
            "message": f"task {record.id} waits at {step} to read the local file {request.get('path')!r}: "
            "a task reads a file only inside its owner's MCP client's roots, and no client was there",
            "instruction": "Poll this task (tasks.get, tasks.result, MCP tasks/get) from an MCP client that "
            "offers roots and shares the file's folder as one: the file is read there and the task "
            "resumes. Or cancel it and create the import again with the CSV text in 'csv'.",
            "retryWith": retry,
        }
    return {
        "error": "input_required",
        "kind": kind,
        "message": f"task {record.id} waits at {step} for input: {request.get('message') or kind}",
        "instruction": str(request.get("hint") or "Provide it, then call tasks.result again."),
        "retryWith": retry,
    }
