"""Latin letters a Japanese name spells out in katakana by their names: エフ・シー・シー is FCC,
ジーエス・ユアサ GS Yuasa, ジェイアール東海 JR Tokai. names.fold reads two letters' names or more, written
together or parted by a middle dot or a full stop, as the letters, where no other katakana is
written against them (ティーガイア, ドクターシーラボ: a loanword, not letters). The names are those
Japanese gives the letters (NHK's and the JIS X 4063 readings, with the common variants: エイ for A,
デー for D, エッチ for H)."""

from __future__ import annotations

import re

_NAMES = {
    "エー": "a", "エイ": "a", "ビー": "b", "シー": "c", "ディー": "d", "デー": "d", "イー": "e",
    "エフ": "f", "ジー": "g", "エイチ": "h", "エッチ": "h", "アイ": "i", "ジェイ": "j", "ジェー": "j",
    "ケー": "k", "ケイ": "k", "エル": "l", "エム": "m", "エヌ": "n", "オー": "o", "ピー": "p",
    "キュー": "q", "アール": "r", "エス": "s", "ティー": "t", "ユー": "u", "ブイ": "v", "ヴィー": "v",
    "ダブリュー": "w", "ダブリュ": "w", "エックス": "x", "ワイ": "y", "ゼット": "z", "ゼッド": "z",
}  # fmt: skip
_NAME = "|".join(sorted(_NAMES, key=lambda n: (-len(n), n)))  # the longest first: エイチ before エイ
_KATAKANA = r"\u30a1-\u30fa\u30fc"
_LETTERS = re.compile(rf"(?<![{_KATAKANA}])(?:{_NAME})(?:[・.．]?(?:{_NAME}))+[.．]?(?![{_KATAKANA}])")
_ONE = re.compile(_NAME)


def spelled(text: str) -> str:
    """`text` with each run of letters' names (module docstring) as the Latin letters it spells, a
    space either side."""
    return _LETTERS.sub(lambda run: " " + "".join(_NAMES[n] for n in _ONE.findall(run.group(0))) + " ", text)
