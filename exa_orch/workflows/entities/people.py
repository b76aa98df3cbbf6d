"""People's names: read in every order they are written in, and how two written names agree.

`name_evidence(a, b)` says how two written names of people agree: a weight (log-odds-like: what
the agreement adds to the case that they are one person) and the reason, the best over the ways
each name can be read (`parse`):
- given names first, family name last ("Heung-min Son"), or family name first ("Son Heung-min",
  "Zhang Yiming", "Toyoda Akio"; never a name in Arabic letters), the given name written apart,
  together or hyphenated alike;
- a second family name after the first ("Pedro Sánchez Pérez-Castejón", "Cristiano Ronaldo dos
  Santos Aveiro"), particles dropped ("von der", "dos", "bin"), a two-word family name joined
  ("Cannon Brookes" / "Cannon-Brookes"), German umlauts written "ue" ("Müller" / "Mueller");
- titles and suffixes dropped ("Sir", "Dr.", "Jr.", "III"), initials written "K. M." or "KM", a
  name in quotes read as the given name ('William Henry "Bill" Gates');
- a name in Chinese characters or Hangul read syllable by syllable (scripts.py): 张一鸣 is Zhang
  Yiming; a Japanese name in kanji as a dictionary of names reads it (japanese.py: 山中伸弥 is
  Yamanaka Shinya, 大谷 Otani or Ohtani); a given name that is no reading of a name in
  characters beside it (English, Jean Liu / 柳青; any no syllables of Chinese spell, Forrest Li /
  李小冬) weighs its family name alone (4): it joins only with an employer and a title that agree
  too, or through an alias a page states or a shared profile;
- a foreign name in katakana, Hangul, Cyrillic or Greek word by word by its sounds (foreign_names.py:
  デーブ・ロバーツ / Dave Roberts, 앤디 김 / Andy Kim, Уэйн Гретцки / Wayne Gretzky), 5;
- a name written as the initials of the whole other (initialisms.py: "MvG" / Michael van Gerwen,
  "AMLO"), 4 or 4.5;
- a Japanese name in kanji the dictionary does not read whole, read kanji by kanji (japanese.fits:
  東原敏昭 / Toshiaki Higashihara), 5;
- a name in Arabic, Hebrew, a Brahmic script or Thai against one in Latin letters, by their
  consonants (consonants.py: ناصف ساويرس / Nassef Sawiris), 5 at most: never enough without an
  employer.
A single name on both sides ("Faker", "Neymar") weighs 5.5: one word names more people than two.
Given names are compared by given_match.py (nicknames, short forms, initials, middle names).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

from exa_orch.workflows.entities.alphabets import ALPHABETS, cyrillic, read_otherwise, sounded, turkic_spelled
from exa_orch.workflows.entities.brahmic import has_brahmic, spelling_key
from exa_orch.workflows.entities.common_names import chinese_like
from exa_orch.workflows.entities.consonants import skeletons
from exa_orch.workflows.entities.foreign_names import (
    alphabet_words,
    cantonese_given,
    foreign_words,
    korean_given,
    one_cantonese,
    one_korean_family,
)
from exa_orch.workflows.entities.given_match import compare_given, forms, romanized_family, similar
from exa_orch.workflows.entities.given_names import one_ending
from exa_orch.workflows.entities.hokkien import read_as as hokkien_read
from exa_orch.workflows.entities.initialisms import initials_of_whole
from exa_orch.workflows.entities.japanese import fits, given_reading, latin_key, readings
from exa_orch.workflows.entities.names import fold, is_latin, words
from exa_orch.workflows.entities.scripts import (
    chinese_spelled,
    hong_kong_key,
    is_cjk,
    onset,
    spelled_alike,
    syllabic,
)
from exa_orch.workflows.entities.titles import (
    GENERATION,
    HONORIFICS,
    PARTICLES,
    TITLE_PAIRS,
    generation_evidence,
    given_first,
    regnal_evidence,
    without_titles,
)
from exa_orch.workflows.entities.word_tables import ARABIC_LETTERS

_UMLAUTS = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue"})
_CAPS_INITIALS = re.compile(r"^[A-Z]{2,3}$")


class PersonName(NamedTuple):
    """One reading of a written name: given names, family name, a second family name after it."""

    given: tuple[str, ...]
    family: str
    extra: tuple[str, ...] = ()  # family names after `family` ("perezcastejon")
    spellings: frozenset[str] = frozenset()  # other spellings of `family` (a Korean one, from Hangul)
    script: str = ""  # read from Chinese characters ("han") or Hangul ("hangul") (scripts.py)
    joined: bool = False  # `family` is two written words joined ("cannon brookes"): never a typo

    @property
    def key(self) -> str:
        return " ".join((*self.given, self.family, *self.extra))


def person_key(name: str) -> str:
    """A person's name for matching: folded, titles and initials dropped ("Dr. John A. Smith" ->
    "john smith"); a Chinese or Korean name as family and given name ("李彦宏" -> "li yanhong")."""
    read = syllabic(name.replace(" ", ""))  # "宮本 茂" and "宮本茂" are one name written two ways
    if read:
        return f"{read.family} {read.given}".strip()
    ws = words(name)
    return " ".join(w for i, w in enumerate(ws) if not _title(w, i, len(ws)) and len(w) > 1)


# Titles that are family names too ("Marty Baron", "Stephen Lord"): a title only where it opens.
_ALSO_FAMILY = frozenset({"baron", "lord", "ing", "doc", "mag"})  # 殷 Ing


def _title(word: str, at: int, of: int) -> bool:
    """`word`, the `at`th of a name's `of` words, is a title, not a name: never a family name's
    word last in the name."""
    return word in HONORIFICS and not (word in _ALSO_FAMILY and at == of - 1 and at > 0)


def _tokens(name: str) -> list[list[str]]:
    """The words of `name` (titles out, particles out but for the first word); a second list reads
    a 2-3 letter word in capitals ("KM Birla", "MS Dhoni") as initials."""
    text = re.sub(r"[(（][^)）]*[)）]", " ", name)  # "(Jay Y. Lee)": an alias, read by records.py
    text = TITLE_PAIRS.sub(" ", text)
    text = re.sub(r"\b(?:[Aa]l|[Ee]l)-", " ", text).replace("-", "")  # "Al-Maktoum" is "Al Maktoum"
    plain: list[str] = []
    caps: list[str] = []
    raws = text.split()
    for at, raw in enumerate(raws):
        # a Russian or Ukrainian "-ий" ending as one spelling (given_names.one_ending)
        found = [one_ending(w) for w in words(raw) if not _title(w, at, len(raws))]
        plain.extend(found)
        caps.extend(list(raw.lower()) if _CAPS_INITIALS.match(raw) else found)  # "MS": initials, not Ms.
    out = [plain, caps] if caps != plain else [plain]
    # a particle opens a family name: never the last word ("Hyun Bin", Bin his given name)
    return [[w for i, w in enumerate(t) if i in (0, len(t) - 1) or w not in PARTICLES] for t in out]


def _readings(t: list[str], family_first: bool = True) -> list[PersonName]:
    """Given names first (the family name last, or followed by a second one), family name first
    (not for a name in Arabic letters: never so written), and a two-word family name joined."""
    if not t:
        return []
    if len(t) == 1:
        return [PersonName((), t[0])]
    out = [PersonName(tuple(t[:k]), t[k], tuple(t[k + 1 :])) for k in range(len(t) - 1, 0, -1)]
    out += [PersonName(tuple(t[1:]), t[0])] if family_first else []
    if len(t) >= 3 and len(t[-2]) > 1:
        out.append(PersonName(tuple(t[:-2]), t[-2] + t[-1], joined=True))
    return [r for r in out if len(r.family) > 1]  # an initial is never the family name


_INVERTED = re.compile(r"^\s*([^\W\d_][^,\d]*?),\s*([^\W\d_][^,\d]*?)\s*$")
# in double quotes or guillemets, or in single quotes between words ("Roberto 'Gato' Fernández";
# an apostrophe inside a word, O'Brien, is none)
_QUOTED = re.compile(r"[\"“”«»]([^\"“”«»]{2,30})[\"“”«»]|(?<=\s)['‘]([^'‘’\s][^'‘’]{1,29})['’](?=\s)")


def _spellings(name: str) -> list[str]:
    """`name` as written ("Family, Given" as "Given Family"), with umlauts as "ue" and an old
    Indonesian oe as u (_DUTCH_OE), and with the name in quotes as its given name
    ('William Henry "Bill" Gates' is also "Bill Gates"), without the quoted part otherwise."""
    inverted = _INVERTED.match(name)  # "Trudeau, Justin Pierre James": a register's family name first
    out = [f"{inverted.group(2)} {inverted.group(1)}" if inverted else name]
    quoted = _QUOTED.search(name)
    if quoted:
        out = [_QUOTED.sub(" ", name), (quoted.group(1) or quoted.group(2)) + " " + name[quoted.end() :]]
    out = [*out, *(u for n in out if (u := n.translate(_UMLAUTS)) != n)]
    return [*out, *(u for n in out if (u := _DUTCH_OE.sub("u", n)) != n)]


# Indonesian names in the spelling of before 1972, oe for u, which the same name keeps or drops
# (Soekarno / Sukarno, Djojohadikoesoemo / Djojohadikusumo): read both ways
_DUTCH_OE = re.compile(r"oe(?=[^\Waeiou])", re.I)


# A description in brackets closing a name, as an article's title tells namesakes apart
_ASIDE = re.compile(r"\s*[(（][^()（）]+[)）]\s*$")
# Letters only Vietnamese writes (ơ, ư, đ, and a vowel with a tone mark below or a hook above): a
# name in them is written family name first, and English reverses all of it ("Nguyễn Thanh Việt",
# Viet Thanh Nguyen) as often as it moves the family name alone ("Nguyễn Tấn Dũng", Tan Dung Nguyen)
_VIETNAMESE = re.compile(r"[ơưđƠƯĐ\u1ea0-\u1ef9]")


@lru_cache(maxsize=65536)
def parse(name: str) -> tuple[PersonName, ...]:
    """Every reading of `name` (module docstring), the plain one (given names, family name) first;
    a Japanese name in kanji also as the name dictionary reads it (japanese.py). A name in
    characters or Hangul is read without the namesake's description an article title writes after
    it ("김하늘 (배우)", the actress; "湊崎紗夏 (歌手)")."""
    bare = _ASIDE.sub("", name)
    name = bare if bare != name and is_cjk(bare) else name
    read = syllabic(name)
    japanese = tuple(PersonName((g,), f, script="ja") for f, g in readings(name))
    if read:
        given = (read.given,) if read.given else ()
        script = "hangul" if read.korean else "han"
        wade = (PersonName((read.wade,), read.family, (), read.spellings, script),) if read.wade else ()
        canto = tuple(PersonName((c,), read.family, (), read.spellings, script) for c in read.cantonese)
        return (PersonName(given, read.family, (), read.spellings, script), *wade, *canto, *japanese)
    if japanese:
        return japanese
    name = cyrillic(name) or _HANDLE.sub("", name) or name
    # "King Harald V of Norway" is Harald V, read beside the name as written: "Sultan" opens
    # Hassanal Bolkiah's name as a title and is Sultan Al Jaber's given name (titles.py)
    bare = without_titles(name)
    out: list[PersonName] = []
    for spelling in [*(_spellings(bare) if bare != name else []), *_spellings(name)]:
        for t in _tokens(spelling):
            reversed_ = (
                [PersonName(tuple(t[:0:-1]), t[0])] if len(t) >= 3 and _VIETNAMESE.search(spelling) else []
            )
            each = _readings(t, not ARABIC_LETTERS.search(spelling))
            out.extend(r for r in [*each, *reversed_] if r not in out)
    return tuple(out)


SAME_FAMILY = "same family name"  # how name_evidence says two family names agree
SINGLE = "the same single name"  # and one name alone on both sides


def _family(x: PersonName, y: PersonName) -> tuple[float, str]:
    """How two readings' family names agree: the same (a Korean spelling too), one followed by a
    second family name the other leaves out, a typo, or different."""
    same = x.family == y.family or x.family in y.spellings or y.family in x.spellings
    otherwise = None if same else _spelled_otherwise(x, y)
    if otherwise:
        return 4.0, f"{SAME_FAMILY} ({x.family} / {y.family}, {otherwise})"
    if same and x.extra and y.extra and x.extra != y.extra:
        return -5.0, f"different second family names ({' '.join(x.extra)} / {' '.join(y.extra)})"
    if same and x.extra != y.extra:
        return 2.5, f"{SAME_FAMILY} {x.family}, a second family name on one side"
    if same:
        spelled = x.family != y.family
        return 4.0, f"{SAME_FAMILY} ({x.family} / {y.family}, one name)" if spelled else SAME_FAMILY
    if (
        not (x.joined or y.joined)
        and min(len(x.family), len(y.family)) >= 4
        and (similar(x.family, y.family) >= 0.92 or spelled_alike(x.family, y.family))
    ):
        return 2.0, f"family names {x.family} / {y.family} differ by a typo"
    return -5.0, f"different family names ({x.family} / {y.family})"


def _spelled_otherwise(x: PersonName, y: PersonName) -> str | None:
    """How two family names are one spelled two ways, or None: romanized two ways
    (given_match.romanized_family: Giannakis / Yannakis), or a Korean one beside Korean given names
    (Cho Nam-chul / Jo Namcheol; John Park and John Bak are two people)."""
    if not (x.extra or y.extra) and romanized_family(x.family, y.family):
        return "one name romanized two ways"
    korean = _korean_spellings(x, y) and all(len(forms(g)) == 1 for g in x.given + y.given)
    return "one Korean name romanized two ways" if korean else None


def _given(x: PersonName, y: PersonName) -> tuple[float, str]:
    """How the readings' given names agree; a Korean one up to its romanization, read from Hangul
    or written in Latin letters under a Korean family name (Lee Joon-gi / Lee Jun-ki); one in
    characters up to the vowels Hong Kong spells otherwise (cantonese_given: Lee Shau Kee)."""
    gw, gr = compare_given(x.given, y.given)
    # two names read from Hangul, which writes every vowel, are one only as written (서진호 is not 서준호)
    both_read = x.script == y.script == "hangul"
    if gw <= 2.5 and x.given and y.given and not both_read and (_hangul(x, y) or _korean_spellings(x, y)):
        said = korean_given("".join(x.given), "".join(y.given))
        if said and said[0] > gw:
            return said
    if gw <= 0 and x.given and y.given and {x.script, y.script} == {"han", ""}:  # Hong Kong's spellings
        return cantonese_given("".join(x.given), "".join(y.given)) or (gw, gr)
    return gw, gr


def _hangul(x: PersonName, y: PersonName) -> bool:
    return "hangul" in (x.script, y.script)


def _korean_spellings(x: PersonName, y: PersonName) -> bool:
    """Two Latin names of one Korean family name, spelled alike or not (scripts.KOREAN_SURNAMES), each
    with one given name of three letters at least (Cho Kuk / Cho Guk, Cho Nam-chul / Jo Namcheol): a
    Korean name romanized two ways, whose given names korean_given reads."""
    return (
        not (x.script or y.script)
        and one_korean_family(x.family, y.family)
        and len(x.given) == len(y.given) == 1
        and min(len(x.given[0]), len(y.given[0])) >= 3
    )


def _single(a: str, b: str) -> tuple[float, str] | None:
    """One single name on both sides, or written in two words on one: less than a whole name
    ("Faker" / "Faker", "Emperor Naruhito" / "Naruhito", "Jungkook" / "Jung Kook"; Rain, Lisa)."""
    ra, rb = parse(a), parse(b)
    if any(not (x.given or y.given) and x.family == y.family for x in ra for y in rb):
        return 5.5, SINGLE
    if any(_run_together(x, y) or _run_together(y, x) for x in ra for y in rb):
        return 5.5, f"{SINGLE}, written in two words on one side"
    return None


def _run_together(x: PersonName, y: PersonName) -> bool:
    """`x` a single name that is `y`'s two words run together, in either order ("Jungkook" / "Jung
    Kook"; よしもとばなな, "yoshimotobanana" / Banana Yoshimoto, family name first as kana write it)."""
    return (
        not x.given
        and len(y.given) == 1
        and len(x.family) >= 6
        and x.family in (y.given[0] + y.family, y.family + y.given[0])
    )


def _english_beside(x: PersonName, y: PersonName) -> bool:
    """`x` read from Chinese characters or Hangul, `y` a given name that is no reading of
    characters: an English one the nickname tables know, not a Mandarin syllable ("Jean Liu"
    beside 柳青), no Japanese one (Chen Kentaro / 陳建民), or, beside Chinese characters, any no
    Chinese name's syllables spell (`scripts.chinese_spelled`: "Forrest Li" beside 李小冬, and a
    Hokkien one no table reads: "Kuok Khoon Hong" / 郭孔丰). Beside Hangul the tables' names only."""
    if x.script not in ("han", "hangul") or y.script or not 1 <= len(y.given) <= 2:
        return False
    if len(forms(y.given[0])) <= 1 and given_reading(y.given[0]):  # read after the cheap tests: a dataset
        return False
    if x.script == "han" and not chinese_spelled("".join(y.given)):
        # two syllables written apart are a dialect's reading of two characters (Hokkien "Khoon
        # Hong"), not an English name: their first sound must be one of the first character's
        # (孔 kong, hung: Kuok Khoon Hong is 郭孔丰; 惠 hui, wai: Kuok Khoon Ean is not 郭惠光)
        english = len(y.given) == 1 or len(forms(y.given[0])) > 1  # Justin Yifu Lin: an English name first
        return english or bool(x.given) and onset(y.given[0]) == onset(x.given[0])
    return len(y.given) == 1 and len(forms(y.given[0])) > 1 and not chinese_like(list(y.given))


def _hong_kong(x: PersonName, y: PersonName) -> bool:
    """`x` read from Chinese characters, `y` a Hong Kong name that puts one or two English given
    names before the whole Chinese name: "Tony Leung Chiu-wai" (tony, leung, chiuwai) beside 梁朝偉,
    its syllables written apart too, in any of Hong Kong's spellings (scripts.hong_kong_key: "Edmund
    Ho Hau Wah", 何厚鏵 "hauwa"; "Ho Chiu Fung, Daisy" as a board lists her; "Adrian David LI
    Man-kiu"), or the Chinese given name after the English one and before the family name ("Winston
    Yau-lai LO", 羅友禮)."""
    english, chinese = (y.given, y.extra) if y.extra else (y.given[:-1], y.given[-1:])
    return (
        x.script == "han"
        and not y.script
        and len(x.given) == 1
        and (x.family == y.family or y.family in x.spellings)
        and 1 <= len(english) <= 2
        and 1 <= len(chinese) <= 2
        and one_cantonese(hong_kong_key(x.given), hong_kong_key(chinese))
    )


def _script(x: PersonName, y: PersonName, a: str, b: str, weight: float) -> tuple[float, str]:
    """A reading from another script weighs less: a pinyin reading is one of several spellings, and
    two names in characters read alike (李伟 / 李维) may be two names."""
    if not (x.script or y.script) or a.strip() == b.strip() or weight <= 0:
        return weight, ""
    if x.script and y.script:
        return weight - 2.0, " (other characters that read alike)"
    return weight - 1.0, f" (read from {a if x.script else b})"


def _as_japanese(x: PersonName, other: PersonName) -> PersonName:
    """`x`, a Latin name, folded as Japanese names' Latin spellings are (japanese.latin_key:
    Ohtani / Otani) when `other` is a Japanese name read from kanji; else `x` as it is."""
    if other.script != "ja" or x.script:
        return x
    return x._replace(
        given=tuple(latin_key(g) for g in x.given),
        family=latin_key(x.family),
        extra=tuple(latin_key(e) for e in x.extra),
    )


# An English given name beside a name in characters whose family name agrees (Jean Liu / 柳青): the
# family name alone, as much as a name in characters read whole weighs less one (6 - 2): never a
# join without an employer and a title both agreeing (person_evidence). Not beside a name that
# writes a generation: "Henry T. Sy, Jr." has a father, 施至成 may be either.
_ENGLISH = 4.0
# A whole name in characters read in Latin letters, given and family names agreeing (4 + 3, less one
# for the reading): what "Tony Leung Chiu-wai" beside 梁朝偉 weighs, the English name said besides.
_WHOLE_READ = 6.0


@lru_cache(maxsize=65536)
def name_evidence(a: str, b: str) -> tuple[float, str]:
    """(weight, reason) for two written person names: the best reading of the two (module docstring)."""
    read = (
        generation_evidence(a, b, name_evidence)
        or _skeletons(a, b)
        or foreign_words(a, b)
        or regnal_evidence(a, b)
        or _single(a, b)
        or initials_of_whole(a, b)
    )
    if not (has_brahmic(a) or has_brahmic(b)):
        return read if read is not None else _read_whole(a, b)
    # a Brahmic script is read with its vowels too (brahmic.py), in the spellings its letters have
    # in Latin ones: its reading may say more than its consonants (विनीता सिंह, "vinita singh", is
    # Vineeta Singh's whole name)
    best = max(_read_whole(a, b), _read_whole(spelling_key(fold(a)), spelling_key(fold(b))))
    # but only a whole name's agreement outweighs what the consonants say: a family name alike
    # beside given names that differ does not undo "their consonants differ" (Sachin Pilot)
    return best if read is None or best[0] >= _WHOLE_READ else read


# A social handle a page writes after the name it goes by ("Mahira Khan (@mahirahkhan)"), the family
# a rich list counts with its head ("Lucio Tan & family"), and the words in lower case a Wikipedia
# title writes after a name to tell namesakes apart ("Jeet (actor)")
_HANDLE = re.compile(r"\s*(?:[(（]@[\w.]+[)）]|&\s*family)\s*$", re.IGNORECASE)
_TOLD_APART = re.compile(r"\s*\([a-z][a-z\s-]*\)\s*$")


def _untitled(name: str) -> str:
    """A written name without a handle, "& family" or a namesake's description after it, nor the
    titles before it (titles.without_titles: "President Abdel Fattah Al-Sisi", Abdel Fattah Al-Sisi),
    in the order the given name comes first (titles.given_first: "HARIRI Ayman", Ayman HARIRI)."""
    return given_first(without_titles(_TOLD_APART.sub("", _HANDLE.sub("", name))).strip()) or name


def _skeletons(a: str, b: str) -> tuple[float, str] | None:
    """consonants.skeletons of the names as written, or, where they differ, without the handles
    and titles either page writes beside the name, on one side or both (a title's word may be the
    other name's own: "الشيخ سلطان بن محمد" / "Sultan bin Muhammad")."""
    first = skeletons(a, b)
    if first is None or first[0] > 0:
        return first
    bare_a, bare_b = _untitled(a), _untitled(b)
    for x, y in dict.fromkeys([(bare_a, b), (a, bare_b), (bare_a, bare_b)]):
        if (x, y) == (a, b):
            continue
        again = skeletons(x, y)
        if again is not None and again[0] > 0:
            return again
    return first


def _read_whole(a: str, b: str) -> tuple[float, str]:
    """`name_evidence` by each reading of the two names, given names and family name."""
    best = _any_reading(a, b)
    sounds = (_by_kanji(a, b), _by_sound(a, b), _by_turkic(a, b), alphabet_words(a, b), hokkien_read(a, b))
    return max([best, *(s for s in sounds if s)])


def _by_turkic(a: str, b: str) -> tuple[float, str] | None:
    """Two Latin names, one written with Azerbaijani or Uzbek letters, read as English spellings of
    such names write them (alphabets.turkic_spelled: Teymur Rəcəbov / Teimour Radjabov, Ixtiyor /
    Ikhtiyor) and as their sounds go, weighed as a reading is, one less; None when not such a pair
    or they still differ."""
    spelled = turkic_spelled(a), turkic_spelled(b)
    x, y = (s or n for s, n in zip(spelled, (a, b), strict=True))
    if (spelled[0] is None) == (spelled[1] is None) or not (is_latin(x) and is_latin(y)):
        return None
    x, y = sounded(fold(x)), sounded(fold(y))
    weight, said = _any_reading(x, y)
    return (weight - 1.0, f"{said} (spelled as English writes such names)") if weight > 0 else None


def _by_sound(a: str, b: str) -> tuple[float, str] | None:
    """A name in a Cyrillic, Greek, Armenian or Georgian alphabet and a Latin one, both spelled as
    their sounds go (alphabets.sounded: Филипп Киркоров / Philipp Kirkorov, Владе Дивац / Vlade
    Divac), weighed as a reading is, one less; None when not such a pair or they still differ."""
    if bool(ALPHABETS.search(a)) == bool(ALPHABETS.search(b)) or not (is_latin(a) or is_latin(b)):
        return None
    script = a if ALPHABETS.search(a) else b
    # Г as the h Belarusian and Ukrainian say, and Russian writes for a foreign h (Глеб, Hleb)
    weight, said = max(
        _any_reading(*(sounded(fold(cyrillic(n) or n)) for n in p)) for p in read_otherwise(a, b)
    )
    return (weight - 1.0, f"{said} (read from {script} as it sounds)") if weight > 0 else None


def _any_reading(a: str, b: str) -> tuple[float, str]:
    """The best agreement of any reading of the one name with any of the other."""
    best: tuple[float, str] = (-8.0, "names differ")
    for x in parse(a):
        for y in parse(b):
            x, y = _as_japanese(x, y), _as_japanese(y, x)
            if _hong_kong(x, y) or _hong_kong(y, x):
                best = max(best, (_WHOLE_READ, "an English given name before the whole name in characters"))
                continue
            fw, fr = _family(x, y)
            if fw < 0 and best[0] > -8.0:
                continue  # this reading's family names differ: another reading already does better
            gw, gr = _given(x, y)
            weight, said = _script(x, y, a, b, fw + gw)
            if weight > best[0]:
                best = (weight, f"{gr}, {fr}{said}")
            if (
                fw >= 4.0
                and best[0] < _ENGLISH
                and (_english_beside(x, y) or _english_beside(y, x))
                and not GENERATION.keys() & set(words(a) + words(b))
            ):
                best = (_ENGLISH, f"an English given name beside a name in characters, {fr}")
    return best


def _by_kanji(a: str, b: str) -> tuple[float, str] | None:
    """A Japanese name in kanji and a Latin name of two words it reads as kanji by kanji
    (japanese.fits: 東原敏昭 / Toshiaki Higashihara, in either order), where the names dataset reads
    it otherwise (山崎 as the commoner Yamazaki: Toyoko Yamasaki) or not at all: 5, as a katakana
    name heard alike weighs (looser than a dictionary's reading, 6)."""
    for x, y in ((a, b), (b, a)):
        if is_latin(y) and not is_latin(x):
            x = _ASIDE.sub("", x) or x  # "湊崎紗夏 (歌手)": the name, not the namesake's description
            for p in parse(y):
                if len(p.given) == 1 and not p.extra and fits(x, p.family, p.given[0]):
                    return 5.0, f"{x} read kanji by kanji as {y}"
    return None
