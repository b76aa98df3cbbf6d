"""A company name written in another script read against a Latin one: `reading_agrees` says how
they agree (its reading begins with the other's first word, sounds as the other does, or keeps the
Cantonese reading of a Hong Kong name), `read_in_part` whether only the start agrees.
glossary.agrees asks it first, before the letters spelled out and the words translated.
"""

from __future__ import annotations

import re
from functools import lru_cache

from exa_orch.workflows.entities import hokkien
from exa_orch.workflows.entities.alphabets import ALPHABETS
from exa_orch.workflows.entities.brahmic import has_brahmic
from exa_orch.workflows.entities.countries import country_named, is_place
from exa_orch.workflows.entities.name_segments import RUN, Segment, segments
from exa_orch.workflows.entities.names import DESIGNATORS, fold, is_latin, words
from exa_orch.workflows.entities.provinces import HANZI, names_place
from exa_orch.workflows.entities.script_forms import without_cjk_forms
from exa_orch.workflows.entities.scripts import (
    han_chars,
    hong_kong_reading,
    is_cjk,
    latin_sound_keys,
    mandarin_halves,
    mandarin_syllables,
    sound_key,
    sounds_alike,
    taiwan_reading,
)
from exa_orch.workflows.entities.spelled import read_letters
from exa_orch.workflows.entities.terms import FILLER, TERMS, TRADE, WORD
from exa_orch.workflows.entities.word_tables import ARABIC_LETTERS, HEBREW_LETTERS


def reading_agrees(a_written: str, a_clean: str, b_written: str, b_clean: str) -> str | None:
    """How two company names agree when one is written in another script and the other in Latin
    letters (`_reading_agrees`, either way round), or None (both in one script, or no agreement)."""
    for written, cleaned, other_written, other in (
        (a_written, a_clean, b_written, b_clean),
        (b_written, b_clean, a_written, a_clean),
    ):
        if written and other_written and not is_latin(written) and is_latin(other_written):
            read = _reading_agrees(written, cleaned, other, "".join(words(other_written)))
            if read:
                return read
    return None


_LONGEST_FIRST = sorted(DESIGNATORS, key=lambda d: (-len(d), d))


def _distinct(word: str) -> bool:
    """A word whose sounds are more than a designator run into it: "ahlibank" is "ahli" and "bank",
    and "ahli" sounds only an l, which "البنك" ("the bank", "lbnk") begins with too."""
    for d in _LONGEST_FIRST:  # the longest that fits, whatever the set's order
        if len(word) > len(d) + 1 and (word.endswith(d) or word.startswith(d)):
            rest = word[: -len(d)] if word.endswith(d) else word[len(d) :]
            return len(sound_key(rest)) >= 3
    return True


# How `_reading_agrees` says a reading agrees with the start of the other name only
_BEGINS = ", which begins with "
_OPENS = " opens with"


def read_in_part(reason: str) -> bool:
    """Whether `reason` (reading_agrees') says a reading agrees with the other name's start only
    ("흥아해운 reads heungahaeun, which begins with heung"): its words after the start may name
    another company of the brand ("Heung-A Line")."""
    return _BEGINS in reason or reason.endswith(_OPENS)


def _reading_agrees(written: str, cleaned: str, other: str, in_full: str) -> str | None:
    """How a company name written in another script (`written`, cleaned and so read in Latin
    letters: `cleaned`) agrees with a Latin one (`other`, cleaned; `in_full`, as written, its legal
    form too, run together):
    - its reading begins with the other's first word, four letters or more and not a designator
      ("紫金矿业", zijinkuangye / "zijin mining", "ヤマト運輸" / "yamato transport", "오리온", olion /
      "orion": Hangul's ㄹ is r or l). A Chinese company's English name keeps the reading of its
      own name and translates the trade;
    - or it sounds as the other does (scripts.sounds_alike): a loanword written in katakana,
      Hangul, Devanagari or Cyrillic ("셀트리온" / "celltrion", "Совкомфлот" / "sovcomflot"),
      whole or as its first word ("アステラス製薬" / "astellas": the trade in kanji after it).
    A Japanese name in kanji reads in Mandarin here and so rarely agrees. None when it does not."""
    if not cleaned or not other:
        return None
    words_ = [w for w in other.split() if w not in DESIGNATORS]
    if not words_:
        return None
    begins = _begins_alike(written, cleaned, other, words_, in_full)
    if begins:
        return begins
    # a Hong Kong name in traditional characters keeps its Cantonese reading in English, two words
    # for its first two characters (恒隆集團 / Hang Lung Group), which Mandarin reads otherwise (henglong)
    opening = "".join(words_[:2]) if len(words_) >= 2 else ""
    if opening and opening in hong_kong_reading(written):
        return f"{written} reads {opening} in Cantonese, which {other}{_OPENS}"
    # and a Taiwanese name its Wade-Giles reading (奇美實業 / Chi Mei Corporation), which pinyin
    # spells otherwise (qimei)
    if opening and opening == taiwan_reading(written):
        return f"{written} reads {opening} in Wade-Giles, which {other}{_OPENS}"
    # and a Southeast Asian one its Hokkien reading (白新春茶庄 / Pek Sin Choon, 金蘭食品 / Kimlan
    # Foods): its first two characters, or three, the Latin name's first words or first word run
    # together; never where the Latin name says a word the characters do not write (海天味业 is no
    # Haitian International), nor where they are a province or a city of China, no brand (安徽,
    # "anhui" in Hokkien too: 安徽金种子酒业 is no Anhui Kouzi Distillery)
    chars = han_chars(written)
    if len(chars) < 2 or _unwritten(written, other):
        return None
    for n, said in ((3, words_[:3]), (2, words_[:2]), (2, words_[:1])):
        if names_place("".join(chars[:n])):
            continue
        if len(chars) >= n and len(said) * 2 >= n and hokkien.spells(chars[:n], said):
            return f"{written} reads {' '.join(said)} in Hokkien, which {other}{_OPENS}"
    return None


def _begins_alike(written: str, cleaned: str, other: str, words_: list[str], in_full: str) -> str | None:
    """`_reading_agrees` by the start of the reading, or by its sounds: the other's first word
    written, the whole name sounded, or its first word's sounds at the reading's start."""
    reading = cleaned.replace(" ", "")
    # a reading that agrees with the start of the other name only, a place, where the other says a
    # word the name in characters does not write (重庆银行 is not "Chongqing Rural Commercial Bank")
    unwritten = is_cjk(written) and _unwritten(written, other)
    if not unwritten and (begins := _begins_written(written, reading, other)):
        return begins
    # without the designators, or with them where the other script writes them too ("बैंक", bank),
    # its legal form too (Кумтор Голд Компани, Kumtor Gold Company: `in_full`, the name as written)
    said = tuple(dict.fromkeys(filter(None, ("".join(words_), other.replace(" ", ""), in_full))))
    # Latin letters beside characters are spelled, never heard (东风Honda is no "Dongfeng Motor")
    if (
        not (HANZI.search(written) and _LATIN_RUN.search(written))
        and any(sounds_alike(reading, s) for s in said)
        and not _abjad_apart(written, reading, said)
        and not _abjad_word_apart(written, cleaned, other)
        and not _short_word_apart(written, cleaned, other)
    ):
        return f"{written} reads {reading}, which sounds as {other} does"
    if unwritten and words_[0] in _WORD_FORMS:
        return None
    return _begins_heard(written, reading, other, words_)


def _begins_written(written: str, reading: str, other: str) -> str | None:
    """A name in characters whose reading begins with the Latin name's first word as written, four
    letters or more and no designator (紫金矿业, zijinkuangye / "zijin mining"; Hangul's ㄹ is r or l),
    or with its first words run together, pinyin written syllable by syllable (`_run_together`: 蜀九香
    / "Shu Jiu Xiang Hotpot"), and more than that word only (`_start_only`)."""
    if not is_cjk(written):
        return None
    first = other.split()[0]
    if len(first) < 4:
        first, other = _run_together(other.split(), reading)
    if len(first) < 4 or first in DESIGNATORS or not _opens(reading, first):
        return None
    return (
        None if _start_only(written, reading, first, other) else f"{written} reads {reading}{_BEGINS}{first}"
    )


def _run_together(said: list[str], reading: str) -> tuple[str, str]:
    """A Latin name's first two to four words run together, each a Mandarin syllable, or two, and
    five letters or more in all, where a reading opens with them ("da long yi" of 大龙燚火锅,
    dalongyihuoguo), and the name so written; ("", "") when none does."""
    for k in (4, 3, 2):
        lead = "".join(said[:k])
        if len(said) >= k and len(lead) >= 5 and _opens(reading, lead):
            if all(w in mandarin_syllables() or mandarin_halves(w) for w in said[:k]):
                return lead, " ".join([lead, *said[k:]])
    return "", ""


def _begins_heard(written: str, reading: str, other: str, words_: list[str]) -> str | None:
    """A reading whose sounds begin with the Latin name's first word's (`words_`: its words but the
    designators), heard each way another script may write it (Weihenstephan, ヴァイエンシュテファン: its
    w a v), four consonants at least as written and never fewer heard: a start heard shorter
    (PanStar, 팬스타: its r unsaid) is another company's of the brand as often (팬스타엔터프라이즈). A
    place a name in characters opens with is spelled, not heard (`_place_spelled_apart`)."""
    heard, own = sound_key(reading, read=True), sound_key(words_[0])
    leads = [k for k in latin_sound_keys(words_[0]) if len(k) >= len(own)]
    if (
        len(own) >= 4
        and not (_HANZI_ONLY.match(written) and in_pinyin(words_[0]))
        and _distinct(words_[0])
        and any(heard.startswith(k) for k in leads)
        and not _place_unheard(written, reading, words_[1:])
        and not (is_cjk(written) and _start_only(written, reading, words_[0], other))
        and not _place_spelled_apart(written, reading, words_[0])
        and not _abjad_apart(written, reading, (words_[0],), begins=True)
    ):
        return f"{written} reads {reading}{_BEGINS}the sounds of {words_[0]}"
    return None


# A name in Chinese characters alone (no kana, no Hangul, no Latin letters): read in Mandarin here
_HANZI_ONLY = re.compile(r"^[\u3400-\u9fff\s（）()·・]+$")


@lru_cache(maxsize=65536)
def in_pinyin(word: str) -> bool:
    """Whether a Latin word is pinyin of three characters or more run together ("hongyunhonghe"; it
    parts into no fewer), one of them at least ending in "ng" as no Western word's open syllables do
    (Panama, Alibaba): to meet a reading of characters as written (`_begins_written`), never by its
    sounds (红云红河 is heard in 云南中烟's "yunnanzhongyan" once its h's and y's fall silent); cached:
    glossary asks it of every word a run of characters may render."""
    if "ng" not in word:
        return False
    syllables = mandarin_syllables()
    fewest = {0: 0}  # where a run of syllables ends -> the fewest syllables it parts into
    for i in range(len(word)):
        if i in fewest:
            for k in range(1, 7):
                part = word[i : i + k]
                # a syllable opening with a vowel stands first only (pinyin writes "xi'an" apart):
                # "dangote" is no "dang o te"
                if (
                    part in syllables
                    and (i == 0 or part[0] not in "aeiouv")
                    and any(v in part for v in "aeiouv")
                    and fewest.get(i + k, 99) > fewest[i] + 1
                ):
                    fewest[i + k] = fewest[i] + 1
    return fewest.get(len(word), 0) >= 3


# Every English word a term translates to (terms.py): "mining" of 矿业, "airlines" of 航空
_TERM_ENGLISH = frozenset(w for _, english in TERMS.values() for w in english)


# Kana and Hangul: a name holding them is not read in Mandarin
_KANA_HANGUL = re.compile(r"[\u3040-\u30ff\uac00-\ud7a3]")


def _start_only(written: str, reading: str, first: str, other: str) -> bool:
    """Whether a name in characters whose reading begins with the first word (`first`) of a Latin
    name (`other`) agrees with it by that word only: the Latin name a province, a capital or a
    country alone (宁夏航空 is no "Ningxia"), or its next word a Mandarin reading the characters,
    read in Mandarin, do not read next (温州大虎打火机厂, "wenzhou dahu", is no "Wenzhou Dongfang
    Lighter"), not a trade's English word, or either name another brand beside that word
    (`_brand_between`, `_brand_after`, `_brand_unwritten`: 东风本田汽车, 东风Honda, "Dongfeng
    Peugeot-Citroën Automobile"). A brand's own English word after a province ("Hunan Valin
    Steel", 湖南华菱钢铁) is no reading of the characters, and not weighed."""
    rest = [w for w in other.split()[1:] if w not in DESIGNATORS]
    if not rest:
        return " " not in other and is_place(first)
    second = rest[0]
    if _KANA_HANGUL.search(written) or _opens(reading[len(first) :], second):
        return False
    if not is_place(first):
        # the name's runs and terms, its legal form and structure's words aside
        segs = [s for s in segments(without_cjk_forms(written)) if s.kind != FILLER]
        if (
            _brand_between(segs, first, rest)
            or _brand_after(segs, first)
            or _brand_unwritten(segs, first, rest)
        ):
            return True
    return len(second) >= 5 and second not in _TERM_ENGLISH and bool(mandarin_halves(second))


_LATIN_RUN = re.compile(r"[A-Za-z]{3,}")


def _brand_after(segs: list[Segment], first: str) -> bool:
    """Whether a name in characters reads the Latin name's first word, then Latin letters the Latin
    name's next word is not (`_start_only` has weighed it): another brand's (东风Honda, Dongfeng's
    and Honda's, is no "Dongfeng Motor" nor "Dongfeng Peugeot-Citroën")."""
    if not segs or segs[0].kind != RUN:
        return False
    k = _first_read(segs[0].text, first)
    return bool(k and _LATIN_RUN.match(segs[0].text[k:] + "".join(s.text for s in segs[1:])))


def _first_read(chars: str, first: str) -> int:
    """How many of `chars`, from the first, read as the Latin word `first`; 0 when none do."""
    return next((k for k in range(1, len(chars) + 1) if fold(chars[:k]).replace(" ", "") == first), 0)


def _trade_words(seg: Segment) -> set[str]:
    """Every English word a term's renderings say ("iron", "steel" of 钢铁)."""
    return {w for phrase in seg.english for w in phrase.split()}


# Every word of every English phrase a term translates to ("iron" of "iron and steel", 钢铁)
_TERM_WORDS = frozenset(w for phrase in _TERM_ENGLISH for w in phrase.split())


def _brand_unwritten(segs: list[Segment], first: str, rest: list[str]) -> bool:
    """Whether a name in characters reads the Latin name's first word, then a trade the Latin name
    says after words of five letters or more no term reads (东风汽车 / "Dongfeng Peugeot-Citroën
    Automobile"): the Latin name's brand between them, which the characters do not write."""
    if len(segs) < 2 or segs[0].kind != RUN or segs[1].kind != TRADE:
        return False
    if _first_read(segs[0].text, first) != len(segs[0].text):
        return False  # characters after it may read the Latin words (同欣電子, "Tong Hsing Electronic")
    said = _trade_words(segs[1])
    at = next((i for i, w in enumerate(rest) if w in said), 0)
    return at > 0 and all(len(w) >= 5 and w not in _TERM_WORDS for w in rest[:at])


def _brand_between(segs: list[Segment], first: str, rest: list[str]) -> bool:
    """Whether a name in characters reads the Latin name's first word, then two characters or more
    no place, then a trade the Latin name's next words say: another brand beside the first word
    the Latin name leaves unsaid (东风本田汽车, Dongfeng's and Honda's, is no "Dongfeng Motor";
    云岭陈记茶业 no "Yunling Tea"). A name ending in characters no term reads (绝味鸭脖, "Juewei
    Food") says its own trade there, not another brand."""
    if len(segs) < 2 or segs[0].kind != RUN or segs[1].kind != TRADE:
        return False
    said = _trade_words(segs[1])
    # the Latin words left, a term's English each, the characters would write as terms: the run
    # says none of them (Xi'an Aircraft Industrial, 西安飞机工业: 飞机 may be its "aircraft")
    if not said.intersection(rest) or any(w not in said and w not in _TERM_ENGLISH for w in rest):
        return False
    chars = segs[0].text
    k = _first_read(chars, first)
    return 0 < k < len(chars) - 1 and not names_place(chars[k:])


def _place_spelled_apart(written: str, reading: str, word: str) -> bool:
    """Whether a name in characters opens with a place spelled otherwise than the Latin name's first
    word, a place: 陕西 reads shaanxi, as Shaanxi is spelled apart from Shanxi (山西); by its reading
    or its term's English (重庆, which anyascii reads zhongqing, is Chongqing)."""
    if not (is_cjk(written) and is_place(word)) or _KANA_HANGUL.search(written) or _opens(reading, word):
        return False  # kana and Hangul write a place as it sounds (エルデネト, Erdenet)
    return not any(word in TERMS.get(written[:n], ("", ()))[1] for n in (2, 3))


def _opens(reading: str, word: str) -> bool:
    """`reading` begins with `word`, an l read as r (Hangul's ㄹ is r or l: 오리온 olion / orion)."""
    return reading.replace("l", "r").startswith(word.replace("l", "r"))


# Consonants one script writes for another's in a short word (a Spanish ch as a Russian ш, a
# ث as a t or an s): the rest of scripts.py's near ones (a j or a ch for a t) say another word there
_CLOSE = (frozenset("bp"), frozenset("mn"), frozenset("js"), frozenset("jk"), frozenset("st"))


def _short_word_apart(written: str, cleaned: str, latin: str) -> bool:
    """Whether a name read word by word out of an alphabet or an abugida (`written`, read as
    `cleaned`) and a Latin name of as many words, two or more, that sound alike whole
    (scripts.sounds_alike allows a consonant off in six) differ in a word of three consonants or
    fewer, where a consonant off is another word: one for another but a close one (`_CLOSE`;
    சுகுணா மோட்டார்ஸ், "chukuna", jkn, is not Deccan Motors, tkn), or, in an alphabet, which writes
    each sound, one added (Смолян-Керамика, smrn, is not Shumen Keramika, smn); an abugida's
    reading doubles and rolls consonants its name does not say, and its word that spells letters
    out (spelled.read_letters) is those letters or another word. Not a name in characters or in
    Arabic or Hebrew letters, which write no vowels (`_abjad_apart` weighs those)."""
    mine, theirs = cleaned.split(), latin.split()
    if len(mine) < 2 or len(mine) != len(theirs) or is_cjk(written) or _abjad(written):
        return False
    if any(len(w) <= 2 for w in mine):
        return False  # initials (ГК, "group of companies"), which may stand anywhere in the other name
    alphabet, brahmic = bool(ALPHABETS.search(written)), has_brahmic(written)
    return any(_word_apart(word, other, alphabet, brahmic) for word, other in zip(mine, theirs, strict=True))


def _word_apart(word: str, other: str, alphabet: bool, brahmic: bool) -> bool:
    """`_short_word_apart` of one word read (`word`) and the Latin word in its place (`other`)."""
    x, ys = sound_key(word, read=True), latin_sound_keys(other)
    if not x or len(other) == 1:
        return False  # a letter (P. C.) is read as its name
    letters = read_letters(word) if brahmic else ()
    if letters and not any(said == other or latin_sound_keys(said) & ys for said in letters):
        return True  # letters spelled out (এসকেএফ, SKF, or Eskayef) are no word they sound near (Square)
    if brahmic and re.search(r"[^aeiouy]ya?$", word) and "y" not in other:
        return True  # a consonant's y an abugida writes (सौर्य, saurya) is a letter off: not Shree
    if x in ys or min(len(x), max(map(len, ys))) > 3:
        return False
    return not any(_close(x, y) or (not alphabet and abs(len(x) - len(y)) == 1) for y in ys)


def _abjad(written: str) -> bool:
    """A name in Arabic or Hebrew letters, which write few vowels."""
    return bool(ARABIC_LETTERS.search(written) or HEBREW_LETTERS.search(written))


def _close(x: str, y: str) -> bool:
    """Two sound keys of one length, one consonant for a close one (`_CLOSE`)."""
    off = [{p, q} for p, q in zip(x, y, strict=True) if p != q] if len(x) == len(y) else []
    return len(off) == 1 and any(off[0] <= close for close in _CLOSE)


# Latin spellings of one Arabic letter (sh and ch for ش, gh for غ), and the Latin letters Arabic
# writes with one (p and b with ب, v and f with ف, g, j, q and k with ج, ق or ك), as `_abjad_key` reads them
_ABJAD_SOUNDS = (("sch", "s"), ("ch", "s"), ("sh", "s"), ("th", "t"), ("dh", "d"), ("kh", "k"), ("gh", "k"),
                 ("ph", "f"), ("ck", "k"), ("qu", "k"), ("x", "ks"))  # fmt: skip
_ABJAD_MERGE = str.maketrans("pvgjqc", "bfkkkk")


def _abjad_key(folded: str) -> str:
    """A folded name's consonants as Arabic letters tell them apart: l from r, b from f, m from n,
    which scripts.sound_key hears as one (Hangul's ㄹ is both l and r), the rest as one where
    Arabic writes one letter for two Latin ones."""
    w = re.sub(r"[^a-z]", "", folded.lower())
    for two, one in _ABJAD_SOUNDS:
        w = w.replace(two, one)
    w = re.sub(r"c(?=[eiy])", "s", w).translate(_ABJAD_MERGE)
    return re.sub(r"(.)\1+", r"\1", re.sub(r"[aeiouhwy]", "", w))


def _abjad_apart(written: str, reading: str, said: tuple[str, ...], *, begins: bool = False) -> bool:
    """Whether a name in Arabic letters that scripts.sound_key hears as a Latin name (whole, or at
    its start where it `begins` with it) is more than two of the consonants Arabic tells apart from
    each spelling of it in `said` (فرنسبنك, Fransabank, "frnsbnk", is not "blmbnk", BLOM Bank: f for
    b, r for l, n for m, and an s)."""
    if not ARABIC_LETTERS.search(written):
        return False
    from rapidfuzz.distance import Levenshtein  # on first use, as evidence.py does

    x = _abjad_key(reading)
    keys = [_abjad_key(s) for s in said]
    return all(Levenshtein.distance(x[: len(k)] if begins else x, k) > 2 for k in keys)


def _abjad_word_apart(written: str, cleaned: str, other: str) -> bool:
    """Whether a name in Arabic letters (Urdu, Persian) read word by word (`cleaned`) and a Latin
    name (`other`, cleaned) of as many words, two or more, an article written on its word (Bank
    Al-Maghrib, بنك المغرب) and a vowel alone (Bank-e-Millie) unwritten, that sound alike whole
    differ in a word: its consonants as Arabic tells them (`_abjad_key`) two or more off the Latin
    word's, and half of them or more. A trade's word both say carries a whole name's sounds
    (کوٹلی ماربل, "ktl mrbl", is not Chitral Marble, "strl mrbl")."""
    mine = cleaned.split()
    if not ARABIC_LETTERS.search(written) or len(mine) < 2:
        return False
    latin = [
        w for w in re.sub(r"\b(al|el) ", r"\1", f" {other} ").split() if w not in ("a", "e", "i", "o", "u")
    ]
    if len(mine) != len(latin):
        return False
    from rapidfuzz.distance import Levenshtein  # on first use, as evidence.py does

    for word, said in zip(mine, latin, strict=True):
        x, y = _abjad_key(word), _abjad_key(said)
        off = Levenshtein.distance(x, y)
        if off >= 2 and 2 * off >= max(len(x), len(y)):
            return True
    return False


def _place_unheard(written: str, reading: str, rest: list[str]) -> bool:
    """Whether a name in an alphabet (Cyrillic, Greek, Armenian, Georgian), read as `reading`, leaves
    unheard a city or a region the other name says after its first word: Атлетик Бильбао
    ("atletikbilbao") is not Atlético de Madrid, though both begin "atletik". A country's name is
    what a brand's name adds abroad (ПроКредит Банк / ProCredit Bank Ukraine)."""
    heard = sound_key(reading, read=True)
    return bool(ALPHABETS.search(written)) and any(
        is_place(w) and not country_named(w) and sound_key(w) not in heard for w in rest
    )


# The English words of the terms a name must write to be called by them (terms.WORD: places,
# "international", "national"), but a group's and a holding company's, which an English name
# adds to the short name in characters (紫金矿业 / Zijin Mining Group), each with the term's forms.
_WORD_FORMS: dict[str, frozenset[str]] = {
    word: frozenset(term for term, (kind, english) in TERMS.items() if kind == WORD and word in english)
    for word in {w for kind, english in TERMS.values() if kind == WORD for w in english}
    - {"group", "holdings", "holding"}
}


def _unwritten(written: str, other: str) -> bool:
    """Whether the Latin name `other` says a word the name in characters `written` would write as a
    term and does not: 华宝股份 is not "Huabao International" (国际 / 國際 is not in it)."""
    padded = f" {other} "
    return any(
        f" {w} " in padded and not any(t in written for t in forms) for w, forms in _WORD_FORMS.items()
    )
