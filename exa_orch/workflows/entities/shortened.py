"""A company name a stock exchange's list shortens word by word ("Mapletree Log Tr", "CHINA RES
GAS", "ALI HEALTH"), read against the name it shortens, and a name romanized twice, its vowels
written otherwise ("Karun" / "Karoon Petrochemical"), and a name run together with a digit said
(`digits_said`: "ROUND1" / "Round One"), and two names whose words open with other letters
(`initials_apart`). names.names_agree asks it of two cleaned names whose words differ; it reads
only Latin letters and knows nothing of names.py.
"""

from __future__ import annotations

import re


def _shortens(short: str, whole: str) -> bool:
    """`short` is `whole` shortened: four to six letters, its start, three letters fewer at least
    ("pharma", pharmaceutical); or two to five letters that begin as `whole` does and keep its
    letters in their order, consonants after the start they share ("log" logistics, "cpt"
    centrepoint, "ppt" property), two letters fewer at least (a plural's s is no shortening: Jaguar
    Car / Jaguar Cars): a list's abbreviation, not a name's own word run into another's (a reading
    of characters)."""
    if 4 <= len(short) <= 6 and len(whole) >= len(short) + 3 and whole.startswith(short):
        return True  # a word's start, as trades are written short: "pharma", "chem", "petro"
    if not 2 <= len(short) <= 5 or len(short) > len(whole) - 2 or short[0] != whole[0]:
        return False
    # what follows the start the two share is consonants ("cpt", "hldg", "intl"): a list keeps a
    # word's consonants, where a word of its own keeps vowels too ("pko" is no shortened "pekao");
    # two letters may be a compound's initials (NÖ, Niederösterreich)
    shared = next((i for i, (p, q) in enumerate(zip(short, whole, strict=False)) if p != q), len(short))
    if len(short) > 2 and any(letter in "aeiou" for letter in short[shared:]):
        return False
    rest = iter(whole[1:])
    return all(letter in rest for letter in short[1:])


def words_shortened(x: list[str], y: list[str], generic: frozenset[str] = frozenset()) -> bool:
    """`x` and `y`, as many words each, alike word by word, one of each pair the other shortened
    (`_shortens`), a word of four letters or more written whole on both sides, not one of `generic`
    (ME Bank is no shortened Macquarie Bank): "mapletree log tr" / "mapletree logistics trust",
    "ali health" / "alibaba health". Never one word: "Proj" alone is too many names' start."""
    if len(x) != len(y) or len(x) < 2 or x == y:
        return False
    whole = [p for p, q in zip(x, y, strict=True) if p == q]
    if not any(len(w) >= 4 and w not in generic for w in whole):
        return False
    return all(p == q or _shortens(p, q) or _shortens(q, p) for p, q in zip(x, y, strict=True))


def _consonants(word: str) -> str:
    """A word's letters but the vowels after its first, a letter doubled once: "karoon" -> "krn"."""
    return re.sub(r"(.)\1+", r"\1", word[:1] + re.sub(r"[aeiouy]", "", word[1:]))


def vowels_apart(x: list[str], y: list[str], generic: frozenset[str] = frozenset()) -> bool:
    """`x` and `y`, as many words each (two or more), alike word by word, a pair that is not written
    alike spelling the same consonants in the same order from the same first letter, three
    consonants at least, and a word of four letters or more written alike on both sides, not one of
    `generic`: one name romanized twice ("karun petrochemical" / "karoon petrochemical",
    "tondgooyan" / "tondgouyan"), as Persian, Arabic and Russian names are."""
    if len(x) != len(y) or len(x) < 2 or x == y:
        return False
    if not any(p == q and len(p) >= 4 and p not in generic for p, q in zip(x, y, strict=True)):
        return False
    apart = [(p, q) for p, q in zip(x, y, strict=True) if p != q]
    return sum(len(_consonants(p)) for p, _ in apart) >= 3 and all(
        p[0] == q[0] and _consonants(p) == _consonants(q) for p, q in apart
    )


_DIGIT_WORDS = dict(
    zip("0123456789", "zero one two three four five six seven eight nine".split(), strict=True)
)


def digits_said(name: str) -> str:
    """A name run together, a digit closing a word of three letters or more said as its English
    word ("round1" -> "roundone"); other digits as they are ("3m", "a1": the name's own)."""
    return re.sub(r"(?<=[a-z]{3})\d\b", lambda m: _DIGIT_WORDS[m.group(0)], name).replace(" ", "")


def initials_apart(wa: list[str], wb: list[str]) -> bool:
    """Two names of as many words, a word of one beginning with another letter than its fellow's:
    two places' names, not one name spelled twice ("Ötztaler Gletscherbahn" / "Pitztaler
    Gletscherbahn", where "Jihad al-Binaa" / "Jihad Al Bina" keeps every word's first letter)."""
    return len(wa) == len(wb) and any(x[0] != y[0] for x, y in zip(sorted(wa), sorted(wb), strict=True))
