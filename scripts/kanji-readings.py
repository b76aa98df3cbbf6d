#!/usr/bin/env python3
"""Derive the readings each kanji takes in Japanese names, for exa_orch/workflows/entities/japanese.py.

    python scripts/kanji-readings.py          # writes exa_orch/workflows/entities/kanji_readings.json
    python scripts/kanji-readings.py --check  # exits 1 when the file differs from what it derives

Source: the `japanese-personal-name-dataset` package (MIT): 1,999 family names with their reading,
and given-name readings with the kanji that write them (93,000 kanji spellings in all). A name of
one kanji gives that kanji its reading (東: ひがし). A name of two to four kanji whose reading
parts, at mora boundaries, into readings already known for all its kanji but one teaches that one
its part (東原 ひがしはら, with 東 ひがし known: 原 はら), when exactly one such parting exists and
no parting fits every kanji; a part after the first may be voiced (rendaku: 原 はら as わら, 田 た
as だ) or end in っ where the reading ends in つ, く, ち or き. A part is kept once two names teach
it; the parting repeats until it learns nothing more. The result is what kanji-by-kanji reading of
a name the dataset does not hold whole needs (`japanese.fits`).
"""

from __future__ import annotations

import itertools
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

from derived_json import write_or_check

OUT = Path(__file__).resolve().parent.parent / "exa_orch/workflows/entities/kanji_readings.json"
_KANJI = re.compile(r"^[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff々]+$")
_SMALL = frozenset("ゃゅょぁぃぅぇぉ")
_VOICED = dict(
    zip("かきくけこさしすせそたちつてとはひふへほ", "がぎぐげござじずぜぞだぢづでどばびぶべぼ", strict=True)
)
_HALF = dict(zip("はひふへほ", "ぱぴぷぺぽ", strict=True))


def _morae(kana: str) -> list[str]:
    out: list[str] = []
    for ch in kana:
        if ch in _SMALL and out:
            out[-1] += ch
        else:
            out.append(ch)
    return out


def _as_written(reading: str, first: bool) -> set[str]:
    """How a kanji's reading may be written in a name: after the first kanji, voiced too."""
    forms = {reading}
    if not first:
        forms.update(m[reading[0]] + reading[1:] for m in (_VOICED, _HALF) if reading[0] in m)
    forms.update(f[:-1] + "っ" for f in list(forms) if len(f) > 1 and f[-1] in "つくちき")
    return forms


def _partings(morae: list[str], n: int):
    for cuts in itertools.combinations(range(1, len(morae)), n - 1):
        ends = (0, *cuts, len(morae))
        parts = ["".join(morae[ends[i] : ends[i + 1]]) for i in range(n)]
        if all(ends[i + 1] - ends[i] <= 5 and p[0] not in "っんー" for i, p in enumerate(parts)):
            yield parts


def _spellings() -> list[tuple[str, str]]:
    from japanese_personal_name_dataset import load_dataset

    men, women, last = load_dataset(include_last_names=True)
    pairs = [(k, e["reading"]) for k, e in last.items()]
    pairs += [(k, reading) for names in (men, women) for reading, e in names.items() for k in e["kanji"]]
    out = []
    for kanji, reading in pairs:
        if _KANJI.match(kanji):
            written = ""
            for ch in kanji:  # 々 repeats the kanji before it (佐々木)
                written += written[-1] if ch == "々" and written else ch
            out.append((written, reading))
    return out


def derive() -> dict[str, list[str]]:
    """Each kanji's readings in names, most often seen first (module docstring)."""
    pairs = _spellings()
    known: dict[str, Counter[str]] = defaultdict(Counter)
    for kanji, reading in pairs:
        if len(kanji) == 1:
            known[kanji][reading] += 1

    def fits(k: str, part: str, first: bool) -> bool:
        return any(part in _as_written(r, first) for r in known.get(k, ()))

    while True:
        learned: dict[str, Counter[str]] = defaultdict(Counter)
        for kanji, reading in pairs:
            morae = _morae(reading)
            if not 2 <= len(kanji) <= 4 or len(morae) < len(kanji):
                continue
            one_unknown = []
            for parts in _partings(morae, len(kanji)):
                ok = [fits(kanji[i], parts[i], i == 0) for i in range(len(kanji))]
                if all(ok):
                    one_unknown = []
                    break
                if ok.count(False) == 1:
                    i = ok.index(False)
                    one_unknown.append((kanji[i], parts[i]))
            if len(one_unknown) == 1:
                k, part = one_unknown[0]
                learned[k][part] += 1
        added = 0
        for k, parts in learned.items():
            for part, n in parts.items():
                if n >= 2 and part not in known[k]:
                    known[k][part] = n
                    added += 1
        if not added:
            break
    return {
        k: [r for r, _ in sorted(c.items(), key=lambda x: (-x[1], x[0]))] for k, c in sorted(known.items())
    }


def main() -> int:
    return write_or_check(OUT, derive(), "the dataset")


if __name__ == "__main__":
    sys.exit(main())
