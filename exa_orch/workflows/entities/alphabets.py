"""Names in the alphabets anyascii spells letter by letter (Cyrillic, Greek, Armenian, Georgian),
and Latin names in Azerbaijani or Uzbek letters, spelled as their usual Latin spellings write them.

`cyrillic` spells a Cyrillic name in Latin letters (Kazakh letters as Russian ones), `greek` the
Greek letter pairs that are one sound, `armenian` Armenian ու; `sounded` spells a folded Latin name
as its sounds go, so that a name read out of an alphabet meets the spelling it is known by
(Филипп / Philipp); `read_otherwise` gives the other readings a letter has where the other
name's spelling says so (a Cyrillic Г as h, a Greek η as e); `turkic_spelled` writes Azerbaijani
and Uzbek letters as English spellings of those names do. people.py reads person names with them, evidence.py company names.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

_CYRILLIC = re.compile(r"[\u0400-\u04ff]")


def cyrillic(name: str) -> str | None:
    """A name in Cyrillic letters spelled in Latin ones as its usual romanizations write it: anyascii
    (before accents are folded away: й is "y", not "i"), "-iy" endings as "-y" ("Евгений
    Касперский" -> "Evgeny Kaspersky"), Kazakh letters as Russian ones (`_KAZAKH`); None for a name
    with no Cyrillic letter."""
    if not _CYRILLIC.search(name):
        return None
    from anyascii import anyascii

    return re.sub(r"iy\b", "y", anyascii(name.translate(_KAZAKH)).replace("'", ""))


# Latin letters that spell one Cyrillic letter (Ч ch, Ц ts, Ш sh, Ж zh, Х kh, Я ya, Ю yu, Щ shch): a
# name's initials in Cyrillic read so ("ЧЦЗ", "chtsz", are those of "Челябинский цинковый завод")
CYRILLIC_DIGRAPHS = ("shch", "ch", "ts", "sh", "zh", "kh", "ya", "yu")
# Where a compound word's next stem begins: after the vowel "o" or "e" Russian and Ukrainian join
# stems with (электро-металлургический, ново-трубный, хлібо-продукт), as spelled in Latin letters
_STEM = re.compile(r"(?<=[a-z]{3}[oe])(?:shch|ch|ts|sh|zh|kh|[b-df-hj-np-tv-z])(?=[a-z]{3})")


@lru_cache(maxsize=65536)
def compound_initials(words: tuple[str, ...]) -> frozenset[str]:
    """The initials of a name's words spelled in Latin letters, each word's first letter, or that and
    the first of one more of its stems where it is a compound (`_STEM`): the initialisms Russian and
    Ukrainian industry names take (ЧЭМК, "chemk", of Челябинский электрометаллургический комбинат;
    ПНТЗ of Первоуральский новотрубный завод; МХП of Миронівський хлібопродукт); cached: names_agree
    asks it of two names of which one is written longer than the other's words number."""
    ways = {""}
    for w in words[:6]:
        opens = {w[0], *(d for d in CYRILLIC_DIGRAPHS if w.startswith(d))}
        firsts = opens | {f + m.group() for f in opens for m in _STEM.finditer(w)}
        ways = {o + f for o in ways for f in firsts}
    return frozenset(ways)


def cyrillic_initials(name: str) -> str:
    """The initials of a name of three Cyrillic words or more, spelled as `cyrillic` spells the
    letters ("Челябинский цинковый завод" -> "chtsz", as ЧЦЗ is spelled; a hyphen parts two words),
    a legal form in capitals (ООО, ПАО) left out; "" otherwise."""
    said = [w for w in re.findall(r"[\u0400-\u04ff]+", name) if not (w.isupper() and len(w) <= 4)]
    return (cyrillic("".join(w[0].upper() for w in said)) or "").lower() if len(said) >= 3 else ""


# Letters read otherwise where the other name's spelling says so (`read_otherwise`): a Cyrillic Г
# as the h of Belarusian and Ukrainian, and of a foreign name in Russian (Глеб, Hleb; Герман,
# Herman); a Greek η as the e of the older spellings Cyprus keeps (Κληρίδης, Clerides; Δημητρίου,
# Demetriou); a Greek αυ or ευ before a voiceless consonant as af or ef, as ELOT 743 writes it
# (Γλαύκος, Glafkos; fold writes av, which older spellings keep: Evthimios)
_READ_OTHERWISE = (
    (re.compile("[Гг]"), lambda m: "H" if m.group() == "Г" else "h", "h"),
    (re.compile("[ηήΗΉ]"), lambda m: "εέΕΈ"["ηήΗΉ".index(m.group())], "e"),
    (re.compile("([αεΑΕ])[υύ](?=[θκξπστφχψς]|\\b)"), lambda m: m.group(1) + "φ", "f"),
)


def read_otherwise(a: str, b: str) -> list[tuple[str, str]]:
    """Two names as written, and with letters of the one read as `_READ_OTHERWISE` says where the
    other writes what they would be heard as, each reading on those before: in every word, and (a
    name may mix the spellings: Ioannis Clerides, Ιωάννης Κληρίδης) in one word alone."""
    pairs = [(a, b)]
    for x, y, first in ((a, b, True), (b, a, False)):
        said = [x]
        for letters, read, heard in _READ_OTHERWISE:
            if letters.search(x) and heard in y.lower():
                said += [r for n in said for r in _read_words(n, letters, read) if r not in said]
        pairs.extend(((s, y) if first else (y, s)) for s in said[1:])
    return pairs


def _read_words(name: str, letters: re.Pattern[str], read: Callable[[re.Match[str]], str]) -> list[str]:
    """`name` with `letters` replaced by `read` in every word, and in each word alone."""
    ws = name.split()
    alone = (" ".join([*ws[:i], letters.sub(read, w), *ws[i + 1 :]]) for i, w in enumerate(ws))
    return [r for r in dict.fromkeys([letters.sub(read, name), *alone]) if r != name]


# Letters Kazakh and Kyrgyz add to Cyrillic, as Latin spellings of their names write them, a k, a g
# and an n (Тоқаев, Tokayev; anyascii: q, gh, ng)
_KAZAKH = str.maketrans("ҚқҒғҢң", "КкГгНн")


_GREEK = re.compile(r"[\u0370-\u03ff]")
# Greek letter pairs read as one sound, which anyascii spells letter by letter ("ου" oy, "γγ" gg):
# as the names' usual Latin spellings write them (ELOT 743, and a word's first μπ, ντ, γκ as
# heard): Ποστέκογλου Postekoglou, Ευάγγελος Evangelos, Μπάμπης Babis, Ντίνος Dinos.
_GREEK_PAIRS = (
    (re.compile(r"\b(μπ|ντ|γκ)"), lambda m: {"μπ": "b", "ντ": "d", "γκ": "g"}[m.group(1)]),
    (re.compile(r"ου"), lambda m: "ou"),
    (re.compile(r"γγ"), lambda m: "ng"),
    (re.compile(r"([αε])υ"), lambda m: {"α": "av", "ε": "ev"}[m.group(1)]),
)


def greek(text: str) -> str:
    """`text` with the Greek letter pairs that are one sound spelled as the names' Latin spellings
    write them (_GREEK_PAIRS), the rest left to anyascii; `text` unchanged when it has no Greek
    letter. Accents must be gone already (fold's NFKD): "ού" would not be "ου"."""
    if not _GREEK.search(text):
        return text
    low = text.lower()
    for pattern, spelled in _GREEK_PAIRS:
        low = pattern.sub(spelled, low)
    return low


def armenian(text: str) -> str:
    """`text` with Armenian ու, one vowel, spelled u as the names' Latin spellings write it (anyascii
    spells it letter by letter: Արթուր "art'owr", Artur; Սիրուշո Sirusho)."""
    return text.replace("ու", "u").replace("Ու", "U").replace("ՈՒ", "U")


# Alphabets whose letters anyascii spells one by one, vowels and all: Cyrillic, Greek, Armenian,
# Georgian. A name in one reads close to its Latin spelling, not always as it (Филипп / Philipp,
# Дивац / Divac, Լևոն / Levon).
ALPHABETS = re.compile(r"[\u0370-\u03ff\u0400-\u04ff\u0530-\u058f\u10a0-\u10ff]")
# Spellings of one sound, in order: dzh, dj and zh are a j (Джамала: Dzhamala, Jamala; Жапаров:
# Zhaparov, Japarov), ts and tz are a c (Serbian and Croatian write ц so), a c is a k or, before e,
# i or y, an s; ph f, th t, kh and ch h (Х and χ, written kh, ch or h), w v, y and j i, x ks, ou u
# (Greek ου), gk g (Greek γκ), then a letter written twice once.
_SOUNDED = (("dzh", "j"), ("dj", "j"), ("zh", "j"), ("tz", "c"), ("ts", "c"), ("ph", "f"), ("th", "t"),
            ("kh", "h"), ("ch", "h"), ("w", "v"), ("y", "i"), ("j", "i"), ("x", "ks"), ("ou", "u"),
            ("gk", "g"))  # fmt: skip

# Azerbaijani's Latin letters as the English spellings of its names write them, most by way of
# Russian: ə a, c j, ç ch, ş sh, x kh, q g, ğ gh, ı i (Rəcəbov: Radjabov, Vüqar: Vugar, Şəhriyar:
# Shakhriyar). A name with one of ə ş ç ğ ı is read so (`turkic_spelled`); Turkish shares all but ə.
_AZERI = str.maketrans({"ə": "a", "Ə": "A", "c": "j", "C": "J", "ç": "ch", "Ç": "Ch", "ş": "sh", "Ş": "Sh",
                        "x": "kh", "X": "Kh", "q": "g", "Q": "G", "ğ": "gh", "Ğ": "Gh", "ı": "i", "İ": "I"})  # fmt: skip
_AZERI_LETTER = re.compile(r"[əƏşŞçÇğĞıİ]")


# Uzbek's Latin letters as English and Russian spellings of Uzbek names write them: oʻ u, gʻ gh, x
# kh, q k (Ixtiyor Navroʻzov: Ikhtiyor Navruzov). A name with oʻ or gʻ (ʻ or ‘, never the apostrophe
# of O'Brien) is read so.
_UZBEK = (
    ("oʻ", "u"),
    ("Oʻ", "U"),
    ("gʻ", "gh"),
    ("Gʻ", "Gh"),
    ("x", "kh"),
    ("X", "Kh"),
    ("q", "k"),
    ("Q", "K"),
)
_UZBEK_LETTER = re.compile(r"[oOgG][ʻ‘]")


def turkic_spelled(name: str) -> str | None:
    """A Latin name with Azerbaijani (or Turkish) or Uzbek letters spelled as English spellings of
    such names write it (`_AZERI`: "Teymur Rəcəbov" -> "Teymur Rajabov"; `_UZBEK`: "Ixtiyor
    Navroʻzov" -> "Ikhtiyor Navruzov"); None for a name with none of them."""
    if _UZBEK_LETTER.search(name):
        name = name.replace("‘", "ʻ")
        for written, said in _UZBEK:
            name = name.replace(written, said)
        return name
    return name.translate(_AZERI) if _AZERI_LETTER.search(name) else None


def sounded(text: str) -> str:
    """Folded Latin `text` spelled as its sounds go (`_SOUNDED`), so that a name read out of an
    alphabet (`ALPHABETS`) meets the Latin spelling it is known by: "filipp kirkorov" and "philipp
    kirkorov" both "filip kirkorov", "vlade divats" and "vlade divac" both "vlade divak"."""
    # a y between vowels is a glide one spelling writes and another leaves out (Токаев: Tokaev,
    # Tokayev)
    text = re.sub(r"(?<=[aeiou])y(?=[aeiou])", "", text)
    for two, one in _SOUNDED:
        text = text.replace(two, one)
    text = re.sub(r"c(?=[eiy])", "s", text).replace("c", "k")
    return re.sub(r"(.)\1+", r"\1", text)
