"""Organisation names in Chinese characters, kana, Hangul, Thai or Arabic letters, translated word
by word.

A company's name in its own script and its English name are often a translation, not a reading:
대한항공 is Korean Air, 中国银行 Bank of China, 京都大学 Kyoto University, 日本銀行 the Bank of
Japan. `translates(written, latin)` cuts `written` into the terms terms.TERMS holds (longest first)
and the runs between them, and asks whether the words of the Latin name are those terms'
English words and those runs' readings, each used once, in any order:
- a term is one of its English words or phrases ("航空": air, airlines, airways, aviation), or
  its reading, which a Chinese company's English name may keep (东方电气 / Dongfang Electric);
- a run no term covers is its reading: Mandarin by anyascii ("恒瑞" hengrui), kana as romaji,
  Hangul by sound ("롯데" / Lotte: scripts.sound_key), Thai by its consonants ("เมือง" / Muang:
  consonants.skeletons, three at least), a Japanese family name in kanji as the
  names dataset reads it ("武田" takeda: japanese.py), or the initials of its syllables ("京东"
  jing dong / JD, as Chinese companies abbreviate);
- "company" and "limited" may be left out on either side; a group or a holding company ("集团",
  "控股", "ホールディングス") never is: it is another entity than its company of one name;
- a word of trade ("薬品" pharmaceutical, "工業" industries) may be left out of a Latin name one
  of whose words, four letters or more, a run's reading gives ("Takeda" / 武田薬品工業, "Takeda
  Pharmaceutical"): the brand is there. Never beside a term alone (三菱電機 is not "Mitsubishi");
- beside the brand too, the province or city a Chinese company's English name opens with may be
  unwritten in its own (科伦药业 / Sichuan Kelun Pharmaceutical).
Everything else must be accounted for on both sides: "China Construction Bank" is not 中国银行.
A name in Arabic, Hebrew, Cyrillic, Greek or Indic letters is translated by heard_words.py: its words
rendered by a table, the rest heard by their consonants.

The words, with where each was read, are in terms.py (and word_tables.py for the alphabets heard_words
reads).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from functools import lru_cache

from rapidfuzz.distance import Levenshtein

from exa_orch.workflows.entities import heard_words, spelled
from exa_orch.workflows.entities.consonants import skeletons
from exa_orch.workflows.entities.heard_words import content, without
from exa_orch.workflows.entities.japanese import (
    composed,
    heard,
    heard_katakana,
    heard_spellings,
    latin_key,
    spells,
)
from exa_orch.workflows.entities.name_segments import HAN, RUN, Segment, readings, segments, segments_from_end
from exa_orch.workflows.entities.names import fold, is_latin, words
from exa_orch.workflows.entities.provinces import names_place, place_word
from exa_orch.workflows.entities.read_names import in_pinyin, reading_agrees
from exa_orch.workflows.entities.script_forms import CJK_FORMS
from exa_orch.workflows.entities.scripts import latin_sound_keys, sound_key
from exa_orch.workflows.entities.terms import FILLER, TERMS, TRADE, WORD
from exa_orch.workflows.entities.thai_companies import thai_agrees
from exa_orch.workflows.entities.titles import ONE_HOLDS, TITLES

_HANGUL = re.compile(r"[\uac00-\ud7a3]")
_KANA = re.compile(r"[\u3041-\u3096\u30a1-\u30fa]")  # "SGホールディングス": kana and Latin letters
_THAI = re.compile(r"[\u0e01-\u0e2e]")
_LATIN_PART = re.compile(r"[A-Za-z]+")
_LETTERS = "letters"  # a Segment of Latin letters spelled out in Hangul (spelled.py)


def _run_meets(run: Segment, word: str) -> bool:
    """A run's reading is the Latin word: spelled alike, or heard alike (three consonants at least:
    롯데 / lotte is not enough, 셀트리온 / celltrion is), or a Japanese run of kanji read kanji by
    kanji as names read them, a word of four letters or more (堀場 / Horiba: japanese.spells), or a
    loanword in katakana heard as the word or its singular is, three consonants at least
    (マテリアル, "mtr" / "materials": katakana writes no plural; ケミカル / "chemical", a Greek ch as k)."""
    if word in run.english:
        return True
    # kana read as romaji, a long vowel written as Hepburn's variants write it (ロート, roto / Rohto)
    if _KANA.search(run.text) and latin_key(word) in {latin_key(r) for r in run.english}:
        return True
    sounds = sound_key(word)
    if (
        len(sounds) >= 3
        and _syllables_fit(run, word)
        and any(sound_key(r, read=True) == sounds for r in run.english)
    ):
        return True
    kana = heard_katakana(run.text)
    if kana and len(kana) >= 3 and kana in {heard(w) for w in _loanword_spellings(word)}:
        return True
    # a loanword in Hangul, heard as the English word is in any of the ways Hangul hears one
    # (scripts.latin_sound_keys: 머티리얼즈 / materials, 솔루션즈 / solutions, 케미칼 / chemical)
    if _HANGUL.search(run.text) and len(said := sound_key(run.english[0], read=True)) >= 3:
        return any(said in latin_sound_keys(w) for w in _loanword_spellings(word))
    if _THAI.search(run.text):  # a Thai word by its consonants, three at least (เมือง / Muang)
        by_consonants = skeletons(run.text, word)
        return len(sound_key(word)) >= 3 and by_consonants is not None and by_consonants[0] > 0
    return len(word) >= 4 and spells(run.text, word, company=True)


def _syllables_fit(run: Segment, word: str) -> bool:
    """A run of Chinese characters, a syllable each, heard as a Latin word of about as many (one
    more at most: 蓝思 / Lens): 合作金庫, four, is no "changhwa", two, whose consonants it shares; never
    a word in pinyin, which meets characters as their reading spells it (永康 is no "hongyunheng")."""
    if not HAN.search(run.text):
        return True
    return len(run.text) <= len(re.findall(r"[aeiouy]+", word)) + 1 and not in_pinyin(word)


def _loanword_spellings(word: str) -> set[str]:
    """The English spellings a katakana or Hangul loanword may render: the word, its singular, its
    ch read as k (chemical, technology) or as h, as Scots and German say it (Kilchoman,
    キルホーマン), and its g before e or i soft (technologies: テクノロジズ)."""
    forms = {word, word.removesuffix("s")}
    forms |= {f.replace("ch", k) for f in forms for k in ("k", "h")}
    return forms | {re.sub(r"g(?=[ei])", "j", f) for f in forms}


def _match(segs: tuple[Segment, ...], left: tuple[str, ...], branded: bool) -> bool:
    """Whether `segs` account for exactly the words `left` (module docstring), by backtracking."""
    if not segs:
        return not left
    seg, rest = segs[0], segs[1:]
    if seg.kind == RUN:
        for k, w in enumerate(left):
            if _run_meets(seg, w) and _match(rest, left[:k] + left[k + 1 :], branded):
                return True
        # a reading the Latin name writes as two words (萬海 wanhai / Wan Hai, 에너지머티리얼즈 /
        # Energy Materials)
        for k in range(len(left) - 1):
            if _run_meets(seg, left[k] + left[k + 1]) and _match(rest, left[:k] + left[k + 2 :], branded):
                return True
        return False
    for phrase in seg.english:
        remaining = without(phrase, left)
        if remaining is not None and _match(rest, remaining, branded):
            return True
    droppable = seg.kind == FILLER or (seg.kind == TRADE and branded)
    return droppable and _match(rest, left, branded)


# A Chinese state group's English name calls it a corporation (中国华电集团有限公司, China Huadian
# Corporation; 国家电力投资集团, State Power Investment Corporation): its listed arm, a joint-stock
# company (股份), is the "Group" (东风汽车集团股份有限公司, Dongfeng Motor Group Company Limited)
_GROUP = re.compile(r"集团|集團")


@lru_cache(maxsize=65536)
def translates(
    written: str, latin: str, *, says_company: bool = False, corporation: bool = False
) -> str | None:
    """How `written` (a name in Chinese characters, kana, Hangul, Thai or Arabic letters) translates to
    `latin` (a cleaned Latin name, whose written name `says_company`: heard_words.says_company), or
    None (module docstring); `corporation`: the Latin name as written says "Corporation" and the
    other writes no joint-stock form, so its 集团 may be that corporation (`_GROUP`). Its terms are
    found from its start, then from its end (name_segments.py: 동국제강, 동국 and 제강)."""
    if heard_words.table_of(written) is not None:  # Arabic, Hebrew, Cyrillic, Greek or Indic letters
        return heard_words.translate(written, latin, says_company=says_company)
    if not (HAN.search(written) or _HANGUL.search(written) or _KANA.search(written) or _THAI.search(written)):
        return None
    words = tuple(content(latin))
    for segs in dict.fromkeys((segments(written), segments_from_end(written))):
        if not words or not any(s.kind != FILLER for s in segs) or _few_sounds(written, segs):
            continue
        runs = [s for s in segs if s.kind == RUN]
        # the brand: a Latin word of four letters or more a run's reading gives ("takeda")
        branded = any(len(w) >= 4 and _run_meets(s, w) for s in runs for w in words)
        if not runs and len(words) < 2:
            continue  # one term alone ("中国" / "China") names no organisation
        if said := _matched(written, latin, segs, words, branded, corporation=corporation):
            return said
    return None


def _matched(
    written: str,
    latin: str,
    segs: tuple[Segment, ...],
    words: tuple[str, ...],
    branded: bool,
    *,
    corporation: bool,
) -> str | None:
    """`translates` once `written` is cut into `segs`: the words `_match`ed as they are, with its
    group read as the corporation the Latin name says, its letters spelled out, or its place left
    unwritten (`_place_unwritten`)."""
    if _match(segs, words, branded):
        return f"{written} translates as {latin}"
    # "Industries" an English name adds after the trade the characters write (日本製紙, Nippon Paper
    # Industries); never after a brand alone (トヨタ is not Toyota Industries)
    if (
        words[-1:] == ("industries",)
        and any(s.kind == TRADE for s in segs)
        and _match(segs, words[:-1], branded)
    ):
        return f"{written} translates as {latin}, but for the Industries it adds"
    # and "Industries" (工業) it leaves out after another trade it says (古河電気工業, Furukawa Electric;
    # never a group's name alone: 三菱電機 is not Mitsubishi)
    said = [s for s in segs if s.kind != FILLER]
    if (
        len(said) >= 3
        and said[-1].kind == said[-2].kind == TRADE
        and "industries" in said[-1].english
        and _match(tuple(said[:-1]), words, branded)
    ):
        return f"{written} translates as {latin}, but for the Industries it leaves out"
    if corporation and _GROUP.search(written) and _match(segs, (*words, "group"), branded):
        return f"{written} translates as {latin}, its group a corporation"
    if any(_match(spelled, words, branded) for spelled in _spelled_out(segs)):
        return f"{written} translates as {latin}, its letters spelled out"
    return _place_unwritten(written, latin, segs, words, branded)


def _spelled_out(segs: tuple[Segment, ...]) -> Iterator[tuple[Segment, ...]]:
    """`segs` with one run of Hangul read as the Latin letters it spells out (spelled.py: 이앤씨,
    E&C), the syllables beside them a run of their own."""
    for k, seg in enumerate(segs):
        if seg.kind != RUN or not _HANGUL.search(seg.text):
            continue
        for head, tail, letters in spelled.spellings(seg.text, alone=len(segs) == 1):
            said = [Segment(x, RUN, readings(x)) for x in (head,) if x]
            said.append(Segment(seg.text[len(head) : len(seg.text) - len(tail)], _LETTERS, letters))
            said.extend(Segment(x, RUN, readings(x)) for x in (tail,) if x)
            yield (*segs[:k], *said, *segs[k + 1 :])


def _place_unwritten(
    written: str, latin: str, segs: tuple[Segment, ...], words: tuple[str, ...], branded: bool
) -> str | None:
    """A Chinese company's English name opening with its province or city, which its own name
    leaves out (华友钴业 / Zhejiang Huayou Cobalt, 象屿股份 / Xiamen Xiangyu), where the brand is there:
    a run of characters no place is read as (日照钢铁, a city's steel works, is no "Shandong Steel
    Rizhao", the Rizhao works of Shandong Steel)."""
    if not any(s.kind == RUN and not names_place(s.text) for s in segs):
        return None
    if branded and len(words) >= 2 and HAN.search(written) and place_word(words[0]):
        if _match(segs, words[1:], branded):
            return f"{written} translates as {latin}, its place {words[0]} unwritten"
    return None


def _few_sounds(written: str, segs: tuple[Segment, ...]) -> bool:
    """A name in kana (and Latin letters) that no term covers, heard in fewer than three consonants
    (イオン, "ion"): too many names' sounds to be one's translation."""
    if HAN.search(written) or _HANGUL.search(written) or any(s.kind != RUN for s in segs):
        return False
    return len(sound_key("".join(s.english[0] for s in segs if s.english), read=True)) < 3


def keys(written: str) -> Iterator[str]:
    """Blocking keys of a name in another script: each way its words may be rendered (a term's
    English words, a run's readings; structure left out; trade left out beside a run), as the
    sorted words `latin_keys` gives a Latin name, and run together; 64 at most a cut (its terms
    found from its start, its letters spelled out, from its end: `translates`)."""
    if heard_words.table_of(written) is not None:
        yield from heard_words.keys(written)
        return
    whole = segments(written)
    first = tuple(dict.fromkeys((whole, segments_from_end(written))))
    for cut in itertools.islice((*first, *_spelled_out(whole)), len(first) + 3):
        segs = [s for s in cut if s.kind != FILLER]
        if not segs or not any(s.kind != RUN for s in segs):
            continue
        choices = [list(s.english) + ([""] if s.kind == TRADE else []) for s in segs]
        for combo in itertools.islice(itertools.product(*choices), 64):
            said = " ".join(c for c in combo if c)
            if said:
                yield "t:" + " ".join(sorted(content(said)))
    yield from _brand_keys([s for s in whole if s.kind != FILLER])


def _brand_keys(segs: list[Segment]) -> Iterator[str]:
    """A Japanese brand in kanji no dictionary reads, beside trade words alone, read kanji by kanji
    (堀場製作所 / HORIBA: the trade left out, as `_match` leaves it out beside the brand)."""
    runs = [s for s in segs if s.kind == RUN]
    if len(runs) == 1 and all(s.kind == TRADE for s in segs if s is not runs[0]):
        yield from ("t:" + r for r in composed(runs[0].text, 48) if len(r) >= 4)


def latin_keys(clean: str) -> set[str]:
    """A Latin name's blocking keys for `keys`: its words but structure and stop words, sorted, and
    one word as it is (EgyptAir); its first word of four letters or more alone, a brand `_brand_keys`
    reads beside trade words (鈴木楽器製作所 / Suzuki Musical Instrument); and two words a run's
    reading writes as one run together (南亞塑膠 / Nan Ya Plastics)."""
    words = content(clean)
    own = {"t:" + " ".join(sorted(words)), *({"t:" + words[0]} if words and len(words[0]) >= 4 else set())}
    for k in range(len(words) - 1):
        joined = [*words[:k], words[k] + words[k + 1], *words[k + 2 :]]
        own.add("t:" + " ".join(sorted(joined)))
    return own


_STRUCTURE = frozenset({"group", "holdings", "holding"})


def _other_structure(a_written: str, a_clean: str, b_written: str, b_clean: str) -> bool:
    """One name says it is a group or a holding company (サッポロホールディングス, "Sapporo Holdings")
    and the other, which does not, says something else in its place ("Sapporo Breweries",
    サッポロビール): a group and one of its companies, whatever their first words share."""
    for written, other_written, other_clean in (
        (a_written, b_written, b_clean),
        (b_written, a_written, a_clean),
    ):
        if written and other_written and not is_latin(written) and is_latin(other_written):
            if _group_apart(written, other_clean):
                return True
    return False


def _group_apart(written: str, latin: str) -> bool:
    """`_other_structure` for a name in another script and a cleaned Latin one."""
    theirs = set(latin.split()) & _STRUCTURE
    mine = any(set(t.english) & _STRUCTURE for t in segments(written) if t.kind == WORD)
    said = [s for s in segments(written) if not (s.kind == WORD and set(s.english) & _STRUCTURE)]
    rest = [w for w in content(latin) if w not in _STRUCTURE]
    if len(content(latin)) < 2 or bool(theirs) == mine:
        return False
    if mine:
        return True  # a group in characters, a company of more words in Latin letters
    # a name in characters whose sounds go on past the Latin name's (サッポロビール, sapporobiru)
    return len(said) == len(rest) == 1 and len(sound_key(said[0].english[0], read=True)) > len(
        sound_key(rest[0])
    )


# A Latin name that runs its "bank" into its brand, one word (KASIKORNBANK, Commerzbank)
_RUN_IN_BANK = re.compile(r"([a-z]{4,})(bank)")


def agrees(a_written: str, a_clean: str, b_written: str, b_clean: str) -> str | None:
    """How two organisation names agree when one is written in another script and the other in
    Latin letters: read (read_names.reading_agrees), its letters spelled out (spelled.agrees) or
    translated (`translates`), either way round; a Latin name that runs its bank into its brand
    (`_RUN_IN_BANK`) also as two words, as the other script writes them (ธนาคารกสิกรไทย / KASIKORNBANK)."""
    said = _agrees(a_written, a_clean, b_written, b_clean)
    if said:
        return said
    if (m := _RUN_IN_BANK.fullmatch(a_clean)) and is_latin(a_written):
        return _agrees(f"{m.group(1)} {m.group(2)}", f"{m.group(1)} {m.group(2)}", b_written, b_clean)
    if (m := _RUN_IN_BANK.fullmatch(b_clean)) and is_latin(b_written):
        return _agrees(a_written, a_clean, f"{m.group(1)} {m.group(2)}", f"{m.group(1)} {m.group(2)}")
    return None


def _agrees(a_written: str, a_clean: str, b_written: str, b_clean: str) -> str | None:
    """`agrees` for the names as written."""
    read = reading_agrees(a_written, a_clean, b_written, b_clean)
    if read and not _other_structure(a_written, a_clean, b_written, b_clean):
        return read
    if thai := thai_agrees(a_written, b_written):
        return thai
    for written, cleaned, other_written, other in (
        (a_written, a_clean, b_written, b_clean),
        (b_written, b_clean, a_written, a_clean),
    ):
        if written and other_written and other and not is_latin(written) and is_latin(other_written):
            # a name in katakana alone is heard whole first (translates hears its words one by one)
            said = (
                _katakana_heard(CJK_FORMS.sub(" ", written), other)
                or spelled.agrees(written, cleaned, other)
                or translates(
                    CJK_FORMS.sub(" ", written).strip(),
                    other,
                    says_company=heard_words.says_company(other_written),
                    corporation=_says_corporation(other_written) and "股份" not in written,
                )
            )
            if said:
                return said
            heard = sound_key(fold(written), read=True)
            # a short name heard whole alike, three consonants (सिप्ला / Cipla, एयर इंडिया / Air India):
            # fewer than scripts.sounds_alike asks of a name it may read only the start of; a part in
            # Latin letters the other name writes as a word (LX하우시스 / LX Hausys; iM라이프, "nrp",
            # is no Hana Life)
            latin_part = set(words(" ".join(_LATIN_PART.findall(written))))
            if (
                len(heard) == 3
                and heard == sound_key(other.replace(" ", ""))
                and latin_part <= set(other.split())
            ):
                return f"{written} sounds as {other} does"
    return None


def _says_corporation(latin_written: str) -> bool:
    """A Latin name as written calls itself a corporation and not a group ("China Huadian
    Corporation Ltd.")."""
    said = set(fold(latin_written).replace(".", " ").split())
    return bool(said & {"corporation", "corp"}) and "group" not in said


def trade_unsaid(a_written: str, b_written: str, latin: str) -> bool:
    """Whether the one of two names in another script writes a trade (흥아해운: 해운, shipping) that
    the other, Latin, name (`latin`, cleaned) does not say in any of its renderings ("Heung-A Line")."""
    written = b_written if is_latin(a_written) else a_written
    if is_latin(written):
        return False
    trades = [s for s in segments(CJK_FORMS.sub(" ", written).strip()) if s.kind == TRADE]
    said = set(latin.split())
    return bool(trades) and not any(set(r.split()) <= said for t in trades for r in t.english)


def _katakana_heard(written: str, other: str) -> str | None:
    """A name in katakana heard as a Latin name is, in any of the spellings japanese.heard_spellings
    hears (japanese.heard_katakana: エビデント / Evident, "bdnt"; ベーカー・ヒューズ / Baker Hughes, its gh
    unsounded; シュナイダー・クロイツナッハ / Schneider Kreuznach, as German says it): three consonants
    or more alike, or one apart in six or more."""
    kana = heard_katakana(written)
    if not kana or len(kana) < 3:
        return None
    for latin in heard_spellings(other.replace(" ", "")):
        if kana == latin or (min(len(kana), len(latin)) >= 6 and Levenshtein.distance(kana, latin) <= 1):
            return f"{written.strip()} sounds as {other} does (katakana)"
    return None


def titles_agree(written: str, latin: str) -> str | None:
    """A title in another script (`written`) that renders as one the Latin `latin` title holds, a
    title one person holds at a time ("总裁" / "President"): the rendering, or None."""
    said = {w for term, english in TITLES.items() if term in written for w in english}
    folded = " " + " ".join(fold(latin).replace("-", " ").split()) + " "
    for title in sorted(said):
        if f" {title} " in folded and (title in ONE_HOLDS or " " in title):
            return title
    return None


def place_in(written: str, city: str) -> bool:
    """Whether a location written in Chinese characters, kana or Hangul names the city `city`
    (folded, Latin) by a term of place: "京都府京都市" names Kyoto, "上海市" Shanghai."""
    return any(term in written and city in english for term, (kind, english) in TERMS.items() if kind == WORD)
