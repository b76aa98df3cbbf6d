"""Two names in Chinese characters or kanji for one company: the one its legal name's, its province
or city left out (provinces.province_added), or the short name made of the first character of each
of its two-character words, its group's word kept (简称: 陕煤集团 of 陕西煤业化工集团, 南汽集团 of
南京汽车集团; 略称: 北鉄 of 北陸鉄道, 岡電 of 岡山電気軌道). profiles.py weighs either as one name;
clustering.py blocks a short name with the names it may stand for (`short_keys`). And a name that
leads another, written without spaces (`unspaced_leading`: 中鴻 / 中鴻鋼鐵), which profiles.py weighs
beside a country and a trade; and a listing's short name of a joint-stock company's legal name
(`listed_short`: 帝尔激光 / 武汉帝尔激光科技股份有限公司), which profiles.py weighs for two profiles, and a
Japanese market site's (`abbreviated`: 参天薬 / 参天製薬, 神戸鋼 / 神戸製鋼所), which it weighs for a quote
page on one (listings.listing: kabutan.jp, finance.yahoo.co.jp, nikkei.com)."""

from __future__ import annotations

import re
import unicodedata

from exa_orch.workflows.entities.kana_letters import romaji
from exa_orch.workflows.entities.name_segments import segments
from exa_orch.workflows.entities.names import fold
from exa_orch.workflows.entities.provinces import HANZI, place_word, province_added, without_province
from exa_orch.workflows.entities.script_forms import cjk_forms, without_cjk_forms
from exa_orch.workflows.entities.terms import FILLER, TERMS

_GROUP = re.compile(r"(集团|集團)$")
_BRACKETED = re.compile(r"[(（][^)）]*[)）]")  # 阳泉煤业(集团): a word bracketed, as a legal name writes it


def one_name(a: str, b: str) -> str | None:
    """How two names in Chinese characters or kanji are one company's (module docstring), or None."""
    return province_added(a, b) or _short_name(a, b)


def _bare(name: str) -> str:
    """A name in characters or Hangul without its legal form or the spaces between its words."""
    return without_cjk_forms(name).replace(" ", "")


def _core(name: str) -> tuple[str, str]:
    """A name without its legal form and what it brackets, and its group's word apart ("集团"), which
    a legal name may bracket (阳泉煤业(集团)股份有限公司)."""
    written = _bare(name)
    bare = _BRACKETED.sub("", written)
    group = _GROUP.search(bare)
    grouped = bool(group) or any(_GROUP.search(x.strip("(（)）")) for x in _BRACKETED.findall(written))
    return bare[: group.start()] if group else bare, "集团" if grouped else ""


def _firsts(core: str) -> str:
    """The first character of each two-character word of a name of two to four such words, or ""."""
    return core[::2] if HANZI.fullmatch(core) and len(core) in (4, 6, 8) else ""


def _short_name(a: str, b: str) -> str | None:
    """One name, two or three characters, the first characters of the other's first words, and
    both with a group's word or neither: 陕煤集团 / 陕西煤业化工集团."""
    if not (HANZI.search(a) and HANZI.search(b)):
        return None  # asked of every two profiles' names: most are Latin
    (core_a, group_a), (core_b, group_b) = _core(a), _core(b)
    short, long_ = sorted((core_a, core_b), key=len)
    if group_a != group_b or not HANZI.fullmatch(short) or len(short) > 3:
        return None
    if _firsts(long_).startswith(short):
        return f"{short} is the first character of each of {long_}'s first words"
    return None


def short_keys(name: str) -> set[str]:
    """Blocking keys that meet between a short name and a name it may be made of (`_short_name`)."""
    if not HANZI.search(name):
        return set()  # asked of every record's name
    core, group = _core(name)
    if HANZI.fullmatch(core) and 2 <= len(core) <= 3:
        return {f"z:{core}{group}"}
    firsts = _firsts(core)
    return {f"z:{firsts[:k]}{group}" for k in range(2, min(3, len(firsts)) + 1)}


# A name in Chinese characters, in Hangul, or in kana and kanji alone (its legal form aside): scripts
# that write no space between a name's words (はなまる beside はなまるうどん)
_UNSPACED = (HANZI, re.compile(r"[\uac00-\ud7a3]{2,}"), re.compile(r"[\u3040-\u30ff\u4e00-\u9fff々ー]{2,}"))


def unspaced_leading(a_name: str, b_name: str) -> tuple[str, list[str], list[str]] | None:
    """Two names in Chinese characters or two in Hangul, a page's (`a_name`) and a site's, the one
    the other's first two characters or more, one to four after them (a listing's short name:
    中鴻 beside 中鴻鋼鐵; 샘표 beside 샘표식품, 三井金属 beside 三井金属鉱業), or after the page's
    province or city (a brand's site, 欧神诺, beside its legal name, 广东欧神诺陶瓷有限公司), the
    shorter not a place and a trade alone (中國石油, PetroChina, only says "China" and "oil": not
    中國石油化工's): `a_name` as written bare, and each name's characters read as words, the shared
    ones and those added; None otherwise."""
    a, b = _bare(a_name), _bare(b_name)
    if a == b or not any(script.fullmatch(a) and script.fullmatch(b) for script in _UNSPACED):
        return None
    short, long_ = sorted((a, b), key=len)
    # the province aside on the page's side only: a listing's short name (同仁堂) is not the
    # company whose site gives its legal name (北京同仁堂科技发展股份有限公司)
    opened = long_ if long_.startswith(short) else without_province(long_) if long_ == a else ""
    if not opened.startswith(short) or len(opened) - len(short) > 4:
        return None
    # a legal name whole is no listing's short name: 北京同仁堂股份有限公司 is not 北京同仁堂科技发展股份有限公司
    # (a stock company's 股份 added is its form: 东风汽车股份有限公司, 东风汽车股份)
    added = segments(opened[len(short) :])
    if cjk_forms(a_name if short == a else b_name) and any(seg.kind != FILLER for seg in added):
        return None
    said = segments(short)
    places = (place_word(e) for seg in said for e in TERMS.get(seg.text, ("", ()))[1])  # not its reading
    if all(seg.kind != "run" for seg in said) and any(places):
        return None
    read = {short: [fold(short)], long_: [fold(short), fold(opened[len(short) :])]}
    return a, read[a], read[b]


_STOCK_FORM = "cjk:joint stock"  # 股份有限公司: the form a company listed in China or Taiwan takes
_HELD = re.compile(r"集团|集團|控股")  # a group's or a holding's word: a parent's name, not the listed arm's


def listed_short(listing: str, legal: str) -> str | None:
    """A listing's short name (证券简称, `listing`, its "股份" aside: 德业股份) that is a joint-stock
    company's legal name (`legal`) without its legal form, its leading province or city, and one or
    two characters after it (帝尔激光 of 武汉帝尔激光科技股份有限公司, 四川长虹 of 四川长虹电器股份有限公司);
    never a group's or a holding's name (东风汽车 is not 东风汽车集团股份有限公司) nor a unit's, which adds
    more (欣旺达 is not 欣旺达动力科技股份有限公司): the reason, or None."""
    if _STOCK_FORM not in cjk_forms(legal) or not HANZI.search(listing):
        return None  # asked of every two profiles one of which is a listing
    short, long_ = _bare(listing).removesuffix("股份"), _bare(legal)
    if len(short) < 2 or not (HANZI.fullmatch(short) and HANZI.fullmatch(long_)):
        return None
    for opened in (long_, without_province(long_)):
        added = opened[len(short) :]
        if opened.startswith(short) and 0 < len(added) <= 2 and not _HELD.search(added):
            return f"{listing} is the listing's short name of {legal}"
    return None


# A name in kanji and kana alone (a Japanese market site writes its Latin letters full width)
_JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff々ー]+")


def abbreviated(short_name: str, name: str) -> tuple[str, list[str], list[str]] | None:
    """A Japanese market site's short name (略称, `short_name`) of a company's name: its first two
    characters, then some of its other characters in order, fewer than it has (参天薬 of 参天製薬,
    神戸鋼 of 神戸製鋼所, 豊田織機 of 豊田自動織機) or its first ones (住友ファ of 住友ファーマ), or its
    first word and the Latin initials of the katakana after it (キヤノンＭＪ of キヤノンマーケティングジャパン): as
    `unspaced_leading` reads two names (the short name's words, the name's: the short name's and
    the characters it leaves out), or None."""
    short, long_ = _bare(short_name), _bare(name)
    if len(short) < 3 or len(short) >= len(long_) or short[:2] != long_[:2]:
        return None
    if (lead := _LATIN_AFTER.fullmatch(short)) and long_.startswith(lead.group(1)):
        return _capitals_after(short_name, lead.group(1), lead.group(2), long_[len(lead.group(1)) :])
    if not (_JAPANESE.fullmatch(short) and _JAPANESE.fullmatch(long_)):
        return None
    left, rest = [], iter(long_[2:])
    for ch in short[2:]:  # the characters the short name leaves out, each before one it keeps
        for other in rest:
            if other == ch:
                break
            left.append(other)
        else:
            return None
    left.extend(rest)
    return short_name, [fold(short)], [fold(short), fold("".join(left))]


# A short name's first word in kana or kanji and two Latin capitals or more after it, written full
# width or not (キヤノンＭＪ, ソニーＦＧ, サッポロＨＤ)
_LATIN_AFTER = re.compile(r"([\u3040-\u30ff\u3400-\u9fff々ー]{2,})([Ａ-ＺA-Z]{2,4})")


def _capitals_after(
    short_name: str, lead: str, capitals: str, rest: str
) -> tuple[str, list[str], list[str]] | None:
    """`abbreviated` for a short name of a first word (`lead`) and Latin capitals that spell, in
    order, the sounds of the katakana after it, the first its first (ＭＪ of マーケティングジャパン,
    "maketingujapan"); None otherwise."""
    letters, read = unicodedata.normalize("NFKC", capitals).lower(), romaji(rest).replace(" ", "")
    sounds = iter(read)
    if not read or read[0] != letters[0] or not all(ch in sounds for ch in letters):
        return None
    return short_name, [fold(lead)], [fold(lead), read]  # the name adds what the capitals spell
