"""Names written in the Brahmic scripts of South Asia (Devanagari, Bengali, Gurmukhi, Gujarati,
Oriya, Tamil, Telugu, Kannada, Malayalam) read as their Latin spellings write them.

anyascii spells each letter alone: a consonant without its inherent vowel, so पवन हंस reads "pvn
hms" and రహమాన్ "rhmn", which only a name's consonants can be compared by. `reading` spells each
consonant with the vowel it carries, the inherent "a" where no vowel sign, virama or other letter
takes its place, as the Latin spellings of Indian names do: पवन हंस "pavan hans", పవన్ కళ్యాణ్ "pavan
kalyan". In the northern scripts the inherent vowel is silent at a word's end and between a vowel
and a consonant that carries one (Hindi's schwa deletion: शिवकुमार "shivkumar", रहमान "rahman",
तेंदुलकर "tendulkar"); in the southern ones a name ends with a virama where it ends in a
consonant. Letters are told apart by their place in their script's block of 128: Unicode laid the
nine scripts out alike (ISCII's order), so one table reads them all. Thai, of the same family,
writes some vowels before the consonant they follow (แสนสิริ, "saensiri"; anyascii: "aesnsiri"):
`reading` puts them after it.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

_FIRST, _LAST = 0x0900, 0x0D7F
_NORTH = frozenset({0x0900, 0x0980, 0x0A00, 0x0A80, 0x0B00})  # Devanagari to Oriya: schwa deletion
_VIRAMA, _NUKTA, _ANUSVARA, _CANDRABINDU, _VISARGA = 0x4D, 0x3C, 0x02, 0x01, 0x03
# A consonant's Latin letters by its Unicode name's syllable, where they differ from the syllable
# without its "a": retroflex letters as their dental ones, the palatal ca as "ch", its aspirate "chh"
_SPELLED = {"c": "ch", "ch": "chh", "tt": "t", "tth": "th", "dd": "d", "ddh": "dh", "nn": "n", "nnn": "n",
            "ng": "n", "ny": "n", "ss": "sh", "ll": "l", "lll": "l", "rr": "r", "khh": "kh",
            "ghh": "gh", "dddh": "rh", "yy": "y"}  # fmt: skip
# A consonant with a nukta below, as Urdu's and Persian's sounds are written in Devanagari (ज़ z, फ़ f)
_NUKTA_SPELLED = {"j": "z", "ph": "f", "k": "q", "kh": "kh", "g": "gh", "d": "r", "dh": "rh"}
# Vowel signs and letters by their Unicode names' last words
_VOWELS = {"a": "a", "aa": "a", "i": "i", "ii": "i", "u": "u", "uu": "u", "e": "e", "ee": "e", "ai": "ai",
           "o": "o", "oo": "o", "au": "au", "vocalic r": "ri", "vocalic rr": "ri", "short e": "e",
           "short o": "o", "candra e": "e", "candra o": "o", "vocalic l": "li"}  # fmt: skip
# Assamese's own letters in the Bengali block, which Unicode names as kinds of ra, not by their
# sounds: ৰ r (ৰীমা দাস, Rima Das), ৱ w (বৰুৱা, Barua)
_ASSAMESE = {"\u09f0": "r", "\u09f1": "w"}
_BENGALI = 0x0980
_TAMIL, _MALAYALAM = 0x0B80, 0x0D00
# Letters Tamil and Malayalam say by the letters beside them (`_southern`), marked here: the alveolar
# ற and റ ("R"), Tamil's ச ("C"), and Tamil's aytham ஃ, which makes the ப after it an f (ஃபாஸ்னர்ஸ்,
# fasteners; எஃப், F) and the ஜ a z
_SOUTHERN_MARKED = {"\u0bb1": ("consonant", "R"), "\u0d31": ("consonant", "R"), "\u0b9a": ("consonant", "C"),
                    "\u0b83": ("aytham", "")}  # fmt: skip
_AYTHAM = {"p": "f", "j": "z"}
_BRAHMIC = re.compile(r"[\u0900-\u0d7f]")
_TELUGU = 0x0C00


def has_brahmic(text: str) -> bool:
    """Whether `text` holds a letter of a Brahmic script of South Asia."""
    return bool(_BRAHMIC.search(text))


def _offset(ch: str) -> tuple[int, int] | None:
    """(the script's block, the letter's place in it), or None outside the nine scripts."""
    code = ord(ch)
    if not _FIRST <= code <= _LAST:
        return None
    block = _FIRST + (code - _FIRST) // 0x80 * 0x80
    return block, code - block


def _kind(ch: str) -> tuple[str, str]:
    """(its kind: "consonant", "vowel", "sign" (a vowel sign), "mark" (a nasal or visarga),
    "virama", "nukta" or "other"; its Latin letters) for one character."""
    found = _offset(ch)
    if found is None:
        return "other", ch
    block, off = found
    if ch in _SOUTHERN_MARKED:
        return _SOUTHERN_MARKED[ch]
    if off == _VIRAMA:
        return "virama", ""
    if (block, off) == (_BENGALI, _ANUSVARA):  # Bengali's ং is always ng (বাংলা, Bangla; রংপুর, Rangpur)
        return "mark", "ng"
    if off == _NUKTA:
        return "nukta", ""
    if off in (_ANUSVARA, _CANDRABINDU) or (block, off) == (0x0A00, 0x70):  # and Gurmukhi's tippi
        return "mark", "n"
    if off == _VISARGA:
        return "mark", "h"
    if ch in _ASSAMESE:
        return "consonant", _ASSAMESE[ch]
    name = unicodedata.name(ch, "").lower()
    if " letter khanda " in name or " letter chillu " in name:  # a consonant with no vowel: ৎ t, ൻ n
        bare = name.rsplit(" ", 1)[1].removesuffix("a")
        return "final", _SPELLED.get(bare, bare)
    if " vowel sign " in name:
        return "sign", _VOWELS.get(name.split(" vowel sign ", 1)[1], "")
    if " letter " in name:
        syllable = name.split(" letter ", 1)[1]
        if syllable in _VOWELS:
            return "vowel", _VOWELS[syllable]
        if syllable.endswith("a") and syllable.isalpha():
            bare = syllable[:-1]
            return "consonant", _SPELLED.get(bare, bare)
    return "other", ""


# A Thai vowel written before its consonant (เ แ โ ใ ไ), or before the two of a cluster (ปร, คล,
# กว ...: a stop, then ร, ล or ว with no vowel of its own), which it follows both
_THAI_LEADING = re.compile(
    r"([\u0e40-\u0e44])([กขคตบปพ][รลว](?![\u0e30-\u0e39\u0e47-\u0e4e])|[\u0e01-\u0e2e])"
)


@lru_cache(maxsize=65536)
def reading(text: str) -> str:
    """`text` with every run of a Brahmic script spelled as a Latin spelling of the name would be
    (module docstring), a Thai vowel after the consonant it follows; the rest of `text` unchanged."""
    text = _THAI_LEADING.sub(r"\2\1", text)
    if not has_brahmic(text):
        return text
    # NFC: Bengali's ো is one sign, not ে and া; ज़ stays ज and its nukta (a composition exclusion)
    text = unicodedata.normalize("NFC", text)
    return re.sub(r"[\u0900-\u0d7f]+", _word, text)


def _word(run: re.Match[str]) -> str:
    """One run of Brahmic letters spelled: syllables of consonants and the vowel each carries."""
    chars = run.group(0)
    found = _offset(chars[0])
    north = found is not None and found[0] in _NORTH
    # each syllable: [consonant letters, vowel, inherent, nasal...]; a vowel letter is one of its own
    syllables: list[list[str | bool]] = []
    aytham = False
    for ch in chars:
        kind, latin = _kind(ch)
        if kind == "aytham":
            aytham = True
            continue
        if kind in ("consonant", "final"):
            _consonant(syllables, _AYTHAM.get(latin, latin) if aytham else latin)
            if kind == "final":
                _mark(syllables[-1], "virama", "")
        elif kind == "vowel":
            syllables.append(["", latin, False])
        elif syllables:
            _mark(syllables[-1], kind, latin)
        aytham = False
    if found is not None and found[0] in (_TAMIL, _MALAYALAM):
        _southern(syllables, found[0])
    if found is not None and found[0] == _BENGALI:
        _bengali_w(syllables)
    if north:
        _delete_schwas(syllables)
    said = "".join(
        _spelled(s, syllables[i + 1] if i + 1 < len(syllables) else None, north)
        for i, s in enumerate(syllables)
    )
    # Telugu writes the Rao of a name రావు, "ravu"
    return said[:-3] + "ao" if found is not None and found[0] == _TELUGU and said.endswith("avu") else said


def _bengali_w(syllables: list[list[str | bool]]) -> None:
    """Bengali writes a w as the vowel ও before য় (ওয়াহিদ, Wahid; বাওয়ানী, Bawany): one "w" with
    the vowel য় carries, not "oya"."""
    for i in range(len(syllables) - 2, -1, -1):
        if syllables[i] == ["", "o", False] and syllables[i + 1][0] == "y":
            syllables[i + 1][0] = "w"
            del syllables[i]


# A Tamil cluster as Latin spellings write it: ட்ச the Sanskrit ksh (லட்சுமி, Lakshmi), ற்ற "tr"
# (வெற்றி, Vetri), ன்ற "ndr" (மன்றம், mandram)
_TAMIL_CLUSTERS = {("t", "C"): "ksh", ("R", "R"): "tr", ("n", "R"): "ndr"}


def _southern(syllables: list[list[str | bool]], block: int) -> None:
    """Tamil's and Malayalam's letters as the letters beside them say them (`_SOUTHERN_MARKED`):
    Malayalam's റ a t in a cluster (റ്റ "tt", ന്റ "nt": കൊശമറ്റം, Kosamattam; സ്റ്റേറ്റ്, state), r
    alone; Tamil's ச an s opening a word (சுந்தரம், Sundaram; சிட்டி, city), ch elsewhere (நடராசன்,
    Natarajan, whose ch Latin spellings write j), and its clusters as `_TAMIL_CLUSTERS` write them."""
    for i, s in enumerate(syllables):
        parts = str(s[0]).split("+")
        if block == _MALAYALAM:
            parts = [("t" if len(parts) > 1 else "r") if p == "R" else p for p in parts]
        else:
            pair = tuple(parts[-2:])
            if pair in _TAMIL_CLUSTERS:
                parts[-2:] = [_TAMIL_CLUSTERS[pair]]
            parts = [{"R": "r", "C": "s" if i == 0 and len(parts) == 1 else "ch"}.get(p, p) for p in parts]
        s[0] = "+".join(parts)


def _consonant(syllables: list[list[str | bool]], latin: str) -> None:
    """A consonant: a syllable of its own with the inherent vowel, or after a virama one cluster
    with the consonant before it ("+" marks it, for `_delete_schwas`)."""
    last = syllables[-1] if syllables else None
    if last is not None and last[1] == "" and not last[2] and len(last) == 3:
        last[0] = f"{last[0]}+{latin}"
        last[1], last[2] = "a", True
    else:
        syllables.append([latin, "a", True])


def _mark(last: list[str | bool], kind: str, latin: str) -> None:
    """A sign on the syllable `last`: a nukta changes its consonant, a virama silences its vowel,
    a vowel sign replaces it, a nasal mark follows it."""
    if kind == "nukta":
        consonant = str(last[0])
        plain = next((p for p in _NUKTA_SPELLED if consonant.endswith(p)), None)
        if plain is not None:
            last[0] = consonant[: -len(plain)] + _NUKTA_SPELLED[plain]
    elif kind == "virama":
        last[1], last[2] = "", False
    elif kind == "sign":
        last[1], last[2] = latin, False
    elif kind == "mark":
        last.append(latin)


def _delete_schwas(syllables: list[list[str | bool]]) -> None:
    """Hindi's schwa deletion, right to left: an inherent vowel at the word's end, but after a
    cluster (नरेन्द्र "narendra"), and one of a single consonant between a vowel and a single
    consonant that carries one (চক্রবর্তী "chakrabarti", not "chakrbarti"), is silent (not the first syllable's, nor one a nasal follows: हंस "hans")."""
    for i in range(len(syllables) - 1, 0, -1):
        s = syllables[i]
        if not s[2] or len(s) > 3:
            continue
        if i == len(syllables) - 1:
            if "+" not in str(s[0]):
                s[1], s[2] = "", False
            continue
        after = syllables[i + 1]
        single = "+" not in str(s[0]) and "+" not in str(after[0])  # VC_CV: one consonant either side
        if single and syllables[i - 1][1] and after[0] and after[1]:
            s[1], s[2] = "", False


def _spelled(s: list[str | bool], after: list[str | bool] | None, north: bool) -> str:
    """A syllable's letters; a nasal mark before p, b or m as "m", before h as "ng" (सिंह "singh"),
    closing a word of a southern script as "m" (కల్లం, Kallam; കേരളം, Keralam)."""
    nasal = "".join(str(x) for x in s[3:])
    if nasal == "n" and (str(after[0])[:1] in ("p", "b", "m") if after is not None else not north):
        nasal = "m"
    elif nasal == "n" and after is not None and str(after[0])[:1] == "h":
        nasal = "ng"
    return f"{str(s[0]).replace('+', '')}{s[1]}{nasal}"


# Latin spellings of Indian names that one Brahmic letter writes: long vowels doubled or not
# (Vineeta / विनीता "vinita", Haasan), w or v (व), ph or f, an aspirate's h after t or d or not
# (Srinath / श्रीनाथ), ou or au (Sourav / सौरव "saurav"), a letter written twice once
_SPELLINGS = (("ee", "i"), ("oo", "u"), ("aa", "a"), ("ii", "i"), ("uu", "u"), ("ou", "au"), ("w", "v"),
              ("ph", "f"), ("th", "t"), ("dh", "d"), ("ck", "k"), ("q", "k"), ("x", "ks"))  # fmt: skip


def spelling_key(folded: str) -> str:
    """A folded name (a Brahmic reading or a Latin spelling) with `_SPELLINGS` made one: the Latin
    spellings of one Indian name and its reading agree ("vineeta singh" and "vinita singh")."""
    key = folded.lower()
    for written, one in _SPELLINGS:
        key = key.replace(written, one)
    return re.sub(r"([a-z])\1+", r"\1", key)


# Bengali family names English writes in their anglicized forms (Sourav Ganguly: সৌরভ গঙ্গোপাধ্যায়,
# Gangopadhyay; Rabindranath Tagore: ঠাকুর, Thakur). Source: Wikipedia, "Bengali Hindu surnames" and
# the articles of the Kulin Brahmin names.
_ANGLICIZED = {
    **dict.fromkeys(("chatterjee", "chatterji", "chaterjee"), "chattopadhyay"),
    **dict.fromkeys(("banerjee", "banerji", "bannerjee"), "bandyopadhyay"),
    **dict.fromkeys(("mukherjee", "mukherji", "mukerji", "mookerjee"), "mukhopadhyay"),
    **dict.fromkeys(("ganguly", "ganguli"), "gangopadhyay"),
    "tagore": "thakur",
}
_ANGLICIZED_WORD = re.compile(r"\b(" + "|".join(_ANGLICIZED) + r")\b", re.I)


def bengali_spelling(name: str) -> str:
    """A Latin name with a Bengali family name in its anglicized form written as Bengali spells it
    ("Sourav Ganguly" -> "Sourav gangopadhyay"); `name` as it is otherwise."""
    return _ANGLICIZED_WORD.sub(lambda m: _ANGLICIZED[m.group(1).lower()], name)
