"""People's names: transliterated, titles dropped, either order, initials and nicknames.

`name_evidence(a, b)` says how two written names of people agree: a weight (log-odds-like: what
the agreement adds to the case that they are one person) and the reason. Nicknames come from the
`nicknames` package (a hand-curated English table, Apache-2.0) and given_names.py (short forms of
other languages it lacks: Pep / Josep, Leo / Lionel, with sources); other scripts are transliterated by
`anyascii`, so 李彦宏 reads "li yan hong" and never meets "Robin Li": a name in another script
joins only through an identifier or an alias the page states.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, NamedTuple

from exa_orch.workflows.entities.names import words

_TITLES = frozenset("dr prof mr mrs ms mx sir dame phd md jr sr ii iii iv mba".split())


class PersonName(NamedTuple):
    """A name read as given names and family name (the last word; `alt` reads the first as family)."""

    given: tuple[str, ...]
    family: str

    @property
    def key(self) -> str:
        return " ".join((*self.given, self.family))


def person_key(name: str) -> str:
    """A person's name for matching: folded, titles and middle initials dropped ("Dr. John A. Smith" -> "john smith")."""
    return " ".join(w for w in words(name) if w not in _TITLES and len(w) > 1)


@lru_cache(maxsize=65536)
def parse(name: str) -> tuple[PersonName, ...]:
    """The readings of `name`: given names first ("Heung-min Son"), and family first ("Son Heung-min")."""
    found = [w for w in words(name.replace("-", "")) if w not in _TITLES]
    if not found:
        return ()
    if len(found) == 1:
        return (PersonName((), found[0]),)
    first = PersonName(tuple(found[:-1]), found[-1])
    family_first = PersonName(tuple(found[1:]), found[0])
    return (first, family_first)


@lru_cache(maxsize=1)
def _namer() -> object:
    from nicknames import NickNamer

    return NickNamer()


@lru_cache(maxsize=65536)
def _forms(given: str) -> frozenset[str]:
    """`given` and the names the nickname table ties it to (bob -> robert, robert -> bob ...)."""
    from exa_orch.workflows.entities.given_names import FORMS

    namer = _namer()
    canon: set[str] = set(namer.canonicals_of(given))  # type: ignore[attr-defined]
    nicks: set[str] = set(namer.nicknames_of(given))  # type: ignore[attr-defined]
    return frozenset({given, *canon, *nicks, *FORMS.get(given, ())})


def given_forms(given: str) -> frozenset[str]:
    """`given` and its nickname forms ("" for none): what a block of people by initial may use."""
    return _forms(given) if len(given) > 1 else frozenset({given})


@lru_cache(maxsize=1)
def _jaro_winkler() -> Any:
    from rapidfuzz.distance import JaroWinkler  # on first use: a cold start needs none of it

    return JaroWinkler.similarity


def _similar(a: str, b: str) -> float:
    return float(_jaro_winkler()(a, b))


def _one_given(fa: str, fb: str) -> tuple[float, str] | None:
    """Two first given names as one name: equal, a nickname of each other, or a short form."""
    if fa == fb:
        return 2.5, "same first given name"
    if len(fa) > 1 and len(fb) > 1 and (fb in _forms(fa) or fa in _forms(fb)):
        return 2.5, f"{fa} and {fb} are one name (nickname table)"
    if min(len(fa), len(fb)) >= 2 and (fa.startswith(fb) or fb.startswith(fa)):
        return 2.0, f"{fa} / {fb}: one given name is the start of the other (a short form)"
    return None


def _initials(a: tuple[str, ...], b: tuple[str, ...]) -> tuple[float, str] | None:
    """Given names written as initials of the other's ("k m" / "kumar mangalam")."""
    short, long_ = (a, b) if sum(map(len, a)) <= sum(map(len, b)) else (b, a)
    if not all(len(w) == 1 for w in short) or len(short) > len(long_):
        return None
    if all(s == w[0] for s, w in zip(short, long_, strict=False)):
        return 1.0, "initials of the given names"
    return None


def _given(a: tuple[str, ...], b: tuple[str, ...]) -> tuple[float, str]:
    """How given names agree: exact, a nickname, initials, a typo, absent, or not at all."""
    if not a or not b:
        return 0.0, "a given name missing"
    if a == b:
        return 3.0, "same given names"
    fa, fb = a[0], b[0]
    found = _one_given(fa, fb) or _initials(a, b)
    if found:
        return found
    if min(len(fa), len(fb)) >= 3 and _similar(fa, fb) >= 0.9:
        return 1.0, f"given names {fa} / {fb} differ by a typo"
    return -3.0, f"different given names ({fa} / {fb})"


def _family(a: str, b: str) -> tuple[float, str]:
    if a == b:
        return 4.0, "same family name"
    if min(len(a), len(b)) >= 4 and _similar(a, b) >= 0.92:
        return 2.0, f"family names {a} / {b} differ by a typo"
    return -5.0, f"different family names ({a} / {b})"


def name_evidence(a: str, b: str) -> tuple[float, str]:
    """(weight, reason) for two written person names: the best reading of the two (either order)."""
    best: tuple[float, str] = (-8.0, "names differ")
    for x in parse(a):
        for y in parse(b):
            fw, fr = _family(x.family, y.family)
            if fw < 0 and best[0] > -8.0:
                continue  # this reading's family names differ: another reading already does better
            gw, gr = _given(x.given, y.given)
            if (fw + gw) > best[0]:
                best = (fw + gw, f"{gr}, {fr}")
    return best
