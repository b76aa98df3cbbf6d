"""How two people's given names agree: equal, a nickname, a short form, initials, a typo, or not.

Given names are compared as a person writes them in order ("kumar mangalam", "k m", "n r narayana",
"c douglas"). The first given name is the one in use; a middle name may be dropped on one side but
two middle names that differ ("george h w" / "george w") are two people; a first given name one side leaves
out ("thi phuong thao" / "phuong thao") may be dropped when two or more others agree. Initials agree with the
names they start, in order; initials before the name in use ("N. R. Narayana Murthy", "C. Douglas
McMillon") may be dropped. Nicknames come from the `nicknames` package (English, Apache-2.0) and
given_names.py (other languages' short forms and one name's romanizations, with sources); the
romanizations of one name read alike (`romanized`: Alexey / Aleksei, Ghasem / Qasem) are one name too.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from exa_orch.workflows.entities.scripts import hard_c, mandarin_halves, wade_giles

Given = tuple[str, ...]
Found = tuple[float, str]


@lru_cache(maxsize=1)
def _namer() -> Any:
    from nicknames import NickNamer  # on first use: a cold start needs none of it

    return NickNamer()


@lru_cache(maxsize=65536)
def forms(given: str) -> frozenset[str]:
    """`given` and the names the nickname tables tie it to (bob -> robert, robert -> bob ...)."""
    from exa_orch.workflows.entities.given_names import FORMS

    namer = _namer()
    canon: set[str] = set(namer.canonicals_of(given))
    nicks: set[str] = set(namer.nicknames_of(given))
    return frozenset({given, *canon, *nicks, *FORMS.get(given, ())})


def given_forms(given: str) -> frozenset[str]:
    """`given` and its nickname forms (an initial alone for an initial): what a block of people may use."""
    return forms(given) if len(given) > 1 else frozenset({given})


@lru_cache(maxsize=1)
def _jaro_winkler() -> Any:
    from rapidfuzz.distance import JaroWinkler  # on first use: a cold start needs none of it

    return JaroWinkler.similarity


def similar(a: str, b: str) -> float:
    """Jaro-Winkler similarity of two words (rapidfuzz)."""
    return float(_jaro_winkler()(a, b))


# The ways one name's sounds are romanized apart: Greek's γι before a vowel as gi, yi or y
# (Giannakis, Yannakis), Persian and Arabic ق as gh, q or k (Ghasem, Qasem; Azerbaijani Qara, Kara),
# a long u as ou or oo (Souleiman, Suleiman; Payakaroon, Payakarun), the Sanskrit ksh that Indian
# names write as x too (Akshar, Axar; Lakshmi, Laxmi; Dikshit, Dixit), and an Arabic name's opening
# vowel written o or u (Osman, Usman; Omar, Umar; Othman, Uthman)
_ROMANIZED_APART = (
    (re.compile(r"[gy]i(?=[aeou])"), "i"),
    (re.compile(r"gh|q"), "k"),
    (re.compile(r"ou|oo"), "u"),
    (re.compile(r"ksh"), "x"),
    (re.compile(r"^o"), "u"),
)


@lru_cache(maxsize=65536)
def romanized(name: str) -> str:
    """A name as the romanizations of one name write it alike: x as ks, kh as h, y and j as i, a
    letter doubled once, an initial ie as e ("alexey" and "aleksei", "yulia" and "iuliia", "yevgeny"
    and "evgeny", "tatyana" and "tatiana" each read one way), `_ROMANIZED_APART`; and a hard c as k,
    as languages spell one name ("eric" and "erik", "nicolas" and "nikolas", "patrick" and "patrik")."""
    key = hard_c(name)
    for pattern, by in _ROMANIZED_APART:
        key = pattern.sub(by, key)
    key = re.sub(
        r"(.)\1+", r"\1", key.replace("x", "ks").replace("kh", "h").replace("y", "i").replace("j", "i")
    )
    return key[1:] if key.startswith("ie") else key


@lru_cache(maxsize=65536)
def _as_wade_giles(given: str) -> frozenset[str]:
    """A Chinese given name of two pinyin syllables as Wade-Giles writes it (hanjie: hanchieh,
    qingyou: chingyu), each way it parts into two; none for any other word."""
    return frozenset(wade_giles(first) + wade_giles(second) for first, second in mandarin_halves(given))


def one_name(fa: str, fb: str) -> Found | None:
    """Two written given names (neither an initial) as one name: equal, a nickname of each other,
    one the start of the other (a short form), or one typo apart."""
    if fa == fb:
        return 2.5, "same first given name"
    if fb in forms(fa) or fa in forms(fb):
        return 2.5, f"{fa} and {fb} are one name (nickname table)"
    if min(len(fa), len(fb)) >= 4 and (fa in (f"al{fb}", f"el{fb}") or fb in (f"al{fa}", f"el{fa}")):
        return 2.5, f"{fa} and {fb} are one name, the article written on one"  # Alwaleed / Al-Waleed
    if min(len(fa), len(fb)) >= 4 and romanized(fa) == romanized(fb):
        return 2.5, f"{fa} and {fb} are one name spelled two ways"
    if fa != fb and (fb in _as_wade_giles(fa) or fa in _as_wade_giles(fb)):
        return 2.5, f"{fa} and {fb} are one Chinese given name in pinyin and in Wade-Giles"
    if min(len(fa), len(fb)) >= 3 and (fa.startswith(fb) or fb.startswith(fa)):
        return 2.0, f"{fa} / {fb}: one given name is the start of the other (a short form)"
    # the end of a longer name, which a prefix or a first part opens (Olatunbosun / Bosun,
    # Sriharsha / Harsha): what friends and the press call the bearer; weighs less than a start
    short, long_ = sorted((fa, fb), key=len)
    if len(short) >= 4 and len(long_) - len(short) >= 3 and long_.endswith(short):
        return 1.5, f"{fa} / {fb}: one given name ends the other (a short form)"
    if min(len(fa), len(fb)) >= 3 and similar(fa, fb) >= 0.9:
        return 1.0, f"given names {fa} / {fb} differ by a typo"
    return None


def _token(x: str, y: str) -> bool:
    """Two given-name words that may be one: an initial and a name it starts, or one name."""
    if len(x) == 1 or len(y) == 1:
        return x[0] == y[0]
    return one_name(x, y) is not None


def _initials(a: Given, b: Given) -> Found | None:
    """Given names where one side writes initials ("k m" / "kumar mangalam", "m d" / "mukesh"):
    every word compared in order agrees, the first an initial of the other's first."""
    if len(a[0]) > 1 and len(b[0]) > 1:
        return None
    pairs = list(zip(a, b, strict=False))
    if not all(_token(x, y) for x, y in pairs):
        return None
    if len(pairs) >= 2:
        return 1.5, "initials of the given names"
    return 1.0, "initials of the given names (the first)"


def _leading_initials(a: Given, b: Given) -> Found | None:
    """Initials written before the name in use ("n r narayana" / "narayana", "c douglas" / "doug")."""
    for x, y in ((a, b), (b, a)):
        k = next((i for i, w in enumerate(x) if len(w) > 1), len(x))
        if 0 < k < len(x) and len(y[0]) > 1:
            found = one_name(x[k], y[0])
            if found:
                return min(found[0], 2.0), f"initials before the given name, then {found[1]}"
    return None


# First given names a compound given name opens with and its bearer is seldom called by: Muhammad
# before a Malay, Pakistani or Bangladeshi name (Wikipedia, "Malay names": often abbreviated Mohd or
# left out), María and José before a Spanish one ("Spanish naming customs": María Dolores is
# Dolores, José Ignacio Ignacio)
_DEVOTIONAL = frozenset(
    {"muhammad", "mohammad", "mohammed", "mohamed", "muhammed", "mohd", "muhd", "maria", "jose", "ma"}
)


def _first_dropped(a: Given, b: Given) -> Found | None:
    """Two given names or more, the same but for a first one the other leaves out (Vietnamese
    "thi phuong thao" / "phuong thao", "john ronald reuel" / "ronald reuel"); one name, where the
    first left out is one a compound name opens with (`_DEVOTIONAL`: "muhammad hafiz" / "hafiz");
    any other second of two given names alone ("ernesto max" / "max": many are called by it) weighs
    nothing, as a given name missing does: one employer and one role must join them."""
    for x, y in ((a, b), (b, a)):
        if len(x) > len(y) >= 1 and x[-len(y) :] == y and min(map(len, y)) > 1:
            if len(y) >= 2 or (len(x) == 2 and x[0] in _DEVOTIONAL):
                return 2.0, f"same given names ({' '.join(y)}) but for a first one"
            if len(x) == 2:
                return 0.0, f"the second given name ({y[0]}) alone"
    return None


def _middle(a: Given, b: Given, first: Found) -> Found:
    """The first names agree; middle names on both sides must too ("george h w" / "george w"), each
    one both write ("carlos sarmiento angulo" / "carlos sarmiento gutierrez": a father and his son)."""
    if len(a) < 2 or len(b) < 2:
        return first
    if all(_token(x, y) for x, y in zip(a[1:], b[1:], strict=False)):
        return min(first[0] + 0.5, 3.0), f"{first[1]}, and the middle names agree"
    return -2.0, f"different middle names ({' '.join(a)} / {' '.join(b)})"


def compare_given(a: Given, b: Given) -> Found:
    """(weight, reason) for how given names agree (module docstring): 3 for the same, down to -3
    for different names; 0 when one side has none."""
    if not a or not b:
        return 0.0, "a given name missing"
    if a == b:
        return 3.0, "same given names"
    if "".join(a) == "".join(b):
        return 3.0, "same given names (written apart or together)"
    if len(a[0]) > 1 and len(b[0]) > 1:
        first = one_name(a[0], b[0])
        if first:
            return _middle(a, b, first)
    found = [f for f in (_initials(a, b), _leading_initials(a, b), _first_dropped(a, b)) if f]
    if found:
        return max(found)
    return -3.0, f"different given names ({a[0]} / {b[0]})"


def romanized_family(x: str, y: str) -> bool:
    """One family name romanized two ways (Giannakis / Yannakis, Souleiman / Suleiman: `romanized`),
    neither a given name the nickname tables know (`forms`): a name read in reverse order
    (Евгений Касперский as "Kaspersky Evgeny") is not one family name spelled twice."""
    return min(len(x), len(y)) >= 4 and romanized(x) == romanized(y) and len(forms(x)) == len(forms(y)) == 1
