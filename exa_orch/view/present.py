"""How the web view puts rows in words a person reads: labels, numbers, a task's arguments and
result, a run's niche grid and rounds. Pure functions of what `data.ViewDB` returned; no I/O.

- `label("eliteChange")` -> "elite change"; `shown(True)` -> "yes"; `shown(33.0)` -> "33".
- `arguments(args)`: a task's arguments as (label, text or list of texts) lines, criteria and
  enrichments by their descriptions.
- `result_view(result, page)`: the summary of a result (its scalars and long texts, lists
  counted) and one page of its main list of items as a table: each item's name, link, key fields
  and citations.
- `niche_grid(criteria, elites, counts)`: qd.winnow's niches as a grid, criteria on both axes.
- `rounds_table(criteria, stats)`: qd.winnow's rounds side by side.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import partial
from typing import Any

ITEMS_PER_PAGE = 25
LONG_TEXT = 240  # a string longer than this is a text to read, shown as a paragraph, not a fact
# The list a result is about, first found wins; else its first list of objects.
ITEM_KEYS = ("finalElites", "items", "intersection", "results", "citations", "data")
# Fields of an item that name or place it rather than describe it: shown as its name and link.
PLUMBING = {
    "id", "object", "source", "sourceId", "websetId", "createdAt", "updatedAt", "item", "properties",
    "name", "title", "url", "enrichments", "evaluations", "criteriaVector", "citations", "references",
    "grounding", "text", "highlights", "highlightScores", "summary", "image", "favicon", "author",
}  # fmt: skip
KEY_FIELDS = 5  # columns of key fields in an item table
CITATIONS = 3  # links per item
MAX_CRITERIA_GRID = 5


def label(key: str) -> str:
    """A field's name for people: `eliteChange` -> "elite change", `duration_ms` -> "duration ms"."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", str(key)).replace("_", " ")
    return spaced.lower().strip()


# A completed task that stopped short, by what stopped it (its result's stoppedBy): the word every
# view shows in place of "completed" (a cancelled task keeps "cancelled").
STOPPED_WORDS = {"budget": "budget reached", "timeout": "timed out"}


def status_word(task: dict[str, Any]) -> str:
    """A task's status for people: "budget reached" or "timed out" for a completed task its budget
    or deadline stopped (`stopped_by`), else its status ("input required", "cancelled", ...)."""
    stopped = task.get("stopped_by")
    if task.get("status") == "completed" and stopped:
        return STOPPED_WORDS.get(str(stopped), f"stopped ({stopped})")
    return label(str(task.get("status")))


def shown(value: Any) -> str:
    """A value for people: yes/no for booleans, whole floats without `.0`, others to 3 decimals,
    lists joined, objects as compact JSON, None as empty."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        if value.is_integer():
            return str(int(value))
        return f"{value:.3f}".rstrip("0").rstrip(".")
    if isinstance(value, int):
        return str(value)
    if isinstance(value, list):
        if all(not isinstance(v, dict | list) for v in value):
            return ", ".join(shown(v) for v in value)
        return f"{len(value)} item{'' if len(value) == 1 else 's'}"
    if isinstance(value, dict):
        return json.dumps(value, ensure_ascii=False)[:300]
    return str(value)


def clock(stamp: str | None, now: datetime | None = None) -> str:
    """A store stamp as `HH:MM:SS` (UTC, as stored) when it is today, else `MM-DD HH:MM`."""
    if not stamp or len(stamp) < 19:
        return ""
    today = (now or datetime.now(UTC)).strftime("%Y-%m-%d")
    return stamp[11:19] if stamp[:10] == today else f"{stamp[5:10]} {stamp[11:16]}"


def duration_ms(ms: Any) -> str:
    """Milliseconds as `850 ms`, `4.2 s`, `3 min 05 s`, `2 h 05 min`."""
    if not isinstance(ms, int | float) or isinstance(ms, bool):
        return ""
    if ms < 1000:
        return f"{round(ms)} ms"
    s = ms / 1000
    if s < 60:
        return f"{s:.1f} s"
    if s < 3600:
        return f"{int(s // 60)} min {int(s % 60):02d} s"
    return f"{int(s // 3600)} h {int(s % 3600 // 60):02d} min"


# --------------------------------------------------------------------------- a task's arguments


def arguments(args: Any) -> list[tuple[str, str | list[str]]]:
    """A task's arguments as lines: (label, text) or (label, [texts]) for a list of criteria,
    enrichments or queries. Long texts stay whole (the page wraps them)."""
    if not isinstance(args, dict):
        return [("arguments", shown(args))] if args is not None else []
    lines: list[tuple[str, str | list[str]]] = []
    for key, value in args.items():
        if key == "timeout" and isinstance(value, int | float):
            lines.append((label(key), duration_ms(value)))
        elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            lines.append((label(key), [_described(v) for v in value]))
        elif isinstance(value, list) and value and all(isinstance(v, str) for v in value):
            lines.append((label(key), [str(v) for v in value]))
        elif isinstance(value, dict) and key == "entity" and isinstance(value.get("type"), str):
            lines.append((label(key), str(value["type"])))
        else:
            lines.append((label(key), shown(value)))
    return lines


def _described(value: dict[str, Any]) -> str:
    text = value.get("description") or value.get("query") or value.get("name")
    extra = value.get("format")
    if text is None:
        return json.dumps(value, ensure_ascii=False)[:300]
    return f"{text} ({extra})" if isinstance(extra, str) else str(text)


# ------------------------------------------------------------------------------ a task's result


@dataclass
class ItemRow:
    """One item of a result table."""

    name: str
    url: str | None
    fields: list[str]
    citations: list[tuple[str, str]]  # (url, title)


@dataclass
class ResultView:
    """A result as the task page shows it: facts, long texts, then a page of its items."""

    facts: list[tuple[str, str]] = field(default_factory=list)
    texts: list[tuple[str, str]] = field(default_factory=list)
    items_key: str | None = None
    columns: list[str] = field(default_factory=list)
    rows: list[ItemRow] = field(default_factory=list)
    total: int = 0
    page: int = 1
    pages: int = 1


def result_view(result: Any, page: int = 1) -> ResultView:
    """The summary and the `page`-th page (from 1) of the items of a result (see module docstring)."""
    view = ResultView()
    if not isinstance(result, dict):
        if result is not None:
            view.facts.append(("result", shown(result)))
        return view
    key = next((k for k in ITEM_KEYS if _objects(result.get(k))), None)
    key = key or next((k for k, v in result.items() if _objects(v)), None)
    for name, value in result.items():
        if name == key:
            continue
        _summarize(view, label(name), value, depth=0)
    if key is None:
        return view
    items = [i for i in result[key] if isinstance(i, dict)]
    view.items_key, view.total = label(key), len(items)
    view.pages = max(1, -(-len(items) // ITEMS_PER_PAGE))
    view.page = min(max(1, page), view.pages)
    chunk = items[(view.page - 1) * ITEMS_PER_PAGE : view.page * ITEMS_PER_PAGE]
    view.columns = _key_fields(items)
    view.rows = [_row(i, view.columns) for i in chunk]
    return view


def _objects(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, dict) for v in value)


def _summarize(view: ResultView, name: str, value: Any, depth: int) -> None:
    if isinstance(value, str) and len(value) > LONG_TEXT:
        view.texts.append((name, value))
    elif isinstance(value, dict) and depth < 1:
        for k, v in value.items():
            _summarize(view, f"{name} · {label(k)}", v, depth + 1)
    elif isinstance(value, list) and _objects(value):
        view.facts.append((name, f"{len(value)} item{'' if len(value) == 1 else 's'}"))
    else:
        view.facts.append((name, fact(name, value)))


def fact(name: str, value: Any) -> str:
    """A value as a fact: a duration (a number under a name saying so, in ms as exa-orch
    reports them) as a duration, anything else as `shown`."""
    if name.endswith("duration") and isinstance(value, int | float) and not isinstance(value, bool):
        return duration_ms(value)
    return shown(value)[:LONG_TEXT]


def _entity(row: dict[str, Any]) -> dict[str, Any]:
    item = row.get("item")
    return item if isinstance(item, dict) else row


def _props(row: dict[str, Any]) -> dict[str, Any]:
    props = _entity(row).get("properties")
    return props if isinstance(props, dict) else {}


def item_name(row: dict[str, Any]) -> str:
    """What an item is called: a company's or person's name, an article's or paper's title, ..."""
    props = _props(row)
    for kind, key in (
        ("company", "name"),
        ("person", "name"),
        ("article", "title"),
        ("researchPaper", "title"),
    ):
        nested = props.get(kind)
        if isinstance(nested, dict) and isinstance(nested.get(key), str):
            return str(nested[key])
    for source in (_entity(row), row, props):
        for key in ("name", "title", "query", "description"):
            if isinstance(source.get(key), str) and source[key].strip():
                return " ".join(str(source[key]).split())[:200]
    return str(_entity(row).get("id") or "")


def _http(value: Any) -> str | None:
    return value if isinstance(value, str) and value.lower().startswith(("http://", "https://")) else None


def item_url(row: dict[str, Any]) -> str | None:
    """The item's own link (http or https only)."""
    return _http(_props(row).get("url")) or _http(_entity(row).get("url")) or _http(row.get("url"))


def citations(row: dict[str, Any], own: str | None = None) -> list[tuple[str, str]]:
    """Up to CITATIONS (url, title) sources an item cites: under `citations`, `references`,
    `sources` or `grounding`, at any depth up to 4; its own link left out."""
    found: list[tuple[str, str]] = []

    def walk(value: Any, depth: int, cited: bool) -> None:
        if len(found) >= CITATIONS or depth > 4:
            return
        if isinstance(value, dict):
            url = _http(value.get("url"))
            if cited and url and url != own and url not in (u for u, _ in found):
                found.append((url, str(value.get("title") or url)[:120]))
            for k, v in value.items():
                walk(v, depth + 1, cited or k in ("citations", "references", "sources", "grounding"))
        elif isinstance(value, list):
            for v in value:
                if cited and _http(v) and v != own and v not in (u for u, _ in found):
                    found.append((v, v))
                else:
                    walk(v, depth + 1, cited)

    walk(row, 0, False)
    return found[:CITATIONS]


def _key_fields(items: list[dict[str, Any]]) -> list[str]:
    """The item fields worth a column: scalars (or lists of scalars) the items carry, first seen
    first, up to KEY_FIELDS."""
    keys: list[str] = []
    for row in items[:50]:
        for k, v in row.items():
            if k in PLUMBING or k in keys:
                continue
            if v is None or isinstance(v, bool | int | float) or (isinstance(v, str) and len(v) <= 120):
                keys.append(k)
            elif isinstance(v, list) and all(not isinstance(x, dict | list) for x in v):
                keys.append(k)
    return keys[:KEY_FIELDS]


def _row(row: dict[str, Any], columns: list[str]) -> ItemRow:
    url = item_url(row)
    return ItemRow(
        name=item_name(row),
        url=url,
        fields=[
            niche_marks(v) if c == "niche" and isinstance(v, str) else fact(label(c), v)[:200]
            for c, v in ((c, row.get(c)) for c in columns)
        ],
        citations=citations(row, own=url),
    )


# ---------------------------------------------------------------------------------- a run's niches


@dataclass
class GridCell:
    """One niche of the grid: its key, its elite (if any) and how many items fell in it."""

    niche: str
    elite: dict[str, Any] | None
    count: int | None


@dataclass
class NicheGrid:
    """Criteria `row_criteria` down, `column_criteria` across; each header a list of (met, text)."""

    row_criteria: list[str]
    column_criteria: list[str]
    column_heads: list[list[tuple[bool, str]]]
    rows: list[tuple[list[tuple[bool, str]], list[GridCell]]]
    filled: int
    possible: int


def niche_grid(criteria: list[str], elites: list[dict[str, Any]], counts: dict[str, int]) -> NicheGrid | None:
    """qd.winnow's niches as a grid: the first half of the criteria down the side, the rest
    across, each axis a criterion met (✓) or not; a cell holds the niche's best final elite and
    the items that fell in it (`counts`). None when there is no niche to draw. Criteria whose
    text is unknown (an old run whose task expired) are named "criterion N"."""
    final = [e for e in elites if e.get("round") is None]
    width = max([len(criteria), *(len(str(e["niche"]).split(",")) for e in final)], default=0)
    if not width or width > MAX_CRITERIA_GRID or not (final or counts):
        return None
    texts = [criteria[i] if i < len(criteria) else f"criterion {i + 1}" for i in range(width)]
    down, across = texts[: width // 2], texts[width // 2 :]
    best: dict[str, dict[str, Any]] = {}
    for e in final:  # elites come best first: the first of a niche is its elite
        best.setdefault(str(e["niche"]), e)

    def combos(names: list[str]) -> list[list[tuple[bool, str]]]:
        return [
            list(zip(bits, names, strict=True))
            for bits in itertools.product((True, False), repeat=len(names))
        ]

    rows = []
    for head in combos(down):
        cells = []
        for col in combos(across):
            niche = ",".join("1" if met else "0" for met, _ in [*head, *col])
            cells.append(GridCell(niche, best.get(niche), counts.get(niche)))
        rows.append((head, cells))
    filled = sum(1 for _, cells in rows for c in cells if c.elite is not None)
    return NicheGrid(down, across, combos(across), rows, filled, 2**width)


def niche_counts(stats: list[dict[str, Any]]) -> dict[str, int]:
    """Items per niche over all of a run's rounds (an item found again in a later round counts again)."""
    counts: dict[str, int] = {}
    for s in stats:
        dist = s.get("nicheDistribution")
        for niche, n in dist.items() if isinstance(dist, dict) else ():
            if isinstance(n, int):
                counts[str(niche)] = counts.get(str(niche), 0) + n
    return counts


def niche_marks(niche: str) -> str:
    """ "1,0,1" -> "✓ ✗ ✓"."""
    return " ".join("✓" if b == "1" else "✗" for b in niche.split(","))


def rounds_table(criteria: list[str], stats: list[dict[str, Any]]) -> list[tuple[str, list[str]]]:
    """qd.winnow's rounds side by side: one (label, [value per round]) line per figure, each
    criterion's success rate and each niche's item count."""
    if not stats:
        return []

    def line(name: str, fn: Callable[[dict[str, Any]], str]) -> tuple[str, list[str]]:
        return name, [fn(s) for s in stats]

    lines = [
        line("items collected", lambda s: shown(s.get("itemCount"))),
        line("found / analyzed", lambda s: f"{shown(s.get('found'))} / {shown(s.get('analyzed'))}"),
        line("stringency", lambda s: percent(s.get("stringency"))),
        line("elites this round", lambda s: shown(s.get("elites"))),
        line("elite change", lambda s: percent(s.get("eliteChange"))),
        line("timed out", lambda s: shown(s.get("timedOut"))),
        line("items with an unclear answer", lambda s: shown(s.get("unclearCount"))),
        line("niches asked for", _targets),
    ]
    lines += [line(f"meets “{text}”", partial(_rate_of, text=text)) for text in criteria]
    niches = sorted({n for s in stats for n in (s.get("nicheDistribution") or {})}, reverse=True)
    lines += [line(f"items in niche {niche_marks(n)}", partial(_count_of, niche=n)) for n in niches]
    return lines


def _targets(stats: dict[str, Any]) -> str:
    """The niches an exploring round asked for ("✓ ✗ ✓; ✗ ✗ ✓"); empty for a round that searched the query."""
    targets = stats.get("targetNiches")
    return "; ".join(niche_marks(str(n)) for n in targets) if isinstance(targets, list) else ""


def percent(value: Any) -> str:
    """A share as a whole percent: 0.375 -> "38%"; empty for none."""
    if not isinstance(value, int | float) or isinstance(value, bool):
        return ""
    return f"{value * 100:.0f}%"


def _rate_of(stats: dict[str, Any], text: str) -> str:
    rates = stats.get("criteriaSuccessRates")
    value = rates.get(text) if isinstance(rates, dict) else None
    return f"{value:.0f}%" if isinstance(value, int | float) else ""


def _count_of(stats: dict[str, Any], niche: str) -> str:
    dist = stats.get("nicheDistribution")
    return shown(dist.get(niche, 0)) if isinstance(dist, dict) else ""


def dollars(usd: float | None) -> str:
    """`$0.42`, `$0.0070` under a cent; empty for a task that paid nothing."""
    if not usd:
        return ""
    return f"${usd:.4f}" if usd < 0.01 else f"${usd:.2f}"
