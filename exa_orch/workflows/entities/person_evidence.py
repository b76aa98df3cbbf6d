"""Evidence for and against two records of people being one person, and the keys that pair them.

A person joins at `JOIN_PERSON`: a name that agrees (7 at most, people.name_evidence) is never
enough alone. What adds to it:
- a stated other name: a page that writes the other's name beside its own ("黃仁勳 (Jensen Huang)", "Ma
  Huateng, also known as Pony Ma") weighs as that name (records.py reads it, with the words);
- the same employer, written alike or as short forms of each other ("Man City" / "Manchester City
  F.C."), or named in the text of a record that states none (2); an employer in another script by
  its reading (read_names.reading_agrees: ソフトバンクグループ / SoftBank Group), never against;
- one city both locations name, read out of another script, for a whole name read from one of three
  characters or more (`_city`: 2); two pages of one site in two scripts (`_one_site`: 2);
- one organisation both texts say the person founded or leads ("co-founder and CEO of MercadoLibre"
  / "founded MercadoLibre": roles.py), 3 as one employer; never against;
- one page, in two languages or twice ("nvidia.com/en-us/.../jensen-huang" and ".../zh-tw/..."),
  more when its path names the person; one Wikipedia article title in two language editions (4);
- one known country both records place the person in, and a word both texts say of what the person
  does beside their name ("grandmaster", "tennis", "AirAsia"; not "founder" or "former", `_ANYONE`):
  1.5, enough with a name that agrees whole (7: every given name and the family name) or with middle
  names on one side only (6.5); two namesakes of one country (Li Na the tennis player, Li Na the
  singer) share no such word, and a namesake at another employer stays apart anyway (a country that
  differs is not against: people move).
Against: two employers in Latin letters that don't agree, unless one record's text names the other's
employer beside its own (one person who holds both: 2 for) or the two are held at once
(`employers.concurrent`: a national team and a club, two bodies of government, two units of one
organisation); a father and a son ("Sr." on one side, two generations written, or a founder and a
"Jr." of his name at his company: generations.py); a page naming the other as a relative, described
as the other's page describes them, or a junior of its own name among its children (`_kin`); one
text saying the person founded what the other says a relative of theirs founded ("grandson of the
founder of Harry's Bar": `_founders_kin`). A person who changed employers joins only through an
identifier: the same profile on a shared host (a LinkedIn /in/, X, GitHub or Wikipedia page, in
either item's URL or text; evidence.compare weighs it and then lifts this), or one Wikipedia article
title written alike in two editions (`_one_article`); where two groups are joined, one record of
theirs that names both employers tells one career (`career`: "CEO of Renault Group from 2020 to 2025
and then CEO of Kering"), and the objection is lifted.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from exa_orch.workflows.entities import fields
from exa_orch.workflows.entities.articles import addressed
from exa_orch.workflows.entities.common_names import burmese_like, chinese_like, common, few_bear
from exa_orch.workflows.entities.countries import known
from exa_orch.workflows.entities.employers import SHORT_FORMS, concurrent, employers_agree, named_in_passing
from exa_orch.workflows.entities.generations import (
    JUNIOR,
    KIN,
    father_and_son,
    one_junior,
    parent_named,
    relative_named,
)
from exa_orch.workflows.entities.glossary import agrees as reading_agrees
from exa_orch.workflows.entities.glossary import place_in, titles_agree
from exa_orch.workflows.entities.names import is_latin, words
from exa_orch.workflows.entities.occupations import callings_apart, one_occupation
from exa_orch.workflows.entities.people import (
    SAME_FAMILY,
    SINGLE,
    name_evidence,
    parse,
    person_key,
)
from exa_orch.workflows.entities.scripts import read_apart, sounds_alike

if TYPE_CHECKING:
    from exa_orch.workflows.entities.records import Record

JOIN_PERSON = 8.0
NEW_EMPLOYER = "different employers"  # how `_employers` says it: an identifier lifts it
# What a text says of many people, by its first six letters (about.topics keeps words of five
# letters or more): not what this one does.
_ANYONE = frozenset(
    w[:6]
    for w in "former founder cofounder chief executive officer chairman chairwoman chairperson "
    "president director manager member board served serves currently career professional "
    "businessman businesswoman entrepreneur billionaire richest person people famous known "
    "player later since until years early".split()
)


@dataclass
class Said:
    """What two people's records share (`for_`: (weight, reason)) and what is against joining them;
    evidence.compare adds both to its `Evidence`."""

    for_: list[tuple[float, str]] = field(default_factory=list)
    against: list[str] = field(default_factory=list)


def _names(a: Record, b: Record) -> tuple[float, str]:
    """The best agreement of the two names, or of a name one page states for the person."""
    weight, reason = name_evidence(a.name or "", b.name or "")
    if a.fuller or b.fuller:  # a page's name short for the one its wiki title writes: that one's
        weight, reason = min(
            (weight, reason), name_evidence(a.fuller or a.name or "", b.fuller or b.name or "")
        )
    weight, reason = _in_address(a, b, weight, reason)
    if a.article and b.article and is_latin(a.article) != is_latin(b.article):
        # two editions' article titles in two scripts: the names the person's pages are under
        # ("Netta" at wiki/Netta_Barzilai beside נטע ברזילי)
        titled = name_evidence(a.article, b.article)
        if titled[0] > weight:
            weight, reason = titled[0], f"titled {a.article!r} and {b.article!r}: {titled[1]}"
    for x, y in ((a, b), (b, a)):
        for alias, said in x.aliases.items():
            # a stated alias written as the other's whole name ("Robin Li (李彦宏)") is that name
            w = 7.0 if alias == person_key(y.name or "") else name_evidence(alias, y.name or "")[0]
            if w >= 7.0 and w > weight:  # the whole name: "Ahmed Hassan Mahgoub" is not any Ahmed Hassan
                weight, reason = w, f"{x.name} is also written {alias!r}: {said!r}"
    return weight, reason


def _in_address(a: Record, b: Record, weight: float, reason: str) -> tuple[float, str]:
    """A page named by a family name alone whose address writes the other's whole name
    (articles.addressed: "Dupont" at .../antoine-dupont-rugby): 7, as the whole name written."""
    for x, y in ((a, b), (b, a)):
        if weight < 7.0 and x.site and addressed(x.name or "", y.name or "", x.site.path):
            return 7.0, f"{x.name}, and {y.name} as {x.name}'s address writes it"
    return weight, reason


def _named_employer(a: Record, b: Record, ev: Said) -> None:
    """One record's employer named in the other's text, where the other states none in Latin
    letters (an Agent row in another language: "黃仁勳 (Jensen Huang) 是 NVIDIA 創辦人暨執行長")."""
    for x, y in ((a, b), (b, a)):
        if x.employer and x.employer_latin and len(x.employer) >= 3 and not (y.employer and y.employer_latin):
            if f" {x.employer} " in f" {y.said} ":
                ev.for_.append((2.0, f"{y.name} names {x.employer}, {x.name}'s employer"))
                return


def _names_other(a: Record, b: Record, ev: Said) -> bool:
    """Two employers, one of them named in the other record's text ("founder of Tune Group and
    AirAsia" / employer AirAsia; "he played for Real Madrid" / Real Madrid CF): one person who
    holds both, or held the other before, not a stranger at a new employer; 2, as a named one."""
    own = set(words(a.name or "")) | set(words(b.name or ""))
    for x, y in ((a, b), (b, a)):
        # "Hamilton Technologies" is not named by a page that says "Margaret Hamilton": the
        # person's own name is in every text about them
        forms = [x.employer if set(named.split()) <= own else named for named in named_in_passing(x.employer)]
        said = f" {y.said} "  # folded words: "Kyoto University's" is "kyoto universitys"
        if len(x.employer) >= 3 and (
            any(f" {named} " in said or f" {named}s " in said for named in forms) or x.employer in y.founded
        ):
            ev.for_.append(
                (2.0, f"{y.name} names {x.employer}, {x.name}'s employer, beside its own ({y.employer})")
            )
            return True
    return False


def _names_employer(m: Record, employer: str) -> bool:
    """`m` works at `employer` or its text names it (as `_names_other` reads a text)."""
    if m.employer and m.employer_latin and employers_agree(m.employer, employer):
        return True
    said = f" {m.said} "
    return employer in m.founded or any(f" {named} " in said for named in named_in_passing(employer))


def career(a: Record, b: Record, group: Sequence[Record]) -> bool:
    """Two employers of one name, both named by one record of the entity they would join ("CEO of
    Renault Group from 2020 to 2025 and then CEO of Kering"): one person's career, which that
    record tells, not a stranger at a new employer. The record joined its group by its own
    evidence; it may be `a` or `b` only where it names the other's employer too."""
    if not (a.employer and b.employer and a.employer_latin and b.employer_latin) or one_junior(a, b):
        return False
    return any(
        m.kind == "person" and _names_employer(m, a.employer) and _names_employer(m, b.employer)
        for m in group
    )


def _employers(a: Record, b: Record, ev: Said) -> None:
    if not (a.employer and b.employer):
        _named_employer(a, b, ev)
        return
    agree = employers_agree(a.employer, b.employer) or reading_agrees(
        a.employer_written, a.employer, b.employer_written, b.employer
    )
    if agree:
        said = f"{a.employer} / {b.employer}: {agree}" if agree == SHORT_FORMS else a.employer
        ev.for_.append((3.0, f"same employer ({said})"))
    elif a.employer_latin and b.employer_latin and not one_junior(a, b) and _names_other(a, b, ev):
        return
    elif a.employer_latin and b.employer_latin and concurrent(a.employer, b.employer):
        return  # held at once: neither a new employer nor evidence of one person
    elif a.employer_latin and b.employer_latin:
        ev.against.append(
            f"{NEW_EMPLOYER} ({a.employer} / {b.employer}) and no shared profile: a new employer "
            "joins only with an identifier"
        )
    # an employer written in another script that does not read as the other's (日本銀行 / Bank of
    # Japan: a translation) is no evidence either way


def _founded(a: Record, b: Record, ev: Said) -> None:
    """One organisation both texts say the person founded or leads (roles.py), or one's employer
    the other says so of, where no employer of both agreed: 3, as one employer weighs."""
    if any(reason.startswith("same employer") for _, reason in ev.for_):
        return
    mine = a.founded | ({a.employer} if a.employer and a.employer_latin else set())
    theirs = b.founded | ({b.employer} if b.employer and b.employer_latin else set())
    for x in sorted(a.founded & theirs or mine & b.founded):
        ev.for_.append((3.0, f"both say the person founded or leads {x}"))
        return


def _same_page(a: Record, b: Record, ev: Said) -> None:
    """One page (its locale aside) for both: 2 when it is all, 4 when its path names the person."""
    sa, sb = a.site, b.site
    if not (sa and sb) or sa.platform or sb.platform or not sa.same_page(sb):
        return
    path = set(words(sa.path.replace("-", " ").replace("_", " ")))
    names = [a.name or "", b.name or "", *a.aliases, *b.aliases]
    named = next((r for n in names for r in parse(n) if r.given and r.family in path), None)
    two = f" in two languages ({sa.locale or '-'} / {sb.locale or '-'})" if sa.locale != sb.locale else ""
    if named:
        ev.for_.append((4.0, f"one page{two}, {sa.canonical}, whose path names {named.family}"))
    else:
        ev.for_.append((2.0, f"one page{two}, {sa.canonical}"))


def _one_site(a: Record, b: Record, ev: Said, named: float) -> None:
    """Two pages of one organisation's own site (one registered domain, no shared host) about a
    name in two scripts that agree whole by a reading (6: 藤井輝夫 / Teruo Fujii on u-tokyo.ac.jp,
    its president's pages in Japanese and in English): 2. One site seldom holds two namesakes, and
    texts in two languages share no other word."""
    if (
        named < 6.0
        or not a.domain
        or a.domain != b.domain
        or is_latin(a.name or "") == is_latin(b.name or "")
    ):
        return
    if a.site and b.site and not a.site.same_page(b.site):  # one page: `_same_page`
        ev.for_.append((2.0, f"two pages of one site, {a.domain}, in two scripts"))


def _one_article(a: Record, b: Record, ev: Said) -> None:
    """One Wikipedia article title in two language editions (en.wikipedia.org/wiki/Neymar and
    pt.wikipedia.org/wiki/Neymar, or 姚明 and Yao_Ming: titles in two scripts whose names agree
    by a reading, people.name_evidence 5 at least): an edition titles its article with the name its readers know, and
    two people of one name are told apart in the title ("Li Na (singer)"; such a title is no
    evidence, whatever the other's says): 4, less than a profile. One title written alike in both is
    an identifier as a profile is: it lifts a new employer's objection (`_employers`, weighed first)."""
    if not (a.article and b.article and a.site and b.site and a.site.host != b.site.host):
        return
    if a.titled == b.titled:
        ev.for_.append((4.0, f"one Wikipedia article title, {a.titled!r}, in two editions"))
        # an identifier, as a profile is: a person who moved on (Carney, Bank of England / Canada)
        ev.against = [r for r in ev.against if not r.startswith(NEW_EMPLOYER)]
    elif is_latin(a.article) != is_latin(b.article) and name_evidence(a.article, b.article)[0] >= 5.0:
        ev.for_.append((4.0, f"one Wikipedia article, titled {a.article!r} and {b.article!r} in two scripts"))


def _one_qualified_article(a: Record, b: Record, ev: Said) -> None:
    """Two editions' articles titled apart from namesakes by one occupation ("Ahmed Saad (singer)"
    and "أحمد سعد (مطرب)", occupations.py), their names agreeing as `_one_article` asks: one
    article, 4. An edition writes the occupation its readers tell the namesakes apart by."""
    (na, ja), (nb, jb) = a.qualified, b.qualified
    if not (ja and jb and a.site and b.site and a.site.host != b.site.host):
        return
    if one_occupation(ja, jb) and (na == nb or name_evidence(na, nb)[0] >= 5.0):
        ev.for_.append((4.0, f"one Wikipedia article, titled {na} ({ja}) and {nb} ({jb})"))


def _country(a: Record, b: Record, ev: Said, named: float) -> None:
    if named < 6.5 or not (known(a.country) and a.country == b.country):
        return
    if any(r.titled and not r.article for r in (a, b)):
        return  # "Rubik_Ernő_(repülőgép-tervező)": a title telling namesakes apart says the name is two people's
    own = {w for n in (a.name or "", b.name or "", *a.aliases, *b.aliases) for w in words(n)}
    said = [r.topics | {w for w in r.employer.split() if len(w) >= 5} for r in (a, b)]  # "planck"
    shared = sorted({w[:6] for w in said[0] - own} & {w[:6] for w in said[1] - own} - _ANYONE)
    if shared:
        ev.for_.append((1.5, f"both in {a.country}, both texts say {shared[0]!r}"))


def _city(a: Record, b: Record, ev: Said, named: float) -> None:
    """A name in another script read whole as the other's Latin one (6 at least: 吴泳铭 / Wu
    Yongming), three characters or more (a two-syllable name, 王毅 or 李娜, is many people's), and
    one city both locations name first, read alike (杭州 / Hangzhou, 서울 / Seoul): 2. Texts in two
    languages share no word of trade (`_country`); a city is what they can share."""
    if named < 6.0 or is_latin(a.name or "") == is_latin(b.name or ""):
        return
    latin, read = (a, b) if is_latin(a.name or "") else (b, a)
    if len((read.name or "").replace(" ", "")) < 3:
        return
    city, said = latin.location.split(",")[0].strip(), read.location.split(",")[0].strip()
    written = read.location_written
    if (
        len(city) >= 4
        and city != latin.country
        and (said == city or sounds_alike(said, city) or place_in(written, city))
    ):
        ev.for_.append((2.0, f"both in {city} ({said})"))


def _titles(a: Record, b: Record, ev: Said) -> None:
    """One title a person holds alone, written in two scripts ("总裁" / "President": glossary.py): 1,
    as the same title written alike is (evidence._facts)."""
    for x, y in ((a, b), (b, a)):
        if (
            x.title_written
            and y.title_written
            and not is_latin(x.title_written)
            and is_latin(y.title_written)
        ):
            said = titles_agree(x.title_written, y.title_written)
            if said:
                ev.for_.append((1.0, f"same title ({x.title_written} / {y.title_written})"))
                return


def _births(a: Record, b: Record, ev: Said, named: tuple[float, str]) -> None:
    """Two birth years stated (births.py): two people, whatever else they share (Harrison Ford,
    1884 and 1942); one year stated on both: 1, and 4 where the name in another script agrees with
    the Latin one in its family name only (林梧桐 / Lim Goh Tong: a given name a dialect reads, not
    Mandarin), so that one employer and one title join them too."""
    if not (a.born and b.born):
        return
    if a.born != b.born:
        ev.against.append(f"born in {a.born} / {b.born}")
    elif _family_only(a, b, named):
        ev.for_.append((4.0, f"both born in {a.born}, one family name in two scripts"))
    else:
        ev.for_.append((1.0, f"both born in {a.born}"))


def _family_only(a: Record, b: Record, named: tuple[float, str]) -> bool:
    """The names agree in their family name alone, one of them written in another script."""
    return is_latin(a.name or "") != is_latin(b.name or "") and SAME_FAMILY in named[1] and named[0] >= 0


def _few_share(a: Record, b: Record, ev: Said, named: float) -> None:
    """A whole name few people share (a family name not among the common ones, nor a Chinese name
    of few syllables nor a Burmese one: common_names.py), both in Latin letters, in one known
    country, and nothing against: 1, which a whole name's 7 needs to join (Keir Starmer at gov.uk
    and at parliament.uk). Two Ahmed Hassans, two Li Nas, two Kim Min-jaes stay apart on names."""
    if named < 7.0 or ev.against or not (known(a.country) and a.country == b.country):
        return
    if not (is_latin(a.name or "") and is_latin(b.name or "")):
        return
    if any(r.titled and not r.article for r in (a, b)):
        return  # "Rubik_Ernő_(repülőgép-tervező)": a title telling namesakes apart (as `_country`)
    for r in (a, b):
        said = person_key(r.name or "").split()
        if not said or chinese_like(said) or burmese_like(said) or any(common(w) for w in said[1:] or said):
            return
    ev.for_.append((1.0, f"a whole name few share, both in {a.country}"))


def _few_bear(a: Record, b: Record, ev: Said, why: str) -> None:
    """One single name few bear (common_names.few_bear) and one title: 1.5, which the name's 5.5 and
    the title's 1 need (Bizarrap on Wikipedia and on YouTube)."""
    one, title = {person_key(r.name or "").replace(" ", "") for r in (a, b)}, a.facts.get("title") or ""
    if why.startswith(SINGLE) and len(one) == 1 and few_bear(min(one)) and title == b.facts.get("title"):
        ev.for_.append((1.5, f"a single name few bear, {a.name}, with one title"))


def _generations(a: Record, b: Record, ev: Said) -> None:
    """A father and a son of one name (generations.py)."""
    if why := father_and_son(a, b):
        ev.against.append(why)


_ARTICLES = frozenset("the late o a os as el la los las il lo der dem den le les".split())
# What a relative is styled before the name, which their own page need not say in these words
# ("grandson of founder Ermenegildo Zegna", "grandson of Congressman Nick Begich")
_STYLED = frozenset("founder congressman congresswoman senator governor mayor president chairman".split())
_CHILDREN = frozenset(
    "children child son sons daughter kinder kind sohn sohne tochter filhos filho hijos hijo enfants fils figli figlio".split()
)


def _kin(a: Record, b: Record, ev: Said) -> None:
    """One record's text names the other as a relative: two people of one family, who often share
    a name and an employer (a grandson named after the founder he succeeds). The relative is the
    other where the words name them as the other's name does, better than the record's own, and
    describe them as the other's text does ("Neto do fundador Rui Nabeiro" beside Rui Nabeiro's page
    saying "fundador"): a name alone does not tell a father from a son of the same name ("son of
    Carlos Sainz" on a page under Carlos Sainz's son's longer name). Or a text naming a junior of
    the record's name among its children ("die Kinder Bonita und Wolfgang junior")."""
    for x, y in ((a, b), (b, a)):
        if x.name and y.name and (_relative(x, y, ev) or _junior(x, y, ev)):
            return
        # "her brother Kennevic", "son of Nestor Plasencia Sr." (generations.py)
        if x.name and (said := relative_named(x, y) or parent_named(x, y)):
            ev.against.append(f"{x.name}'s page names {y.name} as a relative: {said!r}")
            return


def _relative(x: Record, y: Record, ev: Said) -> bool:
    """`_kin`: x's text names y as a relative, described as y's text describes y, or by y's whole
    name where it holds a word x's name lacks ("son of Francesco Gaetano Caltagirone" on Francesco
    Caltagirone's page: a name x's own does not write in full is another's)."""
    theirs, named = set(y.said.split()), words(y.name or "")
    for m in KIN.finditer(x.said):
        said = m.group(1).split()
        for start in (0, 1, 2):  # "do fundador Rui Nabeiro": what the relative is, then the name
            described = [w for w in said[:start] if w not in _ARTICLES]
            if start and (not described or not set(described) <= theirs | _STYLED):
                continue
            if not start and (said[: len(named)] != named or not set(named) - set(words(x.name or ""))):
                continue
            for n in (2, 3) if start else (len(named),):
                span = " ".join(said[start : start + n])
                other = name_evidence(span, y.name or "")[0] if len(said) >= start + n else 0.0
                if other >= 6.5 and other > name_evidence(span, x.name or "")[0]:
                    kin = " ".join(m.group(0).split()[: 2 + start + n])
                    ev.against.append(f"{x.name}'s page names {y.name} as a relative: {kin!r}")
                    return True
    return False


def _founders_kin(a: Record, b: Record, ev: Said) -> None:
    """One text says the person founded an organisation, the other that a relative of the person
    did ("grandson of the founder of Harry's Bar"): a founder and an heir who often share a name."""
    for x, y in ((a, b), (b, a)):
        # an organisation named in part ("حفيد مؤسس البنك", the grandson of the bank's founder)
        for org in sorted(y.founder_of - x.founder_of):
            if any(employers_agree(kin, org) for kin in x.kin_founded):
                ev.against.append(
                    f"{y.name}'s page says the person founded {org}, {x.name}'s that a relative did"
                )
                return


def _junior(x: Record, y: Record, ev: Said) -> bool:
    """`_kin`: x's text names, among its children, a junior of x's name that y is."""
    mine, theirs = words(x.name or ""), words(y.name or "")
    if not (JUNIOR & set(theirs)) or JUNIOR & set(mine) or mine[:1] != theirs[:1]:
        return False
    said = x.said.split()
    for i in range(1, len(said)):
        if said[i] in JUNIOR and said[i - 1] in (mine[0], mine[-1]):
            if _CHILDREN & set(said[max(0, i - 8) : i]):
                ev.against.append(f"{x.name}'s page names a junior of the name among its children: {y.name}")
                return True
    return False


def weigh(a: Record, b: Record) -> Said:
    """The evidence for and against two people being one (module docstring); it joins at `JOIN_PERSON`."""
    ev = Said()
    if a.name and b.name:
        named = _names(a, b)
        ev.for_.append(named)
        _employers(a, b, ev)
        _founded(a, b, ev)
        _same_page(a, b, ev)
        _one_site(a, b, ev, named[0])
        _one_article(a, b, ev)
        _one_qualified_article(a, b, ev)
        _country(a, b, ev, named[0])
        _city(a, b, ev, named[0])
        _generations(a, b, ev)
        _kin(a, b, ev)
        _founders_kin(a, b, ev)
        _births(a, b, ev, named)
        _titles(a, b, ev)
        _few_share(a, b, ev, named[0])
        _few_bear(a, b, ev, named[1])
        _namesakes(a, b, ev)
    return ev


def _namesakes(a: Record, b: Record, ev: Said) -> None:
    """Two articles of one Wikipedia edition titled apart, pages naming two fields (fields.py), or
    titles naming careers of two fields (occupations.callings_apart): two people of one name (two
    Richard Taylors at Stanford, a mathematician and a physicist; Reza Yazdani, a wrestler and a
    singer)."""
    if a.site and b.site and (titles := fields.namesakes(a.site.host, a.site.path, b.site.host, b.site.path)):
        ev.against.append(f"two articles of one Wikipedia edition: {titles}")
    fa, fb = (fields.fields(r.topics | set(r.facts.get("title", "").split())) for r in (a, b))
    if fields.apart(fa, fb):
        ev.against.append(f"different fields ({', '.join(sorted(fa))} / {', '.join(sorted(fb))})")
    if careers := callings_apart(a.title_written, b.title_written):  # a wrestler and a singer
        ev.against.append(f"two callings: {careers[0]} / {careers[1]}")


def person_conflict(a: Record, b: Record, joins: bool) -> str | None:
    """What keeps two people out of one entity whatever links them: names that don't agree."""
    if a.kind != "person" or b.kind != "person" or a.profiles & b.profiles or joins:
        return None
    if not (a.clean and b.clean) or read_apart(a.name or "", b.name or ""):  # read against Latin only
        return None
    return "different names" if name_evidence(a.name or "", b.name or "")[0] < 4.0 else None
