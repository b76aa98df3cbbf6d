"""Japanese people's names written in kanji (and kana), read as the Latin spellings they go by.

anyascii reads kanji in Mandarin (山中伸弥 -> "shan zhong shen mi"), which no Latin spelling of a
Japanese name meets (Shinya Yamanaka). A Japanese name is its family name then its given name,
each a word a dictionary of names reads: `readings("山中伸弥")` tries each place the two may part,
the family name looked up in the dataset's 1,999 family names (one reading each: 山中 yamanaka)
and the given name in its 9,463 given-name readings (伸弥: shinya, nobuya ...), or read as written
when it is kana (大坂なおみ: naomi). A name the dataset does not hold (a rare family name: 石破)
gets no reading: it joins only through what a page states, as before. Source: the
`japanese-personal-name-dataset` package (MIT), its CSV files read once on first use.

A foreign name in katakana ("デーブ・ロバーツ") is read word by word as romaji (`katakana_words`)
and heard as its Latin spelling is (`heard`: the consonants a katakana reading writes, "rbt" for
both "robatsu" and "Roberts").

Readings are folded as Latin spellings of Japanese write them (`latin_key`): a long vowel written
"ou", "oo", "oh" or "o" is one spelling (Ootani, Ohtani, Otani), "uu" is "u" (Yuuki, Yuki), "nm",
"nb", "np" as "m" would write them are one (Homma, Honma).
"""

from __future__ import annotations

import re
from functools import lru_cache

_KANJI = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff々]")
_KANA = re.compile(r"^[\u3041-\u3096\u30a1-\u30fa\u30fcー]+$")
_JAPANESE = re.compile(
    r"^[\u3041-\u3096\u30a1-\u30fa\u30fc\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff々\s・　]+$"
)


# Variant forms of kanji a name keeps (its holder's registered spelling: 髙橋, 山﨑, 𠮷田), as the
# common form the dataset writes. Source: Wikipedia (ja), "異体字" and "人名用漢字", the variants
# family names most often keep.
_VARIANTS = str.maketrans(
    {"髙": "高", "﨑": "崎", "𠮷": "吉", "澤": "沢", "國": "国", "邊": "辺", "邉": "辺", "齋": "斎", "齊": "斉",
     "濱": "浜", "廣": "広", "櫻": "桜", "德": "徳", "嶋": "島", "冨": "富", "眞": "真", "惠": "恵"}
)  # fmt: skip


def latin_key(romaji: str) -> str:
    """A Japanese name's Latin spelling folded to one (module docstring): "Ohtani", "Ootani",
    "Otani" -> "otani"; "Shouhei" -> "shohei"; "Honma", "Homma" -> "honma"."""
    w = re.sub(r"[^a-z]", "", romaji.lower())
    w = re.sub(r"oh(?![aeiouy])", "o", w)
    w = w.replace("ou", "o").replace("oo", "o").replace("uu", "u").replace("aa", "a").replace("ii", "i")
    return re.sub(r"m(?=[bpm])", "n", w)


@lru_cache(maxsize=1)
def _names() -> tuple[dict[str, str], dict[str, frozenset[str]]]:
    """(family name in kanji -> its reading, given name in kanji -> its readings), folded."""
    from japanese_personal_name_dataset import load_dataset  # on first use: 540 KB of CSV

    men, women, last = load_dataset(include_last_names=True)
    family = {kanji: latin_key(entry["en"]) for kanji, entry in last.items()}
    given: dict[str, set[str]] = {}
    for names in (men, women):
        for entry in names.values():
            for kanji in entry["kanji"]:
                given.setdefault(kanji, set()).add(latin_key(entry["en"]))
    return family, {k: frozenset(v) for k, v in given.items()}


def family_reading(kanji: str) -> str | None:
    """The reading of a Japanese family name in kanji the dataset holds ("武田" -> "takeda"), or None."""
    return _names()[0].get(kanji) if _KANJI.search(kanji) else None


def _kana(text: str) -> str:
    from jaconv import kana2alphabet, kata2hira  # here: a cold start needs none of this

    return latin_key(kana2alphabet(kata2hira(text)).replace("-", ""))


@lru_cache(maxsize=65536)
def readings(name: str) -> tuple[tuple[str, str], ...]:
    """(family, given) readings of a Japanese name written in kanji, its given name in kanji or
    kana ("山中伸弥" -> (("yamanaka", "shinya"), ("yamanaka", "nobuya"), ...)); () for a name that
    is not such a name, or one the dataset does not read whole. A space, where written, is where
    the family name ends ("宮本 茂")."""
    text = name.strip()
    if not _JAPANESE.match(text) or not _KANJI.search(text):
        return ()
    parts = text.split()
    splits = [(parts[0], "".join(parts[1:]))] if len(parts) == 2 else []
    joined = "".join(parts)
    if len(parts) == 1:
        splits = [(joined[:k], joined[k:]) for k in range(1, len(joined))]
    family_of, given_of = _names()
    out: list[tuple[str, str]] = []
    for family, given in splits:
        reading = family_of.get(family) or family_of.get(family.translate(_VARIANTS))
        if not reading:
            continue
        forms = (
            {_kana(given)}
            if _KANA.match(given)
            else given_of.get(given) or given_of.get(given.translate(_VARIANTS), frozenset())
        )
        out.extend((reading, g) for g in sorted(forms) if g)
    return tuple(out)


# A foreign name in katakana, its words parted by a middle dot or an equals sign ("デーブ・ロバーツ").
_KATAKANA_NAME = re.compile(r"^[\u30a1-\u30fa\u30fc]+(?:[・＝=\s][\u30a1-\u30fa\u30fc]+)+$")
# Spellings a Latin name and a katakana reading write one sound with, each as one letter: th, sh, ch
# heard as s, s, t; v as b, l as r, z as s, c before e, i, y as s; w, y and h left out (ウォルター
# "uoruta" / Walter).
_HEARD = (
    ("ph", "f"),
    ("th", "s"),
    ("sh", "s"),
    ("ch", "t"),
    ("ck", "k"),
    ("ts", "t"),
    ("x", "ks"),
    ("q", "k"),
)
_HEARD_LETTERS = str.maketrans({"v": "b", "l": "r", "z": "s", "c": "k", "w": None, "y": None, "h": None})


def katakana_words(name: str) -> list[str] | None:
    """The words of a foreign name written in katakana, read as Hepburn romaji ("デーブ・ロバーツ" ->
    ["debu", "robatsu"]); None for any other name (one word, or other scripts)."""
    text = name.strip()
    if not _KATAKANA_NAME.match(text):
        return None
    return [_kana(w) for w in re.split(r"[・＝=\s]+", text) if w]


def heard(word: str) -> str:
    """A word's consonants as a katakana reading writes them, for a Latin spelling and a romaji
    reading alike: the spellings of one sound made one letter (`_HEARD`), an r after a vowel and
    before a consonant or the word's end left out (English does not sound it: Roberts, ロバーツ
    "robatsu"), vowels dropped and a letter doubled written once: "Roberts" and "robatsu" are "rbt",
    "Valentine" and "barentain" "brntn"."""
    w = re.sub(r"[^a-z]", "", word.lower())
    for spelled, one in _HEARD:
        w = w.replace(spelled, one)
    w = re.sub(r"c(?=[eiy])", "s", w)
    w = re.sub(r"(?<=[aeiou])r(?![aeiouy])", "", w).translate(_HEARD_LETTERS)
    return re.sub(r"(.)\1+", r"\1", re.sub(r"[aeiou]", "", w))
