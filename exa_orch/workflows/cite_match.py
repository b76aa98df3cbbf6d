"""Does a page say what a citation quotes? The pure half of the citation check (no I/O).

Contract:
- `match(snippet, page_text)` -> `Match(status, score, passage)`: `status` is "supported" when the
  page holds the snippet exactly or near-exactly (rapidfuzz's partial ratio of the snippet against
  runs of whole sentences of the page, both normalised, at least `SUPPORTED_SCORE` of 100), else
  "not_found" (also when the page lacks a figure the snippet states); `passage` is the page's closest run of sentences either way (what a person reads to
  judge it), `score` its partial ratio. A snippet of several clauses (a synthesised answer citing
  several pages: sentences, citation marks, colons) is supported when it is, or one of its clauses
  of 20 characters or more is: each page it cites backs a part of it.
- `normalize(text)`: case, quotes, dashes and whitespace folded, so typography never decides.
- `page_key(text)`: the same for two pages whose normalised text is the same (copies of one story
  count as one source).
The decision is issue 40's: meaning needs an exact or near-exact passage; a paraphrase, a changed
figure in a short claim, or a quote from another page is `not_found`.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import Literal

from rapidfuzz import fuzz

SUPPORTED_SCORE = 90.0
"""A snippet is supported from this partial ratio up (100: verbatim; a word changed in a sentence of
fifteen stays above it, a paraphrase falls well below)."""
FIGURE_PENALTY = 0.85
"""A run that lacks a figure of the snippet (a year, an amount) scores this share of its ratio: a
sentence with one figure changed reads near-exact to the ratio, and says something else."""
MIN_SNIPPET_CHARS = 3
MIN_CLAUSE_CHARS = 20  # a clause of a longer claim this short proves nothing on its own
MAX_SNIPPET_SENTENCES = 20  # of a long synthesised claim: the rest add time, not evidence
PASSAGE_CHARS = 400  # the passage shown with a verdict

_FOLD = str.maketrans(
    {"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u2013": "-", "\u2014": "-"}
)
_SPACE = re.compile(r"\s+")
# Where a synthesised claim splits into the parts its sources back: sentence ends, citation marks
# ("[2]"), and a colon or semicolon before the quoted part ("Klarna (klarna.com): Klarna is ...").
_CLAUSE = re.compile(r"(?<=[.!?])\s+|\s*\[\d+\]\s*|[:;]\s+")
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(\[])|\n+")


@dataclass(frozen=True)
class Match:
    """A snippet's verdict on one page: supported or not_found, the score, the closest passage."""

    status: Literal["supported", "not_found"]
    score: float
    passage: str


def normalize(text: str) -> str:
    """Lower case, typographic quotes and dashes folded, whitespace collapsed, ends trimmed."""
    return _SPACE.sub(" ", text.translate(_FOLD).lower()).strip(" \t\n.;:,\"'")


def sentences(text: str) -> list[str]:
    """The text's sentences (split after . ! ? before a capital, digit or quote, and at newlines)."""
    return [s.strip() for s in _SENTENCE_END.split(text) if s.strip()]


def page_key(text: str) -> str:
    """A page's identity as a source: two pages with the same normalised text are one source."""
    return hashlib.sha256(normalize(text).encode()).hexdigest()[:16]


def _windows(page: list[str], length: int) -> list[list[str]]:
    """Runs of consecutive sentences, each the shortest from its start at least `length` long
    (the page's last ones may be shorter): the snippet is aligned inside one of them."""
    out = []
    for i in range(len(page)):
        j, size = i, len(page[i])
        while size < length and j + 1 < len(page):
            j += 1
            size += 1 + len(page[j])
        out.append(page[i : j + 1])
        if j == len(page) - 1 and size >= length:
            break  # every later start only shortens the run
    return out


def _score(needle: str, run: list[str]) -> float:
    norm = normalize(" ".join(run))
    score = float(fuzz.partial_ratio(needle, norm))
    if set(_NUMBER.findall(needle)) - set(_NUMBER.findall(norm)):
        score *= FIGURE_PENALTY  # a figure the run does not hold: the claim is another one
    if len(norm) < len(needle):  # the page ran out: only part of the snippet could align
        score *= len(norm) / len(needle)
    return score


def _trimmed(needle: str, run: list[str], score: float) -> list[str]:
    """The run without the sentences at its ends the alignment does not need (the passage shown)."""

    def keeps(part: list[str]) -> bool:
        return float(fuzz.partial_ratio(needle, normalize(" ".join(part)))) >= score

    while len(run) > 1 and keeps(run[1:]):
        run = run[1:]
    while len(run) > 1 and keeps(run[:-1]):
        run = run[:-1]
    return run


def _best(needle: str, page: list[str]) -> tuple[float, str]:
    """The best partial ratio of `needle` inside a run of `page`'s sentences, and that run."""
    best, where = 0.0, page[:1]
    for run in _windows(page, len(needle)):
        score = _score(needle, run)
        if score > best:
            best, where = score, run
            if score >= 100.0:
                break
    return best, " ".join(_trimmed(needle, where, best))


def match(snippet: str, page_text: str) -> Match:
    """The snippet's verdict on the page (module docstring)."""
    page = sentences(page_text)
    whole = normalize(snippet)
    if len(whole) < MIN_SNIPPET_CHARS or not page:
        return Match("not_found", 0.0, (page[0] if page else "")[:PASSAGE_CHARS])
    claims = [normalize(c) for c in _CLAUSE.split(snippet)]
    claims = [c for c in claims if len(c) >= MIN_CLAUSE_CHARS][:MAX_SNIPPET_SENTENCES]
    parts = [whole, *claims] if len(claims) > 1 else [whole]
    best, passage = 0.0, ""
    for part in parts:
        score, run = _best(part, page)
        if score > best:
            best, passage = score, run
        if best >= SUPPORTED_SCORE:
            break
    status: Literal["supported", "not_found"] = "supported" if best >= SUPPORTED_SCORE else "not_found"
    return Match(status, round(best, 1), passage[:PASSAGE_CHARS])
