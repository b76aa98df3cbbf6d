"""What resolution reads of one item: a `Record` (name, site, profiles, what its text states).

A record is built from a Websets item (properties, enrichments, evaluations: an Agent row comes
in the same shape, `rows.as_item`), or directly (the public benchmarks map their rows onto it).
What the item's own text states is read as evidence and kept with the words that said it:
- **other names**: "formerly X", "also known as X", "rebranded from X", "X (ABC)", "X, now Y",
  "changed its name from X", "Y, formerly X" on a page under X's name, and the same in Spanish,
  Portuguese, French, German and Italian ("anteriormente X", "muda de nome para Y") (a company's
  name may hold "and", "of": cues.ORG_NAME);
- **other sites**: "also at other.com", "formerly at ...", "redirects from ...";
- **owners**: "a subsidiary of X" (or "under X"), "part of X", "a (core) member of X", "owned by X", "a unit of X" (a parent is another
  entity: it is evidence *against* joining the two, and of one owner for two regional sites); and
  what it owns: "the parent of X", "owner of X" (against too);
- **what it is not**: "not to be confused with X", "unrelated to X", "Xとは無関係" (unrelated.py;
  against joining it with X);
- profile URLs on shared hosts anywhere in its properties or answers (hosts.HOSTS).
Never from a list of names kept here. The phrases themselves are cues.py's.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from exa_orch.workflows.entities import (
    about,
    articles,
    asides,
    births,
    cues,
    listings,
    own_names,
    roles,
    unrelated,
)
from exa_orch.workflows.entities.countries import country_of, known, shared_name_country, stated_country
from exa_orch.workflows.entities.names import (
    ONE_NAME,
    acronym,
    clean_name,
    core_name,
    fold,
    is_latin,
    legal_forms,
    names_agree,
    words,
    written_name,
)
from exa_orch.workflows.entities.people import person_key
from exa_orch.workflows.entities.script_forms import cjk_forms
from exa_orch.workflows.entities.sites import URL_IN_TEXT, Site, page_site, site

Json = dict[str, Any]

_IMAGES = frozenset({"logoUrl", "pictureUrl", "faviconUrl", "image", "imageUrl"})
_DOMAIN = re.compile(r"(?:https?://)?(?:[a-z0-9-]+\.)+[a-z]{2,}\b", re.I)


@dataclass
class Record:
    """What resolution reads of one item."""

    index: int
    id: str
    kind: str | None
    name: str | None
    clean: str = ""  # cleaned name ("" when none)
    core: str = ""
    initials: str = ""
    site: Site | None = None
    profiles: frozenset[str] = frozenset()
    aliases: dict[str, str] = field(default_factory=dict)  # cleaned other name -> the words that said it
    alias_forms: dict[str, frozenset[str]] = field(default_factory=dict)  # alias -> its legal forms
    alias_domains: dict[str, str] = field(default_factory=dict)  # other registered domain -> words
    owners: dict[str, str] = field(default_factory=dict)  # cleaned owner name -> the words that said it
    # what the text says the record is not ("unrelated to X"): the clause naming X -> its sentence
    unrelated: dict[str, str] = field(default_factory=dict)
    owned: dict[str, str] = field(default_factory=dict)  # a company it says it owns -> the words
    subjects: dict[str, str] = field(default_factory=dict)  # another name a text begins with -> its words
    employer: str = ""  # a person's employer, cleaned ("" when unknown)
    employer_latin: bool = True  # written in Latin letters (one in another script is compared by its reading)
    employer_written: str = ""  # the employer as written (ソフトバンクグループ), before cleaning
    industry: str = ""
    location: str = ""
    location_written: str = ""  # as the item writes it (京都府京都市), before folding
    country: str = ""  # the country its location or text names (countries.py), else the place as written
    mentions: frozenset[str] = frozenset()  # registered domains named anywhere in the item's text
    listed: frozenset[str] = frozenset()  # listings its page's own words name ("hk:1093": listings.named)
    raw_name: str = ""  # folded full name, legal form kept
    facts: dict[str, str] = field(default_factory=dict)  # other fields to compare: phone, address, year ...
    publisher: str = ""  # a page's company, as it says it is its blog, newsroom or app (about.py)
    topics: frozenset[str] = frozenset()  # words its texts say it (or the person) does (about.topics)
    said: str = ""  # a person's item text, folded words (person_evidence: an employer it names)
    # organisations a person's text says they founded or lead; of those, what it says they founded,
    # and what it says a relative of theirs founded (roles.py)
    founded: frozenset[str] = frozenset()
    founder_of: frozenset[str] = frozenset()
    kin_founded: frozenset[str] = frozenset()
    titled: str = ""  # a Wikipedia article's title, cleaned: the name of whom the page is (articles.title_of)
    article: str = ""  # that title when it tells no namesakes apart ("Neymar"; not "Li Na (singer)")
    qualified: tuple[str, str] = ("", "")  # one that does: ("Li Na", "singer")
    fuller: str = ""  # a person's name as a wiki article's title writes it in full (articles.title_of)
    born: str = ""  # the year a person's page says they were born (births.py)
    title_written: str = ""  # a person's title as the item writes it (总裁), before folding
    holding: bool = False  # its text says it is a holding company ("is a holding company")
    written_forms: frozenset[str] = frozenset()  # legal forms its text writes after its name (asides)
    renaming: bool = False  # its text says its company takes another name ("will change its name to")
    name_taken: bool = False  # its text says its company took its name anew ("took the BWXT name")

    @property
    def domain(self) -> str:
        """The registered domain of the item's own site ("" for none or a platform)."""
        return self.site.domain if self.site and not self.site.platform else ""


def make(
    index: int, id: str, kind: str | None, name: str | None, *, url: str | None = None, **more: Any
) -> Record:
    """A record from its fields (what the public benchmarks and tests build): names cleaned here."""
    clean = (person_key(name) if kind == "person" else clean_name(name)) if name else ""
    company_clean = clean_name(name) if name else ""
    location = str(more.pop("location", "") or "")
    return Record(
        index=index, id=id, kind=kind, name=name, clean=clean,
        core=core_name(company_clean) if company_clean else "",
        initials=acronym(company_clean) if company_clean and kind != "person" else "",
        site=page_site(url, name, company=kind != "person") if url else None, location=fold(location), location_written=location,
        country=country_of(location),
        raw_name=" ".join(words(written_name(name))) if name else "", **more,
    )  # fmt: skip


def strings(value: Any) -> Iterable[str]:
    """Every string inside a JSON value."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from strings(v)


def _name_of(props: Json) -> str | None:
    for kind in ("company", "person", "article", "researchPaper", "custom"):
        sub = props.get(kind)
        if isinstance(sub, dict):
            for key in ("name", "title"):
                value = sub.get(key)
                if isinstance(value, str) and value.strip():
                    return value.strip()
    return None


def _texts(item: Json, props: Json) -> list[str]:
    """What the item says in prose: the page's own (`_prose`), enrichment answers, agent reasoning."""
    texts = _prose(props)
    for key in ("enrichments", "evaluations"):
        for e in item.get(key) or []:
            if isinstance(e, dict):
                texts.extend(strings(e.get("result")))
                if isinstance(e.get("reasoning"), str):
                    texts.append(e["reasoning"])
    return texts


def _prose(props: Json) -> list[str]:
    """What the page itself says: its description, content and about, no answer or reasoning."""
    texts = [props[k] for k in ("description", "content") if isinstance(props.get(k), str)]
    return texts + [
        s["about"] for s in (_sub(props, "company"), _sub(props, "person")) if isinstance(s.get("about"), str)
    ]


def _trim(text: str) -> str:
    # "formerly Kreditor and later Klarna" -> "Kreditor"; a sentence's next word is not a name
    return re.split(r"\s+(?:and|in|since|until|before|after|which|who|is|was|,)\s+", text.strip())[0]


# Where a page says the entity is: read when no structured location came with the item (Agent rows).
_BASED_IN = re.compile(r"\b(?:based|headquartered|located)\s+in\s+([A-Z][^.;()]{1,80}?)(?:\.\s|\.$|;|\(|$)")
# A person's current role and employer as a page states them ("Jane Doe is Head of Payments at
# Deutsche Bank.", or after the person's own name "Jane Doe, Head of Payments at Deutsche Bank."),
# read when the item has no structured ones (Agent rows); "was ... at" is a former one: not read.
_ROLE = r"(?:an?\s+|the\s+)?([^.;]{1,80}?)\s+at\s+([^.;]{1,80})"
_IS_ROLE_AT = re.compile(r"\bis\s+" + _ROLE)
# A profile's headline, the text opening with the role ("President and CEO at Amazon. Seattle, ..."),
# and "is [the] chief executive officer of Intel": a title word before "of" (not "a member of").
_HEADLINE = re.compile(r"([A-Z][\w&,/' -]{1,60}?)\s+at\s+([A-Z][^.;]{1,80})")
_VERBS = frozenset("was is were has had became served joined left worked".split())  # not a headline
_TITLE = r"(?:officer|ceo|cfo|cto|coo|chair|chairman|chairwoman|chairperson|president|founder|director)"
_IS_ROLE_OF = re.compile(
    r"\bis\s+(?:the\s+)?((?:[\w-]+\s+){0,4}?" + _TITLE + r")\s+of\s+([A-Z][^.;]{1,80})", re.I
)
# The name a text begins with, its subject: capitalised words (and "and", "of", "&") up to a comma
# or a verb; kept apart from aliases, it is read only against a page on the same site.
_SUBJECT = re.compile(
    r"((?:The\s+)?[A-Z][\w&.'’\-]*(?:\s+(?:and|of|&|[A-Z][\w&.'’\-]*)){1,9})(?=,|\s+(?:is|was|are)\b)"
)
_BOUNDARY = re.compile(r"[.!?]\s+(?=[A-Z\"“])")  # "Inc. (formerly" does not end a sentence


# What a page writes where an employer goes when there is none: never one employer two people share.
_NO_EMPLOYER = frozenset(
    {
        "independent",
        "self employed",
        "freelance",
        "freelancer",
        "retired",
        "none",
        "unemployed",
        "n a",
        "unknown",
    }
)


def _employer(written: str) -> str:
    """`written` as an employer, or "" where it says there is none ("Independent", "Self-employed")."""
    return "" if " ".join(words(written)) in _NO_EMPLOYER else written


def _sentence(text: str, at: int) -> str:
    """The sentence of `text` around position `at` (the words kept as a reason), at most 240 characters."""
    starts = [m.end() for m in _BOUNDARY.finditer(text, 0, at)]
    end = _BOUNDARY.search(text, at)
    return text[starts[-1] if starts else 0 : end.start() + 1 if end else len(text)].strip()[:240]


def _alias(rec: Record, written: str, said: str, person: bool) -> None:
    """`written` is another name of the record (`said` the sentence that says so)."""
    alias = person_key(written) if person else clean_name(written)
    if alias and alias != rec.clean:
        rec.aliases.setdefault(alias, said)
        rec.alias_forms[alias] = cjk_forms(written) or legal_forms(" ".join(words(written)), alias)


def _company_names(rec: Record, text: str) -> None:
    """A company's other names only prose about companies gives: "Kraft Foods, now Mondelez", and
    the name a text begins with ("The Hongkong and Shanghai Banking Corporation Limited, ...")."""
    for m in asides.NOW.finditer(text):
        before, after = m.group(1), m.group(2)
        if names_agree(clean_name(after), rec.clean):
            _alias(rec, before, _sentence(text, m.start()), False)
        elif names_agree(clean_name(before), rec.clean):
            _alias(rec, after, _sentence(text, m.start()), False)
    # the other way round from _other_names ("formerly X" after the record's own name)
    for m in asides.FORMERLY.finditer(text):
        if clean_name(m.group(2)) == rec.clean:
            _alias(rec, m.group(1), _sentence(text, m.start()), False)
    subject = _SUBJECT.match(text)
    # "Reliance Industries, the parent of Jio Platforms": a text naming the record after it is not about it
    if subject and rec.name and rec.name not in text[subject.end() :]:
        named = clean_name(subject.group(1))
        if named and named != rec.clean and len(named.split()) >= 2:
            rec.subjects.setdefault(named, _sentence(text, 0))


# A clause about the company a record came from ("split off from X, which ..."), up to the cue in
# the same sentence: what it says another name is, is X's.
_CLAUSE_FROM = re.compile(r"\bfrom\s+[^,.;]*,\s+which\b[^.;]*\Z")


def _other_names(rec: Record, text: str, person: bool) -> None:
    """ "formerly X", "also known as X" ... and "Name (X)": other names `text` gives the record."""
    for cue in cues.ALIAS_CUES if person else cues.ORG_ALIAS_CUES:
        for m in cue.finditer(text):
            if _CLAUSE_FROM.search(text, 0, m.start()):
                continue  # another company's name: "split off from Kazakhmys PLC, which renamed itself KAZ Minerals"
            said = next(g for g in m.groups() if g)  # a name, or a handle in lower case ("alias geohot")
            _alias(rec, _trim(said) if person else said.strip(), _sentence(text, m.start()), person)
    if not person:
        _company_names(rec, text)
    for other, at in asides.former_names(text, company=not person):
        _alias(rec, other, _sentence(text, at), person)
    if not rec.name:
        return
    # "International Business Machines (IBM)", "Robin Li (李彦宏)", "贝莱德（英语：BlackRock, Inc.）":
    # a name the page gives (asides.py), and the kana reading a Japanese page gives after a name in
    # kanji ("柳井 正（やない ただし、1949年 - ）": yanai tadashi)
    for other, at in asides.asides(text, rec.name):
        alias = person_key(other) if person else clean_name(other)
        if alias and alias != rec.clean:
            rec.aliases.setdefault(alias, _sentence(text, at))
            if not person and (forms := cjk_forms(other)):
                rec.alias_forms.setdefault(alias, forms)


# Legal forms Baltic, Nordic and Russian names open with, which clean_name keeps (AS Roma, AB Foods):
# a child a parent names is read without them
_OPENING_FORMS = frozenset("as ab uab sia oao zao pao ooo".split())


def _unopened(name: str) -> str:
    """A cleaned name without a legal form of `_OPENING_FORMS` before it ("ab volvo" -> "volvo")."""
    first, _, rest = name.partition(" ")
    return rest if first in _OPENING_FORMS and rest else name


def _children(rec: Record, text: str) -> None:
    """The companies `text` says the record owns or spun off (cues.CHILD_CUES, cues.cjk_children)."""
    named = [
        (part, m.start())
        for cue in cues.CHILD_CUES
        for m in cue.finditer(text)
        for part in re.split(r",\s*|\s+and\s+|\s*&\s*", m.group(1).strip())
    ]
    for part, at in [*named, *cues.cjk_children(text)]:
        child = _unopened(clean_name(part) if part else "")  # "the parent company of AS LHV Pank"
        # "AB Volvo, the parent company of the Volvo Group": the group it heads is its own; not
        # "LHV Group, the parent company of LHV Pank": a name adding a word of its own is another's
        agree = names_agree(core_name(child), _unopened(rec.core)) if child else None
        if child and child != rec.clean and not (agree in ONE_NAME or agree and core_name(child) != child):
            rec.owned.setdefault(child, _sentence(text, at))


def _owners_and_sites(rec: Record, text: str, person: bool) -> None:
    """Owners ("a subsidiary of X") and other sites ("also at other.com") `text` states."""
    for cue in () if person else cues.OWNER_CUES:
        for m in cue.finditer(text):
            owner = clean_name(m.group(1).strip())
            if owner and owner != rec.clean:
                rec.owners.setdefault(owner, _sentence(text, m.start()))
    if not person:
        _children(rec, text)
    for m in cues.DOMAIN_CUE.finditer(text):
        other = site(m.group(1).rstrip("."))
        if other and other.domain and not other.platform:
            rec.alias_domains.setdefault(other.domain, _sentence(text, m.start()))
        elif other and other.profile:
            rec.profiles = rec.profiles | {other.profile}


def _name_aside(rec: Record) -> list[str]:
    """The bracket after a company's name ("Avolta AG (formerly Dufry AG)"), which its cleaned
    name leaves out (names.clean_name): read as its text is."""
    name = rec.name or ""
    return [name[name.rfind("(") :]] if rec.kind != "person" and name.endswith(")") else []


def _own_names(rec: Record, url: str, texts: list[str], person: bool) -> None:
    """Names the record's own name writes as two (own_names.py), and a listing page's company."""
    name = rec.name or ""
    parts = own_names.two_scripts(name)
    if not person:
        parts += own_names.bracketed(name) + own_names.quoted(name) + own_names.listed(name, url, texts)
    for part, said in parts:
        _alias(rec, part, said, person)


def _statements(rec: Record, texts: list[str], person: bool) -> None:
    """Other names, other sites and owners `texts` state about the record, each with its words."""
    for text in texts:
        _other_names(rec, text, person)
        _owners_and_sites(rec, text, person)
        for clause, at in unrelated.clauses(text):
            rec.unrelated.setdefault(clause, _sentence(text, at))
        rec.renaming = rec.renaming or (not person and bool(cues.RENAMING.search(text)))
        rec.name_taken = rec.name_taken or (not person and bool(cues.NAME_TAKEN.search(text)))


def _sub(props: Json, key: str) -> Json:
    value = props.get(key)
    return value if isinstance(value, dict) else {}


def _str(value: Any) -> str:
    return value.strip() if isinstance(value, str) else ""


def _profiles(rec: Record, props: Json, texts: list[str]) -> frozenset[str]:
    """Profile URLs anywhere in the item's properties and answers; image URLs (a logo, a picture)
    name no profile."""
    shown = {k: v for k, v in props.items() if k not in ("company", "person")}
    for k in ("company", "person"):
        shown[k] = {f: v for f, v in _sub(props, k).items() if f not in _IMAGES}
    found = {
        ps.profile
        for s in [*strings(shown), *texts]
        for m in URL_IN_TEXT.findall(s)
        if (ps := site(m.rstrip(".,:!?")))
    }
    own = {rec.site.profile} if rec.site else set()
    return frozenset(p for p in found | own if p)


def _role_at(rec: Record, texts: list[str]) -> None:
    """A person's title and employer from "X is TITLE at EMPLOYER" (or "X, TITLE at EMPLOYER", a
    headline "TITLE at EMPLOYER. City", "X is [the] CEO of EMPLOYER"), where
    the item's fields gave none; an employer in another script is kept, marked as not comparable."""
    named = (
        re.compile(re.escape(rec.name or "") + r"(?:\s*[(（][^)）]*[)）])?,\s+" + _ROLE) if rec.name else None
    )
    shapes = (_IS_ROLE_AT, named, _HEADLINE, _IS_ROLE_OF) if named else (_IS_ROLE_AT, _HEADLINE, _IS_ROLE_OF)
    m = next(
        (
            m
            for cue in shapes
            for t in texts
            if (m := cue.match(t) if cue in (named, _HEADLINE) else cue.search(t))
            and not (cue is _HEADLINE and _VERBS & set(words(m.group(1))))
        ),
        None,
    )
    if m is None:
        return
    if "title" not in rec.facts:
        rec.facts["title"] = " ".join(words(m.group(1)))
    if not rec.employer:
        written = m.group(2).strip()
        latin = re.match(cues.NAME, written)
        said = _trim(latin.group(1)) if latin else written
        said = _employer(said)
        rec.employer = clean_name(said.rstrip(".")) if said else ""
        rec.employer_latin, rec.employer_written = is_latin(said), said


def _stated_fields(rec: Record, texts: list[str]) -> None:
    """A person's employer and an organisation's country from the text, when no field gave them
    (a location that names no country, "Stuttgart", gives way to what the text says; one several
    countries name, "Kvareli, Georgia", to its site's suffix or its text's script)."""
    if rec.kind == "person":
        _role_at(rec, texts)
    if known(rec.country):
        return
    shared = shared_name_country(rec.location_written, rec.site.suffix if rec.site else "", texts)
    if rec.kind == "person":  # "is a Norwegian chess grandmaster": whose country, not where
        rec.country = next((c for t in texts if (c := stated_country(t))), "") or shared or rec.country
        return
    said = next((m.group(1) for t in texts for m in _BASED_IN.finditer(t)), "")
    where = country_of(said) if said else ""
    # "a Brazilian mining company", "an Amsterdam-headquartered ...": where no location names a country
    stated = "" if known(where) else next((c for t in texts if (c := stated_country(t))), "")
    rec.country = where if known(where) else stated or shared or rec.country or where


def _person_reads(rec: Record, props: Json, texts: list[str]) -> None:
    """What a person's texts say beside their fields: their words, what they founded or lead
    (roles.py), their trade and their birth year."""
    rec.said = " ".join(words(" ".join(roles.undenied(texts))))[:4000]
    rec.founded = roles.organisations(texts)
    rec.founder_of, rec.kin_founded = roles.founders(texts)
    # a person's trade from the page's own prose only: an evaluation's reasoning says the same
    # words of every item it judges ("The page of Li Na supports this: ...")
    prose = _prose(props)
    rec.topics = about.topics(prose)
    # the prose first, then the name as a page may write it with a life span ("Giovanni Agnelli
    # (1866-1945)", an encyclopedia's heading: the grandfather, not the grandson)
    rec.born = births.born([*prose, rec.name or ""])


def _title(rec: Record, url: str) -> None:
    """What the page's wiki article title says of whom it is (articles.title_of); a person's other
    name, where it differs from the name the item gives, as an alias."""
    said = articles.title_of(rec.kind, rec.name or "", url, bool(rec.site and rec.site.profile), rec.said)
    rec.titled, rec.article, rec.fuller = said.titled, said.article, said.fuller
    rec.qualified = (said.written, said.aside) if said.aside and not said.article else ("", "")
    if rec.kind == "person" and rec.titled and rec.titled != rec.clean:
        rec.aliases.setdefault(rec.titled, f"the Wikipedia article {said.written!r}")


def record(index: int, item: Json) -> Record:
    """Read `item` (a Websets item, properties and enrichments) into a Record."""
    props = _sub(item, "properties")
    kind = _str(props.get("type")) or None
    company, person = _sub(props, "company"), _sub(props, "person")
    employer = _employer(_str(_sub(person, "company").get("name")))
    rec = make(
        index, str(item.get("id") or index), kind, _name_of(props), url=_str(props.get("url")) or None,
        location=str(company.get("location") or person.get("location") or ""),
        industry=fold(str(company.get("industry") or "")),
        employer=clean_name(employer) if employer else "", employer_latin=is_latin(employer),
        employer_written=employer,
    )  # fmt: skip
    if _str(person.get("position")):
        rec.facts["title"] = " ".join(words(person["position"]))
        rec.title_written = _str(person["position"])
    texts = _texts(item, props)
    rec.profiles = _profiles(rec, props, texts)
    _statements(rec, [*texts, *_name_aside(rec)], kind == "person")
    _own_names(rec, _str(props.get("url")), texts, kind == "person")
    _stated_fields(rec, texts)
    if kind == "person":
        _person_reads(rec, props, texts)
    else:
        rec.topics = about.topics(texts)
        rec.publisher = about.publisher(texts)
        rec.holding = any(cues.HOLDING.search(t) for t in texts)
        rec.written_forms = asides.written_forms(texts, rec.name or "")
        rec.listed = listings.named(_prose(props), rec.name or "")
    _title(rec, _str(props.get("url")))
    rec.alias_domains.pop(rec.domain, None)
    rec.mentions = frozenset(
        d.domain for s in texts for m in _DOMAIN.findall(s) if (d := site(m)) and d.domain
    )
    return rec
