"""The citation check: every page a result cites, read through Exa's /contents, against what the
result says it says.

Contract:
- `checking(spec)` is the task type `spec` with the check after its work: its args gain
  `verifyCitations` (default true) and `citationPages` (the page cap, shown with its cost in
  `preview`), and a completed dict result gains `citationCheck` (below; zeros when it cites
  nothing). The check runs only when the workflow returned normally and its purse is not stopped
  (a task stopped by its budget has no check); it adds nothing else to the result.
- `collect(result)` finds the citations in any result: each webset item's evaluations' and
  enrichments' references (the reference's snippet, else the enrichment's answer), and each
  grounding list (`citations: [{field, urls}]` beside `result`, as research.deep has, or inside a
  synthesis, as adversarial.verify has) with the cited field's value as the snippet. Citations
  without a snippet, or with a URL that is not http(s), are counted, not fetched.
- `check(ctx, cited, cap)`: first the quotes an agent's view of the items left out (`quotes`), then
  each distinct URL fetched once per task, in steps `citations.pages:N` (their checkpoints hold
  each page's verdicts, not its text: a resumed task reads them again, not Exa), at most `cap`
  pages, and never more than the task's budget can still pay: the batch is sized inside its step
  from the purse's remaining dollars at the worst case per page, so a stopped batch is a saved
  fact too. Pages not fetched leave their citations `unchecked`, and the `note` says why.
- `citationCheck`: `citations: {checked, supported, notFound, unreachable, unchecked}`, one count
  per distinct claim, quote and source (copies of one page, same text, are one source: the same
  quote of a copy is counted once), `pages: {fetched, sources, copies, cap, costUsd}`,
  `flaggedFields: [{field, at}]` (the fields, of an item `at` or a claim, whose every checked
  citation is not_found), `checks: [{field, itemId | claim, url, snippet, status, passage, score,
  source, copyOf?, error?}]` (one per citation, copies included) and `note`.
"""

from __future__ import annotations

import asyncio
import dataclasses
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from pydantic import Field

from exa_orch.errors import LeaseHeld, OrchError
from exa_orch.exa.models import Contents
from exa_orch.gateway import prices
from exa_orch.gateway.context import current_request
from exa_orch.runtime import TaskContext
from exa_orch.runtime.deps import exa_port_of
from exa_orch.runtime.spec import WorkflowSpec
from exa_orch.workflows import cite_match, kit

Json = dict[str, Any]

DEFAULT_PAGES = 100
MAX_PAGES = 1000
BATCH = 25  # URLs per /contents request (Exa takes up to 100): a budget's stop is this fine
PAGE_CHARS = 20_000  # of a page's text asked and kept in its checkpoint
PER_PAGE = prices.CONTENT_PER_PAGE  # text only: what each page fetched costs at most
_WEB = re.compile(r"^https?://[^\s/?#]+\.[^\s/?#]+", re.IGNORECASE)


class CitationArgs(kit.TaskArgs):
    """The args every research task type gains (`checking`)."""

    verify_citations: bool = True
    """check each cited page (fetched once through Exa's /contents, billed, within the budget)
    says what the result cites it for: supported, not_found (closest passage shown) or unreachable;
    false skips the check"""
    citation_pages: int = Field(default=DEFAULT_PAGES, ge=0, le=MAX_PAGES)
    """at most this many cited pages are fetched for the check ($0.001 each, in preview); the
    citations of pages past it are unchecked"""


@dataclass(frozen=True)
class Cited:
    """One citation: the field it backs, where it sits (item id or claim path), the URL, the snippet
    (`quoted`: the reference's own quote, not the answer standing in for one)."""

    field: str
    url: str
    snippet: str
    item_id: str | None = None
    claim: str | None = None
    webset_id: str | None = None
    quoted: bool = True


# --- what a result cites ----------------------------------------------------------------------


def _text(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return "; ".join(_text(v) for v in value if v is not None)
    return "" if value is None or isinstance(value, dict) else str(value)


def _refs(refs: Any) -> Iterator[tuple[str, str]]:
    """(url, snippet) of each reference: Exa's objects, or the URLs a projected item keeps."""
    for ref in refs if isinstance(refs, list) else []:
        if isinstance(ref, str):
            yield ref, ""
        elif isinstance(ref, dict) and isinstance(ref.get("url"), str):
            yield ref["url"], _text(ref.get("snippet"))


def _item_cites(item: Json) -> Iterator[Cited]:
    where = {"item_id": str(item.get("id") or ""), "webset_id": item.get("websetId")}
    for ev in item.get("evaluations") or []:
        if isinstance(ev, dict):
            for url, snippet in _refs(ev.get("references")):
                yield Cited(f"criterion: {ev.get('criterion')}", url, snippet, quoted=bool(snippet), **where)
    for en in item.get("enrichments") or []:
        if isinstance(en, dict):
            for url, snippet in _refs(en.get("references")):
                field = f"enrichment: {en.get('enrichmentId')}"
                said = snippet or _text(en.get("result"))
                yield Cited(field, url, said, quoted=bool(snippet), **where)


_PATH_PART = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


def value_at(value: Any, path: str) -> Any:
    """The value at a grounding path ('companies[0].name', 'text'); None where there is none."""
    if path == "text" and isinstance(value, str):
        return value
    for name, index in _PATH_PART.findall(path):
        if index:
            value = value[int(index)] if isinstance(value, list) and int(index) < len(value) else None
        else:
            value = value.get(name) if isinstance(value, dict) else None
    return value


def _grounded(holder: Json) -> Iterator[Cited]:
    root = holder["result"] if "result" in holder else holder
    for group in holder.get("citations") or []:
        if not isinstance(group, dict) or not isinstance(group.get("field"), str):
            continue
        path = group["field"]
        urls = group.get("urls") or [
            c.get("url") for c in group.get("citations") or [] if isinstance(c, dict)
        ]
        snippet = _text(value_at(root, path))
        for url in urls:
            if isinstance(url, str):
                yield Cited(path, url, snippet, claim=path)


def _walk(value: Any) -> Iterator[Cited]:
    if isinstance(value, list):
        for v in value:
            yield from _walk(v)
        return
    if not isinstance(value, dict):
        return
    if isinstance(value.get("evaluations"), list) or isinstance(value.get("enrichments"), list):
        yield from _item_cites(value)
        return
    if isinstance(value.get("citations"), list):
        yield from _grounded(value)
    for key, v in value.items():
        if key not in ("citations", "citationCheck"):
            yield from _walk(v)


def collect(result: Any) -> list[Cited]:
    """Every citation in the result, each once, in first-seen order (module docstring)."""
    return list(dict.fromkeys(_walk(result)))


# --- fetching the pages -----------------------------------------------------------------------


def _affordable(cap_left: int) -> int:
    """Pages the next batch may fetch: the cap left, a batch, and what the budget can pay."""
    n = min(cap_left, BATCH)
    purse = current_request().purse
    if purse is not None and purse.stopped is not None:
        return 0
    remaining = purse.remaining if purse is not None else None
    if remaining is not None:
        n = min(n, int((remaining + 1e-9) / PER_PAGE))
    return max(0, n)


def _pages_of(contents: Contents, batch: list[str]) -> dict[str, Json]:
    """url -> {status: success, text} or {status: error, error} from a /contents answer (the port's
    typed `Contents`; a result is found by its url or id, else by its place among the successes:
    Exa may tidy a URL it read). What a `citations.pages:N` checkpoint judges (`_judged`)."""
    results = contents.results
    texts = {str(key): r.text for r in results for key in (r.url, r.id)}
    out: dict[str, Json] = {}
    for st in contents.statuses:
        if st.status != "success":
            tag = st.error.tag if st.error is not None else None
            out[str(st.id)] = {"status": "error", "error": tag or "CRAWL_UNKNOWN_ERROR"}
    read = [u for u in batch if u not in out]
    by_place = dict(zip(read, [r.text for r in results], strict=False)) if len(read) == len(results) else {}
    for url in read:
        text = texts.get(url, by_place.get(url))
        out[url] = (
            {"status": "success", "text": text}
            if isinstance(text, str)
            else {"status": "error", "error": "NO_TEXT"}
        )
    return out


def _judged(page: Json, quotes: list[str]) -> Json:
    """A page read, as its checkpoint keeps it: its source key and each quote's verdict on it (not
    its text: a task's checkpoints stay small)."""
    if page.get("status") != "success":
        return page
    text = str(page.get("text") or "")
    found = {q: dataclasses.asdict(cite_match.match(q, text)) for q in dict.fromkeys(quotes)}
    return {"status": "success", "source": cite_match.page_key(text), "found": found}


async def fetch_pages(
    ctx: TaskContext, wanted: dict[str, list[str]], cap: int
) -> tuple[dict[str, Json], str | None]:
    """Each URL's page judged against the quotes citing it (`wanted`: url -> quotes), at most `cap`
    pages within the budget, in steps `citations.pages:N`; and why some were left unread (None:
    none were). Matching is CPU work: it runs off the event loop, which keeps renewing leases."""
    urls = list(wanted)
    pages: dict[str, Json] = {}
    n = 0
    while len(pages) < len(urls):
        pending = [u for u in urls if u not in pages]

        async def fetch(pending: list[str] = pending) -> Json:
            size = _affordable(cap - len(pages))
            if size == 0:
                return {"urls": [], "stopped": "budget" if len(pages) < cap else "cap"}
            batch = pending[:size]
            try:
                contents = await exa_port_of(ctx.deps).get_contents(batch, max_characters=PAGE_CHARS)
            except LeaseHeld:
                raise  # not a page unread: this run may no longer do the task's work
            except OrchError as exc:  # the result stands; these pages could not be read
                return {"urls": batch, "pages": {u: {"status": "error", "error": exc.code} for u in batch}}
            read = _pages_of(contents, batch)
            judged = await asyncio.to_thread(lambda: {u: _judged(read[u], wanted[u]) for u in batch})
            return {"urls": batch, "pages": judged}

        got: Json = await ctx.step(f"citations.pages:{n}", fetch)
        n += 1
        if not got.get("urls"):
            return pages, str(got.get("stopped") or "budget")
        pages.update({u: got["pages"].get(u) or {"status": "error", "error": "NO_TEXT"} for u in got["urls"]})
    return pages, None


# --- verdicts ---------------------------------------------------------------------------------


def _verdict(cite: Cited, page: Json | None, sources: dict[str, str]) -> Json:
    out: Json = {"field": cite.field, "url": cite.url, "snippet": cite.snippet[:500]}
    out |= {"itemId": cite.item_id} if cite.item_id is not None else {"claim": cite.claim}
    if page is None:
        return {**out, "status": "unchecked"}
    if page.get("status") != "success":
        return {**out, "status": "unreachable", "error": page.get("error")}
    key = str(page.get("source"))
    first = sources.setdefault(key, cite.url)
    found = (page.get("found") or {}).get(cite.snippet) or {
        "status": "not_found",
        "score": 0.0,
        "passage": "",
    }
    out |= {k: found.get(k) for k in ("status", "passage", "score")} | {"source": key}
    return out | ({"copyOf": first} if first != cite.url else {})


def _counted(checks: list[Json]) -> list[Json]:
    """One check per claim, quote and source: the same quote of a copy of a page (or of the same
    page, for another item) is not counted again."""
    seen: set[tuple[Any, ...]] = set()
    out = []
    for c in checks:
        key = (c.get("claim"), c["field"], cite_match.normalize(c["snippet"]), c.get("source") or c["url"])
        if key not in seen:
            seen.add(key)
            out.append(c)
    return out


def summarize(checks: list[Json], pages: dict[str, Json], cap: int, stopped: str | None) -> Json:
    """The result's `citationCheck` from the verdicts (module docstring)."""
    counted = _counted(checks)
    tally = {
        s: sum(1 for c in counted if c["status"] == s)
        for s in ("supported", "not_found", "unreachable", "unchecked")
    }
    by_field: dict[tuple[Any, str], set[str]] = {}
    for c in checks:
        if c["status"] != "unchecked":
            by_field.setdefault((c.get("itemId") or c.get("claim"), c["field"]), set()).add(c["status"])
    flagged = [
        {"field": f, **({"at": at} if at is not None else {})}
        for (at, f), s in by_field.items()
        if s == {"not_found"}
    ]
    texts = {p.get("source") for p in pages.values() if p and p.get("status") == "success"}
    read = sum(1 for p in pages.values() if p and p.get("status") == "success")
    note = f"{len(pages)} of {len({c['url'] for c in checks})} cited pages read"
    if stopped:
        why = (
            "the task's budget could pay for no more"
            if stopped == "budget"
            else f"the cap of {cap} pages was reached"
        )
        note += f"; {tally['unchecked']} citations unchecked: {why}"
    return {
        "citations": {
            "checked": tally["supported"] + tally["not_found"] + tally["unreachable"],
            "supported": tally["supported"],
            "notFound": tally["not_found"],
            "unreachable": tally["unreachable"],
            "unchecked": tally["unchecked"],
        },
        "pages": {"fetched": len(pages), "sources": len(texts), "copies": read - len(texts), "cap": cap,
                  "costUsd": round(len(pages) * PER_PAGE, 6)},
        "flaggedFields": flagged,
        "note": note,
        "checks": checks,
    }  # fmt: skip


def _key(c: Cited) -> str:
    return f"{c.item_id}\x1f{c.field}\x1f{c.url}"


async def quotes(ctx: TaskContext, cited: list[Cited]) -> list[Cited]:
    """The citations with the quotes their references hold at Exa: an agent's view of an item keeps
    only each reference's URL, so the webset's items are read raw once (step `citations.quotes`,
    free GETs); a webset gone meanwhile (cleanup) leaves the answer standing in for the quote."""
    websets = sorted({str(c.webset_id) for c in cited if not c.quoted and c.webset_id})
    if not websets:
        return cited

    async def read() -> dict[str, str]:
        found: dict[str, str] = {}
        for webset_id in websets:
            try:
                async for item in exa_port_of(ctx.deps).items_as_sent(webset_id, max_items=100_000):
                    found.update({_key(c): c.snippet for c in _item_cites(item.model_dump()) if c.quoted})
            except LeaseHeld:
                raise  # not a webset gone: this run may no longer do the task's work
            except OrchError:
                pass  # the webset is gone: its answers stand in for the quotes
        return found

    found: dict[str, str] = await ctx.step("citations.quotes", read)
    return [
        dataclasses.replace(c, snippet=found[_key(c)], quoted=True)
        if not c.quoted and _key(c) in found
        else c
        for c in cited
    ]


async def check(ctx: TaskContext, cited: list[Cited], cap: int) -> Json:
    """Fetch the cited pages (module docstring) and give the result's `citationCheck`."""
    cited = await quotes(ctx, cited)
    usable = [c for c in cited if c.snippet.strip() and _WEB.match(c.url)]
    wanted: dict[str, list[str]] = {}
    for c in usable:
        wanted.setdefault(c.url, []).append(c.snippet)
    pages, stopped = await fetch_pages(ctx, wanted, cap) if wanted else ({}, None)
    sources: dict[str, str] = {}
    checks = [_verdict(c, pages.get(c.url), sources) for c in usable]
    out = summarize(checks, pages, cap, stopped)
    skipped = len(cited) - len(usable)
    if skipped:
        out["note"] += f"; {skipped} citations without a snippet or a web URL were not checked"
    return out


# --- what an export shows -----------------------------------------------------------------------


def status_for(check: Any, item_ids: list[str] | None = None, claims: list[str] | None = None) -> str | None:
    """A row's citation status from a result's `citationCheck`: the one status all its citations
    share (supported, not_found, unreachable, unchecked), else their counts ("2 supported, 1
    not_found"); None when the row has none checked (or the result was not checked)."""
    if not isinstance(check, dict):
        return None
    ids, paths = set(item_ids or ()), set(claims or ())
    mine = [
        str(c.get("status"))
        for c in check.get("checks") or []
        if isinstance(c, dict) and (c.get("itemId") in ids or c.get("claim") in paths)
    ]
    if not mine:
        return None
    counts = {s: mine.count(s) for s in dict.fromkeys(mine)}
    return mine[0] if len(counts) == 1 else ", ".join(f"{n} {s}" for s, n in counts.items())


# --- the hook ---------------------------------------------------------------------------------


def _estimate(spec: WorkflowSpec) -> Any:
    inner = spec.estimate
    if inner is None:
        return None

    def estimate(args: Any) -> list[prices.Part]:
        parts = list(inner(args))
        pages = int(getattr(args, "citation_pages", 0)) if getattr(args, "verify_citations", False) else 0
        if pages:
            parts.append(prices.Part("citation check pages (/contents text)", pages, PER_PAGE))
        return parts

    return estimate


def checking(spec: WorkflowSpec) -> WorkflowSpec:
    """`spec` with the citation check after its work (module docstring)."""
    base = spec.args_model
    if issubclass(base, CitationArgs):
        return spec  # checked already
    model = type(
        base.__name__,
        (base, CitationArgs),
        {"__module__": base.__module__, "__qualname__": base.__qualname__},
    )
    work = spec.fn

    async def fn(ctx: TaskContext, args: Any) -> Any:
        result = await work(ctx, args)
        purse = current_request().purse
        if not isinstance(result, dict) or not args.verify_citations or (purse is not None and purse.stopped):
            return result
        return {**result, "citationCheck": await check(ctx, collect(result), int(args.citation_pages))}

    return dataclasses.replace(spec, args_model=model, fn=fn, estimate=_estimate(spec))
