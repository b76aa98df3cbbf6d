"""Names of monarchs and their families: a title before the name, a regnal number after it, a realm.

"King Harald V", "Harald V of Norway" and "Harald V" are one name. people.py reads a name without
the titles that open it ("Sultan Hassanal Bolkiah" is Hassanal Bolkiah, "Emperor Naruhito" is
Naruhito) and, where a title or a regnal number says the name is a monarch's, without the realm
after "of" ("Elizabeth II of the United Kingdom"). `regnal_evidence` weighs two regnal names: one
given name and one number are a whole name (7), unless two realms are stated and differ.

A title opens a name only with another word after it: "Prince" and "Queen Latifah" are names of
their own, and "King" in "Carole King" closes a name, it does not open one.
"""

from __future__ import annotations

import re
from functools import lru_cache

from exa_orch.workflows.entities.names import words

# Titles of monarchs, their heirs and houses, and the styles written before them ("His Majesty").
TITLES = frozenset(
    "king queen prince princess emperor empress sultan sultanah emir amir sheikha tsar tsarina czar shah "
    "crown grand duke duchess archduke archduchess maharaja maharani raja rajah rani infante infanta "
    "his her majesty royal highness hm hrh hh sm".split()
)
_OPENING = re.compile(r"^\s*(?:(?:" + "|".join(sorted(TITLES)) + r")\.?\s+)+(?=\S+\s*\S)", re.I)
# A regnal number: I to XXXIX, a word of its own after the given name.
_NUMERAL = re.compile(r"^x{0,3}(?:ix|iv|v?i{0,3})$")
_REALM = re.compile(r"\s+of\s+(?:the\s+)?(.+)$", re.I)


def is_numeral(word: str) -> bool:
    """`word` (folded) is a regnal number: "v", "xvi", "ii"."""
    return bool(word) and bool(_NUMERAL.match(word))


def without_titles(name: str) -> str:
    """`name` without the titles that open it, and without the realm after "of" where a title or a
    regnal number says it is a monarch's: "King Harald V of Norway" -> "Harald V"."""
    bare = _OPENING.sub("", name)
    ws = words(bare)
    royal = bare != name or any(is_numeral(w) for w in ws[1:])
    return _REALM.sub("", bare) if royal else bare


@lru_cache(maxsize=65536)
def regnal(name: str) -> tuple[str, str, str] | None:
    """(given name, number, realm) of a regnal name ("Harald V of Norway" -> ("harald", "v",
    "norway")); None for any other name."""
    bare = _OPENING.sub("", name)
    realm = _REALM.search(bare)
    ws = words(_REALM.sub("", bare))
    if len(ws) != 2 or not is_numeral(ws[1]) or len(ws[0]) < 2:
        return None
    return ws[0], ws[1], " ".join(words(realm.group(1))) if realm else ""


def regnal_evidence(a: str, b: str) -> tuple[float, str] | None:
    """Two regnal names: one name and one number are a whole name, 7 ("King Charles III" /
    "Charles III of the United Kingdom"); two numbers, or two realms stated and different, are two
    monarchs, -5; None when either is no regnal name or their names differ (the other readings
    weigh them)."""
    ra, rb = regnal(a), regnal(b)
    if not (ra and rb) or ra[0] != rb[0]:
        return None
    if ra[1] != rb[1]:
        return -5.0, f"two regnal numbers ({ra[0]} {ra[1]} / {rb[0]} {rb[1]})"
    if ra[2] and rb[2] and ra[2] != rb[2]:
        return -5.0, f"the same regnal name, two realms ({ra[2]} / {rb[2]})"
    return 7.0, f"the same regnal name ({ra[0]} {ra[1]})"
