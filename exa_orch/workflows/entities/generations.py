"""A father and a son of one name, told apart by the generation their names write ("Sr.", "Jr.",
"III") and, beside a plain name, by what the father's page says he founded.

"Neymar Jr" and "Neymar" are one person (a son's "Jr." is often dropped); a father's "Sr." is what
tells him apart, as two generations written do ("Jr." / "III"). A plain name whose page says he
founded the organisation a "Jr." of his name works at is the junior's father (`father_and_son`).
And a sibling, a child or a parent a page names by a given name of the other's ("her brother
Kennevic": `relative_named`), or a parent named as a senior of the other's name ("son of Nestor
Plasencia Sr.": `parent_named`). person_evidence weighs each against a join.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from exa_orch.workflows.entities.employers import employers_agree
from exa_orch.workflows.entities.names import words
from exa_orch.workflows.entities.titles import GENERATION

if TYPE_CHECKING:
    from exa_orch.workflows.entities.records import Record

JUNIOR = frozenset(w for w, generation in GENERATION.items() if generation == "jr")


def generation(r: Record) -> tuple[set[str], set[str]]:
    """The generation a person's name writes, and the one their text gives them where it begins
    with their name ("Henry Sy Sr. was a ..." on a page under Henry Sy) and the name writes none."""
    named = words(r.name or "")
    written = {GENERATION[w] for w in named if w in GENERATION}
    lead = r.said.split()[: len(named) + 1]
    if written or not named or lead[:-1] != named or not lead[-1:] or lead[-1] not in GENERATION:
        return written, written
    return written, {GENERATION[lead[-1]]}


def one_junior(a: Record, b: Record) -> bool:
    """One name writes "Jr." and the other no generation: at two employers, a son and his father
    (a family's companies, each named in the other's text: Aurelio Montes and his son at Kaiken),
    whom no text naming both employers tells apart (person_evidence `_names_other`, `career`)."""
    ga, gb = generation(a)[0], generation(b)[0]
    return {frozenset(ga), frozenset(gb)} == {frozenset(), frozenset({"jr"})}


def father_and_son(a: Record, b: Record) -> str | None:
    """Why `a` and `b` are a father and a son of one name, or None: "Sr." on one side ("Ernő Rubik
    Sr." is not the Ernő Rubik the plain name means), two generations written, or a founder and a
    junior at his company (`_founder_and_junior`)."""
    (ga, sa), (gb, sb) = (generation(r) for r in (a, b))
    # "Sr." one name writes tells a father apart; a page's text saying "Sr." does only beside a
    # name written "Jr." (the father's other pages seldom write it)
    if (ga != gb and ("sr" in ga | gb or (ga and gb))) or (sa and sb and sa != sb):
        return f"a generation apart ({' '.join(sorted(sa)) or '-'} / {' '.join(sorted(sb)) or '-'})"
    if one_junior(a, b):
        return _founder_and_junior(*((a, b) if gb else (b, a)))
    return None


def _founder_and_junior(plain: Record, junior: Record) -> str | None:
    """A plain name whose text says he founded the organisation a "Jr." of his name works at, and
    when he was born, where the junior's says neither: the founder and his son at the family's
    company (Raymond Dokpesi, the founder of DAAR Communications, and Raymond Dokpesi Jr., an
    executive there). A son famous as "Jr." whose pages drop it founded nothing his father's pages
    claim."""
    if not junior.employer or junior.founder_of or not plain.born or plain.born == junior.born:
        return None
    for org in sorted(plain.founder_of):
        if employers_agree(org, junior.employer):
            return f"{plain.name}'s page says he founded {org}, where {junior.name} works: a father and his junior"
    return None


# "her brother Kennevic", "with his brother Hamid": a relative a person's page names by a given name;
# in Dutch and German also without "his" ("draagt het bedrijf over aan zoon Willem", "übergibt an
# Sohn Max"), in French, Spanish, Italian and Portuguese after "son", "su", "suo", "seu" (folded text)
_RELATIVES = (
    re.compile(
        r"\b(?:his|her|their)\s+(?:younger\s+|elder\s+|older\s+|twin\s+|late\s+)?"
        r"(?:brother|sister|son|daughter|father|mother|husband|wife|cousin|uncle|aunt|nephew|niece|"
        r"grandson|granddaughter|grandfather|grandmother)\s+(\w+)"
    ),
    re.compile(
        r"\b(?:(?:zijn|haar|hun|sein|seine|seinem|seinen|seiner|ihr|ihre|ihrem|ihren)\s+)?"
        r"(?:zoon|dochter|broer|zus|kleinzoon|sohn|tochter|bruder|schwester|enkel)\s+(\w+)"
    ),
    re.compile(
        r"\b(?:son|sa|su|suo|sua|seu)\s+(?:fils|fille|frere|soeur|hijo|hija|hermano|hermana|figlio|"
        r"figlia|fratello|sorella|filho|filha|irmao|irma)\s+(\w+)"
    ),
)


def relative_named(x: Record, y: Record) -> str | None:
    """Where x's text names a relative by a given name of y's that x's own name lacks ("Kennie
    Asuncion and her brother Kennevic" beside Kennevic Asuncion's page; "runs it with his brother
    Hamid" beside Hamid-Reza Zollanvari's): the words, or None. Siblings share a family name and
    often an employer; a given name tells them apart."""
    mine, theirs = set(words(x.name or "")), set(words(y.name or ""))
    for m in (m for pattern in _RELATIVES for m in pattern.finditer(x.said)):
        if m.group(1) in theirs - mine:
            return m.group(0)
    return None


# A relative named in a person's text ("Neto do fundador Rui Nabeiro", "Sohn von Hans Peter Stihl",
# "son of the late Rui Nabeiro"): the kin word, its "of", and a name within the next words; read by
# person_evidence's `_relative` and by `parent_named`.
# Sources: the lead sentences of en/pt/es/de/fr/it Wikipedia biographies and business press; a
# parent and a sibling in each of those languages too ("Vater von Nikolaus W. Schües").
KIN = re.compile(
    r"\b(?:son|daughter|grandson|granddaughter|nephew|niece|father|mother|brother|sister|widow|heir|"
    r"filho|filha|neto|neta|sobrinho|sobrinha|hijo|hija|nieto|nieta|sobrino|sobrina|"
    r"sohn|tochter|enkel|enkelin|neffe|nichte|fils|fille|neveu|figlio|figlia|nipote|"
    r"vater|mutter|bruder|schwester|pai|mae|irmao|irma|padre|madre|hermano|hermana|fratello|sorella|"
    r"pere|mere|frere|soeur)\s+"  # folded, as Record.said is
    r"(?:of|do|da|de|del|della|di|von|vom|des|du|van)\s+((?:\S+\s+){1,5}\S+)"
)
_BEFORE_A_NAME = frozenset("the late sir dame lord lady dr".split())


def parent_named(x: Record, y: Record) -> str | None:
    """Where x's text names x's father or mother as y, a senior of y's name: the name y writes and
    "Sr." after it ("son of Nestor Plasencia Sr." on Nestor Andrés Plasencia's page, beside Nestor
    Plasencia's), or, on a junior's page ("Chester Beatty (junior)"), a name holding y's that y's
    own text says in full ("son of Sir Alfred Chester Beatty" beside a page saying "Sir (Alfred)
    Chester Beatty founded ..."). Never where y's name or text says junior: a son's page often
    drops his "Jr." and names his father (Neymar's says "Júnior"). The words, or None."""
    theirs = words(y.name or "")
    told = set(y.said.split())
    if not theirs or JUNIOR & (set(theirs) | told):
        return None
    for m in KIN.finditer(x.said):  # "son of Nestor Plasencia Sr.", "son of Sir Alfred Chester Beatty"
        if m.group(0).split()[:2] not in (["son", "of"], ["daughter", "of"]):
            continue
        said = m.group(1).split()
        while said and said[0] in _BEFORE_A_NAME:
            said.pop(0)
        n = len(theirs)
        if said[:n] == theirs and GENERATION.get(said[n] if len(said) > n else "") == "sr":
            return f"{m.group(0).split()[0]} of {' '.join(said[: n + 1])}"
        if JUNIOR & set(words(x.name or "")) and theirs[-1] in said[:4]:
            parent = said[: said.index(theirs[-1]) + 1]
            if set(theirs) <= set(parent) and set(parent) <= told:
                return f"{m.group(0).split()[0]} of {' '.join(parent)}"
    return None
