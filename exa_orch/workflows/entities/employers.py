"""Whether two employers a person's pages name are one organisation, or two a person holds at once.

`employers_agree` reads two cleaned employer names as one organisation: names.names_agree, every
word of the shorter written as a word (or its start, or its letters) of the longer ("Man Utd" /
"Manchester United F.C."), letters written for words ("U.S. Senate", an acronym kept from the
organisation's own language: "CBF" / "Brazilian Football Confederation"), or one institution
written in two languages ("Banque centrale européenne" / "European Central Bank"). `concurrent`
says when two employers that don't agree are held at once (a national team and a club, two public
bodies of one government, two units of one organisation): no new employer, no evidence either way.
person_evidence weighs both.
"""

from __future__ import annotations

import itertools
import re

from exa_orch.workflows.entities.countries import country_of, known, stated_country
from exa_orch.workflows.entities.given_match import similar
from exa_orch.workflows.entities.latin_words import WORDS_IN_ENGLISH
from exa_orch.workflows.entities.names import DESIGNATORS, core_name, names_agree

SHORT_FORMS = "the words of one are the other's or short forms of them"

# Words a club's or team's name adds that say nothing of which one ("FC Bayern" / "Bayern Munich").
CLUB_WORDS = frozenset("fc cf afc sc ac cd ssc club football futbol calcio team the of and de".split())


def _starts(s: str, w: str) -> bool:
    """`s` is `w` or its start ("man" / "manchester"), three letters at least."""
    return s == w or (len(s) >= 3 and w.startswith(s))


def _word_like(s: str, w: str) -> bool:
    """One word of an employer's name written as another's: equal, its start ("man" /
    "manchester"), its letters skipped ("utd" / "united", "intl" / "international"), or a spelling
    of it in another language ("munich" / "munchen")."""
    if _starts(s, w):
        return True
    if 3 <= len(s) < len(w) and s[0] == w[0] and re.fullmatch(".*?".join(map(re.escape, s)) + ".*", w):
        return True
    return min(len(s), len(w)) >= 5 and similar(s, w) >= 0.88


_OF = frozenset("of de du des la le del della di der des d the and".split())


def _institution(name: str) -> frozenset[str]:
    """An employer's words read as English, countries by their English names (España -> spain), small
    words dropped, order aside: "banque centrale europeenne" and "european central bank" are one."""
    out: set[str] = set()
    for w in name.split():
        if w in _OF:
            continue
        place = country_of(w)
        out.update((place if known(place) else WORDS_IN_ENGLISH.get(w, w)).split())
    return frozenset(out)


def _spelled(x: str, y: str) -> bool:
    """`x` writes letters where `y` writes the words they begin: "u s senate" / "united states
    senate" (its run of single letters read as `y`'s words), or "cbf" / "brazilian football
    confederation" (one word, three letters at least, the initials of all `y`'s words in any order:
    an acronym kept from the organisation's own language)."""
    wx = x.split()
    wy = [w for w in y.split() if w not in _OF]
    if len(wx) == 1 and 3 <= len(x) <= 6 and len(wy) == len(x) and sorted(x) == sorted(w[0] for w in wy):
        return True
    for i in range(len(wx)):
        run = list(itertools.takewhile(lambda v: len(v) == 1, wx[i:]))
        if len(run) < 2 or (i and len(wx[i - 1]) == 1):
            continue
        ys = y.split()
        for j in range(len(ys) - len(run) + 1):
            if [v[0] for v in ys[j : j + len(run)]] == run:
                read = " ".join(wx[:i] + ys[j : j + len(run)] + wx[i + len(run) :])
                return bool(names_agree(read, y))
    return False


def employers_agree(x: str, y: str) -> str | None:
    """How two cleaned employer names agree (names.names_agree, or every word of the shorter written
    as a word of the longer, one at least as the word or its start; or one institution written in
    two languages, `_institution`), or None."""
    agree = names_agree(x, y) or names_agree(core_name(x), core_name(y))
    if agree:
        return agree
    if _spelled(x, y) or _spelled(y, x):
        return "letters written for words"
    ix, iy = _institution(x), _institution(y)
    if len(ix) >= 2 and ix == iy:
        return "one institution written in two languages"
    wx = [w for w in x.split() if w not in CLUB_WORDS]
    wy = [w for w in y.split() if w not in CLUB_WORDS]
    for short, long_ in ((wx, wy), (wy, wx)):
        if len(short) > len(long_) or not any(_starts(s, w) for s in short for w in long_):
            continue
        if all(any(_word_like(s, w) for w in long_) for s in short):
            return SHORT_FORMS
    return None


# Words of a country's public bodies: a head of government is in its government and its parliament
# at once (Government of Canada / House of Commons; Presidência da República / Government of Brazil).
_PUBLIC = frozenset(
    "government gobierno gouvernement governo regierung parliament parlamento parlement commons "
    "senate senado senat assembly assemblee congress congreso cabinet ministry ministerio ministere "
    "presidency presidencia presidence bundestag bundesregierung downing secretaria secretariat "
    "embassy agency kementerian kabinet ministerstvo lords department".split()
)


def concurrent(x: str, y: str) -> str | None:
    """Two employers one person holds at once, not one after the other: a national team and a club
    (Chelsea FC Women / Australia women's national soccer team), two public bodies of government,
    or two units of one organisation whose name leads both (Max Planck Unit for the Science of
    Pathogens / Max Planck Gesellschaft). None for anything else (Air New Zealand / New Zealand
    Government is a new employer)."""
    wx, wy = x.split(), y.split()
    if any("national" in w and "team" in w for w in (wx, wy)) or any(
        "team" in w and (known(country_of(w[0])) or stated_country(f"is an {w[0]} team"))
        for w in (wx, wy)  # "indian cricket team", "brazil national team"
    ):
        return "a national team and a club"
    if _PUBLIC & set(wx) and _PUBLIC & set(wy):
        return "two bodies of government"
    lead = [w for w in wx[:2] if w not in _OF and w not in DESIGNATORS]
    if len(lead) == 2 and wy[:2] == wx[:2]:
        return f"two units of {' '.join(lead)}"
    return None


def named_in_passing(employer: str) -> list[str]:
    """An employer as a text names it in passing: without the words a club's or a company's full
    name adds at its edges ("chelsea fc" -> "chelsea", "intel corporation" -> "intel", "university
    of oxford" as it is), without them anywhere ("club atletico de madrid" -> "atletico madrid"),
    and written as one word ("go jek" -> "gojek"); the employer as it is when that leaves nothing."""
    dropped = CLUB_WORDS | DESIGNATORS
    every = employer.split()
    while every and every[-1] in dropped:
        every.pop()
    while every and every[0] in dropped:
        every.pop(0)
    inner = [w for w in every if w not in dropped]
    forms = [" ".join(kept) for kept in (every, inner) if kept and len(" ".join(kept)) >= 3]
    if len(every) >= 2 and all(len(w) <= 4 for w in every):  # "go jek": a hyphened brand run together
        forms.append("".join(every))
    return list(dict.fromkeys(forms)) or [employer]
