"""Evidence for and against two records being one entity; a join needs enough for and none against.

`compare(a, b)` weighs what two records share and where they differ. Each piece is (weight,
reason) for, or a reason against. A join needs the weights for to reach `JOIN` *and* nothing
against: a wrong merge costs more than a missed one, so split evidence keeps two records apart
(`Evidence.why_apart` says why). What counts, companies and pages:
- **identity**: the same profile on a shared host (hosts.HOSTS), the same page (decisive);
- **stated**: one names the other as its former or other name, or says it is also at the other's
  site (the sentence is the reason); one names the other as its parent or owner is *against*:
  a parent and its subsidiary are two;
- **one site**: the same registered domain with names that agree; a name that adds a distinctive
  word to the site owner's on a deeper or country page ("Ayala Land" on ayala.com, "LATAM
  Airlines Brasil" on latamairlines.com/br) is a unit of the owner: against;
- **a brand on country domains** (woolworths.com.au / woolworths.co.za) is a brand, not one legal
  entity: it joins only when one names the other's site or both name the same owner;
- **one family of sites** (lufthansa.com / lufthansagroup.com): a label that is the other's plus a
  corporate word, with names that agree; a brand's own TLD (about.google / google.com, global.honda):
  one family on a generic domain, a brand (corroboration needed) on a country's;
- **one company on several sites** (families.py): labels of one stem, sites named for their
  company, an app's store pages, a page about it on another's site, each with corroboration;
- **a profile page about a company** (profiles.py): a page on a shared host naming the company of
  the other's own site, with one known country and one trade;
- **a page naming the other's site**: a page whose path names the other's site ("Tata Consultancy
  Services" on tata.com/business/tcs, "TCS" on tcs.com), under one name (or its initials);
- **one name in one country and one trade**: one name on two sites, where nothing else joined them,
  with one known country and one industry both say (a quote page under the company's name);
- **against**: different kinds, different profiles on one host, different registered domains
  nothing tied together, legal forms that differ ("Co., Inc." / "KGaA"; of civil-law codes, between a
  name and one extending it too: "a.s." / "s.r.o."), different countries (both
  known: countries.py; an unknown place is no evidence), a company one says it owns ("the parent
  of Royal Mail"), a unit's page deep in a site under a name adding two words (FUJIFILM Business
  Innovation at fujifilm.com/fb), a unit on a host of its own under a name adding to the owner's
  (MUFG Bank at bk.mufg.jp), a group and one of its companies on country domains (Otsuka
  Holdings / Otsuka Pharmaceutical: not one brand), a page deep in a group's site under a shorter
  name than the site is named for (BANDAI at bandainamco.co.jp), two legal names apart by
  "Holdings" (Meiji Holdings Co., Ltd. / Meiji Co., Ltd.) unless a page states the rename; and a
  former name written with a legal form weighs less against a brand's own site on another domain
  whose page writes none (a split company's brand may have gone with the part spun off: Arconic).
People (person_evidence.py): names after transliteration, in either order, initials and
nicknames, plus the same employer; a different employer is against unless a profile URL is shared.
Other fields (`Record.facts`: phone, address, date of birth ...) add or take weight by how much
they identify.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from exa_orch.workflows.entities import families, profiles, unrelated
from exa_orch.workflows.entities.alphabets import ALPHABETS, sounded
from exa_orch.workflows.entities.countries import is_place, known
from exa_orch.workflows.entities.families import GROUP_WORDS
from exa_orch.workflows.entities.glossary import agrees as reading_agrees
from exa_orch.workflows.entities.home_pages import label_reads
from exa_orch.workflows.entities.latin_forms import ENGLISH_FORMS
from exa_orch.workflows.entities.latin_words import GROUPS
from exa_orch.workflows.entities.listings import listing
from exa_orch.workflows.entities.names import (
    DESIGNATORS,
    ONE_NAME,
    SYLLABLES,
    acronym,
    adds_a_designator,
    core_name,
    extra_words,
    initialism,
    is_latin,
    legal_forms,
    names_agree,
    words,
)
from exa_orch.workflows.entities.person_evidence import JOIN_PERSON, NEW_EMPLOYER, career, person_conflict
from exa_orch.workflows.entities.person_evidence import weigh as weigh_person
from exa_orch.workflows.entities.read_names import read_in_part
from exa_orch.workflows.entities.records import Record
from exa_orch.workflows.entities.script_forms import cjk_forms, kana_only
from exa_orch.workflows.entities.scripts import is_cjk, sound_key
from exa_orch.workflows.entities.sites import PAGE_FILE, Site, brand_tld, country_suffix, regional, unit_entry

JOIN = 4.0  # companies and pages
_WITHIN = "one name's words are within the other's"  # names_agree's weakest agreement
DECISIVE = 10.0
# Weight of a field that agrees (half of it taken off when it differs): how much it identifies.
FACT_WEIGHTS = {"id": 6.0, "phone": 5.0, "dob": 4.0, "address": 3.0, "email": 6.0,
                "postcode": 1.0, "locality": 1.0, "state": 0.5, "title": 1.0, "year": 1.0}  # fmt: skip


@dataclass
class Evidence:
    """What two records share (`for_`: (weight, reason)) and what forbids joining them (`against`)."""

    for_: list[tuple[float, str]] = field(default_factory=list)
    against: list[str] = field(default_factory=list)
    threshold: float = JOIN

    @property
    def weight(self) -> float:
        return sum(w for w, _ in self.for_)

    @property
    def joins(self) -> bool:
        return not self.against and self.weight >= self.threshold

    @property
    def reason(self) -> str:
        """The evidence used, strongest first: "same registered domain ...; same country"."""
        return "; ".join(r for w, r in sorted(self.for_, key=lambda p: -p[0]) if w > 0)

    @property
    def why_apart(self) -> str:
        """Why the two stay apart: what is against, else that the evidence for is too weak."""
        if self.against:
            return "; ".join(self.against)
        said = self.reason or "nothing shared"
        return f"not enough evidence ({said})"


def _platforms(a: Record, b: Record) -> list[str]:
    out: list[str] = []
    if not (a.profiles and b.profiles):
        return out
    for host in {p.split("/")[0] for p in a.profiles} & {p.split("/")[0] for p in b.profiles}:
        pa = {p for p in a.profiles if p.startswith(host + "/")}
        pb = {p for p in b.profiles if p.startswith(host + "/")}
        if pa and pb and not pa & pb:
            out.append(f"different profiles on {host}")
    return out


@lru_cache(maxsize=1)
def _levenshtein() -> Any:
    from rapidfuzz.distance import Levenshtein  # on first use: a cold start needs none of it

    return Levenshtein.distance


def _facts(a: Record, b: Record, ev: Evidence) -> None:
    if not (a.facts and b.facts):
        return
    distance = _levenshtein()
    for key in a.facts.keys() & b.facts.keys():
        x, y, w = a.facts[key], b.facts[key], FACT_WEIGHTS.get(key, 1.0)
        if not x or not y:
            continue
        if x == y:
            ev.for_.append((w, f"same {key}"))
        elif key != "title" and len(x) >= 5 and distance(x, y) <= 1:
            ev.for_.append((w / 2, f"{key} differs by one character"))
        elif key != "title":
            ev.for_.append((-w / 2, f"different {key}"))


def compare(a: Record, b: Record) -> Evidence:
    """Evidence for and against `a` and `b` being one entity (module docstring)."""
    ev = Evidence()
    if a.kind and b.kind and a.kind != b.kind:
        ev.against.append("different kinds")
        return ev
    _said_apart(a, b, ev)
    shared = a.profiles & b.profiles
    if shared:
        ev.for_.append((DECISIVE, f"same profile URL {min(shared)}"))
    else:
        ev.against.extend(_platforms(a, b))
    if a.kind == "person" or b.kind == "person":
        ev.threshold, said = JOIN_PERSON, weigh_person(a, b)
        ev.for_.extend(said.for_)
        ev.against.extend(said.against)
    else:
        _company(a, b, ev)
    _facts(a, b, ev)
    if shared:  # an identifier outweighs what differs: a new employer, a page's other name
        ev.against = [r for r in ev.against if r.startswith("different profiles")]
    return ev


def _said_apart(a: Record, b: Record, ev: Evidence) -> None:
    """One record's text says its subject is not the other ("unrelated to X": unrelated.py)."""
    for x, y in ((a, b), (b, a)):
        # a name x goes by too, or its own in another script (中国銀行 read as "Chugoku Bank"): the
        # clause names a namesake it cannot tell apart ("both are written 中国銀行")
        if not x.unrelated or y.clean in x.aliases:
            continue
        if reading_agrees(x.name or "", x.clean, y.name or "", y.clean):
            continue
        for clause, said in x.unrelated.items():
            if unrelated.named(clause, y.name or "", x.name or ""):
                ev.against.append(f"{x.name or x.id} says it is not {y.name}: {said!r}")
                return


def _stated(a: Record, b: Record, ev: Evidence) -> None:
    """What one record's text says about the other: another name, another site, an owner, a company
    it owns."""
    for x, y in ((a, b), (b, a)):
        _names_other(x, y, ev)
        if y.domain and y.domain in x.alias_domains:
            ev.for_.append(
                (6.0, f"{x.name or x.id} says it is also at {y.domain}: {x.alias_domains[y.domain]!r}")
            )
        _ownership(x, y, ev)


_HOLDING_WORDS = frozenset({"holdings", "holding", "hd"})
# A group's name and one of its units' (JMMB Group / JMMB Bank, PASHA Holding / PASHA Bank): the
# group word on one side, the unit's trade on the other, every other word shared
_GROUP_WORDS = (_HOLDING_WORDS - {"hd"}) | GROUPS
_UNIT_WORDS = frozenset(
    "bank banka banco banque insurance assurance life securities airlines airways".split()
)


def _names_other(x: Record, y: Record, ev: Evidence) -> None:
    """x's text gives y's name as another of its own ("formerly", "also known as")."""
    cores = {core_name(alias): alias for alias in x.aliases}
    # "became Canadian Pacific Kansas City Limited" names CPKC: a stated name's initials, written
    # as one word of three letters or more
    initials = {acronym(alias): alias for alias in x.aliases if len(alias.split()) >= 3}
    # unless x's own name is that name's short form written otherwise: "Камский тракторный завод
    # (КамТЗ)" on КамТЗ's page names no КТЗ (Курганский тракторный завод is one)
    initials = {k: v for k, v in initials.items() if not _own_short_form(x.clean, k)}
    # and y's name without a word for its kind or its country a page adds (Compagnie Plastic Omnium)
    plainer = profiles.plainer_names(y) if known(x.country) and x.country == y.country else []
    # y's core, unless it drops the holding company y says it is: the brand a page names in brackets
    # ("쿠쿠전자(CUCKOO)", Cuckoo Electronics) is not "Cuckoo Holdings" by that name
    core = "" if extra_words(y.core, y.clean) & _HOLDING_WORDS else y.core
    for named in (y.clean, core, *plainer):
        if not named:
            continue
        if named not in x.aliases:
            named = cores.get(named) or (initials.get(named, "") if len(named) >= 3 else "")
        if named:
            _weigh_stated(x, y, named, ev)
            return


def _own_short_form(own: str, initials: str) -> bool:
    """Whether a record's name (`own`, cleaned) is one word, a short form of a stated name opening
    with its initials' letter but not those initials (КамТЗ, "kamtz", of "ktz")."""
    return " " not in own and len(own) <= 8 and own != initials and own[:1] == initials[:1]


def _weigh_stated(x: Record, y: Record, named: str, ev: Evidence) -> None:
    """y's name, stated by x as `named`: 6, or 3 for a legal entity named beside a brand's own site."""
    # "Merck & Co., Inc." names Merck & Co., not Merck KGaA: the legal forms written agree
    said, has = x.alias_forms.get(named, frozenset()), profiles.stated_forms(y)
    if _forms_differ(said, has):
        return
    # a name two companies of two trades bear, one of them formerly (マルマン, a golf maker's former
    # name, and maruman, a stationer's): named as a brand is, corroboration needed, unless the
    # other's page writes the legal form stated (a renamed company's business may change too)
    brand = (
        _as_a_brand(x, y, said, has)
        or _named_after(x, named)
        or (families.two_trades(x, y) and not said & has)
    )
    ev.for_.append(
        (3.0 if brand else 6.0, f"{x.name or x.id} names {y.name or y.clean}: {x.aliases[named]!r}")
    )
    if brand and known(x.country) and x.country == y.country and x.industry and x.industry == y.industry:
        # "SunLife is a trading name of Phoenix Life Limited" beside Phoenix Life's own site, in
        # one country and one trade: what corroborates a page and a site (profiles.py)
        ev.for_.append((1.0, f"both based in {x.country} and in {x.industry}"))


def _as_a_brand(x: Record, y: Record, said: frozenset[str], has: frozenset[str]) -> bool:
    """Whether x names y only as a brand is named (3, not 6: `_weigh_stated`)."""
    # "Howmet Aerospace Inc. (formerly Arconic Inc.)" names a legal entity; a brand of that name on
    # a site of its own may have gone with a part spun off (Arconic Corp.): corroboration needed
    # unless the brand's page writes the same legal form; a former name x's company gave up when it
    # took a new one likewise (Record.name_taken: "took the BWXT name", the old kept by a part spun off)
    if (said and not has and x.domain or x.name_taken) and y.domain and x.domain != y.domain:
        return True
    # a name in kanji and its reading in kana ("株式会社福屋（ふくや）"): homophones share the reading,
    # so it names a company written in kana as a brand does
    return kana_only(y.name or "") and not kana_only(x.name or "") and not is_latin(x.name or "")


def _named_after(x: Record, named: str) -> bool:
    """Whether x's own name is the name it states (`named`, a brand in quotes) with words of its own
    before it that say more than a legal form: a unit named after its owner's brand ("Лизинговая
    компания «КАМАЗ»", KAMAZ's leasing company), or the brand's own company in words of its trade
    (Lubelski Węgiel „Bogdanka”), which only what corroborates tells apart."""
    before = x.clean[: -len(named)].split() if x.clean.endswith(f" {named}") else []
    return bool(before) and not set(before) <= DESIGNATORS


def _forms_differ(said: frozenset[str], has: frozenset[str]) -> bool:
    """Two sets of legal forms written, neither sharing one with the other: CJK forms against CJK
    forms only ("股份有限公司" is "Co., Ltd." in English as often as "Inc.")."""
    for cjk in (True, False):
        mine, theirs = ({f for f in forms if f.startswith("cjk:") == cjk} for forms in (said, has))
        if mine and theirs and not mine & theirs:
            return True
    return False


def _ownership(x: Record, y: Record, ev: Evidence) -> None:
    """x's text names y as its owner, or as a company it owns: two entities."""
    # "HSBC UK, a subsidiary of HSBC Holdings plc" names HSBC: an owner's core is the owner too;
    # a group of a brand's own name is its own ("Woolworths, part of Woolworths Group": one entity),
    # not of a company's legal name ("Hyundai Motor Company, part of Hyundai Motor Group": two)
    owner = next((o for o in x.owners if y.core and _owner_is(o, x, y)), None)
    if owner:
        ev.against.append(f"{x.name or x.id} names {y.name} as its owner: {x.owners[owner]!r}")
    child = next(
        (c for c in x.owned if c in (y.clean, y.core) or y.core in (core_name(c), _bank_of(c))), None
    )
    if child:
        ev.against.append(
            f"{x.name or x.id} names {y.name} as a company it owns or spun off: {x.owned[child]!r}"
        )


_BANK_WORDS = frozenset("banco banca banque bank".split())


def _bank_of(name: str) -> str:
    """A bank's name without the word for bank before it ("banco inter" -> "inter"): the holding
    company of Banco Inter owns the bank that calls itself Inter."""
    first, _, rest = name.partition(" ")
    return rest if first in _BANK_WORDS and rest else ""


def _owner_is(owner: str, x: Record, y: Record) -> bool:
    """`owner`, stated by x, is y (by name, core or initials) and not the group of x's own bare name."""
    # ... but a subsidiary is another company, whatever its name ("POSCO, the steelmaking
    # subsidiary established in 2022 under POSCO Holdings")
    own_group = core_name(owner) == x.core == x.raw_name and "subsidiary" not in x.owners[owner]
    # "a core member of Mitsubishi UFJ Financial Group" names MUFG: its initials are y's name
    named = owner in (y.clean, y.core) or core_name(owner) == y.core or initialism(owner, y.clean)
    # a holding company of x's own name ("OUTsurance, a subsidiary of OUTsurance Holdings") is y
    # only where y's name says so too: another page under x's bare name is x's
    if core_name(owner) == x.core and owner != y.clean and y.clean == x.core:
        return False
    # "All Nippon Airways, a subsidiary of ANA Holdings" beside "ANA": ANA is the airline's own
    # initials, and the holding company another company of them
    own_initials = y.clean == x.initials and owner != y.clean
    return not own_group and not own_initials and bool(named)


def _forms(r: Record) -> frozenset[str]:
    return legal_forms(r.raw_name, r.clean)


def _read_agree(a: Record, b: Record) -> str | None:
    """A name in Chinese characters, kana or Hangul whose reading agrees with the other's
    (glossary.agrees; one in Thai letters by its consonants, thai_companies.thai_agrees), or that
    a site's home page gives where the other's name is that site's label, its trade after it too
    (home_pages.label_reads: 花王 at kao.com/jp and "Kao"; 青岛啤酒 at tsingtao.com.cn and
    "Tsingtao Brewery"): a company's own home page in its own language."""
    return (
        reading_agrees(a.name or "", a.clean, b.name or "", b.clean) or label_reads(a, b) or label_reads(b, a)
    )


def _agree_on_site(a: Record, b: Record) -> str | None:
    """How two names on one site agree, directly or through an alias one states."""
    agree = names_agree(a.clean, b.clean) or families.plural_agree(a.clean, b.clean) or _read_agree(a, b)
    if agree:
        return agree
    for x, y in ((a, b), (b, a)):
        said = x.subjects.get(y.clean) or x.subjects.get(y.core)
        if said:  # "HSBC Hong Kong", whose page begins with the bank's full name
            return f"{x.name}'s page is about {y.name}: {said!r}"
        held = _holds_site_name(x, y, a.site.label if a.site else "")
        if held:
            return held
    return _goes_by(a, b) or _owners_in_two_scripts(a, b)


# The hosts a company's investor relations are on (ir.jd.com, investors.lixiang.com): its own,
# never a unit's or a subsidiary's.
_INVESTOR_HOSTS = frozenset({"ir", "investor", "investors"})
# Words a site's owner adds to the name its site is named for: "Waseda University" at waseda.jp.
_OWNER_WORDS = frozenset({"university", "college", "institute", *GROUP_WORDS})


def _owners_in_two_scripts(a: Record, b: Record) -> str | None:
    """The site's front page and, in another script, a page of its investor-relations host or one
    named as the site is (the label, with an owner's word at most): both the company whose site it
    is ("JD.com" at ir.jd.com and "京东" at jd.com; "Waseda University" and "早稲田大学" at
    waseda.jp). Not two Latin names that disagree: a bank's holding company keeps the investor site
    of the bank's domain ("Regions Financial Corporation" at ir.regions.com, "Regions Bank")."""
    if is_latin(a.name or "") == is_latin(b.name or ""):
        return None
    for x, y in ((a, b), (b, a)):
        if not (x.site and y.site and y.site.front):
            continue
        if x.site.host.split(".")[0] in _INVESTOR_HOSTS:
            return (
                f"{x.name} is on {x.site.host}, the investor site of {y.domain}, whose front page {y.name} is"
            )
        words_ = x.core.split()
        label = x.site.label.replace("-", "")
        named = is_latin(x.name or "") and len(label) >= 4 and words_[:1] == [label]
        if named and set(words_[1:]) <= _OWNER_WORDS | DESIGNATORS:
            return f"{x.name} is named as {y.domain} is, whose front page {y.name} is"
    return None


def _holds_site_name(x: Record, y: Record, label: str) -> str | None:
    """ "中国平安" and "Ping An" on pingan.com: a name in another script read in Latin letters holds
    the other's, which is the site's own name (a unit's, "Ping An Bank", is not the site's label)."""
    own = y.clean.replace(" ", "")
    if x.name and not is_latin(x.name) and len(own) >= 4 and own == label and own in x.clean.replace(" ", ""):
        return f"{x.name} read in Latin letters holds {y.name}, the site's name"
    return None


def _goes_by(a: Record, b: Record) -> str | None:
    """One's stated other name is the other's, or the other is its initials ("Koninklijke
    Luchtvaart Maatschappij N.V. (KLM)" / "KLM Royal Dutch Airlines")."""
    for x, y in ((a, b), (b, a)):
        for alias in sorted(x.aliases):
            if y.clean and names_agree(alias, y.clean):
                return f"{x.name} also goes by {alias!r}"
        if y.clean and " " not in y.clean and x.raw_name and initialism(x.raw_name, y.clean):
            return f"{y.name} is the initials of {x.name}"  # TSMC: the initial of "Company" too
    return None


# Words a page's title adds to its company's name that say what page it is, not which unit owns it:
# "Verizon Investor Relations" at verizon.com/about/investors is Verizon's.
_PAGE_WORDS = frozenset("investor investors relations newsroom careers".split())


def _unit_page(a: Record, b: Record, ev: Evidence) -> None:
    """A name that adds a word to the other's on a page its path names (ayala.com/ayala-land) is a
    unit of the site's owner: against. So are two words or more added on a page deep in the site
    ("FUJIFILM Business Innovation" at fujifilm.com/fb against "FUJIFILM Holdings"): a company's own
    name on its home page may add a word of trade ("Samsung Electronics" at samsung.com), a unit's
    page is rarely its home. A name adding a word to the other's stated short name ("SOCAR
    Karbamid" at socar.az/az/page/karbamid-zavodu beside "Azərbaycan Respublikası Dövlət Neft
    Şirkəti (SOCAR)") adds it to the other's name."""
    longer, extra = _alias_added(a, b) or _added(a, b)
    where = longer.site
    named = _path_names(longer, extra)
    if named and where:
        ev.against.append(
            f"{longer.name} adds {' '.join(named)!r} to the other's name on {where.canonical}, a page its "
            "path names: a unit of the site's owner"
        )
    elif unit := next((x for x, y in ((a, b), (b, a)) if _unit_host(x, y)), None):
        assert unit.site is not None
        ev.against.append(
            f"{unit.name} adds to the other's name on {unit.site.host}, a host of its own under "
            f"{unit.site.domain}: a unit of the site's owner"
        )
    elif where and not where.home and len([w for w in extra if len(w) >= 3]) >= 2:
        ev.against.append(
            f"{longer.name} adds {' '.join(sorted(extra))!r} to the other's name on {where.canonical}, a "
            "page deep in the site: a unit of the site's owner"
        )
    elif said := families.other_trade_unit(extra, (b if longer is a else a).industry):
        ev.against.append(
            f"{longer.name} adds {said!r} to the other's name, a trade its page does not say: its unit"
        )


def _alias_added(a: Record, b: Record) -> tuple[Record, frozenset[str]] | None:
    """The name that extends the other's stated short name (its alias, `_goes_by`) and the words
    it adds to it but for designators, or None."""
    for x, y in ((a, b), (b, a)):
        for alias in x.aliases:
            if y.clean.startswith(alias + " "):
                return y, frozenset(y.clean.split()) - set(alias.split()) - DESIGNATORS - _PAGE_WORDS
    return None


def _added(a: Record, b: Record) -> tuple[Record, frozenset[str]]:
    """The longer of two names and the words it adds to the other's core, but for designators and
    the words that say what page it is (`_PAGE_WORDS`). The longer is the one whose core adds them:
    "Rane (Madras) Limited" to Rane Holdings Limited's, though the other's whole name is longer."""
    ca, cb = core_name(a.clean), core_name(b.clean)
    added = extra_words(ca, cb)
    longer = (a if added <= set(ca.split()) else b) if added else (a if len(a.clean) > len(b.clean) else b)
    return longer, added - DESIGNATORS - _PAGE_WORDS


def _regional_unit(a: Record, b: Record, ev: Evidence) -> None:
    """One brand on country domains, one name adding a word its page's path names that is no place
    ("CIMB Islamic" on cimb.com.my/.../islamic-banking.html beside CIMB at cimb.com): a unit of the
    brand's owner, against; a country's name added ("Nestlé Malaysia" on nestle.com.my/malaysia) is
    the brand in that country, which `_brand` weighs."""
    longer, extra = _added(a, b)
    named = [w for w in _path_names(longer, frozenset(w for w in extra if not is_place(w))) if " " not in w]
    if named and longer.site:
        ev.against.append(
            f"{longer.name} adds {' '.join(named)!r} to the brand's name on {longer.site.canonical}, a "
            "page its path names: a unit of the brand's owner"
        )


def _path_names(longer: Record, extra: frozenset[str]) -> list[str]:
    """The words `longer` adds to the other's name that its page's path names (a word shorter than
    three letters only where a path segment is the whole name), or its initials there
    (petronas.com/pdb: PETRONAS Dagangan (Berhad))."""
    where = longer.site
    if not where or not extra:
        return []
    named = sorted(w for w in extra if len(w) >= 3 and w in where.path)
    if not named and longer.clean.replace(" ", "") in {s.replace("-", "") for s in where.path.split("/")}:
        named = sorted(extra)  # pinar.com.tr/yatirimci-iliskileri/pinar-et: Pınar Et, not Pınar
    return named or ([f"{longer.name}'s initials"] if _initials_in_path(longer.clean, where.path) else [])


def _initials_in_path(clean: str, path: str) -> bool:
    """A path segment is the name's initials, two letters at least, or those and a legal form's
    ("pdb": PETRONAS Dagangan Berhad)."""
    initials = acronym(clean)
    return len(initials) >= 2 and any(
        s == initials or (len(s) == len(initials) + 1 and s.startswith(initials)) for s in path.split("/")
    )


# Subdomains a company's own site is served from, whatever its name: not a unit's own host.
_SITE_HOSTS = frozenset(
    "www www2 m web home en int global group corporate corp company about ir investor investors "
    "news newsroom press media careers jobs shop store blog hq world info ri worldwide "
    "international intl".split()
)


def _unit_host(x: Record, y: Record) -> bool:
    """x's name adds words to y's or to a name y states (its brand in quotes: "Татнефть-АЗС Центр"
    at azs.tatneft.ru beside "ПАО «Татнефть» им. В.Д. Шашина"), or to y's initials ("MUFG Bank" /
    "Mitsubishi UFJ Financial Group"), on a host of its own under y's registered domain
    (`_own_subdomain`: bk.mufg.jp)."""
    if not (x.site and _own_subdomain(x.site, y.site)):
        return False
    wx, wy = x.clean.split(), y.clean.split()
    if any(set(name.split()) < set(wx) for name in (y.clean, *y.aliases)):
        return True
    return len(wx) > 1 and len(wy) > 1 and wx[0] == acronym(y.clean)


def _own_subdomain(where: Site, other: Site | None) -> bool:
    """`where` is a host of its own under the registered domain (bk.mufg.jp beside www.mufg.jp):
    neither the other's host nor one a company's own site is served from (`_SITE_HOSTS`, a locale)."""
    if other is None or where.host == other.host or where.host == where.domain:
        return False
    sub = where.host.removesuffix("." + where.domain)
    return "." not in sub and sub not in _SITE_HOSTS and where.canonical.split("/")[0] != where.domain


def _one_site(a: Record, b: Record, ev: Evidence) -> None:
    sa, sb = a.site, b.site
    assert sa is not None and sb is not None
    if sa.same_page(sb):
        ev.for_.append((DECISIVE, f"same page {sa.canonical}"))
    if not (a.clean and b.clean):
        return
    if a.kind not in (None, "company", "custom") and b.kind not in (None, "company", "custom"):
        if a.clean == b.clean:
            ev.for_.append((JOIN, f"same title on {a.domain}"))
        return
    agree = _agree_on_site(a, b)
    if agree:
        ev.for_.append((5.0, f"same registered domain {a.domain} ({agree})"))
        _unit_page(a, b, ev)
        _unit_read(a, b, agree, ev)
        _group_company(a, b, ev)
        _listed_unit(a, b, ev)


def _unit_read(a: Record, b: Record, agree: str, ev: Evidence) -> None:
    """A page deep in the site whose name in another script reads as the other's, one word, and
    more (read_names.read_in_part: 株式会社ヤマハミュージックジャパン, "yamaha" and more, at
    jp.yamaha.com/about/ymj beside Yamaha Corporation) is a unit of the site's owner, against, as a
    Latin name adding words there is (`_unit_page`); a site's home page in another script is not,
    nor a page beside a Latin name of more words, which the reading may say too (ヤマハ・ミュージック・
    ヨーロッパ / Yamaha Music Europe)."""
    unit, latin = (a, b) if not is_latin(a.name or "") else (b, a)
    if read_in_part(agree) and " " not in latin.core and unit.site and not unit.site.home:
        ev.against.append(
            f"{unit.name} reads as more than the other's name on {unit.site.canonical}, a page deep in "
            "the site: a unit of the site's owner"
        )


def _listed_unit(a: Record, b: Record, ev: Evidence) -> None:
    """A page the site lists among its owner's units, named as its path spells ("John Keells PLC"
    at keells.com/our-businesses/john-keells-plc: sites.unit_entry), beside the site's home page
    ("John Keells Group"): a company of the group, though the group's word and the legal form
    each name drops leave one name, against."""
    for unit, home in ((a, b), (b, a)):
        if home.site and home.site.home and unit.site and unit_entry(unit.site.path, unit.name or ""):
            ev.against.append(f"{unit.name} is on a page {unit.domain} lists its owner's units under: a unit")
            return


def _group_company(a: Record, b: Record, ev: Evidence) -> None:
    """A site named for the longer of two names ("Bandai Namco Holdings" at bandainamco.co.jp) and a
    page on it under the shorter one ("BANDAI CO., LTD." at bandainamco.co.jp/en/group/toys): the
    shorter is a company of the group, not the site's owner, when the longer adds a word of its own
    (Namco; not a corporate word: "Fidelity" on fidelityinternational.com is the site's)."""
    short, long_ = sorted((a, b), key=lambda r: len(r.core))
    label = (a.site.label if a.site else "").replace("-", "")
    extra = extra_words(short.core, long_.core) - DESIGNATORS - set(GROUP_WORDS)
    if (
        extra
        and short.core.replace(" ", "") != label
        and long_.core.replace(" ", "").startswith(label)
        and label.startswith(short.core.replace(" ", ""))
        and short.site
        and not short.site.home
    ):
        ev.against.append(
            f"{long_.name} is the name {a.domain} is named for; {short.name}, a page deep in it, drops "
            f"{' '.join(sorted(extra))!r}: a company of the group"
        )


# What a company's corporate or investors' site adds to its label beside GROUP_WORDS
# (wickesplc.co.uk, akbankinvestorrelations.com)
_SITE_WORDS = frozenset({*GROUP_WORDS, "plc", "investorrelations", "investors", "ir"})


def _label_family(x: str, y: str) -> bool:
    """lufthansa / lufthansagroup, bmw / bmwgroup, wickes / wickesplc: one label is the other's plus
    a corporate word (_SITE_WORDS)."""
    short, long_ = sorted((x, y), key=len)
    return (
        long_.startswith(short)
        and long_[len(short) :].strip("-") in _SITE_WORDS
        or (long_.endswith(short) and long_[: -len(short)].strip("-") in _SITE_WORDS)
    )


def _brand_names(a: str, b: str) -> str | None:
    """Two names one brand goes by on country domains: names that agree (names.names_agree), but
    not two that each add a word to a shared one ("Otsuka Holdings" / "Otsuka Pharmaceutical": a
    group and one of its companies)."""
    agree = names_agree(a, b)
    wa, wb = set(a.split()), set(b.split())
    return agree if agree and (wa <= wb or wb <= wa or agree != _WITHIN) else None


def _two_countries(a: Site, b: Site) -> bool:
    """Sites under two different countries' suffixes (woolworthsgroup.com.au / woolworths.co.za)."""
    return a.suffix != b.suffix and country_suffix(a.suffix) and country_suffix(b.suffix)


def _brand(a: Record, b: Record, ev: Evidence) -> None:
    """One name on country domains: a brand; one owner only with corroboration."""
    said = ["one names the other's site" for x, y in ((a, b), (b, a)) if y.domain in x.mentions]
    # one country is one owner's only in one trade: SoftBank Corp. (softbank.jp, telecoms) and
    # SoftBank Group (group.softbank, investment holding) are two companies of Japan
    if a.country and a.country == b.country and not families.two_trades(a, b):
        said.append(f"both say they are based in {a.country}")
    said.extend(f"both owned by {o}" for o in sorted(a.owners.keys() & b.owners.keys()))
    if said:
        ev.for_.append((JOIN, f"same name on country domains {a.domain} / {b.domain}, and {said[0]}"))
    else:
        ev.for_.append((1.0, f"same brand on country domains {a.domain} / {b.domain}"))


def _same_name_elsewhere(a: Record, b: Record, ev: Evidence) -> None:
    """The same name on two sites: one names the other's site, or a page its path names is the
    other's own site, named for it whole or by its initials ("Ayala Land" on ayala.com/ayala-land
    and ayalaland.com.ph; "Albert Heijn" on aholddelhaize.com/brands/albert-heijn and ah.nl).
    families.page_elsewhere weighs the rest of a page about a company on another's site."""
    for x, y in ((a, b), (b, a)):
        slug = x.core.replace(" ", "-")
        if y.domain in x.mentions:
            ev.for_.append((JOIN, f"the same name, and {x.name} names {y.domain}"))
            return
        own = y.site.label.replace("-", "") if y.site else ""
        initials = "".join(w[0] for w in x.core.split())
        if (
            x.site
            and len(x.core.split()) >= 2
            and slug in x.site.path
            and own in (slug.replace("-", ""), initials)
        ):
            ev.for_.append((JOIN, f"the same name, on {x.site.canonical} and on its own site {y.domain}"))
            return


def _brand_domain(a: Record, b: Record, ev: Evidence) -> None:
    """A site under the brand's own TLD and a site of that label: on a generic one (google.com) one
    family of sites when the names agree as one name; on a country's (honda.co.jp) a brand, joined
    only with corroboration, as two country domains are."""
    owned, other = (a, b) if a.site and b.site and brand_tld(a.site, b.site) else (b, a)
    assert other.site is not None
    agree = names_agree(a.clean, b.clean)
    if not agree:
        return
    if country_suffix(other.site.suffix):
        _brand(a, b, ev)
    elif agree in ONE_NAME:
        tld = owned.site.suffix if owned.site else ""
        ev.for_.append(
            (JOIN, f"{owned.domain} is under the brand's own TLD .{tld}, {other.domain} its name ({agree})")
        )


def _path_names_site(a: Record, b: Record, ev: Evidence) -> None:
    """A page whose path names the other's site, under one name ("Tata Consultancy Services" on
    tata.com/business/tcs and "TCS" on tcs.com): the page is about the other's owner."""
    for x, y in ((a, b), (b, a)):
        if not (x.site and y.site) or len(y.site.label) < 3:
            continue
        # a segment as a page names it, its file's extension aside (lixil.com/.../brands/grohe.html)
        segments = {PAGE_FILE.sub("", s).replace("-", "") for s in x.site.path.split("/") if s}
        agree = names_agree(x.clean, y.clean)
        if agree not in ONE_NAME:
            agree = families.adds_its_trade(x, y)
        if y.site.label.replace("-", "") in segments and agree:
            ev.for_.append(
                (JOIN, f"{x.name} on {x.site.canonical}, a page its path names {y.domain} ({agree})")
            )
            return


def _two_sites(a: Record, b: Record, ev: Evidence) -> None:
    sa, sb = a.site, b.site
    assert sa is not None and sb is not None
    if not (a.clean and b.clean):
        return
    _path_names_site(a, b, ev)
    if brand_tld(sa, sb) or brand_tld(sb, sa):
        _brand_domain(a, b, ev)
    elif regional(sa, sb) and (_brand_names(a.clean, b.clean) or _read_agree(a, b)):
        _brand(a, b, ev)
        _regional_unit(a, b, ev)
    elif _label_family(sa.label, sb.label) and not _two_countries(sa, sb) and not families.two_trades(a, b):
        # a family name on two sites is two families' where the trades share nothing (mueller.de, a
        # drugstore chain, and muellergroup.com, a dairy group)
        agree = names_agree(a.clean, b.clean)
        agree = agree if agree in ONE_NAME else _read_agree(a, b)
        if agree:
            ev.for_.append((JOIN, f"sites of one family {a.domain} / {b.domain} ({agree})"))
    elif a.core and a.core == b.core:
        _same_name_elsewhere(a, b, ev)
    else:
        _name_spells_site(a, b, ev)
    _weaker_ties(a, b, ev)


def _name_spells_site(a: Record, b: Record, ev: Evidence) -> None:
    """A page whose name, written together, is the other's own site's label, the other's name a
    part of it ("Tequila Siete Leguas" on a review site beside "Siete Leguas" of
    tequilasieteleguas.com.mx; "EDF Energy" beside "EDF" of edfenergy.com), both of one known
    country and no two trades: the site's full name."""
    for x, y in ((a, b), (b, a)):
        label = y.site.label.replace("-", "") if y.site and not y.site.path else ""
        spelled = x.clean.replace(" ", "")
        if len(label) < 6 or spelled != label or not set(y.core.split()) < set(x.core.split()):
            continue
        if known(a.country) and a.country == b.country and not families.two_trades(a, b):
            ev.for_.append((JOIN, f"{x.name} is {y.domain}'s name written together, {y.name} a part of it"))
            return


def _weaker_ties(a: Record, b: Record, ev: Evidence) -> None:
    """What `_two_sites` weighs where nothing stronger joined: one company on several sites
    (families.py), each with its corroboration, then one name in one country and one trade."""
    for tie in (families.one_stem, families.page_elsewhere, _same_name_same_trade):
        if ev.weight < JOIN:
            tie(a, b, ev)


def _same_name_same_trade(a: Record, b: Record, ev: Evidence) -> None:
    """One name of two words or five letters on two sites, with one known country and one industry
    both say: a page about the company on another's site (a quote page, a registry, a news site)
    under its name ("Ecobank Côte d'Ivoire" on ecobank.com/ci and on a quote page of the exchange
    of Abidjan); a brand's sites in two countries or a family name's in two trades stay apart."""
    distinct = a.core == b.core and (len(a.core.split()) >= 2 or len(a.core) >= 5)
    if distinct and known(a.country) and a.country == b.country and a.industry == b.industry != "":
        ev.for_.append((JOIN, f"the same name, both based in {a.country} and in {a.industry}"))


def _no_site(a: Record, b: Record, ev: Evidence) -> None:
    """Records without a site of their own: a paper's title, an equal name, an app's or a profile's pages."""
    if families.is_app(a.site) or families.is_app(b.site):
        families.app_pages(a, b, ev)
    else:
        profiles.page_about(a, b, ev)
    profiles.two_profiles(a, b, ev)
    # a name its company gives up is no identity: another may take it with a business it sold
    if (a.clean and _unspaced(a) == _unspaced(b) or a.raw_name and a.raw_name == b.raw_name) and not (
        a.renaming or b.renaming
    ):
        _same_name_no_site(a, b, ev)
    elif not (a.domain or b.domain or a.profiles or b.profiles):
        _reports_adding(a, b, ev)


def _reports_adding(a: Record, b: Record, ev: Evidence) -> None:
    """Two reports, no site or profile either, of one known country: one name the other's and the
    trade both state ("Hunnu Coal" / "Hunnu", in coal mining) or their country ("FoodCorp Chile
    S.A."), or one the other's initials or short form in one industry ("MFPM" / "Manufacture
    Française des Pneumatiques Michelin", both in tyre manufacturing), or its reading or
    translation in another script whole, not its start only (Асман Эйрлайнс / Asman Airlines), in
    one industry: as two reports under one Latin name are one company (`_same_name_no_site`)."""
    if not (known(a.country) and a.country == b.country):
        return
    country = families.country_after(a, b.clean) or families.country_after(b, a.clean)
    added = families.adds_its_trade(a, b) or ("one name adds only the country" if country else None)
    if not added and a.industry == b.industry != "" and names_agree(a.clean, b.clean) == "abbreviation":
        added = "one name abbreviates the other, both in " + a.industry
    if not added and a.industry == b.industry != "" and (read := _read_whole(a, b)):
        added = f"{read}, both in {a.industry}"
    if added:
        ev.for_.append((JOIN, f"neither item has a site, {added}, both based in {a.country}"))


def _read_whole(a: Record, b: Record) -> str | None:
    """`_read_agree`, where the reading agrees with the whole Latin name, four consonants or more
    (a short one, "NIX", is heard in too many names: Інновекс)."""
    read = _read_agree(a, b)
    latin = a if is_latin(a.name or "") else b
    return read if read and not read_in_part(read) and len(sound_key(latin.clean)) >= 4 else None


def _unspaced(r: Record) -> str:
    """`r`'s name run together, where six letters or more ("El Fouladh" / "ElFouladh"), else as cleaned."""
    joined = r.clean.replace(" ", "")
    return joined if len(joined) >= 6 else r.clean


def _same_name_no_site(a: Record, b: Record, ev: Evidence) -> None:
    """One name, where one record (or both) has no site: a paper's title, or the full name. A
    profile page (a Wikipedia article, a LinkedIn page) is not "no site": its name alone says
    nothing of which company it is ("Discovery" on Warner Bros. Discovery's article and Discovery
    Limited's site), so profiles.page_about and two_profiles weigh it, with their corroboration."""
    if a.kind == "research_paper" and a.clean == b.clean and len(a.clean) >= 20:
        ev.for_.append((JOIN, "same paper title"))
    if not (a.domain or b.domain or a.profiles or b.profiles) and _unspaced(a) == _unspaced(b):
        # a shipping line and a timber group, reported under one name
        _one_name_in(a, b, ev, "same cleaned name, neither item has a site", families.two_trades(a, b))
    elif any(r.site and r.site.platform for r in (a, b)):  # a profile, or a news host's article
        return
    elif not (a.domain and b.domain) and not (a.profiles and b.profiles) and a.raw_name == b.raw_name:
        apart = bool(a.industry and b.industry and a.industry != b.industry)  # Giant bicycles / Giant Food
        _one_name_in(a, b, ev, "same full name (legal form included), one item has no site", apart)


def _one_name_in(a: Record, b: Record, ev: Evidence, said: str, two_trades: bool) -> None:
    """One name, `said` how: a join, or 1 where the records' trades are two."""
    if two_trades:
        ev.for_.append((1.0, f"{said}, but {a.industry} / {b.industry}"))
    else:
        ev.for_.append((JOIN, said))


def _holdings(a: Record, b: Record, ev: Evidence) -> None:
    """A holding company and another company of its name: two."""
    if a.holding != b.holding and a.domain and b.domain and a.domain != b.domain:
        # Porsche SE at porsche-se.com and Porsche at porsche.com
        holding, other = (a, b) if a.holding else (b, a)
        ev.against.append(f"{holding.name} says it is a holding company, {other.name} does not")
    apart = set(a.raw_name.split()) ^ set(b.raw_name.split())
    renamed = any(y.clean in x.aliases or y.core in x.aliases for x, y in ((a, b), (b, a)))
    if _forms(a) and _forms(b) and apart and apart <= _HOLDING_WORDS and not renamed:
        # "Meiji Holdings Co., Ltd." / "Meiji Co., Ltd.": two legal names, a holding company and
        # the company of its name it holds (a brand's bare name, "HSBC", is not a legal name; a
        # page stating the one as the other's former name is a rename: Panasonic Holdings)
        ev.against.append(f"a holding company and a company of its name ({a.name} / {b.name})")
    wa, wb = set(a.clean.split()), set(b.clean.split())
    group, unit = (wa ^ wb) & _GROUP_WORDS, (wa ^ wb) & _UNIT_WORDS
    one_each = len(wa ^ wb) == 2 and len(group) == len(unit) == 1 and (group <= wa) != (unit <= wa)
    if one_each and wa & wb and not renamed:
        ev.against.append(f"a group and its {min(unit)} ({a.name} / {b.name})")


_LIMITED = frozenset({"plc", "limited"})


def _forms_apart(a: Record, b: Record) -> str | None:
    """Two legal forms on two domains that tell two companies of one name apart, or None. A public
    limited company is a limited company re-registered (Renata Limited, Renata PLC); one name the
    other's leading words and more ("SAD Prešov, a.s." / "SAD Prešov SK, s.r.o."): a legal form of
    a civil-law code apart tells two companies of the name apart as it does two of one name;
    English forms say less (Brookfield Asset Management Inc. renamed Brookfield Corporation; "Co-op"
    is read as a form). A Chinese company's joint-stock form and a limited one's are the listed arm
    and its parent (script_forms.cjk_forms: 东风汽车集团股份有限公司 / 东风汽车集团有限公司)."""
    fa, fb = (_forms(r) | cjk_forms(r.name or "") for r in (a, b))
    if not (fa and fb) or fa & fb or fa | fb <= _LIMITED or a.domain == b.domain:
        return None
    if not _one_name_or_more(a, b, fa | fb):
        return None
    return f"different legal forms ({' '.join(sorted(fa))} / {' '.join(sorted(fb))})"


def _differences(a: Record, b: Record, ev: Evidence) -> None:
    """Legal forms across domains, countries, a holding company and another company of its name
    (`_holdings`), a sports club and a company of its name, a name naming its city and a record
    in another, and names too far apart for records with fields."""
    _holdings(a, b, ev)
    if said := _forms_apart(a, b):
        ev.against.append(said)
    if known(a.country) and known(b.country) and a.country != b.country:  # unknown is no evidence
        ev.against.append(f"different countries ({a.country} / {b.country})")
    if a.industry and b.industry and _sporting(a) != _sporting(b):  # Kagera Sugar and its works team
        ev.against.append(f"a sports club and a company of its name ({a.industry} / {b.industry})")
    if said := _cities_apart(a, b):
        ev.against.append(said)
    if not ((a.facts or b.facts) and a.clean and b.clean and a.clean != b.clean):
        return
    from rapidfuzz import fuzz

    similarity = fuzz.token_set_ratio(a.clean, b.clean)
    if similarity >= 70:
        ev.for_.append((1.0, f"similar names ({similarity:.0f}%)"))
    else:
        ev.against.append(f"different names ({a.clean} / {b.clean})")


# An industry a sports club or team states: a company's works team bears its name (Kagera Sugar
# F.C., Bayer 04 Leverkusen), in another trade than the company's.
_SPORTS = frozenset(
    "sport sports club team league football soccer futbol basketball hockey rugby cricket baseball "
    "volleyball handball".split()
)


def _sporting(r: Record) -> bool:
    return bool(_SPORTS & set(r.industry.split()))


def _city(r: Record) -> str:
    """The city a record's location names before its country ("kaluga" of "kaluga, russia")."""
    city, comma, _ = r.location.partition(",")
    return city.strip() if comma and len(city.strip()) >= 4 else ""


def _cities_apart(a: Record, b: Record) -> str | None:
    """One record's name, or its article title's words in brackets, names the city it is in
    ("Калужский «Кристалл»", Kaluga's; "ОАО «Кристалл» (Калуга)"), and the other is in another
    city: the plants of one brand in two cities are two companies. A city one name carries is
    read by its first four letters, as an adjective of it writes them (Калужский, Kaluga)."""
    for x, y in ((a, b), (b, a)):
        here, there = _city(x), _city(y)
        if not here or not there or here[:4] == there[:4]:
            continue
        named = words(f"{x.name or ''} {x.qualified[1]}")
        if any(w[:4] == here[:4] for w in named) and not any(w[:4] == there[:4] for w in words(y.name or "")):
            return f"{x.name} names its city, {x.location_written}; {y.name} is in {y.location_written}"
    return None


def _one_name_or_more(a: Record, b: Record, forms: frozenset[str]) -> bool:
    """One core name, or one extending the other where none of the two records' legal `forms` is an
    English one: asked only of two records whose forms differ (names_agree is no cheap call to make
    of every pair)."""
    if a.core == b.core:
        return True
    return not forms & ENGLISH_FORMS and names_agree(a.core, b.core) == "one name extends the other"


def _company(a: Record, b: Record, ev: Evidence) -> None:
    _stated(a, b, ev)
    said = listing(a.site)
    if said and said == listing(b.site) and not (a.site and b.site and a.site.same_page(b.site)):
        # one stock's quote pages on two sites (listings.py): one listed company
        ev.for_.append((6.0, f"both pages quote one listing, {said}"))
    for quote, other in ((a, b), (b, a)):
        if (code := listing(quote.site)) and code in other.listed and not listing(other.site):
            # a company's own page naming its ticker ("石药集团有限公司（1093.HK）") and that ticker's quote page
            ev.for_.append((5.0, f"{other.name} names the listing {code} that {quote.name}'s page quotes"))
    if a.domain and b.domain:
        (_one_site if a.domain == b.domain else _two_sites)(a, b, ev)
    else:
        _no_site(a, b, ev)
    _differences(a, b, ev)


def _site_conflict(
    a: Record, b: Record, ev: Evidence, linked: Callable[[str, str], bool], voices: Sequence[set[str]]
) -> str | None:
    if a.domain and b.domain and a.domain != b.domain and not linked(a.domain, b.domain):
        # two names one record gives itself ("Mercedes-Benz Group AG, formerly Daimler AG"): a
        # company's current and former sites; one name on two domains is a brand (Woolworths)
        if a.clean == b.clean or not _voiced(a, b, voices):
            return f"different registered domains ({a.domain} / {b.domain})"
    if bool(a.domain) == bool(b.domain) or not (a.clean and b.clean) or a.raw_name == b.raw_name:
        return None
    if ev.joins or names_agree(a.clean, b.clean) or _voiced(a, b, voices) or _heard_alike(a, b):
        return None
    if is_cjk(a.name or "") != is_cjk(b.name or ""):
        # a name in Chinese characters, kana or Hangul is most often no spelling of the other's but
        # a translation or characters chosen for their sound (超豐電子, Greatek Electronics): that
        # the two differ says nothing; an alphabet's reading does (alphabets, heard_words)
        return None
    return "one item has no site and the names differ"


def _heard_alike(a: Record, b: Record) -> bool:
    """One name in a Cyrillic, Greek, Armenian or Georgian alphabet and one in Latin letters that
    agree spelled as their sounds go (alphabets.sounded: ПАО «Акрон», "akron", is Acron Group's)."""
    one_alphabet = bool(ALPHABETS.search(a.name or "")) != bool(ALPHABETS.search(b.name or ""))
    one_latin = is_latin(a.name or "") or is_latin(b.name or "")
    return one_alphabet and one_latin and bool(names_agree(sounded(a.clean), sounded(b.clean)))


def _voiced(a: Record, b: Record, voices: Sequence[set[str]]) -> bool:
    """One record gives itself both names: `a`'s and `b`'s, each as written, in another script as
    read ("パナソニック ホールディングス" is the "Panasonic Holdings" a page says it is now), or as
    its own site's label, a name's words run together too (asyadshipping.om, "Asyad Shipping")."""
    return any(_voices(a, v) and _voices(b, v) for v in voices)


def _voices(r: Record, names: set[str]) -> bool:
    # a page on the site of a stated name is under that name (宁德时代 at catl.com, "CATL" stated),
    # and a name that is one of them written otherwise ("Deutsche Boerse" beside "Deutsche Börse"),
    # not shortened by syllables: Syriatel is no name Syrian Telecom gives itself
    label = r.site.label.replace("-", "") if r.domain and r.site else ""
    if r.clean in names or (label and any(label in (n, n.replace(" ", "")) for n in names)):
        return True
    if any(_one_voice(r.clean, n) or adds_a_designator(r.clean, n) for n in names if n):
        return True
    if any(families.country_after(r, n) for n in names if n):  # "FoodCorp Chile S.A." beside "FoodCorp"
        return True
    if not r.name or is_latin(r.name):
        return False
    return any(_reads_as(r.name, r.clean, n) for n in names if n)


def _one_voice(clean: str, name: str) -> bool:
    """`clean` is `name` written otherwise (names.ONE_NAME), not a shortening of it by syllables."""
    agree = names_agree(clean, name)
    return agree in ONE_NAME and agree != SYLLABLES


@lru_cache(maxsize=65536)
def _reads_as(written: str, clean: str, name: str) -> bool:
    """`written` (in another script, `clean` its reading) is `name` read aloud (glossary.agrees);
    cached: a merge asks it of every pair of two groups' records."""
    return bool(reading_agrees(written, clean, name, name))


def conflict(
    a: Record,
    b: Record,
    linked: Callable[[str, str], bool],
    ev: Evidence | None = None,
    voices: Sequence[set[str]] = (),
    group: Sequence[Record] = (),
) -> str | None:
    """What forbids `a` and `b` in one entity, whatever links them; None when nothing does.

    `linked(d1, d2)` says whether accepted evidence already tied two registered domains together;
    `voices` are the names each record of the two groups being joined gives itself (its own and its
    aliases): two names one record gives are one entity's, so they differing forbids nothing;
    `group` are the records of both groups: two people's different employers forbid nothing when
    one of them names both (person_evidence.career)."""
    ev = ev or compare(a, b)
    if ev.against and not (group and _a_career(a, b, ev, group)):
        return ev.against[0]
    if a.kind == "person" or b.kind == "person" or a.profiles & b.profiles:
        return person_conflict(a, b, ev.joins)
    return _site_conflict(a, b, ev, linked, voices)


def _a_career(a: Record, b: Record, ev: Evidence, group: Sequence[Record]) -> bool:
    """All that is against two people is a new employer, and a record of theirs tells the career."""
    return all(r.startswith(NEW_EMPLOYER) for r in ev.against) and career(a, b, group)
