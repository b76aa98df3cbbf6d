"""Titles that open a person's name, and monarchs' regnal numbers and realms.

"King Harald V", "Harald V of Norway" and "Harald V" are one name; so are "Cardinal Pietro
Parolin" and "Pietro Parolin", "Lt. Gen. Jane Doe" and "Jane Doe". people.py reads a name beside
itself without the titles that open it (a monarch's, a cleric's, an officer's rank, a professor's:
"Sultan Hassanal Bolkiah" is Hassanal Bolkiah, "Emperor Naruhito" Naruhito) and, where a title or a
regnal number says the name is a monarch's or a pope's, without the realm after "of" ("Elizabeth
II of the United Kingdom"). The name as written is read too: "Sultan" is Sultan Al Jaber's given
name, "Bishop" Julie Bishop's family name. `regnal_evidence` weighs two regnal names: one given
name and one number are a whole name (7), unless two realms are stated and differ.

A title opens a name only with another word after it: "Prince" and "Queen Latifah" are names of
their own, and "King" in "Carole King" closes a name, it does not open one.

The titles one person holds written in Chinese, Japanese or Korean, and their English (`TITLES`),
are here too: glossary.titles_agree reads them.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from exa_orch.workflows.entities.names import words
from exa_orch.workflows.entities.terms import rendered

# The words a name writes its generation in, and which (generations.py: Henry Sy Jr. is not Henry Sy Sr.)
# and the ordinals of a name handed down more times (a potter's Imaizumi Imaemon XIV, a kabuki
# actor's), which a name keeps as a word, as a pope's regnal number is kept (Benedict XVI); never "v"
# or "x", initials as often, nor "vi" or "xi", given and family names (Xi Jinping)
_ORDINALS = "ii iii iv vii viii ix xii xiii xiv xv xvi xvii xviii xix xx".split()
GENERATION = {"sr": "sr", "senior": "sr", "jr": "jr", "junior": "jr", **{n: n for n in _ORDINALS}}

# Honorifics, degrees, orders and suffixes written around a person's name ("Dr.", "Sir", "Jr.", "OBE").
HONORIFICS = frozenset(
    "dr prof mr mrs ms mx sir dame lord lady baron baroness sheikh shaikh hon rev dato datuk khun "
    "phd md jr sr ii iii iv mba obe cbe kbe dbe frs alhaji alhaja gcon gcfr cfr ofr shri shrimati smt"
    # Central European degrees written before a name and after it ("Ing. Petr Novák", "Prof. PhDr.
    # Jan Dvořák, Ph.D., LL.M.", "Dipl.-Ing.", Austria's "Mag.", "doc. RNDr. ..., CSc.")
    " ing mgr bc phdr judr mudr mvdr rndr paeddr thdr pharmdr csc drsc dipl mag doc ph ll llm msc bsc".split()
)
# Words between a given name and a family name that belong to neither as written elsewhere.
PARTICLES = frozenset(
    "van von der den de da das do dos di del della la le bin bint ibn al el y zu ter ten".split()
)

# Titles of monarchs, their heirs and houses, and the styles written before them ("His Majesty");
# a pope's and a patriarch's, whose names take regnal numbers too.
REGNAL = frozenset(
    "king queen prince princess emperor empress sultan sultanah emir amir sheikha tsar tsarina czar shah "
    "crown grand duke duchess archduke archduchess maharaja maharani raja rajah rani infante infanta "
    "his her majesty royal highness holiness hm hrh hh sm pope patriarch".split()
)
# Titles of clergy and saints, officers' ranks (written out or short: "Lt. Gen."), a professor's,
# and the styles of offices ("Ambassador", "Rt Hon", "Senator").
_RANKS = frozenset(
    "cardinal archbishop bishop rabbi imam ayatollah grand mufti reverend rev father pastor metropolitan "
    "eminence excellency general gen lieutenant lt colonel col major maj brigadier brig admiral adm vice "
    "rear marshal field air chief commander cmdr captain capt professor prof saint ambassador "
    "rt hon honourable honorable senator governor mayor"
    # offices written before a name ("Vice President Sara Z. Duterte", "Statsminister Mette
    # Frederiksen"), a master musician's (Pandit, Ustad), Malaysia's styles ("YAB Dato' Seri Anwar")
    " president presidente minister prime chancellor premier statsminister bundeskanzler bundeskanzlerin"
    " pandit pt ustad ustaad hazrat maulana yab yb dato datuk datin seri"
    # a commander of an order, as Portuguese and Spanish write it before a name ("Comendador Rui Nabeiro")
    " comendador comendadora"
    # Indonesia's ranks ("Letjen (Purn.) Prabowo Subianto": a lieutenant general, retired)
    " jenderal letjen mayjen brigjen laksamana marsekal kolonel"
    # a learned man's in Hausa ("Mallam Nasir El-Rufai"), a Burmese monk's and a Burmese man's
    # ("Ashin Wirathu", "U Thant"), a coach's
    " mallam malam ashin u coach".split()
)
# The same titles as Arabic and Persian write them before a name, each with its article where
# Arabic writes one ("الملك حمد بن عيسى" is King Hamad bin Isa, "الشيخ الدكتور سلطان بن محمد" Sheikh
# Dr Sultan bin Muhammad): king, queen, prince, princess, sheikh, sheikha, sultan, sayyid, doctor,
# president, engineer, professor, imam, hajj; the styles "His (Royal) Highness", "His Majesty",
# "His Excellency"; Persian doctor, engineer, ayatollah ("the grand"), hojatoleslam, "His
# Holiness", seyyed and sheikh, which Persian writes without the article. Without its article an
# Arabic word is a name (سلطان is Sultan Al Jaber's given name), so only the article's form is a
# title.
_ARABIC_TITLES = frozenset(
    "الملك الملكة الأمير الأميرة الشيخ الشيخة السلطان السلطانة السيد السيدة الدكتور الدكتورة الرئيس "
    "المهندس الأستاذ الإمام الحاج الحاجة صاحب السمو الملكي سمو جلالة فخامة معالي سعادة "
    "دکتر مهندس آیت‌الله العظمی حجت‌الاسلام والمسلمین حضرت سید شیخ".split()
)
# Honorifics of two words, one of which may be a name alone ("Tan" is a family name, "Sri" a given
# one): dropped only as the pair, before the name ("Tan Sri Anthony Fernandes", "Datuk Seri ...").
_PAIRS = r"(?:tan|puan|datuk|dato'?|datin|toh)\s+se?ri"
# and offices shortened with a dot, a name's word without it ("Sen. Grace Poe"; Hun Sen, Sen Hoang)
_SHORTENED = r"(?:sen|rep|gov)\."
TITLE_PAIRS = re.compile(rf"^\s*(?:{_PAIRS}|{_SHORTENED})\s+", re.I)
# Styles of more than one word, or written with dots: "The Rt Hon", "H.E." (His or Her Excellency),
# Indonesia's "(Purn.)" after a rank (retired), Malaysia's pairs (`_PAIRS`), Nigeria's "High Chief"
_STYLES = (
    r"the(?=\s+(?:rt|right|most|hon)\b)", r"right", r"most", r"h\.\s?e\.", r"\(purn\.?\)", _PAIRS, _SHORTENED,
    r"high(?=\s+chief\b)",  # a Nigerian chieftaincy style ("High Chief Raymond Dokpesi")
    # Vietnamese styles as written, with their marks (Ong is a family name): Mr, Mrs, Chairman, and
    # Bầu, a football club's patron ("ông Vượng", "Chủ tịch Lê Phước Vũ", "Bầu Đức")
    r"ông", r"bà", r"chủ\s+tịch", r"bầu",
)  # fmt: skip
_OPENING = re.compile(
    r"^\s*(?:(?:"
    + "|".join([*_STYLES, *sorted(REGNAL | _RANKS | _ARABIC_TITLES)])
    + r")[.'’]?\s+)+(?!of\b)(?=\S+\s*\S)",
    re.I,
)  # "Archbishop of Canterbury" is an office, no name
# Thai titles written as one word with the name: Khun, Khunying, Mr, Mrs and Miss (คุณสิริกิติยา,
# "Khun Sirikitiya"), never before a vowel sign (คุณากร is a given name)
_THAI_OPENING = re.compile(r"^\s*(?:คุณหญิง|คุณ|นางสาว|นาง|นาย)(?=[\u0e01-\u0e2e])")
_REGNAL_OPENING = re.compile(r"^\s*(?:(?:" + "|".join(sorted(REGNAL)) + r")\.?\s+)+(?=\S)", re.I)
# A regnal number: I to XXXIX, a word of its own after the given name.
_NUMERAL = re.compile(r"^x{0,3}(?:ix|iv|v?i{0,3})$")
_REALM = re.compile(r"\s+of\s+(?:the\s+)?(.+)$", re.I)


def is_numeral(word: str) -> bool:
    """`word` (folded) is a regnal number: "v", "xvi", "ii"."""
    return bool(word) and bool(_NUMERAL.match(word))


# Degrees and orders after a comma, with or without dots ("J. Craig Venter, Ph.D.", "Jane Doe, M.D.,
# OBE"): not a family name written first; a generation (", Jr.") stays, a name's own
_CLOSING = re.compile(
    r"(?:,\s*(?:"
    + "|".join(sorted(HONORIFICS - {"jr", "sr", "ii", "iii", "iv"}, key=len, reverse=True))
    .replace("phd", r"ph\.?\s?d")
    .replace("mba", r"m\.?b\.?a")
    .replace("md", r"m\.?d")
    + r")\.?)+\s*$",
    re.I,
)


# A Korean name's title after it, as Korean news writes a person ("이재용 회장", chairman; "김동관
# 부회장", vice chairman; "김동선 부사장", vice president): the name alone
_KOREAN_CLOSING = re.compile(
    r"(?<=[\uac00-\ud7a3])\s+(?:명예회장|부회장|회장|부사장|사장|대표이사|대표|전무|상무|의원|대통령|장관|감독|"
    r"위원장|이사장|총재|총장|국회의장)\s*$"
)


def without_titles(name: str) -> str:
    """`name` without the titles that open it (`_THAI_OPENING`'s too) or the degrees (or a Korean
    title, `_KOREAN_CLOSING`) that close it,
    and without the realm after "of" where a title or a regnal number says it is a monarch's: "King
    Harald V of Norway" -> "Harald V", "Cardinal Pietro Parolin" -> "Pietro Parolin"."""
    bare = _KOREAN_CLOSING.sub("", _CLOSING.sub("", _OPENING.sub("", _THAI_OPENING.sub("", name))))
    ws = words(bare)
    royal = bool(_REGNAL_OPENING.match(name)) or any(is_numeral(w) for w in ws[1:])
    return _REALM.sub("", bare) if royal else bare


def given_first(name: str) -> str:
    """A Latin name a roster writes family name first, in capitals ("HARIRI Ayman", as sports bodies
    and parliaments list people), in the order the given name comes first: "Ayman HARIRI"; any
    other name as it is."""
    ws = name.split()
    if len(ws) >= 2 and len(ws[0]) >= 2 and ws[0].isalpha() and ws[0].isupper() and not ws[1].isupper():
        return " ".join([*ws[1:], ws[0]])
    return name


@lru_cache(maxsize=65536)
def regnal(name: str) -> tuple[str, str, str] | None:
    """(given name, number, realm) of a regnal name ("Harald V of Norway" -> ("harald", "v",
    "norway")); None for any other name."""
    bare = _OPENING.sub("", name)
    realm = _REALM.search(bare)
    ws = words(_REALM.sub("", bare))
    if len(ws) != 2 or not is_numeral(ws[1]) or len(ws[0]) < 2:
        return None
    return ws[0], ws[1], " ".join(words(realm.group(1))) if realm else ""


def regnal_evidence(a: str, b: str) -> tuple[float, str] | None:
    """Two regnal names: one name and one number are a whole name, 7 ("King Charles III" /
    "Charles III of the United Kingdom"); two numbers, or two realms stated and different, are two
    monarchs, -5; None when either is no regnal name or their names differ (the other readings
    weigh them)."""
    ra, rb = regnal(a), regnal(b)
    if not (ra and rb) or ra[0] != rb[0]:
        return None
    if ra[1] != rb[1]:
        return -5.0, f"two regnal numbers ({ra[0]} {ra[1]} / {rb[0]} {rb[1]})"
    if ra[2] and rb[2] and ra[2] != rb[2]:
        return -5.0, f"the same regnal name, two realms ({ra[2]} / {rb[2]})"
    return 7.0, f"the same regnal name ({ra[0]} {ra[1]})"


# A Japanese stage name's generation, before the name or in brackets after it ("十代目 松本幸四郎",
# "市川猿之助 (4代目)"): kabuki and rakugo names pass from father to son, each holder numbered,
# which English writes as a regnal number after the name (Matsumoto Kōshirō X)
_GENERATION = r"(初|[一二三四五六七八九十]+|\d+)\s*代目?"
_GENERATION_OPENING = re.compile(rf"^\s*{_GENERATION}\s+")
_GENERATION_CLOSING = re.compile(rf"\s*[(（]\s*{_GENERATION}\s*[)）]\s*$")
_KANJI_DIGITS = {c: n for n, c in enumerate("一二三四五六七八九", 1)}


def _generation_number(written: str) -> int:
    """A generation's number written in digits or kanji ("初" 1, "十八" 18, "二十" 20)."""
    if written == "初":
        return 1
    if written.isdigit():
        return int(written)
    if "十" not in written:
        return _KANJI_DIGITS.get(written, 0)
    tens, _, units = written.rpartition("十")
    return (_KANJI_DIGITS.get(tens, 0) if tens else 1) * 10 + _KANJI_DIGITS.get(units, 0)


def _roman(word: str) -> int:
    """A regnal number's value ("xviii" 18)."""
    values = {"i": 1, "v": 5, "x": 10}
    total = 0
    for at, ch in enumerate(word):
        later = values[word[at + 1]] if at + 1 < len(word) else 0
        total += -values[ch] if values[ch] < later else values[ch]
    return total


def _generation(name: str, *, latin: bool) -> tuple[str, int]:
    """`name` without the generation it writes, and that generation's number (0 for none): a
    Japanese one, or (`latin`) a regnal number closing a name of three words or more."""
    for pattern in (_GENERATION_OPENING, _GENERATION_CLOSING):
        found = pattern.search(name)
        if found:
            return pattern.sub(" ", name).strip(), _generation_number(found.group(1))
    ws = words(name)
    if latin and len(ws) >= 3 and is_numeral(ws[-1]):
        return name.rsplit(None, 1)[0], _roman(ws[-1])
    return name, 0


def generation_evidence(
    a: str, b: str, weigh: Callable[[str, str], tuple[float, str]]
) -> tuple[float, str] | None:
    """Two names, one of them a Japanese stage name written with its generation, weighed by
    `weigh` without their generations: two generations are two holders of the name, -5; one on
    one side only, 2 less (the name's holder may be either); None when neither writes one."""
    if not (_generation(a, latin=False)[1] or _generation(b, latin=False)[1]):
        return None
    (x, at), (y, bt) = _generation(a, latin=True), _generation(b, latin=True)
    weight, said = weigh(x, y)
    if weight <= 0:
        return weight, said
    if at and bt:
        if at != bt:
            return -5.0, f"two generations of one name ({at} / {bt})"
        return weight, f"{said}, the same generation ({at})"
    return weight - 2.0, f"{said}, a generation written on one side"


# A person's title in Chinese, Japanese or Korean -> the English titles it is rendered as: the
# titles one person holds in an organisation (a president, a chairman, a chief executive), not
# those many share (founder, director, professor). Sources: the CC-CEDICT and Wiktionary entries.
TITLES: dict[str, frozenset[str]] = {
    term: frozenset(english)
    for term, english in rendered(
        {
            "总裁 總裁 社長 사장 总统 總統 대통령 校长 校長 총장": "president",
            "董事长 董事長 会長 會長 회장 理事长 理事長": "chairman|chairwoman|chair",
            "首席执行官 首席執行官 行政总裁 行政總裁 最高経営責任者 대표이사 CEO": "ceo|chief executive",
            "首相 总理 總理 国务院总理 國務院總理 국무총리": "prime minister|premier",
            "行长 行長 총재": "governor|president",
        }
    ).items()
}
ONE_HOLDS = frozenset("president chairman chairwoman chair ceo governor premier".split())
