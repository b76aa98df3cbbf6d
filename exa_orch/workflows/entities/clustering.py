"""Records grouped into entities: candidate pairs, evidence, then merges strongest first.

Candidates are pairs that share a blocking key (a profile, a registered domain or its label, a
name, an alias, an initialism, a family name, a field value; a person's employer or a company's
trade in its country, for a name in another script beside each Latin name). Each pair is weighed
(evidence.compare); pairs whose evidence joins them are taken strongest first, and two groups merge
only if no pair across them has evidence against (complete linkage, so one weak link can never chain
two entities together). Pairs with some evidence for that stayed apart are reported with why.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from exa_orch.workflows.entities import families, glossary, heard_words, profile_keys, provinces, short_names
from exa_orch.workflows.entities.alphabets import cyrillic_initials
from exa_orch.workflows.entities.countries import known, named_last
from exa_orch.workflows.entities.evidence import FACT_WEIGHTS, Evidence, compare, conflict
from exa_orch.workflows.entities.listings import listing, ticker_named
from exa_orch.workflows.entities.names import (
    DESIGNATORS,
    acronym,
    core_name,
    fold,
    in_english,
    is_latin,
    names_agree,
    words,
)
from exa_orch.workflows.entities.people import name_evidence, parse
from exa_orch.workflows.entities.person_keys import block_keys as person_keys
from exa_orch.workflows.entities.read_names import read_in_part
from exa_orch.workflows.entities.records import Record, record
from exa_orch.workflows.entities.script_forms import without_cjk_forms
from exa_orch.workflows.entities.scripts import (
    consonantal,
    hong_kong_reading,
    is_cjk,
    latin_sound_keys,
    sound_key,
)
from exa_orch.workflows.entities.spelled import spelled_readings
from exa_orch.workflows.entities.word_tables import CYRILLIC_LETTERS

Json = dict[str, Any]
_GROUP_SUFFIXES = ("group", "corp", "global", "holdings", "inc", "hq")


@dataclass
class Resolution:
    """Items grouped into entities: `groups[k]` are item indices (first-seen order), `reasons[k]`
    the merges that made group k, each {items: [id, id], reason}; `apart` the pairs with some
    evidence for that were kept apart, each {items: [id, id], reason: why}."""

    groups: list[list[int]]
    reasons: list[list[Json]] = field(default_factory=list)
    apart: list[Json] = field(default_factory=list)

    def group_of(self) -> dict[int, int]:
        """item index -> its group's index."""
        return {i: k for k, members in enumerate(self.groups) for i in members}


def _site_keys(r: Record) -> set[str]:
    if not (r.domain and r.site):
        return set()
    label = r.site.label
    own = {f"d:{r.domain}", f"l:{label}"}
    own.update(
        f"l:{label.removesuffix(w)}" for w in _GROUP_SUFFIXES if label.endswith(w) and len(label) > len(w) + 1
    )
    return own


def _keys(r: Record) -> set[str]:
    own = {f"p:{p}" for p in r.profiles} | _site_keys(r) | person_keys(r) | _single_name_keys(r)
    own |= _employer_keys(r)
    if r.kind != "person":
        own |= families.blocking_keys(r) | profile_keys.blocking_keys(r) | _part_keys(r)
    if r.clean:
        # and run together, the core too ("CooperCompanies" / "The Cooper Companies, Inc.")
        own.update(
            {f"n:{r.clean}", f"n:{r.core}", f"n:{r.clean.replace(' ', '')}", f"n:{r.core.replace(' ', '')}"}
        )
        if len(r.clean.split()) >= 2:  # its words in English, as names_agree reads them ("Pivovar X")
            own.add(f"e:{' '.join(in_english(r.clean.split()))}")
    # and a Cyrillic name's, its letters spelled as its initialism's are (ЧЦЗ, "chtsz")
    own.update(f"n:{i}" for i in (r.initials, r.kind != "person" and cyrillic_initials(r.name or "")) if i)
    own.update(f"n:{n}" for a in r.aliases for n in (a, core_name(a)))
    # a stated name's initials (evidence._names_other: "became Canadian Pacific Kansas City" / CPKC)
    own.update(f"n:{acronym(a)}" for a in r.aliases if len(a.split()) >= 3 and r.kind != "person")
    own.update(f"d:{d}" for d in r.alias_domains)
    # a stock's quote pages and the pages that name its ticker (listings.py)
    own.update(f"$:{x}" for x in {*r.listed, listing(r.site)} if x)
    # only fields that identify block: a state or a postcode is shared by thousands
    own.update(f"x:{k}:{v}" for k, v in r.facts.items() if v and FACT_WEIGHTS.get(k, 0.0) >= 3.0)
    return own | _reading_keys(r) | _ticker_keys(r)


def _ticker_keys(r: Record) -> set[str]:
    """A listing's page named by its ticker alone ("AGHOL", "TCHONG") or quoting a ticker of letters
    (VPB:VN), and each site whose label opens with the ticker's letter: `_one_sided` pairs the
    ticker's page with each such site, the pairs profiles._by_ticker weighs (the ticker opens the
    label or writes its letters in order)."""
    if ticker := _ticker(r):
        return {f"T:{ticker[:1]}"}
    site = r.site
    return (
        {f"T:{site.label[:1]}"} if r.kind != "person" and r.domain and site and not site.platform else set()
    )


def _ticker(r: Record) -> str:
    """The ticker a listing's page is named by or quotes ("aghol"; "vpb" at VPB:VN), "" for others."""
    if r.kind != "person" and r.name and (ticker := ticker_named(r.name, r.site)):
        return ticker
    code = listing(r.site).partition(":")[2]
    return code if code[:1].isalpha() else ""


# An employer or a trade shared by more records than this is too common to pair every name in
# another script with every Latin one by: a block of thousands would weigh millions of pairs
_MOST_BESIDE = 60


def _employer_keys(r: Record) -> set[str]:
    """A person's employer, when it is written in Latin letters, and a company's trade in its
    country: `_one_sided` pairs a name in another script with each Latin name of one employer or
    trade, the pairs no reading's key finds (a reading is a guess; two pages of one person at one
    employer, of one company in one trade, are the common case)."""
    if r.kind == "person":
        return {f"w:{r.employer}"} if r.employer and r.employer_latin else set()
    return {f"w:{r.industry}:{r.country}"} if r.industry and known(r.country) else set()


def _single_name_keys(r: Record) -> set[str]:
    """A person named by one word ("Neymar", "Rodri") and each name of several words holding it
    first or last: `_blocks` pairs the one-word name with each of them, never two longer names."""
    if r.kind != "person" or not r.name or not is_latin(r.name):
        return set()
    return {f"m:{w}" for x in parse(r.name) for w in (x.given[:1] or (x.family,))}


def _single(name: str) -> bool:
    """A person's name read as one word ("Neymar", "Queen Máxima")."""
    return any(not x.given for x in parse(name))


def _part_keys(r: Record) -> set[str]:
    """A company's name, its leading words, and any run of its words of five letters or more: the
    shorter name profiles._leading weighs against it, whichever of a site and a profile is the
    longer ("Mazars" beside "Forvis Mazars", "Gallagher" beside "Arthur J. Gallagher & Co.",
    "Campari" beside "Davide Campari-Milano"). `_blocks` keeps such a block only where it pairs a
    profile with a site: two sites of one first word (Orion Confectionery, Orion Energy) are not
    paired by it."""
    core = r.core.split()
    if not core or not (r.domain or (r.site and r.site.platform)):
        return set()
    own = {f"q:{' '.join(core[:k])}" for k in range(1, len(core) + 1) if len(core[0]) >= 3}
    runs = (" ".join(core[i:j]) for i in range(1, len(core)) for j in range(i + 1, len(core) + 1))
    own |= {f"q:{run}" for run in runs if len(run) >= 5}
    if r.domain:
        return own
    # a profile's stated names lead a site's too (profiles._stated_leading): "Largan Precision"
    # its leading words, a reading written as one word ("kawaigakkiseisakusho") its starts
    for alias in (core_name(a).split() for a in r.aliases):
        own.update(f"q:{' '.join(alias[:k])}" for k in range(1, len(alias) + 1) if len(alias[0]) >= 3)
        if len(alias) == 1:
            own.update(f"q:{alias[0][:k]}" for k in range(4, min(len(alias[0]), 10) + 1))
    return own


_LATIN_LEAD = re.compile(r"[A-Za-z]{2,3}(?=[^A-Za-z\s])")
_SMALL_WORDS = frozenset("the de la le el los las les di da do del der die das het van von al".split())


def _reading_keys(r: Record) -> set[str]:
    """A company name in another script keyed by its reading's starts (4 to 10 letters, "ziji" ...
    "zijinkuang", CJK only, l read as r) and its sounds' first four consonants (scripts.sound_key),
    a Latin one by its first word and those of its first word and whole name: the pairs
    read_names.reading_agrees weighs. `_blocks` keeps such a block only where a name in another script is in it."""
    if r.kind == "person" or not r.clean or not r.name:
        return set()
    reading = r.clean.replace(" ", "")
    if not is_latin(r.name):
        sounds = {sound_key(reading, read=True)}
        own = _read_starts(r.name, reading)
        # its letters spelled out, read as letters (spelled.spelled_readings: "oenjisi" / ONGC)
        for spelled in spelled_readings(r.clean):
            sounds |= latin_sound_keys(spelled.replace(" ", ""))
            own.add(f"r:{spelled.split()[0]}")
    else:
        sounds, own = _latin_reading_keys(r.clean, reading)
    if not is_latin(r.name) and (latin := _LATIN_LEAD.match(r.name)):
        own.add(f"r:{latin.group(0).lower()}")  # "CJ제일제당" / "CJ CheilJedang": its initials lead
    # a name in another script translated (glossary.translates): by the words it may be rendered as
    own |= set(glossary.keys(r.name)) if not is_latin(r.name) else glossary.latin_keys(r.clean)
    own |= short_names.short_keys(r.name)  # 陕煤集团 and 陕西煤业化工集团: one short name
    # kept only beside a name in Arabic, Hebrew, Cyrillic or Greek letters (`_kept`)
    own |= heard_words.heard_keys(r.name, r.clean)
    # scripts.sounds_alike: 4 at least; a short name heard whole alike, 3 (glossary.agrees)
    return own | {f"k:{key[:4]}" for key in sounds if len(key) >= 3}


def _latin_reading_keys(clean: str, reading: str) -> tuple[set[str], set[str]]:
    """A Latin company name's sound keys (its first word, its words but designators, and its whole
    name, which another script may write with its designators: 파크시스템스 / Park Systems) and its
    reading keys (its first word; after a Chinese province or city, the word that follows)."""
    named = [w for w in clean.split() if w not in DESIGNATORS] or [reading]
    sounds: set[str] = set().union(*(latin_sound_keys(w) for w in {named[0], "".join(named), reading}))
    first, *rest = clean.split()
    own = {f"r:{first.replace('l', 'r')}"} if 4 <= len(first) <= 10 else set()
    # a Chinese company's name after its province or city (Zhejiang Huayou Cobalt / 华友钴业)
    if rest and 4 <= len(rest[0]) <= 10 and provinces.place_word(first):
        own.add(f"r:{rest[0].replace('l', 'r')}")
    # initials that lead a name ("CJ CheilJedang"), not a small word ("The", "El") every block would hold
    if 2 <= len(first) <= 3 and first.isalpha() and first not in DESIGNATORS | _SMALL_WORDS:
        own.add(f"r:{first}")
    return sounds, own


def _read_starts(written: str, reading: str) -> set[str]:
    """A name in CJK script keyed by its reading's starts, 4 to 10 letters, l read as r (Hangul's ㄹ
    is r or l: 오리온 olion / orion), and by its Cantonese reading's, 3 to 10, as a Latin name's first
    word is ("hang" of Hang Lung: 恒隆, hanglung)."""
    if not is_cjk(written):
        return set()
    rl = reading.replace("l", "r")
    own = {f"r:{rl[:k]}" for k in range(4, min(len(rl), 10) + 1)}
    # 安徽古井贡酒 keyed as 古井贡酒 too: a listing's short name leaves the province out
    bare = provinces.without_province(without_cjk_forms(written).replace(" ", ""))
    if bare:
        own.add(f"r:{fold(bare).replace(' ', '').replace('l', 'r')[:6]}")
    return own | {f"r:{hk[:k]}" for hk in hong_kong_reading(written) for k in range(3, min(len(hk), 10) + 1)}


def _short_forms(records: Sequence[Record]) -> Iterable[list[int]]:
    """A company's one-word Latin or Cyrillic name beside each name opening with its first three letters:
    the pairs a short form shares no other key with (names_agree's "a name shortened by syllables":
    CommBank, Норникель). Pairs, not blocks: of the many names "Chi" opens, the short one's are weighed."""
    by_start: dict[str, list[Record]] = {}
    for r in records:
        if r.kind != "person" and r.name and len(r.clean) >= 4:
            if is_latin(r.name) or CYRILLIC_LETTERS.search(r.name):
                by_start.setdefault(r.clean[:3], []).append(r)
    for group in by_start.values():
        for short in group:
            if " " not in short.clean and len(short.clean) <= 10:
                yield from (
                    [short.index, r.index] for r in group if r.index != short.index and " " in r.clean
                )


def _blocks(records: Sequence[Record]) -> Iterable[list[int]]:
    keys: dict[str, list[int]] = {}
    for r in records:
        for k in _keys(r):
            keys.setdefault(k, []).append(r.index)
    cjk = {r.index for r in records if r.name and not is_latin(r.name)}
    abjad = {r.index for r in records if r.name and consonantal(r.name)}
    heard = abjad | {r.index for r in records if r.name and heard_words.table_of(r.name) is not None}
    yield from _short_forms(records)
    yield from (
        members
        for key, members in keys.items()
        if len(members) > 1 and _kept(key, members, cjk, abjad, heard)
    )
    yield from _one_sided(records, keys)


def _kept(key: str, members: list[int], cjk: set[int], abjad: set[int], heard: set[int]) -> bool:
    """Whether a block of one key pairs all its members: a reading's key only beside a name in
    another script, a person's consonants' key beside a name in a script `skeleton` compares
    (person_keys.block_keys), a company's heard words' key beside a name in Arabic, Hebrew,
    Cyrillic or Greek letters too (heard_words.heard_keys), never a key `_one_sided` reads."""
    if key[:2] in ("q:", "m:", "w:", "T:"):
        return False
    if key[:2] in ("r:", "k:", "t:") and not cjk.intersection(members):
        return False
    if key[:2] == "a:":
        return bool(heard.intersection(members))
    return key[:2] != "s:" or bool(abjad.intersection(members))


def _one_sided(records: Sequence[Record], keys: dict[str, list[int]]) -> Iterable[list[int]]:
    """Blocks read as pairs with one side: a profile with each site (`_part_keys`), never two sites
    or two profiles; a person named by one word with each name it opens (`_single_name_keys`); a
    name in another script with each Latin name of one employer or trade (`_employer_keys`); a
    listing's page named by its ticker with each site (`_ticker_keys`)."""
    sides = {  # a key's prefix -> (the side its blocks pair, the other side only those not of it)
        "q:": ({r.index for r in records if r.site and r.site.platform}, True),
        "w:": ({r.index for r in records if r.name and not is_latin(r.name)}, True),
        "m:": ({r.index for r in records if r.kind == "person" and r.name and _single(r.name)}, False),
        "T:": ({r.index for r in records if _ticker(r)}, True),
    }
    for key, members in keys.items():
        if key[:2] in sides and (key[:2] != "w:" or len(members) <= _MOST_BESIDE):
            side, apart = sides[key[:2]]
            yield from _pairs(members, side, apart=apart)


def _pairs(members: list[int], side: set[int], *, apart: bool) -> list[list[int]]:
    """Each member of `side` with each other member (`apart`: only those not of `side`)."""
    return [[p, m] for p in members if p in side for m in members if m != p and not (apart and m in side)]


def resolve(items: Sequence[Json]) -> Resolution:
    """Group `items` (Websets items, or Agent rows as items) into entities; see the package docstring."""
    return resolve_records(_one_place(record(i, item) for i, item in enumerate(items)))


def _one_place(records: Iterable[Record]) -> list[Record]:
    """`records`, where a location ends in a country's name another country holds as a place too
    ("Kvareli, Georgia": the country or the US state), given that country where another record of
    the run placed so was read as it (its site's suffix, its script, its text: records.py): one
    run's results are of one Georgia."""
    out = list(records)
    placed = [named_last(r.location_written) for r in out]
    read = {
        r.country for r, named in zip(out, placed, strict=True) if known(r.country) and r.country == named
    }
    for r, named in zip(out, placed, strict=True):
        if named in read and not known(r.country):
            r.country = named
    return out


def resolve_records(records: Sequence[Record]) -> Resolution:
    """Group `records` (their `index` is their position) into entities."""
    weighed: dict[tuple[int, int], Evidence] = {}

    def evidence(i: int, j: int) -> Evidence:
        key = (i, j) if i < j else (j, i)
        if key not in weighed:
            weighed[key] = compare(records[key[0]], records[key[1]])
        return weighed[key]

    for members in _blocks(records):
        for x in range(len(members)):
            for y in range(x + 1, len(members)):
                evidence(members[x], members[y])
    # strongest first; of two companies' joins that weigh alike, one of equal names before one of
    # names that merely lead or read alike (GasLog Partners LP's page joins GasLog Partners before
    # GasLog); people of one name are as often namesakes
    edges = sorted(
        ((ev.weight, k) for k, ev in weighed.items() if ev.joins),
        key=lambda e: (-e[0], _named_apart(records[e[1][0]], records[e[1][1]]), e[1]),
    )
    ambiguous = _ambiguous(records, [k for _, k in edges]) | _whole_reading_first(records, edges, weighed)
    merged = _merge(records, [e for e in edges if e[1] not in ambiguous], evidence)
    merged.apart.extend(
        {"items": [records[i].id, records[j].id], "reason": why} for (i, j), why in ambiguous.items()
    )
    where = merged.group_of()
    for (i, j), ev in sorted(weighed.items()):
        if not ev.joins and ev.weight >= 1.0 and where[i] != where[j]:
            merged.apart.append({"items": [records[i].id, records[j].id], "reason": ev.why_apart})
    return merged


def _named_apart(a: Record, b: Record) -> bool:
    """Two companies whose names' cores differ, or two people (`resolve_records`' order of joins)."""
    return a.kind == "person" or a.core != b.core


def _ambiguous(records: Sequence[Record], joined: list[tuple[int, int]]) -> dict[tuple[int, int], str]:
    """The joins of a person's name that two longer names of two people each write whole ("José María
    del Nido" beside "José María del Nido Benavente", the father, and "José María del Nido
    Carrasco", his son, whose names, both in Latin letters, disagree): it could be either, so it
    joins neither (a wrong merge costs more than a missed one). Each with why, as `Resolution.apart` says it."""
    near: dict[int, list[int]] = {}
    for i, j in joined:
        if records[i].kind == "person" and records[j].kind == "person":
            near.setdefault(i, []).append(j)
            near.setdefault(j, []).append(i)
    dropped: dict[tuple[int, int], str] = {}
    for x, others in near.items():
        mine = set(words(records[x].name or ""))
        # in Latin letters both: names in two scripts that disagree may be one name read two ways
        longer = [
            o for o in others if mine < set(words(records[o].name or "")) and is_latin(records[o].name or "")
        ]
        for a, b in itertools.combinations(sorted(longer), 2):
            if name_evidence(records[a].name or "", records[b].name or "")[0] >= 4.0:
                continue
            why = f"kept apart: {records[x].name} could be {records[a].name} or {records[b].name}, two people"
            for y in (a, b):
                dropped[(min(x, y), max(x, y))] = why
    return dropped


def _whole_reading_first(
    records: Sequence[Record],
    edges: list[tuple[float, tuple[int, int]]],
    weighed: dict[tuple[int, int], Evidence],
) -> dict[tuple[int, int], str]:
    """The joins of a company's name in another script to a Latin name by its reading's start only
    (read_names.read_in_part: كورسيكا لينيا "begins with the sounds of corsica", Corsica Ferries)
    where its whole reading, or translation, joins another Latin name of the same first word that
    goes on otherwise (Corsica Linea): it is that one's, and the brand's other company keeps apart.
    Each with why."""
    whole: dict[int, list[int]] = {}
    part: dict[int, list[int]] = {}
    for _, (i, j) in edges:
        x, y = (i, j) if not is_latin(records[i].name or "") else (j, i)
        if (
            records[x].kind == "person"
            or is_latin(records[x].name or "")
            or not is_latin(records[y].name or "")
        ):
            continue
        reason = weighed[(i, j)].reason
        if read_in_part(reason):
            part.setdefault(x, []).append(y)
        elif ", which sounds as " in reason or " translates as " in reason:
            whole.setdefault(x, []).append(y)
    dropped: dict[tuple[int, int], str] = {}
    for x, starts in part.items():
        for y, z in itertools.product(starts, whole.get(x, [])):
            # two names of one brand's first word, each going on otherwise (Corsica Ferries, Corsica Linea)
            ny, nz = records[y].clean.split(), records[z].clean.split()
            if (
                len(ny) >= 2
                and len(nz) >= 2
                and ny[0] == nz[0]
                and not names_agree(records[y].clean, records[z].clean)
            ):
                why = f"kept apart: {records[x].name} reads as {records[z].name}, only its start as {records[y].name}"
                dropped[(min(x, y), max(x, y))] = why
    return dropped


def _first_conflict(
    records: Sequence[Record], one: list[int], other: list[int], linked: Any, evidence: Any
) -> str | None:
    """What forbids joining the groups `one` and `other` (the first pair of theirs in conflict)."""
    # names one record of either group states as its own ("貨拉拉（英語：Lalamove，前稱EasyVan）"):
    # two of them are one entity's names by its word, whatever their sites; a stated name without
    # its "Group" too ("formerly SNC-Lavalin Group": the news calls it "SNC-Lavalin")
    voices = [
        {records[m].clean, *records[m].aliases, *map(core_name, records[m].aliases)} for m in one + other
    ]
    group = [records[m] for m in one + other]
    return next(
        (
            f"{records[p].name or records[p].id} / {records[q].name or records[q].id}: {c}"
            for p in one
            for q in other
            if (c := conflict(records[p], records[q], linked, evidence(p, q), voices, group))
        ),
        None,
    )


def _merge(
    records: Sequence[Record], edges: list[tuple[float, tuple[int, int]]], evidence: Any
) -> Resolution:
    domain_parent: dict[str, str] = {}

    def droot(d: str) -> str:
        while domain_parent.get(d, d) != d:
            d = domain_parent[d]
        return d

    group: dict[int, list[int]] = {r.index: [r.index] for r in records}
    owner = {r.index: r.index for r in records}
    reasons: dict[int, list[Json]] = {r.index: [] for r in records}
    apart: list[Json] = []
    for _, (i, j) in edges:
        gi, gj = owner[i], owner[j]
        if gi == gj:
            continue
        da, db = records[i].domain, records[j].domain
        pending = {droot(da), droot(db)} if da and db else set()

        def linked(d1: str, d2: str, pending: set[str] = pending) -> bool:
            r1, r2 = droot(d1), droot(d2)
            return r1 == r2 or (r1 in pending and r2 in pending)

        why = _first_conflict(records, group[gi], group[gj], linked, evidence)
        if why:
            apart.append({"items": [records[i].id, records[j].id], "reason": f"kept apart: {why}"})
            continue
        if da and db and da != db:
            domain_parent[droot(db)] = droot(da)
        keep, gone = min(gi, gj), max(gi, gj)
        group[keep] = sorted(group[keep] + group.pop(gone))
        for member in group[keep]:
            owner[member] = keep
        reasons[keep] = [
            *reasons[keep],
            *reasons.pop(gone),
            {"items": [records[i].id, records[j].id], "reason": evidence(i, j).reason},
        ]
    order = sorted(group)
    return Resolution([group[k] for k in order], [reasons[k] for k in order], apart)
