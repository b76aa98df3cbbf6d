"""Latin letters a company name in Hangul or a South Asian script spells out by their names.

Korean writes the initials in a company's name as the letters' names: 에스케이 is SK, 케이티 KT,
에이피알 APR, and "&" as 앤 (이앤씨, E&C; 에프앤비, F&B; 티앤씨, TNC). `spellings(run)` finds such
letters at a run's start or end, or making up the whole run, and gives what they read as, so that
glossary.translates can try that reading beside the run's sound (교촌에프앤비 / Kyochon F&B,
포스코이앤씨 / POSCO E&C). The names are the Hangul spellings the National Institute of Korean
Language's loanword rules give each letter, with the common variants (시 for C, 쥐 for G, 뷔 for V).

Names in Devanagari, Bengali, Tamil and the other South Asian scripts spell initials out the same
way (ओएनजीसी, ONGC; বিএসআরএম, BSRM): `read_letters` reads them from a word as anyascii reads it,
and `agrees` compares such a reading with a Latin name (glossary.agrees).
"""

from __future__ import annotations

import itertools
from functools import lru_cache

from exa_orch.workflows.entities.names import DESIGNATORS
from exa_orch.workflows.entities.scripts import latin_sound_keys, sound_key

# Each letter's names in Hangul; "&" is read 앤, and 엔 (N) is often written for it too (씨엔씨, C&C)
_NAMES: dict[str, tuple[str, ...]] = {
    "에이": ("a",), "비": ("b",), "씨": ("c",), "시": ("c",), "디": ("d",), "이": ("e",),
    "에프": ("f",), "지": ("g", "z"), "쥐": ("g",), "에이치": ("h",), "에치": ("h",), "아이": ("i",),
    "제이": ("j",), "케이": ("k",), "엘": ("l",), "엠": ("m",), "엔": ("n", "&"), "오": ("o",),
    "피": ("p",), "큐": ("q",), "알": ("r",), "에스": ("s",), "티": ("t",), "유": ("u",),
    "브이": ("v",), "뷔": ("v",), "더블유": ("w",), "엑스": ("x",), "와이": ("y",), "제트": ("z",),
    "앤": ("&",),
}  # fmt: skip
_LONGEST = max(map(len, _NAMES))
# Letters spelled alone, without a word of the name beside them: three at least (에이피알, APR);
# two (비티, 디오) are as often a word's syllables
ALONE = 3


@lru_cache(maxsize=65536)
def _letters(text: str) -> tuple[tuple[str, ...], ...]:
    """Every way `text` is letter names only, each way the letters read (at most 16)."""
    if not text:
        return ((),)
    out: list[tuple[str, ...]] = []
    for n in range(1, min(_LONGEST, len(text)) + 1):
        for letter in _NAMES.get(text[:n], ()):
            out.extend((letter, *rest) for rest in _letters(text[n:]))
    return tuple(out[:16])


def _renderings(letters: tuple[str, ...]) -> tuple[str, ...]:
    """The ways a Latin name writes spelled letters: "e&c" as "e c" (a cleaned name drops "and"),
    "ec" and "enc" (Hyosung TNC)."""
    bare = [x for x in letters if x != "&"]
    return tuple(
        dict.fromkeys((" ".join(bare), "".join(bare), "".join("n" if x == "&" else x for x in letters)))
    )


def _fair(letters: tuple[str, ...]) -> bool:
    """Two letters at least, "&" only between two of them."""
    bare = [x for x in letters if x != "&"]
    return len(bare) >= 2 and letters[0] != "&" and letters[-1] != "&"


@lru_cache(maxsize=16384)
def spellings(run: str, *, alone: bool) -> tuple[tuple[str, str, tuple[str, ...]], ...]:
    """The ways a run of Hangul opens or ends with two letters' names or more (module docstring):
    (what comes before them, what comes after, the renderings of the letters). Only one side of the
    letters holds other syllables; `alone`: the run is the whole name, whose letters alone are
    `ALONE` at least."""
    out: list[tuple[str, str, tuple[str, ...]]] = []
    for cut in range(len(run)):
        for head, letters_text, tail in (
            (run[:cut], run[cut:], ""),
            ("", run[: len(run) - cut], run[len(run) - cut :]),
        ):
            if not letters_text or (head and tail):
                continue
            out.extend(
                (head, tail, _renderings(letters))
                for letters in _letters(letters_text)
                if _fair(letters) and (head or tail or not alone or sum(x != "&" for x in letters) >= ALONE)
            )
    return tuple(dict.fromkeys(out))


# Each letter's name as anyascii reads it out of Devanagari, Bengali, Gurmukhi, Gujarati, Tamil,
# Telugu, Kannada, Malayalam and Sinhala (ओएनजीसी "oenjisi", ONGC; என்எல்சி "enelchi", NLC); a
# name ending in a consonant may take the inherent "a" before a letter opening with a vowel
# (एलआईसी "elaaisi", LIC)
_READ: dict[str, tuple[str, ...]] = {
    "a": ("e", "ei", "ey"), "b": ("bi",), "c": ("si", "chi"), "d": ("di",), "e": ("i",),
    "f": ("eph", "ef", "ehp"), "g": ("ji",), "h": ("ech", "eich", "hech"), "i": ("ai", "aai"),
    "j": ("je", "jei"), "k": ("ke", "kei"), "l": ("el",), "m": ("em",), "n": ("en",), "o": ("o",),
    "p": ("pi",), "q": ("kyu", "kiu"), "r": ("aar", "ar"), "s": ("es",), "t": ("ti",), "u": ("yu",),
    "v": ("vi", "bhi"), "w": ("dablyu", "dabalyu"), "x": ("eks",), "y": ("vai", "wai", "vaai"),
    "z": ("jed", "zed"),
}  # fmt: skip
# and as anyascii reads their names in Arabic letters, as Urdu writes them (اے آر وائی, ARY; جے ڈی
# ڈبلیو, JDW) and as Arabic does (أو سي بي, OCP; إم تي إن, MTN): consonants and a y or w for a vowel
_ARABIC_READ: dict[str, tuple[str, ...]] = {
    "a": ("e", "y", "yh"), "b": ("by",), "c": ("sy",), "d": ("dy",), "e": ("y",), "f": ("yf", "f"),
    "g": ("jy",), "h": ("ych", "tsh"), "i": ("yy", "y"), "j": ("je", "jy", "jyh"), "k": ("ke", "ky", "kyh"),
    "l": ("yl", "l"), "m": ("ym", "m"), "n": ("yn", "n"), "o": ("w",), "p": ("py", "by"), "q": ("kyw",),
    "r": ("r",), "s": ("ys", "s"), "t": ("ty",), "u": ("yw",), "v": ("wy", "fy"), "w": ("dblyw",),
    "x": ("yks", "ks"), "y": ("wyy", "wy"), "z": ("zyd", "zd", "zy"),
}  # fmt: skip
_READ_NAMES: dict[str, tuple[str, ...]] = {}
for _letter, _names in _READ.items():
    for _name in _names:
        for _form in {_name, _name + "a"} if _name[-1] not in "aeiou" else {_name}:
            _READ_NAMES[_form] = (*_READ_NAMES.get(_form, ()), _letter)
# a word naming one letter, of either table: a run of them is read as its letters (`_letter_runs`);
# the Arabic names only as whole words, as consonants run together are any word's
_WORD_NAMES = dict(_READ_NAMES)
for _letter, _names in _ARABIC_READ.items():
    for _name in _names:
        _WORD_NAMES[_name] = tuple(dict.fromkeys((*_WORD_NAMES.get(_name, ()), _letter)))


def letters_named(word: str) -> tuple[str, ...]:
    """The letters a word read out of a South Asian script is the name of (`_READ`: "ti" t, "em" m)."""
    return _READ_NAMES.get(word, ())


@lru_cache(maxsize=65536)
def _read_letters(word: str) -> tuple[str, ...]:
    """Every way `word` (read in Latin letters) is letter names only (at most 8)."""
    if not word:
        return ("",)
    out: list[str] = []
    for n in range(1, min(8, len(word)) + 1):
        for letter in _READ_NAMES.get(word[:n], ()):
            out.extend(letter + rest for rest in _read_letters(word[n:]))
    return tuple(out[:8])


def read_letters(word: str) -> tuple[str, ...]:
    """The initials a word read out of a South Asian script spells, letter by letter (`_READ`),
    three letters at least: fewer are as often a word's syllables (सिटी "siti", city)."""
    return tuple(s for s in _read_letters(word) if len(s) >= ALONE)


def spelled_readings(cleaned: str) -> list[str]:
    """A reading (a name read out of another script, cleaned) with each word that spells Latin
    letters out by their names read as those letters (`read_letters`: "oenjisi videsh" ->
    "ongc videsh"), and each run of two words or more that each name one letter read as those
    letters run together (எம். ஆர். எஃப்., "em ar ef": MRF), each way it may be; none when no word
    does."""
    said = _letter_runs(cleaned.split())
    options = [read_letters(w) or (w,) if isinstance(w, str) else w for w in said]
    if all(o == (w,) for o, w in zip(options, said, strict=True)):
        return []
    return [" ".join(words_) for words_ in itertools.islice(itertools.product(*options), 8)]


def _letter_runs(words_: list[str]) -> list[str | tuple[str, ...]]:
    """`words_` with each run of two words or more that each name one letter (`_WORD_NAMES`) made one:
    the ways its letters read run together (at most 8)."""
    out: list[str | tuple[str, ...]] = []
    i = 0
    while i < len(words_):
        j = i
        while j < len(words_) and _WORD_NAMES.get(words_[j]):
            j += 1
        if j - i >= 2:
            ways = itertools.product(*(_WORD_NAMES[w] for w in words_[i:j]))
            out.append(tuple("".join(way) for way in itertools.islice(ways, 8)))
            i = j
        else:
            out.append(words_[i])
            i += 1
    return out


def agrees(written: str, cleaned: str, other: str) -> str | None:
    """A reading whose letters spelled out, read as letters, are the Latin name `other` (बीएचईएल /
    BHEL) or sound as it does (ओएनजीसी विदेश / ONGC Videsh), four consonants at least; or, word by
    word, each word that spells letters the other's word in its place and each other word sounding
    as it does (`_by_word`: পিএইচপি ফ্যামিলি / PHP Family, whose letters run together sound too few
    consonants to tell)."""
    readings = spelled_readings(cleaned)
    if not readings:
        return None
    theirs = latin_sound_keys("".join(w for w in other.split() if w not in DESIGNATORS))
    by_word = _by_word(cleaned, other)  # of the reading's words, whichever way its letters read
    for spelled in readings:
        mine = latin_sound_keys("".join(w for w in spelled.split() if w not in DESIGNATORS))
        if (
            spelled == other
            or any(len(k) >= 4 for k in mine & theirs)
            or by_word
            or _by_word(spelled, other, cleaned)
        ):
            return f"{written} reads {spelled}, its letters spelled out, as {other} does"
    return None


def _by_word(cleaned: str, other: str, read: str = "") -> bool:
    """A reading (`cleaned`) and a Latin name of as many words, two or more: one word of the reading
    spells the other's word in its place letter by letter (`read_letters`), or is those letters
    where `cleaned` is a spelled reading of `read` (`_letter_runs`: آر وائی کے ملز, "ryk mlz"), and
    each of its other words sounds as the other's in its place (scripts.sound_key, two consonants at
    least: ফ্যামিলি, "phyamil", as family; ملز, "mlz", as mills)."""
    mine, theirs = cleaned.split(), other.split()
    if len(mine) < 2 or len(mine) != len(theirs):
        return False
    lettered = False
    for word, said in zip(mine, theirs, strict=True):
        if said in read_letters(word) or (read and said == word and word not in read.split()):
            lettered = True
        elif len(key := sound_key(word, read=True)) < 2 or _nasals_one(key) not in {
            _nasals_one(k) for k in latin_sound_keys(said)
        }:
            return False
    return lettered


def _nasals_one(key: str) -> str:
    """A sound key with m and n one: a name read out of Arabic letters writes no vowel between an m
    and the consonant after it, which `sound_key` then hears as n (ملز, "mlz", "nrj"; mills, "mrj")."""
    return key.replace("m", "n")
