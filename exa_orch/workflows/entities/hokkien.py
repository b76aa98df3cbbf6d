"""Chinese names in characters read as Hokkien, the way Southeast Asia spells them in Latin letters.

The Chinese of Singapore, Malaysia, Indonesia and the Philippines mostly write their names as
Hokkien (or Teochew) sounds them, a syllable a character: 李光前 is Lee Kong Chian, 郭令明 Kwek Leng
Beng, 胡文虎 Aw Boon Haw, 陳覺中 Tony Tan Caktiong. Pinyin (lǐ guāngqián) and Cantonese (gwong chin)
spell them otherwise. `spells(chars, latin)` says whether Latin syllables are the readings of
characters, one each: every reading taibun's dictionary gives a character (Tâi-lô, MIT: literary and
colloquial, 林 lîm and nâ), each spelled as those countries' names do (`_SPELLINGS`: Tâi-lô's ts as
ch, its oo as o, oh or aw, ing as eng, ua as oa), and both sides written alike (`_canonical`: the
aspirate's h, a letter written twice, a q for kw). There is no single Hokkien spelling, so a reading is
evidence of a name, never of a person alone: person_evidence still asks for an employer and a title.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from exa_orch.workflows.entities.names import is_latin, words
from exa_orch.workflows.entities.scripts import name_parts, syllabic
from exa_orch.workflows.entities.titles import GENERATION

# Tâi-lô's sounds as Southeast Asian spellings of names write them, each tried with those before it:
# ts and tsh as ch (祖 tsóo: Cho), oo as o, oh or aw (胡 ôo: Aw, 虎 hóo: Haw), au as aw (耀 iāu: Yaw),
# ing and ik as eng and ek (明 bîng: Beng, 令 līng: Leng), ua and ue as oa and oe or wa and we (蔡
# tshuà: Chua, 郭 kueh: Kwek, a closing h as a k), u as oo (文 bûn: Boon), an opening ng as g (梧 ngôo:
# Goh), an opening i as y and one after a consonant as e before a or o (拱 kióng: Keong, 佘 siâ: Seah),
# j as l or z (the sound Tâi-lô writes j varies by town).
_SPELLINGS = (
    (r"tsh|ts", ("ch", "ts", "c")),
    (r"oo", ("o", "oh", "aw")),
    (r"au", ("au", "aw", "ow")),
    (r"ing\b", ("ing", "eng")),
    (r"ik\b", ("ik", "ek")),
    (r"ua", ("ua", "oa", "wa")),
    (r"ue", ("ue", "oe", "we")),
    (r"(?<=[aeiou])h\b", ("h", "", "k")),
    (r"(?<![a-z])u|(?<=[^aeiou])u(?=n\b)", ("u", "oo")),
    (r"\bng(?=[aeiou])", ("ng", "g")),
    (r"\bi(?=[aeiou])", ("i", "y")),
    (r"(?<=[a-z])i(?=[ao])", ("i", "e")),
    (r"\bj", ("j", "l", "z")),
)
_MOST = 48  # spellings of one reading kept: the rules above multiply


def _canonical(spelled: str) -> str:
    """A syllable in Latin letters written one way on both sides: the aspirate's h (chh, kh, ph, th)
    and Dutch spellings (tj ch, dj j, oe u: Tjong, Oei) as plain, q as k, ee as i (Lee), a c as k
    but in ch, a letter written twice once, a closing h after a vowel dropped."""
    s = spelled.lower()
    for written, said in (("chh", "ch"), ("tj", "ch"), ("dj", "j"), ("kh", "k"), ("ph", "p"), ("th", "t"),
                          ("qu", "kw"), ("oe", "u"), ("ee", "i")):  # fmt: skip
        s = s.replace(written, said)
    s = re.sub(r"c(?!h)", "k", s)
    # a letter written twice once (Tock, Boon), and a closing h after a vowel unsaid (Goh, Kah)
    return re.sub(r"(?<=[aeiou])h$", "", re.sub(r"(.)\1", r"\1", s))


@lru_cache(maxsize=1)
def _readings_table() -> tuple[dict[str, list[str]], object]:
    # on first use: 1.2 MB of dictionary a cold start needs none of
    from taibun.taibun import prons_dict, to_traditional

    return prons_dict, to_traditional


def _plain(reading: str) -> str:
    """A Tâi-lô reading without its tone marks and nasal mark (-nn)."""
    bare = "".join(c for c in unicodedata.normalize("NFD", reading) if not unicodedata.combining(c))
    return re.sub(r"nn$", "", bare.lower().replace("ⁿ", ""))


@lru_cache(maxsize=8192)
def spellings(char: str) -> frozenset[str]:
    """Every Latin spelling (`_canonical`) of a Chinese character's Hokkien readings; empty for a
    character the dictionary lacks."""
    table, traditional = _readings_table()
    read = table.get(char) or table.get(traditional(char), [])  # type: ignore[operator]
    out: set[str] = set()
    for entry in read:
        for reading in entry.split("/"):
            forms = {_plain(reading)}
            for pattern, spelled in _SPELLINGS:
                forms |= {re.sub(pattern, s, f) for f in forms for s in spelled if re.search(pattern, f)}
                if len(forms) > _MOST:
                    break
            out |= {_canonical(f) for f in forms if f.isalpha()}
    return frozenset(out)


def spells(chars: str, latin: list[str]) -> bool:
    """Whether the Latin syllables `latin` (written apart, hyphenated or run together: "Kong Chian",
    "Caktiong") are the characters `chars` read in Hokkien, one syllable a character, in order."""
    joined = "".join(_canonical(w) for w in latin)
    return bool(chars) and _cut(chars, joined)


def _cut(chars: str, rest: str) -> bool:
    if not chars:
        return not rest
    own = spellings(chars[0])
    return any(rest.startswith(s) and _cut(chars[1:], rest[len(s) :]) for s in own if s)


# What a name read in Hokkien weighs: as a name read kanji by kanji (people._by_kanji), one less than
# a dictionary's reading, for a reading is one of a dialect's several spellings
READ_WEIGHT = 5.0


def read_as(a: str, b: str) -> tuple[float, str] | None:
    """A name in Chinese characters and a Latin one that is its Hokkien reading, family name and every
    syllable of a given name of two characters or more (`spells`), the family name first after one
    or two English given names ("Tony Tan Caktiong" / 陳覺中) or none ("Kwek Leng Beng" / 郭令明), or
    last ("Leng Beng Kwek"): (`READ_WEIGHT`, why); None otherwise, and for a name that writes a
    generation ("Henry Sy, Jr."): a father or a son of one name."""
    for written, latin in ((a, b), (b, a)):
        parts, read = name_parts(written), syllabic(written)
        if parts is None or read is None or read.korean or not is_latin(latin):
            continue
        family, given = ("".join(p) for p in parts)
        said = words(latin)
        if len(given) < 2 or GENERATION.keys() & set(said):
            continue
        cuts = [(said[k], said[k + 1 :]) for k in range(min(3, len(said) - 1))] + [(said[-1], said[:-1])]
        for surname, rest in cuts:
            if (surname in read.spellings or spells(family, [surname])) and spells(given, rest):
                return READ_WEIGHT, f"{written} read in Hokkien as {latin}"
    return None
