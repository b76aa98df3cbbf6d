"""A name in Chinese characters, kana, Hangul or Thai letters cut into the terms terms.TERMS holds
and the runs between them (`segments`), each with its English words or its readings: what
glossary.py translates a name by, and home_pages.py reads a brand and its trade from.

Terms are found longest first from the name's start; `segments_from_end` finds them from its
end, where a term that ends one word and starts the next would take the wrong pair from the start
(동국제강, Dongkuk Steel: 국제, international, from the start; 동국 and 제강, steelmaking, from the end).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

from exa_orch.workflows.entities.japanese import family_reading
from exa_orch.workflows.entities.names import fold
from exa_orch.workflows.entities.terms import TERMS

RUN = "run"  # a Segment no term covers
_LONGEST = max(len(t) for t in TERMS)
HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_PARTS = frozenset(" ・·.,()（）‐-－")  # what parts runs, spaces too


class Segment(NamedTuple):
    """A piece of a written name: a term (`kind` of TERMS, `english` its renderings) or a run no
    term covers (`kind` RUN, `english` its readings)."""

    text: str
    kind: str
    english: tuple[str, ...]


def readings(run: str) -> tuple[str, ...]:
    """Ways a run no term covers is written in Latin letters (glossary.py's module docstring)."""
    out = [fold(run).replace(" ", "")]
    syllables = [fold(ch).strip() for ch in run] if HAN.search(run) else []
    if len(syllables) >= 2 and all(syllables):
        out.append("".join(s[0] for s in syllables))  # 京东: jing dong, "JD"
    family = family_reading(run)
    if family:
        out.append(family)
    return tuple(dict.fromkeys(r for r in out if r))


def _script_of(ch: str) -> str:
    """Which runs a letter belongs with: Latin letters, katakana (with its long-vowel mark) or the
    rest. A loanword in katakana is a word of its own beside kanji (十六 | フィナンシャル)."""
    if ch.isascii():
        return "latin"
    return "katakana" if "\u30a1" <= ch <= "\u30fc" else "other"


@lru_cache(maxsize=4096)
def segments(written: str) -> tuple[Segment, ...]:
    """`written` cut into TERMS (the longest at each place from its start) and the runs between
    them; Latin letters inside ("三菱UFJ", "CJ제일제당") and katakana beside kanji ("十六フィナンシャル")
    are a run of their own; spaces and dots part runs."""
    return _cut(written, from_end=False)


@lru_cache(maxsize=4096)
def segments_from_end(written: str) -> tuple[Segment, ...]:
    """`segments`, the longest term at each place from the name's end (module docstring)."""
    return _cut(written, from_end=True)


def _cut(written: str, *, from_end: bool) -> tuple[Segment, ...]:
    """`segments` either way: from the end, the pieces are found last first and put back in order."""
    out: list[Segment] = []
    run = ""

    def close() -> None:
        nonlocal run
        if run.strip():
            out.append(Segment(run, RUN, readings(run)))
        run = ""

    left = written
    while left:
        for n in range(min(_LONGEST, len(left)), 0, -1):
            piece = left[-n:] if from_end else left[:n]
            term = TERMS.get(piece)
            if term:
                close()
                # its reading too: a Chinese company may keep it (东方电气 / Dongfang Electric)
                out.append(Segment(piece, term[0], (*term[1], fold(piece).replace(" ", ""))))
                left = left[:-n] if from_end else left[n:]
                break
        else:
            ch, left = (left[-1], left[:-1]) if from_end else (left[0], left[1:])
            beside = (run[0] if from_end else run[-1]) if run else ""
            if ch.isspace() or ch in _PARTS:
                close()
            elif beside and _script_of(ch) != _script_of(beside):
                close()
                run = ch
            else:
                run = ch + run if from_end else run + ch
    close()
    return tuple(reversed(out)) if from_end else tuple(out)
