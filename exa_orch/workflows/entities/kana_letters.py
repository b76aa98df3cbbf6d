"""Japanese kana read in Latin letters, as names.fold reads them (`romaji`): Hepburn romaji by
jaconv (キッコーマン, kikkoman, a long vowel's mark dropped), and first what jaconv reads otherwise.

Latin letters a Japanese name spells out in katakana by their names: エフ・シー・シー is FCC,
ジーエス・ユアサ GS Yuasa, ジェイアール東海 JR Tokai. `romaji` reads two letters' names or more, written
together or parted by a middle dot or a full stop, as the letters, where no other katakana is
written against them (ティーガイア, ドクターシーラボ: a loanword, not letters). The names are those
Japanese gives the letters (NHK's and the JIS X 4063 readings, with the common variants: エイ for A,
デー for D, エッチ for H). The syllables loanwords write with a small vowel are read here too
(`syllables`: ウォ wo, ティ ti), as Hepburn romanises them."""

from __future__ import annotations

import re
import unicodedata

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


# The syllables loanwords write with a small vowel, as Hepburn romanises them ("Hepburn
# romanization", its table of extended katakana), which jaconv reads vowel by vowel (ウォ "uo",
# ティ "tei"): ウォルマート is "worumato", ティファニー "tifani"
_SYLLABLES = {
    "ウィ": "wi", "ウェ": "we", "ウォ": "wo", "ティ": "ti", "ディ": "di", "トゥ": "tu", "ドゥ": "du",
    "テュ": "tyu", "デュ": "dyu", "シェ": "she", "ジェ": "je", "チェ": "che", "イェ": "ye", "クァ": "kwa",
    "クィ": "kwi", "クェ": "kwe", "クォ": "kwo", "グァ": "gwa", "ツァ": "tsa", "ツィ": "tsi", "ツェ": "tse",
    "ツォ": "tso", "フュ": "fyu",
}  # fmt: skip
_SYLLABLE = re.compile("|".join(_SYLLABLES))


def syllables(run: str) -> str:
    """A run of kana with each syllable of `_SYLLABLES` in Latin letters, the rest for jaconv."""
    return _SYLLABLE.sub(lambda m: _SYLLABLES[m.group(0)], run)


def spelled(text: str) -> str:
    """`text` with each run of letters' names (module docstring) as the Latin letters it spells, a
    space either side."""
    return _LETTERS.sub(lambda run: " " + "".join(_NAMES[n] for n in _ONE.findall(run.group(0))) + " ", text)


_KANA = re.compile(r"[\u3041-\u3096\u30a1-\u30fa\u30fc]+")


def romaji(text: str) -> str:
    """`text` with its kana in Latin letters, each run a word (module docstring); `text` as it is
    where it writes none."""
    if not _KANA.search(text):
        return text
    return _KANA.sub(_romaji, spelled(unicodedata.normalize("NFC", text)))


def _romaji(run: re.Match[str]) -> str:
    from jaconv import kana2alphabet, kata2hira  # here: a cold start needs none of this

    return " " + kana2alphabet(kata2hira(syllables(run.group(0)))).replace("-", "") + " "
