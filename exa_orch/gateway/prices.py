"""Exa's published prices, as data (the table and its sources: data-design/prices.md).

The ledger records what Exa billed (`costDollars`) wherever Exa says it; these prices serve where
it says nothing (Websets answers: an estimate, marked so) and before a request is sent (a task's
budget checks the request's worst case; `preview` prices a whole task). Dollars per request unless
named otherwise. Figures marked "estimate" in data-design/prices.md are exa-orch's, not Exa's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from exa_orch.gateway.agent_runs import DEFAULT_MODEL, MODEL_TO_EFFORT

SOURCE: Final = "https://exa.ai/docs/reference/pricing (2026), https://exa.ai/docs/websets/pricing"

SEARCH: Final = 0.007  # /search and /findSimilar, auto/neural/fast/keyword, up to 10 results
SEARCH_DEEP: Final = 0.012  # type "deep"
SEARCH_DEEP_REASONING: Final = 0.015  # type "deep-reasoning"
EXTRA_RESULT: Final = 0.001  # each result past the 10 a request includes
INCLUDED_RESULTS: Final = 10
CONTENT_PER_PAGE: Final = 0.001  # each page, per content type asked (text, highlights)
SUMMARY_PER_PAGE: Final = 0.001  # an Exa-generated summary, per page
ANSWER: Final = 0.005
MONITOR_RUN: Final = 0.015  # a monitor's scheduled search (one report says $0.002 since 2026-11)

# Agent runs at a fixed effort cost a fixed price per run. Every figure Exa published, with its
# source and the date it was read (data-design/prices.md). Where Exa's artifacts disagree, the
# price held is the costliest (`AGENT_FIXED`): a budget's worst-case hold never falls short of what
# Exa may bill, and the run's billed costDollars replaces it when the run ends.
PRICING_PAGE: Final = (
    "Exa's pricing page, https://exa.ai/docs/reference/pricing ($0.012-$1.00 a run), read 2026-11"
)
AGENT_SPEC: Final = (
    "the Agent API spec copy (api-evangelist/exa-ai, commit a3174a3), as read for issue 35, 2026-12-01"
)


@dataclass(frozen=True, slots=True)
class Published:
    """One figure Exa published for a fixed-effort run: dollars, where, when read."""

    usd: float
    source: str


AGENT_PUBLISHED: Final[dict[str, tuple[Published, ...]]] = {
    "minimal": (Published(0.012, PRICING_PAGE),),
    "low": (Published(0.025, AGENT_SPEC),),
    "medium": (Published(0.10, AGENT_SPEC),),
    "high": (Published(0.50, AGENT_SPEC),),
    "xhigh": (Published(1.00, PRICING_PAGE), Published(2.00, AGENT_SPEC)),
}
AGENT_FIXED: Final[dict[str, float]] = {
    effort: max(p.usd for p in figures) for effort, figures in AGENT_PUBLISHED.items()
}
AGENT_METERED_CAP: Final[dict[str, float]] = {"auto": 5.0, "ultra": 20.0, "max": 20.0}
ACU: Final = 0.10  # one Agent Compute Unit (agent and Websets usage)
USAGE_SEARCH: Final = 0.005  # one search an agent run or a webset makes

# Websets bill ACUs and searches, never a price per item. Exa's own worked example (3 ACU + 250
# searches for 50 verified matches, $1.55) reads as one search per candidate analyzed (250 for 50
# matches: 5 a match) and 0.06 ACU of compute per match: a webset's estimate follows what it did,
# candidates analyzed and items found (estimate, not billed), so work that found nothing still
# costs. A search asking for `count` items holds count x WEBSET_ITEM_ESTIMATE until what it did is
# counted: 20 candidates analyzed and the match an item asked, as the one real timeline shows (a
# count-5 search analyzed 99 candidates), $0.106 an item asked.
WEBSET_ANALYZED_ESTIMATE: Final = USAGE_SEARCH  # one candidate analyzed: one search
WEBSET_FOUND_ESTIMATE: Final = round(0.06 * ACU, 6)  # one item found: 0.06 ACU of compute
WEBSET_ANALYZED_PER_ITEM: Final = 20  # candidates analyzed per item asked (99 for a count-5 search)
WEBSET_ITEM_ESTIMATE: Final = round(
    WEBSET_ANALYZED_PER_ITEM * WEBSET_ANALYZED_ESTIMATE + WEBSET_FOUND_ESTIMATE, 6
)
WEBSET_ENRICHMENT_ESTIMATE: Final = 0.01  # one enrichment cell: ~0.05 ACU + 1 search (estimate)
CONTACT_ENRICHMENT: Final = 0.02  # Exa adds this per contact enrichment result
# The enrichment formats that are contact enrichments (an email or phone found per item): their
# results cost CONTACT_ENRICHMENT on top of the cell (data-design/prices.md; which formats count as
# "contact" is exa-orch's reading of the pricing page).
CONTACT_FORMATS: Final = frozenset({"email", "phone"})


def contact_columns(enrichments: Any) -> int:
    """How many of a webset's enrichments (dicts or models with a `format`) are contact enrichments."""
    if not isinstance(enrichments, list | tuple):
        return 0
    formats = [e.get("format") if isinstance(e, dict) else getattr(e, "format", None) for e in enrichments]
    return sum(1 for f in formats if f in CONTACT_FORMATS)


def cell_price(fmt: Any) -> float:
    """The estimate of one enrichment result of format `fmt` (a contact one adds Exa's surcharge)."""
    return WEBSET_ENRICHMENT_ESTIMATE + (CONTACT_ENRICHMENT if fmt in CONTACT_FORMATS else 0.0)


def search_price(body: dict[str, Any]) -> float:
    """Worst case of one /search (or /findSimilar) with this body, contents included."""
    kind = body.get("type")
    base = SEARCH_DEEP if kind == "deep" else SEARCH_DEEP_REASONING if kind == "deep-reasoning" else SEARCH
    n = body.get("numResults")
    n = n if isinstance(n, int) and n > 0 else INCLUDED_RESULTS
    return round(
        base + max(0, n - INCLUDED_RESULTS) * EXTRA_RESULT + n * contents_per_page(body.get("contents")), 6
    )


def contents_per_page(options: Any) -> float:
    """What contents options cost per page: each content type asked, and a summary."""
    if not isinstance(options, dict):
        return 0.0
    per = sum(CONTENT_PER_PAGE for kind in ("text", "highlights") if options.get(kind))
    if options.get("summary"):
        per += SUMMARY_PER_PAGE
    return per


def contents_price(body: dict[str, Any]) -> float:
    """Worst case of one /contents with this body (a page with no option asked returns text)."""
    urls = body.get("urls") or body.get("ids") or []
    pages = len(urls) if isinstance(urls, list) else 1
    per = contents_per_page(body) or CONTENT_PER_PAGE
    return round(max(pages, 1) * per, 6)


def agent_price(body: dict[str, Any]) -> float:
    """Worst case of one agent run: its fixed price, or its metered cap (its own budget if lower)."""
    effort = body.get("effort") or "auto"
    if effort in AGENT_FIXED:
        return AGENT_FIXED[effort]
    cap = AGENT_METERED_CAP.get(effort, AGENT_METERED_CAP["auto"])
    budget = body.get("budget")
    if isinstance(budget, dict) and isinstance(budget.get("maxCostDollars"), int | float):
        cap = min(cap, float(budget["maxCostDollars"]))
    return cap


# --- a whole task's cost range (tasks.create's `preview: true`) ------------------------------------


@dataclass(frozen=True, slots=True)
class Part:
    """One kind of paid work a task may do: `count` of them at most `each` dollars apiece. `certain`:
    billed however the task goes (an agent run at a fixed effort, a direct request); otherwise it
    depends on what Exa finds (webset items, enrichment cells) or uses (a metered agent run)."""

    what: str
    count: int
    each: float
    certain: bool = False
    estimate: bool = False  # the unit price is exa-orch's estimate (data-design/prices.md), not Exa's


def agent_run(effort: str, what: str = "agent run", count: int = 1, max_cost: float | None = None) -> Part:
    """`count` agent runs at `effort`: the fixed price (certain), or the metered cap (a ceiling:
    Exa's default, or the run's own `budget.maxCostDollars` if lower)."""
    if effort in AGENT_FIXED:
        return Part(
            f"{what} ({effort})",
            count,
            AGENT_FIXED[effort],
            certain=True,
        )
    cap = AGENT_METERED_CAP.get(effort, AGENT_METERED_CAP["auto"])
    return Part(f"{what} ({effort}, metered)", count, cap if max_cost is None else min(cap, max_cost))


def webset(count: int, enrichments: int = 0, what: str = "webset", contacts: int = 0) -> list[Part]:
    """A webset search for `count` items with `enrichments` columns (`contacts` of them contact
    enrichments): at most every item found and every cell filled (nothing of it certain: a search
    may find nothing)."""
    parts = [Part(f"{what} items", count, WEBSET_ITEM_ESTIMATE, estimate=True)]
    if enrichments:
        parts.append(
            Part(f"{what} enrichment cells", count * enrichments, WEBSET_ENRICHMENT_ESTIMATE, estimate=True)
        )
    if contacts:
        parts.append(Part(f"{what} contact enrichment results", count * contacts, CONTACT_ENRICHMENT))
    return parts


def monitor_run(count: int, what: str = "monitor run") -> list[Part]:
    """One scheduled run of a monitor whose search asks for `count` items: the run's price (Exa's)
    and at most `count` new items (estimate). A monitor runs on its cadence until deleted: this is
    the cost of each run."""
    return [Part(what, 1, MONITOR_RUN), *webset(count, what=f"{what} new")]


def price_range(parts: list[Part]) -> dict[str, Any]:
    """`{low, high, parts, source}`: low counts the certain parts, high every part at its most."""
    low = sum(p.count * p.each for p in parts if p.certain)
    high = sum(p.count * p.each for p in parts)
    return {
        "lowUsd": round(low, 6),
        "highUsd": round(high, 6),
        "parts": [
            {
                "what": p.what,
                "count": p.count,
                "eachUsd": p.each,
                "usd": round(p.count * p.each, 6),
                "certain": p.certain,
                "estimate": p.estimate,
            }
            for p in parts
        ],
        "source": SOURCE + "; estimates: data-design/prices.md",
    }


def research_run(model: str, what: str = "research run", count: int = 1) -> Part:
    """`count` research runs of `model` (agent runs at its effort, gateway/agent_runs.py)."""
    return agent_run(MODEL_TO_EFFORT.get(model, MODEL_TO_EFFORT[DEFAULT_MODEL]), what, count)
