"""Organisation names in alphabets whose words a table translates and the rest are heard by their
consonants: Arabic and Hebrew letters (abjads: few vowels written), Cyrillic and Greek, and the
scripts of South Asia and Sri Lanka (indic_words.INDIC: a word of two consonants or fewer heard in
as many syllables too, as they write its vowels).

A name's every word rendered by word_tables.ARABIC, word_tables.CYRILLIC or word_tables.GREEK,
two words or more, translates as the Latin name whose words are those renderings in any order
(مصر للطيران / EgyptAir, Русская медная компания / Russian Copper Company, Αγροτική Τράπεζα της
Ελλάδος / Agricultural Bank of Greece), or, three or four words, as their initials in any order
(بنك الكويت الوطني / NBK).
Otherwise each word no term renders is heard by its consonants (scripts.skeleton) as a
Latin word is, near letters allowed (`_heard_as`), and every Latin word must be accounted for, but
designators beside a brand of five consonants (בנק לאומי / Bank Leumi, Банк Русский Стандарт /
Russian Standard Bank, Национальный Банк Казахстана / National Bank of Kazakhstan). glossary.py
reads this module for those scripts; its own words are CJK terms.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Iterator
from functools import lru_cache

from exa_orch.workflows.entities.consonants import consonant_letters, meets, soft_g
from exa_orch.workflows.entities.countries import country_named, is_place
from exa_orch.workflows.entities.indic_words import INDIC, INDIC_LETTERS
from exa_orch.workflows.entities.names import DESIGNATORS, fold, is_latin, unelided
from exa_orch.workflows.entities.scripts import skeleton
from exa_orch.workflows.entities.word_tables import (
    ARABIC,
    ARABIC_LETTERS,
    CYRILLIC,
    CYRILLIC_LETTERS,
    GREEK,
    GREEK_LETTERS,
    HEBREW,
    HEBREW_LETTERS,
)

_STOP = frozenset({"of", "the", "and", "for", "de", "du", "des", "la", "le", "d"})
# and Japan's joint-stock company as its English names may keep it romanized (Toyo Suisan Kaisha,
# Nippon Yusen Kabushiki Kaisha): 株式会社, which the name in kanji writes as a legal form
_DROPPED = frozenset(
    "company co corporation corp limited ltd inc plc compagnie societe kabushiki kaisha".split()
)


def content(latin: str) -> list[str]:
    """A cleaned Latin name's words but the small words and legal words a translation leaves out."""
    return [w for w in latin.split() if w not in _STOP and w not in _DROPPED]


def without(phrase: str, left: tuple[str, ...]) -> tuple[str, ...] | None:
    """The Latin words `left` less those of a term's rendering `phrase`, each used once; None when
    `left` lacks one of them."""
    remaining = list(left)
    for w in content(phrase):
        # a word `_heard_match` wrote with Arabic's soft g ("enjineering") is the rendering's too,
        # and its plural (한국공항공사 / Korea Airports Corporation: 공항, airport)
        w = next((x for x in (w, soft_g(w), w + "s") if x in remaining), w)
        if w not in remaining:
            if w in _LATIN_ARTICLES:  # "ras al khaimah", whose article `_heard_match` leaves out
                continue
            return None
        remaining.remove(w)
    return tuple(remaining)


def table_of(written: str) -> dict[str, tuple[str, ...]] | None:
    """The table of the words of a name written in Arabic, Hebrew, Cyrillic or Greek letters; None
    for any other script."""
    for letters, table in (
        (ARABIC_LETTERS, ARABIC),
        (HEBREW_LETTERS, HEBREW),
        (CYRILLIC_LETTERS, CYRILLIC),
        (GREEK_LETTERS, GREEK),
        (INDIC_LETTERS, INDIC),
    ):
        if letters.search(written):
            return table
    return None


# Two Arabic words English writes as one ("the air lines", airlines; "the care, the health",
# healthcare) or as a phrase its words alone do not say ("the east, the middle", Middle East)
_ARABIC_PHRASES = (
    "الخطوط الجوية", "الخطوط الحديدية", "للرعاية الصحية", "الرعاية الصحية", "الشرق الأوسط", "للأوراق المالية",
    "الأوراق المالية", "رأس الخيمة",
)  # fmt: skip
# Arabic's short vowels and other marks a name may write (العُماني), and the stretching tatweel
_ARABIC_MARKS = re.compile(r"[\u064b-\u0652\u0670\u0640]")
# Legal forms written in Cyrillic or Greek letters (ПАО, ТОО, ЕАД, Α.Ε.), left out as English
# leaves "PJSC" or "S.A." out of a name it translates
_FORMS = frozenset("пао оао ао зао ооо ат пат прат тов тоо ад еад доо оод ип ае αε αβεε αεβε".split())
_LETTERS = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")
_BRACKETED = re.compile(r"\s*\([^()]*\)")
_INDIC_BREAKS = re.compile(r"[()\[\].,:;!?\-–—&/]")


def says_a_word(written: str) -> bool:
    """Whether a name in Arabic, Hebrew, Cyrillic or Greek letters says a word its table renders
    that is more than what kind of body it is (a place, a plant, a trade: Россия, завод; not
    קבוצת, "group", nor Εταιρειών, "companies"), or a place read in Latin letters (Молдова)."""
    table = table_of(written)
    if table is None:
        return False
    said = _words(written, table)
    return any(not any(_designator(e) for e in table[w]) for w in said if w in table) or any(
        is_place(fold(w)) for w in said if w not in table
    )


def _designator(english: str) -> bool:
    """Whether a term's English rendering is a designator, or one in the plural."""
    singular = english[:-3] + "y" if english.endswith("ies") else english.removesuffix("s")
    return english in DESIGNATORS or singular in DESIGNATORS


def _words(written: str, table: dict[str, tuple[str, ...]]) -> list[str]:
    """A name's words as its table writes them: Arabic's "the air lines" one word; Cyrillic and Greek
    in lower case, Greek without accents, legal forms and words English leaves out ("") dropped."""
    if table is ARABIC:
        written = _ARABIC_MARKS.sub("", written)
        for phrase in _ARABIC_PHRASES:
            written = written.replace(phrase, phrase.replace(" ", "_"))
        return written.split()
    if table is HEBREW:
        return written.split()
    if table is INDIC:  # a Brahmic word's vowel signs and virama are no \w: split at what is no word
        return _INDIC_BREAKS.sub(" ", written).split()
    text = unicodedata.normalize("NFC", written).lower()
    if table is GREEK:
        text = "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c))
        text = re.sub(r"(?<=\b\w)\.", "", text)  # "α.ε." -> "αε"
    return [w for w in _LETTERS.findall(text) if w not in _FORMS and table.get(w) != ("",)]


def _rendered(word: str, table: dict[str, tuple[str, ...]]) -> tuple[str, ...] | None:
    """A word's renderings, or those of the word after Arabic's "and" (و) joined to it; None when
    the table has neither."""
    return table.get(word, table.get(word[1:]) if table is ARABIC and word[:1] == "و" else None)


def _renderings(words: list[str], table: dict[str, tuple[str, ...]], most: int) -> Iterator[list[str]]:
    """The English words of each way a name's words may be rendered, `most` at most; none when the
    table lacks one of them or the name has one word only."""
    said = [_rendered(w, table) for w in words]
    if len(said) < 2 or any(r is None for r in said):
        return
    choices = [r for r in said if r and r != ("",)]
    for combo in itertools.islice(itertools.product(*choices), most):
        yield [w for phrase in combo for w in content(phrase)]


def translate(written: str, latin: str, *, says_company: bool = False) -> str | None:
    """How `written` (in Arabic, Hebrew, Cyrillic or Greek letters) translates to `latin` (a cleaned
    Latin name, whose written name `says_company`: "Qassim Cement Company"), or None (module
    docstring): every word rendered, in any order or run together (مصر للطيران / EgyptAir, قطر
    للطاقة / QatarEnergy), else `_heard_match`."""
    table = table_of(written)
    if table is None:
        return None
    # a French article elided into a word ("banque nationale dalgerie"): the word without it too
    bare = " ".join(unelided(latin.split()))
    if bare != latin and (said := translate(written, bare, says_company=says_company)):
        return said.replace(bare, latin)
    # a name another gives in brackets ("الخليج للصناعات الدوائية (جلفار)", Julphar) is no word of it
    if (bare_name := _BRACKETED.sub(" ", written).strip()) != written and bare_name:
        inner = [m.strip(" ()") for m in _BRACKETED.findall(written)]
        return next(
            (t for n in (bare_name, *inner) if n and (t := translate(n, latin, says_company=says_company))),
            None,
        )
    words = _words(written, table)
    target = sorted(content(latin))
    for rendered in _renderings(words, table, 256):
        if sorted(rendered) == target or "".join(rendered) == latin.replace(" ", ""):
            return f"{written} translates as {latin}"
        if latin in _initials(rendered, any(table.get(w) == ("",) for w in words)):
            return f"{written} translates as {' '.join(rendered)}, whose initials {latin} are"
    return _heard_match(written, words, table, latin, says_company)


def _initials(rendered: list[str], company: bool) -> frozenset[str]:
    """The initials a Latin name may abbreviate a translation to: of its words in any order (Arabic
    puts an adjective after its noun: بنك الكويت الوطني, National Bank of Kuwait, NBK), three to
    four words (more have too many orders to be told apart), and a C after them where the name
    says "company" (شركة البترول الوطنية الكويتية, KNPC)."""
    if not 3 <= len(rendered) <= 4:
        return frozenset()
    said = {"".join(w[0] for w in order) for order in itertools.permutations(rendered)}
    return frozenset(said | ({s + "c" for s in said} if company else set()))


# The article a Latin name writes apart where Arabic letters join it to the word (Al Ahly / الأهلي).
_LATIN_ARTICLES = frozenset({"al", "el"})


def _heard_match(
    written: str, words: list[str], table: dict[str, tuple[str, ...]], latin: str, says_company: bool
) -> str | None:
    """A name some of whose words are no term: each such word heard by its consonants as a Latin
    word is (consonants.meets: بنك الرياض / Riyad Bank, شركة مبادلة للاستثمار / Mubadala Investment,
    בנק לאומי / Bank Leumi, Банк Русский Стандарт / Russian Standard Bank), the terms rendered,
    every Latin word accounted for but designators beside a brand of five consonants (מזרחי טפחות /
    Mizrahi Tefahot Bank), the heard words saying enough (`_heard_enough`)."""
    # a word of no consonant ("и", and) says nothing heard
    parts = [p for p in (_rendered(w, table) or _heard(w, table) for w in words) if p]
    arabic = table is ARABIC  # a soft g as Arabic letters write it (consonants.soft_g)
    left = tuple(soft_g(w) if arabic else w for w in content(latin) if w not in _LATIN_ARTICLES)
    # a word's shortest reading, or the one a Latin word writes whole (الإنماء, "lnm" with its
    # article, as "Alinma" runs the article into the name)
    spelled = {skeleton(w) for w in left}
    consonants = sum(
        max((_consonants(s) for s in p if s in spelled), default=min(map(_consonants, p)))
        for p in parts
        if isinstance(p, frozenset)
    )
    if not _heard_enough(parts, consonants, says_company):
        return None
    if _abjad_match(tuple(parts), left, consonants >= 5, unsaid=consonants >= 4):
        return f"{written} translates and sounds as {latin}"
    return None


def _heard_enough(parts: list[tuple[str, ...] | frozenset[str]], consonants: int, says_company: bool) -> bool:
    """Whether `_heard_match`'s heard words say enough to name one company: three consonants, or
    two beside two words the table renders (الاتحاد للماء والكهرباء / Etihad Water & Electricity: the
    trade words say the rest); and "company" (شركة) the Latin name leaves out, only beside a word of
    four consonants or more heard alike: a trade and a place ("الشركة التونسية للبنك", the Société
    Tunisienne de Banque, beside "Banque de Tunisie") are many companies' names, a brand ("شركة
    مبادلة للاستثمار", Mubadala) one, and so is a name whose every other word is heard, five
    consonants in all (شركة أسمنت حلوان / Helwan Cement). A Latin name that says "company" itself
    leaves nothing out (شركة أسمنت القصيم / Qassim Cement Company)."""
    rendered = sum(1 for p in parts if isinstance(p, tuple) and p != ("",))
    if consonants < (2 if rendered >= 2 else 3):
        return False
    brand = any(min(map(_consonants, p)) >= 4 for p in parts if isinstance(p, frozenset))
    # every word but "company" heard, five consonants in all: no trade's or place's term to share
    return brand or says_company or not any(p == ("",) for p in parts) or (not rendered and consonants >= 5)


# The words a Latin name says "company" by, as شركة does (cleaning drops them: names.clean_name)
_COMPANY = frozenset({"company", "co", "corporation", "corp", "compagnie", "societe"})


def says_company(latin_written: str) -> bool:
    """Whether a Latin name as written says it is a company ("Qassim Cement Company")."""
    return bool(_COMPANY.intersection(fold(latin_written).split()))


def heard_keys(written: str, clean: str) -> set[str]:
    """Blocking keys of the words `_heard_match` hears (three consonants or more): of a name in
    Arabic, Hebrew, Cyrillic or Greek letters, its words no term renders; of a Latin name, its
    words but designators."""
    table = table_of(written)
    if table is not None:
        said = {k for w in _words(written, table) if w not in table for k in _heard(w, table)}
    elif not is_latin(written):
        return set()
    else:
        said = {skeleton(w) for w in content(clean) if w not in DESIGNATORS and w not in _LATIN_ARTICLES}
    # and each as its letters' classes (`_heard_as`): "knfgn" and Compugen's "cnbgn" one key
    return {f"a:{k}" for k in said if len(k) >= 3} | {f"a:{_classed(k)}" for k in said if len(k) >= 4}


# Endings a Cyrillic or Greek word takes in a name (a genitive, an adjective's agreement), as
# read in Latin letters: a word is heard with and without them ("Магнитогорского", magnitogorskogo)
_ENDINGS = ("ogo", "ego", "omu", "ykh", "ikh", "om", "em", "ov", "ev", "os", "as", "is", "es", "ou")
# and the suffixes that make a place or a thing an adjective, a vowel and n before -sk- or not
# (Алтайский, "altaiskii", Altai; Кара-Балтинский, Kara-Balta; Ереванский, Yerevan, its n its own;
# тракторный, "traktornyi", tractor)
_AGREEING = r"(?:ii|iy|ij|yi|yy|yj|aya|oe|ogo|ye|ie|ikh|ykh|a|o|i)$"
_ADJECTIVES = (re.compile(r"(?:[aeiuy]n)?sk" + _AGREEING), re.compile(r"(?:sk|n)" + _AGREEING))


def _heard(word: str, table: dict[str, tuple[str, ...]]) -> frozenset[str]:
    """A word's consonants as a Latin name writes them (scripts.skeleton): in Arabic or Hebrew
    letters read with and without Hebrew's vowel letters, and without the article or preposition
    Arabic joins to it (ال, لل); in Cyrillic or Greek letters as read, with and without an ending."""
    if table is CYRILLIC or table is GREEK:
        # fold writes a soft sign (ь) as an apostrophe: no consonant
        read = fold(word).replace(" ", "").replace("-", "").replace("'", "")
        stems = {read[: -len(e)] for e in _ENDINGS if read.endswith(e) and len(read) - len(e) >= 3}
        stems |= {stem for a in _ADJECTIVES if (m := a.search(read)) and len(stem := read[: m.start()]) >= 3}
        return frozenset(s for s in map(skeleton, {read, *stems}) if s)
    if table is INDIC:  # read with its vowels: a short word by them too (सौर्य, "saurya", is no Shree)
        read = fold(word).replace(" ", "")
        said = skeleton(read)
        return frozenset({said if len(said) >= 3 else "=" + read} if said else ())
    bare = [word, word[2:]] if word[:2] in ("ال", "لل") and len(word) > 3 else [word]
    readings = {consonant_letters(w, vowels=v) for w in bare for v in (True, False)}
    return frozenset(s for s in map(skeleton, readings) if s)


_VOWEL_RUNS = re.compile(r"[aeiouy]+")


def _consonants(heard: str) -> int:
    """How many consonants a heard word (`_heard`) sounds."""
    return len(skeleton(heard[1:])) if heard[:1] == "=" else len(heard)


def _heard_word(heard: str, word: str) -> bool:
    """A heard word (`_heard`) as the Latin word `word`: by its consonants (`_heard_as`), and, a
    word of a Brahmic script of two consonants or fewer ("=" and its reading), in as many syllables
    (डेयरी, "deyri", dairy; सौर्य, "saurya", is no Shree)."""
    if heard[:1] == "=":
        read = heard[1:]
        if len(_VOWEL_RUNS.findall(read)) != len(_VOWEL_RUNS.findall(word)):
            return False
        heard = skeleton(read)
    return any(_heard_as(heard, latin) for latin in _latin_skeletons(word))


def _abjad_match(
    parts: tuple[tuple[str, ...] | frozenset[str], ...], left: tuple[str, ...], branded: bool, *, unsaid: bool
) -> bool:
    """Whether `parts` (a term's renderings, or a heard word's consonants) account for exactly the
    Latin words `left` (`branded`: but designators; `unsaid`: but trade words the Latin name leaves
    out, `_trade_only`), by backtracking."""
    if not parts:
        return all(branded and w in DESIGNATORS for w in left)
    part, rest = parts[0], parts[1:]
    if isinstance(part, frozenset):
        return any(
            _abjad_match(rest, left[:k] + left[k + 1 :], branded, unsaid=unsaid)
            for k, w in enumerate(left)
            if any(_heard_word(s, w) for s in part)
        )
    return any(
        (remaining := without(phrase, left)) is not None
        and _abjad_match(rest, remaining, branded, unsaid=unsaid)
        for phrase in part
    ) or (unsaid and _trade_only(part) and _abjad_match(rest, left, branded, unsaid=unsaid))


@lru_cache(maxsize=16384)
def _latin_skeletons(word: str) -> frozenset[str]:
    """A Latin word's consonants as a loanword in another script may write them: a soft c as the s
    it sounds, a plural's s left out (سيراميك, "srnk", ceramics)."""
    soft = re.sub(r"c(?=[eiy])", "s", word)
    forms = {word, soft} | ({word[:-1], soft[:-1]} if len(word) > 4 and word.endswith("s") else set())
    return frozenset(skeleton(f) for f in forms)


# Words a rendering says that tell one company of a brand from another: its group or holding
# company, its nation (شركة مبادلة للاستثمار is Mubadala; مجموعة صافولا is not Savola Foods)
_TELLING = frozenset("group groupe holding holdings national international arab islamic".split())


def _trade_only(part: tuple[str, ...]) -> bool:
    """A term's renderings that say a trade alone ("investment", "real estate"), which a Latin name
    leaves out beside a brand heard alike (دار الأركان للتطوير العقاري / Dar Al Arkan): no word of
    `_TELLING`, no place."""
    said = {w for phrase in part for w in content(phrase)}
    return bool(said) and not any(w in _TELLING or is_place(w) or country_named(w) for w in said)


# Consonants scripts write for one another's (a p for a b, a j for a g): one may stand for the other
_NEAR_GROUPS = ("bpfvw", "dt", "gkqjc", "szcj", "lr", "mn")
_NEAR = tuple(frozenset(g) for g in _NEAR_GROUPS)
# Each consonant as the first `_NEAR` group it is in (c and j as g): a representative of its sound
_CLASS = {ch: group[0] for group in reversed(_NEAR_GROUPS) for ch in group}


def _classed(consonants: str) -> str:
    """Each consonant as its `_CLASS`."""
    return "".join(_CLASS.get(c, c) for c in consonants)


def _opens_alike(heard: str, latin: str) -> bool:
    """Two words' consonants, as many, opening with one sound or near ones (`_NEAR`): one for
    another unlike it at a word's start is another word (Таримекс, "trmks", is not Sarimex); one
    added there is a letter a script writes for a sound (АвтоКрАЗ's в, AutoKrAZ's u; Djibouti's d)."""
    return heard[0] == latin[0] or any({heard[0], latin[0]} <= near for near in _NEAR)


def _heard_as(heard: str, latin: str) -> bool:
    """A word heard by its consonants as a Latin word of a company name: alike, or one letter off
    where both have four consonants or more, or each letter a near one (`_NEAR`: קומפיוג'ן, "kfnfgn"
    read without ו as "knfgn", / Compugen, "cnbgn"); of three, one letter added or dropped, or one
    written for a near one: بيبلوس, "bls", is not Blom, "blm"."""
    if heard == latin:
        return True
    if min(len(heard), len(latin)) >= 4 and _classed(heard) == _classed(latin):
        return True
    if len(heard) != len(latin) or min(len(heard), len(latin)) >= 4:
        return meets(heard, [latin]) and (len(heard) != len(latin) or _opens_alike(heard, latin))
    off = [(x, y) for x, y in zip(heard, latin, strict=True) if x != y]
    return len(off) == 1 and any({off[0][0], off[0][1]} <= near for near in _NEAR)


def keys(written: str) -> Iterator[str]:
    """Blocking keys of a name whose every word its table renders (`_renderings`): the renderings'
    words sorted, and run together."""
    table = table_of(written)
    if table is None:
        return
    said = _words(written, table)
    for words in _renderings(said, table, 64):
        yield "t:" + " ".join(sorted(words))
        yield "t:" + "".join(words)
        yield from ("t:" + i for i in _initials(words, any(table.get(w) == ("",) for w in said)))
