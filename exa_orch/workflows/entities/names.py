"""Company names: folding and transliteration, legal forms, cores, initials, and how two names agree."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import cast

from exa_orch.workflows.entities import brahmic, kana_letters, shortened
from exa_orch.workflows.entities.alphabets import CYRILLIC_DIGRAPHS, armenian, compound_initials, greek
from exa_orch.workflows.entities.latin_forms import (
    CLUB_FORM_WORDS,
    FORM_SPELLINGS,
    MORE_FORMS,
    NOT_LEGAL,
    OPENING_FORMS,
    PAGE_NAMES,
    PLC_WORDS,
    WRITTEN_SHORT,
    WRITTEN_SHORT_RUN,
)
from exa_orch.workflows.entities.latin_words import GROUPS, WORDS_IN_ENGLISH
from exa_orch.workflows.entities.script_forms import in_english_order, without_script_forms

# "Empresas": a Chilean holding's opening word, as "Grupo" a Mexican one's (Empresas Copec)
FILLER = frozenset("the holding holdings company empresas".split()) | GROUPS
# Words a company's own name may add to its brand on its own site without naming another unit
# ("Klarna Bank", "Lufthansa Group", "Samsung Electronics Co."): legal and corporate designators.
DESIGNATORS = FILLER | frozenset(
    "and co corp corporation inc incorporated ltd limited plc ag sa se nv bv gmbh ab asa oyj spa "
    "international global worldwide industries enterprises bank banking financial technologies "
    "technology tech systems solutions services labs software platforms networks official".split()
)
# Words a name's initials leave out, in the languages company names are written in ("Banca Monte
# dei Paschi di Siena": MPS; "Banco do Brasil": BB); "and" first (`_abbreviation` keeps it as "&")
# ... and the word for "and" of the Romance and German names ("Odebrecht Engenharia e Construção": OEC),
# and German's "for" ("Bank für Tirol und Vorarlberg": BTV), Turkish and Nordic "and" ("Makine ve
# Kimya Endüstrisi": MKE)
STOP_WORDS = ("and", "of", "the", "for", "de", "la", "di", "dei", "del", "della", "do", "da", "dos", "du", "des",
              "das", "e", "y", "et", "und", "fur", "fuer", "ve", "og", "och")  # fmt: skip
_FOLD = str.maketrans({"ß": "ss", "ø": "o", "Ø": "O", "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE",
                       "ł": "l", "Ł": "L", "đ": "d", "Đ": "D", "þ": "th", "Þ": "Th", "ı": "i",
                       "ħ": "h", "Ħ": "H", "陕": "Shaan", "陝": "Shaan"})  # fmt: skip


def fold(text: str) -> str:
    """Lowercase ASCII: accents dropped (é -> e, ß -> ss, ø -> o), Japanese kana read as Hepburn
    romaji (kana_letters.romaji: キッコーマン -> kikkoman, a long vowel's mark dropped), the Brahmic scripts of South Asia
    with the vowels their consonants carry (brahmic.py: पवन हंस -> pavan hans), other scripts
    transliterated by `anyascii` (Ж -> zh, 東京 -> dongjing): the same spelling of one name in two
    scripts agrees. 陕 reads shaan, as its province is spelled apart from Shanxi, 山西 (陕西, Shaanxi)."""
    text = kana_letters.romaji(text)
    text = brahmic.reading(text)  # before NFKD: a virama is a combining mark it would drop
    decomposed = unicodedata.normalize("NFKD", text.translate(_FOLD))
    latin = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    if not latin.isascii():
        from anyascii import anyascii  # here: a cold start needs none of this module's imports

        latin = anyascii(armenian(greek(latin)))
    return latin.lower()


def is_latin(text: str) -> bool:
    """Whether `text` is written in Latin letters (accents allowed): "Société" yes, "百度" no."""
    decomposed = unicodedata.normalize("NFKD", text.translate(_FOLD))
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).isascii()


def words(text: str) -> list[str]:
    """`text` folded, "&" and "+" read as "and", split on anything but letters and digits."""
    text = fold(text).replace("&", " and ").replace("+", " and ")
    return re.sub(r"[^\w\s]", " ", text.replace("'", "").replace("’", "").replace("`", "")).split()


def written_name(name: str) -> str:
    """`name` as written, but for what is no part of it: a legal form in CJK script, or one in
    Cyrillic or Georgian before it, a former name in brackets, the name's own initials in brackets
    after it ("Coca-Cola İçecek (CCI)" -> "Coca-Cola İçecek"), so that what cleaning drops from it is
    its legal form alone; a Vietnamese name's trade after it and a Korean insurer's name short, as
    the English and the short names write them (script_forms.in_english_order), and a Japanese
    railway's 電気鉄道 as its short name writes it, 電鉄 (上毛電気鉄道, 上毛電鉄), and the six-digit code of
    its stock a Korean or Chinese quote page writes after it (한화엔진 082740)."""
    bare = in_english_order(without_script_forms(_CODE_AFTER.sub("", name))).replace("電気鉄道", "電鉄")
    return _without_leading_initials(_without_own_initials(without_renamed(bare)))


_CODE_AFTER = re.compile(r"(?<=\S)\s+\d{6}$")  # Korea's and China's stock codes: six digits, never a year
# The shares a quote page lists after the company's name ("... Corp. Common Stock", "... Ltd. ADR")
_SECURITY = re.compile(
    r"\s+(?:(?:class\s+[a-c]\s+)?(?:ordinary|common|preferred)\s+(?:shares?|stock)|(?:sponsored\s+)?adrs?"
    r"|american\s+depositary\s+(?:shares|receipts)|class\s+[a-c])\s*$",
    re.IGNORECASE,
)


def _forms_off(text: str) -> str:
    """`text` without the legal forms cleanco finds at its end, whole words only (it cuts a vowel
    sign off a name in Devanagari, एनटीपीसी), a word that closes names as one of their own kept with
    what is before it (`NOT_LEGAL`: "Santander UK plc" is "Santander UK", "Phat Dat Corp" "Phat Dat")."""
    from cleanco import basename  # here, not at import: a cold start needs none of this module's

    for _ in range(3):
        found = words(text)
        bare = cast(str, basename(text)).strip(" ,.-")  # cleanco has no types: it returns a str
        gone = found[len(words(bare)) :]
        kept = max((k + 1 for k, w in enumerate(gone) if w in NOT_LEGAL), default=0)
        if not bare or kept == len(gone):
            break
        text = " ".join(found[: len(found) - len(gone) + kept]) if kept else bare
    return text


def _place_off(written: str) -> str:
    """A name written with commas without what follows its legal form there: the seat a register
    writes after it ("KRKA, D. D., NOVO MESTO" is Krka's name, "KRKA, D. D.")."""
    parts = written.split(",")
    for i in range(1, len(parts) - 1):
        if " ".join(words(parts[i])) in MORE_FORMS or _forms_off("x " + parts[i]) == "x":
            return ",".join(parts[: i + 1])
    return written


# ... and as Brazil's exchange writes them, in capitals ("GERDAU S.A. PN", "Engie Brasil ON", "VALE ON NM")
_B3_CLASS = re.compile(r"\s+(?:ON|PN|PNA|PNB|UNT)(?:\s+(?:N1|N2|NM))?\s*$")


def _without_shares(written: str) -> str:
    """A written name without the class of shares after it (`_SECURITY`, `_B3_CLASS`), unless that
    is all of it."""
    return _B3_CLASS.sub("", _SECURITY.sub("", written)) or written


@lru_cache(maxsize=65536)
def clean_name(name: str) -> str:
    """The name without legal forms, accents, punctuation or case: "Société Générale S.A." -> "societe generale".

    Legal forms come from cleanco's list (many jurisdictions), stripped until none is left at the
    end ("Samsung Electronics Co., Ltd." loses both; two letters joined by "&" end a unit's name,
    "Altechna R&D", no forms "R", "D"); "&" and "and" read the same. A name's own initials after it
    go too ("Techniker Krankenkasse (TK)"), and a former name in brackets ("Avolta AG (formerly
    Dufry AG)" -> "avolta"), and the class of shares a quote page names after it ("Synlait Milk
    Limited Ordinary Shares")."""
    text = _forms_off(_without_shares(_place_off(written_name(name))))
    found = words(text)
    opening = next((f for f in OPENING_FORMS if tuple(found[: len(f)]) == f and len(found) > len(f)), ())
    del found[: len(opening)]
    stripped = re.search(r"\b[^\W\d_]&[^\W\d_]$", text) is None  # "R&D" ends a unit's name
    while stripped and len(found) > 1:
        stripped = False
        if found[-1] == "and":  # "Merck &" after "Co." went
            found.pop()
            stripped = True
        for n in (6, 5, 4, 3, 2, 1):
            if len(found) > n and " ".join(found[-n:]) in MORE_FORMS:
                del found[-n:]
                stripped = True
                break
    for n in (2, 1):  # "Verizon Investor Relations": the company's page, named as the company is
        if len(found) > n and " ".join(found[-n:]) in PAGE_NAMES and set(found[:-n]) - FILLER:
            del found[-n:]  # but "The Newsroom" keeps its name
            break
    kept = WRITTEN_SHORT_RUN[0].sub(WRITTEN_SHORT_RUN[1], " ".join(WRITTEN_SHORT.get(w, w) for w in found))
    # "M&S" is not "M" with a legal form "& S": a name cut to one letter keeps its words
    return kept if len(kept.replace(" ", "")) > 1 else " ".join(words(name))


# "<name> (<initials>)": the parenthesis a name ends with, when short enough to be its initials.
_OWN_INITIALS = re.compile(r"^(.*\S)\s*\(\s*([A-Za-z0-9&.\-]{2,8})\s*\)$")


# A name's former or later name in brackets after it ("Avolta AG (formerly Dufry AG)"): another
# name of one company, read as such from the page's text (records.py), never a word of this one.
_RENAMED_ASIDE = re.compile(r"\s*\(\s*(?:formerly|previously|now|ex)\b[^()]*\)\s*$", re.I)


def without_renamed(name: str) -> str:
    """`name` without a former or later name in brackets after it (`_RENAMED_ASIDE`)."""
    return _RENAMED_ASIDE.sub("", name) or name


def _without_own_initials(text: str) -> str:
    """`text` without a closing "(X)" when X is the initials of the words before it, with their
    legal form or without ("Bumrungrad Hospital PCL (BH)", "Pakistan Petroleum Limited (PPL)"). Any
    other parenthesis stays: "(India)" or "(Thailand)" names another company of a group."""
    found = _OWN_INITIALS.match(text) if text.endswith(")") else None
    if not found:
        return text
    if _ticker(found.group(2)):
        return found.group(1)
    return found.group(1) if _initials_of(found.group(2), found.group(1)) else text


# "<initials> - <name>", as a page's title opens with the short name ("BNA - Banque Nationale d'Algérie")
_LEADING_INITIALS = re.compile(r"^([A-Z0-9&]{2,8})\s+[-–—|:]\s+(\S.*)$")


def _without_leading_initials(text: str) -> str:
    """`text` without the initials it opens with before a dash, when they are the name's after it."""
    found = _LEADING_INITIALS.match(text)
    return found.group(2) if found and _initials_of(found.group(1), found.group(2)) else text


def _initials_of(short: str, name: str) -> bool:
    """`short` is the initials of `name`'s words (but small words, an elided article aside), or of
    their first ones, one word left out at most."""
    said = "".join(words(short))
    before = unelided([w for w in words(name) if w not in STOP_WORDS])
    if len(before) < 2 or len(said) < 2:
        return False
    initials = "".join(w[0] for w in before)
    return said in (initials, initials[: len(said)]) and len(said) >= len(before) - 1


def _ticker(written: str) -> bool:
    """A listing's symbol or code in brackets after a listed company's name on an exchange's page
    ("Nabil Bank Limited (NABIL)", "(00001)"): three capitals or digits or more, not a country's
    code ("(USA)", "(UK)": another company of a group)."""
    return bool(re.fullmatch(r"(?!(?:USA|UAE|PRC|ROK|GBR|IND)$)[A-Z0-9]{3,8}", written.replace(".", "")))


def core_name(cleaned: str) -> str:
    """The cleaned name without "the", "group", "holding(s)", "company": "the boston consulting group"
    -> "boston consulting"."""
    kept = [w for w in cleaned.split() if w not in FILLER]
    return " ".join(kept) or cleaned


def acronym(cleaned: str) -> str:
    """Initials of a name of 2+ words ("international business machines" -> "ibm"), else ""."""
    kept = [w for w in cleaned.split() if w not in STOP_WORDS]
    return "".join(w[0] for w in kept) if len(kept) >= 2 else ""


def legal_forms(raw: str, clean: str) -> frozenset[str]:
    """The words of a written name that cleaning dropped (its legal form: "company incorporated",
    "kgaa"), each in its long spelling ("corp" -> "corporation"); a form written in letters with
    dots is one word ("S.A." is "sa", "N.V." is "nv")."""
    dropped = set(raw.split()) - set(clean.split()) - {"and"} - WRITTEN_SHORT.keys() - WRITTEN_SHORT_RUN[2]
    letters = [w for w in raw.split() if w in dropped and len(w) == 1]
    if len(letters) >= 2 and "".join(letters) in MORE_FORMS | set(FORM_SPELLINGS) | NOT_LEGAL:
        # a country's letters ("KONE U.S.") are no form at all
        dropped = (dropped - set(letters)) | ({"".join(letters)} - NOT_LEGAL)
    # a football club's form is no legal form: "Rangers F.C." and "Rangers Football Club" are one
    forms = {FORM_SPELLINGS.get(w, w) for w in dropped - CLUB_FORM_WORDS}
    if PLC_WORDS <= forms:
        forms = forms - PLC_WORDS | {"plc"}
    # Malaysia's private company, "Sdn. Bhd." (sendirian berhad), is no public one ("Berhad"): its
    # listed parent of the name is another company
    return frozenset(forms - {"berhad"} if "sdn" in forms else forms)


def extra_words(a: str, b: str) -> frozenset[str]:
    """What the longer of two cleaned names adds to the shorter, when it contains all of its words."""
    wa, wb = set(a.split()), set(b.split())
    if wa <= wb:
        return frozenset(wb - wa)
    if wb <= wa:
        return frozenset(wa - wb)
    return frozenset()


def _abbreviation(x: str, y: str) -> bool:
    """`y` written as initials of `x`'s words ("bayerische motoren werke" -> "bmw", "procter and
    gamble" -> "pandg" from "P&G", "minnesota mining and manufacturing" -> "3m" is not)."""
    letters = {y.replace(" ", ""), core_name(y).replace(" ", ""), y.replace(" and ", " ").replace(" ", "")}
    kept = [w for w in x.split() if w not in STOP_WORDS]
    if len(kept) < 2:
        return False
    with_and = "".join(w[0] if w not in ("and",) else "and" for w in x.split() if w not in STOP_WORDS[1:])
    if bool(_initials(kept) & letters) or with_and in letters:
        return True
    # a compound's stems each give a letter (ЧЭМК / Челябинский электрометаллургический комбинат)
    return any(len(w) > len(kept) for w in letters) and bool(letters & compound_initials(tuple(kept)))


# A French or Italian article or "de" elided before a word, run into it once the apostrophe goes
# ("Banque de l'Habitat du Sénégal": BHS; "Banque nationale d'investissement": BNI)
_ELIDED = re.compile(r"[dl][aeiouh]\w{3,}")


def unelided(ws: list[str]) -> list[str]:
    """A name's words, each after the first without the elided article it may open with
    (`_ELIDED`: "lhabitat" -> "habitat"): what its initials may be read from."""
    return ws[:1] + [w[1:] if _ELIDED.fullmatch(w) else w for w in ws[1:]]


def _initials(kept: list[str], *, whole: bool = False) -> set[str]:
    """The initials of `kept`'s first two words or more (`whole`: of all of them), each word's
    first letter or, for three words or more, the letters of one Cyrillic letter it opens with."""
    found, ways = set(), {""}
    for at, w in enumerate(kept[:8], 1):
        firsts = {w[0], *(d for d in CYRILLIC_DIGRAPHS if len(kept) >= 3 and w.startswith(d))}
        if at > 1 and _ELIDED.fullmatch(w):  # "de l'habitat", read "lhabitat": its initial is h
            firsts.add(w[1])
        ways = {o + f for o in ways for f in firsts}
        if at >= 2 and (at == len(kept) or not whole):
            found |= ways
    return found


def _abbreviated_part(x: list[str], y: list[str]) -> bool:
    """`y` writes two or more of `x`'s words as their initials, one word of two letters at least
    ("imm pe" / "imm private equity", "zccm ih" / "zccm investments holdings", "ca brie picardie" /
    "credit agricole brie picardie"), the words around them alike ("lebedinskiy gok" /
    "lebedinskiy gorno obogatitelnyy kombinat")."""
    head = next((i for i, (p, q) in enumerate(zip(x, y, strict=False)) if p != q), min(len(x), len(y)))
    tail = next(
        (i for i, (p, q) in enumerate(zip(x[head:][::-1], y[head:][::-1], strict=False)) if p != q), 0
    )
    part, short = x[head : len(x) - tail], y[head : len(y) - tail]
    return (
        bool(head or tail)
        and len(short) == 1
        and len(short[0]) >= 2
        and len(part) >= 2
        and short[0] in _initials([w for w in part if w not in STOP_WORDS], whole=True)
    )


def _run_into(x: list[str], y: list[str]) -> bool:
    """`y`, one word, the initials of two or more of `x`'s words run into its last one ("gtbank" /
    "guaranty trust bank", as `_abbreviated_part` reads "gt bank")."""
    last = x[-1] if len(x) >= 3 else ""
    if len(y) != 1 or len(last) < 3 or not y[0].endswith(last) or len(y[0]) < len(last) + 2:
        return False
    return _abbreviated_part(x, [y[0][: -len(last)], last])


def _syllabic(x: str, y: str) -> bool:
    """`y`, one word, written from the starts of `x`'s first words, two letters or more of each
    and of two words at least ("magazine luiza" -> "magalu", "petroleo brasileiro" -> "petrobras",
    "gazovaya promyshlennost" -> "gazprom"), a plural "s" after the last ("impala platinum" ->
    "implats"): a name shortened by syllables."""
    kept = [w for w in x.split() if w not in STOP_WORDS]
    if " " in y or len(y) < 6 or len(kept) < 2 or y == kept[0] or not y.startswith(kept[0][:2]):
        return False

    def rest(word: int, at: int, cut: bool) -> bool:  # y[at:] from the starts of kept[word:]
        if at == len(y) or (at == len(y) - 1 and y[-1] == "s" and word == len(kept)):  # "implats"
            # a word cut short ("mercadolibre" is two words run together), no unit's number unsaid
            return word >= 2 and cut and not any(_NUMBERED.fullmatch(w) for w in kept[word:])
        if word == len(kept):
            return False
        w = kept[word]
        return any(
            y[at : at + n] == w[:n] and rest(word + 1, at + n, cut or n < len(w))
            for n in range(min(len(w), len(y) - at), 1, -1)
        )

    return rest(0, 0, False)


def initialism(written: str, short: str) -> bool:
    """`short` is the initials of a name as written, legal form included ("taiwan semiconductor
    manufacturing company limited" -> "tsmc"): cleaning drops the word an initialism may keep."""
    return _abbreviation(written, short)


# The words that join a name's parts in the languages company names are written in ("of", "du",
# "de la", "van der"): one name written in two of them is one name.
_JOINING = frozenset(
    "of the du de des del della di da do dos das der den van von la le el les los las".split()
)
JOINING_WORD = "equal names but for a joining word"


def _unjoined(cleaned: str) -> str:
    return " ".join(w for w in cleaned.split() if w not in _JOINING)


IN_TWO_LANGUAGES = "one institution's name in two languages"
# How `names_agree` says two names are one name (not one within or extending the other)
# German writes an umlaut out where its letters are missing (a ticker's name: "Flughafen Zuerich
# AG", "Deutsche Boerse AG"); folded, "zurich" and "zuerich" are one word
UMLAUTS_WRITTEN_OUT = "equal names but for umlauts written out"
_WRITTEN_OUT = re.compile(r"(?<=[aou])e")
_WRITTEN_INSIDE = re.compile(r"(?<=[aou])e(?=[b-df-hj-np-tv-z])")

DESIGNATOR_INSIDE = "equal names but for a designator inside"
VOWELS_APART = "one name romanized twice, its vowels apart"
NEAR_EQUAL = "near-equal long names"  # a letter or two apart: not one name by itself
WORDS_REORDERED = "one name's words in another order"
SYLLABLES = "a name shortened by syllables"
_NUMBERED = re.compile(r"[ivx]{1,4}|\d{1,3}")  # a unit's number, Roman or not (Pelnas II, PTPN 3)
ONE_NAME = (
    "equal names",
    VOWELS_APART,
    DESIGNATOR_INSIDE,
    "abbreviation",
    "equal names but for spaces",
    UMLAUTS_WRITTEN_OUT,
    SYLLABLES,
    JOINING_WORD,
    IN_TWO_LANGUAGES,
    WORDS_REORDERED,
)


def _designator_inside(short: list[str], long_: list[str]) -> bool:
    """`long_` is `short` with designators written between its words ("hsbc bank armenia" / "hsbc
    armenia"), not after them: "Standard Chartered Bank" is the group's bank, not "Standard Chartered"."""
    inside = long_[1:-1]
    return (
        long_[-1] == short[-1]
        and long_[0] == short[0]
        and [w for w in long_ if w not in DESIGNATORS or w in short] == short
        and any(w in DESIGNATORS for w in inside)
    )


def in_english(ws: list[str]) -> list[str]:
    """A name's words, an institution's kind word in English, small words left out, in order."""
    return sorted(e for w in ws if w not in STOP_WORDS for e in WORDS_IN_ENGLISH.get(w, w).split())


def names_agree(a: str, b: str) -> str | None:
    """How two cleaned company names agree, or None: equal, one's words within the other's (on one
    site: "maersk" / "a p moller maersk"), or an abbreviation of the other (initials)."""
    if not a or not b:
        return None
    if a == b or core_name(a) == core_name(b):
        return "equal names"
    unjoined = _unjoined(a)
    if unjoined == _unjoined(b) and len(unjoined.split()) >= 2:
        return JOINING_WORD  # "Power Corporation of Canada" / "Power Corporation du Canada"
    wa, wb = a.split(), b.split()
    short, long_ = (wa, wb) if len(wa) <= len(wb) else (wb, wa)
    if long_[: len(short)] == short:
        return "one name extends the other"
    if len(short) >= 2 and _designator_inside(short, long_):
        return DESIGNATOR_INSIDE
    if len(short) == len(long_) >= 2 and sorted(short) == sorted(long_):
        return WORDS_REORDERED  # "Carlsberg Myanmar" / "Myanmar Carlsberg"
    if set(short) <= set(long_) or set(core_name(" ".join(short)).split()) <= set(long_):
        return "one name's words are within the other's"
    return _written_otherwise(a, b)


def _umlauts_out(a: str, b: str, letters: int) -> bool:
    """Two names, one the other with its umlauts written out (`_WRITTEN_OUT`), whole or their cores;
    of four or five letters (`letters`), only an umlaut before a consonant (Dürr / Duerr; Blue is
    no Blu)."""
    out = _WRITTEN_OUT if letters >= 6 else _WRITTEN_INSIDE
    pairs = ((a, b), (core_name(a), core_name(b)))
    return letters >= 4 and any(out.sub("", x) == out.sub("", y) for x, y in pairs)


def _written_otherwise(a: str, b: str) -> str | None:
    """`names_agree` for two names whose words differ: run together, abbreviated, translated,
    shortened by syllables or near-equal."""
    joined_a, joined_b = a.replace(" ", ""), b.replace(" ", "")
    if joined_a == joined_b or shortened.digits_said(a) == shortened.digits_said(b):
        return "equal names but for spaces"  # or a digit said as its word ("ROUND1" / "Round One")
    if _umlauts_out(a, b, len(joined_a)):
        return UMLAUTS_WRITTEN_OUT  # "Deutsche Börse Group" / "Deutsche Boerse AG" too
    wa, wb = a.split(), b.split()
    if _abbreviation(a, b) or _abbreviation(b, a) or _abbreviated_part(wa, wb) or _abbreviated_part(wb, wa):
        return "abbreviation"
    if _run_into(wa, wb) or _run_into(wb, wa):
        return "abbreviation"  # "GTBank" / "Guaranty Trust Bank"
    if shortened.words_shortened(wa, wb, DESIGNATORS):
        return "abbreviation"  # an exchange's list: "Mapletree Log Tr"
    if shortened.vowels_apart(wa, wb, DESIGNATORS):
        return VOWELS_APART
    if len(wa) >= 2 and in_english(wa) == in_english(wb) and set(wa) != set(wb):
        return IN_TWO_LANGUAGES  # "Instituto Butantan" / "Butantan Institute"
    if _syllabic(a, b) or _syllabic(b, a):
        return SYLLABLES
    from rapidfuzz import fuzz

    if (
        fuzz.token_sort_ratio(a, b) >= 92
        and min(len(joined_a), len(joined_b)) >= 10
        and not shortened.initials_apart(wa, wb)
    ):
        return NEAR_EQUAL
    return None


# Designators that name another company of a brand as often as the brand itself: an international
# arm (UnionPay International), a holding company ("Natura &Co"), a group
UNIT_DESIGNATORS = frozenset({"international", "intl", "global", "worldwide", "co", "and", *FILLER})


def adds_a_designator(x: str, y: str) -> bool:
    """One cleaned name extends the other by designators alone, none that names another company of
    the brand (`UNIT_DESIGNATORS`): "Agilent" / "Agilent Technologies", "Kaupthing Bank" / Kaupþing."""
    extra = extra_words(x, y)
    return (
        bool(extra)
        and extra <= DESIGNATORS - UNIT_DESIGNATORS
        and names_agree(x, y) == "one name extends the other"
    )
